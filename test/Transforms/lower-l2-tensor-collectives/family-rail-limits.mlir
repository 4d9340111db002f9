// What the family's kernels cannot do, refused on the CHIP rail at the op
// rather than accepted and left to a kernel that would return without doing
// anything: more than 16 ranks, a ring over a target whose element count the
// types do not prove divisible by NR, and a rows rule (NR*M) over dynamic rows.
// A mesh allreduce of a dynamic target is fine (it reduces numel elements).
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics | FileCheck %s

func.func @too_many_ranks(%t: !pld.dtensor<8xf32>, %s: !pld.dtensor<32xi32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.allreduce' op allreduce supports at most 16 ranks (its kernel's limit), got NR=32 ranks}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<8xf32>, !pld.dtensor<32xi32> -> !pld.dtensor<8xf32>
  return
}

// -----

func.func @barrier_too_many_ranks(%s: !pld.dtensor<17x1xi32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.barrier' op barrier supports at most 16 ranks (its kernel's limit), got NR=17 ranks}}
  %0 = pld.tensor.barrier %s : !pld.dtensor<17x1xi32> -> !pld.dtensor<17x1xi32>
  return
}

// -----

func.func @ring_dynamic(%t: !pld.dtensor<?x4xf32>, %s: !pld.dtensor<7x4xi32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.allreduce' op ring mode needs the element count divisible by NR=4, which a target of dynamic shape does not prove}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<?x4xf32>, !pld.dtensor<7x4xi32> -> !pld.dtensor<?x4xf32>
  return
}

// -----

func.func @rows_dynamic(%in: !pl.tensor<?x4xi8>, %t: !pld.dtensor<16x4xi8>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.allgather' op target rows must be NR*M (NR=4 ranks), which operand 'input' of dynamic shape does not prove}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<?x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xi8>
  return
}

// -----

// CHECK-LABEL: func.func @mesh_dynamic
// CHECK: call @__builtin_allreduce_max__fp32
func.func @mesh_dynamic(%t: !pld.dtensor<?x4xf32>, %s: !pld.dtensor<16xi32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allreduce %t, %s {reduce = "max"} : !pld.dtensor<?x4xf32>, !pld.dtensor<16xi32> -> !pld.dtensor<?x4xf32>
  return
}
