// The pld.tensor.indexed_all_to_all_v type deducer (docs/spec/indexed.md's
// operand table): one case per rule, each message naming the operand.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// A strided (non-packed) index.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>, %ix: !pl.tensor<16x1xi32, strides = [2, 1]>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'index' has strides [2, 1] that are not packed row-major}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pld.dtensor<2xi32>, !pl.tensor<16x1xi32, strides = [2, 1]> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A non-nd index.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16x1xi32, layout = dn>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'index' must have layout nd, got dn}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16x1xi32, layout = dn> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A narrowed (valid_shape) input.
func.func @f(%in: !pl.tensor<16x4xf32, valid = [8, 4]>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'input' has a valid_shape narrower than its shape}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32, valid = [8, 4]>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// input is the same SSA value as target.
func.func @f(%tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'input' must not be the same value as 'target'}}
  %0 = pld.tensor.indexed_all_to_all_v %tg, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A local target.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pl.tensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'target' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<16x4xf32>'}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pl.tensor<16x4xf32>
  return
}

// -----

// A local signal.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pl.tensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'signal' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<2x8xi32>'}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pl.tensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A local send_counts: receivers pull their counts from the senders' windows.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pl.tensor<2xi32>, %rc: !pld.dtensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'send_counts' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<2xi32>'}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pl.tensor<2xi32>,
        !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Payload element types differ.
func.func @f(%in: !pl.tensor<16x4xi8>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'input' element type 'i8' differs from 'target' element type 'f32'}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xi8>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Row shapes differ (input rows of 5, target rows of 4).
func.func @f(%in: !pl.tensor<20x5xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'input' row shape [5] differs from the row shape of 'target' [4]}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<20x5xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Row ranks differ ([2, 2] rows against [4] rows).
func.func @f(%in: !pl.tensor<16x2x2xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'input' row shape [2, 2] differs from the row shape of 'target' [4]}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x2x2xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// index rows != target rows.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<12xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'index' has 12 rows but 'target' has 16 (one gather entry per target row)}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<12xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// index is not i32.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16xi64>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'index' must hold i32 row indices, got 'i64'}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16xi64> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// index is neither [N] nor [N, 1].
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>, %ix: !pl.tensor<16x2xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'index' must be shaped [NR*MAX_RECV] or [NR*MAX_RECV, 1] (one row index per target row), got [16, 2]}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<2xi32>, !pl.tensor<16x2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// recv_counts of the wrong length (it may be local, but it is still checked).
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<3xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'recv_counts' has 3 entries but the signal has NR = 2 rows}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pl.tensor<3xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Neither core_num form.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op needs exactly one of the 'core_num' attribute and the 'dynamic_core_num' operand}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// The runtime core_num is an i64.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>, %n: i32) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand #5 must be 64-bit signless integer, but got 'i32'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc, %n)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
         !pld.dtensor<2xi32>, i32) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// The payload operands are tensors.
func.func @f(%in: i32, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand #0 must be !pl.tensor or !pld.dtensor, but got 'i32'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64}
      : (i32, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
         !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}
