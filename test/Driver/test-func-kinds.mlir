// --pld-test-func-kinds remarks each function's kind and level, and rejects a
// HOST-level function that is not an orchestrator (failing the pass).
// RUN: pld-opt %s --pld-test-func-kinds --split-input-file --verify-diagnostics

// expected-remark@+1 {{'func.func' op @chip_pipeline: pl.func_kind "orchestration", pl.level "chip"}}
func.func @chip_pipeline() attributes {pl.func_kind = "orchestration"} { return }

// expected-remark@+1 {{'func.func' op @host_orch: pl.func_kind "orchestration", pl.level "host"}}
func.func @host_orch() attributes {pl.func_kind = "orchestration", pl.level = "host"} { return }

// An explicit chip level reads like the default.
// expected-remark@+1 {{'func.func' op @graph: pl.func_kind "graph", pl.level "chip"}}
func.func @graph() attributes {pl.func_kind = "graph", pl.level = "chip"} { return }

// expected-remark@+1 {{'func.func' op @stage_step: pl.func_kind "aiv", pl.level "chip"}}
func.func private @stage_step(!pl.tensor<4xf32> {pl.direction = "in"}) attributes {pl.func_kind = "aiv"}

// No pl.func_kind at all.
// expected-remark@+1 {{'func.func' op @plain: no pl.func_kind, pl.level "chip"}}
func.func @plain() { return }

// -----

// Only an orchestrator runs on the host; the other functions still get remarks.
// expected-error@+1 {{'func.func' op @host_kernel at pl.level "host" must have pl.func_kind "orchestration" (only an orchestrator runs on the host), got pl.func_kind "aiv"}}
func.func @host_kernel() attributes {pl.func_kind = "aiv", pl.level = "host"} { return }

// expected-remark@+1 {{'func.func' op @fine: pl.func_kind "incore", pl.level "chip"}}
func.func @fine() attributes {pl.func_kind = "incore"} { return }

// -----

// A HOST-level function without a kind is not an orchestrator either.
// expected-error@+1 {{'func.func' op @host_plain at pl.level "host" must have pl.func_kind "orchestration" (only an orchestrator runs on the host), got no pl.func_kind}}
func.func @host_plain() attributes {pl.level = "host"} { return }
