// Round-trip of pld.window_buffer, pld.window and pld.system.nranks.
// RUN: pld-opt %s | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @host_orch
// CHECK: %[[B:.*]] = pld.window_buffer {bytes = 4096 : i64} : !pld.window_buffer
// CHECK: pld.window %[[B]] : !pld.dtensor<16x4xf32>
// CHECK: pld.window %[[B]] {offset = 256 : i64} : !pld.dtensor<2x8xi32>
func.func @host_orch() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %buf = pld.window_buffer {bytes = 4096 : i64} : !pld.window_buffer
  %data = pld.window %buf : !pld.dtensor<16x4xf32>
  %signal = pld.window %buf {offset = 256 : i64} : !pld.dtensor<2x8xi32>
  return
}

// A view must fit in its pld.window_buffer only where that is provable:
// an exact fit, a `?` dim, an empty view at the end, strides that span less
// than the element count (stride 0), and a buffer that arrives as an argument
// (its size unknown) are all accepted.
// CHECK-LABEL: func.func @window_sizes
// CHECK-COUNT-5: pld.window %
func.func @window_sizes(%arg: !pld.window_buffer) {
  %buf = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %exact = pld.window %buf {offset = 32 : i64} : !pld.dtensor<2x4xf32>
  %dyn = pld.window %buf {offset = 32 : i64} : !pld.dtensor<?x8xf32>
  %empty = pld.window %buf {offset = 64 : i64} : !pld.dtensor<0x8xf32>
  %bcast = pld.window %buf {offset = 48 : i64} : !pld.dtensor<4x4xf32, strides = [0, 1]>
  %unknown = pld.window %arg {offset = 4096 : i64} : !pld.dtensor<16x8xf32>
  return
}

// CHECK-LABEL: func.func @incore
// CHECK: pld.system.nranks : i64
func.func @incore() -> i64 attributes {pl.func_kind = "incore"} {
  %n = pld.system.nranks : i64
  return %n : i64
}
