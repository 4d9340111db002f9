// --lower-l2-tensor-collectives on pld.tensor.allgather: a call of
// @__builtin_allgather__<dt>; the input may be local (canonical
// !pl.tensor<*xT>, direction in), the target and signal are windows.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @gather
// CHECK: %[[I:.*]] = pl.cast %arg0 : !pl.tensor<4x32xi8> to !pl.tensor<*xi8>
// CHECK: %[[T:.*]] = pl.cast %arg1 : !pld.dtensor<16x32xi8> to !pld.dtensor<*xi8>
// CHECK: %[[S:.*]] = pl.cast %arg2 : !pld.dtensor<4x2xi32> to !pld.dtensor<*xi32>
// CHECK: call @__builtin_allgather__int8(%[[I]], %[[T]], %[[S]]) {pl.core_num = 2 : i64, pl.sync_start} : (!pl.tensor<*xi8>, !pld.dtensor<*xi8>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xi8>
// CHECK: call @__builtin_allgather__fp32(%{{.*}}, %{{.*}}, %{{.*}}) : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK-LABEL: func.func private @__builtin_allgather__int8
// CHECK-SAME: (%arg0: !pl.tensor<*xi8> {pl.direction = "in"}, %arg1: !pld.dtensor<*xi8> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xi8>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.allgather", pl.builtin_template_vars = "dtype_cpp=int8_t", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-NEXT: return %arg1 : !pld.dtensor<*xi8>
// CHECK-LABEL: func.func private @__builtin_allgather__fp32
func.func @gather(%in: !pl.tensor<4x32xi8>, %all: !pld.dtensor<16x32xi8>, %s: !pld.dtensor<4x2xi32>,
                  %win: !pld.dtensor<2x4xf32>, %allf: !pld.dtensor<4x4xf32>, %s1: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allgather %in, %all, %s {core_num = 2 : i64}
      : !pl.tensor<4x32xi8>, !pld.dtensor<16x32xi8>, !pld.dtensor<4x2xi32> -> !pld.dtensor<16x32xi8>
  %1 = pl.cast %win : !pld.dtensor<2x4xf32> to !pl.tensor<2x4xf32>
  %2 = pld.tensor.allgather %1, %allf, %s1
      : !pl.tensor<2x4xf32>, !pld.dtensor<4x4xf32>, !pld.dtensor<2xi32> -> !pld.dtensor<4x4xf32>
  return
}

// -----

// Every operand is traced, the local input too.
func.func @input_not_contiguous(%x: !pl.tensor<8x4xi8>, %all: !pld.dtensor<16x8xi8>, %s: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-note@+1 {{the chain is broken by 'pl.tensor.transpose'}}
  %in = pl.tensor.transpose %x {perm = array<i64: 1, 0>} : !pl.tensor<8x4xi8> -> !pl.tensor<4x8xi8>
  // expected-error@+1 {{'pld.tensor.allgather' op operand 'input' is not provably contiguous}}
  %0 = pld.tensor.allgather %in, %all, %s
      : !pl.tensor<4x8xi8>, !pld.dtensor<16x8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xi8>
  return
}

// -----

// aiv-cores: the exact width L against the target's cores.
// RUN: not pld-opt %s --split-input-file --lower-l2-tensor-collectives=aiv-cores=2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CORES
// CORES: allgather.mlir:[[@LINE+3]]:8: error: 'pld.tensor.allgather' op launch width L=4 exceeds the target's 2 AIV cores (option aiv-cores=2)
func.func @too_wide(%in: !pl.tensor<4x8xf32>, %all: !pld.dtensor<16x8xf32>, %s: !pld.dtensor<4x4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allgather %in, %all, %s {core_num = 4 : i64}
      : !pl.tensor<4x8xf32>, !pld.dtensor<16x8xf32>, !pld.dtensor<4x4xi32> -> !pld.dtensor<16x8xf32>
  return
}
