// The pl dialect verifies every pl.* attribute; errors name the attribute.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// An unknown function kind.
// expected-error@+1 {{'func.func' op attribute 'pl.func_kind' must be one of "orchestration", "graph", "incore", "aic", "aiv", "opaque", got "kernel"}}
func.func @f() attributes {pl.func_kind = "kernel"} { return }

// -----

// A function kind that is not a string.
// expected-error@+1 {{'func.func' op attribute 'pl.func_kind' must be one of "orchestration", "graph", "incore", "aic", "aiv", "opaque", got 1 : i64}}
func.func @f() attributes {pl.func_kind = 1} { return }

// -----

// An unknown level.
// expected-error@+1 {{'func.func' op attribute 'pl.level' must be one of "chip", "host", got "device"}}
func.func @f() attributes {pl.func_kind = "orchestration", pl.level = "device"} { return }

// -----

// An unknown parameter direction.
// expected-error@+1 {{'func.func' op attribute 'pl.direction' must be one of "in", "out", "inout", got "output"}}
func.func private @f(!pl.tensor<4xf32> {pl.direction = "output"})

// -----

// pl.direction is an argument attribute, not a function attribute.
// expected-error@+1 {{'func.func' op attribute 'pl.direction' is an argument attribute, not an operation attribute}}
func.func @f() attributes {pl.direction = "in"} { return }

// -----

// No pl.* attribute is defined on results.
// expected-error@+1 {{'func.func' op unknown result attribute 'pl.direction' of the pl dialect (result 0)}}
func.func private @f() -> (!pl.tensor<4xf32> {pl.direction = "out"})

// -----

// An unknown pl.* function attribute.
// expected-error@+1 {{'func.func' op unknown attribute 'pl.kind' of the pl dialect}}
func.func @f() attributes {pl.kind = "aiv"} { return }

// -----

// An unknown pl.* argument attribute.
// expected-error@+1 {{'func.func' op unknown argument attribute 'pl.dir' of the pl dialect (argument 1)}}
func.func private @f(!pl.tensor<4xf32>, !pl.tensor<4xf32> {pl.dir = "in"})

// -----

// Function attributes live on functions.
func.func @f() {
  // expected-error@+1 {{'arith.constant' op attribute 'pl.func_kind' is only valid on a function}}
  %0 = arith.constant {pl.func_kind = "aiv"} 0 : i64
  return
}

// -----

// pl.kernel_source is a string.
// expected-error@+1 {{'func.func' op attribute 'pl.kernel_source' must be a string, got 3 : i64}}
func.func private @f() attributes {pl.func_kind = "aiv", pl.kernel_source = 3}

// -----

// pl.builtin_template_dir is a string.
// expected-error@+1 {{'func.func' op attribute 'pl.builtin_template_dir' must be a string, got unit}}
func.func private @f() attributes {pl.builtin_template_dir}

// -----

// pl.builtin_template_vars is a string.
// expected-error@+1 {{'func.func' op attribute 'pl.builtin_template_vars' must be a string, got ["dtype_cpp=float"]}}
func.func private @f() attributes {pl.builtin_template_vars = ["dtype_cpp=float"]}

// -----

// pl.require_contiguous_operands is a unit attribute.
// expected-error@+1 {{'func.func' op attribute 'pl.require_contiguous_operands' must be a unit attribute, got true}}
func.func private @f() attributes {pl.require_contiguous_operands = true}

// -----

func.func private @k()

// pl.core_num is an i64 >= 1.
func.func @f() {
  // expected-error@+1 {{'func.call' op attribute 'pl.core_num' must be an i64 >= 1, got 0 : i64}}
  func.call @k() {pl.core_num = 0 : i64} : () -> ()
  return
}

// -----

func.func private @k()

// pl.core_num is an i64, not an i32.
func.func @f() {
  // expected-error@+1 {{'func.call' op attribute 'pl.core_num' must be an i64 >= 1, got 4 : i32}}
  func.call @k() {pl.core_num = 4 : i32} : () -> ()
  return
}

// -----

func.func private @k()

// pl.sync_start is a unit attribute.
func.func @f() {
  // expected-error@+1 {{'func.call' op attribute 'pl.sync_start' must be a unit attribute, got "yes"}}
  func.call @k() {pl.sync_start = "yes"} : () -> ()
  return
}

// -----

func.func private @k()

// pl.task_id is an i64 >= 0.
func.func @f() {
  // expected-error@+1 {{'func.call' op attribute 'pl.task_id' must be an i64 >= 0, got -1 : i64}}
  func.call @k() {pl.task_id = -1 : i64} : () -> ()
  return
}

// -----

func.func private @k()

// pl.task_deps is an array of i64 task ids.
func.func @f() {
  // expected-error@+1 {{'func.call' op attribute 'pl.task_deps' must be an array of i64 task ids, got [0, "one"]}}
  func.call @k() {pl.task_deps = [0, "one"]} : () -> ()
  return
}

// -----

func.func private @k()

// pl.arg_directions holds direction strings.
func.func @f() {
  // expected-error@+1 {{'func.call' op attribute 'pl.arg_directions' must be an array of "in" / "out" / "inout" strings, got ["in", "sideways"]}}
  func.call @k() {pl.arg_directions = ["in", "sideways"]} : () -> ()
  return
}

// -----

func.func private @k2(!pl.tensor<4xf32>, !pl.tensor<4xf32>)

// pl.arg_directions has one entry per argument the call passes.
func.func @f(%a: !pl.tensor<4xf32>) {
  // expected-error@+1 {{'func.call' op attribute 'pl.arg_directions' must have one entry per argument (2), got 1}}
  func.call @k2(%a, %a) {pl.arg_directions = ["in"]} : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  return
}

// -----

// pl.arch: only "a2a3" or "a5".
// expected-error@+1 {{'builtin.module' op attribute 'pl.arch' must be one of "a2a3", "a5", got "a6"}}
module attributes {pl.arch = "a6"} {
}

// -----

// pl.arch: only on a builtin.module.
// expected-error@+1 {{'func.func' op attribute 'pl.arch' is only valid on a builtin.module}}
func.func @f() attributes {pl.arch = "a5"} {
  return
}

// -----

// pl.arch: a string.
// expected-error@+1 {{'builtin.module' op attribute 'pl.arch' must be one of "a2a3", "a5", got 5 : i64}}
module attributes {pl.arch = 5 : i64} {
}
