// --lower-l2-tensor-collectives on pld.tensor.permute: the pairs, in
// attribute order, are part of the variant
// (@__builtin_permute_<s>to<d>_...__<dt>, template var pairs=<s>:<d>,...);
// one kernel per pair set; a permute without pairs is erased (its result is
// its target: no kernel, no launch).
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives | FileCheck %s

// CHECK-LABEL: func.func @shift
// CHECK: %[[T:.*]] = pl.cast %arg1 : !pld.dtensor<4x16xf32> to !pld.dtensor<*xf32>
// CHECK: %[[R:.*]] = call @__builtin_permute_0to1_1to2_2to3_3to0__fp32(%{{.*}}, %[[T]], %{{.*}}) : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK: %[[B:.*]] = pl.cast %[[R]] : !pld.dtensor<*xf32> to !pld.dtensor<4x16xf32>
// CHECK: call @__builtin_permute_0to1_1to2_2to3_3to0__fp32(
// CHECK: call @__builtin_permute_1to0_0to1__fp32(
// The empty permute is gone: its result is its target.
// CHECK-NOT: pld.tensor.permute
// CHECK: return %[[B]] : !pld.dtensor<4x16xf32>
// Kernels are appended in variant order (the fewer pairs first).
// CHECK-LABEL: func.func private @__builtin_permute_1to0_0to1__fp32
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=float;pairs=1:0,0:1"
// CHECK-LABEL: func.func private @__builtin_permute_0to1_1to2_2to3_3to0__fp32
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.permute", pl.builtin_template_vars = "dtype_cpp=float;pairs=0:1,1:2,2:3,3:0", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-NOT: func.func private @__builtin_
func.func @shift(%act: !pl.tensor<4x16xf32>, %next: !pld.dtensor<4x16xf32>, %s: !pld.dtensor<4xi32>) -> !pld.dtensor<4x16xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.permute %act, %next, %s {pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : !pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
  %1 = pld.tensor.permute %act, %0, %s {pairs = dense<> : tensor<0x2xi64>} : !pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
  %2 = pld.tensor.permute %act, %1, %s {pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : !pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
  %3 = pld.tensor.permute %act, %2, %s {pairs = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>} : !pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
  return %0 : !pld.dtensor<4x16xf32>
}

// -----

// Only empty permutes: erased, nothing synthesized.
// CHECK-LABEL: func.func @nothing
// CHECK-NEXT: return %arg1
// CHECK-NOT: func.func private
func.func @nothing(%act: !pl.tensor<4x16xf32>, %next: !pld.dtensor<4x16xf32>, %s: !pld.dtensor<4xi32>) -> !pld.dtensor<4x16xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.permute %act, %next, %s {pairs = dense<> : tensor<0x2xi64>} : !pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
  return %0 : !pld.dtensor<4x16xf32>
}
