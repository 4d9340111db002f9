// --legalize-spmd-launches refuses, at the op, everything in a CHIP
// orchestration body that pld-translate's orchestration codegen cannot emit
// (src/codegen/orch_ops.rs is the one list both read), so pld-opt never
// accepts a program that pld-translate then refuses. What it accepts it
// leaves unchanged.
// RUN: pld-opt %s --split-input-file --allow-unregistered-dialect --legalize-spmd-launches --verify-diagnostics | FileCheck %s

// Loops, branches, scalars, views and buffers are all legal.
// CHECK-LABEL: func.func @legal
// CHECK: scf.for
// CHECK: scf.if
// CHECK: scf.while
func.func private @k(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"} {
  return %t : !pl.tensor<4xf32>
}
func.func @legal(%y: !pl.tensor<16xf32>, %n: index, %flag: i1) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %y) -> (!pl.tensor<16xf32>) {
    %off = arith.muli %i, %c4 : index
    %s = pl.tensor.slice %acc[%off] {sizes = array<i64: 4>} : (!pl.tensor<16xf32>, index) -> !pl.tensor<4xf32>
    scf.if %flag {
      %d = func.call @k(%s) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    }
    scf.yield %acc : !pl.tensor<16xf32>
  }
  %b = pl.tensor.create : !pl.tensor<4xf32>
  %w = scf.while (%x = %c0) : (index) -> index {
    %lt = arith.cmpi slt, %x, %n : index
    scf.condition(%lt) %x : index
  } do {
  ^bb0(%z: index):
    %z1 = arith.addi %z, %c1 : index
    scf.yield %z1 : index
  }
  return
}

// -----

// An op outside the list, also inside a loop.
func.func @unsupported_ops(%n: index) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'arith.ceildivsi' is not supported in a CHIP orchestration body: the orchestration codegen (pld-translate --pld-to-ascend-build) cannot emit it, so --legalize-spmd-launches refuses it}}
  %q = arith.ceildivsi %n, %n : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'test.opaque' is not supported in a CHIP orchestration body}}
    "test.opaque"() : () -> ()
  }
  // expected-error @+1 {{'scf.execute_region' is not supported in a CHIP orchestration body}}
  scf.execute_region {
    scf.yield
  }
  return
}

// -----

// Floating-point scalars have no runtime form (parameter, constant, block argument).
// expected-error @+1 {{CHIP orchestration function '@float_scalars': parameter #0 has type f32; the orchestration codegen passes tensors, CommContexts and integer scalars (i1..i64, index) only}}
func.func @float_scalars(%f: f32, %n: index) attributes {pl.func_kind = "graph"} {
  // expected-error @+1 {{'arith.constant': result #0 has type f32; a CHIP orchestration body holds tensors, CommContexts and integer scalars (i1..i64, index) only}}
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for': result #0 has type f32}}
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %f) -> (f32) {
    scf.yield %a : f32
  }
  return
}

// -----

// cf branches: the codegen emits structured control flow only.
// expected-error @+1 {{CHIP orchestration function '@cf_blocks' has more than one block: the orchestration codegen emits structured control flow (scf) only}}
func.func @cf_blocks(%c: i1) attributes {pl.func_kind = "orchestration"} {
  cf.cond_br %c, ^a, ^b
^a:
  return
^b:
  return
}

// -----

// Views and buffers need static shapes (the descriptor is built from them).
func.func @dynamic_shapes(%t: !pl.tensor<?x4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.tensor.reshape': the result type !pl.tensor<?xf32> needs a static shape and a sized element type in a CHIP orchestration body}}
  %r = pl.tensor.reshape %t : !pl.tensor<?x4xf32> -> !pl.tensor<?xf32>
  // expected-error @+1 {{'pl.tensor.create': the allocated type !pl.tensor<?xf32> needs a static shape}}
  %b = pl.tensor.create : !pl.tensor<?xf32>
  return
}

// -----

// A task launches an AIV kernel of this module and names its results.
func.func private @incore(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "incore"} {
  return %t : !pl.tensor<4xf32>
}
func.func private @fresh(%t: !pl.tensor<4xf32>) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"}
func.func private @scalar_arg(%t: !pl.tensor<4xf32> {pl.direction = "inout"}, %n: i64) attributes {pl.func_kind = "aiv"}
func.func @tasks(%t: !pl.tensor<4xf32>, %n: i64) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' of '@incore': a CHIP orchestration body launches AIV kernels (pl.func_kind "aiv") only, and '@incore' has pl.func_kind "incore"}}
  %a = func.call @incore(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  // expected-error @+1 {{'func.call' of '@fresh': result #0 is not a parameter the callee returns, so the orchestration codegen cannot name it (a kernel writes its arguments in place)}}
  %b = func.call @fresh(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  // expected-error @+1 {{'pl.submit' of '@scalar_arg': argument #1 is an integer scalar; a kernel task takes tensors and CommContexts only}}
  pl.submit @scalar_arg(%t, %n) : (!pl.tensor<4xf32>, i64) -> ()
  return
}
