// --pld-test-func-kinds remarks each function's kind and level, and rejects an
// orchestration function without a body (failing the pass).
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

// An orchestration function needs a body; the other functions still get remarks.
// expected-error@+1 {{'func.func' op @declared: an orchestration function needs a body (a declaration has no tasks to run), pl.level "host"}}
func.func private @declared() attributes {pl.func_kind = "orchestration", pl.level = "host"}

// expected-remark@+1 {{'func.func' op @fine: pl.func_kind "incore", pl.level "chip"}}
func.func @fine() attributes {pl.func_kind = "incore"} { return }
