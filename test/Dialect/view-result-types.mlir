// The view op results the verifier accepts when their types state what the
// runtime produces (the refusals: invalid-view-result-types.mlir).
// RUN: pld-opt %s | FileCheck %s

// CHECK-LABEL: func.func @valid_follows_views
// CHECK: pl.tensor.set_validshape %{{.*}} {valid = array<i64: 3, 2>} : !pld.dtensor<8x2xf32> -> !pld.dtensor<8x2xf32, valid = [3, 2]>
// CHECK: pl.tensor.transpose %{{.*}} {perm = array<i64: 1, 0>} : !pld.dtensor<8x2xf32, valid = [3, 2]> -> !pld.dtensor<2x8xf32, valid = [2, 3]>
// CHECK: pl.tensor.reshape %{{.*}} : !pld.dtensor<8x2xf32, valid = [3, 2]> -> !pld.dtensor<6xf32>
// CHECK: pl.tensor.slice %{{.*}} {offsets = array<i64: 1, 0>, sizes = array<i64: 2, 2>} : (!pld.dtensor<8x2xf32, valid = [3, 2]>) -> !pld.dtensor<2x2xf32>
// CHECK: pl.tensor.view %{{.*}} {offsets = array<i64: 1, 0>} : !pld.dtensor<8x2xf32, valid = [3, 2]> -> !pld.dtensor<2x2xf32>
func.func @valid_follows_views(%t: !pld.dtensor<8x2xf32>) {
  %v = pl.tensor.set_validshape %t {valid = array<i64: 3, 2>} : !pld.dtensor<8x2xf32> -> !pld.dtensor<8x2xf32, valid = [3, 2]>
  %p = pl.tensor.transpose %v {perm = array<i64: 1, 0>} : !pld.dtensor<8x2xf32, valid = [3, 2]> -> !pld.dtensor<2x8xf32, valid = [2, 3]>
  %r = pl.tensor.reshape %v : !pld.dtensor<8x2xf32, valid = [3, 2]> -> !pld.dtensor<6xf32>
  %s = pl.tensor.slice %v {offsets = array<i64: 1, 0>, sizes = array<i64: 2, 2>} : (!pld.dtensor<8x2xf32, valid = [3, 2]>) -> !pld.dtensor<2x2xf32>
  %w = pl.tensor.view %v {offsets = array<i64: 1, 0>} : !pld.dtensor<8x2xf32, valid = [3, 2]> -> !pld.dtensor<2x2xf32>
  return
}

// An unranked result states no valid_shape.
// CHECK-LABEL: func.func @unranked
// CHECK: pl.tensor.set_validshape %{{.*}} {valid = array<i64: 3, 2>} : !pl.tensor<8x2xf32> -> !pl.tensor<*xf32>
func.func @unranked(%a: !pl.tensor<8x2xf32>) {
  %v = pl.tensor.set_validshape %a {valid = array<i64: 3, 2>} : !pl.tensor<8x2xf32> -> !pl.tensor<*xf32>
  return
}
