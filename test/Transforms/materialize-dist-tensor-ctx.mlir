// --materialize-dist-tensor-ctx appends one !pld.comm_ctx per !pld.dtensor
// parameter and threads the matching context at every call site.
// RUN: pld-opt %s --split-input-file --materialize-dist-tensor-ctx --verify-each --verify-diagnostics | FileCheck %s
// The CHIP rail's kernel ends up with the seed's ABI table (args[0..4] tensors,
// args[5] the first context, args[6..7] the other two).
// RUN: pld-opt %S/Inputs/materialize-dist-tensor-ctx-seed.mlir --lower-l2-tensor-collectives --materialize-dist-tensor-ctx --verify-each | FileCheck %s --check-prefix=ABI
// Idempotent.
// RUN: pld-opt %S/Inputs/materialize-dist-tensor-ctx-seed.mlir --lower-l2-tensor-collectives --materialize-dist-tensor-ctx --materialize-dist-tensor-ctx | FileCheck %s --check-prefix=ABI

// ABI-LABEL: func.func @chip_pipeline
// ABI-SAME: %arg3: !pld.dtensor<16x4xf32>, %arg4: !pld.dtensor<2x8xi32>, %arg5: !pld.dtensor<2xi32>, %arg6: !pld.dtensor<2xi32>, %arg7: !pld.comm_ctx {pl.direction = "in"}, %arg8: !pld.comm_ctx {pl.direction = "in"}, %arg9: !pld.comm_ctx {pl.direction = "in"}, %arg10: !pld.comm_ctx {pl.direction = "in"}, %arg11: !pld.comm_ctx {pl.direction = "in"})
// ABI: call @__builtin_all_to_all_v__fp32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg8, %arg9, %arg11)
// ABI-LABEL: func.func private @__builtin_all_to_all_v__fp32
// ABI-SAME: (%arg0: !pl.tensor<*xf32> {pl.direction = "in"}, %arg1: !pld.dtensor<*xf32> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg3: !pl.tensor<*xi32> {pl.direction = "in"}, %arg4: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg5: !pld.comm_ctx {pl.direction = "in"}, %arg6: !pld.comm_ctx {pl.direction = "in"}, %arg7: !pld.comm_ctx {pl.direction = "in"}) -> !pld.dtensor<*xf32>

// A kernel and a CHIP orchestrator: each argument gets the context of the
// caller parameter it aliases (through pl.cast and a call result).
// Functions without dtensor parameters are untouched.
// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%arg0: !pl.tensor<4xf32>, %arg1: !pld.dtensor<4xf32>, %arg2: !pld.dtensor<4xf32>, %arg3: !pld.comm_ctx {pl.direction = "in"}, %arg4: !pld.comm_ctx {pl.direction = "in"}) -> !pld.dtensor<4xf32>
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%arg0: !pl.tensor<4xf32>)
// CHECK-LABEL: func.func @orch
// CHECK-SAME: (%arg0: !pld.dtensor<4xf32>, %arg1: !pld.dtensor<4xf32>, %arg2: !pl.tensor<4xf32>, %arg3: !pld.comm_ctx {pl.direction = "in"}, %arg4: !pld.comm_ctx {pl.direction = "in"})
// CHECK: %[[R:.*]] = call @kernel(%arg2, %{{.*}}, %{{.*}}, %arg4, %arg3) {pl.arg_directions = ["in", "inout", "inout", "in", "in"]}
// CHECK: call @kernel(%arg2, %[[R]], %arg0, %arg4, %arg3)
// CHECK: call @plain(%arg2) :
func.func @kernel(%x: !pl.tensor<4xf32>, %a: !pld.dtensor<4xf32>, %b: !pld.dtensor<4xf32>) -> !pld.dtensor<4xf32>
    attributes {pl.func_kind = "aiv"} {
  return %a : !pld.dtensor<4xf32>
}
func.func @plain(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  return
}
func.func @orch(%p: !pld.dtensor<4xf32>, %q: !pld.dtensor<4xf32>, %x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %qc = pl.cast %q : !pld.dtensor<4xf32> to !pld.dtensor<?xf32>
  %qd = pl.cast %qc : !pld.dtensor<?xf32> to !pld.dtensor<4xf32>
  %pv = pl.cast %p : !pld.dtensor<4xf32> to !pld.dtensor<4xf32>
  %r = func.call @kernel(%x, %qd, %pv) {pl.arg_directions = ["in", "inout", "inout"]} : (!pl.tensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>) -> !pld.dtensor<4xf32>
  %s = func.call @kernel(%x, %r, %p) : (!pl.tensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>) -> !pld.dtensor<4xf32>
  func.call @plain(%x) : (!pl.tensor<4xf32>) -> ()
  return
}

