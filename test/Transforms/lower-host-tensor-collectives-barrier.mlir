// --lower-host-tensor-collectives on pld.tensor.barrier: dispatches of
// @builtin.tensor.barrier, one block; the result is the signal window.
// RUN: pld-opt %s --split-input-file --lower-host-tensor-collectives --verify-each --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @phase
// CHECK: %[[SW:.*]] = pld.window %{{.*}} : !pld.dtensor<4xi32>
// CHECK: %[[L:.*]] = arith.constant 1 : i64
// CHECK: %[[S:.*]] = pl.cast %[[SW]] : !pld.dtensor<4xi32> to !pld.dtensor<*xi32>
// CHECK: scf.for %[[DEV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.barrier(%[[S]]) on %[[DEV]] core_num(%[[L]]) {pl.arg_directions = ["inout"]}
// CHECK: return %[[SW]]
// CHECK-LABEL: func.func private @__builtin_barrier
// CHECK-LABEL: func.func private @builtin.tensor.barrier
// CHECK-NEXT: call @__builtin_barrier(%arg0) {pl.abi_arg_count = 2 : i64, pl.arg_directions = ["inout"]
func.func @phase() -> !pld.dtensor<4xi32> attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %s = pld.window %b : !pld.dtensor<4xi32>
  %0 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  return %0 : !pld.dtensor<4xi32>
}

// -----

func.func @dynamic() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %buf = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %s = pld.window %buf : !pld.dtensor<?xi32>
  // expected-error@+1 {{'pld.tensor.barrier' op signal shape must be static on the HOST rail, got '!pld.dtensor<?xi32>'}}
  %0 = pld.tensor.barrier %s : !pld.dtensor<?xi32> -> !pld.dtensor<?xi32>
  return
}
