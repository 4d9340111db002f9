// The pass is idempotent: a second run finds nothing to lower, and a module
// that already holds exactly the synthesized kernel reuses it.
// RUN: pld-opt %s --lower-l2-tensor-collectives | pld-opt --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor
// RUN: pld-opt %s --lower-l2-tensor-collectives --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-LABEL: func.func @first
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @first(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                 %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-COUNT-1: func.func private @__builtin_all_to_all_v__fp32(
// CHECK-NOT: func.func private @__builtin_all_to_all_v__fp32(
