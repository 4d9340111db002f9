// --lower-host-tensor-collectives fans each HOST-orchestrator collective out
// into one pld.host.dispatch per device of a synthesized builtin chip callable.
// RUN: pld-opt %s --split-input-file --lower-host-tensor-collectives --verify-each --verify-diagnostics | FileCheck %s

// A runtime core_num: B is computed in IR and checked (invalid-args = 5)
// before the P = 2 dispatches; the result is the target window.
// CHECK-LABEL: func.func @host
// CHECK-SAME: %[[L:[^:]*]]: i64
// CHECK-DAG: %[[P:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[S:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MAX:.*]] = arith.constant 2147483647 : i64
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[L]], %[[ONE]]
// CHECK: %[[LE:.*]] = arith.cmpi sle, %[[L]], %[[MAX]]
// CHECK: %[[RANGE:.*]] = arith.andi %[[GE]], %[[LE]]
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[L]], %[[P]]
// CHECK: %[[Q:.*]] = arith.divsi %[[L]], %[[P]]
// CHECK: %[[M:.*]] = arith.muli %[[Q]], %[[P]]
// CHECK: %[[B:.*]] = arith.select %[[LT]], %[[L]], %[[M]]
// CHECK: %[[FITS:.*]] = arith.cmpi sge, %[[S]], %[[B]]
// CHECK: %[[OK:.*]] = arith.andi %[[RANGE]], %[[FITS]]
// CHECK: pld.host.require %[[OK]] else error 5, "pld.tensor.all_to_all_v: core_num must be in [1, 2147483647] and the signal stride S=8 must be at least the admitted block count B (core_num folded for P=2 ranks)" seen(%[[L]], %[[B]] : i64, i64) {value_names = ["core_num L", "B"]}
// CHECK: %[[IN:.*]] = pl.cast %{{.*}} : !pld.dtensor<16x4xf32> to !pl.tensor<*xf32>
// CHECK: %[[T:.*]] = pl.cast %[[TW:.*]] : !pld.dtensor<16x4xf32> to !pld.dtensor<*xf32>
// CHECK: %[[SIG:.*]] = pl.cast %{{.*}} : !pld.dtensor<2x8xi32> to !pld.dtensor<*xi32>
// CHECK: %[[SC:.*]] = pl.cast %{{.*}} : !pld.dtensor<2xi32> to !pl.tensor<*xi32>
// CHECK: %[[RC:.*]] = pl.cast %{{.*}} : !pld.dtensor<2xi32> to !pld.dtensor<*xi32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[DEV:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.all_to_all_v__fp32(%[[IN]], %[[T]], %[[SIG]], %[[SC]], %[[RC]]) on %[[DEV]] core_num(%[[B]]) {pl.arg_directions = ["in", "inout", "inout", "in", "inout"], pl.task_deps = [3], pl.task_id = 4 : i64}
// CHECK: return %[[TW]]
// The shared AIV kernel (same template attributes as the CHIP rail) and the
// chip callable whose call records the HOST-rail ABI width.
// CHECK-LABEL: func.func private @__builtin_all_to_all_v__fp32
// CHECK-SAME: pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv", pl.require_contiguous_operands
// CHECK-LABEL: func.func private @builtin.tensor.all_to_all_v__fp32
// CHECK-SAME: attributes {pl.func_kind = "orchestration"}
// CHECK-NEXT: call @__builtin_all_to_all_v__fp32(%arg0, %arg1, %arg2, %arg3, %arg4) {pl.abi_arg_count = 6 : i64
func.func @host(%core_num: i64) -> !pld.dtensor<16x4xf32> attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%core_num) {pl.task_deps = [3], pl.task_id = 4 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}

// -----

