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

// CHECK-LABEL: func.func @incore
// CHECK: pld.system.nranks : i64
func.func @incore() -> i64 attributes {pl.func_kind = "incore"} {
  %n = pld.system.nranks : i64
  return %n : i64
}
