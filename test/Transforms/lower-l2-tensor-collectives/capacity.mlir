// The capacity check compares the signal stride S with the folded block
// count B, never the raw core_num: L=10 on P=8 launches B=8 blocks, so S=8
// is enough.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-LABEL: func.func @p8_l10_s8
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 8 : i64, pl.sync_start}
func.func @p8_l10_s8(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x8xi32>,
                     %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 10 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x8xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @p2_l3_s2
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 2 : i64, pl.sync_start}
func.func @p2_l3_s2(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x2xi32>,
                    %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 3 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x2xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}
