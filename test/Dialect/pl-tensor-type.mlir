// Round-trip of !pl.tensor: shapes, `?`, unranked, keyword parameters, and
// defaults normalized away when printed.
// RUN: pld-opt %s | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @shapes
// CHECK-SAME: !pl.tensor<2x16xf32>
// CHECK-SAME: !pl.tensor<?x16xi8>
// CHECK-SAME: !pl.tensor<?x?xbf16>
// CHECK-SAME: !pl.tensor<*xf32>
// CHECK-SAME: !pl.tensor<f16>
// CHECK-SAME: !pl.tensor<0x4xi64>
func.func @shapes(%a: !pl.tensor<2x16xf32>, %b: !pl.tensor<?x16xi8>,
                  %c: !pl.tensor<?x?xbf16>, %d: !pl.tensor<*xf32>,
                  %e: !pl.tensor<f16>, %f: !pl.tensor<0x4xi64>) {
  return
}

// CHECK-LABEL: func.func @element_types
// CHECK-SAME: !pl.tensor<4xf32>, %{{.*}}: !pl.tensor<4xf16>, %{{.*}}: !pl.tensor<4xbf16>, %{{.*}}: !pl.tensor<4xi8>, %{{.*}}: !pl.tensor<4xi32>, %{{.*}}: !pl.tensor<4xi64>)
func.func @element_types(%a: !pl.tensor<4xf32>, %b: !pl.tensor<4xf16>,
                         %c: !pl.tensor<4xbf16>, %d: !pl.tensor<4xi8>,
                         %e: !pl.tensor<4xi32>, %f: !pl.tensor<4xi64>) {
  return
}

// CHECK-LABEL: func.func @parameters
// CHECK-SAME: !pl.tensor<8x16xf32, layout = dn>
// CHECK-SAME: !pl.tensor<8x16xf32, layout = nz, valid = [8, 8]>
// CHECK-SAME: !pl.tensor<8x16xf32, valid = [?, 16]>
// CHECK-SAME: !pl.tensor<8x16xf32, strides = [32, 1]>
// CHECK-SAME: !pl.tensor<8x16xf32, layout = dn, valid = [4, 16], strides = [1, 8]>
// CHECK-SAME: !pl.tensor<4x?xf32, strides = [?, 1]>
func.func @parameters(%a: !pl.tensor<8x16xf32, layout = dn>,
                      %b: !pl.tensor<8x16xf32, layout = nz, valid = [8, 8]>,
                      %c: !pl.tensor<8x16xf32, valid = [?, 16]>,
                      %d: !pl.tensor<8x16xf32, strides = [32, 1]>,
                      %e: !pl.tensor<8x16xf32, layout = dn, valid = [4, 16], strides = [1, 8]>,
                      %f: !pl.tensor<4x?xf32, strides = [?, 1]>) {
  return
}

// Defaults are dropped: `layout = nd`, a valid equal to the shape, packed
// row-major strides (also where only a leading dim is `?`).
// CHECK-LABEL: func.func @defaults_normalized
// CHECK-SAME: (%{{.*}}: !pl.tensor<4x4xf32>, %{{.*}}: !pl.tensor<4x4xf32>, %{{.*}}: !pl.tensor<4x4xf32>, %{{.*}}: !pl.tensor<4x4xf32>, %{{.*}}: !pl.tensor<?x4xf32>, %{{.*}}: !pl.tensor<?x4xf32>, %{{.*}}: !pl.tensor<f32>)
func.func @defaults_normalized(%a: !pl.tensor<4x4xf32, layout = nd>,
                               %b: !pl.tensor<4x4xf32, valid = [4, 4]>,
                               %c: !pl.tensor<4x4xf32, strides = [4, 1]>,
                               %d: !pl.tensor<4x4xf32, layout = nd, valid = [4, 4], strides = [4, 1]>,
                               %e: !pl.tensor<?x4xf32, valid = [?, 4]>,
                               %f: !pl.tensor<?x4xf32, strides = [4, 1]>,
                               %g: !pl.tensor<f32, valid = []>) {
  return
}

// A normalized type *is* the default one: both arguments have one type, so
// the return type-checks.
// CHECK-LABEL: func.func @same_type
// CHECK-SAME: (%[[A:.*]]: !pl.tensor<4x4xf32>) -> !pl.tensor<4x4xf32>
// CHECK-NEXT: return %[[A]] : !pl.tensor<4x4xf32>
func.func @same_type(%a: !pl.tensor<4x4xf32, layout = nd, strides = [4, 1]>) -> !pl.tensor<4x4xf32> {
  return %a : !pl.tensor<4x4xf32>
}
