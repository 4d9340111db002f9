// The pl.submit verifier binds the op to its callee (docs/lowering.md,
// "pl.submit"): the operands pass the callee's leading parameters with their
// exact types, as a func.call's would; the trailing parameters, one per
// runtime_alloc_outs entry in order, are the Outs the runtime allocates; the
// results are the callee's results.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// runtime_alloc_outs names each result at most once.
func.func private @kernel(!pl.tensor<4xf32>) -> (!pl.tensor<4xf32>, !pl.tensor<4xf32>)
func.func @f(%a: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op attribute 'runtime_alloc_outs' entries must be distinct, got 0 twice}}
  %0:2 = pl.submit @kernel(%a) {runtime_alloc_outs = array<i64: 0, 0>} : (!pl.tensor<4xf32>) -> (!pl.tensor<4xf32>, !pl.tensor<4xf32>)
  return
}

// -----

// More operands than the callee has parameters (func.call refuses it too).
func.func private @kernel(!pl.tensor<4xf32> {pl.direction = "in"})
func.func @f(%a: !pl.tensor<4xf32>, %b: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op operands and runtime-allocated results must cover the 1 parameters of @kernel (the operands pass the leading ones, the runtime allocates the trailing ones), got 2 operands and 0 runtime-allocated results}}
  pl.submit @kernel(%a, %b) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  return
}

// -----

// A parameter neither passed nor runtime-allocated.
func.func private @kernel(!pl.tensor<4xf32> {pl.direction = "in"}, !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32>
func.func @f(%a: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op operands and runtime-allocated results must cover the 2 parameters of @kernel (the operands pass the leading ones, the runtime allocates the trailing ones), got 1 operands and 0 runtime-allocated results}}
  %0 = pl.submit @kernel(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A runtime-allocated result on top of a passed argument for every parameter
// (the form that handed the kernel one tensor more than it has parameters).
func.func private @kernel(%a: !pl.tensor<4xf32> {pl.direction = "in"}, %b: !pl.tensor<4xf32>) -> (!pl.tensor<4xf32>, !pl.tensor<4xf32>) {
  return %b, %a : !pl.tensor<4xf32>, !pl.tensor<4xf32>
}
func.func @f(%x: !pl.tensor<4xf32>, %w: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op operands and runtime-allocated results must cover the 2 parameters of @kernel (the operands pass the leading ones, the runtime allocates the trailing ones), got 2 operands and 1 runtime-allocated results}}
  %0:2 = pl.submit @kernel(%x, %w) {runtime_alloc_outs = array<i64: 1>} : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> (!pl.tensor<4xf32>, !pl.tensor<4xf32>)
  return
}

// -----

// An operand of another element type than its parameter.
func.func private @kernel(!pl.tensor<4xf32> {pl.direction = "in"})
func.func @f(%i: !pl.tensor<4xi32>) {
  // expected-error@+1 {{'pl.submit' op operand #0 must have the type of parameter #0 of @kernel, '!pl.tensor<4xf32>', got '!pl.tensor<4xi32>'}}
  pl.submit @kernel(%i) : (!pl.tensor<4xi32>) -> ()
  return
}

// -----

// An operand of another shape than its parameter.
func.func private @kernel(!pl.tensor<4xf32> {pl.direction = "in"})
func.func @f(%a: !pl.tensor<8xf32>) {
  // expected-error@+1 {{'pl.submit' op operand #0 must have the type of parameter #0 of @kernel, '!pl.tensor<4xf32>', got '!pl.tensor<8xf32>'}}
  pl.submit @kernel(%a) : (!pl.tensor<8xf32>) -> ()
  return
}

// -----

// Results: the callee's count.
func.func private @kernel(!pl.tensor<4xf32> {pl.direction = "inout"})
func.func @f(%a: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op result count must equal the result count of @kernel, 0, got 1}}
  %0 = pl.submit @kernel(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// Results: the callee's types.
func.func private @kernel(!pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
func.func @f(%a: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op result #0 must have the type of result #0 of @kernel, '!pl.tensor<4xf32>', got '!pl.tensor<*xf32>'}}
  %0 = pl.submit @kernel(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<*xf32>
  return
}

// -----

// A runtime-allocated parameter has a static shape (the runtime sizes it).
func.func private @kernel(!pl.tensor<?xf32> {pl.direction = "out"}) -> !pl.tensor<?xf32>
func.func @f() {
  // expected-error@+1 {{'pl.submit' op parameter #0 of @kernel (runtime-allocated for result #0) must be a statically shaped !pl.tensor, got '!pl.tensor<?xf32>'}}
  %0 = pl.submit @kernel() {runtime_alloc_outs = array<i64: 0>} : () -> !pl.tensor<?xf32>
  return
}

// -----

// ... and is a local !pl.tensor, not a window.
func.func private @kernel(!pld.dtensor<4xf32> {pl.direction = "out"}) -> !pld.dtensor<4xf32>
func.func @f() {
  // expected-error@+1 {{'pl.submit' op parameter #0 of @kernel (runtime-allocated for result #0) must be a statically shaped !pl.tensor, got '!pld.dtensor<4xf32>'}}
  %0 = pl.submit @kernel() {runtime_alloc_outs = array<i64: 0>} : () -> !pld.dtensor<4xf32>
  return
}

// -----

// ... of the type of the result it is allocated for.
func.func private @kernel(!pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<8xf32>
func.func @f() {
  // expected-error@+1 {{'pl.submit' op parameter #0 of @kernel (runtime-allocated for result #0) must have the type of that result, '!pl.tensor<8xf32>', got '!pl.tensor<4xf32>'}}
  %0 = pl.submit @kernel() {runtime_alloc_outs = array<i64: 0>} : () -> !pl.tensor<8xf32>
  return
}

// -----

// ... not declared in or inout: the runtime allocates it uninitialized.
func.func private @kernel(!pl.tensor<4xf32> {pl.direction = "in"}, !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
func.func @f(%a: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op parameter #1 of @kernel (runtime-allocated for result #0) must have pl.direction "out" (the runtime allocates it uninitialized), got pl.direction "inout"}}
  %0 = pl.submit @kernel(%a) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A callee with a body returns the runtime-allocated parameter at its result.
func.func private @kernel(%a: !pl.tensor<4xf32> {pl.direction = "in"}, %o: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32> {
  // expected-note@+1 {{returned here}}
  return %a : !pl.tensor<4xf32>
}
func.func @f(%x: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op parameter #1 of @kernel (runtime-allocated for result #0) must be what @kernel returns there, got parameter #0}}
  %0 = pl.submit @kernel(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

func.func private @kernel(%a: !pl.tensor<4xf32> {pl.direction = "in"}, %o: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32> {
  %t = pl.tensor.create : !pl.tensor<4xf32>
  // expected-note@+1 {{returned here}}
  return %t : !pl.tensor<4xf32>
}
func.func @f(%x: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op parameter #1 of @kernel (runtime-allocated for result #0) must be what @kernel returns there, got a value that is not a parameter}}
  %0 = pl.submit @kernel(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// The accepted form: leading parameters passed, the trailing out one (derived:
// the body only returns it) left to the runtime.
func.func private @kernel(%a: !pl.tensor<4xf32> {pl.direction = "in"}, %o: !pl.tensor<4xf32>) -> !pl.tensor<4xf32> {
  return %o : !pl.tensor<4xf32>
}
func.func @f(%x: !pl.tensor<4xf32>) {
  %0 = pl.submit @kernel(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}
