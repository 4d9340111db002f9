// --legalize-spmd-launches refuses, at the op, everything in a HOST
// orchestrator that pld-translate's HOST codegen cannot emit
// (src/ir/host_ops.rs is the one list both read), so pld-opt never accepts a
// HOST program that pld-translate then refuses. Its integer arith ops are the
// CHIP list's: both rails emit them from one scalar model
// (src/codegen/scalars.rs). What it accepts it leaves unchanged.
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics | FileCheck %s

// Every integer arith op of the CHIP list (shifts and unsigned min/max
// included), a loop without carried values, windows, a require, a dispatch.
// CHECK-LABEL: func.func @legal
// CHECK: arith.maxui
// CHECK: arith.shli
// CHECK: scf.for
// CHECK: pld.host.dispatch @chip
func.func @chip(%w: !pld.dtensor<4x4xf32>, %n: i32) attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @legal(%t: !pl.tensor<4xf32>, %a: i64, %b: i32, %c: i8, %f: i1) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k = arith.constant 3 : i32
  %0 = arith.addi %b, %k : i32
  %1 = arith.subi %0, %k : i32
  %2 = arith.muli %1, %k : i32
  %3 = arith.divsi %2, %b : i32
  %4 = arith.divui %3, %b : i32
  %5 = arith.remsi %4, %b : i32
  %6 = arith.remui %5, %b : i32
  %7 = arith.minsi %6, %k : i32
  %8 = arith.maxsi %7, %k : i32
  %9 = arith.minui %8, %k : i32
  %10 = arith.maxui %9, %k : i32
  %11 = arith.andi %10, %k : i32
  %12 = arith.ori %11, %k : i32
  %13 = arith.xori %12, %k : i32
  %14 = arith.shli %13, %k : i32
  %15 = arith.shrsi %14, %k : i32
  %16 = arith.shrui %15, %k : i32
  %17 = arith.cmpi ult, %16, %k : i32
  %18 = arith.select %17, %16, %k : i32
  %19 = arith.extsi %c : i8 to i32
  %20 = arith.extui %f : i1 to i64
  %21 = arith.trunci %a : i64 to i8
  %22 = arith.index_cast %18 : i32 to index
  %23 = arith.index_castui %19 : i32 to index
  %ok = arith.andi %17, %f : i1
  pld.host.require %ok else error 7, "checked"
  %buf = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %w = pld.window %buf : !pld.dtensor<4x4xf32>
  scf.for %d = %c0 to %c2 step %c1 {
    pld.host.dispatch @chip(%w, %18) on %d : (!pld.dtensor<4x4xf32>, i32), index
  }
  return
}

// -----

func.func @chip() attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @branch(%f: i1) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'scf.if' op is not supported in a HOST orchestrator: the host codegen (pld-translate --pld-to-ascend-build) cannot emit it, so --legalize-spmd-launches refuses it}}
  scf.if %f {
    pld.host.dispatch @chip() on %c0 : (), index
  }
  // expected-error @+1 {{'arith.constant' op result #0 must be an integer scalar (i1..i64, index) in a HOST orchestrator, got 'f32'}}
  %y = arith.constant 1.0 : f32
  // expected-error @+1 {{'arith.addf' op is not supported in a HOST orchestrator}}
  %x = arith.addf %y, %y : f32
  return
}

// -----

// expected-error @+1 {{'func.func' op HOST orchestrator @params: parameter #1 must be a host tensor (!pl.tensor) or an integer scalar (i1..i64, index), got '!pld.dtensor<4xf32>'}}
func.func @params(%t: !pl.tensor<4xf32>, %d: !pld.dtensor<4xf32>, %n: index) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  return
}

// -----

func.func @carried(%n: index) -> index attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op with loop-carried values is not supported in a HOST orchestrator (the host codegen emits loops without them)}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %s = arith.addi %acc, %i : index
    scf.yield %s : index
  }
  return %r : index
}

// -----

func.func @views() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %buf = pld.window_buffer {bytes = 4096 : i64} : !pld.window_buffer
  // expected-error @+1 {{'pld.window' op result type must have a static shape and a sized element type in a HOST orchestrator, got '!pld.dtensor<?x4xf32>'}}
  %a = pld.window %buf : !pld.dtensor<?x4xf32>
  // expected-error @+1 {{'pld.window' op result type must be a packed row-major (nd) view in a HOST orchestrator, got '!pld.dtensor<4x4xf32, strides = [8, 1]>'}}
  %b = pld.window %buf : !pld.dtensor<4x4xf32, strides = [8, 1]>
  return
}

// -----

func.func private @external() attributes {pl.func_kind = "orchestration"}
func.func @declared() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'pld.host.dispatch' op callee @external must be a CHIP orchestration function with a body (the host codegen dispatches its generated orchestration)}}
  pld.host.dispatch @external() on %c0 : (), index
  return
}
