// Two chunks for atomic-output.test: the first builds (its kernel source
// exists), the second does not (@broken's source is missing).
func.func private @scale(%x: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/scale.cpp"} {
  return %x : !pl.tensor<4xf32>
}
func.func @good(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %a = call @scale(%x) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

func.func private @broken(%x: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/no_such_kernel.cpp"} {
  return %x : !pl.tensor<4xf32>
}
func.func @bad(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %a = call @broken(%x) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}
