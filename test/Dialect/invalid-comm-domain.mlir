// Verifier rules of pld.comm_domain and of the domain operands.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error@+1 {{'pld.comm_domain' op ranks must be at least 1, got 0}}
  %d = pld.comm_domain {ranks = 0 : i64} : !pld.comm_domain
  return
}

// -----

// A negative count is refused too (not read as a huge unsigned one).
func.func @negative_ranks() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error@+1 {{'pld.comm_domain' op ranks must be at least 1, got -1}}
  %d = pld.comm_domain {ranks = -1 : i64} : !pld.comm_domain
  return
}

// -----

func.func @f() attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.comm_domain' op is only valid in a HOST orchestrator}}
  %d = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  return
}

// -----

func.func @f() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error@+1 {{'pld.comm_domain' op requires attribute 'ranks'}}
  %d = "pld.comm_domain"() : () -> !pld.comm_domain
  return
}

// -----

func.func @f(%d: !pld.comm_domain) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error@+1 {{'pld.window_buffer' op domain operand must be the result of a 'pld.comm_domain' of the same HOST orchestrator}}
  %b = pld.window_buffer in %d {bytes = 64 : i64} : !pld.window_buffer
  return
}

// -----

func.func @f(%d: !pld.comm_domain, %dev: index) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error@+1 {{'pld.host.device_ctx' op domain operand must be the result of a 'pld.comm_domain' of the same HOST orchestrator}}
  %c = pld.host.device_ctx %dev in %d : index
  return
}

// -----

func.func @f(%t: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error@+1 {{'pld.window_buffer' op operand #0 must be}}
  %b = "pld.window_buffer"(%t) {bytes = 64 : i64} : (!pl.tensor<4xf32>) -> !pld.window_buffer
  return
}

// -----

// expected-error@+1 {{'!pld.comm_domain' takes no parameters}}
func.func @f(%d: !pld.comm_domain<4>) {
  return
}
