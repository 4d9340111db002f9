// The whole --pld-lower-collectives pipeline on the seed: a HOST orchestrator
// allocates the windows, dispatches chip_pipeline per device and runs one
// HOST-rail collective; chip_pipeline's collective takes the CHIP rail.
// RUN: pld-opt %s --pld-lower-collectives --verify-each | FileCheck %s --implicit-check-not="= pld.tensor.all_to_all_v"
// The registered pipeline is the design order (the "(A)" lines are the Rust
// analyses a pass built: checked in analyses.mlir).
// RUN: pld-opt %s --pld-lower-collectives --mlir-timing 2>&1 | grep -v '(A)' | FileCheck %s --check-prefix=ORDER
// ORDER: LowerCompositeOps
// ORDER-NEXT: LowerL2TensorCollectives
// ORDER-NEXT: LegalizeSpmdLaunches
// ORDER-NEXT: DeriveCallDirections
// ORDER-NEXT: AutoDeriveTaskDependencies
// ORDER-NEXT: LowerHostTensorCollectives
// ORDER-NEXT: MaterializeDistTensorCtx

// The InCore rail expanded the kernel-internal collective.
// CHECK-LABEL: func.func @incore_exchange
// CHECK: pld.comm.put_rows
// CHECK: pld.comm.notify
// CHECK: pld.comm.wait

// CHIP rail: the collective is a local AIV task (B = 2, sync_start) ordered
// between stage (task 0) and consume (task 2), with the CommContexts of
// target, signal and recv_counts appended.
// CHECK-LABEL: func.func @chip_pipeline
// CHECK-SAME: %[[DATA:arg3]]: !pld.dtensor<16x4xf32> {pl.direction = "inout"}
// CHECK-SAME: %arg7: !pld.comm_ctx {pl.direction = "in"}, %[[CDATA:arg8]]: !pld.comm_ctx {pl.direction = "in"}, %[[CSIG:arg9]]: !pld.comm_ctx {pl.direction = "in"}, %arg10: !pld.comm_ctx {pl.direction = "in"}, %[[CRECV:arg11]]: !pld.comm_ctx {pl.direction = "in"})
// CHECK: call @stage_step({{.*}}pl.task_deps = [], pl.task_id = 0 : i64}
// CHECK: call @__builtin_all_to_all_v__fp32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[CDATA]], %[[CSIG]], %[[CRECV]]) {pl.arg_directions = ["in", "inout", "inout", "in", "inout", "in", "in", "in"], pl.core_num = 2 : i64, pl.sync_start, pl.task_deps = [0], pl.task_id = 1 : i64}
// CHECK: call @consume_step({{.*}}pl.task_deps = [1], pl.task_id = 2 : i64}

// HOST: chip_pipeline dispatched per device with that device's context; the
// HOST-rail collective became the runtime B check and P builtin dispatches.
// CHECK-LABEL: func.func @host_main
// CHECK: scf.for %[[DEV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[CTX:.*]] = pld.host.device_ctx %[[DEV]] : index
// CHECK-NEXT: pld.host.dispatch @chip_pipeline({{.*}}, %[[CTX]], %[[CTX]], %[[CTX]], %[[CTX]], %[[CTX]]) on %[[DEV]] {{{.*}}pl.task_id = 0 : i64}
// CHECK: pld.host.require %{{.*}} else error 5
// CHECK: scf.for %[[DEV2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[CTX2:.*]] = pld.host.device_ctx %[[DEV2]] : index
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.all_to_all_v__fp32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[CTX2]], %[[CTX2]], %[[CTX2]]) on %[[DEV2]] core_num(%{{.*}}) {{{.*}}pl.task_deps = [0], pl.task_id = 1 : i64}

// One AIV kernel for both rails; its first CommContext is args[5].
// CHECK-LABEL: func.func private @__builtin_all_to_all_v__fp32
// CHECK-SAME: (%arg0: !pl.tensor<*xf32> {pl.direction = "in"}, %arg1: !pld.dtensor<*xf32> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg3: !pl.tensor<*xi32> {pl.direction = "in"}, %arg4: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg5: !pld.comm_ctx {pl.direction = "in"}, %arg6: !pld.comm_ctx {pl.direction = "in"}, %arg7: !pld.comm_ctx {pl.direction = "in"})
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv"
// The HOST-rail callable packs args[0..5] only.
// CHECK-LABEL: func.func private @builtin.tensor.all_to_all_v__fp32
// CHECK-NEXT: call @__builtin_all_to_all_v__fp32(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7) {pl.abi_arg_count = 6 : i64

func.func @incore_exchange(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    -> !pld.dtensor<16x4xf32> attributes {pl.func_kind = "aiv"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}
func.func @stage_step(%inp: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>, %counts: !pld.dtensor<2xi32>) -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) attributes {pl.func_kind = "aiv"} {
  return %stage, %counts : !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>
}
func.func @consume_step(%data: !pld.dtensor<16x4xf32>, %recv: !pld.dtensor<2xi32>, %out: !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "aiv"} {
  return %out : !pl.tensor<16x4xf32>
}
func.func @chip_pipeline(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>, %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>, %recv: !pld.dtensor<2xi32>) -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "orchestration"} {
  %s, %c = func.call @stage_step(%inp, %stage, %counts) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %d = pld.tensor.all_to_all_v %s, %data, %signal, %c, %recv {core_num = 2 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %r = func.call @consume_step(%d, %recv, %out) : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %r : !pl.tensor<16x4xf32>
}
func.func @host_main(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>, %core_num: i64) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %stage = pld.window %b0 : !pld.dtensor<16x4xf32>
  %data = pld.window %b1 : !pld.dtensor<16x4xf32>
  %signal = pld.window %b2 : !pld.dtensor<2x8xi32>
  %counts = pld.window %b3 : !pld.dtensor<2xi32>
  %recv = pld.window %b4 : !pld.dtensor<2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %dev = %c0 to %c2 step %c1 {
    pld.host.dispatch @chip_pipeline(%inp, %out, %stage, %data, %signal, %counts, %recv) on %dev : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  }
  %again = pld.tensor.all_to_all_v %data, %stage, %signal, %recv, %counts core_num(%core_num) : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}
