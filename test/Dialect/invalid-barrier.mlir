// The pld.tensor.barrier type deducer: its signal (an i32 [NR] or [NR, S]
// window) and its result (the signal's type).
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%s: !pld.dtensor<4xf32>) {
  // expected-error@+1 {{'pld.tensor.barrier' op signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor with NR >= 1), got '!pld.dtensor<4xf32>'}}
  %0 = pld.tensor.barrier %s : !pld.dtensor<4xf32> -> !pld.dtensor<4xf32>
  return
}

// -----

func.func @f(%s: !pl.tensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.barrier' op signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor with NR >= 1), got '!pl.tensor<4xi32>'}}
  %0 = pld.tensor.barrier %s : !pl.tensor<4xi32> -> !pl.tensor<4xi32>
  return
}

// -----

func.func @f(%s: !pld.dtensor<i32>) {
  // expected-error@+1 {{'pld.tensor.barrier' op signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor with NR >= 1), got '!pld.dtensor<i32>'}}
  %0 = pld.tensor.barrier %s : !pld.dtensor<i32> -> !pld.dtensor<i32>
  return
}

// -----

func.func @f(%s: !pld.dtensor<4x2xi32>) {
  // expected-error@+1 {{'pld.tensor.barrier' op result type '!pld.dtensor<8xi32>' must be the type of 'signal' '!pld.dtensor<4x2xi32>'}}
  %0 = pld.tensor.barrier %s : !pld.dtensor<4x2xi32> -> !pld.dtensor<8xi32>
  return
}

// -----

func.func @f(%s: !pld.dtensor<4x2xi32, strides = [4, 1]>) {
  // expected-error@+1 {{'pld.tensor.barrier' op operand 'signal' has strides [4, 1] that are not packed row-major}}
  %0 = pld.tensor.barrier %s : !pld.dtensor<4x2xi32, strides = [4, 1]> -> !pld.dtensor<4x2xi32, strides = [4, 1]>
  return
}
