// A value passed to a cf successor is the same storage as the successor's
// block argument: a write through the block argument is a write of the
// parameter. Before the fix the block argument was an alias class of its
// own: @through_branch's and @cond_branch's %x were "in", @orch's %a "in",
// and @region_result's %x "in".
// RUN: pld-opt %s --derive-call-directions --verify-each | FileCheck %s

func.func @w(%x: !pl.tensor<4xf32> {pl.direction = "out"}) attributes {pl.func_kind = "aiv"} { return }
func.func @r(%x: !pl.tensor<4xf32> {pl.direction = "in"}) attributes {pl.func_kind = "aiv"} { return }

// CHECK-LABEL: func.func @through_branch
// CHECK-SAME: %arg0: !pl.tensor<4xf32> {pl.direction = "out"}
func.func @through_branch(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  cf.br ^a(%x : !pl.tensor<4xf32>)
^a(%y: !pl.tensor<4xf32>):
  func.call @w(%y) : (!pl.tensor<4xf32>) -> ()
  return
}

// Passing a value to cf.cond_br is not a read of it.
// CHECK-LABEL: func.func @cond_branch
// CHECK-SAME: %arg0: !pl.tensor<4xf32> {pl.direction = "out"}
func.func @cond_branch(%x: !pl.tensor<4xf32>, %c: i1) attributes {pl.func_kind = "aiv"} {
  cf.cond_br %c, ^a(%x : !pl.tensor<4xf32>), ^b
^a(%y: !pl.tensor<4xf32>):
  func.call @w(%y) : (!pl.tensor<4xf32>) -> ()
  cf.br ^b
^b:
  return
}

// Read and written (through ^a's argument): inout.
// CHECK-LABEL: func.func @orch
// CHECK-SAME: %arg0: !pl.tensor<4xf32> {pl.direction = "inout"}
// CHECK: call @through_branch(%arg0) {pl.arg_directions = ["out"]}
func.func @orch(%a: !pl.tensor<4xf32>, %c: i1) attributes {pl.func_kind = "orchestration"} {
  cf.br ^a(%a : !pl.tensor<4xf32>)
^a(%y: !pl.tensor<4xf32>):
  func.call @w(%y) : (!pl.tensor<4xf32>) -> ()
  func.call @r(%a) : (!pl.tensor<4xf32>) -> ()
  cf.cond_br %c, ^a(%y : !pl.tensor<4xf32>), ^b
^b:
  func.call @through_branch(%a) : (!pl.tensor<4xf32>) -> ()
  return
}

// A region-holding op the trace does not know (scf.execute_region): its
// result is what its region yields.
// CHECK-LABEL: func.func @region_result
// CHECK-SAME: %arg0: !pl.tensor<4xf32> {pl.direction = "out"}
func.func @region_result(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  %r = scf.execute_region -> !pl.tensor<4xf32> {
    scf.yield %x : !pl.tensor<4xf32>
  }
  func.call @w(%r) : (!pl.tensor<4xf32>) -> ()
  return
}
