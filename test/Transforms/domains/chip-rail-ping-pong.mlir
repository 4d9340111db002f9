// A CHIP loop that swaps two windows through its iter_args (a ping-pong:
// input and target trade places every iteration) is dispatched with two
// distinct window buffers. Each operand may be either buffer, but in every
// iteration they are different ones: the per-dispatch check refuses only two
// operands bound to one and the same buffer (chip-rail-errors.mlir), and
// leaves operands that only may share one to the caller, as domains.md says
// of untraceable operands. (It was refused: "input and target must be
// different window allocations".)
// RUN: pld-opt %s --pld-lower-collectives | FileCheck %s

// CHECK-LABEL: func.func @chip
// CHECK: scf.for
// CHECK: call @__builtin_all_to_all_v__fp32
// CHECK-LABEL: func.func @host_main
// CHECK: pld.host.dispatch @chip
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n3 = arith.constant 3 : index
  %x:2 = scf.for %i = %c0 to %n3 step %c1 iter_args(%p = %in, %q = %t) -> (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>) {
    %d = pld.tensor.all_to_all_v %p, %q, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    scf.yield %d, %p : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>
  }
  return
}
func.func @host_main() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %a0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %a1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %a2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %a3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %a4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %a0 : !pld.dtensor<16x4xf32>
  %t = pld.window %a1 : !pld.dtensor<16x4xf32>
  %s = pld.window %a2 : !pld.dtensor<2x8xi32>
  %c = pld.window %a3 : !pld.dtensor<2xi32>
  %r = pld.window %a4 : !pld.dtensor<2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n2 = arith.constant 2 : index
  scf.for %dev = %c0 to %n2 step %c1 {
    pld.host.dispatch @chip(%in, %t, %s, %c, %r) on %dev
        : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  }
  return
}
