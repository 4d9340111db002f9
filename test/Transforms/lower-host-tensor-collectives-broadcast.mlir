// --lower-host-tensor-collectives on pld.tensor.broadcast: dispatches of
// @builtin.tensor.broadcast_root<R>__<dt> (the root is part of the variant).
// RUN: pld-opt %s --lower-host-tensor-collectives --verify-each | FileCheck %s

// CHECK-LABEL: func.func @bcast
// CHECK: pld.host.dispatch @builtin.tensor.broadcast_root2__fp32(%{{.*}}, %{{.*}}) on %{{.*}} core_num(%{{.*}}) {pl.arg_directions = ["inout", "inout"]}
// CHECK: pld.host.dispatch @builtin.tensor.broadcast_root0__fp32(
// CHECK-LABEL: func.func private @__builtin_broadcast_root0__fp32
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=float;root=0"
// CHECK-LABEL: func.func private @builtin.tensor.broadcast_root0__fp32
// CHECK-LABEL: func.func private @__builtin_broadcast_root2__fp32
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=float;root=2"
// CHECK-LABEL: func.func private @builtin.tensor.broadcast_root2__fp32
func.func @bcast() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 12 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<4x4xf32>
  %s = pld.window %b1 : !pld.dtensor<3xi32>
  %0 = pld.tensor.broadcast %t, %s {root = 2 : i64} : !pld.dtensor<4x4xf32>, !pld.dtensor<3xi32> -> !pld.dtensor<4x4xf32>
  %1 = pld.tensor.broadcast %0, %s {root = 0 : i64} : !pld.dtensor<4x4xf32>, !pld.dtensor<3xi32> -> !pld.dtensor<4x4xf32>
  return
}
