// Verifier rules of pl.cast and pl.submit.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// pl.cast never makes a window out of a local buffer (tensor -> dtensor).
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.cast' op operand type '!pl.tensor<16x4xf32>' and result type '!pld.dtensor<16x4xf32>' are cast incompatible}}
  %0 = pl.cast %a : !pl.tensor<16x4xf32> to !pld.dtensor<16x4xf32>
  return
}

// -----

// pl.cast keeps the element type.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.cast' op operand type '!pl.tensor<16x4xf32>' and result type '!pl.tensor<16x4xi32>' are cast incompatible}}
  %0 = pl.cast %a : !pl.tensor<16x4xf32> to !pl.tensor<16x4xi32>
  return
}

// -----

// pl.cast keeps the layout.
func.func @f(%a: !pld.dtensor<16x4xf32>) {
  // expected-error@+1 {{'pl.cast' op operand type '!pld.dtensor<16x4xf32>' and result type '!pld.dtensor<16x4xf32, layout = dn>' are cast incompatible}}
  %0 = pl.cast %a : !pld.dtensor<16x4xf32> to !pld.dtensor<16x4xf32, layout = dn>
  return
}

// -----

// pl.cast keeps the valid_shape.
func.func @f(%a: !pld.dtensor<16x4xf32, valid = [8, 4]>) {
  // expected-error@+1 {{'pl.cast' op operand type '!pld.dtensor<16x4xf32, valid = [8, 4]>' and result type '!pl.tensor<16x4xf32>' are cast incompatible}}
  %0 = pl.cast %a : !pld.dtensor<16x4xf32, valid = [8, 4]> to !pl.tensor<16x4xf32>
  return
}

// -----

// pl.cast between incompatible static shapes.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.cast' op operand type '!pl.tensor<16x4xf32>' and result type '!pl.tensor<4x16xf32>' are cast incompatible}}
  %0 = pl.cast %a : !pl.tensor<16x4xf32> to !pl.tensor<4x16xf32>
  return
}

// -----

// pl.cast between ranks.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.cast' op operand type '!pl.tensor<16x4xf32>' and result type '!pl.tensor<64xf32>' are cast incompatible}}
  %0 = pl.cast %a : !pl.tensor<16x4xf32> to !pl.tensor<64xf32>
  return
}

// -----

func.func private @kernel(!pl.tensor<4xf32>) -> !pl.tensor<4xf32>

// pl.submit: runtime_alloc_outs are result indices.
func.func @f(%a: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op attribute 'runtime_alloc_outs' entries must be result indices in [0, 1), got 1}}
  %0 = pl.submit @kernel(%a) {runtime_alloc_outs = array<i64: 1>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// pl.submit: the callee is a func.func of the module.
func.func @f(%a: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'pl.submit' op callee @missing must reference a func.func}}
  %0 = pl.submit @missing(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}
