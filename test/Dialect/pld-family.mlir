// Round-trip of the collective family (docs/spec/family.md): the custom form
// (attributes in the dictionary), the generic form, defaults left absent,
// [NR] and [NR, S] signals, dynamic and unranked operands, unused results.
// RUN: pld-opt %s | pld-opt | FileCheck %s
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @allreduce
// CHECK: %[[A:.*]] = pld.tensor.allreduce %{{.*}}, %{{.*}} {core_num = 2 : i64, reduce = "sum"} : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
// CHECK: pld.tensor.allreduce %[[A]], %{{.*}} {mode = "ring", reduce = "prod"} : !pld.dtensor<64x128xf32>, !pld.dtensor<7x4xi32> -> !pld.dtensor<64x128xf32>
// CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}} {mode = "mesh", reduce = "max"} : !pld.dtensor<?x8xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<?x8xf16>
// CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}} {reduce = "min"} : !pld.dtensor<*xi32>, !pld.dtensor<*xi32> -> !pld.dtensor<*xi32>
func.func @allreduce(%t: !pld.dtensor<64x128xf32>, %s: !pld.dtensor<4x2xi32>, %ring: !pld.dtensor<7x4xi32>,
                     %h: !pld.dtensor<?x8xf16>, %s1: !pld.dtensor<4xi32>, %u: !pld.dtensor<*xi32>,
                     %su: !pld.dtensor<*xi32>) -> !pld.dtensor<64x128xf32> {
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 2 : i64}
      : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
  %1 = "pld.tensor.allreduce"(%0, %ring) {reduce = "prod", mode = "ring"}
      : (!pld.dtensor<64x128xf32>, !pld.dtensor<7x4xi32>) -> !pld.dtensor<64x128xf32>
  %2 = pld.tensor.allreduce %h, %s1 {reduce = "max", mode = "mesh"}
      : !pld.dtensor<?x8xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<?x8xf16>
  %3 = pld.tensor.allreduce %u, %su {reduce = "min"}
      : !pld.dtensor<*xi32>, !pld.dtensor<*xi32> -> !pld.dtensor<*xi32>
  return %1 : !pld.dtensor<64x128xf32>
}

// CHECK-LABEL: func.func @reduce_scatter
// CHECK: pld.tensor.reduce_scatter %{{.*}}, %{{.*}} {reduce = "max"} : !pld.dtensor<16x8xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xf16>
// CHECK: pld.tensor.reduce_scatter %{{.*}}, %{{.*}} {core_num = 4 : i64, reduce = "sum"} : !pld.dtensor<8x2x3xi32>, !pld.dtensor<4x4xi32> -> !pld.dtensor<8x2x3xi32>
func.func @reduce_scatter(%t: !pld.dtensor<16x8xf16>, %s: !pld.dtensor<4xi32>, %i: !pld.dtensor<8x2x3xi32>, %s4: !pld.dtensor<4x4xi32>) {
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "max"}
      : !pld.dtensor<16x8xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xf16>
  %1 = "pld.tensor.reduce_scatter"(%i, %s4) {reduce = "sum", core_num = 4 : i64}
      : (!pld.dtensor<8x2x3xi32>, !pld.dtensor<4x4xi32>) -> !pld.dtensor<8x2x3xi32>
  return
}

// CHECK-LABEL: func.func @allgather
// CHECK: pld.tensor.allgather %{{.*}}, %{{.*}}, %{{.*}} : !pl.tensor<4x32xi8>, !pld.dtensor<16x32xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x32xi8>
// CHECK: pld.tensor.allgather %{{.*}}, %{{.*}}, %{{.*}} {core_num = 2 : i64} : !pld.dtensor<?x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<16x32xf32>
func.func @allgather(%in: !pl.tensor<4x32xi8>, %all: !pld.dtensor<16x32xi8>, %s: !pld.dtensor<4xi32>,
                     %win: !pld.dtensor<?x32xf32>, %allf: !pld.dtensor<16x32xf32>, %s2: !pld.dtensor<4x2xi32>) {
  %0 = pld.tensor.allgather %in, %all, %s
      : !pl.tensor<4x32xi8>, !pld.dtensor<16x32xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x32xi8>
  %1 = "pld.tensor.allgather"(%win, %allf, %s2) {core_num = 2 : i64}
      : (!pld.dtensor<?x32xf32>, !pld.dtensor<16x32xf32>, !pld.dtensor<4x2xi32>) -> !pld.dtensor<16x32xf32>
  return
}

// CHECK-LABEL: func.func @broadcast
// CHECK: pld.tensor.broadcast %{{.*}}, %{{.*}} {root = 0 : i64} : !pld.dtensor<8x16xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x16xi32>
// CHECK: pld.tensor.broadcast %{{.*}}, %{{.*}} {core_num = 2 : i64, root = 3 : i64} : !pld.dtensor<5xf16>, !pld.dtensor<4x2xi32> -> !pld.dtensor<5xf16>
func.func @broadcast(%t: !pld.dtensor<8x16xi32>, %s: !pld.dtensor<4xi32>, %h: !pld.dtensor<5xf16>, %s2: !pld.dtensor<4x2xi32>) {
  %0 = pld.tensor.broadcast %t, %s {root = 0 : i64}
      : !pld.dtensor<8x16xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x16xi32>
  %1 = "pld.tensor.broadcast"(%h, %s2) {root = 3 : i64, core_num = 2 : i64}
      : (!pld.dtensor<5xf16>, !pld.dtensor<4x2xi32>) -> !pld.dtensor<5xf16>
  return
}

