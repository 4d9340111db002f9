// lower-host-tensor-collectives{aiv-cores=N}: the HOST rail applies the
// target's AIV core count as the CHIP rail does. A compile-time launch width
// above N is refused at the collective in the CHIP rail's words (no note, no
// other diagnostic); a width of exactly N lowers; a runtime width is checked
// by a pld.host.require with error 7 (the over-capacity sync-start launch)
// before the dispatches. pld-lower-collectives{aiv-cores=N} forwards it.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-host-tensor-collectives=aiv-cores=48 | FileCheck %s
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(lower-host-tensor-collectives{aiv-cores=48})' | FileCheck %s
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pld-lower-collectives=aiv-cores=48 | FileCheck %s --check-prefix=PIPELINE
// Without the option nothing is checked.
// RUN: pld-opt %s --split-input-file --lower-host-tensor-collectives | FileCheck %s --check-prefix=UNCHECKED
// UNCHECKED-LABEL: func.func @wide
// UNCHECKED: %[[L:.*]] = arith.constant 49 : i64
// UNCHECKED: pld.host.dispatch @builtin.tensor.allreduce_sum__fp32({{.*}}) on %{{.*}} core_num(%[[L]])
// UNCHECKED-LABEL: func.func @runtime
// UNCHECKED-NOT: else error 7

// The issue's case: the CHIP rail refuses allreduce {core_num = 49} on 48 cores; so does the HOST rail.
func.func @wide() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 1024 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<16x4xf32>
  %s = pld.window %b1 : !pld.dtensor<4x64xi32>
  // expected-error@+1 {{'pld.tensor.allreduce' op launch width L=49 exceeds the target's 48 AIV cores (option aiv-cores=48)}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 49 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<4x64xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// L = N is accepted.
// CHECK-LABEL: func.func @exact
// CHECK: %[[L:.*]] = arith.constant 48 : i64
// CHECK: pld.host.dispatch @builtin.tensor.allgather__fp32({{.*}}) on %{{.*}} core_num(%[[L]])
// PIPELINE-LABEL: func.func @exact
// PIPELINE: pld.host.dispatch @builtin.tensor.allgather__fp32
func.func @exact() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 1024 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<4x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<4x64xi32>
  %0 = pld.tensor.allgather %in, %t, %s {core_num = 48 : i64}
      : !pld.dtensor<4x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x64xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// all_to_all_v folds L for P ranks: P = 4, L = 51 gives B = 48 (fits).
// CHECK-LABEL: func.func @folded_fits
// CHECK: pld.host.dispatch @builtin.tensor.all_to_all_v__fp32
func.func @folded_fits() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 1024 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<4x64xi32>
  %c = pld.window %b3 : !pld.dtensor<4xi32>
  %r = pld.window %b4 : !pld.dtensor<4xi32>
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 51 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x64xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// L = 52 gives B = 52.
func.func @folded_over() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 1024 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<4x64xi32>
  %c = pld.window %b3 : !pld.dtensor<4xi32>
  %r = pld.window %b4 : !pld.dtensor<4xi32>
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op launch width B=52 exceeds the target's 48 AIV cores (core_num L=52 folded for P=4 ranks; option aiv-cores=48)}}
  %1 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 52 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x64xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A runtime width: B is checked against the cores before the dispatches (error 7).
// CHECK-LABEL: func.func @runtime
// CHECK: %[[B:.*]] = arith.select
// CHECK: pld.host.require %{{.*}} else error 5,
// CHECK: %[[CORES:.*]] = arith.constant 48 : i64
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[B]], %[[CORES]] : i64
// CHECK: pld.host.require %[[FITS]] else error 7, "pld.tensor.all_to_all_v: the launch width B must not exceed the target's 48 AIV cores (core_num folded for P=4 ranks; option aiv-cores=48)" seen(%{{.*}}, %[[B]] : i64, i64) {value_names = ["core_num L", "B"]}
// CHECK: scf.for
// CHECK-NEXT: pld.host.dispatch @builtin.tensor.all_to_all_v__fp32({{.*}}) on %{{.*}} core_num(%[[B]])
func.func @runtime(%l: i64) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 1024 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<4x64xi32>
  %c = pld.window %b3 : !pld.dtensor<4xi32>
  %r = pld.window %b4 : !pld.dtensor<4xi32>
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%l)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x64xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}
