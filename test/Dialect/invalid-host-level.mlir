// pl.level = "host" belongs to an orchestration function only (a HOST
// orchestrator): the passes lower a HOST-level function only as one and
// pld-translate renders it only as one, so the pl dialect's verifier refuses
// any other kind there (a graph at host level was skipped by pld-opt and then
// refused by pld-translate).
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{'func.func' op attribute 'pl.level' = "host" needs pl.func_kind = "orchestration" (only an orchestrator runs on the host), got pl.func_kind "graph"}}
func.func @g(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.func_kind = "graph", pl.level = "host"} {
  %x = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<8x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

// expected-error@+1 {{'func.func' op attribute 'pl.level' = "host" needs pl.func_kind = "orchestration" (only an orchestrator runs on the host), got pl.func_kind "aiv"}}
func.func @host_kernel() attributes {pl.func_kind = "aiv", pl.level = "host"} { return }

// -----

// A HOST-level function without a kind is not an orchestrator either.
// expected-error@+1 {{'func.func' op attribute 'pl.level' = "host" needs pl.func_kind = "orchestration" (only an orchestrator runs on the host), got no pl.func_kind}}
func.func @host_plain() attributes {pl.level = "host"} { return }

// -----

// A HOST orchestrator, and an explicit chip level on any kind, are fine.
func.func @host_orch() attributes {pl.func_kind = "orchestration", pl.level = "host"} { return }
func.func @chip_graph() attributes {pl.func_kind = "graph", pl.level = "chip"} { return }
func.func @chip_kernel() attributes {pl.func_kind = "aiv", pl.level = "chip"} { return }
