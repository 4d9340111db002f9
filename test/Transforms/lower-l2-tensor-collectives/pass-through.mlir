// Only CHIP orchestration bodies are this rail's: InCore bodies belong to the
// composite rail, HOST orchestrators to the HOST rail, and unclassified
// functions to nobody. All keep their collective and no kernel is synthesized.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s

// CHECK-LABEL: func.func @incore
// CHECK: pld.tensor.all_to_all_v
func.func @incore(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                  %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "incore"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @host
// CHECK: pld.tensor.all_to_all_v
func.func @host(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %n: i64) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // A runtime core_num is fine here: the HOST rail computes B at runtime.
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @unclassified
// CHECK: pld.tensor.all_to_all_v
func.func @unclassified(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                        %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32> {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-NOT: __builtin_all_to_all_v
