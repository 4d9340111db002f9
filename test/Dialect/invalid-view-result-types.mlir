// The types must not lie: each view op's result type states what the
// runtime descriptor is (runtime/include/pld_runtime/views.h), so a result
// type that disagrees with the op's attributes or its source is refused, one
// case per view op. The runtime carries no separate valid_shape: a
// descriptor's extents are its type's valid_shape.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// The miscompile this guards (issue 21): the result type says 8 rows, the
// runtime narrows the descriptor to 3, and a collective on it sized MAX_RECV
// from the 8.
func.func @set_validshape_drops_valid(%tgt: !pld.dtensor<8x2xf32>) -> !pld.dtensor<8x2xf32> {
  // expected-error@+1 {{'pl.tensor.set_validshape' op result type '!pld.dtensor<8x2xf32>' must carry the valid_shape the op sets, [3, 2] (its valid_shape is [8, 2])}}
  %v = pl.tensor.set_validshape %tgt {valid = array<i64: 3, 2>} : !pld.dtensor<8x2xf32> -> !pld.dtensor<8x2xf32>
  return %v : !pld.dtensor<8x2xf32>
}

// -----

func.func @set_validshape_other_valid(%a: !pl.tensor<8x2xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op result type '!pl.tensor<8x2xf32, valid = [4, 2]>' must carry the valid_shape the op sets, [3, 2] (its valid_shape is [4, 2])}}
  %v = pl.tensor.set_validshape %a {valid = array<i64: 3, 2>} : !pl.tensor<8x2xf32> -> !pl.tensor<8x2xf32, valid = [4, 2]>
  return
}

// -----

func.func @set_validshape_layout(%a: !pl.tensor<8x2xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op result layout dn differs from the source layout nd (only valid changes)}}
  %v = pl.tensor.set_validshape %a {valid = array<i64: 3, 2>} : !pl.tensor<8x2xf32> -> !pl.tensor<8x2xf32, layout = dn, valid = [3, 2]>
  return
}

// -----

func.func @set_validshape_strides(%a: !pl.tensor<8x2xf32>) {
  // expected-error@+1 {{'pl.tensor.set_validshape' op result strides differ from the source's (only valid changes)}}
  %v = pl.tensor.set_validshape %a {valid = array<i64: 3, 2>} : !pl.tensor<8x2xf32> -> !pl.tensor<8x2xf32, valid = [3, 2], strides = [4, 1]>
  return
}

// -----

// reshape: the runtime reshapes the source's descriptor, whose element count
// is its valid_shape's.
func.func @reshape_counts_valid(%a: !pl.tensor<8x2xf32, valid = [3, 2]>) {
  // expected-error@+1 {{'pl.tensor.reshape' op reshape changes the element count from 6 to 16 (the source's valid_shape is [3, 2])}}
  %v = pl.tensor.reshape %a : !pl.tensor<8x2xf32, valid = [3, 2]> -> !pl.tensor<16xf32>
  return
}

// -----

func.func @reshape_narrow_result(%a: !pl.tensor<8x2xf32>) {
  // expected-error@+1 {{'pl.tensor.reshape' op result type must not narrow its valid_shape (valid = [3]): the result is a whole descriptor of its shape; narrow it with pl.tensor.set_validshape}}
  %v = pl.tensor.reshape %a : !pl.tensor<8x2xf32> -> !pl.tensor<16xf32, valid = [3]>
  return
}

// -----

func.func @view_narrow_result(%a: !pl.tensor<8x2xf32>) {
  // expected-error@+1 {{'pl.tensor.view' op result type must not narrow its valid_shape (valid = [2, 2]): the result is a whole descriptor of its shape; narrow it with pl.tensor.set_validshape}}
  %v = pl.tensor.view %a : !pl.tensor<8x2xf32> -> !pl.tensor<4x2xf32, valid = [2, 2]>
  return
}

// -----

// view: the box at the offsets lies inside the source's valid_shape.
func.func @view_outside_valid(%a: !pl.tensor<8x2xf32, valid = [3, 2]>) {
  // expected-error@+1 {{'pl.tensor.view' op view of size 2 at offset 2 exceeds dimension 0 of size 3 (the source's valid_shape is [3, 2])}}
  %v = pl.tensor.view %a {offsets = array<i64: 2, 0>} : !pl.tensor<8x2xf32, valid = [3, 2]> -> !pl.tensor<2x2xf32>
  return
}

// -----

func.func @view_other_rank_outside_valid(%a: !pl.tensor<8x2xf32, valid = [3, 2]>) {
  // expected-error@+1 {{'pl.tensor.view' op view of 8 elements does not fit a source of 6 (the source's valid_shape is [3, 2])}}
  %v = pl.tensor.view %a : !pl.tensor<8x2xf32, valid = [3, 2]> -> !pl.tensor<8xf32>
  return
}

// -----

func.func @slice_outside_valid(%a: !pl.tensor<8x2xf32, valid = [3, 2]>) {
  // expected-error@+1 {{'pl.tensor.slice' op slice of size 2 at offset 2 exceeds dimension 0 of size 3 (the source's valid_shape is [3, 2])}}
  %v = pl.tensor.slice %a {offsets = array<i64: 2, 0>, sizes = array<i64: 2, 2>} : (!pl.tensor<8x2xf32, valid = [3, 2]>) -> !pl.tensor<2x2xf32>
  return
}

// -----

func.func @slice_narrow_result(%a: !pl.tensor<8x2xf32>) {
  // expected-error@+1 {{'pl.tensor.slice' op result type must not narrow its valid_shape (valid = [1, 2]): the result is a whole descriptor of its shape; narrow it with pl.tensor.set_validshape}}
  %v = pl.tensor.slice %a {offsets = array<i64: 2, 0>, sizes = array<i64: 2, 2>} : (!pl.tensor<8x2xf32>) -> !pl.tensor<2x2xf32, valid = [1, 2]>
  return
}

// -----

// transpose: the valid_shape moves with its dimensions.
func.func @transpose_drops_valid(%a: !pl.tensor<8x2xf32, valid = [3, 2]>) {
  // expected-error@+1 {{'pl.tensor.transpose' op result type '!pl.tensor<2x8xf32>' must carry the source's valid_shape permuted, [2, 3] (its valid_shape is [2, 8])}}
  %v = pl.tensor.transpose %a {perm = array<i64: 1, 0>} : !pl.tensor<8x2xf32, valid = [3, 2]> -> !pl.tensor<2x8xf32>
  return
}

// -----

func.func @transpose_invents_valid(%a: !pl.tensor<8x2xf32>) {
  // expected-error@+1 {{'pl.tensor.transpose' op result type '!pl.tensor<2x8xf32, valid = [2, 3]>' must carry the source's valid_shape permuted, [2, 8] (its valid_shape is [2, 3])}}
  %v = pl.tensor.transpose %a {perm = array<i64: 1, 0>} : !pl.tensor<8x2xf32> -> !pl.tensor<2x8xf32, valid = [2, 3]>
  return
}
