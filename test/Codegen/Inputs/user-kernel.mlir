// An already-lowered module with one user AIV kernel whose source path is
// relative to this file's folder (kernel_src/scale.cpp).
func.func private @scale(%x: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/scale.cpp"} {
  return %x : !pl.tensor<4xf32>
}
func.func @twice(%x: !pl.tensor<4xf32> loc("x")) attributes {pl.func_kind = "orchestration"} {
  %a = call @scale(%x) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %b = call @scale(%a) {pl.arg_directions = ["inout"], pl.task_deps = [0], pl.task_id = 1 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}
