// One kernel per variant, shared by every call site of that variant whatever
// its shapes; each element type gets its own variant.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-LABEL: func.func @p2
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @p2(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @p4_twice
// CHECK: %[[A:.*]] = call @__builtin_all_to_all_v__fp32
// CHECK: %[[B:.*]] = call @__builtin_all_to_all_v__fp32
// CHECK: call @__builtin_all_to_all_v__int8
func.func @p4_twice(%in: !pld.dtensor<64x3xf32>, %t: !pld.dtensor<64x3xf32>, %t2: !pld.dtensor<64x3xf32>,
                    %s: !pld.dtensor<4x8xi32>, %c: !pld.dtensor<4x1xi32>, %r: !pld.dtensor<4x1xi32>,
                    %bi: !pld.dtensor<8x2xi8>, %bt: !pld.dtensor<8x2xi8>) -> !pld.dtensor<64x3xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<64x3xf32>, !pld.dtensor<64x3xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4x1xi32> -> !pld.dtensor<64x3xf32>
  %1 = pld.tensor.all_to_all_v %0, %t2, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<64x3xf32>, !pld.dtensor<64x3xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4x1xi32> -> !pld.dtensor<64x3xf32>
  %2 = pld.tensor.all_to_all_v %bi, %bt, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<8x2xi8>, !pld.dtensor<8x2xi8>, !pld.dtensor<4x8xi32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4x1xi32> -> !pld.dtensor<8x2xi8>
  return %1 : !pld.dtensor<64x3xf32>
}

// Exactly one definition of each variant.
// CHECK-COUNT-1: func.func private @__builtin_all_to_all_v__fp32(
// CHECK-NOT: func.func private @__builtin_all_to_all_v__fp32(
// CHECK-COUNT-1: func.func private @__builtin_all_to_all_v__int8(
// CHECK-NOT: func.func private @__builtin_all_to_all_v__
