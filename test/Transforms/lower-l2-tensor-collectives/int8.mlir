// INT8 (RFC #2521's canonical A1 payload) synthesizes the int8 variant,
// rendered with dtype_cpp=int8_t.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-LABEL: func.func @chip_i8
// CHECK: %[[C:.*]] = call @__builtin_all_to_all_v__int8({{.*}}) : (!pl.tensor<*xi8>, !pld.dtensor<*xi8>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xi8>
// CHECK: pl.cast %[[C]] : !pld.dtensor<*xi8> to !pld.dtensor<32x64xi8>
func.func @chip_i8(%in: !pld.dtensor<32x64xi8>, %t: !pld.dtensor<32x64xi8>, %s: !pld.dtensor<4x4xi32>,
                   %c: !pld.dtensor<4x1xi32>, %r: !pld.dtensor<4x1xi32>) -> !pld.dtensor<32x64xi8>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<32x64xi8>, !pld.dtensor<32x64xi8>, !pld.dtensor<4x4xi32>, !pld.dtensor<4x1xi32>, !pld.dtensor<4x1xi32> -> !pld.dtensor<32x64xi8>
  return %0 : !pld.dtensor<32x64xi8>
}

// CHECK-LABEL: func.func private @__builtin_all_to_all_v__int8
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=int8_t"
// CHECK-NOT: __builtin_all_to_all_v__fp32
