// A loop of n tasks (10000 in orch-long-loop.test), each after the previous one (INOUT on the
// same tensor): pld's runtime wakes a finished task's own dependents only, and drops a writer an
// INOUT task covers, so a long loop costs per task what a short one does.
func.func private @add_one(%t: !pl.tensor<*xf32> {pl.direction = "inout"}) -> !pl.tensor<*xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %t : !pl.tensor<*xf32>
}
func.func @long_loop(%y: !pl.tensor<4xf32> loc("y"), %n: index loc("n"))
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %yl = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (!pl.tensor<4xf32>) {
    %u = pl.cast %acc : !pl.tensor<4xf32> to !pl.tensor<*xf32>
    %r = func.call @add_one(%u) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
    scf.yield %acc : !pl.tensor<4xf32>
  }
  return
}
