// The pld.tensor.gather type deducer: family.md's Checks rows that apply to
// it, first failing row reported at the op.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%i: !pl.tensor<2x4xi64>, %t: !pld.dtensor<8x4xi64>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.gather' op supports only f32, f16, i8 or i32, got i64}}
  %0 = pld.tensor.gather %i, %t, %s {root = 0 : i64} : !pl.tensor<2x4xi64>, !pld.dtensor<8x4xi64>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi64>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xi8>, %t: !pld.dtensor<8x4xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.gather' op requires attribute 'root'}}
  %0 = pld.tensor.gather %i, %t, %s : !pl.tensor<2x4xi8>, !pld.dtensor<8x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi8>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xi8>, %t: !pld.dtensor<8x4xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.gather' op root must be in [0, NR=4), got 7}}
  %0 = pld.tensor.gather %i, %t, %s {root = 7 : i64} : !pl.tensor<2x4xi8>, !pld.dtensor<8x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi8>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xf32>, %t: !pld.dtensor<6x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.gather' op target rows must be NR*M = 4*2 = 8 (NR=4 ranks, M=2 input rows), got 6}}
  %0 = pld.tensor.gather %i, %t, %s {root = 0 : i64} : !pl.tensor<2x4xf32>, !pld.dtensor<6x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<6x4xf32>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x3xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.gather' op target rows must be NR*M rows of the input's row shape, got input rows [3] and target rows [4]}}
  %0 = pld.tensor.gather %i, %t, %s {root = 0 : i64} : !pl.tensor<2x3xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<4x4xf32>, %s: !pld.dtensor<1xi32>) {
  // expected-error@+1 {{'pld.tensor.gather' op operand 'input' must not be the same value as 'target'}}
  %0 = pld.tensor.gather %t, %t, %s {root = 0 : i64} : !pld.dtensor<4x4xf32>, !pld.dtensor<4x4xf32>, !pld.dtensor<1xi32> -> !pld.dtensor<4x4xf32>
  return
}
