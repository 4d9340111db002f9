// A task reads %x, then a pl.tensor.assemble writes %x: the assemble is a task of the builtin
// copy kernel, ordered after the reader by pld's derived dependencies (a write after a read).
// A task reads a view of %y, then the orchestration itself stores into %y (pl.tensor.write):
// simpler's set_tensor_data waits for a tensor's writers and their readers only, so a task that
// reads memory the orchestration later stores into passes it INOUT; %z, never stored into, stays
// an input.
// copy_to moves 4-byte words (kernel_src/copy_to.cpp), so it serves i32 tensors too.
func.func private @copy_to(%src: !pl.tensor<4xi32> {pl.direction = "in"}, %dst: !pl.tensor<4xi32> {pl.direction = "out"}) -> !pl.tensor<4xi32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/copy_to.cpp"} {
  return %dst : !pl.tensor<4xi32>
}

func.func @store_order(%x: !pl.tensor<4xi32>, %y: !pl.tensor<8xi32>, %z: !pl.tensor<4xi32>, %out: !pl.tensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %o1 = call @copy_to(%x, %out) : (!pl.tensor<4xi32>, !pl.tensor<4xi32>) -> !pl.tensor<4xi32>
  %yv = pl.tensor.slice %y {offsets = array<i64: 4>, sizes = array<i64: 4>} : (!pl.tensor<8xi32>) -> !pl.tensor<4xi32> loc("yv")
  %o2 = call @copy_to(%yv, %o1) : (!pl.tensor<4xi32>, !pl.tensor<4xi32>) -> !pl.tensor<4xi32>
  %o3 = call @copy_to(%z, %o2) : (!pl.tensor<4xi32>, !pl.tensor<4xi32>) -> !pl.tensor<4xi32>
  %buf = pl.tensor.create : !pl.tensor<4xi32> loc("buf")
  %x2 = pl.tensor.assemble %buf into %x {offsets = array<i64: 0>} : !pl.tensor<4xi32> into !pl.tensor<4xi32>
  %zero = arith.constant 0 : i32
  %c4 = arith.constant 4 : index
  %y2 = pl.tensor.write %zero into %y[%c4] : i32 into !pl.tensor<8xi32>, index
  return
}

// The store reaches %w through a loop-carried value initialized with it: the task that read %w
// before the loop is INOUT too.
func.func @loop_store(%w: !pl.tensor<4xi32>, %out: !pl.tensor<4xi32>, %n: index)
    attributes {pl.func_kind = "orchestration"} {
  %o = call @copy_to(%w, %out) : (!pl.tensor<4xi32>, !pl.tensor<4xi32>) -> !pl.tensor<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 7 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %w) -> (!pl.tensor<4xi32>) {
    %s = pl.tensor.write %v into %acc[%i] : i32 into !pl.tensor<4xi32>, index
    scf.yield %s : !pl.tensor<4xi32>
  }
  return
}
