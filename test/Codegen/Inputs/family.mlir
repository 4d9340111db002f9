// The collective family on both rails (P = 4): chip_family runs every family
// op on the CHIP rail; host_family dispatches an allreduce, an allgather and
// a barrier on the HOST rail (the same kernels).
func.func @chip_family(%t: !pld.dtensor<16x8xf32>, %s: !pld.dtensor<4x2xi32>, %ring: !pld.dtensor<7x4xi32>,
                       %h: !pld.dtensor<16x8xf16>, %in: !pl.tensor<2x8xi8>, %all: !pld.dtensor<8x8xi8>,
                       %s1: !pld.dtensor<4xi32>, %i: !pld.dtensor<8x4xi32>, %a2a: !pld.dtensor<8x4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 2 : i64}
      : !pld.dtensor<16x8xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<16x8xf32>
  %1 = pld.tensor.allreduce %0, %ring {reduce = "max", mode = "ring"}
      : !pld.dtensor<16x8xf32>, !pld.dtensor<7x4xi32> -> !pld.dtensor<16x8xf32>
  %2 = pld.tensor.reduce_scatter %h, %s {reduce = "prod", core_num = 2 : i64}
      : !pld.dtensor<16x8xf16>, !pld.dtensor<4x2xi32> -> !pld.dtensor<16x8xf16>
  %3 = pld.tensor.allgather %in, %all, %s1
      : !pl.tensor<2x8xi8>, !pld.dtensor<8x8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8x8xi8>
  %4 = pld.tensor.broadcast %i, %s1 {root = 2 : i64}
      : !pld.dtensor<8x4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi32>
  %5 = pl.cast %4 : !pld.dtensor<8x4xi32> to !pl.tensor<8x4xi32>
  %6 = pld.tensor.all_to_all %5, %a2a, %s1
      : !pl.tensor<8x4xi32>, !pld.dtensor<8x4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi32>
  %7 = pld.tensor.barrier %s1 : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  return
}
func.func @host_family() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 512 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<16x8xf32>
  %s = pld.window %b1 : !pld.dtensor<4x2xi32>
  %in = pld.window %b2 : !pld.dtensor<2x8xi8>
  %all = pld.window %b3 : !pld.dtensor<8x8xi8>
  %s1 = pld.window %b4 : !pld.dtensor<4xi32>
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 2 : i64}
      : !pld.dtensor<16x8xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<16x8xf32>
  %1 = pld.tensor.allgather %in, %all, %s1
      : !pld.dtensor<2x8xi8>, !pld.dtensor<8x8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8x8xi8>
  %2 = pld.tensor.barrier %s1 : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  return
}
