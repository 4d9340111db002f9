// --auto-derive-task-dependencies over control flow: what any path may have
// left outstanding stays outstanding. Before the fix the branches of an
// scf.if were visited as if both ran in sequence (so a write in the then
// branch hid the writer before the if from a reader after it), a loop was
// assumed to run at least once, and cf blocks were visited once in textual
// order with their block arguments not aliasing what was passed to them.
// Each pl.task_deps lists only direct predecessors (issue #16): an edge that
// another listed predecessor implies is left out, so what a path may have
// left outstanding is often reached through another task.
// RUN: pld-opt %s --auto-derive-task-dependencies --verify-each | FileCheck %s

func.func @r(%x: !pl.tensor<4xf32> {pl.direction = "in"}) attributes {pl.func_kind = "aiv"} { return }
func.func @w(%x: !pl.tensor<4xf32> {pl.direction = "out"}) attributes {pl.func_kind = "aiv"} { return }

// When the else branch runs, task 3 reads what task 0 wrote. Task 3 lists
// only task 1: its edge to 0 is implied (1 waits for 0; a skipped task
// completes when its dependencies have).
// CHECK-LABEL: func.func @branches
// CHECK: call @w(%arg0) {pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @w(%arg0) {pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @r(%arg1) {pl.task_deps = [], pl.task_id = 2 : i64}
// CHECK: call @r(%arg0) {pl.task_deps = [1], pl.task_id = 3 : i64}
func.func @branches(%a: !pl.tensor<4xf32>, %b: !pl.tensor<4xf32>, %c: i1) attributes {pl.func_kind = "orchestration"} {
  func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
  scf.if %c {
    func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
  } else {
    func.call @r(%b) : (!pl.tensor<4xf32>) -> ()
  }
  func.call @r(%a) : (!pl.tensor<4xf32>) -> ()
  return
}

// A loop may run zero times: task 2 may read what task 0 wrote (implied
// through task 1, which waits for 0).
// CHECK-LABEL: func.func @zero_trip
// CHECK: call @w(%arg0) {pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @w(%arg0) {pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @r(%arg0) {pl.task_deps = [1], pl.task_id = 2 : i64}
func.func @zero_trip(%a: !pl.tensor<4xf32>, %n: index) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
  }
  func.call @r(%a) : (!pl.tensor<4xf32>) -> ()
  return
}

// A cf loop: ^bb1 writes %a through its block argument, reads it, and may
// branch back; the next iteration's write waits for this iteration's read
// (the analysis is path-insensitive over cf blocks: the edges naming task 2
// are conservative). The conservative relation here was 0 -> {1, 2},
// 1 -> {0, 2}, 2 -> {0, 1}: every task reaches every other. The minimal
// edges keep that closure as one cycle, each other edge implied by it
// (0 -> 1 through 0 -> 2 -> 1, 1 -> 2 through 1 -> 0 -> 2, 2 -> 0 through
// 2 -> 1 -> 0).
// CHECK-LABEL: func.func @cf_loop
// CHECK: call @w(%{{.*}}) {pl.task_deps = [2], pl.task_id = 0 : i64}
// CHECK: call @r(%arg0) {pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @w(%arg0) {pl.task_deps = [1], pl.task_id = 2 : i64}
func.func @cf_loop(%a: !pl.tensor<4xf32>, %c: i1) attributes {pl.func_kind = "orchestration"} {
  cf.br ^bb1(%a : !pl.tensor<4xf32>)
^bb1(%y: !pl.tensor<4xf32>):
  func.call @w(%y) : (!pl.tensor<4xf32>) -> ()
  func.call @r(%a) : (!pl.tensor<4xf32>) -> ()
  cf.cond_br %c, ^bb1(%y : !pl.tensor<4xf32>), ^bb2
^bb2:
  func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
  return
}

// Guarded tasks form a chain, not a clique: each may wait for every earlier
// one (any of them may have been skipped), and through its predecessor it
// does.
// CHECK-LABEL: func.func @guarded_chain
// CHECK: call @rw(%arg0) {pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @rw(%arg0) {pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @rw(%arg0) {pl.task_deps = [1], pl.task_id = 2 : i64}
// CHECK: call @rw(%arg0) {pl.task_deps = [2], pl.task_id = 3 : i64}
func.func @rw(%x: !pl.tensor<4xf32> {pl.direction = "inout"}) attributes {pl.func_kind = "aiv"} { return }
func.func @guarded_chain(%a: !pl.tensor<4xf32>, %c: i1) attributes {pl.func_kind = "orchestration"} {
  scf.if %c {
    func.call @rw(%a) : (!pl.tensor<4xf32>) -> ()
  }
  scf.if %c {
    func.call @rw(%a) : (!pl.tensor<4xf32>) -> ()
  }
  scf.if %c {
    func.call @rw(%a) : (!pl.tensor<4xf32>) -> ()
  }
  scf.if %c {
    func.call @rw(%a) : (!pl.tensor<4xf32>) -> ()
  }
  return
}

// Guarded readers, then a writer: it waits for both readers (each may not
// have run: then the reader's own edge to task 0 stands for it).
// CHECK-LABEL: func.func @guarded_readers
// CHECK: call @w(%arg0) {pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @r(%arg0) {pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @r(%arg0) {pl.task_deps = [0], pl.task_id = 2 : i64}
// CHECK: call @w(%arg0) {pl.task_deps = [1, 2], pl.task_id = 3 : i64}
func.func @guarded_readers(%a: !pl.tensor<4xf32>, %c: i1) attributes {pl.func_kind = "orchestration"} {
  func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
  scf.if %c {
    func.call @r(%a) : (!pl.tensor<4xf32>) -> ()
  }
  scf.if %c {
    func.call @r(%a) : (!pl.tensor<4xf32>) -> ()
  }
  func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
  return
}

// A loop nest: the inner reader waits for the outer writer; the writer, for
// the reader of the previous iteration (a later id) and -- before the first
// iteration -- for task 0, which that reader does not imply (0 reaches it
// only through the writer itself).
// CHECK-LABEL: func.func @loop_nest
// CHECK: call @w(%arg0) {pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @w(%arg0) {pl.task_deps = [0, 2], pl.task_id = 1 : i64}
// CHECK: call @r(%arg0) {pl.task_deps = [1], pl.task_id = 2 : i64}
// CHECK: call @r(%arg0) {pl.task_deps = [1], pl.task_id = 3 : i64}
func.func @loop_nest(%a: !pl.tensor<4xf32>, %n: index) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
  scf.for %i = %c0 to %n step %c1 {
    func.call @w(%a) : (!pl.tensor<4xf32>) -> ()
    scf.for %j = %c0 to %n step %c1 {
      func.call @r(%a) : (!pl.tensor<4xf32>) -> ()
    }
  }
  func.call @r(%a) : (!pl.tensor<4xf32>) -> ()
  return
}
