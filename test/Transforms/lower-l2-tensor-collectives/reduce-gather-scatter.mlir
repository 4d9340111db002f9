// --lower-l2-tensor-collectives on pld.tensor.reduce, gather and scatter: the
// root (and reduce's reduction) is part of the variant
// (@__builtin_reduce_<reduce>_root<R>__<dt>, @__builtin_gather_root<R>__<dt>,
// @__builtin_scatter_root<R>__<dt>; template vars dtype_cpp, then reduce,
// then root), one kernel per variant however many calls, the launch width
// exactly core_num.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives | FileCheck %s

// CHECK-LABEL: func.func @rooted
// CHECK: call @__builtin_reduce_sum_root0__fp32(%{{.*}}, %{{.*}}) : (!pld.dtensor<*xf32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK: call @__builtin_reduce_sum_root0__fp32(
// CHECK: call @__builtin_reduce_prod_root2__int32({{.*}}) {pl.core_num = 2 : i64, pl.sync_start}
// CHECK: call @__builtin_gather_root1__int8(%{{.*}}, %{{.*}}, %{{.*}}) : (!pl.tensor<*xi8>, !pld.dtensor<*xi8>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xi8>
// CHECK: call @__builtin_scatter_root3__fp16(%{{.*}}, %{{.*}}, %{{.*}}) : (!pl.tensor<*xf16>, !pld.dtensor<*xf16>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf16>
// CHECK-LABEL: func.func private @__builtin_reduce_sum_root0__fp32
// CHECK-SAME: (%arg0: !pld.dtensor<*xf32> {pl.direction = "inout"}, %arg1: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf32>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.reduce", pl.builtin_template_vars = "dtype_cpp=float;reduce=sum;root=0", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-LABEL: func.func private @__builtin_reduce_prod_root2__int32
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=int32_t;reduce=prod;root=2"
// CHECK-LABEL: func.func private @__builtin_gather_root1__int8
// CHECK-SAME: (%arg0: !pl.tensor<*xi8> {pl.direction = "in"}, %arg1: !pld.dtensor<*xi8> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xi8>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.gather", pl.builtin_template_vars = "dtype_cpp=int8_t;root=1", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-LABEL: func.func private @__builtin_scatter_root3__fp16
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.scatter", pl.builtin_template_vars = "dtype_cpp=half;root=3", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-NOT: func.func private @__builtin_
func.func @rooted(%loss: !pld.dtensor<1x8xf32>, %s: !pld.dtensor<4xi32>, %n: !pld.dtensor<6xi32>, %s2: !pld.dtensor<4x2xi32>,
                  %part: !pl.tensor<2x3xi8>, %all: !pld.dtensor<8x3xi8>, %batch: !pl.tensor<8x5xf16>, %mine: !pld.dtensor<2x5xf16>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.reduce %loss, %s {reduce = "sum", root = 0 : i64} : !pld.dtensor<1x8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<1x8xf32>
  %1 = pld.tensor.reduce %0, %s {reduce = "sum", root = 0 : i64} : !pld.dtensor<1x8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<1x8xf32>
  %2 = pld.tensor.reduce %n, %s2 {reduce = "prod", root = 2 : i64, core_num = 2 : i64} : !pld.dtensor<6xi32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<6xi32>
  %3 = pld.tensor.gather %part, %all, %s {root = 1 : i64} : !pl.tensor<2x3xi8>, !pld.dtensor<8x3xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8x3xi8>
  %4 = pld.tensor.scatter %batch, %mine, %s {root = 3 : i64} : !pl.tensor<8x5xf16>, !pld.dtensor<2x5xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<2x5xf16>
  return
}

// -----

// The rows rule: a payload of dynamic rows cannot prove NR*M on the CHIP rail.
func.func @dynamic_rows(%in: !pl.tensor<?x3xf32>, %all: !pld.dtensor<8x3xf32>, %s: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.gather' op target rows must be NR*M (NR=4 ranks), which operand 'input' of dynamic shape does not prove}}
  %0 = pld.tensor.gather %in, %all, %s {root = 0 : i64} : !pl.tensor<?x3xf32>, !pld.dtensor<8x3xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x3xf32>
  return
}
