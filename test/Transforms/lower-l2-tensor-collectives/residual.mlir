// The residual check (the pass's postcondition): a managed collective left
// in a non-HOST orchestration body after the rewrite is an error naming the
// function. Both collectives are rows of the variant table, so phase 1 plans
// (or reports) every one of them in a CHIP body and nothing is ever left for
// the residual check; InCore bodies are not this rail's.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives

// The indexed op in a CHIP body is no longer "not lowered": without
// pl.arch = "a5" it is reported by its own first failing row.
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %idx: !pld.dtensor<16xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op indexed_all_to_all_v needs pl.arch = "a5" (A5 URMA PER_PEER transport), got pl.arch = "a2a3" (the default when absent)}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %idx {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pld.dtensor<16xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// Not reported in an InCore body (an indexed op in a HOST orchestrator is
// refused by any pass that meets it: indexed-host-orchestrator.mlir).
func.func @incore(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                  %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %idx: !pld.dtensor<16xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "incore"} {
  %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %idx {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pld.dtensor<16xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// Every failing collective is reported, each with its own first failing row.
func.func @both(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %idx: !pld.dtensor<16xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{core_num must be in [1, 2147483647], got 0}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 0 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  // expected-error @+1 {{indexed_all_to_all_v needs pl.arch = "a5"}}
  %1 = pld.tensor.indexed_all_to_all_v %in, %0, %s, %c, %r, %idx {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pld.dtensor<16xi32> -> !pld.dtensor<16x4xf32>
  return %1 : !pld.dtensor<16x4xf32>
}
