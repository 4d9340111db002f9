// family.md, Checks: an unprefixed attribute a collective does not define is
// an error at the op, naming it and listing the op's own attributes (it was
// silently dropped, or obeyed by a rule meant for another op). Dialect-prefixed
// (discardable) attributes stay allowed: the last split verifies cleanly.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// The barrier has no attributes and launches one block.
func.func @f(%s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.barrier' op has no attribute 'core_num' (its attributes: none; a discardable attribute needs a dialect prefix, e.g. 'pl.core_num')}}
  %0 = pld.tensor.barrier %s {core_num = 4 : i64} : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op has no attribute 'mode' (its attributes: core_num, reduce;}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op has no attribute 'root' (its attributes: core_num, mode, reduce;}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", root = 0 : i64} : !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

// The generic form is checked the same way.
func.func @f(%in: !pl.tensor<2x4xi8>, %t: !pld.dtensor<8x4xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allgather' op has no attribute 'reduce' (its attributes: core_num;}}
  %0 = "pld.tensor.allgather"(%in, %t, %s) {reduce = "sum"} : (!pl.tensor<2x4xi8>, !pld.dtensor<8x4xi8>, !pld.dtensor<4xi32>) -> !pld.dtensor<8x4xi8>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.broadcast' op has no attribute 'mode' (its attributes: core_num, root;}}
  %0 = pld.tensor.broadcast %t, %s {root = 1 : i64, mode = "ring"} : !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @f(%in: !pl.tensor<8x4xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all' op has no attribute 'root' (its attributes: core_num;}}
  %0 = pld.tensor.all_to_all %in, %t, %s {root = 0 : i64} : !pl.tensor<8x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

// all_to_all_v and its indexed variant: the same rule.
func.func @f(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op has no attribute 'mode' (its attributes: core_num;}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64, mode = "ring"}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Prefixed attributes are discardable and allowed on every collective.
func.func @f(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %s4: !pld.dtensor<4xi32>, %t4: !pld.dtensor<8x4xf32>) {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64, user.note = "kept"}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %1 = pld.tensor.barrier %s4 {my.tag = 3 : i64} : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  %2 = pld.tensor.allreduce %t4, %1 {reduce = "sum", user.note = "kept"} : !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}
