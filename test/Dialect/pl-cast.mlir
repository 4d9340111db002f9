// Round-trip of pl.cast over every allowed direction.
// RUN: pld-opt %s | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @tensor_to_tensor
// CHECK: pl.cast %{{.*}} : !pl.tensor<16x4xf32> to !pl.tensor<*xf32>
// CHECK: pl.cast %{{.*}} : !pl.tensor<*xf32> to !pl.tensor<?x4xf32>
// CHECK: pl.cast %{{.*}} : !pl.tensor<?x4xf32> to !pl.tensor<16x4xf32>
func.func @tensor_to_tensor(%a: !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32> {
  %0 = pl.cast %a : !pl.tensor<16x4xf32> to !pl.tensor<*xf32>
  %1 = pl.cast %0 : !pl.tensor<*xf32> to !pl.tensor<?x4xf32>
  %2 = pl.cast %1 : !pl.tensor<?x4xf32> to !pl.tensor<16x4xf32>
  return %2 : !pl.tensor<16x4xf32>
}

// CHECK-LABEL: func.func @dtensor_to_dtensor
// CHECK: pl.cast %{{.*}} : !pld.dtensor<2x8xi32> to !pld.dtensor<*xi32>
// CHECK: pl.cast %{{.*}} : !pld.dtensor<8x16xf32, layout = dn> to !pld.dtensor<?x16xf32, layout = dn>
func.func @dtensor_to_dtensor(%a: !pld.dtensor<2x8xi32>, %b: !pld.dtensor<8x16xf32, layout = dn>) {
  %0 = pl.cast %a : !pld.dtensor<2x8xi32> to !pld.dtensor<*xi32>
  %1 = pl.cast %b : !pld.dtensor<8x16xf32, layout = dn> to !pld.dtensor<?x16xf32, layout = dn>
  return
}

// The local view of a window.
// CHECK-LABEL: func.func @dtensor_to_tensor
// CHECK: pl.cast %{{.*}} : !pld.dtensor<2xi32> to !pl.tensor<*xi32>
func.func @dtensor_to_tensor(%a: !pld.dtensor<2xi32>) -> !pl.tensor<*xi32> {
  %0 = pl.cast %a : !pld.dtensor<2xi32> to !pl.tensor<*xi32>
  return %0 : !pl.tensor<*xi32>
}
