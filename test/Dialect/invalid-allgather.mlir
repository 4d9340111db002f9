// The pld.tensor.allgather type deducer: family.md's Checks rows that apply
// to it (input [M, row...], target [NR*M, row...]), first failing row
// reported at the op.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%in: !pl.tensor<4x8xbf16>, %t: !pld.dtensor<16x8xbf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op supports only f32, f16, i8 or i32, got bf16}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<4x8xbf16>, !pld.dtensor<16x8xbf16>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xbf16>
  return
}

// -----

func.func @f(%in: !pl.tensor<4x8xf16>, %t: !pld.dtensor<16x8xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op operand 'input' element type 'f16' differs from 'target' element type 'f32'}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<4x8xf16>, !pld.dtensor<16x8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xf32>
  return
}

// -----

func.func @f(%in: !pl.tensor<4x8xi8>, %t: !pld.dtensor<16x8xi8>, %s: !pld.dtensor<4x1xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op signal stride S=1 is smaller than the launch width L=2}}
  %0 = pld.tensor.allgather %in, %t, %s {core_num = 2 : i64} : !pl.tensor<4x8xi8>, !pld.dtensor<16x8xi8>, !pld.dtensor<4x1xi32> -> !pld.dtensor<16x8xi8>
  return
}

// -----

func.func @f(%in: !pl.tensor<3x8xi8>, %t: !pld.dtensor<10x8xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op target rows must be NR*M = 4*3 = 12 (NR=4 ranks, M=3 input rows), got 10}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<3x8xi8>, !pld.dtensor<10x8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<10x8xi8>
  return
}

// -----

func.func @f(%in: !pl.tensor<4x4xi8>, %t: !pld.dtensor<16x8xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op target rows must be NR*M rows of the input's row shape, got input rows [4] and target rows [8]}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<4x4xi8>, !pld.dtensor<16x8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xi8>
  return
}

// -----

func.func @f(%in: !pl.tensor<4xi8>, %t: !pld.dtensor<16x8xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op target rows must be NR*M rows of the input's row shape, got input rows [] and target rows [8]}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<4xi8>, !pld.dtensor<16x8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xi8>
  return
}

// -----

func.func @f(%in: !pl.tensor<i8>, %t: !pld.dtensor<16xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op operand 'input' must have a row dimension}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<i8>, !pld.dtensor<16xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16xi8>
  return
}

// -----

func.func @f(%in: !pl.tensor<4x8xi8>, %t: !pl.tensor<16x8xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op operand 'target' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<16x8xi8>'}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<4x8xi8>, !pl.tensor<16x8xi8>, !pld.dtensor<4xi32> -> !pl.tensor<16x8xi8>
  return
}

// -----

func.func @f(%in: !pl.tensor<4x8xi8, layout = nz>, %t: !pld.dtensor<16x8xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op operand 'input' must have layout nd, got nz}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<4x8xi8, layout = nz>, !pld.dtensor<16x8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xi8>
  return
}

// -----

// One rank: input and target are both [M, row...]; one value for both is refused.
func.func @f(%t: !pld.dtensor<4x8xi8>, %s: !pld.dtensor<1xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op operand 'input' must not be the same value as 'target'}}
  %0 = pld.tensor.allgather %t, %t, %s : !pld.dtensor<4x8xi8>, !pld.dtensor<4x8xi8>, !pld.dtensor<1xi32> -> !pld.dtensor<4x8xi8>
  return
}
