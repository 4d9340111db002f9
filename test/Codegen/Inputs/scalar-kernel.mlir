// A lowered module whose kernel has a scalar parameter between its tensors,
// called with pl.abi_arg_count = 1 (only the first tensor packed). Sources are
// relative to this file's folder. (Input of kernel-config.test.)
func.func private @ks(%a: !pl.tensor<4xf32> {pl.direction = "inout"}, %n: i64 {pl.direction = "inout"},
                      %b: !pl.tensor<4xf32> {pl.direction = "out"}, %c: !pld.comm_ctx {pl.direction = "in"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/scale.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32> {pl.direction = "inout"}, %c: !pld.comm_ctx {pl.direction = "in"}) attributes {pl.func_kind = "orchestration"} {
  %n = arith.constant 3 : i64
  %r = call @ks(%a, %n, %a, %c) {pl.abi_arg_count = 1 : i64, pl.arg_directions = ["inout", "inout", "out", "in"], pl.task_deps = [], pl.task_id = 0 : i64}
      : (!pl.tensor<4xf32>, i64, !pl.tensor<4xf32>, !pld.comm_ctx) -> !pl.tensor<4xf32>
  return
}
