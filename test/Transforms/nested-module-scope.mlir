// A builtin.module nested in a function body is a scope of its own: its
// functions' calls are not tasks or call sites of the enclosing function, and
// their callees are not the top-level symbols of the same name. Before the
// fix materialize-dist-tensor-ctx changed the top-level signatures and then
// failed with "internal error: missing caller context" (a half-rewritten
// module), and auto-derive-task-dependencies numbered the nested call as a
// task of @outer.
// RUN: pld-opt %s --materialize-dist-tensor-ctx --verify-each | FileCheck %s --check-prefix=CTX
// RUN: pld-opt %s --derive-call-directions --auto-derive-task-dependencies --verify-each | FileCheck %s --check-prefix=TASK
// The orchestration codegen has no form for a module inside a CHIP body, so
// the pipeline refuses it (at the module, in --legalize-spmd-launches) and
// leaves the input as it was.
// RUN: not pld-opt %s --pld-lower-collectives --verify-each -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: nested-module-scope.mlir:[[# @LINE + 16]]:3: error: 'builtin.module' op is not supported in a CHIP orchestration body

// CTX-LABEL: func.func @k(%arg0: !pld.dtensor<4xf32>, %arg1: !pld.comm_ctx {pl.direction = "in"})
// CTX-LABEL: func.func @outer
// CTX: builtin.module {
// CTX-NEXT: func.func @k(%{{.*}}: !pld.dtensor<4xf32>) attributes
// CTX: func.func @inner(%{{[^:]*}}: !pl.tensor<4xf32>, %[[E:[^:]*]]: !pld.dtensor<4xf32>) attributes
// CTX-NEXT: call @k(%[[E]]) : (!pld.dtensor<4xf32>) -> ()
// CTX: call @k(%arg0, %arg1) : (!pld.dtensor<4xf32>, !pld.comm_ctx) -> ()

// TASK-LABEL: func.func @outer
// TASK: func.func @inner
// TASK-NEXT: call @k(%{{.*}}) : (!pld.dtensor<4xf32>) -> ()
// TASK: call @k(%arg0) {pl.arg_directions = ["in"], pl.task_deps = [], pl.task_id = 0 : i64}
func.func @k(%a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "aiv"} { return }
func.func @outer(%d: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  builtin.module {
    func.func @k(%a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "aiv"} { return }
    func.func @inner(%x: !pl.tensor<4xf32>, %e: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
      func.call @k(%e) : (!pld.dtensor<4xf32>) -> ()
      return
    }
  }
  func.call @k(%d) : (!pld.dtensor<4xf32>) -> ()
  return
}
