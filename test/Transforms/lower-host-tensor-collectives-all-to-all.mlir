// --lower-host-tensor-collectives on pld.tensor.all_to_all: dispatches of
// @builtin.tensor.all_to_all__<dt>.
// RUN: pld-opt %s --lower-host-tensor-collectives --verify-each | FileCheck %s

// CHECK-LABEL: func.func @a2a
// CHECK: %[[L:.*]] = arith.constant 4 : i64
// CHECK: scf.for %[[DEV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.all_to_all__fp16(%{{.*}}, %{{.*}}, %{{.*}}) on %[[DEV]] core_num(%[[L]]) {pl.arg_directions = ["in", "inout", "inout"]}
// CHECK-LABEL: func.func private @__builtin_all_to_all__fp16
// CHECK-SAME: pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all", pl.builtin_template_vars = "dtype_cpp=half"
// CHECK-LABEL: func.func private @builtin.tensor.all_to_all__fp16
// CHECK-NEXT: call @__builtin_all_to_all__fp16(%arg0, %arg1, %arg2) {pl.abi_arg_count = 4 : i64
func.func @a2a() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<8x8xf16>
  %t = pld.window %b1 : !pld.dtensor<8x8xf16>
  %s = pld.window %b2 : !pld.dtensor<2x4xi32>
  %0 = pld.tensor.all_to_all %in, %t, %s {core_num = 4 : i64}
      : !pld.dtensor<8x8xf16>, !pld.dtensor<8x8xf16>, !pld.dtensor<2x4xi32> -> !pld.dtensor<8x8xf16>
  return
}
