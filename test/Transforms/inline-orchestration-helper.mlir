// An orchestration helper that holds pl ops (a slice, a cast) inlines into its
// caller (docs/codegen.md: "--inline an orchestration helper first"); the
// kernel call inside stays a call, and the pipeline then accepts the caller.
// RUN: pld-opt %s --inline | FileCheck %s
// RUN: pld-opt %s --inline --symbol-dce --pld-lower-collectives | FileCheck %s --check-prefix=PIPE

func.func private @add_one(%t: !pl.tensor<*xf32> {pl.direction = "inout"}) -> !pl.tensor<*xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k/add_one.cpp"} {
  return %t : !pl.tensor<*xf32>
}
func.func private @bump_chunk(%y: !pl.tensor<16xf32>, %o: index) attributes {pl.func_kind = "orchestration"} {
  %s = pl.tensor.slice %y[%o] {sizes = array<i64: 4>} : (!pl.tensor<16xf32>, index) -> !pl.tensor<4xf32>
  %u = pl.cast %s : !pl.tensor<4xf32> to !pl.tensor<*xf32>
  %r = func.call @add_one(%u) : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  return
}

// CHECK-LABEL: func.func @chip_main
// CHECK-NOT:     call @bump_chunk
// CHECK:         pl.tensor.slice
// CHECK-NEXT:    pl.cast
// CHECK-NEXT:    call @add_one
// PIPE-LABEL: func.func @chip_main
// PIPE:         call @add_one({{.*}}pl.task_id = 0
func.func @chip_main(%y: !pl.tensor<16xf32>) attributes {pl.func_kind = "orchestration"} {
  %c4 = arith.constant 4 : index
  func.call @bump_chunk(%y, %c4) : (!pl.tensor<16xf32>, index) -> ()
  return
}
