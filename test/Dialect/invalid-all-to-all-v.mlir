// The pld.tensor.all_to_all_v type deducer: one case per rule, each message
// naming the operand.
// RUN: pld-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics

// A non-nd layout (target).
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32, layout = dn>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'target' must have layout nd, got dn}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32, layout = dn>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32, layout = dn>
  return
}

// -----

// A non-nd layout (signal).
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32, layout = nz>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'signal' must have layout nd, got nz}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32, layout = nz>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Explicit strides other than packed (input).
func.func @f(%in: !pl.tensor<16x4xf32, strides = [8, 1]>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' has strides [8, 1] that are not packed row-major}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pl.tensor<16x4xf32, strides = [8, 1]>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A valid_shape narrower than the shape (recv_counts).
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32, valid = [1]>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'recv_counts' has a valid_shape narrower than its shape}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32, valid = [1]>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// input is the same SSA value as target.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' must not be the same value as 'target'}}
  %0 = "pld.tensor.all_to_all_v"(%tg, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// target is a local tensor, not a window.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pl.tensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'target' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<16x4xf32>'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pl.tensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pl.tensor<16x4xf32>
  return
}

// -----

// signal is a local tensor, not a window.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pl.tensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'signal' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<2x8xi32>'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pl.tensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// recv_counts is a local tensor, not a window.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pl.tensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'recv_counts' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<2xi32>'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// input and target element types differ.
func.func @f(%in: !pld.dtensor<16x4xi8>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' element type 'i8' differs from 'target' element type 'f32'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xi8>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A non-i32 signal.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi64>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'signal' must hold i32 credits, got 'i64'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi64>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A signal that is not [NR, S].
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<16xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'signal' must be shaped [NR, S] (NR rows, one per rank, of S credits each), got rank 1}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<16xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A signal with no rows.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<0x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'signal' must have NR >= 1 rows}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<0x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Non-i32 send_counts.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi64>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'send_counts' must hold i32 counts, got 'i64'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi64>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// send_counts neither [NR] nor [NR, 1].
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2x2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'send_counts' must be shaped [NR] or [NR, 1] (NR = the signal's row count), got [2, 2]}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2x2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// recv_counts with another NR than the signal.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<4x1xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'recv_counts' has 4 entries but the signal has NR = 2 rows}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<4x1xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Non-i32 recv_counts.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xf32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'recv_counts' must hold i32 counts, got 'f32'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xf32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Target rows not divisible by NR.
func.func @f(%in: !pld.dtensor<15x4xf32>, %tg: !pld.dtensor<15x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'target' row count must be divisible by the signal's row count NR = 2, got 15}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<15x4xf32>, !pld.dtensor<15x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<15x4xf32>
  return
}

// -----

// input and target are both [NR*MAX_RECV, row...]: the kernel takes MAX_RECV and
// the row size from target and reads input with them. Rows of a different
// element count (input 16x4, target 16x8: input would be read past its end).
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x8xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' rows must hold as many elements as a 'target' row (8 in [8]), got 4 in [4]}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pl.tensor<16x4xf32>, !pld.dtensor<16x8xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x8xf32>
  return
}

// -----

// Fewer input rows than target rows (input 8x4, target 16x4).
func.func @f(%in: !pl.tensor<8x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' row count must equal the row count 16 of 'target' (both are [NR*MAX_RECV, ...] payloads), got 8}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pl.tensor<8x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A rank-1 input of the target's element count still has the wrong row count
// (64 rows of 1 element, not 16 of 4).
func.func @f(%in: !pl.tensor<64xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' row count must equal the row count 16 of 'target' (both are [NR*MAX_RECV, ...] payloads), got 64}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pl.tensor<64xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A dynamic row count proves nothing, but the static row element counts differ
// (a rank-1 input has rows of one element).
func.func @f(%in: !pl.tensor<?xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' rows must hold as many elements as a 'target' row (4 in [4]), got 1 in []}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pl.tensor<?xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Static row element counts that differ behind a dynamic target row count.
func.func @f(%in: !pl.tensor<16x2x3xf32>, %tg: !pld.dtensor<?x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' rows must hold as many elements as a 'target' row (4 in [4]), got 6 in [2, 3]}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pl.tensor<16x2x3xf32>, !pld.dtensor<?x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<?x4xf32>
  return
}

// -----

// A rank-0 input.
func.func @f(%in: !pl.tensor<f32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'input' must have a row dimension}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pl.tensor<f32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A rank-0 target.
func.func @f(%in: !pld.dtensor<f32>, %tg: !pld.dtensor<f32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand 'target' must have a row dimension}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<f32>, !pld.dtensor<f32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<f32>
  return
}

// -----

// A result type other than target's.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op result type '!pld.dtensor<?x4xf32>' must be the type of 'target' '!pld.dtensor<16x4xf32>'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<?x4xf32>
  return
}

// -----

// Neither the core_num attribute nor the dynamic_core_num operand.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op needs exactly one of the 'core_num' attribute and the 'dynamic_core_num' operand}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Both the core_num attribute and the dynamic_core_num operand.
func.func @f(%in: !pld.dtensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>, %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>, %n: i64) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op needs exactly one of the 'core_num' attribute and the 'dynamic_core_num' operand}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc, %n) {core_num = 1 : i64} : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, i64) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A collective outside any function (at module level) is refused: no pass
// would ever lower or refuse it there.
%in = "test.value"() : () -> !pld.dtensor<16x4xf32>
%t = "test.value"() : () -> !pld.dtensor<16x4xf32>
%s = "test.value"() : () -> !pld.dtensor<2x8xi32>
%c = "test.value"() : () -> !pld.dtensor<2xi32>
%r = "test.value"() : () -> !pld.dtensor<2xi32>
// expected-error @+1 {{'pld.tensor.all_to_all_v' op must be inside a function body (a collective is a task of an orchestration or InCore function)}}
%d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
    : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
