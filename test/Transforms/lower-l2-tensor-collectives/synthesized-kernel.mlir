// The synthesized kernel: canonical signature (input/send_counts plain
// tensors, the other three windows), directions in/inout/inout/in/inout, a
// body that returns the target argument, and the template attributes.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-LABEL: func.func @chip
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @chip(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func private @__builtin_all_to_all_v__fp32(
// CHECK-SAME: %[[IN:[^:]*]]: !pl.tensor<*xf32> {pl.direction = "in"},
// CHECK-SAME: %[[TGT:[^:]*]]: !pld.dtensor<*xf32> {pl.direction = "inout"},
// CHECK-SAME: %{{[^:]*}}: !pld.dtensor<*xi32> {pl.direction = "inout"},
// CHECK-SAME: %{{[^:]*}}: !pl.tensor<*xi32> {pl.direction = "in"},
// CHECK-SAME: %{{[^:]*}}: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf32>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-NEXT: return %[[TGT]] : !pld.dtensor<*xf32>
// CHECK-NEXT: }

// -----

// The kernel is built as ops, located at the collective that needed it (a
// NameLoc of its symbol; its parameters named after the operands).
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// LOC: #[[COLL:loc[0-9]+]] = loc("{{.*}}synthesized-kernel.mlir":[[# @LINE + 9]]:8)
// LOC: func.func @located
// LOC: call @__builtin_all_to_all_v__fp32({{.*}} loc(#[[COLL]])
// LOC: func.func private @__builtin_all_to_all_v__fp32(%{{[^:]*}}: !pl.tensor<*xf32> {pl.direction = "in"} loc("input"(#[[COLL]])), %{{[^:]*}}: !pld.dtensor<*xf32> {pl.direction = "inout"} loc("target"(#[[COLL]]))
// LOC: } loc(#[[K:loc[0-9]+]])
// LOC-DAG: #[[K]] = loc("__builtin_all_to_all_v__fp32"(#[[COLL]]))
func.func @located(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                   %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}
