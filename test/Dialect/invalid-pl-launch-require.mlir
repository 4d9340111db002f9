// pl.launch / pl.require verifiers: each message names the rule.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func private @k(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"}
func.func @two_calls(%t: !pl.tensor<4xf32>, %b: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.launch' op region holds more than one 'func.call'; a launch runs exactly one kernel call}}
  pl.launch %b {
    %a = func.call @k(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    %c = func.call @k(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    pl.yield
  }
  return
}

// -----

func.func @no_call(%b: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.launch' op region holds no 'func.call' to launch}}
  pl.launch %b {
    pl.yield
  }
  return
}

// -----

func.func private @k(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"}
func.func @other_op(%t: !pl.tensor<4xf32>, %b: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.launch' op region may hold only one 'func.call' and 'pl.cast' ops, got 'arith.addi'}}
  pl.launch %b {
    %x = arith.addi %b, %b : i64
    %a = func.call @k(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    pl.yield
  }
  return
}

// -----

func.func private @k(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"}
func.func @spec_inside(%t: !pl.tensor<4xf32>, %b: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.launch' op the launched 'func.call' may not carry pl.core_num or pl.sync_start: the launch gives its width}}
  pl.launch %b {
    %a = func.call @k(%t) {pl.core_num = 2 : i64, pl.sync_start} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    pl.yield
  }
  return
}

// -----

func.func private @k(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"}
func.func @yield_types(%t: !pl.tensor<4xf32>, %b: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.launch' op 'pl.yield' types '!pl.tensor<4xf32>' differ from the result types '!pl.tensor<*xf32>'}}
  %r = pl.launch %b -> !pl.tensor<*xf32> {
    %a = func.call @k(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    pl.yield %a : !pl.tensor<4xf32>
  }
  return
}

// -----

func.func private @k(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"}
func.func @in_kernel(%t: !pl.tensor<4xf32>, %b: i64) attributes {pl.func_kind = "aiv"} {
  // expected-error @+1 {{'pl.launch' op is only valid in a CHIP orchestration body (pl.func_kind = "orchestration" or "graph", pl.level = "chip")}}
  pl.launch %b {
    %a = func.call @k(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    pl.yield
  }
  return
}

// -----

func.func @host_require(%ok: i1) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error @+1 {{'pl.require' op is only valid in a CHIP orchestration body}}
  pl.require %ok else error 5, "m"
  return
}

// -----

func.func @code_zero(%ok: i1) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.require' op attribute 'code' must be in [1, 2147483647] (a nonzero C++ int error code), got 0}}
  pl.require %ok else error 0, "m"
  return
}

// -----

func.func @yield_outside(%ok: i1) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.yield' op expects parent op 'pl.launch'}}
  pl.yield
}

// -----

// The runtime's error code is a C++ int: 2^32 would wrap to 0 (success).
func.func @code_too_big(%ok: i1) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.require' op attribute 'code' must be in [1, 2147483647] (a nonzero C++ int error code), got 4294967296}}
  pl.require %ok else error 4294967296, "m"
  return
}

// -----

func.func @code_negative(%ok: i1) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.require' op attribute 'code' must be in [1, 2147483647] (a nonzero C++ int error code), got -1}}
  "pl.require"(%ok) {code = -1 : i64, message = "m"} : (i1) -> ()
  return
}

// -----

// The largest code is valid.
func.func @code_max(%ok: i1) attributes {pl.func_kind = "orchestration"} {
  pl.require %ok else error 2147483647, "m"
  return
}

// -----

func.func @host_code_too_big(%ok: i1) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error @+1 {{'pld.host.require' op attribute 'error_code' must be in [1, 2147483647] (a nonzero C++ int error code), got 2147483648}}
  pld.host.require %ok else error 2147483648, "m"
  return
}

// -----

// 0 is the host entry's success status: a failed check latching 0 would succeed.
func.func @host_code_zero(%ok: i1) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error @+1 {{'pld.host.require' op attribute 'error_code' must be in [1, 2147483647] (a nonzero C++ int error code), got 0}}
  pld.host.require %ok else error 0, "m"
  return
}

// -----

func.func @host_code_max(%ok: i1) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  pld.host.require %ok else error 2147483647, "m"
  return
}

// -----

// The region uses the enclosing body's values: it binds no block arguments.
func.func private @k(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"}
func.func @block_arguments(%a: !pl.tensor<4xf32>, %n: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.launch' op region must have no block arguments (it uses the enclosing body's values), got 1}}
  %r = "pl.launch"(%n) ({
  ^bb0(%x: i64):
    %c = func.call @k(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    pl.yield %c : !pl.tensor<4xf32>
  }) : (i64) -> (!pl.tensor<4xf32>)
  return
}

// -----

// One name per seen value.
func.func @seen_unnamed(%ok: i1, %l: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.require' op attribute 'value_names' must name each of the 1 seen values, got 0 names}}
  pl.require %ok else error 5, "m" seen(%l : i64)
  return
}

// -----

func.func @host_names_without_values(%ok: i1) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error @+1 {{'pld.host.require' op attribute 'value_names' must name each of the 0 seen values, got 1 names}}
  pld.host.require %ok else error 5, "m" {value_names = ["L"]}
  return
}

// -----

func.func @seen_empty_name(%ok: i1, %l: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.require' op attribute 'value_names' entries must not be empty}}
  pl.require %ok else error 5, "m" seen(%l : i64) {value_names = [""]}
  return
}
