// --lower-host-tensor-collectives on pld.tensor.reduce_scatter: P dispatches
// of @builtin.tensor.reduce_scatter_<reduce>__<dt>, the CHIP rail's kernel.
// RUN: pld-opt %s --split-input-file --lower-host-tensor-collectives --verify-each --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @rs
// CHECK: %[[L:.*]] = arith.constant 1 : i64
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.for %[[DEV:.*]] = %{{.*}} to %[[C2]] step %{{.*}} {
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.reduce_scatter_prod__int32(%{{.*}}, %{{.*}}) on %[[DEV]] core_num(%[[L]]) {pl.arg_directions = ["inout", "inout"]}
// CHECK-LABEL: func.func private @__builtin_reduce_scatter_prod__int32
// CHECK-SAME: pl.builtin_template_vars = "dtype_cpp=int32_t;reduce=prod"
// CHECK-LABEL: func.func private @builtin.tensor.reduce_scatter_prod__int32
// CHECK-NEXT: call @__builtin_reduce_scatter_prod__int32(%arg0, %arg1) {pl.abi_arg_count = 3 : i64
func.func @rs() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<4x4xi32>
  %s = pld.window %b1 : !pld.dtensor<2xi32>
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "prod"}
      : !pld.dtensor<4x4xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<4x4xi32>
  return
}

// -----

// An explicit domain of 4 ranks against a 2-rank signal.
func.func @domain_ranks() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{this communication domain has 4 ranks}}
  %d = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  %b0 = pld.window_buffer in %d {bytes = 64 : i64} : !pld.window_buffer
  // expected-note@+1 {{the signal is a view of this pld.window_buffer}}
  %b1 = pld.window_buffer in %d {bytes = 8 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<4x4xi32>
  %s = pld.window %b1 : !pld.dtensor<2xi32>
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op signal has NR=2 rows but communication domain has 4 ranks}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"}
      : !pld.dtensor<4x4xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<4x4xi32>
  return
}

// -----

// The HOST rail refuses what the kernel could not do, as the CHIP rail does.
func.func @dynamic_rows() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<?x4xi32>
  %s = pld.window %b1 : !pld.dtensor<2xi32>
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op target rows must be NR*M (NR=2 ranks), which operand 'target' of dynamic shape does not prove}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "sum"}
      : !pld.dtensor<?x4xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<?x4xi32>
  return
}
