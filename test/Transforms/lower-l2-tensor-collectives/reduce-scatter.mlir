// --lower-l2-tensor-collectives on pld.tensor.reduce_scatter: a call of
// @__builtin_reduce_scatter_<reduce>__<dt> at the exact launch width.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @rs
// CHECK: %[[T:.*]] = pl.cast %arg0 : !pld.dtensor<16x8xf16> to !pld.dtensor<*xf16>
// CHECK: %[[S:.*]] = pl.cast %arg1 : !pld.dtensor<4x4xi32> to !pld.dtensor<*xi32>
// CHECK: call @__builtin_reduce_scatter_sum__fp16(%[[T]], %[[S]]) {pl.core_num = 4 : i64, pl.sync_start} : (!pld.dtensor<*xf16>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf16>
// CHECK: call @__builtin_reduce_scatter_max__int32(%{{.*}}, %{{.*}}) : (!pld.dtensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xi32>
// CHECK-LABEL: func.func private @__builtin_reduce_scatter_sum__fp16
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.reduce_scatter", pl.builtin_template_vars = "dtype_cpp=half;reduce=sum", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-LABEL: func.func private @__builtin_reduce_scatter_max__int32
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=int32_t;reduce=max"
func.func @rs(%t: !pld.dtensor<16x8xf16>, %s: !pld.dtensor<4x4xi32>, %i: !pld.dtensor<8x3xi32>, %s1: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum", core_num = 4 : i64}
      : !pld.dtensor<16x8xf16>, !pld.dtensor<4x4xi32> -> !pld.dtensor<16x8xf16>
  %1 = pld.tensor.reduce_scatter %i, %s1 {reduce = "max"}
      : !pld.dtensor<8x3xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x3xi32>
  return
}

// -----

func.func @unranked_signal(%t: !pld.dtensor<16x8xf32>, %s: !pld.dtensor<*xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op signal shape must be static on the CHIP rail, got '!pld.dtensor<*xi32>'}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"}
      : !pld.dtensor<16x8xf32>, !pld.dtensor<*xi32> -> !pld.dtensor<16x8xf32>
  return
}
