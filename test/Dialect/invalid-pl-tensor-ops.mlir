// Verifier rules of the pl.tensor.* ops, one case per rule.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// reshape keeps the element type.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.reshape' op result element type 'f16' differs from the source element type 'f32'}}
  %0 = pl.tensor.reshape %a : !pl.tensor<16x4xf32> -> !pl.tensor<64xf16>
  return
}

// -----

// reshape keeps the element count.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.reshape' op reshape changes the element count from 64 to 60}}
  %0 = pl.tensor.reshape %a : !pl.tensor<16x4xf32> -> !pl.tensor<60xf32>
  return
}

// -----

// view offsets: one per source dimension.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.view' op attribute 'offsets' has 1 entries for a source of rank 2}}
  %0 = pl.tensor.view %a {offsets = array<i64: 4>} : !pl.tensor<16x4xf32> -> !pl.tensor<4x4xf32>
  return
}

// -----

// view offsets are non-negative.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.view' op attribute 'offsets' entries must be >= 0}}
  %0 = pl.tensor.view %a {offsets = array<i64: -1, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<4x4xf32>
  return
}

// -----

// A view of another rank may not hold more elements than its source.
func.func @view_too_big(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.view' op view of 128 elements does not fit a source of 64}}
  %0 = pl.tensor.view %a : !pl.tensor<16x4xf32> -> !pl.tensor<128xf32>
  return
}

// -----

// set_validshape: one valid entry per dimension.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op attribute 'valid' has 1 entries for a result of rank 2}}
  %0 = pl.tensor.set_validshape %a {valid = array<i64: 8>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>
  return
}

// -----

// set_validshape: valid within [0, dim].
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op attribute 'valid' entry 5 is outside [0, 4]}}
  %0 = pl.tensor.set_validshape %a {valid = array<i64: 8, 5>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>
  return
}

// -----

// set_validshape: non-negative valid, also on an unranked tensor.
func.func @f(%a: !pl.tensor<*xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op attribute 'valid' entries must be >= 0, got -1}}
  %0 = pl.tensor.set_validshape %a {valid = array<i64: 1, -1>} : !pl.tensor<*xf32> -> !pl.tensor<*xf32>
  return
}

// -----

// set_validshape does not change the shape.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op result dimension 0 is 8 but the source's is 16 (only valid changes)}}
  %0 = pl.tensor.set_validshape %a {valid = array<i64: 8, 4>} : !pl.tensor<16x4xf32> -> !pl.tensor<8x4xf32>
  return
}

// -----

// set_validshape does not change the rank.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op result rank 1 differs from the source rank 2 (only valid changes)}}
  %0 = pl.tensor.set_validshape %a {valid = array<i64: 8>} : !pl.tensor<16x4xf32> -> !pl.tensor<64xf32>
  return
}

// -----

// transpose: perm is a permutation.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.transpose' op attribute 'perm' is not a permutation of [0, 2)}}
  %0 = pl.tensor.transpose %a {perm = array<i64: 0, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>
  return
}

// -----

// transpose: one perm entry per source dimension.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.transpose' op attribute 'perm' has 3 entries for a source of rank 2}}
  %0 = pl.tensor.transpose %a {perm = array<i64: 2, 1, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<4x16x1xf32>
  return
}

// -----

// transpose: the result is the permuted source shape.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.transpose' op result dimension 0 is 16 but source dimension 1 is 4}}
  %0 = pl.tensor.transpose %a {perm = array<i64: 1, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>
  return
}

// -----

// transpose: the result rank is the perm length.
func.func @f(%a: !pl.tensor<*xf32>) {
  // expected-error@+1 {{'pl.tensor.transpose' op result rank 3 differs from the number of 'perm' entries 2}}
  %0 = pl.tensor.transpose %a {perm = array<i64: 1, 0>} : !pl.tensor<*xf32> -> !pl.tensor<4x4x4xf32>
  return
}

// -----

// transpose keeps the element type.
func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.transpose' op result element type 'i32' differs from the source element type 'f32'}}
  %0 = pl.tensor.transpose %a {perm = array<i64: 1, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<4x16xi32>
  return
}

// -----

