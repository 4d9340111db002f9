// --lower-l2-tensor-collectives on pld.tensor.barrier: a call of the one
// @__builtin_barrier (no dtype; its template is rendered with the signal's
// int32_t), one block; the result is the signal.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s

// CHECK-LABEL: func.func @phases
// CHECK: %[[S:.*]] = pl.cast %arg0 : !pld.dtensor<4xi32> to !pld.dtensor<*xi32>
// CHECK: %[[R:.*]] = call @__builtin_barrier(%[[S]]) : (!pld.dtensor<*xi32>) -> !pld.dtensor<*xi32>
// CHECK: %[[B:.*]] = pl.cast %[[R]] : !pld.dtensor<*xi32> to !pld.dtensor<4xi32>
// CHECK: %[[S2:.*]] = pl.cast %[[B]] : !pld.dtensor<4xi32> to !pld.dtensor<*xi32>
// CHECK: call @__builtin_barrier(%[[S2]])
// CHECK: call @__builtin_barrier(%{{.*}}) : (!pld.dtensor<*xi32>) -> !pld.dtensor<*xi32>
// CHECK-LABEL: func.func private @__builtin_barrier
// CHECK-SAME: (%arg0: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xi32>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.barrier", pl.builtin_template_vars = "dtype_cpp=int32_t", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-NEXT: return %arg0 : !pld.dtensor<*xi32>
// CHECK-NOT: func.func private @__builtin_barrier
func.func @phases(%s: !pld.dtensor<4xi32>, %s8: !pld.dtensor<4x8xi32>) -> !pld.dtensor<4xi32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  %1 = pld.tensor.barrier %0 : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  %2 = pld.tensor.barrier %s8 : !pld.dtensor<4x8xi32> -> !pld.dtensor<4x8xi32>
  return %1 : !pld.dtensor<4xi32>
}
