// The rest of the vocabulary in one CHIP program on 4 ranks (test/Codegen/run-vocabulary.test):
// a ring-shift permute of x, a gather of x to rank 1, a scatter of that gather back from rank 1,
// a reduce (sum) of r to rank 3, and a permute without pairs (erased).
func.func @vocab(%x: !pl.tensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<4xi32>,
                 %all: !pld.dtensor<8x4xf32>, %mine: !pld.dtensor<2x4xf32>, %r: !pld.dtensor<2x4xf32>)
    attributes {pl.func_kind = "orchestration"} {
  %p = pld.tensor.permute %x, %t, %s {pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>} : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  %g = pld.tensor.gather %x, %all, %s {root = 1 : i64} : !pl.tensor<2x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  %c = pld.tensor.scatter %g, %mine, %s {root = 1 : i64} : !pld.dtensor<8x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  %rr = pld.tensor.reduce %r, %s {reduce = "sum", root = 3 : i64} : !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  %e = pld.tensor.permute %x, %p, %s {pairs = dense<> : tensor<0x2xi64>} : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
  return
}
