// Every pass that can fail checks before it rewrites: after a failure,
// --mlir-print-ir-after-failure shows the module exactly as it came in (a good
// collective beside the bad one is not rewritten, no context is appended, no
// kernel is synthesized). lower-l2 and lower-composite-ops have their own
// (atomicity.mlir, indexed-atomicity.mlir, lower-composite-ops-atomic.mlir);
// the fuzzer (fuzz/fuzz.py, "half-rewrite") checks every pass on mutants.
// RUN: not pld-opt %s --split-input-file --lower-host-tensor-collectives --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not pld-opt %s --split-input-file --materialize-dist-tensor-ctx --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=CTX
// RUN: not pld-opt %s --split-input-file --legalize-spmd-launches --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=LEGAL

// HOST: error: 'pld.tensor.all_to_all_v' op operands target and recv_counts must be different window allocations
// HOST: IR Dump After LowerHostTensorCollectives Failed
// HOST: func.func @host
// HOST-NOT: pld.host.dispatch
// HOST-NOT: builtin.tensor
// HOST: pld.tensor.all_to_all_v
// HOST: pld.tensor.all_to_all_v
// HOST-NOT: func.func private @__builtin
// CTX: error: 'func.call' op cannot find a CommContext for argument #0 of the call to @kernel
// CTX: IR Dump After MaterializeDistTensorCtx Failed
// CTX-NOT: !pld.comm_ctx
// LEGAL: error: 'arith.ceildivsi' op is not supported in a CHIP orchestration body
// LEGAL: IR Dump After LegalizeSpmdLaunches Failed
// LEGAL: arith.ceildivsi
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 512 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b5 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  %t2 = pld.window %b5 : !pld.dtensor<16x4xf32>
  // A good collective first: it must not be fanned out when the second fails.
  %ok = pld.tensor.all_to_all_v %in, %t2, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %r0 = pld.window %b1 {offset = 256 : i64} : !pld.dtensor<2xi32>
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r0 {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}
func.func @kernel(%a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  return
}
func.func @with_context(%a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  func.call @kernel(%a) : (!pld.dtensor<4xf32>) -> ()
  return
}
func.func @no_context(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %b = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %t = pld.window %b : !pld.dtensor<4xf32>
  func.call @kernel(%t) : (!pld.dtensor<4xf32>) -> ()
  return
}
func.func @unsupported(%n: index) attributes {pl.func_kind = "orchestration"} {
  %q = arith.ceildivsi %n, %n : index
  return
}
