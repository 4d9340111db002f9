// The Rust analyses (function map, contiguity verdicts, directions, alias
// classes: src/analysis/manager.rs) are built once and kept by MLIR's analysis
// manager across the pld passes that preserve them; `--mlir-timing` shows
// "(A) pld::RustAnalyses" under each pass that had to build them.
//
// The pipeline on a CHIP-only module without collectives: built once, by the
// first pass; every later pass either changed nothing (lower-composite-ops,
// lower-l2, legalize, lower-host: MLIR also skips their re-verification) or
// only attributes the analyses do not read (derive-call-directions,
// auto-derive-task-dependencies).
// RUN: pld-opt %s --pld-lower-collectives --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE:      LowerCompositeOps
// ONCE-NEXT:   (A) pld::RustAnalyses
// ONCE-NOT:  (A) pld::RustAnalyses
// ONCE:      MaterializeDistTensorCtx
//
// Any other pass that changes the IR drops them: canonicalize (which removes
// the dead constant) makes the next pld pass build them again.
// RUN: pld-opt %s --pass-pipeline='builtin.module(derive-call-directions,canonicalize,auto-derive-task-dependencies)' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=DROPPED
// DROPPED:      DeriveCallDirections
// DROPPED-NEXT:   (A) pld::RustAnalyses
// DROPPED:      Canonicalizer
// DROPPED:      AutoDeriveTaskDependencies
// DROPPED-NEXT:   (A) pld::RustAnalyses
//
// Kept or rebuilt, the result is the same: the pipeline in one run equals
// its passes run one process each.
// RUN: pld-opt %s --pld-lower-collectives -o %t.one
// RUN: pld-opt %s --lower-composite-ops | pld-opt --lower-l2-tensor-collectives | pld-opt --legalize-spmd-launches \
// RUN:   | pld-opt --derive-call-directions | pld-opt --auto-derive-task-dependencies \
// RUN:   | pld-opt --lower-host-tensor-collectives | pld-opt --materialize-dist-tensor-ctx -o %t.each
// RUN: diff %t.one %t.each

func.func private @k(%x: !pl.tensor<4xf32> {pl.direction = "inout"}, %y: !pl.tensor<4xf32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return
}
func.func @chip(%a: !pl.tensor<4xf32>, %b: !pl.tensor<4xf32>, %c: i1) attributes {pl.func_kind = "orchestration"} {
  %dead = arith.constant 0 : index
  func.call @k(%a, %b) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  scf.if %c {
    func.call @k(%b, %a) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  }
  func.call @k(%a, %b) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  return
}