// A constant core_num and the INT8 variant; CHIP bodies are not touched.
// CHECK-LABEL: func.func @chip
// CHECK: pld.tensor.all_to_all_v
// CHECK-LABEL: func.func @host_i8
// CHECK: arith.constant 3 : i64
// CHECK: pld.host.dispatch @builtin.tensor.all_to_all_v__int8(
// CHECK-LABEL: func.func private @__builtin_all_to_all_v__int8
// CHECK-LABEL: func.func private @builtin.tensor.all_to_all_v__int8
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 4 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}
func.func @host_i8() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<8x4xi8>
  %t = pld.window %b1 : !pld.dtensor<8x4xi8>
  %s = pld.window %b2 : !pld.dtensor<4x4xi32>
  %c = pld.window %b3 : !pld.dtensor<4xi32>
  %r = pld.window %b4 : !pld.dtensor<4xi32>
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 3 : i64}
      : !pld.dtensor<8x4xi8>, !pld.dtensor<8x4xi8>, !pld.dtensor<4x4xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi8>
  return
}

// -----

// expected-note @+1 {{it is traced to a function parameter, not to a pld.window of this HOST orchestrator}}
func.func @param_operand(%in: !pld.dtensor<16x4xf32>) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op operand 'input' must be a window-bound !pld.dtensor (a pld.window of a pld.window_buffer of this HOST orchestrator)}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A pl.tensor.create is a local buffer, never a window: the verifier refuses
// it as a !pld.dtensor before the HOST rail could see it.
func.func @created_operand() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  // expected-error @+1 {{'pl.tensor.create' op result type '!pld.dtensor<2xi32>' must be a !pl.tensor (a fresh local buffer is not a window; a window is a pld.window of a pld.window_buffer)}}
  %c = "pl.tensor.create"() : () -> !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Two pld.window views of one allocation are not distinct, even through a reshape.
func.func @same_buffer() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  // expected-note @+1 {{both are views of this pld.window_buffer}}
  %b1 = pld.window_buffer {bytes = 512 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r0 = pld.window %b1 {offset = 256 : i64} : !pld.dtensor<2x1xi32>
  %r = pl.tensor.reshape %r0 : !pld.dtensor<2x1xi32> -> !pld.dtensor<2xi32>
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op operands target and recv_counts must be different window allocations}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @dynamic_signal() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x?xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op signal shape must be static on the HOST rail, got '!pld.dtensor<2x?xi32>'}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x?xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f16() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf16>
  %t = pld.window %b1 : !pld.dtensor<16x4xf16>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op the HOST rail supports only f32 or i8, got f16}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf16>, !pld.dtensor<16x4xf16>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf16>
  return
}

// -----

// The indexed op on the HOST rail (indexed.md): refused, in an a5 module...
module attributes {pl.arch = "a5"} {
func.func @indexed(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op indexed_all_to_all_v is not supported on the HOST rail (its lowering is CHIP-only)}}
  %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}
}

// -----

// ... and in a module without pl.arch = "a5" the first failing row of
// indexed.md's table is the architecture.
func.func @indexed(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op indexed_all_to_all_v needs pl.arch = "a5" (A5 URMA PER_PEER transport), got pl.arch = "a2a3" (the default when absent)}}
  %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// expected-note @+1 {{this symbol is not the builtin the HOST rail synthesizes}}
func.func @"builtin.tensor.all_to_all_v__fp32"() attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @clash() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  // expected-error @+1 {{symbol '@builtin.tensor.all_to_all_v__fp32' already exists}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A compile-time core_num that can never pass the runtime check is a
// compile-time error on the HOST rail too (the CHIP rail's rows and words),
// instead of a certain error 5 at run time.
func.func @host_too_wide() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x2xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  %l = arith.constant 4 : i64
  // expected-note @+2 {{the signal needs one column (lane) per launched block}}
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op signal stride S=2 is smaller than the admitted block count B=4 (core_num L=4 folded for P=2 ranks)}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%l)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x2xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @host_zero() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op core_num must be in [1, 2147483647], got 0}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 0 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}
