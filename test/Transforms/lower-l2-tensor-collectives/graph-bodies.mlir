// A graph function at chip level is a CHIP orchestration body too, including
// a collective nested in structured control flow.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-LABEL: func.func @graph
// CHECK: scf.if
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @graph(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                 %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %go: i1) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "graph", pl.level = "chip"} {
  %0 = scf.if %go -> !pld.dtensor<16x4xf32> {
    %x = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    scf.yield %x : !pld.dtensor<16x4xf32>
  } else {
    scf.yield %t : !pld.dtensor<16x4xf32>
  }
  return %0 : !pld.dtensor<16x4xf32>
}
