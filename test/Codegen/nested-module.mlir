// pld-translate renders the top-level module's functions; a nested
// builtin.module that holds pld code is refused at the nested module rather
// than left out of the build (the pipeline refuses it too:
// test/Transforms/legalize-spmd-launches/nested-module.mlir).
// RUN: pld-translate %s --split-input-file --verify-diagnostics --pld-to-ascend-build --output-dir %t.out --kernel-source-dir %S/Inputs

module {
// expected-error @+1 {{'builtin.module' op holds @host (pl.func_kind "orchestration"), which pld does not build: a pld program is its top-level module (the pld-lower-collectives pipeline and pld-translate do not enter a nested builtin.module; make it the top-level module)}}
module @inner {
  func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
    return
  }
}
}
