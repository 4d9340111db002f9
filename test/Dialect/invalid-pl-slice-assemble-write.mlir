// Verifier rules of pl.tensor.slice, pl.tensor.assemble and pl.tensor.write.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// slice: literal offsets and offset operands are exclusive.
func.func @f(%a: !pl.tensor<16x4xf32>, %i: index) {
  // expected-error@+1 {{'pl.tensor.slice' op takes either literal 'offsets' or offset operands, not both}}
  %0 = pl.tensor.slice %a[%i, %i] {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>, index, index) -> !pl.tensor<4x4xf32>
  return
}

// -----

// slice: without literal offsets, one offset operand per dimension.
func.func @f(%a: !pl.tensor<16x4xf32>, %i: index) {
  // expected-error@+1 {{'pl.tensor.slice' op needs 'offsets' or one offset operand per dimension (2), got 1}}
  %0 = pl.tensor.slice %a[%i] {sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>, index) -> !pl.tensor<4x4xf32>
  return
}

// -----

// slice: offsets and sizes of one length.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.slice' op attributes 'offsets' and 'sizes' differ in length}}
  %0 = pl.tensor.slice %a {offsets = array<i64: 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<4x4xf32>
  return
}

// -----

// slice: one size per source dimension.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.slice' op attribute 'sizes' has 1 entries for a source of rank 2}}
  %0 = pl.tensor.slice %a {offsets = array<i64: 0>, sizes = array<i64: 4>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// slice: non-negative offsets and sizes.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.slice' op attributes 'offsets' and 'sizes' must be >= 0}}
  %0 = pl.tensor.slice %a {offsets = array<i64: -4, 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<4x4xf32>
  return
}

// -----

// slice: the box fits the source.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.slice' op slice of size 4 at offset 14 exceeds dimension 0 of size 16}}
  %0 = pl.tensor.slice %a {offsets = array<i64: 14, 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<4x4xf32>
  return
}

// -----

// slice: a huge offset does not overflow past the check.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.slice' op slice of size 4 at offset 9223372036854775807 exceeds dimension 0 of size 16}}
  %0 = pl.tensor.slice %a {offsets = array<i64: 9223372036854775807, 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<4x4xf32>
  return
}

// -----

// slice: the result shape is `sizes`.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.slice' op result shape does not match 'sizes'}}
  %0 = pl.tensor.slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<4x2xf32>
  return
}

// -----

// slice: the result rank is the number of sizes.
func.func @f(%a: !pl.tensor<*xf32>) {
  // expected-error@+1 {{'pl.tensor.slice' op result rank 1 differs from the number of 'sizes' 2}}
  %0 = pl.tensor.slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<*xf32>) -> !pl.tensor<16xf32>
  return
}

// -----

// assemble: source and target share the element type.
func.func @f(%t: !pl.tensor<16x4xf32>, %s: !pl.tensor<4x4xf16>) {
  // expected-error@+1 {{'pl.tensor.assemble' op source element type 'f16' differs from the target element type 'f32'}}
  %0 = pl.tensor.assemble %s into %t {offsets = array<i64: 0, 0>} : !pl.tensor<4x4xf16> into !pl.tensor<16x4xf32>
  return
}

// -----

// assemble: one offset per target dimension.
func.func @f(%t: !pl.tensor<16x4xf32>, %s: !pl.tensor<4x4xf32>) {
  // expected-error@+1 {{'pl.tensor.assemble' op attribute 'offsets' has 1 entries for a target of rank 2}}
  %0 = pl.tensor.assemble %s into %t {offsets = array<i64: 0>} : !pl.tensor<4x4xf32> into !pl.tensor<16x4xf32>
  return
}

// -----

// assemble: the source fits the target at the offsets.
func.func @f(%t: !pl.tensor<16x4xf32>, %s: !pl.tensor<4x4xf32>) {
  // expected-error@+1 {{'pl.tensor.assemble' op source does not fit the target in dimension 0}}
  %0 = pl.tensor.assemble %s into %t {offsets = array<i64: 13, 0>} : !pl.tensor<4x4xf32> into !pl.tensor<16x4xf32>
  return
}

// -----

// assemble: the result is the target's type.
func.func @f(%t: !pl.tensor<16x4xf32>, %s: !pl.tensor<4x4xf32>) {
  // expected-error@+1 {{'pl.tensor.assemble' op failed to verify that all of {target, result} have same type}}
  %0 = "pl.tensor.assemble"(%t, %s) {offsets = array<i64: 0, 0>} : (!pl.tensor<16x4xf32>, !pl.tensor<4x4xf32>) -> !pl.tensor<?x4xf32>
  return
}

// -----

// write: the value has the element type.
func.func @f(%t: !pl.tensor<16x4xf32>, %v: i32, %i: index) {
  // expected-error@+1 {{'pl.tensor.write' op value type 'i32' differs from the element type 'f32'}}
  %0 = pl.tensor.write %v into %t[%i, %i] : i32 into !pl.tensor<16x4xf32>, index, index
  return
}

// -----

// write: one index per dimension.
func.func @f(%t: !pl.tensor<16x4xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{'pl.tensor.write' op needs one index per dimension (2), got 1}}
  %0 = pl.tensor.write %v into %t[%i] : f32 into !pl.tensor<16x4xf32>, index
  return
}

// -----

// write: the result is the destination's type.
func.func @f(%t: !pl.tensor<16x4xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{'pl.tensor.write' op failed to verify that all of {dst, result} have same type}}
  %0 = "pl.tensor.write"(%t, %v, %i, %i) : (!pl.tensor<16x4xf32>, f32, index, index) -> !pld.dtensor<16x4xf32>
  return
}
