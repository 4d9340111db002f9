// --lower-composite-ops refuses every family collective in an InCore body
// (pl.func_kind incore, aic, aiv) at the op: the family has no InCore
// expansion (docs/spec/family.md). Nothing is rewritten when one is refused.
// RUN: pld-opt %s --split-input-file --lower-composite-ops --verify-diagnostics

func.func @allreduce(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "incore"} {
  // expected-error@+1 {{'pld.tensor.allreduce' op allreduce is not supported in an InCore body}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @reduce_scatter(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "aiv"} {
  // expected-error@+1 {{'pld.tensor.reduce_scatter' op reduce_scatter is not supported in an InCore body}}
  %0 = pld.tensor.reduce_scatter %t, %s {reduce = "min"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @allgather(%in: !pl.tensor<4x4xi8>, %t: !pld.dtensor<16x4xi8>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "aic"} {
  // expected-error@+1 {{'pld.tensor.allgather' op allgather is not supported in an InCore body}}
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<4x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xi8>
  return
}

// -----

func.func @broadcast(%t: !pld.dtensor<16x4xi32>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "incore"} {
  // expected-error@+1 {{'pld.tensor.broadcast' op broadcast is not supported in an InCore body}}
  %0 = pld.tensor.broadcast %t, %s {root = 1 : i64} : !pld.dtensor<16x4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xi32>
  return
}

// -----

func.func @all_to_all(%in: !pl.tensor<16x4xf16>, %t: !pld.dtensor<16x4xf16>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "incore"} {
  // expected-error@+1 {{'pld.tensor.all_to_all' op all_to_all is not supported in an InCore body}}
  %0 = pld.tensor.all_to_all %in, %t, %s : !pl.tensor<16x4xf16>, !pld.dtensor<16x4xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf16>
  return
}

// -----

// Inside a loop of an InCore body too.
func.func @barrier(%s: !pld.dtensor<4xi32>, %n: index) attributes {pl.func_kind = "incore"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error@+1 {{'pld.tensor.barrier' op barrier is not supported in an InCore body}}
    %0 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  }
  return
}

// -----

func.func @reduce(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "incore"} {
  // expected-error@+1 {{'pld.tensor.reduce' op reduce is not supported in an InCore body}}
  %0 = pld.tensor.reduce %t, %s {reduce = "sum", root = 0 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @gather(%in: !pl.tensor<4x4xi8>, %t: !pld.dtensor<16x4xi8>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "aiv"} {
  // expected-error@+1 {{'pld.tensor.gather' op gather is not supported in an InCore body}}
  %0 = pld.tensor.gather %in, %t, %s {root = 1 : i64} : !pl.tensor<4x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xi8>
  return
}

// -----

func.func @scatter(%in: !pl.tensor<16x4xi8>, %t: !pld.dtensor<4x4xi8>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "aic"} {
  // expected-error@+1 {{'pld.tensor.scatter' op scatter is not supported in an InCore body}}
  %0 = pld.tensor.scatter %in, %t, %s {root = 1 : i64} : !pl.tensor<16x4xi8>, !pld.dtensor<4x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<4x4xi8>
  return
}

// -----

func.func @permute(%in: !pl.tensor<4x4xf16>, %t: !pld.dtensor<4x4xf16>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "incore"} {
  // expected-error@+1 {{'pld.tensor.permute' op permute is not supported in an InCore body}}
  %0 = pld.tensor.permute %in, %t, %s {pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : !pl.tensor<4x4xf16>, !pld.dtensor<4x4xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<4x4xf16>
  return
}
