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
