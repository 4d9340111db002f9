// Round-trip of the pl.tensor.* ops in their custom assembly.
// RUN: pld-opt %s | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @create
// CHECK: %[[T:.*]] = pl.tensor.create : !pl.tensor<16x4xf32>
// CHECK: pl.tensor.create : !pl.tensor<?x4xf32, layout = dn>
func.func @create() -> !pl.tensor<16x4xf32> {
  %t = pl.tensor.create : !pl.tensor<16x4xf32>
  %d = pl.tensor.create : !pl.tensor<?x4xf32, layout = dn>
  return %t : !pl.tensor<16x4xf32>
}

// CHECK-LABEL: func.func @reshape
// CHECK: pl.tensor.reshape %{{.*}} : !pl.tensor<16x4xf32> -> !pl.tensor<64xf32>
// CHECK: pl.tensor.reshape %{{.*}} : !pl.tensor<16x4xf32> -> !pl.tensor<?x8xf32>
// CHECK: pl.tensor.reshape %{{.*}} : !pld.dtensor<2x8xi32> -> !pld.dtensor<*xi32>
func.func @reshape(%a: !pl.tensor<16x4xf32>, %b: !pld.dtensor<2x8xi32>) {
  %0 = pl.tensor.reshape %a : !pl.tensor<16x4xf32> -> !pl.tensor<64xf32>
  %1 = pl.tensor.reshape %a : !pl.tensor<16x4xf32> -> !pl.tensor<?x8xf32>
  %2 = pl.tensor.reshape %b : !pld.dtensor<2x8xi32> -> !pld.dtensor<*xi32>
  return
}

