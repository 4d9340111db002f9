// A task reads %x, then the orchestration stores into %x (pl.tensor.assemble)
// and into a view of %y: simpler's set_tensor_data waits for a tensor's writers
// and their readers only, so every task that reads memory the orchestration
// later stores into passes it INOUT; %z, never stored into, stays an input.
func.func private @copy_to(%src: !pl.tensor<4xf32> {pl.direction = "in"}, %dst: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/copy_to.cpp"} {
  return %dst : !pl.tensor<4xf32>
}

func.func @store_order(%x: !pl.tensor<4xf32>, %y: !pl.tensor<8xf32>, %z: !pl.tensor<4xf32>, %out: !pl.tensor<4xf32>)
    attributes {pl.func_kind = "orchestration"} {
  %o1 = call @copy_to(%x, %out) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %yv = pl.tensor.slice %y {offsets = array<i64: 4>, sizes = array<i64: 4>} : (!pl.tensor<8xf32>) -> !pl.tensor<4xf32> loc("yv")
  %o2 = call @copy_to(%yv, %o1) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %o3 = call @copy_to(%z, %o2) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %buf = pl.tensor.create : !pl.tensor<4xf32>
  %x2 = pl.tensor.assemble %buf into %x {offsets = array<i64: 0>} : !pl.tensor<4xf32> into !pl.tensor<4xf32>
  %y2 = pl.tensor.assemble %buf into %y {offsets = array<i64: 0>} : !pl.tensor<4xf32> into !pl.tensor<8xf32>
  return
}
