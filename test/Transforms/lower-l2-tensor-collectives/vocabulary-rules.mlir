// The CHIP rail's generic rows for reduce, gather, scatter and permute, from
// their table rows like the rest of the family: the contiguity trace, the
// provable-aliasing check, the signal's NR beyond the kernels' 16 ranks.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics

// A transposed view is not a packed input.
func.func @scatter_transposed(%x: !pl.tensor<4x16xf32>, %t: !pld.dtensor<4x4xf32>, %s: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the chain is broken by 'pl.tensor.transpose': it is not on the contiguity allow-list}}
  %in = pl.tensor.transpose %x {perm = array<i64: 1, 0>} : !pl.tensor<4x16xf32> -> !pl.tensor<16x4xf32>
  // expected-error @+1 {{operand 'input' is not provably contiguous}}
  %0 = pld.tensor.scatter %in, %t, %s {root = 0 : i64} : !pl.tensor<16x4xf32>, !pld.dtensor<4x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x4xf32>
  return
}

// -----

// permute's input is a cast of its own target.
// expected-note@+1 {{both are views of this parameter (#0)}}
func.func @permute_aliased(%t: !pld.dtensor<4x4xf32>, %s: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-note@+1 {{operand 'input' is a view of it through this value}}
  %in = pl.cast %t : !pld.dtensor<4x4xf32> to !pl.tensor<4x4xf32>
  // expected-error@+1 {{'pld.tensor.permute' op operands input and target must be different window allocations}}
  %0 = pld.tensor.permute %in, %t, %s {pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : !pl.tensor<4x4xf32>, !pld.dtensor<4x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x4xf32>
  return
}

// -----

// gather's input is rows of its own target.
// expected-note@+1 {{both are views of this parameter (#0)}}
func.func @gather_aliased(%t: !pld.dtensor<16x4xi32>, %s: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-note@+1 {{operand 'input' is a view of it through this value}}
  %in = pl.tensor.view %t {offsets = array<i64: 4, 0>} : !pld.dtensor<16x4xi32> -> !pld.dtensor<4x4xi32>
  // expected-error@+1 {{'pld.tensor.gather' op operands input and target must be different window allocations}}
  %0 = pld.tensor.gather %in, %t, %s {root = 0 : i64} : !pld.dtensor<4x4xi32>, !pld.dtensor<16x4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xi32>
  return
}

// -----

// A signal of 17 ranks: beyond the family kernels' limit.
func.func @reduce_17(%t: !pld.dtensor<8xf32>, %s: !pld.dtensor<17xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.reduce' op reduce supports at most 16 ranks (its kernel's limit), got NR=17 ranks}}
  %0 = pld.tensor.reduce %t, %s {reduce = "sum", root = 0 : i64} : !pld.dtensor<8xf32>, !pld.dtensor<17xi32> -> !pld.dtensor<8xf32>
  return
}
