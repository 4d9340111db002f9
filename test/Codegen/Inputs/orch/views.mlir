// Tensor values in a CHIP orchestration body: views as descriptors into the
// same memory (view, transpose, slice at literal and SSA offsets, reshape,
// set_validshape, cast), a runtime-owned buffer (create), ordered copies and
// stores (assemble, write), a loop-carried tensor, pl.submit. @add_one adds 1 honouring strides; @copy_to copies.
func.func private @add_one(%t: !pl.tensor<*xf32> {pl.direction = "inout"}) -> !pl.tensor<*xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %t : !pl.tensor<*xf32>
}
func.func private @add_one_valid(%t: !pl.tensor<4x8xf32, valid = [2, 8]> {pl.direction = "inout"}) -> !pl.tensor<4x8xf32, valid = [2, 8]>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %t : !pl.tensor<4x8xf32, valid = [2, 8]>
}
func.func private @copy_to(%src: !pl.tensor<4xf32> {pl.direction = "in"}, %dst: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/copy_to.cpp"} {
  return %dst : !pl.tensor<4xf32>
}
func.func @views(%x: !pl.tensor<4x8xf32> loc("x"), %y: !pl.tensor<16xf32> loc("y"), %n: index loc("n"))
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // x[:, 4:8] += 1 through a strided view.
  %cols = pl.tensor.view %x {offsets = array<i64: 0, 4>} : !pl.tensor<4x8xf32> -> !pl.tensor<4x4xf32> loc("cols")
  %u0 = pl.cast %cols : !pl.tensor<4x4xf32> to !pl.tensor<*xf32>
  %r0 = func.call @add_one(%u0) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  // x[0:4, 0] += 1 through a transpose and a row of it.
  %t = pl.tensor.transpose %x {perm = array<i64: 1, 0>} : !pl.tensor<4x8xf32> -> !pl.tensor<8x4xf32> loc("xt")
  %row = pl.tensor.slice %t {offsets = array<i64: 0, 0>, sizes = array<i64: 1, 4>} : (!pl.tensor<8x4xf32>) -> !pl.tensor<1x4xf32> loc("xt_row")
  %u1 = pl.cast %row : !pl.tensor<1x4xf32> to !pl.tensor<*xf32>
  %r1 = func.call @add_one(%u1) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  // y[4i : 4i+4] += 1 for i < n, y carried by the loop.
  %yl = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (!pl.tensor<16xf32>) {
    %off = arith.muli %i, %c4 : index
    %s = pl.tensor.slice %acc[%off] {sizes = array<i64: 4>} : (!pl.tensor<16xf32>, index) -> !pl.tensor<4xf32> loc("chunk")
    %us = pl.cast %s : !pl.tensor<4xf32> to !pl.tensor<*xf32>
    %rs = func.call @add_one(%us) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
    scf.yield %acc : !pl.tensor<16xf32>
  }
  // y[12:16] += 1 through a reshape and its last row.
  %sq = pl.tensor.reshape %yl : !pl.tensor<16xf32> -> !pl.tensor<4x4xf32> loc("ysq")
  %last = pl.tensor.slice %sq {offsets = array<i64: 3, 0>, sizes = array<i64: 1, 4>} : (!pl.tensor<4x4xf32>) -> !pl.tensor<1x4xf32>
  %u2 = pl.cast %last : !pl.tensor<1x4xf32> to !pl.tensor<*xf32>
  %r2 = func.call @add_one(%u2) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  // x[0:2, :] += 1 through set_validshape (the descriptor's shape becomes valid).
  %v = pl.tensor.set_validshape %x {valid = array<i64: 2, 8>} : !pl.tensor<4x8xf32> -> !pl.tensor<4x8xf32, valid = [2, 8]>
  %r3 = func.call @add_one_valid(%v) : (!pl.tensor<4x8xf32, valid = [2, 8]>) -> !pl.tensor<4x8xf32, valid = [2, 8]>
  // A fresh zero buffer, +1, assembled into x[3, 0:4]; one element written.
  %buf = pl.tensor.create : !pl.tensor<1x4xf32> loc("buf")
  %ub = pl.cast %buf : !pl.tensor<1x4xf32> to !pl.tensor<*xf32>
  %rb = func.call @add_one(%ub) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  %x2 = pl.tensor.assemble %buf into %x {offsets = array<i64: 3, 0>} : !pl.tensor<1x4xf32> into !pl.tensor<4x8xf32>
  // pl.submit: y[0:4] copied into a second buffer, assembled into x[2, 0:4].
  %head = pl.tensor.slice %yl {offsets = array<i64: 0>, sizes = array<i64: 4>} : (!pl.tensor<16xf32>) -> !pl.tensor<4xf32>
  %buf2 = pl.tensor.create : !pl.tensor<4xf32> loc("buf2")
  %copy = pl.submit @copy_to(%head, %buf2) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %copy2 = pl.tensor.reshape %copy : !pl.tensor<4xf32> -> !pl.tensor<1x4xf32>
  %x3 = pl.tensor.assemble %copy2 into %x2 {offsets = array<i64: 2, 0>} : !pl.tensor<1x4xf32> into !pl.tensor<4x8xf32>
  return
}

// An SSA slice offset that leaves the source at run time.
func.func @bad_slice(%y: !pl.tensor<16xf32>, %o: index) attributes {pl.func_kind = "orchestration"} {
  %s = pl.tensor.slice %y[%o] {sizes = array<i64: 8>} : (!pl.tensor<16xf32>, index) -> !pl.tensor<8xf32>
  %u = pl.cast %s : !pl.tensor<8xf32> to !pl.tensor<*xf32>
  %r = func.call @add_one(%u) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  return
}

// A reshape of a tensor that is not contiguous at run time.
func.func @bad_reshape(%x: !pl.tensor<4x8xf32>) attributes {pl.func_kind = "orchestration"} {
  %cols = pl.tensor.view %x {offsets = array<i64: 0, 4>} : !pl.tensor<4x8xf32> -> !pl.tensor<4x4xf32>
  %flat = pl.tensor.reshape %cols : !pl.tensor<4x4xf32> -> !pl.tensor<16xf32>
  %u = pl.cast %flat : !pl.tensor<16xf32> to !pl.tensor<*xf32>
  %r = func.call @add_one(%u) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  return
}

// An assemble whose source is a slice of its own target: x[1:4, :] = x[0:3, :] as it was (the copy
// task's source is staged through a fresh buffer first; copied row by row in place, row 1 would
// be overwritten before it is read).
func.func @shift_assemble(%x: !pl.tensor<4x2xf32> loc("x")) attributes {pl.func_kind = "orchestration"} {
  %head = pl.tensor.slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 3, 2>} : (!pl.tensor<4x2xf32>) -> !pl.tensor<3x2xf32>
  %x2 = pl.tensor.assemble %head into %x {offsets = array<i64: 1, 0>} : !pl.tensor<3x2xf32> into !pl.tensor<4x2xf32>
  return
}
