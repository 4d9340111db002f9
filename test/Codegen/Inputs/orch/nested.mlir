// A loop inside a branch inside a loop, a tensor carried through all three:
// for i < n: if i is even: for j < m step st: y[4j : 4j+4] += 1.
func.func private @add_one(%t: !pl.tensor<*xf32> {pl.direction = "inout"}) -> !pl.tensor<*xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %t : !pl.tensor<*xf32>
}
func.func @nested(%y: !pl.tensor<16xf32>, %n: index, %m: index, %st: index) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %y) -> (!pl.tensor<16xf32>) {
    %rem = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %b = scf.if %even -> (!pl.tensor<16xf32>) {
      %inner = scf.for %j = %c0 to %m step %st iter_args(%acc = %a) -> (!pl.tensor<16xf32>) {
        %off = arith.muli %j, %c4 : index
        %s = pl.tensor.slice %acc[%off] {sizes = array<i64: 4>} : (!pl.tensor<16xf32>, index) -> !pl.tensor<4xf32>
        %u = pl.cast %s : !pl.tensor<4xf32> to !pl.tensor<*xf32>
        %d = func.call @add_one(%u) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
        scf.yield %acc : !pl.tensor<16xf32>
      }
      scf.yield %inner : !pl.tensor<16xf32>
    } else {
      scf.yield %a : !pl.tensor<16xf32>
    }
    scf.yield %b : !pl.tensor<16xf32>
  }
  return
}
