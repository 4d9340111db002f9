// A failing run leaves the module as it was: one bad collective stops the
// rewrite of the good one, and no kernel is synthesized.
// RUN: not pld-opt %s --lower-l2-tensor-collectives --mlir-print-ir-after-failure 2>&1 | FileCheck %s

// CHECK: error: 'pld.tensor.all_to_all_v' op core_num must be in [1, 2147483647], got 0
// CHECK-LABEL: IR Dump After LowerL2TensorCollectives Failed
// CHECK-LABEL: func.func @good
// CHECK: pld.tensor.all_to_all_v
// CHECK-NOT: call
// CHECK-LABEL: func.func @bad
// CHECK: pld.tensor.all_to_all_v
// CHECK-NOT: __builtin_all_to_all_v
// CHECK-NOT: pl.cast
func.func @good(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}
func.func @bad(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
               %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 0 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}
