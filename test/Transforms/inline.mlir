// --inline inlines orchestration helpers (so a CHIP body that calls one
// becomes legal for the orchestration codegen) but never a kernel call: a
// kernel's body is a stub, its implementation is the kernel source.
// RUN: pld-opt %s --inline --pld-lower-collectives | FileCheck %s

// CHECK-LABEL: func.func @chip
// CHECK-NOT:   call @helper
// CHECK:       %[[A:.*]] = call @k(%arg0) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK-NEXT:  call @k(%[[A]]) {pl.arg_directions = ["inout"], pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK-NEXT:  return
func.func private @k(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"} {
  return %t : !pl.tensor<4xf32>
}
func.func private @helper(%t: !pl.tensor<4xf32>) -> !pl.tensor<4xf32> attributes {pl.func_kind = "orchestration"} {
  %a = func.call @k(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %b = func.call @k(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return %b : !pl.tensor<4xf32>
}
func.func @chip(%t: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = func.call @helper(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}
