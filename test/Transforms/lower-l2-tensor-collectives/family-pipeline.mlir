// The collective family through the whole CHIP pipeline (--pld-lower-collectives):
// each call gets its CommContexts after its tensors (args[n], n = the op's
// operand count: allreduce 2, allgather 3, barrier 1), and
// --auto-derive-task-dependencies orders calls that share a window: the
// allgather after the allreduce whose signal it shares, the barrier after the
// allgather, the allreduce after the kernel that wrote its target, every
// iteration of the layer loop alike.
// RUN: pld-opt %s --pld-lower-collectives | FileCheck %s --implicit-check-not=pld.tensor

func.func private @mlp(%x: !pl.tensor<8x16xf32> {pl.direction = "in"}, %y: !pld.dtensor<8x16xf32> {pl.direction = "inout"}) -> !pld.dtensor<8x16xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/mlp.cpp"} {
  return %y : !pld.dtensor<8x16xf32>
}

// CHECK-LABEL: func.func @tp_layers
// CHECK-SAME: (%[[X:[^:]*]]: !pl.tensor<8x16xf32> {pl.direction = "in"}, %[[Y:[^:]*]]: !pld.dtensor<8x16xf32> {pl.direction = "inout"}, %[[S:[^:]*]]: !pld.dtensor<4x2xi32> {pl.direction = "inout"}, %[[IN:[^:]*]]: !pl.tensor<2x16xf32> {pl.direction = "in"}, %[[ALL:[^:]*]]: !pld.dtensor<8x16xf32> {pl.direction = "inout"}, %[[C0:[^:]*]]: !pld.comm_ctx {pl.direction = "in"}
// CHECK: scf.for
// The kernel of iteration i+1 waits for the allreduce of iteration i (loop-carried).
// CHECK: %[[K:.*]] = func.call @mlp(%[[X]], %{{.*}}, %[[C0]]) {pl.arg_directions = ["in", "inout", "in"], pl.task_deps = [1], pl.task_id = 0 : i64}
// CHECK: func.call @__builtin_allreduce_sum__fp32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {pl.arg_directions = ["inout", "inout", "in", "in"], pl.core_num = 2 : i64, pl.sync_start, pl.task_deps = [0], pl.task_id = 1 : i64} : (!pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pld.comm_ctx, !pld.comm_ctx) -> !pld.dtensor<*xf32>
// CHECK: scf.yield
// CHECK: call @__builtin_allgather__fp32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {pl.arg_directions = ["in", "inout", "inout", "in", "in"], pl.core_num = 2 : i64, pl.sync_start, pl.task_deps = [1], pl.task_id = 2 : i64} : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pld.comm_ctx, !pld.comm_ctx) -> !pld.dtensor<*xf32>
// CHECK: call @__builtin_barrier(%{{.*}}, %{{.*}}) {pl.arg_directions = ["inout", "in"], pl.task_deps = [2], pl.task_id = 3 : i64} : (!pld.dtensor<*xi32>, !pld.comm_ctx) -> !pld.dtensor<*xi32>
// CHECK-LABEL: func.func private @__builtin_allreduce_sum__fp32
// CHECK-SAME: %arg2: !pld.comm_ctx {pl.direction = "in"}
// CHECK-LABEL: func.func private @__builtin_allgather__fp32
// CHECK-SAME: %arg3: !pld.comm_ctx {pl.direction = "in"}
// CHECK-LABEL: func.func private @__builtin_barrier
// CHECK-SAME: (%arg0: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg1: !pld.comm_ctx {pl.direction = "in"})
func.func @tp_layers(%x: !pl.tensor<8x16xf32>, %y: !pld.dtensor<8x16xf32>, %s: !pld.dtensor<4x2xi32>,
                     %in: !pl.tensor<2x16xf32>, %all: !pld.dtensor<8x16xf32>) -> !pld.dtensor<4x2xi32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %l = %c0 to %c4 step %c1 iter_args(%acc = %y) -> (!pld.dtensor<8x16xf32>) {
    %k = func.call @mlp(%x, %acc) : (!pl.tensor<8x16xf32>, !pld.dtensor<8x16xf32>) -> !pld.dtensor<8x16xf32>
    %a = pld.tensor.allreduce %k, %s {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<8x16xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x16xf32>
    scf.yield %a : !pld.dtensor<8x16xf32>
  }
  %g = pld.tensor.allgather %in, %all, %s {core_num = 2 : i64}
      : !pl.tensor<2x16xf32>, !pld.dtensor<8x16xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x16xf32>
  %b = pld.tensor.barrier %s : !pld.dtensor<4x2xi32> -> !pld.dtensor<4x2xi32>
  return %b : !pld.dtensor<4x2xi32>
}
