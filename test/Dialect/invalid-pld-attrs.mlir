// The pld dialect defines no discardable attributes: a pld.* attribute is an
// error that names it and points at the pl spelling (a misspelled
// pld.func_kind used to leave the function without a kind, and its
// collectives silently out of the build).
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{'func.func' op unknown attribute 'pld.func_kind' of the pld dialect (it defines none; the function and call attributes are the pl dialect's: 'pl.func_kind'?)}}
func.func @chip(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4x2xi32>) attributes {pld.func_kind = "orchestration"} {
  %x = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<8x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

// expected-error@+1 {{'func.func' op unknown argument attribute 'pld.direction' of the pld dialect (it defines none; the function and call attributes are the pl dialect's: 'pl.direction'?)}}
func.func private @k(%a: !pl.tensor<4xf32> {pld.direction = "in"}) attributes {pl.func_kind = "aiv"}

// -----

// expected-error@+1 {{'func.func' op unknown result attribute 'pld.x' of the pld dialect}}
func.func private @k() -> (i64 {pld.x}) attributes {pl.func_kind = "aiv"}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op unknown attribute 'pld.core_num' of the pld dialect (it defines none; the function and call attributes are the pl dialect's: 'pl.core_num'?)}}
  %c = arith.constant {pld.core_num = 2 : i64} 0 : i64
  return
}
