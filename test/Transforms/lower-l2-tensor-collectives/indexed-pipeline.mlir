// The indexed op through the whole pipeline (--pld-lower-collectives):
// after --materialize-dist-tensor-ctx the kernel has its six tensor slots
// (args[0..5]) then exactly three !pld.comm_ctx parameters, one per window
// parameter (target, signal, send_counts): args[6] is the one the kernel
// reads, args[7..8] unread duplicates. Two indexed exchanges that share only
// their signal (different payload and recv_counts buffers; input, send_counts
// and index are only read) are ordered by --auto-derive-task-dependencies,
// because the kernel's signal parameter is inout.
// RUN: pld-opt %s --pld-lower-collectives | FileCheck %s --implicit-check-not=pld.tensor.indexed_all_to_all_v

// CHECK-LABEL: func.func @chip(
// CHECK-SAME: %[[IN:[^:]*]]: !pl.tensor<20x4xf32> {pl.direction = "in"}
// CHECK-SAME: %[[T1:[^:]*]]: !pld.dtensor<16x4xf32> {pl.direction = "inout"}
// CHECK-SAME: %[[T2:[^:]*]]: !pld.dtensor<16x4xf32> {pl.direction = "inout"}
// CHECK-SAME: %[[S:[^:]*]]: !pld.dtensor<2x8xi32> {pl.direction = "inout"}
// CHECK-SAME: %[[C:[^:]*]]: !pld.dtensor<2xi32> {pl.direction = "in"}
// CHECK-SAME: %[[R1:[^:]*]]: !pl.tensor<2xi32> {pl.direction = "inout"}
// CHECK-SAME: %[[R2:[^:]*]]: !pl.tensor<2xi32> {pl.direction = "inout"}
// CHECK-SAME: %[[I:[^:]*]]: !pl.tensor<16xi32> {pl.direction = "in"}
// CHECK-SAME: %[[CT1:[^:]*]]: !pld.comm_ctx {pl.direction = "in"}, %[[CT2:[^:]*]]: !pld.comm_ctx {pl.direction = "in"}, %[[CS:[^:]*]]: !pld.comm_ctx {pl.direction = "in"}, %[[CC:[^:]*]]: !pld.comm_ctx {pl.direction = "in"},
// CHECK: call @__builtin_indexed_all_to_all_v__fp32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[CT1]], %[[CS]], %[[CC]])
// CHECK-SAME: pl.arg_directions = ["in", "inout", "inout", "in", "inout", "in", "in", "in", "in"], pl.core_num = 3 : i64, pl.sync_start, pl.task_deps = [], pl.task_id = 0 : i64
// CHECK: call @__builtin_indexed_all_to_all_v__fp32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[CT2]], %[[CS]], %[[CC]])
// CHECK-SAME: pl.core_num = 2 : i64, pl.sync_start, pl.task_deps = [0], pl.task_id = 1 : i64
// An exchange on another signal (and other buffers) is independent of both.
// CHECK: call @__builtin_indexed_all_to_all_v__fp32(
// CHECK-SAME: pl.task_deps = [], pl.task_id = 2 : i64
// The kernel: six tensor slots, then three contexts.
// CHECK-LABEL: func.func private @__builtin_indexed_all_to_all_v__fp32(
// CHECK-SAME: !pl.tensor<*xf32> {pl.direction = "in"}, %{{[^:]*}}: !pld.dtensor<*xf32> {pl.direction = "inout"}, %{{[^:]*}}: !pld.dtensor<*xi32> {pl.direction = "inout"}, %{{[^:]*}}: !pld.dtensor<*xi32> {pl.direction = "in"}, %{{[^:]*}}: !pl.tensor<*xi32> {pl.direction = "inout"}, %{{[^:]*}}: !pl.tensor<*xi32> {pl.direction = "in"}, %{{[^:]*}}: !pld.comm_ctx {pl.direction = "in"}, %{{[^:]*}}: !pld.comm_ctx {pl.direction = "in"}, %{{[^:]*}}: !pld.comm_ctx {pl.direction = "in"}) -> !pld.dtensor<*xf32>
// CHECK-NOT: !pld.comm_ctx
// CHECK: pl.func_kind = "aiv"
module attributes {pl.arch = "a5"} {
  func.func @chip(%in: !pl.tensor<20x4xf32>, %t1: !pld.dtensor<16x4xf32>, %t2: !pld.dtensor<16x4xf32>,
                  %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r1: !pl.tensor<2xi32>, %r2: !pl.tensor<2xi32>,
                  %i: !pl.tensor<16xi32>, %t3: !pld.dtensor<16x4xf32>, %s3: !pld.dtensor<2x8xi32>,
                  %r3: !pl.tensor<2xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t1, %s, %c, %r1, %i {core_num = 3 : i64}
        : !pl.tensor<20x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    %1 = pld.tensor.indexed_all_to_all_v %in, %t2, %s, %c, %r2, %i {core_num = 2 : i64}
        : !pl.tensor<20x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    %2 = pld.tensor.indexed_all_to_all_v %in, %t3, %s3, %c, %r3, %i {core_num = 1 : i64}
        : !pl.tensor<20x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %1 : !pld.dtensor<16x4xf32>
  }
}