// CHECK-LABEL: func.func @view
// CHECK: pl.tensor.view %{{.*}} : !pl.tensor<16x4xf32> -> !pl.tensor<8x4xf32>
// CHECK: pl.tensor.view %{{.*}} {offsets = array<i64: 8, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<8x4xf32>
func.func @view(%a: !pl.tensor<16x4xf32>) {
  %0 = pl.tensor.view %a : !pl.tensor<16x4xf32> -> !pl.tensor<8x4xf32>
  %1 = pl.tensor.view %a {offsets = array<i64: 8, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<8x4xf32>
  return
}

// CHECK-LABEL: func.func @set_validshape
// CHECK: pl.tensor.set_validshape %{{.*}} {valid = array<i64: 8, 2>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32, valid = [8, 2]>
func.func @set_validshape(%a: !pl.tensor<16x4xf32>) {
  %0 = pl.tensor.set_validshape %a {valid = array<i64: 8, 2>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32, valid = [8, 2]>
  return
}

// CHECK-LABEL: func.func @transpose
// CHECK: pl.tensor.transpose %{{.*}} {perm = array<i64: 1, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<4x16xf32>
// CHECK: pl.tensor.transpose %{{.*}} {perm = array<i64: 1, 0>} : !pl.tensor<?x4xf32> -> !pl.tensor<4x?xf32>
func.func @transpose(%a: !pl.tensor<16x4xf32>, %b: !pl.tensor<?x4xf32>) {
  %0 = pl.tensor.transpose %a {perm = array<i64: 1, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<4x16xf32>
  %1 = pl.tensor.transpose %b {perm = array<i64: 1, 0>} : !pl.tensor<?x4xf32> -> !pl.tensor<4x?xf32>
  return
}

// Literal offsets (attribute) and runtime offsets (one operand per dim).
// CHECK-LABEL: func.func @slice
// CHECK: pl.tensor.slice %{{.*}} {offsets = array<i64: 4, 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<4x4xf32>
// CHECK: pl.tensor.slice %{{.*}}[%{{.*}}, %{{.*}}] {sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>, index, i64) -> !pl.tensor<4x4xf32>
func.func @slice(%a: !pl.tensor<16x4xf32>, %i: index, %j: i64) {
  %0 = pl.tensor.slice %a {offsets = array<i64: 4, 0>, sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<4x4xf32>
  %1 = pl.tensor.slice %a[%i, %j] {sizes = array<i64: 4, 4>} : (!pl.tensor<16x4xf32>, index, i64) -> !pl.tensor<4x4xf32>
  return
}

// CHECK-LABEL: func.func @assemble
// CHECK: pl.tensor.assemble %{{.*}} into %{{.*}} {offsets = array<i64: 12, 0>} : !pl.tensor<4x4xf32> into !pld.dtensor<16x4xf32>
func.func @assemble(%t: !pld.dtensor<16x4xf32>, %s: !pl.tensor<4x4xf32>) -> !pld.dtensor<16x4xf32> {
  %0 = pl.tensor.assemble %s into %t {offsets = array<i64: 12, 0>} : !pl.tensor<4x4xf32> into !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @write
// CHECK: pl.tensor.write %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : f32 into !pl.tensor<16x4xf32>, index, index
// CHECK: pl.tensor.write %{{.*}} into %{{.*}}[%{{.*}}] : i32 into !pld.dtensor<2xi32>, i64
func.func @write(%t: !pl.tensor<16x4xf32>, %c: !pld.dtensor<2xi32>, %v: f32, %n: i32, %i: index, %k: i64) {
  %0 = pl.tensor.write %v into %t[%i, %i] : f32 into !pl.tensor<16x4xf32>, index, index
  %1 = pl.tensor.write %n into %c[%k] : i32 into !pld.dtensor<2xi32>, i64
  return
}

// A view of a window may stay a window (dtensor -> dtensor) or be its local
// view (dtensor -> tensor); only tensor -> dtensor is refused.
// CHECK-LABEL: func.func @window_views
// CHECK: pl.tensor.reshape %{{.*}} : !pld.dtensor<16x4xf32> -> !pld.dtensor<64xf32>
// CHECK: pl.tensor.reshape %{{.*}} : !pld.dtensor<16x4xf32> -> !pl.tensor<64xf32>
// CHECK: pl.tensor.view %{{.*}} {offsets = array<i64: 8, 0>} : !pld.dtensor<16x4xf32> -> !pld.dtensor<8x4xf32>
// CHECK: pl.tensor.view %{{.*}} : !pld.dtensor<16x4xf32> -> !pl.tensor<8x4xf32>
// CHECK: pl.tensor.set_validshape %{{.*}} {valid = array<i64: 8, 2>} : !pld.dtensor<16x4xf32> -> !pld.dtensor<16x4xf32, valid = [8, 2]>
// CHECK: pl.tensor.transpose %{{.*}} {perm = array<i64: 1, 0>} : !pld.dtensor<16x4xf32> -> !pl.tensor<4x16xf32>
// CHECK: pl.tensor.slice %{{.*}} {offsets = array<i64: 4, 0>, sizes = array<i64: 4, 4>} : (!pld.dtensor<16x4xf32>) -> !pld.dtensor<4x4xf32>
func.func @window_views(%w: !pld.dtensor<16x4xf32>) {
  %0 = pl.tensor.reshape %w : !pld.dtensor<16x4xf32> -> !pld.dtensor<64xf32>
  %1 = pl.tensor.reshape %w : !pld.dtensor<16x4xf32> -> !pl.tensor<64xf32>
  %2 = pl.tensor.view %w {offsets = array<i64: 8, 0>} : !pld.dtensor<16x4xf32> -> !pld.dtensor<8x4xf32>
  %3 = pl.tensor.view %w : !pld.dtensor<16x4xf32> -> !pl.tensor<8x4xf32>
  %4 = pl.tensor.set_validshape %w {valid = array<i64: 8, 2>} : !pld.dtensor<16x4xf32> -> !pld.dtensor<16x4xf32, valid = [8, 2]>
  %5 = pl.tensor.transpose %w {perm = array<i64: 1, 0>} : !pld.dtensor<16x4xf32> -> !pl.tensor<4x16xf32>
  %6 = pl.tensor.slice %w {offsets = array<i64: 4, 0>, sizes = array<i64: 4, 4>} : (!pld.dtensor<16x4xf32>) -> !pld.dtensor<4x4xf32>
  return
}
