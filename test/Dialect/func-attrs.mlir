// Every pl.* attribute of the IR contract parses, verifies and round-trips.
// RUN: pld-opt %s | pld-opt | FileCheck %s

// CHECK-LABEL: func.func private @stage_step
// CHECK-SAME: {pl.direction = "in"}
// CHECK-SAME: {pl.direction = "out"}
// CHECK-SAME: {pl.direction = "inout"}
// CHECK-SAME: attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"}
func.func private @stage_step(!pl.tensor<16x4xf32> {pl.direction = "in"},
                              !pld.dtensor<16x4xf32> {pl.direction = "out"},
                              !pld.dtensor<2xi32> {pl.direction = "inout"}) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"}

// CHECK-LABEL: func.func private @builtin
// CHECK-SAME: pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v"
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=float"
// CHECK-SAME: pl.func_kind = "aic"
// CHECK-SAME: pl.require_contiguous_operands
func.func private @builtin(!pl.tensor<*xf32>)
    attributes {pl.func_kind = "aic", pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v",
                pl.builtin_template_vars = "dtype_cpp=float", pl.require_contiguous_operands}

// Every function kind and both levels.
// CHECK-LABEL: func.func @kinds_orchestration() attributes {pl.func_kind = "orchestration"}
// CHECK-LABEL: func.func @kinds_host() attributes {pl.func_kind = "orchestration", pl.level = "host"}
// CHECK-LABEL: func.func @kinds_graph() attributes {pl.func_kind = "graph", pl.level = "chip"}
// CHECK-LABEL: func.func @kinds_incore() attributes {pl.func_kind = "incore"}
// CHECK-LABEL: func.func @kinds_opaque() attributes {pl.func_kind = "opaque"}
func.func @kinds_orchestration() attributes {pl.func_kind = "orchestration"} { return }
func.func @kinds_host() attributes {pl.func_kind = "orchestration", pl.level = "host"} { return }
func.func @kinds_graph() attributes {pl.func_kind = "graph", pl.level = "chip"} { return }
func.func @kinds_incore() attributes {pl.func_kind = "incore"} { return }
func.func @kinds_opaque() attributes {pl.func_kind = "opaque"} { return }

// Call-site attributes: launch spec, task ids and dependencies, directions.
// CHECK-LABEL: func.func @calls
// CHECK: call @stage_step({{.*}}) {pl.arg_directions = ["in", "out", "inout"], pl.core_num = 8 : i64, pl.sync_start, pl.task_deps = [0, 1], pl.task_id = 2 : i64}
func.func @calls(%a: !pl.tensor<16x4xf32>, %b: !pld.dtensor<16x4xf32>, %c: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = func.call @stage_step(%a, %b, %c) {pl.core_num = 8 : i64, pl.sync_start, pl.task_id = 2 : i64,
                                         pl.task_deps = [0, 1], pl.arg_directions = ["in", "out", "inout"]}
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}
