// Round-trip of !pld.dtensor: same parameters and normalization as !pl.tensor.
// RUN: pld-opt %s | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @shapes
// CHECK-SAME: !pld.dtensor<16x4xf32>
// CHECK-SAME: !pld.dtensor<?x4xi8>
// CHECK-SAME: !pld.dtensor<*xi32>
// CHECK-SAME: !pld.dtensor<2xi32>
func.func @shapes(%a: !pld.dtensor<16x4xf32>, %b: !pld.dtensor<?x4xi8>,
                  %c: !pld.dtensor<*xi32>, %d: !pld.dtensor<2xi32>) {
  return
}

// CHECK-LABEL: func.func @parameters
// CHECK-SAME: !pld.dtensor<8x16xf32, layout = dn, valid = [8, 8]>
// CHECK-SAME: !pld.dtensor<8x16xf16, layout = nz>
// CHECK-SAME: !pld.dtensor<8x16xf32, strides = [32, 1]>
// CHECK-SAME: !pld.dtensor<?x16xf32, valid = [?, 8]>
func.func @parameters(%a: !pld.dtensor<8x16xf32, layout = dn, valid = [8, 8]>,
                      %b: !pld.dtensor<8x16xf16, layout = nz>,
                      %c: !pld.dtensor<8x16xf32, strides = [32, 1]>,
                      %d: !pld.dtensor<?x16xf32, valid = [?, 8]>) {
  return
}

// CHECK-LABEL: func.func @defaults_normalized
// CHECK-SAME: (%{{.*}}: !pld.dtensor<4x4xf32>, %{{.*}}: !pld.dtensor<4x4xf32>, %{{.*}}: !pld.dtensor<2x8xi32>)
func.func @defaults_normalized(%a: !pld.dtensor<4x4xf32, layout = nd>,
                               %b: !pld.dtensor<4x4xf32, valid = [4, 4], strides = [4, 1]>,
                               %c: !pld.dtensor<2x8xi32, strides = [8, 1]>) {
  return
}

// !pl.tensor and !pld.dtensor of one shape are distinct types.
// CHECK-LABEL: func.func @distinct_from_tensor
// CHECK-SAME: (%{{.*}}: !pld.dtensor<4xf32>, %{{.*}}: !pl.tensor<4xf32>)
func.func @distinct_from_tensor(%a: !pld.dtensor<4xf32>, %b: !pl.tensor<4xf32>) {
  return
}
