// The pld-lower-collectives pipeline nested on an inner module (MLIR's pass
// manager nests it there) lowers that module as a program of its own; the
// outer module is not pld's (nested-module.mlir: run on the outer module, the
// pipeline refuses the nested one).
// RUN: pld-opt %s --pass-pipeline='builtin.module(builtin.module(pld-lower-collectives))' | FileCheck %s

// CHECK-LABEL: module @inner
// CHECK: func.func @chip
// CHECK: call @__builtin_allreduce_sum__fp32
// CHECK: func.func private @__builtin_allreduce_sum__fp32
module {
  module @inner {
    func.func @chip(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.func_kind = "orchestration"} {
      %x = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<8x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x4xf32>
      return
    }
  }
}
