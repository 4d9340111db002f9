// The pld.tensor.reduce_scatter type deducer: family.md's Checks rows that
// apply to it, first failing row reported at the op.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%t: !pld.dtensor<16x4xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op supports only f32, f16 or i32, got i8}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"} : !pld.dtensor<16x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xi8>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op reduce must be one of sum, max, min, prod (the attribute is required)}}
  %0 = pld.tensor.reduce_scatter %t, %s : !pld.dtensor<16x4xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf16>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op reduce must be one of sum, max, min, prod, got "SUM"}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "SUM"} : !pld.dtensor<16x4xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf16>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op core_num must be in [1, 2147483647], got -3}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum", core_num = -3 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<4x4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi64>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor with NR >= 1), got '!pld.dtensor<4xi64>'}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi64> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op signal stride S=2 is smaller than the launch width L=3}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum", core_num = 3 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// target is [NR*M, row...].
func.func @f(%t: !pld.dtensor<10x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op target rows must be NR*M (NR=4, M = 10/4 is not a whole number of rows), got 10}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"} : !pld.dtensor<10x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<10x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<f32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op operand 'target' must have a row dimension}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"} : !pld.dtensor<f32>, !pld.dtensor<4xi32> -> !pld.dtensor<f32>
  return
}

// -----

func.func @f(%t: !pl.tensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op operand 'target' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<16x4xf32>'}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"} : !pl.tensor<16x4xf32>, !pld.dtensor<4xi32> -> !pl.tensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32, strides = [8, 1]>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op operand 'target' has strides [8, 1] that are not packed row-major}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32, strides = [8, 1]>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32, strides = [8, 1]>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op result type '!pld.dtensor<16x4xf16>' must be the type of 'target' '!pld.dtensor<16x4xf32>'}}
  %0 = "pld.tensor.reduce_scatter"(%t, %s) {reduce = "sum"} : (!pld.dtensor<16x4xf32>, !pld.dtensor<4xi32>) -> !pld.dtensor<16x4xf16>
  return
}
