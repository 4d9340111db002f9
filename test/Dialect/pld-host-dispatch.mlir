// Round-trip of pld.host.dispatch (custom and generic forms), including a
// callee without parameters, whose argument types print as `()`, with and
// without core_num.
// RUN: pld-opt %s | pld-opt | FileCheck %s
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt | FileCheck %s
// RUN: pld-opt %s | pld-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: pld-opt %s --pld-lower-collectives | pld-opt | FileCheck %s

func.func @none() attributes {pl.func_kind = "orchestration"} {
  return
}

func.func @two(%a: !pl.tensor<16x4xf32>, %b: !pl.tensor<16x4xf32>)
    attributes {pl.func_kind = "orchestration"} {
  return
}

// CHECK-LABEL: func.func @host
// CHECK: pld.host.dispatch @none() on %{{.*}} : (), index
// CHECK: pld.host.dispatch @none() on %{{.*}} core_num(%{{[a-z0-9]+}}){{.*}} : (), index
// CHECK: pld.host.dispatch @none() on %{{.*}} : (), i32
// CHECK: pld.host.dispatch @two(%{{.*}}, %{{.*}}) on %{{.*}} : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>), index
// CHECK: pld.host.dispatch @two(%{{.*}}, %{{.*}}) on %{{.*}} core_num(%{{[a-z0-9]+}}){{.*}} : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>), index
// GENERIC-LABEL: sym_name = "host"
// GENERIC: "pld.host.dispatch"(%{{.*}}) <{callee = @none, operandSegmentSizes = array<i32: 0, 1, 0>}> : (index) -> ()
// GENERIC: "pld.host.dispatch"(%{{.*}}, %{{.*}}) <{callee = @none, operandSegmentSizes = array<i32: 0, 1, 1>}> : (index, i64) -> ()
// GENERIC: "pld.host.dispatch"(%{{.*}}) <{callee = @none, operandSegmentSizes = array<i32: 0, 1, 0>}> : (i32) -> ()
func.func @host(%a: !pl.tensor<16x4xf32>, %b: !pl.tensor<16x4xf32>, %dev: index, %d32: i32, %n: i64)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  pld.host.dispatch @none() on %dev : (), index
  pld.host.dispatch @none() on %dev core_num(%n) : ( ), index
  "pld.host.dispatch"(%d32) {callee = @none, operandSegmentSizes = array<i32: 0, 1, 0>} : (i32) -> ()
  pld.host.dispatch @two(%a, %b) on %dev : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>), index
  pld.host.dispatch @two(%a, %b) on %dev core_num(%n) : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>), index
  return
}
