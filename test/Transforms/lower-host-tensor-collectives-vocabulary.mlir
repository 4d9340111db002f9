// --lower-host-tensor-collectives on pld.tensor.reduce, gather, scatter and
// permute: dispatches of @builtin.tensor.<variant> (root, reduction and pairs
// are part of the variant, as on the CHIP rail); a permute without pairs is
// erased, nothing dispatched.
// RUN: pld-opt %s --lower-host-tensor-collectives --verify-each | FileCheck %s

// CHECK-LABEL: func.func @host
// CHECK: pld.host.dispatch @builtin.tensor.reduce_min_root1__fp16(%{{.*}}, %{{.*}}) on %{{.*}} core_num(%{{.*}}) {pl.arg_directions = ["inout", "inout"]}
// CHECK: pld.host.dispatch @builtin.tensor.gather_root0__int32(%{{.*}}, %{{.*}}, %{{.*}}) on %{{.*}} core_num(%{{.*}}) {pl.arg_directions = ["in", "inout", "inout"]}
// CHECK: pld.host.dispatch @builtin.tensor.scatter_root2__int32(
// CHECK: pld.host.dispatch @builtin.tensor.permute_0to1_1to2_2to0__int32(
// CHECK-NOT: pld.host.dispatch
// CHECK-NOT: pld.tensor.permute
// CHECK: return
// CHECK-DAG: func.func private @__builtin_reduce_min_root1__fp16({{.*}}pl.builtin_template_vars = "dtype_cpp=half;reduce=min;root=1"
// CHECK-DAG: func.func private @__builtin_gather_root0__int32({{.*}}pl.builtin_template_vars = "dtype_cpp=int32_t;root=0"
// CHECK-DAG: func.func private @__builtin_scatter_root2__int32({{.*}}pl.builtin_template_vars = "dtype_cpp=int32_t;root=2"
// CHECK-DAG: func.func private @__builtin_permute_0to1_1to2_2to0__int32({{.*}}pl.builtin_template_vars = "dtype_cpp=int32_t;pairs=0:1,1:2,2:0"
// CHECK-DAG: func.func private @builtin.tensor.permute_0to1_1to2_2to0__int32(
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 12 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 96 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %h = pld.window %b0 : !pld.dtensor<4x8xf16>
  %s = pld.window %b1 : !pld.dtensor<3xi32>
  %all = pld.window %b2 : !pld.dtensor<6x4xi32>
  %in = pld.window %b3 : !pld.dtensor<2x4xi32>
  %mine = pld.window %b4 : !pld.dtensor<2x4xi32>
  %0 = pld.tensor.reduce %h, %s {reduce = "min", root = 1 : i64} : !pld.dtensor<4x8xf16>, !pld.dtensor<3xi32> -> !pld.dtensor<4x8xf16>
  %1 = pld.tensor.gather %in, %all, %s {root = 0 : i64} : !pld.dtensor<2x4xi32>, !pld.dtensor<6x4xi32>, !pld.dtensor<3xi32> -> !pld.dtensor<6x4xi32>
  %2 = pld.tensor.scatter %1, %mine, %s {root = 2 : i64} : !pld.dtensor<6x4xi32>, !pld.dtensor<2x4xi32>, !pld.dtensor<3xi32> -> !pld.dtensor<2x4xi32>
  %3 = pld.tensor.permute %2, %in, %s {pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>} : !pld.dtensor<2x4xi32>, !pld.dtensor<2x4xi32>, !pld.dtensor<3xi32> -> !pld.dtensor<2x4xi32>
  %4 = pld.tensor.permute %2, %3, %s {pairs = dense<> : tensor<0x2xi64>} : !pld.dtensor<2x4xi32>, !pld.dtensor<2x4xi32>, !pld.dtensor<3xi32> -> !pld.dtensor<2x4xi32>
  return
}