// CHECK-LABEL: func.func @all_to_all
// CHECK: pld.tensor.all_to_all %{{.*}}, %{{.*}}, %{{.*}} {core_num = 4 : i64} : !pl.tensor<32x64xf16>, !pld.dtensor<32x64xf16>, !pld.dtensor<4x4xi32> -> !pld.dtensor<32x64xf16>
// CHECK: pld.tensor.all_to_all %{{.*}}, %{{.*}}, %{{.*}} : !pld.dtensor<*xi8>, !pld.dtensor<8xi8>, !pld.dtensor<?xi32> -> !pld.dtensor<8xi8>
func.func @all_to_all(%in: !pl.tensor<32x64xf16>, %out: !pld.dtensor<32x64xf16>, %s: !pld.dtensor<4x4xi32>,
                      %u: !pld.dtensor<*xi8>, %o: !pld.dtensor<8xi8>, %sd: !pld.dtensor<?xi32>) {
  %0 = pld.tensor.all_to_all %in, %out, %s {core_num = 4 : i64}
      : !pl.tensor<32x64xf16>, !pld.dtensor<32x64xf16>, !pld.dtensor<4x4xi32> -> !pld.dtensor<32x64xf16>
  %1 = "pld.tensor.all_to_all"(%u, %o, %sd)
      : (!pld.dtensor<*xi8>, !pld.dtensor<8xi8>, !pld.dtensor<?xi32>) -> !pld.dtensor<8xi8>
  return
}

// CHECK-LABEL: func.func @barrier
// CHECK: %[[B:.*]] = pld.tensor.barrier %{{.*}} : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
// CHECK: pld.tensor.barrier %[[B]] : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
// CHECK: pld.tensor.barrier %{{.*}} : !pld.dtensor<4x8xi32> -> !pld.dtensor<4x8xi32>
func.func @barrier(%s: !pld.dtensor<4xi32>, %s8: !pld.dtensor<4x8xi32>) {
  %0 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  %1 = "pld.tensor.barrier"(%0) : (!pld.dtensor<4xi32>) -> !pld.dtensor<4xi32>
  %2 = pld.tensor.barrier %s8 : !pld.dtensor<4x8xi32> -> !pld.dtensor<4x8xi32>
  return
}

// CHECK-LABEL: func.func @vocabulary
// CHECK: pld.tensor.reduce %{{.*}}, %{{.*}} {reduce = "sum", root = 0 : i64} : !pld.dtensor<1x8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<1x8xf32>
// CHECK: pld.tensor.reduce %{{.*}}, %{{.*}} {core_num = 2 : i64, reduce = "max", root = 3 : i64} : !pld.dtensor<?x8xf16>, !pld.dtensor<4x2xi32> -> !pld.dtensor<?x8xf16>
// CHECK: pld.tensor.gather %{{.*}}, %{{.*}}, %{{.*}} {root = 1 : i64} : !pl.tensor<4x16xi8>, !pld.dtensor<16x16xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x16xi8>
// CHECK: pld.tensor.scatter %{{.*}}, %{{.*}}, %{{.*}} {core_num = 2 : i64, root = 0 : i64} : !pld.dtensor<16x16xi32>, !pld.dtensor<4x16xi32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<4x16xi32>
// CHECK: pld.tensor.permute %{{.*}}, %{{.*}}, %{{.*}} {pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : !pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
// CHECK: pld.tensor.permute %{{.*}}, %{{.*}}, %{{.*}} {pairs = dense<> : tensor<0x2xi64>} : !pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
func.func @vocabulary(%loss: !pld.dtensor<1x8xf32>, %s: !pld.dtensor<4xi32>, %h: !pld.dtensor<?x8xf16>, %s2: !pld.dtensor<4x2xi32>,
                      %part: !pl.tensor<4x16xi8>, %all: !pld.dtensor<16x16xi8>, %batch: !pld.dtensor<16x16xi32>,
                      %mine: !pld.dtensor<4x16xi32>, %act: !pl.tensor<4x16xf32>, %next: !pld.dtensor<4x16xf32>) {
  %0 = pld.tensor.reduce %loss, %s {reduce = "sum", root = 0 : i64}
      : !pld.dtensor<1x8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<1x8xf32>
  %1 = "pld.tensor.reduce"(%h, %s2) {reduce = "max", root = 3 : i64, core_num = 2 : i64}
      : (!pld.dtensor<?x8xf16>, !pld.dtensor<4x2xi32>) -> !pld.dtensor<?x8xf16>
  %2 = pld.tensor.gather %part, %all, %s {root = 1 : i64}
      : !pl.tensor<4x16xi8>, !pld.dtensor<16x16xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x16xi8>
  %3 = "pld.tensor.scatter"(%batch, %mine, %s2) {root = 0 : i64, core_num = 2 : i64}
      : (!pld.dtensor<16x16xi32>, !pld.dtensor<4x16xi32>, !pld.dtensor<4x2xi32>) -> !pld.dtensor<4x16xi32>
  %4 = pld.tensor.permute %act, %next, %s {pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}
      : !pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
  %5 = "pld.tensor.permute"(%act, %4, %s) {pairs = dense<> : tensor<0x2xi64>}
      : (!pl.tensor<4x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32>) -> !pld.dtensor<4x16xf32>
  return
}
