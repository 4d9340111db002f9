// --lower-composite-ops expands an InCore all_to_all_v into an explicit
// per-peer transfer loop; orchestration bodies are left for their rails.
// RUN: pld-opt %s --split-input-file --lower-composite-ops --verify-each --verify-diagnostics | FileCheck %s --implicit-check-not=pld.tensor.all_to_all_v

// CHECK-LABEL: func.func @incore
// CHECK-SAME: (%[[IN:.*]]: !pl.tensor<16x4xf32>, %[[T:.*]]: !pld.dtensor<16x4xf32>, %[[S:.*]]: !pld.dtensor<2x8xi32>, %[[C:.*]]: !pld.dtensor<2x1xi32>, %[[R:.*]]: !pld.dtensor<2xi32>)
// CHECK: %[[P:.*]] = pld.system.nranks : i64
// CHECK: %[[ME:.*]] = pld.system.rank : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[MAX:.*]] = arith.constant 8 : i64
// CHECK: %[[DST:.*]] = arith.muli %[[ME]], %[[MAX]]
// CHECK: scf.for %[[PEER:.*]] = %[[ZERO]] to %[[P]] step %[[ONE]] : i64 {
// CHECK:   %[[CNT:.*]] = pld.comm.read_count %[[C]][%[[PEER]]] : !pld.dtensor<2x1xi32>
// CHECK:   %[[W:.*]] = arith.extsi %[[CNT]] : i32 to i64
// CHECK:   %[[LO:.*]] = arith.maxsi %[[W]], %[[ZERO]]
// CHECK:   %[[ROWS:.*]] = arith.minsi %[[LO]], %[[MAX]]
// CHECK:   %[[ANY:.*]] = arith.cmpi sgt, %[[ROWS]], %[[ZERO]]
// CHECK:   scf.if %[[ANY]] {
// CHECK:     %[[SRC:.*]] = arith.muli %[[PEER]], %[[MAX]]
// CHECK:     pld.comm.put_rows %[[ROWS]] of %[[IN]][%[[SRC]]] to %[[T]][%[[DST]]] on rank %[[PEER]]
// CHECK:   }
// CHECK-NEXT: pld.comm.notify %[[ROWS]] to %[[R]][%[[ME]]] signal %[[S]] on rank %[[PEER]]
// CHECK: }
// CHECK: scf.for %[[PEER2:.*]] = %[[ZERO]] to %[[P]] step %[[ONE]] : i64 {
// CHECK-NEXT: pld.comm.wait %[[S]][%[[PEER2]]]
// CHECK: }
// CHECK: return %[[T]]
func.func @incore(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2x1xi32>, %r: !pld.dtensor<2xi32>)
    -> !pld.dtensor<16x4xf32> attributes {pl.func_kind = "incore"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2x1xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}

// -----

// aic / aiv bodies too, with core_num from an arith.constant operand.
// CHECK-LABEL: func.func @aiv_const
// CHECK: scf.for
// CHECK: pld.comm.put_rows
// CHECK: pld.comm.wait
func.func @aiv_const(%in: !pld.dtensor<8x4xi8>, %t: !pld.dtensor<8x4xi8>, %s: !pld.dtensor<4x4xi32>, %c: !pld.dtensor<4xi32>, %r: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "aic"} {
  %one = arith.constant 1 : i64
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%one)
      : !pld.dtensor<8x4xi8>, !pld.dtensor<8x4xi8>, !pld.dtensor<4x4xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi8>
  return
}

// -----

// A CHIP orchestration body's collective is left for the CHIP rail.
// CHECK-LABEL: func.func @chip
// CHECK: pld.tensor.all_to_all_v
// CHECK-NOT: pld.comm
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 4 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @wide(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "aiv"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op core_num must be 1 in an InCore body (the InCore rail runs on the calling core), got 2}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @runtime(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %n: i64)
    attributes {pl.func_kind = "incore"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op core_num must be 1 in an InCore body (the InCore rail runs on the calling core), got a runtime value}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @dynamic(%in: !pld.dtensor<?x4xf32>, %t: !pld.dtensor<?x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "incore"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op target row count and signal row count NR must be static on the InCore rail (MAX_RECV = rows / NR)}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<?x4xf32>, !pld.dtensor<?x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<?x4xf32>
  return
}

// -----

// The indexed op has no InCore expansion (indexed.md): refused in an InCore
// body of an a5 module, with core_num 1 and every operand well formed...
module attributes {pl.arch = "a5"} {
func.func @indexed(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>)
    attributes {pl.func_kind = "aiv"} {
  // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op indexed_all_to_all_v is not supported in an InCore body}}
  %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}
}

// -----

// ... and in a module without pl.arch = "a5" the architecture row comes first.
func.func @indexed(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>)
    attributes {pl.func_kind = "incore"} {
  // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op indexed_all_to_all_v needs pl.arch = "a5" (A5 URMA PER_PEER transport), got pl.arch = "a2a3" (the default when absent)}}
  %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// An indexed op in a CHIP orchestration body is the CHIP rail's, not refused
// here.
// CHECK-LABEL: func.func @chip_indexed
// CHECK: pld.tensor.indexed_all_to_all_v
module attributes {pl.arch = "a5"} {
func.func @chip_indexed(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 4 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}
}
