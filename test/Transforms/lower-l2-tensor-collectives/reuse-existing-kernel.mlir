// An existing function that is exactly the synthesized kernel is reused, not
// duplicated or reported as a clash.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-COUNT-1: func.func private @__builtin_all_to_all_v__fp32(
// CHECK-NOT: func.func private @__builtin_all_to_all_v__fp32(
func.func private @__builtin_all_to_all_v__fp32(%input: !pl.tensor<*xf32> {pl.direction = "in"}, %target: !pld.dtensor<*xf32> {pl.direction = "inout"}, %signal: !pld.dtensor<*xi32> {pl.direction = "inout"}, %send_counts: !pl.tensor<*xi32> {pl.direction = "in"}, %recv_counts: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf32> attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv", pl.require_contiguous_operands} {
  return %target : !pld.dtensor<*xf32>
}

// CHECK-LABEL: func.func @chip
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}
