// An already-lowered module whose one user AIV kernel (kernel_src/unordered_notify.cpp) breaks
// the device's order: test/Codegen/run-device-order.test.
func.func private @unordered_notify(%x: !pl.tensor<16xi32> {pl.direction = "inout"}) -> !pl.tensor<16xi32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/unordered_notify.cpp"} {
  return %x : !pl.tensor<16xi32>
}
func.func @publish(%x: !pl.tensor<16xi32> loc("x")) attributes {pl.func_kind = "orchestration"} {
  %a = call @unordered_notify(%x) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<16xi32>) -> !pl.tensor<16xi32>
  return
}