// A view of the source's rank lies inside it, like a slice: size and offset
// per dimension (here [16, 4] at [8, 0] of [16, 4]).
func.func @view_out_of_bounds(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.view' op view of size 16 at offset 8 exceeds dimension 0 of size 16}}
  %0 = pl.tensor.view %a {offsets = array<i64: 8, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>
  return
}

// -----

func.func @view_wider(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.view' op view of size 32 at offset 0 exceeds dimension 0 of size 16}}
  %0 = pl.tensor.view %a : !pl.tensor<16x4xf32> -> !pl.tensor<32x4xf32>
  return
}

// -----

// A local buffer is not a window (ir.md): pl.tensor.create yields a !pl.tensor.
func.func @f() {
  // expected-error@+1 {{'pl.tensor.create' op result type '!pld.dtensor<2x8xi32>' must be a !pl.tensor (a fresh local buffer is not a window; a window is a pld.window of a pld.window_buffer)}}
  %s = pl.tensor.create : !pld.dtensor<2x8xi32>
  return
}

// -----

// The review's case: a local signal / send_counts passed off as windows to a
// collective (generic form).
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pl.tensor.create' op result type '!pld.dtensor<2x8xi32>' must be a !pl.tensor (a fresh local buffer is not a window; a window is a pld.window of a pld.window_buffer)}}
  %s = "pl.tensor.create"() : () -> !pld.dtensor<2x8xi32>
  %cd = pl.tensor.create : !pl.tensor<2xi32>
  %d = pld.tensor.all_to_all_v %in, %t, %s, %cd, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pl.tensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}

// -----

// The view ops keep a local source local: never tensor -> dtensor.
func.func @f(%c: !pl.tensor<2xi32>) {
  // expected-error@+1 {{'pl.tensor.reshape' op result type '!pld.dtensor<2xi32>' must not be a !pld.dtensor when the source '!pl.tensor<2xi32>' is not (a local buffer is not a window)}}
  %cd = "pl.tensor.reshape"(%c) : (!pl.tensor<2xi32>) -> !pld.dtensor<2xi32>
  return
}

// -----

func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.view' op result type '!pld.dtensor<8x4xf32>' must not be a !pld.dtensor when the source '!pl.tensor<16x4xf32>' is not (a local buffer is not a window)}}
  %0 = pl.tensor.view %a {offsets = array<i64: 8, 0>} : !pl.tensor<16x4xf32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op result type '!pld.dtensor<16x4xf32, valid = [8, 2]>' must not be a !pld.dtensor when the source '!pl.tensor<16x4xf32>' is not (a local buffer is not a window)}}
  %0 = pl.tensor.set_validshape %a {valid = array<i64: 8, 2>} : !pl.tensor<16x4xf32> -> !pld.dtensor<16x4xf32, valid = [8, 2]>
  return
}

// -----

func.func @f(%a: !pl.tensor<16x4xf32>) {
  // expected-error@+1 {{'pl.tensor.transpose' op result type '!pld.dtensor<4x16xf32>' must not be a !pld.dtensor when the source '!pl.tensor<16x4xf32>' is not (a local buffer is not a window)}}
  %0 = pl.tensor.transpose %a {perm = array<i64: 1, 0>} : !pl.tensor<16x4xf32> -> !pld.dtensor<4x16xf32>
  return
}

// -----

func.func @f(%a: !pl.tensor<16x4xf32>, %i: index) {
  // expected-error@+1 {{'pl.tensor.slice' op result type '!pld.dtensor<4x4xf32>' must not be a !pld.dtensor when the source '!pl.tensor<16x4xf32>' is not (a local buffer is not a window)}}
  %0 = pl.tensor.slice %a[%i, %i] {sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>, index, index) -> !pld.dtensor<4x4xf32>
  return
}

// -----

// Unranked and dynamic sources are no exception.
func.func @f(%a: !pl.tensor<*xf32>) {
  // expected-error@+1 {{'pl.tensor.reshape' op result type '!pld.dtensor<?xf32>' must not be a !pld.dtensor when the source '!pl.tensor<*xf32>' is not (a local buffer is not a window)}}
  %0 = pl.tensor.reshape %a : !pl.tensor<*xf32> -> !pld.dtensor<?xf32>
  return
}
