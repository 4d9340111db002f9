// HOST ops whose failure the runtime detects (a device a run-time scalar
// names): each message cites the op and the user's file:line:col.
// @ctx_main derives device %dev's context in a 2-rank domain; @dispatch_main
// dispatches an empty CHIP function to device %dev of the world.
func.func @nop() attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @chip2(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                 %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}
func.func @ctx_main(%dev: index) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d2 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %a0 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a1 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a2 = pld.window_buffer in %d2 {bytes = 64 : i64} : !pld.window_buffer
  %a3 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %a4 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %a0 : !pld.dtensor<16x4xf32>
  %t = pld.window %a1 : !pld.dtensor<16x4xf32>
  %s = pld.window %a2 : !pld.dtensor<2x8xi32>
  %c = pld.window %a3 : !pld.dtensor<2xi32>
  %r = pld.window %a4 : !pld.dtensor<2xi32>
  pld.host.dispatch @chip2(%in, %t, %s, %c, %r) on %dev
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  return
}
func.func @dispatch_main(%dev: index) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  pld.host.dispatch @nop() on %dev : (), index
  return
}
