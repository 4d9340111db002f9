// --lower-l2-tensor-collectives on pld.tensor.all_to_all (fixed-size, beside
// the variable-count all_to_all_v): a call of @__builtin_all_to_all__<dt>.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @a2a
// CHECK: %[[I:.*]] = pl.cast %arg0 : !pl.tensor<32x64xf16> to !pl.tensor<*xf16>
// CHECK: %[[T:.*]] = pl.cast %arg1 : !pld.dtensor<32x64xf16> to !pld.dtensor<*xf16>
// CHECK: %[[S:.*]] = pl.cast %arg2 : !pld.dtensor<4x4xi32> to !pld.dtensor<*xi32>
// CHECK: %[[R:.*]] = call @__builtin_all_to_all__fp16(%[[I]], %[[T]], %[[S]]) {pl.core_num = 4 : i64, pl.sync_start} : (!pl.tensor<*xf16>, !pld.dtensor<*xf16>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf16>
// CHECK: %[[D:.*]] = pl.cast %[[R]] : !pld.dtensor<*xf16> to !pld.dtensor<32x64xf16>
// CHECK: return %[[D]]
// CHECK-LABEL: func.func private @__builtin_all_to_all__fp16
// CHECK-SAME: (%arg0: !pl.tensor<*xf16> {pl.direction = "in"}, %arg1: !pld.dtensor<*xf16> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf16>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all", pl.builtin_template_vars = "dtype_cpp=half", pl.func_kind = "aiv", pl.require_contiguous_operands}
func.func @a2a(%in: !pl.tensor<32x64xf16>, %out: !pld.dtensor<32x64xf16>, %s: !pld.dtensor<4x4xi32>) -> !pld.dtensor<32x64xf16>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all %in, %out, %s {core_num = 4 : i64}
      : !pl.tensor<32x64xf16>, !pld.dtensor<32x64xf16>, !pld.dtensor<4x4xi32> -> !pld.dtensor<32x64xf16>
  return %0 : !pld.dtensor<32x64xf16>
}

// -----

// input provably the target window (a cast of it): refused at the op.
// expected-note@+1 {{both are views of this parameter (#0)}}
func.func @input_is_target(%out: !pld.dtensor<8x4xi8>, %s: !pld.dtensor<4xi32>) -> !pld.dtensor<8x4xi8>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note@+1 {{operand 'input' is a view of it through this value}}
  %in = pl.cast %out : !pld.dtensor<8x4xi8> to !pl.tensor<8x4xi8>
  // expected-error@+1 {{'pld.tensor.all_to_all' op operands input and target must be different window allocations}}
  %0 = pld.tensor.all_to_all %in, %out, %s
      : !pl.tensor<8x4xi8>, !pld.dtensor<8x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xi8>
  return %0 : !pld.dtensor<8x4xi8>
}
