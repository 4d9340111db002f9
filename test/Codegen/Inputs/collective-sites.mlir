// Two HOST collectives of one variant share one builtin callable; a CHIP
// entry's ring allreduce reads NR from its signal's trailing dimension.
func.func @two_sites() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<2x4xf32>
  %t = pld.window %b1 : !pld.dtensor<8x4xf32>
  %s = pld.window %b2 : !pld.dtensor<4xi32>
  %0 = pld.tensor.allgather %in, %t, %s : !pld.dtensor<2x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  %1 = pld.tensor.allgather %in, %t, %s : !pld.dtensor<2x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}
func.func @ring(%t: !pld.dtensor<12x4xf32>, %s: !pld.dtensor<5x3xi32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<12x4xf32>, !pld.dtensor<5x3xi32> -> !pld.dtensor<12x4xf32>
  return
}
