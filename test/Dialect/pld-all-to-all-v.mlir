// Round-trip of pld.tensor.all_to_all_v and pld.tensor.indexed_all_to_all_v:
// compile-time core_num attribute, runtime dynamic_core_num operand, the
// [NR, 1] counts shape and unused results (the op is not Pure).
// RUN: pld-opt %s | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @static_core_num
// CHECK: %[[D:.*]] = pld.tensor.all_to_all_v %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {core_num = 1 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
// CHECK: return %[[D]]
func.func @static_core_num(%stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                           %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                           %recv: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32> {
  %0 = pld.tensor.all_to_all_v %stage, %data, %signal, %counts, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @dynamic_core_num
// CHECK-SAME: %[[N:[^:]*]]: i64
// CHECK: pld.tensor.all_to_all_v %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} core_num(%[[N]]) : !pl.tensor<16x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<2x8xi32>, !pl.tensor<2x1xi32>, !pld.dtensor<2x1xi32> -> !pld.dtensor<16x4xi8>
func.func @dynamic_core_num(%stage: !pl.tensor<16x4xi8>, %data: !pld.dtensor<16x4xi8>,
                            %signal: !pld.dtensor<2x8xi32>, %counts: !pl.tensor<2x1xi32>,
                            %recv: !pld.dtensor<2x1xi32>, %n: i64) {
  %0 = pld.tensor.all_to_all_v %stage, %data, %signal, %counts, %recv core_num(%n)
      : !pl.tensor<16x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<2x8xi32>,
        !pl.tensor<2x1xi32>, !pld.dtensor<2x1xi32> -> !pld.dtensor<16x4xi8>
  return
}

// Dynamic and unranked operands are accepted: the type deducer rejects only
// what the types prove.
// CHECK-LABEL: func.func @dynamic_shapes
// CHECK: pld.tensor.all_to_all_v {{.*}} {core_num = 4 : i64} : !pld.dtensor<?x4xf32>, !pld.dtensor<?x4xf32>, !pld.dtensor<*xi32>, !pld.dtensor<?xi32>, !pld.dtensor<*xi32> -> !pld.dtensor<?x4xf32>
func.func @dynamic_shapes(%stage: !pld.dtensor<?x4xf32>, %data: !pld.dtensor<?x4xf32>,
                          %signal: !pld.dtensor<*xi32>, %counts: !pld.dtensor<?xi32>,
                          %recv: !pld.dtensor<*xi32>) {
  %0 = pld.tensor.all_to_all_v %stage, %data, %signal, %counts, %recv {core_num = 4 : i64}
      : !pld.dtensor<?x4xf32>, !pld.dtensor<?x4xf32>, !pld.dtensor<*xi32>,
        !pld.dtensor<?xi32>, !pld.dtensor<*xi32> -> !pld.dtensor<?x4xf32>
  return
}

// input and target must agree only where both are static: the row count, and
// the element count of a row (the row shape may differ: the kernel addresses
// rows flat). A `?` dim or an unranked input proves nothing.
// CHECK-LABEL: func.func @input_geometry
// CHECK-COUNT-5: pld.tensor.all_to_all_v
func.func @input_geometry(%a: !pl.tensor<?x4xf32>, %b: !pl.tensor<16x2x2xf32>,
                          %c: !pl.tensor<*xf32>, %d: !pl.tensor<16x?xf32>,
                          %e: !pl.tensor<?x2x?xf32>, %data: !pld.dtensor<16x4xf32>,
                          %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                          %recv: !pld.dtensor<2xi32>) {
  %0 = pld.tensor.all_to_all_v %a, %data, %signal, %counts, %recv {core_num = 1 : i64}
      : !pl.tensor<?x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %1 = pld.tensor.all_to_all_v %b, %data, %signal, %counts, %recv {core_num = 1 : i64}
      : !pl.tensor<16x2x2xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %2 = pld.tensor.all_to_all_v %c, %data, %signal, %counts, %recv {core_num = 1 : i64}
      : !pl.tensor<*xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %3 = pld.tensor.all_to_all_v %d, %data, %signal, %counts, %recv {core_num = 1 : i64}
      : !pl.tensor<16x?xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %4 = pld.tensor.all_to_all_v %e, %data, %signal, %counts, %recv {core_num = 1 : i64}
      : !pl.tensor<?x2x?xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// The indexed variant's input rows are free (indexed.md: `N_in` is free; the
// kernel gathers rows through `index` and zero-fills an index outside them).
// CHECK-LABEL: func.func @indexed_input_rows
// CHECK: pld.tensor.indexed_all_to_all_v {{.*}} : !pl.tensor<5x4xf32>, !pld.dtensor<16x4xf32>
func.func @indexed_input_rows(%stage: !pl.tensor<5x4xf32>, %data: !pld.dtensor<16x4xf32>,
                              %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                              %recv: !pld.dtensor<2xi32>, %index: !pl.tensor<16xi32>) {
  %0 = pld.tensor.indexed_all_to_all_v %stage, %data, %signal, %counts, %recv, %index {core_num = 2 : i64}
      : !pl.tensor<5x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// CHECK-LABEL: func.func @indexed
// CHECK: pld.tensor.indexed_all_to_all_v %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {core_num = 2 : i64} : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
// CHECK: pld.tensor.indexed_all_to_all_v {{.*}} core_num(%{{.*}}) :
func.func @indexed(%stage: !pl.tensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                   %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                   %recv: !pld.dtensor<2xi32>, %index: !pl.tensor<16xi32>, %n: i64) {
  %0 = pld.tensor.indexed_all_to_all_v %stage, %data, %signal, %counts, %recv, %index {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  %1 = pld.tensor.indexed_all_to_all_v %stage, %data, %signal, %counts, %recv, %index core_num(%n)
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}
