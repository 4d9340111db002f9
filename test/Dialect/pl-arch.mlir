// pl.arch on a builtin.module: "a2a3" (the default when absent) or "a5"; it
// round-trips. The indexed op takes a local recv_counts and index and an input
// with its own row count.
// RUN: pld-opt %s --split-input-file | FileCheck %s

// CHECK: module attributes {pl.arch = "a5"}
// CHECK-LABEL: func.func @indexed
// CHECK: pld.tensor.indexed_all_to_all_v %{{.*}} {core_num = 3 : i64} : !pl.tensor<20x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2x1xi32>, !pl.tensor<2xi32>, !pl.tensor<16x1xi32> -> !pld.dtensor<16x4xf32>
module attributes {pl.arch = "a5"} {
  func.func @indexed(%in: !pl.tensor<20x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                     %c: !pld.dtensor<2x1xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16x1xi32>) -> !pld.dtensor<16x4xf32> {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 3 : i64}
        : !pl.tensor<20x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2x1xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16x1xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// CHECK: module attributes {pl.arch = "a2a3"}
module attributes {pl.arch = "a2a3"} {
}
