// The pld.tensor.all_to_all type deducer: family.md's Checks rows that apply
// to it (input and target both [NR*M, row...]), first failing row reported
// at the op.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%in: !pl.tensor<8x4xi64>, %t: !pld.dtensor<8x4xi64>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op supports only f32, f16, i8 or i32, got i64}}
  %0 = pld.tensor.all_to_all %in, %t, %s : !pl.tensor<8x4xi64>, !pld.dtensor<8x4xi64>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi64>
  return
}

// -----

func.func @f(%in: !pl.tensor<12x4xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op target rows must be NR*M = 4*3 = 12 (NR=4 ranks, M=3 rows per rank, the input's 12 rows), got 8}}
  %0 = pld.tensor.all_to_all %in, %t, %s : !pl.tensor<12x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @f(%in: !pl.tensor<10x4xf32>, %t: !pld.dtensor<10x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op target rows must be NR*M (NR=4, M = 10/4 is not a whole number of rows), got 10}}
  %0 = pld.tensor.all_to_all %in, %t, %s : !pl.tensor<10x4xf32>, !pld.dtensor<10x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<10x4xf32>
  return
}

// -----

func.func @f(%in: !pl.tensor<8x2x2xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op target rows must be NR*M rows of the input's row shape, got input rows [2, 2] and target rows [4]}}
  %0 = pld.tensor.all_to_all %in, %t, %s : !pl.tensor<8x2x2xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @f(%in: !pl.tensor<8x4xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op signal stride S=2 is smaller than the launch width L=4}}
  %0 = pld.tensor.all_to_all %in, %t, %s {core_num = 4 : i64} : !pl.tensor<8x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op operand 'input' must not be the same value as 'target'}}
  %0 = pld.tensor.all_to_all %t, %t, %s : !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @f(%in: !pl.tensor<8x4xf32, valid = [4, 4]>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op operand 'input' has a valid_shape narrower than its shape}}
  %0 = pld.tensor.all_to_all %in, %t, %s : !pl.tensor<8x4xf32, valid = [4, 4]>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

// NR and M are named as numbers (the input's 6 rows over NR=3: M=2).
func.func @f(%in: !pl.tensor<6x4xf32>, %t: !pld.dtensor<9x4xf32>, %s: !pld.dtensor<3xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op target rows must be NR*M = 3*2 = 6 (NR=3 ranks, M=2 rows per rank, the input's 6 rows), got 9}}
  %0 = pld.tensor.all_to_all %in, %t, %s : !pl.tensor<6x4xf32>, !pld.dtensor<9x4xf32>, !pld.dtensor<3xi32> -> !pld.dtensor<9x4xf32>
  return
}

// -----

// The input's rows are no whole number of rows per rank: M is not a number.
func.func @f(%in: !pl.tensor<7x4xf32>, %t: !pld.dtensor<9x4xf32>, %s: !pld.dtensor<3xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op target rows must be NR*M, the input's row count 7 (NR=3, M = 7/3 is not a whole number of rows), got 9}}
  %0 = pld.tensor.all_to_all %in, %t, %s : !pl.tensor<7x4xf32>, !pld.dtensor<9x4xf32>, !pld.dtensor<3xi32> -> !pld.dtensor<9x4xf32>
  return
}
