// The pld.tensor.scatter type deducer: family.md's Checks rows that apply to
// it, first failing row reported at the op.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%i: !pl.tensor<8x4xbf16>, %t: !pld.dtensor<2x4xbf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.scatter' op supports only f32, f16, i8 or i32, got bf16}}
  %0 = pld.tensor.scatter %i, %t, %s {root = 0 : i64} : !pl.tensor<8x4xbf16>, !pld.dtensor<2x4xbf16>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xbf16>
  return
}

// -----

func.func @f(%i: !pl.tensor<8x4xi32>, %t: !pld.dtensor<2x4xi32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.scatter' op root must be in [0, NR=4), got -1}}
  %0 = pld.tensor.scatter %i, %t, %s {root = -1 : i64} : !pl.tensor<8x4xi32>, !pld.dtensor<2x4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xi32>
  return
}

// -----

func.func @f(%i: !pl.tensor<6x4xf16>, %t: !pld.dtensor<2x4xf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.scatter' op input rows must be NR*M = 4*2 = 8 (NR=4 ranks, M=2 target rows), got 6}}
  %0 = pld.tensor.scatter %i, %t, %s {root = 0 : i64} : !pl.tensor<6x4xf16>, !pld.dtensor<2x4xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf16>
  return
}

// -----

func.func @f(%i: !pl.tensor<8x2xf16>, %t: !pld.dtensor<2x4xf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.scatter' op input rows must be NR*M rows of the target's row shape, got input rows [2] and target rows [4]}}
  %0 = pld.tensor.scatter %i, %t, %s {root = 0 : i64} : !pl.tensor<8x2xf16>, !pld.dtensor<2x4xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf16>
  return
}

// -----

func.func @f(%i: !pl.tensor<8x4xf16>, %t: !pld.dtensor<2x4xf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.scatter' op requires attribute 'root'}}
  %0 = pld.tensor.scatter %i, %t, %s : !pl.tensor<8x4xf16>, !pld.dtensor<2x4xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf16>
  return
}
