// Every op also parses in the generic form, with inherent attributes written
// in the `{...}` dictionary; the custom printer reads it back.
// RUN: pld-opt %s | pld-opt | FileCheck %s
// The generic printout (`<{...}>` properties) parses too.
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @collectives
// CHECK: pld.tensor.all_to_all_v %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {core_num = 1 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
// CHECK: pld.tensor.all_to_all_v {{.*}} core_num(%{{.*}}) : !pld.dtensor<16x4xf32>
// CHECK: pld.tensor.indexed_all_to_all_v {{.*}} {core_num = 2 : i64} : {{.*}}, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
func.func @collectives(%s: !pld.dtensor<16x4xf32>, %d: !pld.dtensor<16x4xf32>,
                       %g: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>,
                       %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>, %n: i64) {
  %0 = "pld.tensor.all_to_all_v"(%s, %d, %g, %c, %r) {core_num = 1 : i64}
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  %1 = "pld.tensor.all_to_all_v"(%s, %d, %g, %c, %r, %n)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, i64) -> !pld.dtensor<16x4xf32>
  %2 = "pld.tensor.indexed_all_to_all_v"(%s, %d, %g, %c, %r, %i) {core_num = 2 : i64}
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
  return
}

// CHECK-LABEL: func.func @tensor_ops
// CHECK: pl.tensor.create : !pl.tensor<16x8xf32>
// CHECK: pl.tensor.reshape %{{.*}} : !pl.tensor<16x8xf32> -> !pl.tensor<128xf32>
// CHECK: pl.tensor.view %{{.*}} {offsets = array<i64: 8, 0>} : !pl.tensor<16x8xf32> -> !pl.tensor<8x8xf32>
// CHECK: pl.tensor.set_validshape %{{.*}} {valid = array<i64: 4, 8>} : !pl.tensor<16x8xf32> -> !pl.tensor<16x8xf32, valid = [4, 8]>
// CHECK: pl.tensor.transpose %{{.*}} {perm = array<i64: 1, 0>} : !pl.tensor<16x8xf32> -> !pl.tensor<8x16xf32>
// CHECK: pl.tensor.slice %{{.*}} {offsets = array<i64: 4, 0>, sizes = array<i64: 4, 8>} : (!pl.tensor<16x8xf32>) -> !pl.tensor<4x8xf32>
// CHECK: pl.tensor.slice %{{.*}}[%{{.*}}, %{{.*}}] {sizes = array<i64: 4, 8>} : (!pl.tensor<16x8xf32>, index, index) -> !pl.tensor<4x8xf32>
// CHECK: pl.tensor.assemble %{{.*}} into %{{.*}} {offsets = array<i64: 0, 0>} : !pl.tensor<4x8xf32> into !pl.tensor<16x8xf32>
// CHECK: pl.tensor.write %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : f32 into !pl.tensor<16x8xf32>, index, index
// CHECK: pl.cast %{{.*}} : !pl.tensor<16x8xf32> to !pl.tensor<*xf32>
func.func @tensor_ops(%v: f32, %k: index) {
  %t = "pl.tensor.create"() : () -> !pl.tensor<16x8xf32>
  %0 = "pl.tensor.reshape"(%t) : (!pl.tensor<16x8xf32>) -> !pl.tensor<128xf32>
  %1 = "pl.tensor.view"(%t) {offsets = array<i64: 8, 0>} : (!pl.tensor<16x8xf32>) -> !pl.tensor<8x8xf32>
  %2 = "pl.tensor.set_validshape"(%t) {valid = array<i64: 4, 8>} : (!pl.tensor<16x8xf32>) -> !pl.tensor<16x8xf32, valid = [4, 8]>
  %3 = "pl.tensor.transpose"(%t) {perm = array<i64: 1, 0>} : (!pl.tensor<16x8xf32>) -> !pl.tensor<8x16xf32>
  %4 = "pl.tensor.slice"(%t) {offsets = array<i64: 4, 0>, sizes = array<i64: 4, 8>} : (!pl.tensor<16x8xf32>) -> !pl.tensor<4x8xf32>
  %5 = "pl.tensor.slice"(%t, %k, %k) {sizes = array<i64: 4, 8>} : (!pl.tensor<16x8xf32>, index, index) -> !pl.tensor<4x8xf32>
  %6 = "pl.tensor.assemble"(%t, %4) {offsets = array<i64: 0, 0>} : (!pl.tensor<16x8xf32>, !pl.tensor<4x8xf32>) -> !pl.tensor<16x8xf32>
  %7 = "pl.tensor.write"(%t, %v, %k, %k) : (!pl.tensor<16x8xf32>, f32, index, index) -> !pl.tensor<16x8xf32>
  %8 = "pl.cast"(%t) : (!pl.tensor<16x8xf32>) -> !pl.tensor<*xf32>
  return
}

// The operand passes parameter #0; the runtime allocates parameter #1 for result #0.
func.func private @kernel(!pl.tensor<16x8xf32>, !pl.tensor<16x8xf32> {pl.direction = "out"}) -> !pl.tensor<16x8xf32>

// CHECK-LABEL: func.func @host
// CHECK: %[[B:.*]] = pld.window_buffer {bytes = 1024 : i64} : !pld.window_buffer
// CHECK: pld.window %[[B]] {offset = 512 : i64} : !pld.dtensor<16x8xf32>
// CHECK: pl.submit @kernel(%{{.*}}) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<16x8xf32>) -> !pl.tensor<16x8xf32>
func.func @host(%t: !pl.tensor<16x8xf32>) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b = "pld.window_buffer"() {bytes = 1024 : i64} : () -> !pld.window_buffer
  %w = "pld.window"(%b) {offset = 512 : i64} : (!pld.window_buffer) -> !pld.dtensor<16x8xf32>
  %r = "pl.submit"(%t) {callee = @kernel, runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<16x8xf32>) -> !pl.tensor<16x8xf32>
  return
}

// CHECK-LABEL: func.func @incore
// CHECK: pld.system.nranks : i64
func.func @incore() attributes {pl.func_kind = "aiv"} {
  %n = "pld.system.nranks"() : () -> i64
  return
}
