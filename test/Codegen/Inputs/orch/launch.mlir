// pl.require and pl.launch as written by a user (the CHIP rail emits the same
// for a runtime core_num): the call runs with %b blocks when %b passes the
// check %b <= %limit.
func.func private @count_blocks(%t: !pl.tensor<2xi64> {pl.direction = "inout"}) -> !pl.tensor<2xi64>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/count_blocks.cpp"} {
  return %t : !pl.tensor<2xi64>
}
func.func @launch(%t: !pl.tensor<2xi64>, %b: i64, %limit: i64) attributes {pl.func_kind = "orchestration"} {
  %ok = arith.cmpi sle, %b, %limit : i64
  pl.require %ok else error 5, "launch: b exceeds the limit"
  %r = pl.launch %b -> !pl.tensor<2xi64> {
    %c = func.call @count_blocks(%t) : (!pl.tensor<2xi64>) -> !pl.tensor<2xi64>
    pl.yield %c : !pl.tensor<2xi64>
  }
  return
}
