// The contiguity trace rejects everything off its allow-list, naming the
// operand and, in a note, the op that broke the chain.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives

// A transpose is not a packed view of its source.
func.func @transpose(%x: !pl.tensor<4x16xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'pl.tensor.transpose': it is not on the contiguity allow-list}}
  %in = pl.tensor.transpose %x {perm = array<i64: 1, 0>} : !pl.tensor<4x16xf32> -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A tensor.write result is rejected (a missed acceptance is safe).
func.func @write(%x: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %v: f32, %i: index, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'pl.tensor.write'}}
  %in = pl.tensor.write %v into %x[%i, %i] : f32 into !pl.tensor<16x4xf32>, index, index
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A slice that narrows a trailing dimension is not contiguous.
func.func @trailing_slice(%x: !pl.tensor<16x8xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'pl.tensor.slice': only a slice that narrows the leading dimension of a statically shaped tensor at literal offsets is followed}}
  %in = pl.tensor.slice %x {offsets = array<i64: 0, 4>, sizes = array<i64: 16, 4>} : (!pl.tensor<16x8xf32>) -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A slice at runtime offsets is not followed.
func.func @dynamic_offsets(%x: !pl.tensor<32x4xf32>, %t: !pld.dtensor<16x4xf32>, %o: index, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'pl.tensor.slice'}}
  %in = pl.tensor.slice %x[%o, %o] {sizes = array<i64: 16, 4>} : (!pl.tensor<32x4xf32>, index, index) -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A slice of a dynamically shaped tensor is not followed.
func.func @dynamic_source_slice(%x: !pl.tensor<?x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'pl.tensor.slice'}}
  %in = pl.tensor.slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 16, 4>} : (!pl.tensor<?x4xf32>) -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A zero-trip loop returns its initializer: a transposed initializer taints the result.
func.func @loop_initializer(%x: !pld.dtensor<4x16xf32>, %in: !pld.dtensor<16x4xf32>, %n: index, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{the chain is broken by 'pl.tensor.transpose'}}
  %init = pl.tensor.transpose %x {perm = array<i64: 1, 0>} : !pld.dtensor<4x16xf32> -> !pld.dtensor<16x4xf32>
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %init) -> !pld.dtensor<16x4xf32> {
    scf.yield %cur : !pld.dtensor<16x4xf32>
  }
  // expected-error @+1 {{operand 'target' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A cycle through a loop's iter_arg that transposes on every trip is rejected.
func.func @loop_cycle(%t0: !pld.dtensor<16x4xf32>, %in: !pld.dtensor<16x4xf32>, %n: index, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %t0) -> !pld.dtensor<16x4xf32> {
    // expected-note @+1 {{the chain is broken by 'pl.tensor.transpose'}}
    %next = pl.tensor.transpose %cur {perm = array<i64: 0, 1>} : !pld.dtensor<16x4xf32> -> !pld.dtensor<16x4xf32>
    scf.yield %next : !pld.dtensor<16x4xf32>
  }
  // expected-error @+1 {{operand 'target' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// One bad branch of an scf.if taints the result.
func.func @if_branch(%a: !pld.dtensor<16x4xf32>, %x: !pld.dtensor<4x16xf32>, %in: !pld.dtensor<16x4xf32>, %go: i1, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %t = scf.if %go -> !pld.dtensor<16x4xf32> {
    scf.yield %a : !pld.dtensor<16x4xf32>
  } else {
    // expected-note @+1 {{the chain is broken by 'pl.tensor.transpose'}}
    %b = pl.tensor.transpose %x {perm = array<i64: 1, 0>} : !pld.dtensor<4x16xf32> -> !pld.dtensor<16x4xf32>
    scf.yield %b : !pld.dtensor<16x4xf32>
  }
  // expected-error @+1 {{operand 'target' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A call result whose callee returns no parameter is rejected.
func.func private @fresh(%a: !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "aiv"} {
  %n = pl.tensor.create : !pl.tensor<16x4xf32>
  return %n : !pl.tensor<16x4xf32>
}

func.func @call_fresh(%x: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'func.call': callee @fresh does not return a parameter as result #0}}
  %in = call @fresh(%x) : (!pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A call of a body-less callee cannot show what it returns.
func.func private @opaque(!pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "aiv"}

func.func @call_declaration(%x: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'func.call': callee @opaque has no body to show what it returns}}
  %in = call @opaque(%x) : (!pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A DN tensor reshaped to ND is a runtime transpose, not a packed view.
// expected-note @+1 {{the chain is broken by 'func.func': its argument is '!pl.tensor<4x16xf32, layout = dn>', not a packed nd value}}
func.func @dn_on_chain(%x: !pl.tensor<4x16xf32, layout = dn>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %in = pl.tensor.reshape %x : !pl.tensor<4x16xf32, layout = dn> -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// An op outside the allow-list breaks the chain. arith.select is one (ir.md),
// though canonicalize folds an allowed scf.if that only yields outer values
// into it: the note says so.
func.func @select(%a: !pld.dtensor<16x4xf32>, %b: !pld.dtensor<16x4xf32>, %in: !pld.dtensor<16x4xf32>, %go: i1, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'arith.select': it is not on the contiguity allow-list (an scf.if choosing between the same values is, and canonicalize folds such an scf.if into arith.select: run canonicalize after the pipeline)}}
  %t = arith.select %go, %a, %b : !pld.dtensor<16x4xf32>
  // expected-error @+1 {{operand 'target' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A view that offsets a trailing dimension keeps its parent's row stride:
// [16, 8] at [0, 4] -> [16, 4] is not contiguous, so the trace stops there.
func.func @view_columns(%x: !pl.tensor<16x8xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'pl.tensor.view': only a view that narrows the leading dimension of a statically shaped tensor (same rank, trailing dimensions whole at offset 0) is followed}}
  %in = pl.tensor.view %x {offsets = array<i64: 0, 4>} : !pl.tensor<16x8xf32> -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A view of another rank is not followed either (a missed acceptance is safe).
func.func @view_rank_change(%x: !pl.tensor<64xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'pl.tensor.view'}}
  %in = pl.tensor.view %x : !pl.tensor<64xf32> -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}
