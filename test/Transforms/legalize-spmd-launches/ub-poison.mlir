// Upstream folds may emit `ub.poison` (the ub dialect is registered, so
// pld-opt's output always reads back in); neither orchestration codegen has
// a form for it, so --legalize-spmd-launches refuses it at the op.
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics

func.func @chip(%t: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'ub.poison' op is not supported in a CHIP orchestration body}}
  %0 = ub.poison : !pl.tensor<4xf32>
  return
}

// -----

func.func @host(%n: i64) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error @+1 {{'ub.poison' op is not supported in a HOST orchestrator}}
  %0 = ub.poison : i64
  return
}
