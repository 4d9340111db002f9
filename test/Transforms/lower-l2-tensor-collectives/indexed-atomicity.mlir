// A failing run leaves the module as it was, whichever op fails: a bad
// indexed collective stops the rewrite of a good plain one and a good indexed
// one, and no kernel is synthesized.
// RUN: not pld-opt %s --lower-l2-tensor-collectives --mlir-print-ir-after-failure 2>&1 | FileCheck %s

// CHECK: error: 'pld.tensor.indexed_all_to_all_v' op signal stride S=8 is smaller than the launch width L=12
// CHECK-LABEL: IR Dump After LowerL2TensorCollectives Failed
// CHECK-LABEL: func.func @good
// CHECK: pld.tensor.all_to_all_v
// CHECK: pld.tensor.indexed_all_to_all_v
// CHECK-NOT: call
// CHECK-LABEL: func.func @bad
// CHECK: pld.tensor.indexed_all_to_all_v
// CHECK-NOT: __builtin_
// CHECK-NOT: pl.cast
module attributes {pl.arch = "a5"} {
  func.func @good(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                  %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 12 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    %1 = pld.tensor.indexed_all_to_all_v %in, %0, %s, %c, %r, %i {core_num = 8 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %1 : !pld.dtensor<16x4xf32>
  }
  func.func @bad(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                 %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 12 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}
