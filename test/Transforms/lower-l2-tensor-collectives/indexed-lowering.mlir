// pld.tensor.indexed_all_to_all_v on the CHIP rail (docs/spec/indexed.md):
// in a pl.arch = "a5" module it becomes a call of the synthesized
// @__builtin_indexed_all_to_all_v__fp32 / __int8 (canonical signature: input,
// recv_counts and index plain tensors, target, signal and send_counts windows;
// directions in, inout, inout, in, inout, in; the indexed template package),
// with core_num as the exact launch width L (never folded). It shares the
// plain op's machinery: both lower in one run, each variant's kernel once.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor.indexed_all_to_all_v

// L = 3 at P = 2: the plain op would fold it to B = 2; the indexed op launches
// exactly 3 blocks. Operand types differ from the canonical ones, so they are
// cast (a window input and a window recv_counts to their local views; an
// [N, 1] index stays an i32 tensor), and the result is cast back.
// CHECK-LABEL: func.func @exact_width
// CHECK-SAME: (%[[IN:[^:]*]]: !pld.dtensor<20x4xf32>, %[[T:[^:]*]]: !pld.dtensor<16x4xf32>, %[[S:[^:]*]]: !pld.dtensor<2x8xi32>, %[[C:[^:]*]]: !pld.dtensor<2x1xi32>, %[[R:[^:]*]]: !pld.dtensor<2xi32>, %[[I:[^:]*]]: !pl.tensor<16x1xi32>)
// CHECK-DAG: %[[IN0:.*]] = pl.cast %[[IN]] : !pld.dtensor<20x4xf32> to !pl.tensor<*xf32>
// CHECK-DAG: %[[T0:.*]] = pl.cast %[[T]] : !pld.dtensor<16x4xf32> to !pld.dtensor<*xf32>
// CHECK-DAG: %[[S0:.*]] = pl.cast %[[S]] : !pld.dtensor<2x8xi32> to !pld.dtensor<*xi32>
// CHECK-DAG: %[[C0:.*]] = pl.cast %[[C]] : !pld.dtensor<2x1xi32> to !pld.dtensor<*xi32>
// CHECK-DAG: %[[R0:.*]] = pl.cast %[[R]] : !pld.dtensor<2xi32> to !pl.tensor<*xi32>
// CHECK-DAG: %[[I0:.*]] = pl.cast %[[I]] : !pl.tensor<16x1xi32> to !pl.tensor<*xi32>
// CHECK: %[[CALL:.*]] = call @__builtin_indexed_all_to_all_v__fp32(%[[IN0]], %[[T0]], %[[S0]], %[[C0]], %[[R0]], %[[I0]]) {pl.core_num = 3 : i64, pl.sync_start}
// CHECK-SAME: : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pl.tensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK: %[[OUT:.*]] = pl.cast %[[CALL]] : !pld.dtensor<*xf32> to !pld.dtensor<16x4xf32>
// CHECK: return %[[OUT]]
// The synthesized kernel, appended once.
// CHECK-LABEL: func.func private @__builtin_indexed_all_to_all_v__fp32(
// CHECK-SAME: %{{[^:]*}}: !pl.tensor<*xf32> {pl.direction = "in"},
// CHECK-SAME: %[[KT:[^:]*]]: !pld.dtensor<*xf32> {pl.direction = "inout"},
// CHECK-SAME: %{{[^:]*}}: !pld.dtensor<*xi32> {pl.direction = "inout"},
// CHECK-SAME: %{{[^:]*}}: !pld.dtensor<*xi32> {pl.direction = "in"},
// CHECK-SAME: %{{[^:]*}}: !pl.tensor<*xi32> {pl.direction = "inout"},
// CHECK-SAME: %{{[^:]*}}: !pl.tensor<*xi32> {pl.direction = "in"}) -> !pld.dtensor<*xf32>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.indexed_all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-NEXT: return %[[KT]] : !pld.dtensor<*xf32>
// CHECK-NEXT: }
module attributes {pl.arch = "a5"} {
  func.func @exact_width(%in: !pld.dtensor<20x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                         %c: !pld.dtensor<2x1xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16x1xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 3 : i64}
        : !pld.dtensor<20x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2x1xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<16x1xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// L = 1: a bare call (no launch attributes); operands already of the canonical
// types need no cast; an int8 payload uses the __int8 kernel. L = 16 at P = 4
// (S = 16) launches 16 blocks, L = 5 at P = 4 launches 5 (not 4).
// CHECK-LABEL: func.func @widths
// CHECK: %[[A:.*]] = call @__builtin_indexed_all_to_all_v__int8(%arg0, %arg1, %{{.*}}, %arg2, %arg3, %arg4) : (
// CHECK-NOT: pl.core_num
// CHECK-SAME: -> !pld.dtensor<*xi8>
// CHECK: call @__builtin_indexed_all_to_all_v__int8(%arg0, %[[A]], %{{.*}}, %arg2, %arg3, %arg4) {pl.core_num = 16 : i64, pl.sync_start}
// CHECK: call @__builtin_indexed_all_to_all_v__int8({{.*}}) {pl.core_num = 5 : i64, pl.sync_start}
// CHECK-LABEL: func.func private @__builtin_indexed_all_to_all_v__int8(
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=int8_t"
// CHECK-NOT: func.func private @__builtin_indexed_all_to_all_v__int8
module attributes {pl.arch = "a5"} {
  func.func @widths(%in: !pl.tensor<*xi8>, %t: !pld.dtensor<*xi8>,
                    %c: !pld.dtensor<*xi32>, %r: !pl.tensor<*xi32>, %i: !pl.tensor<*xi32>,
                    %s16: !pld.dtensor<4x16xi32>) -> !pld.dtensor<*xi8>
      attributes {pl.func_kind = "orchestration"} {
    %0 = "pld.tensor.indexed_all_to_all_v"(%in, %t, %s16, %c, %r, %i) {core_num = 1 : i64}
        : (!pl.tensor<*xi8>, !pld.dtensor<*xi8>, !pld.dtensor<4x16xi32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>,
           !pl.tensor<*xi32>) -> !pld.dtensor<*xi8>
    %1 = "pld.tensor.indexed_all_to_all_v"(%in, %0, %s16, %c, %r, %i) {core_num = 16 : i64}
        : (!pl.tensor<*xi8>, !pld.dtensor<*xi8>, !pld.dtensor<4x16xi32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>,
           !pl.tensor<*xi32>) -> !pld.dtensor<*xi8>
    %2 = "pld.tensor.indexed_all_to_all_v"(%in, %1, %s16, %c, %r, %i) {core_num = 5 : i64}
        : (!pl.tensor<*xi8>, !pld.dtensor<*xi8>, !pld.dtensor<4x16xi32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>,
           !pl.tensor<*xi32>) -> !pld.dtensor<*xi8>
    return %2 : !pld.dtensor<*xi8>
  }
}

// -----

// Sharing: every call site of a variant calls one kernel; the plain op and the
// indexed op lower in the same run, each to its own kernel (plain kernels
// first, then indexed, fp32 before int8). A constant core_num operand is
// compile-time (folded by the same folder as the plain op's).
// CHECK-LABEL: func.func @shared
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 2 : i64, pl.sync_start}
// CHECK: call @__builtin_indexed_all_to_all_v__fp32({{.*}}) {pl.core_num = 3 : i64, pl.sync_start}
// CHECK: call @__builtin_indexed_all_to_all_v__fp32({{.*}}) {pl.core_num = 4 : i64, pl.sync_start}
// CHECK: call @__builtin_indexed_all_to_all_v__int8(
// CHECK-LABEL: func.func @other
// CHECK: call @__builtin_indexed_all_to_all_v__fp32(
// CHECK: func.func private @__builtin_all_to_all_v__fp32(
// CHECK: func.func private @__builtin_indexed_all_to_all_v__fp32(
// CHECK: func.func private @__builtin_indexed_all_to_all_v__int8(
// CHECK-NOT: func.func private @__builtin
module attributes {pl.arch = "a5"} {
  func.func @shared(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                    %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>,
                    %in8: !pl.tensor<16x4xi8>, %t8: !pld.dtensor<16x4xi8>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 3 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    %1 = pld.tensor.indexed_all_to_all_v %in, %0, %s, %c, %r, %i {core_num = 3 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    %two = arith.constant 2 : i64
    %four = arith.muli %two, %two : i64
    %2 = pld.tensor.indexed_all_to_all_v %in, %1, %s, %c, %r, %i core_num(%four)
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    %3 = pld.tensor.indexed_all_to_all_v %in8, %t8, %s, %c, %r, %i {core_num = 1 : i64}
        : !pl.tensor<16x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xi8>
    return %2 : !pld.dtensor<16x4xf32>
  }
  func.func @other(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                   %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "graph"} {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 1 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// The contiguity trace follows all six operands through its allow-list: a
// leading-dimension slice of the input, a reshaped index, a loop-carried
// target.
// CHECK-LABEL: func.func @traced
// CHECK: scf.for
// CHECK: call @__builtin_indexed_all_to_all_v__fp32(
module attributes {pl.arch = "a5"} {
  func.func @traced(%x: !pl.tensor<32x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                    %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %ix: !pl.tensor<4x4xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %in = pl.tensor.slice %x {offsets = array<i64: 8, 0>, sizes = array<i64: 20, 4>} : (!pl.tensor<32x4xf32>) -> !pl.tensor<20x4xf32>
    %i = pl.tensor.reshape %ix : !pl.tensor<4x4xi32> -> !pl.tensor<16xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %w = scf.for %k = %c0 to %c3 step %c1 iter_args(%cur = %t) -> (!pld.dtensor<16x4xf32>) {
      %n = pld.tensor.indexed_all_to_all_v %in, %cur, %s, %c, %r, %i {core_num = 2 : i64}
          : !pl.tensor<20x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
            !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
      scf.yield %n : !pld.dtensor<16x4xf32>
    }
    return %w : !pld.dtensor<16x4xf32>
  }
}

// -----

// Idempotent: a kernel of the variant's name that is exactly the synthesized
// one is reused, not duplicated.
// CHECK-LABEL: func.func private @__builtin_indexed_all_to_all_v__fp32(
// CHECK-LABEL: func.func @reuse
// CHECK: call @__builtin_indexed_all_to_all_v__fp32(
// CHECK-NOT: func.func private @__builtin_indexed_all_to_all_v__fp32
module attributes {pl.arch = "a5"} {
  func.func private @__builtin_indexed_all_to_all_v__fp32(%input: !pl.tensor<*xf32> {pl.direction = "in"}, %target: !pld.dtensor<*xf32> {pl.direction = "inout"}, %signal: !pld.dtensor<*xi32> {pl.direction = "inout"}, %send_counts: !pld.dtensor<*xi32> {pl.direction = "in"}, %recv_counts: !pl.tensor<*xi32> {pl.direction = "inout"}, %index: !pl.tensor<*xi32> {pl.direction = "in"}) -> !pld.dtensor<*xf32> attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.indexed_all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv", pl.require_contiguous_operands} {
    return %target : !pld.dtensor<*xf32>
  }
  func.func @reuse(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                   %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 1 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// An InCore body is not this rail's: left as it is (--lower-composite-ops
// refuses the op there, see lower-composite-ops.mlir; a HOST orchestrator's
// is refused by any pass, see indexed-host-orchestrator.mlir).
// CHECK-LABEL: func.func @incore
// CHECK: pld.tensor.indexed_all_to_all_v
// CHECK-NOT: func.func private @__builtin
module attributes {pl.arch = "a5"} {
  func.func @incore(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                    %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "incore"} {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}
