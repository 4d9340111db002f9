// --lower-l2-tensor-collectives on pld.tensor.broadcast: the root is part of
// the variant (@__builtin_broadcast_root<R>__<dt>, template var root=<R>), so
// two roots are two kernels and one root is one kernel however many calls.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s

// CHECK-LABEL: func.func @bcast
// CHECK: %[[T:.*]] = pl.cast %arg0 : !pld.dtensor<8x16xi32> to !pld.dtensor<*xi32>
// CHECK: %[[S:.*]] = pl.cast %arg1 : !pld.dtensor<4xi32> to !pld.dtensor<*xi32>
// CHECK: call @__builtin_broadcast_root0__int32(%[[T]], %[[S]]) : (!pld.dtensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xi32>
// CHECK: call @__builtin_broadcast_root3__int32
// CHECK: call @__builtin_broadcast_root0__int32
// CHECK: call @__builtin_broadcast_root1__fp16({{.*}}) {pl.core_num = 2 : i64, pl.sync_start}
// Kernels are appended in variant order (element type, then root).
// CHECK-LABEL: func.func private @__builtin_broadcast_root1__fp16
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=half;root=1"
// CHECK-LABEL: func.func private @__builtin_broadcast_root0__int32
// CHECK-SAME: (%arg0: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg1: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xi32>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.broadcast", pl.builtin_template_vars = "dtype_cpp=int32_t;root=0", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-LABEL: func.func private @__builtin_broadcast_root3__int32
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=int32_t;root=3"
// CHECK-NOT: func.func private @__builtin_broadcast
func.func @bcast(%t: !pld.dtensor<8x16xi32>, %s: !pld.dtensor<4xi32>, %h: !pld.dtensor<5xf16>, %s2: !pld.dtensor<4x2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.broadcast %t, %s {root = 0 : i64} : !pld.dtensor<8x16xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x16xi32>
  %1 = pld.tensor.broadcast %0, %s {root = 3 : i64} : !pld.dtensor<8x16xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x16xi32>
  %2 = pld.tensor.broadcast %1, %s {root = 0 : i64} : !pld.dtensor<8x16xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x16xi32>
  %3 = pld.tensor.broadcast %h, %s2 {root = 1 : i64, core_num = 2 : i64} : !pld.dtensor<5xf16>, !pld.dtensor<4x2xi32> -> !pld.dtensor<5xf16>
  return
}
