// --auto-derive-task-dependencies under a loop nested in a loop: a
// loop-carried edge of the inner loop is not implied by one of the outer
// loop (the latest run of the outer loop's task is from its previous
// iteration, before every run of the inner loop in this one), and an
// scf.while leaves through its before region.
// RUN: pld-opt %s --pld-lower-collectives | FileCheck %s
// RUN: pld-opt %s --derive-call-directions --auto-derive-task-dependencies | FileCheck %s

func.func private @k_io(%p0: !pl.tensor<4xf32> {pl.direction = "inout"}) attributes {pl.func_kind = "aiv", pl.kernel_source = "k/add_one.cpp"} {
  return
}

// The reviewer's program: in iteration j > 0 task 0 follows the previous j's
// task 1; task 2's latest run (previous i) came before it.
// CHECK-LABEL: func.func @for_in_for
// CHECK: call @k_io({{.*}}pl.task_deps = [1, 2], pl.task_id = 0 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [1], pl.task_id = 2 : i64}
func.func @for_in_for(%a0: !pl.tensor<4xf32>, %n: index, %m: index) attributes {pl.func_kind = "orchestration"} {
  %z = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.for %i = %z to %n step %one {
    scf.for %j = %z to %m step %one {
      func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
      func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
    }
    func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
  }
  return
}

// An scf.while in the scf.for: task 0 (before region) follows task 1 (after
// region, previous while iteration) and task 2 (previous for iteration);
// task 2 follows task 0 (the while leaves through its before region).
// CHECK-LABEL: func.func @while_in_for
// CHECK: call @k_io({{.*}}pl.task_deps = [1, 2], pl.task_id = 0 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [0], pl.task_id = 2 : i64}
func.func @while_in_for(%a0: !pl.tensor<4xf32>, %c: i1, %n: index) attributes {pl.func_kind = "orchestration"} {
  %z = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.for %i = %z to %n step %one {
    scf.while : () -> () {
      func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
      scf.condition(%c)
    } do {
      func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
      scf.yield
    }
    func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
  }
  return
}

// An scf.if in the inner loop (the arm not taken is a skipped task, ordered
// in place): the then arm follows the previous j's else arm (task 1) and
// the previous i's task 2; the else arm follows this j's then arm (its edge
// to task 2 is redundant, but kept: an earlier and a loop-carried candidate
// are never reduced against each other).
// CHECK-LABEL: func.func @if_in_for_in_for
// CHECK: call @k_io({{.*}}pl.task_deps = [1, 2], pl.task_id = 0 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [0, 2], pl.task_id = 1 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [1], pl.task_id = 2 : i64}
func.func @if_in_for_in_for(%a0: !pl.tensor<4xf32>, %c: i1, %n: index, %m: index) attributes {pl.func_kind = "orchestration"} {
  %z = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.for %i = %z to %n step %one {
    scf.for %j = %z to %m step %one {
      scf.if %c {
        func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
      } else {
        func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
      }
    }
    func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
  }
  return
}

// Three levels: task 0 follows task 1 (previous k), task 2 (previous j) and
// task 3 (previous i), each carried by a different loop.
// CHECK-LABEL: func.func @three_levels
// CHECK: call @k_io({{.*}}pl.task_deps = [1, 2, 3], pl.task_id = 0 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [1], pl.task_id = 2 : i64}
// CHECK: call @k_io({{.*}}pl.task_deps = [2], pl.task_id = 3 : i64}
func.func @three_levels(%a0: !pl.tensor<4xf32>, %n: index) attributes {pl.func_kind = "orchestration"} {
  %z = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.for %i = %z to %n step %one {
    scf.for %j = %z to %n step %one {
      scf.for %k = %z to %n step %one {
        func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
        func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
      }
      func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
    }
    func.call @k_io(%a0) : (!pl.tensor<4xf32>) -> ()
  }
  return
}
