// The pld.tensor.reduce type deducer: family.md's Checks rows that apply to
// it, first failing row reported at the op.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%t: !pld.dtensor<8xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce' op supports only f32, f16 or i32, got i8}}
  %0 = pld.tensor.reduce %t, %s {reduce = "sum", root = 0 : i64} : !pld.dtensor<8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8xi8>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce' op reduce must be one of sum, max, min, prod (the attribute is required)}}
  %0 = pld.tensor.reduce %t, %s {root = 0 : i64} : !pld.dtensor<8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce' op requires attribute 'root'}}
  %0 = pld.tensor.reduce %t, %s {reduce = "max"} : !pld.dtensor<8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce' op root must be in [0, NR=4), got 4}}
  %0 = pld.tensor.reduce %t, %s {reduce = "min", root = 4 : i64} : !pld.dtensor<8xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<8xf16>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xi32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce' op signal stride S=2 is smaller than the launch width L=4}}
  %0 = pld.tensor.reduce %t, %s {reduce = "prod", root = 1 : i64, core_num = 4 : i64} : !pld.dtensor<8xi32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8xi32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce' op has no attribute 'mode'}}
  %0 = pld.tensor.reduce %t, %s {reduce = "sum", root = 0 : i64, mode = "ring"} : !pld.dtensor<8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8xf32>
  return
}

// -----

func.func @f(%t: !pl.tensor<8xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce' op operand 'target' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<8xf32>'}}
  %0 = pld.tensor.reduce %t, %s {reduce = "sum", root = 0 : i64} : !pl.tensor<8xf32>, !pld.dtensor<4xi32> -> !pl.tensor<8xf32>
  return
}
