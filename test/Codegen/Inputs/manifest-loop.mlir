// A HOST orchestrator allocating a window buffer in a loop: its windows'
// offsets depend on the trip count, so the manifest states no static layout.
func.func @nop(%w: !pld.dtensor<4xi32>) attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @host_main(%n: index) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = pld.window_buffer {bytes = 100 : i64} : !pld.window_buffer
  scf.for %i = %c0 to %n step %c1 {
    %b = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
    %w = pld.window %b : !pld.dtensor<4xi32>
    pld.host.dispatch @nop(%w) on %c0 : (!pld.dtensor<4xi32>), index
  }
  return
}
