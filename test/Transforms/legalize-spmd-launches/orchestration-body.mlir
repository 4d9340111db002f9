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
  // expected-error @+1 {{'arith.ceildivsi' op is not supported in a CHIP orchestration body: the orchestration codegen (pld-translate --pld-to-ascend-build) cannot emit it, so --legalize-spmd-launches refuses it}}
  %q = arith.ceildivsi %n, %n : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'test.opaque' op is not supported in a CHIP orchestration body: the orchestration codegen (pld-translate --pld-to-ascend-build) cannot emit it, so --legalize-spmd-launches refuses it}}
    "test.opaque"() : () -> ()
  }
  // expected-error @+1 {{'scf.execute_region' op is not supported in a CHIP orchestration body: the orchestration codegen (pld-translate --pld-to-ascend-build) cannot emit it, so --legalize-spmd-launches refuses it}}
  scf.execute_region {
    scf.yield
  }
  return
}

// -----

// Floating-point scalars have no runtime form (parameter, constant, block argument).
// expected-error @+1 {{'func.func' op CHIP orchestration function @float_scalars: parameter #0 must be a tensor, a CommContext or an integer scalar (i1..i64, index), got 'f32'}}
func.func @float_scalars(%f: f32, %n: index) attributes {pl.func_kind = "graph"} {
  // expected-error @+1 {{'arith.constant' op result #0 must be a tensor, a CommContext or an integer scalar (i1..i64, index) in a CHIP orchestration body, got 'f32'}}
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op result #0 must be a tensor, a CommContext or an integer scalar (i1..i64, index) in a CHIP orchestration body, got 'f32'}}
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %f) -> (f32) {
    scf.yield %a : f32
  }
  return
}

// -----

// cf branches: the codegen emits structured control flow only; each branch
// is refused at its own location (orchestration.md), in every block.
func.func private @k(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @cf_blocks(%t: !pl.tensor<4xf32>, %c: i1) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'cf.cond_br' op is not supported in a CHIP orchestration body: the orchestration codegen (pld-translate --pld-to-ascend-build) cannot emit it, so --legalize-spmd-launches refuses it}}
  cf.cond_br %c, ^a, ^b
^a:
  %r = func.call @k(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  // expected-error @+1 {{'cf.br' op is not supported in a CHIP orchestration body}}
  cf.br ^b
^b:
  return
}

// -----

// Views and buffers need static shapes (the descriptor is built from them).
func.func @dynamic_shapes(%t: !pl.tensor<?x4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.tensor.reshape' op result type must have a static shape and a sized element type in a CHIP orchestration body, got '!pl.tensor<?xf32>'}}
  %r = pl.tensor.reshape %t : !pl.tensor<?x4xf32> -> !pl.tensor<?xf32>
  // expected-error @+1 {{'pl.tensor.create' op allocated type must have a static shape and a sized element type in a CHIP orchestration body, got '!pl.tensor<?xf32>'}}
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
  // expected-error @+1 {{'func.call' op callee @incore must be an AIV kernel (pl.func_kind "aiv"): a CHIP orchestration body launches AIV kernels only, got pl.func_kind "incore"}}
  %a = func.call @incore(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  // expected-error @+1 {{'func.call' op result #0 of @fresh must be a parameter the callee returns, or the orchestration codegen cannot name it (a kernel writes its arguments in place)}}
  %b = func.call @fresh(%t) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  // expected-error @+1 {{'pl.submit' op argument #1 of @scalar_arg must be a tensor or a CommContext (a kernel task takes no scalars), got an integer scalar}}
  pl.submit @scalar_arg(%t, %n) : (!pl.tensor<4xf32>, i64) -> ()
  return
}
