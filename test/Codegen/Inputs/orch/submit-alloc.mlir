// pl.submit with runtime-allocated Outs (runtime_alloc_outs): the operands pass
// the callee's leading parameters, the runtime allocates one buffer per entry
// for the trailing ones, and the task writes it (docs/lowering.md, "pl.submit").
// @copy_and_bump: %o = %a, %b += 1; @copy_to copies; @add_one adds 1.
func.func private @copy_and_bump(%a: !pl.tensor<4xf32> {pl.direction = "in"}, %b: !pl.tensor<4xf32> {pl.direction = "inout"},
                                 %o: !pl.tensor<4xf32> {pl.direction = "out"}) -> (!pl.tensor<4xf32>, !pl.tensor<4xf32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/copy_and_bump.cpp"} {
  return %b, %o : !pl.tensor<4xf32>, !pl.tensor<4xf32>
}
func.func private @copy_to(%src: !pl.tensor<4xf32> {pl.direction = "in"}, %dst: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/copy_to.cpp"} {
  return %dst : !pl.tensor<4xf32>
}
func.func private @add_one(%t: !pl.tensor<*xf32> {pl.direction = "inout"}) -> !pl.tensor<*xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %t : !pl.tensor<*xf32>
}

// The natural form: one In operand, the one out parameter left to the runtime.
func.func @natural(%x: !pl.tensor<4xf32> loc("x"), %y: !pl.tensor<4xf32> loc("y"))
    attributes {pl.func_kind = "orchestration"} {
  %r = pl.submit @copy_to(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %s = func.call @copy_to(%r, %y) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// Two results, the runtime-allocated one at result #1 (parameter #2): x is
// copied into the fresh buffer, w bumped in place; the buffer then gets 1
// added and is copied into y.
func.func @two_results(%x: !pl.tensor<4xf32> loc("x"), %w: !pl.tensor<4xf32> loc("w"), %y: !pl.tensor<4xf32> loc("y"))
    attributes {pl.func_kind = "orchestration"} {
  %sub:2 = pl.submit @copy_and_bump(%x, %w) {runtime_alloc_outs = array<i64: 1>} : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> (!pl.tensor<4xf32>, !pl.tensor<4xf32>)
  %u = pl.cast %sub#1 : !pl.tensor<4xf32> to !pl.tensor<*xf32>
  %b = func.call @add_one(%u) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  %c = pl.cast %b : !pl.tensor<*xf32> to !pl.tensor<4xf32>
  %s = func.call @copy_to(%c, %y) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}
