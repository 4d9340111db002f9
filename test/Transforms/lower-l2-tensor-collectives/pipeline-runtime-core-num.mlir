// The whole pipeline with a runtime core_num: the call inside pl.launch is
// one task like any call. --derive-call-directions records its directions,
// --auto-derive-task-dependencies orders stage -> collective -> consume
// through the launch's result, --materialize-dist-tensor-ctx appends the
// three contexts (args[5..7]) to the call inside; nothing else changes.
// RUN: pld-opt %s --pld-lower-collectives | FileCheck %s --implicit-check-not='pld.tensor.all_to_all_v %'

// CHECK-LABEL: func.func @chip_pipeline
// CHECK-SAME:  %[[L:arg[0-9]+]]: i64
// CHECK-SAME:  %[[C0:arg[0-9]+]]: !pld.comm_ctx {pl.direction = "in"}, %[[C1:arg[0-9]+]]: !pld.comm_ctx {pl.direction = "in"}, %[[C2:arg[0-9]+]]: !pld.comm_ctx {pl.direction = "in"}, %[[C3:arg[0-9]+]]: !pld.comm_ctx {pl.direction = "in"}, %[[C4:arg[0-9]+]]: !pld.comm_ctx {pl.direction = "in"})
// CHECK:       call @stage_step({{.*}}) {pl.arg_directions = ["in", "out"{{.*}}], pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK:       pl.require
// CHECK-NEXT:  %[[R:.*]] = pl.launch %{{.*}} -> !pld.dtensor<*xf32> {
// CHECK-NEXT:    func.call @__builtin_all_to_all_v__fp32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[C1]], %[[C2]], %[[C4]]) {pl.arg_directions = ["in", "inout", "inout", "in", "inout", "in", "in", "in"], pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK-NEXT:    pl.yield
// CHECK-NEXT:  }
// CHECK:       call @consume_step({{.*}}) {pl.arg_directions = ["in", "in", "out"{{.*}}], pl.task_deps = [1], pl.task_id = 2 : i64}
func.func private @stage_step(%inp: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32> {pl.direction = "out"}) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "aiv"} {
  return %stage : !pld.dtensor<16x4xf32>
}
func.func private @consume_step(%data: !pld.dtensor<16x4xf32>, %recv: !pld.dtensor<2xi32>, %out: !pl.tensor<16x4xf32> {pl.direction = "out"}) -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "aiv"} {
  return %out : !pl.tensor<16x4xf32>
}
func.func @chip_pipeline(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>,
                         %data: !pld.dtensor<16x4xf32>, %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                         %recv: !pld.dtensor<2xi32>, %core_num: i64) -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %staged = call @stage_step(%inp, %stage) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>) -> !pld.dtensor<16x4xf32>
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %counts, %recv core_num(%core_num)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %result = call @consume_step(%received, %recv, %out) : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}
