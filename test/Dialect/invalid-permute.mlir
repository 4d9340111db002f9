// The pld.tensor.permute type deducer: family.md's Checks rows that apply to
// it (the pairs rows in order), first failing row reported at the op.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%i: !pl.tensor<2x4xi64>, %t: !pld.dtensor<2x4xi64>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op supports only f32, f16, i8 or i32, got i64}}
  %0 = pld.tensor.permute %i, %t, %s {pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : !pl.tensor<2x4xi64>, !pld.dtensor<2x4xi64>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xi64>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op requires attribute 'pairs'}}
  %0 = pld.tensor.permute %i, %t, %s : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op pairs must be an [N, 2] i64 array of [source, dest] ranks (e.g. dense<[[0, 1]]> : tensor<1x2xi64>; no pairs: dense<> : tensor<0x2xi64>), got [0, 1]}}
  %0 = pld.tensor.permute %i, %t, %s {pairs = [0, 1]} : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op pairs entry 1 names rank 4 outside [0, NR=4)}}
  %0 = pld.tensor.permute %i, %t, %s {pairs = dense<[[0, 1], [1, 4]]> : tensor<2x2xi64>} : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<?xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op pairs entry 0 names rank -1 outside [0, NR=?)}}
  %0 = pld.tensor.permute %i, %t, %s {pairs = dense<[[-1, 1]]> : tensor<1x2xi64>} : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<?xi32> -> !pld.dtensor<2x4xf32>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op pairs has rank 2 as a destination twice}}
  %0 = pld.tensor.permute %i, %t, %s {pairs = dense<[[0, 2], [1, 2]]> : tensor<2x2xi64>} : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op pairs has rank 0 as a source twice}}
  %0 = pld.tensor.permute %i, %t, %s {pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  return
}

// -----

func.func @f(%i: !pl.tensor<3x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op input and target rows must agree, got input [3, 4] and target [2, 4]}}
  %0 = pld.tensor.permute %i, %t, %s {pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : !pl.tensor<3x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  return
}

// -----

func.func @f(%i: !pl.tensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.permute' op has no attribute 'root'}}
  %0 = pld.tensor.permute %i, %t, %s {pairs = dense<[[0, 1]]> : tensor<1x2xi64>, root = 0 : i64} : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  return
}
