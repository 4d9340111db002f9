// CHIP rail, inside one body: two operands of one collective that provably
// share one root (each traces to exactly one parameter or local allocation,
// the same one) are refused with the HOST rail's wording, a note at the root
// and at each operand's chain. Operands that only may share a root (a
// loop-carried ping-pong) are left to the per-dispatch check.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics

// input is a pl.cast of the target window.
// expected-note@+1 {{both are views of this parameter (#0)}}
func.func @input_cast_of_target(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>,
                                %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note@+1 {{operand 'input' is a view of it through this value}}
  %in = pl.cast %t : !pld.dtensor<16x4xf32> to !pl.tensor<16x4xf32>
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operands input and target must be different window allocations}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}

// -----

// One SSA value as send_counts and recv_counts.
// expected-note@+2 {{both are views of this parameter (#3)}}
func.func @same_counts(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                       %c: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operands send_counts and recv_counts must be different window allocations}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %c {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}

// -----

// Through a chain: the previous exchange's result (its target) reshaped back
// in as the next one's input.
// expected-note@+1 {{both are views of this parameter (#1)}}
func.func @result_as_input(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                           %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %flat = pl.tensor.reshape %d : !pld.dtensor<16x4xf32> -> !pld.dtensor<64xf32>
  // expected-note@+1 {{operand 'input' is a view of it through this value}}
  %back = pl.tensor.reshape %flat : !pld.dtensor<64xf32> -> !pld.dtensor<16x4xf32>
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operands input and target must be different window allocations}}
  %e = pld.tensor.all_to_all_v %back, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %e : !pld.dtensor<16x4xf32>
}

// -----

// The indexed exchange: recv_counts and index slices of one local buffer.
module attributes {pl.arch = "a5"} {
func.func @indexed_local(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                         %c: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note@+1 {{both are views of this 'pl.tensor.create' result}}
  %buf = pl.tensor.create : !pl.tensor<16xi32>
  // expected-note@+1 {{operand 'recv_counts' is a view of it through this value}}
  %rc = pl.tensor.slice %buf {offsets = array<i64: 0>, sizes = array<i64: 2>} : (!pl.tensor<16xi32>) -> !pl.tensor<2xi32>
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operands recv_counts and index must be different window allocations}}
  %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %rc, %buf {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}
}

// -----

// Accepted: a loop-carried ping-pong. input and target each may be either
// window, never both the same one in one iteration.
func.func @ping_pong(%a: !pld.dtensor<16x4xf32>, %b: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                     %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %n: index) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>) {
    %d = pld.tensor.all_to_all_v %x, %y, %s, %c, %r {core_num = 2 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    scf.yield %d, %x : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>
  }
  return %out#0 : !pld.dtensor<16x4xf32>
}

// -----

// Accepted: two exchanges on one signal and one set of counts, distinct
// payload windows (sharing across calls is the task graph's business).
func.func @two_exchanges(%a: !pld.dtensor<16x4xf32>, %b: !pld.dtensor<16x4xf32>, %o: !pld.dtensor<16x4xf32>,
                         %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %a, %b, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %e = pld.tensor.all_to_all_v %d, %o, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %e : !pld.dtensor<16x4xf32>
}
