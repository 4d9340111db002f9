// A runtime core_num L (a parameter, a loop variable, arithmetic on them) is
// lowered on the CHIP rail: B = L < P ? L : L / P * P in arith ops before the
// collective, one pl.require of 1 <= L <= 2^31-1 and S >= B (error 5, a
// message naming core_num, S and B), and the kernel call inside a
// pl.launch %B (sync start exactly when B > 1, at run time). The call stays a
// plain func.call with the five tensor operands.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not='pld.tensor.all_to_all_v %'

// CHECK-LABEL: func.func @parameter
// CHECK-SAME:  %[[L:[^:]*]]: i64)
// CHECK:       %[[P:.*]] = arith.constant 2 : i64
// CHECK-NEXT:  %[[LT:.*]] = arith.cmpi slt, %[[L]], %[[P]] : i64
// CHECK-NEXT:  %[[Q:.*]] = arith.divsi %[[L]], %[[P]] : i64
// CHECK-NEXT:  %[[M:.*]] = arith.muli %[[Q]], %[[P]] : i64
// CHECK-NEXT:  %[[B:.*]] = arith.select %[[LT]], %[[L]], %[[M]] : i64
// CHECK-NEXT:  %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT:  %[[MAX:.*]] = arith.constant 2147483647 : i64
// CHECK-NEXT:  %[[S:.*]] = arith.constant 8 : i64
// CHECK-NEXT:  %[[GE:.*]] = arith.cmpi sge, %[[L]], %[[ONE]] : i64
// CHECK-NEXT:  %[[LE:.*]] = arith.cmpi sle, %[[L]], %[[MAX]] : i64
// CHECK-NEXT:  %[[FIT:.*]] = arith.cmpi sge, %[[S]], %[[B]] : i64
// CHECK-NEXT:  %[[R:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK-NEXT:  %[[OK:.*]] = arith.andi %[[R]], %[[FIT]] : i1
// CHECK-NEXT:  pl.require %[[OK]] else error 5, "pld.tensor.all_to_all_v: core_num must be in [1, 2147483647] and the signal stride S=8 must be at least the admitted block count B (core_num folded for P=2 ranks)" seen(%[[L]], %[[B]] : i64, i64) {value_names = ["core_num L", "B"]}
// CHECK-NEXT:  %[[RES:.*]] = pl.launch %[[B]] -> !pld.dtensor<*xf32> {
// CHECK-NEXT:    %[[C:.*]] = func.call @__builtin_all_to_all_v__fp32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,)]*}}) : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK-NEXT:    pl.yield %[[C]] : !pld.dtensor<*xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  pl.cast %[[RES]] : !pld.dtensor<*xf32> to !pld.dtensor<16x4xf32>
func.func @parameter(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                     %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %n: i64) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A loop variable (index, cast to i64), inside the loop: B is computed every iteration.
// CHECK-LABEL: func.func @loop_variable
// CHECK:       scf.for %[[I:[^ ]*]] =
// CHECK-NEXT:    %[[L:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:         arith.constant 4 : i64
// CHECK:         pl.require
// CHECK-NEXT:    pl.launch
// CHECK:       scf.yield
func.func @loop_variable(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x16xi32>,
                         %c: !pld.dtensor<4xi32>, %r: !pld.dtensor<4xi32>, %n: index) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c1 = arith.constant 1 : index
  %res = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %t) -> (!pld.dtensor<16x4xf32>) {
    %l = arith.index_cast %i : index to i64
    %0 = pld.tensor.all_to_all_v %in, %acc, %s, %c, %r core_num(%l)
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x16xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
    scf.yield %0 : !pld.dtensor<16x4xf32>
  }
  return %res : !pld.dtensor<16x4xf32>
}

// -----

// Arithmetic on a parameter; the int8 variant.
// CHECK-LABEL: func.func @arithmetic
// CHECK:       %[[L:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK:       arith.cmpi slt, %[[L]],
// CHECK:       pl.require {{.*}} "pld.tensor.all_to_all_v: core_num must be in [1, 2147483647] and the signal stride S=3 must be at least the admitted block count B (core_num folded for P=2 ranks)"
// CHECK:       pl.launch %{{.*}} -> !pld.dtensor<*xi8> {
// CHECK-NEXT:    func.call @__builtin_all_to_all_v__int8(
func.func @arithmetic(%in: !pld.dtensor<16x4xi8>, %t: !pld.dtensor<16x4xi8>, %s: !pld.dtensor<2x3xi32>,
                      %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %n: i64) -> !pld.dtensor<16x4xi8>
    attributes {pl.func_kind = "orchestration"} {
  %two = arith.constant 2 : i64
  %l = arith.muli %n, %two : i64
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%l)
      : !pld.dtensor<16x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<2x3xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xi8>
  return %0 : !pld.dtensor<16x4xi8>
}
