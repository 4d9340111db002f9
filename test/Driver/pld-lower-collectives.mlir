// The registered pipeline flag runs its passes on the top-level module, both
// as a flag and as a --pass-pipeline element (a pipeline registered as
// `builtin.module(...)` must not nest a second, never-run module manager).
// RUN: pld-opt %s --pld-lower-collectives | FileCheck %s --implicit-check-not=pld.tensor.all_to_all_v
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-lower-collectives)' | FileCheck %s --implicit-check-not=pld.tensor.all_to_all_v

// CHECK-LABEL: func.func @chip
// CHECK: call @__builtin_all_to_all_v__fp32(
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}
// CHECK-LABEL: func.func private @__builtin_all_to_all_v__fp32
