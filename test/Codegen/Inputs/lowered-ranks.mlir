// A CHIP entry whose collectives agree on NR = 4 (the signal's leading
// dimension): pld-run's default world, lowered or not.
func.func @ar(%t: !pld.dtensor<2x3xf32>, %g_in: !pl.tensor<1x3xi32>, %g: !pld.dtensor<4x3xi32>, %s: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %r = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<2x3xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x3xf32>
  %a = pld.tensor.allgather %g_in, %g, %s : !pl.tensor<1x3xi32>, !pld.dtensor<4x3xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x3xi32>
  return
}
