// pl.require and pld.host.require with the largest code (2147483647, a C++
// int) and messages with control bytes right before hex digits: the
// generated literals use three-digit octal escapes, never `\x..abc`.
func.func @chip(%ok: i1) attributes {pl.func_kind = "orchestration"} {
  pl.require %ok else error 2147483647, "\01abc\7Fdef\1F7"
  return
}
func.func @host_main(%ok: i1) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  pld.host.require %ok else error 2147483647, "\01abc\7Fdef\1F7"
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  pld.host.dispatch @chip(%t) on %c0 : (i1), index
  return
}
