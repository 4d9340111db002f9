// --lower-host-tensor-collectives on pld.tensor.allgather: every operand,
// the input too, is a window of this HOST orchestrator; the kernel ABI has
// three tensors and the context at args[3].
// RUN: pld-opt %s --split-input-file --lower-host-tensor-collectives --verify-each --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @gather
// CHECK: %[[L:.*]] = arith.constant 2 : i64
// CHECK: %[[I:.*]] = pl.cast %{{.*}} : !pld.dtensor<2x8xi8> to !pl.tensor<*xi8>
// CHECK: %[[T:.*]] = pl.cast %{{.*}} : !pld.dtensor<8x8xi8> to !pld.dtensor<*xi8>
// CHECK: %[[S:.*]] = pl.cast %{{.*}} : !pld.dtensor<4x2xi32> to !pld.dtensor<*xi32>
// CHECK: scf.for %[[DEV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.allgather__int8(%[[I]], %[[T]], %[[S]]) on %[[DEV]] core_num(%[[L]]) {pl.arg_directions = ["in", "inout", "inout"]}
// CHECK-LABEL: func.func private @builtin.tensor.allgather__int8
// CHECK-NEXT: call @__builtin_allgather__int8(%arg0, %arg1, %arg2) {pl.abi_arg_count = 4 : i64, pl.arg_directions = ["in", "inout", "inout"]
func.func @gather() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<2x8xi8>
  %t = pld.window %b1 : !pld.dtensor<8x8xi8>
  %s = pld.window %b2 : !pld.dtensor<4x2xi32>
  %0 = pld.tensor.allgather %in, %t, %s {core_num = 2 : i64}
      : !pld.dtensor<2x8xi8>, !pld.dtensor<8x8xi8>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x8xi8>
  return
}

// -----

// The input is a view of the target's allocation.
func.func @input_in_target() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{both are views of this pld.window_buffer}}
  %b1 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %t = pld.window %b1 : !pld.dtensor<8x8xi8>
  %in = pld.window %b1 {offset = 48 : i64} : !pld.dtensor<2x8xi8>
  %s = pld.window %b2 : !pld.dtensor<4xi32>
  // expected-error@+1 {{'pld.tensor.allgather' op operands input and target must be different window allocations}}
  %0 = pld.tensor.allgather %in, %t, %s
      : !pld.dtensor<2x8xi8>, !pld.dtensor<8x8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8x8xi8>
  return
}
