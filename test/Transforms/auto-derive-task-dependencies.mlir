// --auto-derive-task-dependencies numbers the tasks of every orchestration
// body and derives RAW / WAR / WAW edges over alias classes.
// RUN: pld-opt %s --lower-l2-tensor-collectives --derive-call-directions --auto-derive-task-dependencies --verify-each | FileCheck %s
// Directions are derived when pl.arg_directions is absent; a second run is a no-op.
// RUN: pld-opt %s --lower-l2-tensor-collectives --auto-derive-task-dependencies --auto-derive-task-dependencies | FileCheck %s

func.func @stage_step(%inp: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>, %counts: !pld.dtensor<2xi32>)
    -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) attributes {pl.func_kind = "aiv"} {
  return %stage, %counts : !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>
}
func.func @consume_step(%data: !pld.dtensor<16x4xf32>, %recv: !pld.dtensor<2xi32>, %out: !pl.tensor<16x4xf32>)
    -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "aiv"} {
  return %out : !pl.tensor<16x4xf32>
}

// The seed: stage -> collective -> consume. The synthesized kernel is a task
// like any user kernel, ordered after stage (RAW on stage and counts, reached
// through the call results and pl.cast) and before consume (RAW on target,
// reached through the call result and the cast back).
// CHECK-LABEL: func.func @chip_pipeline
// CHECK: call @stage_step({{.*}}pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @consume_step({{.*}}pl.task_deps = [1], pl.task_id = 2 : i64}
func.func @chip_pipeline(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>,
                         %data: !pld.dtensor<16x4xf32>, %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                         %recv: !pld.dtensor<2xi32>) -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "orchestration"} {
  %s, %c = func.call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %d = pld.tensor.all_to_all_v %s, %data, %signal, %c, %recv {core_num = 4 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %r = func.call @consume_step(%d, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %r : !pl.tensor<16x4xf32>
}

func.func @read(%x: !pl.tensor<4xf32> {pl.direction = "in"}) attributes {pl.func_kind = "aiv"} {
  return
}
func.func @write(%x: !pl.tensor<4xf32> {pl.direction = "out"}) attributes {pl.func_kind = "aiv"} {
  return
}
func.func @update(%x: !pl.tensor<4xf32> {pl.direction = "inout"}, %y: !pl.tensor<4xf32> {pl.direction = "in"}) attributes {pl.func_kind = "aiv"} {
  return
}

// WAW (2 on 0), WAR (2 on 1), RAW through a view (3 on 2), independent
// tensors (4), pl.submit tasks, and a task reading and writing two classes.
// Only direct predecessors are listed: 2's WAW edge to 0 is implied by its
// WAR edge to 1 (1 read what 0 wrote), and 5's edge to the writer 2 by its
// edge to 3 (3 read what 2 wrote).
// CHECK-LABEL: func.func @hazards
// CHECK: call @write({{.*}}pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @read({{.*}}pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @write({{.*}}pl.task_deps = [1], pl.task_id = 2 : i64}
// CHECK: pl.submit @read({{.*}}pl.task_deps = [2], pl.task_id = 3 : i64}
// CHECK: call @write({{.*}}pl.task_deps = [], pl.task_id = 4 : i64}
// CHECK: call @update({{.*}}pl.task_deps = [3, 4], pl.task_id = 5 : i64}
func.func @hazards(%a: !pl.tensor<4xf32>, %b: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  func.call @write(%a) : (!pl.tensor<4xf32>) -> ()
  func.call @read(%a) : (!pl.tensor<4xf32>) -> ()
  func.call @write(%a) : (!pl.tensor<4xf32>) -> ()
  %v = pl.tensor.reshape %a : !pl.tensor<4xf32> -> !pl.tensor<4xf32>
  pl.submit @read(%v) : (!pl.tensor<4xf32>) -> ()
  func.call @write(%b) : (!pl.tensor<4xf32>) -> ()
  func.call @update(%a, %b) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  return
}

// A loop body is visited twice: the reader depends on the previous
// iteration's writer (a loop-carried edge to a later id).
// CHECK-LABEL: func.func @loop
// CHECK: call @read({{.*}}pl.task_deps = [1], pl.task_id = 0 : i64}
// CHECK: call @write({{.*}}pl.task_deps = [0], pl.task_id = 1 : i64}
func.func @loop(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "graph"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @read(%a) : (!pl.tensor<4xf32>) -> ()
    func.call @write(%a) : (!pl.tensor<4xf32>) -> ()
  }
  return
}

// Kernels are not orchestration bodies: no task attributes.
// CHECK-LABEL: func.func @kernel_body
// CHECK-NOT: pl.task_id
// CHECK: return
func.func @kernel_body(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  func.call @read(%a) : (!pl.tensor<4xf32>) -> ()
  return
}

// A result pl.submit leaves to the runtime (runtime_alloc_outs) is written by
// the submit: a reader of it (RAW, 1 on 0; through a view too), and a later
// writer of it (WAW with the WAR on 1 implying it, 2 on 1), are ordered after
// it. The kernel has two results; the runtime allocates result #1, its
// trailing parameter #2.
// CHECK-LABEL: func.func @runtime_allocated
// CHECK: pl.submit @produce({{.*}}pl.task_deps = [], pl.task_id = 0 : i64
// CHECK: call @read({{.*}}pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @write({{.*}}pl.task_deps = [1], pl.task_id = 2 : i64}
func.func private @produce(%a: !pl.tensor<4xf32> {pl.direction = "in"}, %b: !pl.tensor<4xf32> {pl.direction = "inout"},
                           %o: !pl.tensor<4xf32> {pl.direction = "out"}) -> (!pl.tensor<4xf32>, !pl.tensor<4xf32>)
    attributes {pl.func_kind = "aiv"} {
  return %b, %o : !pl.tensor<4xf32>, !pl.tensor<4xf32>
}
func.func @runtime_allocated(%x: !pl.tensor<4xf32>, %w: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %sub:2 = pl.submit @produce(%x, %w) {runtime_alloc_outs = array<i64: 1>} : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> (!pl.tensor<4xf32>, !pl.tensor<4xf32>)
  %v = pl.tensor.reshape %sub#1 : !pl.tensor<4xf32> -> !pl.tensor<4xf32>
  func.call @read(%v) : (!pl.tensor<4xf32>) -> ()
  func.call @write(%sub#1) : (!pl.tensor<4xf32>) -> ()
  return
}

// A kernel that returns a pl.cast of its parameter: the call's result is
// still that argument (as the codegen binds it), so a reader of the result
// depends on the call (RAW).
func.func private @bump_cast(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<*xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  %c = pl.cast %t : !pl.tensor<4xf32> to !pl.tensor<*xf32>
  return %c : !pl.tensor<*xf32>
}
func.func private @read_into(%src: !pl.tensor<4xf32> {pl.direction = "in"}, %dst: !pl.tensor<4xf32> {pl.direction = "out"})
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return
}
// CHECK-LABEL: func.func @cast_returned
// CHECK: call @bump_cast({{.*}}pl.task_id = 0
// CHECK: call @read_into({{.*}}pl.task_deps = [0], pl.task_id = 1
func.func @cast_returned(%a: !pl.tensor<4xf32>, %b: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = func.call @bump_cast(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<*xf32>
  %r4 = pl.cast %r : !pl.tensor<*xf32> to !pl.tensor<4xf32>
  func.call @read_into(%r4, %b) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  return
}

// Two windows of one pld.window_buffer may overlap: one alias class per
// allocation, so the reader of the second depends on the writer of the first.
func.func private @bump(%t: !pl.tensor<4xf32> {pl.direction = "inout"})
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return
}
func.func @chip_write(%x: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %l = pl.cast %x : !pld.dtensor<4xf32> to !pl.tensor<4xf32>
  func.call @bump(%l) : (!pl.tensor<4xf32>) -> ()
  return
}
func.func @chip_read(%x: !pld.dtensor<4xf32>, %y: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %l = pl.cast %x : !pld.dtensor<4xf32> to !pl.tensor<4xf32>
  func.call @read_into(%l, %y) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @windows_of_one_buffer
// CHECK: pld.host.dispatch @chip_write({{.*}}pl.task_id = 0
// CHECK: pld.host.dispatch @chip_read({{.*}}pl.task_deps = [0], pl.task_id = 1
func.func @windows_of_one_buffer(%y: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  %b = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %w1 = pld.window %b : !pld.dtensor<4xf32>
  %w2 = pld.window %b {offset = 8 : i64} : !pld.dtensor<4xf32>
  pld.host.dispatch @chip_write(%w1) on %c0 : (!pld.dtensor<4xf32>), index
  pld.host.dispatch @chip_read(%w2, %y) on %c0 : (!pld.dtensor<4xf32>, !pl.tensor<4xf32>), index
  return
}

// In a CHIP body a pl.tensor.assemble is a task (pld-translate runs it as a
// task of the builtin copy kernel): its target is read and written, its
// source read. It follows the task that read its target (WAR) and the one that
// wrote its source (RAW); a later reader of the target follows it (RAW), a
// later writer of its source follows it too (WAR).
// CHECK-LABEL: func.func @chip_assemble
// CHECK: call @read(%arg0) {{{.*}}pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @write(%arg1) {{{.*}}pl.task_deps = [], pl.task_id = 1 : i64}
// CHECK: pl.tensor.assemble %arg1 into %arg0 {offsets = array<i64: 0>, pl.task_deps = [0, 1], pl.task_id = 2 : i64}
// CHECK: call @read(%{{.*}}) {{{.*}}pl.task_deps = [2], pl.task_id = 3 : i64}
// CHECK: call @write(%arg1) {{{.*}}pl.task_deps = [2], pl.task_id = 4 : i64}
func.func @chip_assemble(%x: !pl.tensor<4xf32>, %y: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  func.call @read(%x) : (!pl.tensor<4xf32>) -> ()
  func.call @write(%y) : (!pl.tensor<4xf32>) -> ()
  %x2 = pl.tensor.assemble %y into %x {offsets = array<i64: 0>} : !pl.tensor<4xf32> into !pl.tensor<4xf32>
  func.call @read(%x2) : (!pl.tensor<4xf32>) -> ()
  func.call @write(%y) : (!pl.tensor<4xf32>) -> ()
  return
}

// A HOST orchestrator's assemble is its own store, not a task: it is not numbered.
// CHECK-LABEL: func.func @host_assemble
// CHECK: pl.tensor.assemble %arg1 into %arg0 {offsets = array<i64: 0>} :
func.func @host_assemble(%x: !pl.tensor<4xf32>, %y: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %x2 = pl.tensor.assemble %y into %x {offsets = array<i64: 0>} : !pl.tensor<4xf32> into !pl.tensor<4xf32>
  return
}
