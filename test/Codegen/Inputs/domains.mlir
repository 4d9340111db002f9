// Two communication domains of different sizes in one world (domains.md):
// @chip2's collective (P = 2) over devices 0..1 of a 2-rank domain, @chip4's
// (P = 4) over devices 0..3 of a 4-rank domain. Each kernel reads its own
// domain's rankNum; with one world-wide context (rankNum = 4) the P = 2
// exchange would wait for peers 2 and 3 forever.
func.func @chip2(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                 %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}
func.func @chip4(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x8xi32>,
                 %c: !pld.dtensor<4xi32>, %r: !pld.dtensor<4xi32>) attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 4 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}
func.func @host_main() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d2 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %d4 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  %a0 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a1 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a2 = pld.window_buffer in %d2 {bytes = 64 : i64} : !pld.window_buffer
  %a3 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %a4 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %b0 = pld.window_buffer in %d4 {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer in %d4 {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer in %d4 {bytes = 128 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer in %d4 {bytes = 16 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer in %d4 {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %a0 : !pld.dtensor<16x4xf32>
  %t = pld.window %a1 : !pld.dtensor<16x4xf32>
  %s = pld.window %a2 : !pld.dtensor<2x8xi32>
  %c = pld.window %a3 : !pld.dtensor<2xi32>
  %r = pld.window %a4 : !pld.dtensor<2xi32>
  %in4 = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t4 = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s4 = pld.window %b2 : !pld.dtensor<4x8xi32>
  %c4 = pld.window %b3 : !pld.dtensor<4xi32>
  %r4 = pld.window %b4 : !pld.dtensor<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n2 = arith.constant 2 : index
  %n4 = arith.constant 4 : index
  scf.for %dev = %c0 to %n2 step %c1 {
    pld.host.dispatch @chip2(%in, %t, %s, %c, %r) on %dev
        : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  }
  scf.for %dev = %c0 to %n4 step %c1 {
    pld.host.dispatch @chip4(%in4, %t4, %s4, %c4, %r4) on %dev
        : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32>), index
  }
  return
}