// -----

// A HOST orchestrator obtains a device's context with pld.host.device_ctx:
// one per dispatch, passed for every context parameter of the callee.
// CHECK-LABEL: func.func @chip
// CHECK-SAME: %arg2: !pld.comm_ctx {pl.direction = "in"}, %arg3: !pld.comm_ctx {pl.direction = "in"}
// CHECK-LABEL: func.func @host
// CHECK: scf.for %[[DEV:.*]] =
// CHECK-NEXT: %[[CTX:.*]] = pld.host.device_ctx %[[DEV]] : index
// CHECK-NEXT: pld.host.dispatch @chip(%{{.*}}, %{{.*}}, %[[CTX]], %[[CTX]]) on %[[DEV]]
func.func @chip(%a: !pld.dtensor<4xf32>, %b: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %buf = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %w0 = pld.window %buf : !pld.dtensor<4xf32>
  %w1 = pld.window %buf {offset = 16 : i64} : !pld.dtensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %dev = %c0 to %c4 step %c1 {
    pld.host.dispatch @chip(%w0, %w1) on %dev : (!pld.dtensor<4xf32>, !pld.dtensor<4xf32>), index
  }
  return
}

// -----

func.func @kernel(%a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  return
}
// A window made in a CHIP body (which --legalize-spmd-launches refuses) when
// the caller has no dtensor parameter: no context to pass.
func.func @no_context(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %b = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %t = pld.window %b : !pld.dtensor<4xf32>
  // expected-error @+1 {{'func.call' op cannot find a CommContext for argument #0 of the call to @kernel: the caller has no !pld.dtensor parameter whose CommContext it could pass}}
  func.call @kernel(%t) : (!pld.dtensor<4xf32>) -> ()
  return
}

// -----

func.func @kernel(%a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  return
}
func.func @host_call() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %buf = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %w = pld.window %buf : !pld.dtensor<4xf32>
  // expected-error @+1 {{'func.call' op cannot find a CommContext for argument #0 of the call to @kernel: a HOST orchestrator passes a device context only through 'pld.host.dispatch'}}
  func.call @kernel(%w) : (!pld.dtensor<4xf32>) -> ()
  return
}

// -----

// A submit that leaves a trailing parameter to the runtime (runtime_alloc_outs)
// to a callee with a dtensor parameter: its CommContext would have to follow
// the runtime-allocated buffer, which the kernel ABI (tensors, then contexts)
// and the submit binding (operands, then runtime-allocated Outs) cannot both
// have. (A submit passing too few arguments without runtime_alloc_outs is
// now refused by the pl.submit verifier.)
func.func @kernel(%a: !pld.dtensor<4xf32>, %o: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"} {
  return %o : !pl.tensor<4xf32>
}
func.func @short_submit(%x: !pl.tensor<4xf32>, %a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.submit' op cannot thread CommContext arguments into the call to @kernel: the call must pass the 2 parameters @kernel has before its CommContexts, got 1 arguments}}
  %r = pl.submit @kernel(%a) {runtime_alloc_outs = array<i64: 0>} : (!pld.dtensor<4xf32>) -> !pl.tensor<4xf32>
  return
}
