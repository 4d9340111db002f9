// --lower-l2-tensor-collectives on pld.tensor.allreduce: a call of the
// synthesized kernel of its variant (reduce, mode, element type), the exact
// launch width L = core_num (pl.core_num and pl.sync_start when L > 1), one
// kernel per variant shared by every call, the rail's refusals at the op.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @mesh
// CHECK: %[[T:.*]] = pl.cast %arg0 : !pld.dtensor<64x128xf32> to !pld.dtensor<*xf32>
// CHECK: %[[S:.*]] = pl.cast %arg1 : !pld.dtensor<4x2xi32> to !pld.dtensor<*xi32>
// CHECK: %[[R:.*]] = call @__builtin_allreduce_sum__fp32(%[[T]], %[[S]]) {pl.core_num = 2 : i64, pl.sync_start} : (!pld.dtensor<*xf32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK: %[[B:.*]] = pl.cast %[[R]] : !pld.dtensor<*xf32> to !pld.dtensor<64x128xf32>
// A second call of the same variant, L = 1: no launch attributes.
// CHECK: call @__builtin_allreduce_sum__fp32(%{{.*}}, %{{.*}}) : (!pld.dtensor<*xf32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK: call @__builtin_allreduce_max__fp16
// CHECK: call @__builtin_allreduce_prod__int32
// CHECK-LABEL: func.func private @__builtin_allreduce_sum__fp32
// CHECK-SAME: (%arg0: !pld.dtensor<*xf32> {pl.direction = "inout"}, %arg1: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf32>
// CHECK-SAME: attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.allreduce", pl.builtin_template_vars = "dtype_cpp=float;reduce=sum", pl.func_kind = "aiv", pl.require_contiguous_operands}
// CHECK-NEXT: return %arg0 : !pld.dtensor<*xf32>
// CHECK-NOT: func.func private @__builtin_allreduce_sum__fp32
// CHECK-LABEL: func.func private @__builtin_allreduce_max__fp16
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=half;reduce=max"
// CHECK-LABEL: func.func private @__builtin_allreduce_prod__int32
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=int32_t;reduce=prod"
func.func @mesh(%t: !pld.dtensor<64x128xf32>, %s: !pld.dtensor<4x2xi32>, %h: !pld.dtensor<8x8xf16>,
                %s1: !pld.dtensor<4xi32>, %i: !pld.dtensor<8xi32>, %s2: !pld.dtensor<4x1xi32>) -> !pld.dtensor<64x128xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 2 : i64}
      : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
  %1 = pld.tensor.allreduce %0, %s {reduce = "sum"}
      : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
  %2 = pld.tensor.allreduce %h, %s1 {reduce = "max", mode = "mesh"}
      : !pld.dtensor<8x8xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<8x8xf16>
  %3 = pld.tensor.allreduce %i, %s2 {reduce = "prod"}
      : !pld.dtensor<8xi32>, !pld.dtensor<4x1xi32> -> !pld.dtensor<8xi32>
  return %1 : !pld.dtensor<64x128xf32>
}

// -----

// Ring mode: its own template package and symbol, one block.
// CHECK-LABEL: func.func @ring
// CHECK: call @__builtin_allreduce_ring_min__fp32(%{{.*}}, %{{.*}}) : (!pld.dtensor<*xf32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK-LABEL: func.func private @__builtin_allreduce_ring_min__fp32
// CHECK-SAME: pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.allreduce_ring", pl.builtin_template_vars = "dtype_cpp=float;reduce=min"
func.func @ring(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<7x4xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allreduce %t, %s {reduce = "min", mode = "ring"}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<7x4xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// The rank count and stride come from the signal's static shape.
func.func @dynamic_signal(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<?x2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.allreduce' op signal shape must be static on the CHIP rail, got '!pld.dtensor<?x2xi32>'}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<?x2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// The target must be provably contiguous: a transpose breaks the chain.
func.func @not_contiguous(%x: !pld.dtensor<4x16xf32>, %s: !pld.dtensor<4xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note@+1 {{the chain is broken by 'pl.tensor.transpose'}}
  %t = pl.tensor.transpose %x {perm = array<i64: 1, 0>} : !pld.dtensor<4x16xf32> -> !pld.dtensor<16x4xf32>
  // expected-error@+1 {{'pld.tensor.allreduce' op operand 'target' is not provably contiguous}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// target and signal provably views of one window parameter.
// expected-note@+1 {{both are views of this parameter (#0)}}
func.func @aliasing(%w: !pld.dtensor<16xi32>) -> !pld.dtensor<8x2xi32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note@+1 {{operand 'target' is a view of it through this value}}
  %t = pl.tensor.reshape %w : !pld.dtensor<16xi32> -> !pld.dtensor<4x4xi32>
  // expected-note@+1 {{operand 'signal' is a view of it through this value}}
  %s = pl.tensor.reshape %w : !pld.dtensor<16xi32> -> !pld.dtensor<8x2xi32>
  // expected-error@+1 {{'pld.tensor.allreduce' op operands target and signal must be different window allocations}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"}
      : !pld.dtensor<4x4xi32>, !pld.dtensor<8x2xi32> -> !pld.dtensor<4x4xi32>
  return %s : !pld.dtensor<8x2xi32>
}
