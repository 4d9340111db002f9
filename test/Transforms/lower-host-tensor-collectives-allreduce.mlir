// --lower-host-tensor-collectives on pld.tensor.allreduce: P dispatches (P =
// the signal's NR; ring mode: its trailing dimension) of the builtin chip
// callable @builtin.tensor.allreduce_<reduce>__<dt>, whose one task calls the
// same AIV kernel the CHIP rail synthesizes, at the exact width L.
// RUN: pld-opt %s --split-input-file --lower-host-tensor-collectives --verify-each --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @mesh
// CHECK: %[[TW:.*]] = pld.window %{{.*}} : !pld.dtensor<16x4xf32>
// CHECK: %[[L:.*]] = arith.constant 2 : i64
// CHECK: %[[T:.*]] = pl.cast %[[TW]] : !pld.dtensor<16x4xf32> to !pld.dtensor<*xf32>
// CHECK: %[[S:.*]] = pl.cast %{{.*}} : !pld.dtensor<4x2xi32> to !pld.dtensor<*xi32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[DEV:.*]] = %{{.*}} to %[[C4]] step %{{.*}} {
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.allreduce_sum__fp32(%[[T]], %[[S]]) on %[[DEV]] core_num(%[[L]]) {pl.arg_directions = ["inout", "inout"]}
// CHECK-NOT: pld.host.require
// CHECK: return %[[TW]]
// CHECK-LABEL: func.func private @__builtin_allreduce_sum__fp32
// CHECK-SAME: pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.allreduce", pl.builtin_template_vars = "dtype_cpp=float;reduce=sum", pl.func_kind = "aiv"
// CHECK-LABEL: func.func private @builtin.tensor.allreduce_sum__fp32
// CHECK-SAME: attributes {pl.func_kind = "orchestration"}
// CHECK-NEXT: call @__builtin_allreduce_sum__fp32(%arg0, %arg1) {pl.abi_arg_count = 3 : i64, pl.arg_directions = ["inout", "inout"], pl.task_deps = [], pl.task_id = 0 : i64}
func.func @mesh() -> !pld.dtensor<16x4xf32> attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<16x4xf32>
  %s = pld.window %b1 : !pld.dtensor<4x2xi32>
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// Ring: P = 3 devices from the [2*(3-1)+1, 3] signal, one block.
// CHECK-LABEL: func.func @ring
// CHECK: %[[L:.*]] = arith.constant 1 : i64
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[DEV:.*]] = %{{.*}} to %[[C3]] step %{{.*}} {
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.allreduce_ring_max__fp16(%{{.*}}, %{{.*}}) on %[[DEV]] core_num(%[[L]])
// CHECK-LABEL: func.func private @__builtin_allreduce_ring_max__fp16
// CHECK-SAME: pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.allreduce_ring", pl.builtin_template_vars = "dtype_cpp=half;reduce=max"
func.func @ring() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 96 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 60 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<12x4xf16>
  %s = pld.window %b1 : !pld.dtensor<5x3xi32>
  %0 = pld.tensor.allreduce %t, %s {reduce = "max", mode = "ring"}
      : !pld.dtensor<12x4xf16>, !pld.dtensor<5x3xi32> -> !pld.dtensor<12x4xf16>
  return
}

// -----

// Two views of one allocation as target and signal.
func.func @shared_buffer() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{both are views of this pld.window_buffer}}
  %b0 = pld.window_buffer {bytes = 512 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<16x4xf32>
  %s = pld.window %b0 {offset = 256 : i64} : !pld.dtensor<4xi32>
  // expected-error@+1 {{'pld.tensor.allreduce' op operands target and signal must be different window allocations}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// The target is not window-bound (a HOST orchestrator's parameter).
// expected-note@+1 {{it is traced to a function parameter, not to a pld.window of this HOST orchestrator}}
func.func @parameter(%t: !pld.dtensor<16x4xf32>) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b1 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %s = pld.window %b1 : !pld.dtensor<4xi32>
  // expected-error@+1 {{'pld.tensor.allreduce' op operand 'target' must be a window-bound !pld.dtensor (a pld.window of a pld.window_buffer of this HOST orchestrator)}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}
