// Non-UTF-8 and empty symbol names are valid MLIR: every pass reads them
// through a checked accessor (melior's panicked: Utf8Error, index out of
// bounds), one that is not UTF-8 never stands for another function, and a
// task whose callee the orchestration codegen could not name is a located
// error.
// RUN: pld-opt %s --split-input-file --derive-call-directions --auto-derive-task-dependencies --materialize-dist-tensor-ctx | FileCheck %s
// RUN: not pld-opt %s --split-input-file --pld-lower-collectives 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: pld-opt %s --split-input-file --pld-test-func-kinds -o /dev/null 2>&1 | FileCheck %s --check-prefix=KINDS

// CHECK: func.func private @"\FF"(!pl.tensor<4xf32> {pl.direction = "inout"}) attributes {pl.func_kind = "aiv"}
// CHECK: func.func @"\FE"(%{{.*}}: !pl.tensor<4xf32> {pl.direction = "inout"}) attributes {pl.func_kind = "orchestration"}
// CHECK-NEXT: call @"\FF"(%{{.*}}) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64}
// PIPE: odd-symbols.mlir:[[# @LINE + 3]]:3: error: 'func.call' op callee symbol must be valid UTF-8 for the orchestration codegen to name it
func.func private @"\ff"(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) attributes {pl.func_kind = "aiv"}
func.func @"\fe"(%t: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  func.call @"\ff"(%t) : (!pl.tensor<4xf32>) -> ()
  return
}

// -----

// KINDS: remark: 'func.func' op @: pl.func_kind "aiv", pl.level "chip"
func.func private @""() attributes {pl.func_kind = "aiv"}
