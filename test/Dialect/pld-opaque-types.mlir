// Round-trip of the parameterless pld types.
// RUN: pld-opt %s | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%{{.*}}: !pld.dtensor<16x4xf32>, %{{.*}}: !pld.comm_ctx)
func.func @kernel(%data: !pld.dtensor<16x4xf32>, %ctx: !pld.comm_ctx) {
  return
}

// CHECK-LABEL: func.func @buffers
// CHECK-SAME: (%{{.*}}: !pld.window_buffer) -> !pld.window_buffer
func.func @buffers(%b: !pld.window_buffer) -> !pld.window_buffer {
  return %b : !pld.window_buffer
}
