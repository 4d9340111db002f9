// pl ops tell upstream passes the truth about their side effects:
// pl.tensor.create allocates (cse keeps two creates apart, so two independent
// `out` tasks stay independent), pl.tensor.assemble / pl.tensor.write write
// their target in place (never erased or merged), views stay pure (cse may
// merge identical ones).
// RUN: pld-opt %s --split-input-file --inline --cse --canonicalize --loop-invariant-code-motion --sccp --symbol-dce --pld-lower-collectives | FileCheck %s

// CHECK-LABEL: func.func @two_creates
// CHECK:       %[[A:.*]] = pl.tensor.create : !pl.tensor<4xf32>
// CHECK-NEXT:  %[[B:.*]] = pl.tensor.create : !pl.tensor<4xf32>
// CHECK-NEXT:  call @out(%[[A]]) {pl.arg_directions = ["out"], pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK-NEXT:  call @out(%[[B]]) {pl.arg_directions = ["out"], pl.task_deps = [], pl.task_id = 1 : i64}
func.func private @out(%t: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"} {
  return %t : !pl.tensor<4xf32>
}
func.func @two_creates() attributes {pl.func_kind = "orchestration"} {
  %a = pl.tensor.create : !pl.tensor<4xf32>
  %b = pl.tensor.create : !pl.tensor<4xf32>
  %x = func.call @out(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %y = func.call @out(%b) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// Unused results of assemble and write do not make them dead; a create inside
// a loop is not hoisted out of it (one buffer per iteration).
// CHECK-LABEL: func.func @buffer_semantics
// CHECK:       pl.tensor.assemble
// CHECK:       pl.tensor.write
// CHECK:       scf.for
// CHECK-NEXT:    pl.tensor.create
func.func private @use(%t: !pl.tensor<4xi32> {pl.direction = "inout"}) -> !pl.tensor<4xi32> attributes {pl.func_kind = "aiv"} {
  return %t : !pl.tensor<4xi32>
}
func.func @buffer_semantics(%x: !pl.tensor<8xi32>, %t: !pl.tensor<4xi32>, %v: i32, %n: index) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = pl.tensor.assemble %t into %x {offsets = array<i64: 4>} : !pl.tensor<4xi32> into !pl.tensor<8xi32>
  %w = pl.tensor.write %v into %x[%c1] : i32 into !pl.tensor<8xi32>, index
  scf.for %i = %c0 to %n step %c1 {
    %b = pl.tensor.create : !pl.tensor<4xi32>
    %u = func.call @use(%b) : (!pl.tensor<4xi32>) -> !pl.tensor<4xi32>
  }
  return
}

// -----

// Family collectives are never merged or erased by upstream passes: two
// identical barriers on one signal, an unused allreduce, and a loop-invariant
// allreduce in a loop all stay (they write their windows), and the pipeline
// chains them on their shared signal.
// CHECK-LABEL: func.func @family_effects
// CHECK: call @__builtin_barrier({{.*}}pl.task_id = 0 : i64
// CHECK: call @__builtin_barrier({{.*}}pl.task_deps = [0], pl.task_id = 1 : i64
// CHECK: call @__builtin_allreduce_sum__fp32({{.*}}pl.task_deps = [1], pl.task_id = 2 : i64
// CHECK: scf.for
// CHECK: call @__builtin_allreduce_sum__fp32({{.*}}pl.task_deps = [2], pl.task_id = 3 : i64
func.func @family_effects(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>, %n: index)
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  %1 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  %2 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %3 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  }
  return
}
