// pld builds a program from its top-level module: the pipeline's passes run on
// it and pld-translate renders its functions, neither enters a nested
// builtin.module. One that holds pld code (here a CHIP orchestration with a
// collective) is refused at the nested module, instead of being left
// unlowered and then silently missing from the build.
// RUN: not pld-opt %s --split-input-file --pld-lower-collectives -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics
// (The pipeline nested on such a module runs there: nested-module-pipeline.mlir.)

// PIPE: nested-module.mlir:[[# @LINE + 3]]:1: error: 'builtin.module' op holds @chip (pl.func_kind "orchestration"), which pld does not build: a pld program is its top-level module (the pld-lower-collectives pipeline and pld-translate do not enter a nested builtin.module; make it the top-level module)
module {
// expected-error @+1 {{'builtin.module' op holds @chip (pl.func_kind "orchestration"), which pld does not build}}
module @inner {
  func.func @chip(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.func_kind = "orchestration"} {
    %x = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<8x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x4xf32>
    return
  }
}
}

// -----

// A pld op anywhere in it counts, whatever its function's kind.
// PIPE: error: 'builtin.module' op holds 'pl.cast'
module {
// expected-error @+1 {{'builtin.module' op holds 'pl.cast'}}
module @deep {
  module {
    func.func @f(%d: !pld.dtensor<4xf32>) -> !pl.tensor<4xf32> {
      %l = pl.cast %d : !pld.dtensor<4xf32> to !pl.tensor<4xf32>
      return %l : !pl.tensor<4xf32>
    }
  }
}
}

// -----

// A nested module without pld code is none of pld's business.
module @plain {
  func.func @g(%x: i64) -> i64 {
    return %x : i64
  }
}
func.func @chip(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pl.func_kind = "orchestration"} {
  %x = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<8x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x4xf32>
  return
}
