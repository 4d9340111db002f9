// The contiguity trace accepts every step of its allow-list: the roots
// (params, windows, tensor.create, runtime-allocated submit Outs) and the
// followed steps (reshape, view, set_validshape, assemble target, cast,
// collective results, call/submit results through the callee's return,
// scf.for/while iter_args and initializers, scf.if branches, leading-dim
// literal slices of static tensors), including loop cycles.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

func.func private @kernel(%a: !pl.tensor<16x4xf32>, %b: !pld.dtensor<16x4xf32>) -> (!pld.dtensor<16x4xf32>, !pl.tensor<16x4xf32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return %b, %a : !pld.dtensor<16x4xf32>, !pl.tensor<16x4xf32>
}
// Its runtime-allocating twin: the submit passes %b, the runtime allocates %o.
func.func private @kernel_alloc(%b: !pld.dtensor<16x4xf32>, %o: !pl.tensor<16x4xf32> {pl.direction = "out"}) -> (!pld.dtensor<16x4xf32>, !pl.tensor<16x4xf32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return %b, %o : !pld.dtensor<16x4xf32>, !pl.tensor<16x4xf32>
}

// CHECK-LABEL: func.func @roots
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @roots(%s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %in = pl.tensor.create : !pl.tensor<16x4xf32>
  %buf = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %t = pld.window %buf {offset = 0 : i64} : !pld.dtensor<16x4xf32>
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @view_steps
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @view_steps(%flat: !pl.tensor<64xf32>, %dyn: !pld.dtensor<?x4xf32>, %s: !pld.dtensor<2x8xi32>,
                      %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %a = pl.tensor.reshape %flat : !pl.tensor<64xf32> -> !pl.tensor<16x4xf32>
  %b = pl.tensor.view %a {offsets = array<i64: 0, 0>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>
  %in = pl.tensor.set_validshape %b {valid = array<i64: 16, 4>} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>
  %t = pl.cast %dyn : !pld.dtensor<?x4xf32> to !pld.dtensor<16x4xf32>
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// A view that narrows only the leading dimension (the slice rule) is followed.
// CHECK-LABEL: func.func @view_rows
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @view_rows(%big: !pl.tensor<32x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                     %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %in = pl.tensor.view %big {offsets = array<i64: 16, 0>} : !pl.tensor<32x4xf32> -> !pl.tensor<16x4xf32>
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @slice_and_assemble
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @slice_and_assemble(%big: !pl.tensor<32x4xf32>, %tile: !pl.tensor<8x4xf32>, %t: !pld.dtensor<16x4xf32>,
                              %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %rows = pl.tensor.slice %big {offsets = array<i64: 16, 0>, sizes = array<i64: 16, 4>} : (!pl.tensor<32x4xf32>) -> !pl.tensor<16x4xf32>
  %in = pl.tensor.assemble %tile into %rows {offsets = array<i64: 8, 0>} : !pl.tensor<8x4xf32> into !pl.tensor<16x4xf32>
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @calls_and_submits
// CHECK-COUNT-2: call @__builtin_all_to_all_v__fp32
func.func @calls_and_submits(%x: !pl.tensor<16x4xf32>, %w: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>,
                             %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // A call result is the argument the callee returns; a runtime-allocated
  // submit Out is a root.
  %k:2 = call @kernel(%x, %w) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>) -> (!pld.dtensor<16x4xf32>, !pl.tensor<16x4xf32>)
  %0 = pld.tensor.all_to_all_v %k#1, %k#0, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %sub:2 = pl.submit @kernel_alloc(%0) {runtime_alloc_outs = array<i64: 1>} : (!pld.dtensor<16x4xf32>) -> (!pld.dtensor<16x4xf32>, !pl.tensor<16x4xf32>)
  %1 = pld.tensor.all_to_all_v %sub#1, %sub#0, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %1 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @loops
// CHECK: scf.for
// CHECK: call @__builtin_all_to_all_v__fp32
// CHECK: scf.while
// CHECK: call @__builtin_all_to_all_v__fp32
// CHECK: scf.if
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @loops(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %t2: !pld.dtensor<16x4xf32>,
                 %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>,
                 %n: index, %go: i1) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // A loop-carried target: the iter_arg reaches itself (a cycle) and the
  // initializer (a zero-trip loop returns it).
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %t) -> !pld.dtensor<16x4xf32> {
    %x = pld.tensor.all_to_all_v %in, %cur, %s, %c, %r {core_num = 1 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    scf.yield %x : !pld.dtensor<16x4xf32>
  }
  %w = scf.while (%cur = %acc) : (!pld.dtensor<16x4xf32>) -> !pld.dtensor<16x4xf32> {
    scf.condition(%go) %cur : !pld.dtensor<16x4xf32>
  } do {
  ^bb0(%cur: !pld.dtensor<16x4xf32>):
    %y = pld.tensor.all_to_all_v %in, %cur, %s, %c, %r {core_num = 1 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    scf.yield %y : !pld.dtensor<16x4xf32>
  }
  %sel = scf.if %go -> !pld.dtensor<16x4xf32> {
    scf.yield %w : !pld.dtensor<16x4xf32>
  } else {
    scf.yield %t2 : !pld.dtensor<16x4xf32>
  }
  %z = pld.tensor.all_to_all_v %w, %sel, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %z : !pld.dtensor<16x4xf32>
}
