// Verifier rules of pld.window_buffer, pld.window and pld.system.nranks.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// window_buffer: bytes is non-negative.
func.func @f() {
  // expected-error@+1 {{'pld.window_buffer' op attribute 'bytes' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = pld.window_buffer {bytes = -1 : i64} : !pld.window_buffer
  return
}

// -----

// window_buffer: bytes is required.
func.func @f() {
  // expected-error@+1 {{'pld.window_buffer' op requires attribute 'bytes'}}
  %0 = "pld.window_buffer"() : () -> !pld.window_buffer
  return
}

// -----

// window: offset is non-negative.
func.func @f(%b: !pld.window_buffer) {
  // expected-error@+1 {{'pld.window' op attribute 'offset' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = pld.window %b {offset = -8 : i64} : !pld.dtensor<4xf32>
  return
}

// -----

// window: the result is a window view, not a local tensor.
func.func @f(%b: !pld.window_buffer) {
  // expected-error@+1 {{'pld.window' op result #0 must be !pld.dtensor, but got '!pl.tensor<4xf32>'}}
  %0 = "pld.window"(%b) : (!pld.window_buffer) -> !pl.tensor<4xf32>
  return
}

// -----

// window: the operand is a window allocation.
func.func @f(%t: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pld.window' op operand #0 must be one window allocation of a HOST orchestrator, but got '!pl.tensor<4xf32>'}}
  %0 = "pld.window"(%t) : (!pl.tensor<4xf32>) -> !pld.dtensor<4xf32>
  return
}

// -----

// window: the view must fit in its pld.window_buffer (offset + elements x
// element bytes <= bytes): 16x8 f32 at offset 32 is 512 bytes of a 64-byte
// buffer, and the host code would read and write past the allocation.
func.func @f() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 32 + 512 = 544 ('!pld.dtensor<16x8xf32>' spans 128 elements of 4 bytes)}}
  %0 = pld.window %b {offset = 32 : i64} : !pld.dtensor<16x8xf32>
  return
}

// -----

// window: one byte too many, without an offset (65 i8 in 64 bytes).
func.func @f() {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 0 + 65 = 65 ('!pld.dtensor<65xi8>' spans 65 elements of 1 bytes)}}
  %0 = pld.window %b : !pld.dtensor<65xi8>
  return
}

// -----

// window: explicit strides span more than the element count (4x4 f32 with
// row stride 8: 1 + 3*8 + 3*1 = 28 elements, 112 bytes).
func.func @f() {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 0 + 112 = 112 ('!pld.dtensor<4x4xf32, strides = [8, 1]>' spans 28 elements of 4 bytes)}}
  %0 = pld.window %b : !pld.dtensor<4x4xf32, strides = [8, 1]>
  return
}

// -----

// window: the buffer is known through a region boundary too (an scf.for body
// uses the buffer its function allocated).
func.func @f(%n: index) {
  // expected-note@+1 {{the pld.window_buffer allocates 16 bytes here}}
  %b = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 16 bytes of its pld.window_buffer, got 8 + 16 = 24 ('!pld.dtensor<2x1xi64>' spans 2 elements of 8 bytes)}}
    %0 = pld.window %b {offset = 8 : i64} : !pld.dtensor<2x1xi64>
  }
  return
}

// -----

// window: a view too large for int64 bytes (2^61 f32 elements).
func.func @f() {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 0 + 2305843009213693952 x 4 bytes (more than fit in int64)}}
  %0 = pld.window %b : !pld.dtensor<2305843009213693952xf32>
  return
}

// -----

// system.nranks is InCore-only: rejected in an orchestration function.
func.func @f() attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.system.nranks' op is InCore-only: it has no orchestration codegen (enclosing function @f has pl.func_kind "orchestration")}}
  %0 = pld.system.nranks : i64
  return
}

// -----

// system.nranks is InCore-only: rejected in a graph function.
func.func @g() attributes {pl.func_kind = "graph"} {
  // expected-error@+1 {{'pld.system.nranks' op is InCore-only: it has no orchestration codegen (enclosing function @g has pl.func_kind "graph")}}
  %0 = pld.system.nranks : i64
  return
}

// -----

// window: the span of explicit strides, 1 + sum((dim - 1) * stride), does not
// fit in int64 (computed with checked arithmetic, never printed wrapped).
func.func @h() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 0 + (a span of more than 2^63-1 elements) x 4 bytes ('!pld.dtensor<4x4xf32, strides = [9223372036854775807, 9223372036854775807]>')}}
  %w = pld.window %b : !pld.dtensor<4x4xf32, strides = [9223372036854775807, 9223372036854775807]>
  return
}

// -----

func.func @h() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 0 + (a span of more than 2^63-1 elements) x 4 bytes ('!pld.dtensor<3x4xf32, strides = [4611686018427387904, 1]>')}}
  %w = pld.window %b : !pld.dtensor<3x4xf32, strides = [4611686018427387904, 1]>
  return
}

// -----

// A `?` stride counts as 0; the known one alone overflows.
func.func @h() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 0 + (a span of more than 2^63-1 elements) x 4 bytes ('!pld.dtensor<2x2xf32, strides = [?, 9223372036854775807]>')}}
  %w = pld.window %b : !pld.dtensor<2x2xf32, strides = [?, 9223372036854775807]>
  return
}

// -----

// The span is exactly 2^63-1 elements (fits); its bytes do not.
func.func @h() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 0 + 9223372036854775807 x 4 bytes (more than fit in int64)}}
  %w = pld.window %b : !pld.dtensor<2xf32, strides = [9223372036854775806]>
  return
}

// -----

// The span of 2^63-1 one-byte elements fits in int64 bytes; it exceeds the buffer.
func.func @h() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{the pld.window_buffer allocates 64 bytes here}}
  %b = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  // expected-error@+1 {{'pld.window' op offset + view size must not exceed the 64 bytes of its pld.window_buffer, got 0 + 9223372036854775807 = 9223372036854775807 ('!pld.dtensor<2xi8, strides = [9223372036854775806]>' spans 9223372036854775807 elements of 1 bytes)}}
  %w = pld.window %b : !pld.dtensor<2xi8, strides = [9223372036854775806]>
  return
}
