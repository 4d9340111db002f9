// A lowered module whose parameters carry NameLocs that collide with names the
// generated C++ itself uses: the HOST-dispatched width local (block_num), the
// runtime's status constant, a <cstdint> type and macro, and the C symbol of
// the function the HOST entry dispatches. (Input of local-names.test.)
func.func private @k(%a: !pld.dtensor<8x4xf32> {pl.direction = "inout"}, %b: !pld.dtensor<8x4xf32> {pl.direction = "in"},
                     %c0: !pld.comm_ctx {pl.direction = "in"}, %c1: !pld.comm_ctx {pl.direction = "in"}) -> !pld.dtensor<8x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp", pl.require_contiguous_operands} {
  return %a : !pld.dtensor<8x4xf32>
}
func.func @chip(%a: !pld.dtensor<8x4xf32> {pl.direction = "inout"} loc("block_num"),
                %b: !pld.dtensor<8x4xf32> {pl.direction = "in"} loc("SIMPLER_ERROR_INVALID_ARGS"),
                %c0: !pld.comm_ctx {pl.direction = "in"}, %c1: !pld.comm_ctx {pl.direction = "in"})
    attributes {pl.func_kind = "orchestration"} {
  %0 = call @k(%a, %b, %c0, %c1) {pl.arg_directions = ["inout", "in", "in", "in"], pl.task_deps = [], pl.task_id = 0 : i64}
      : (!pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>, !pld.comm_ctx, !pld.comm_ctx) -> !pld.dtensor<8x4xf32>
  return
}
func.func @host_main(%n: i64 {pl.direction = "in"} loc("chip"), %m: i64 {pl.direction = "in"} loc("INT64_MIN"),
                     %q: i64 {pl.direction = "in"} loc("int64_t"))
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %0 = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %1 = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %2 = pld.window %0 : !pld.dtensor<8x4xf32>
  %3 = pld.window %1 : !pld.dtensor<8x4xf32>
  %c0 = arith.constant 0 : index
  %4 = pld.host.device_ctx %c0 : index
  pld.host.dispatch @chip(%2, %3, %4, %4) on %c0 core_num(%n) {pl.arg_directions = ["inout", "in", "in", "in"], pl.task_deps = [], pl.task_id = 0 : i64}
      : (!pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>, !pld.comm_ctx, !pld.comm_ctx), index
  %s = arith.addi %m, %q : i64
  return
}
// Parameters named after the orchestration API's functions the text calls unqualified.
func.func private @k2(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @api_names(%a: !pl.tensor<4xf32> loc("rt_submit_aiv_task"), %b: !pl.tensor<4xf32> loc("rt_is_fatal"),
                     %c: !pl.tensor<8xf32> loc("alloc_tensors"), %d: !pl.tensor<4xf32> loc("rt_report_fatal"),
                     %e: !pl.tensor<4xf32> loc("get_tensor_data"), %f: !pl.tensor<4xf32> loc("set_tensor_data"))
    attributes {pl.func_kind = "orchestration"} {
  %0 = call @k2(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %1 = call @k2(%b) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 1 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %2 = pl.tensor.assemble %d into %c {offsets = array<i64: 4>, pl.task_deps = [], pl.task_id = 2 : i64} : !pl.tensor<4xf32> into !pl.tensor<8xf32>
  %3 = pl.tensor.create : !pl.tensor<4xf32>
  %4 = call @k2(%e) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 3 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %5 = call @k2(%f) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 4 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}
