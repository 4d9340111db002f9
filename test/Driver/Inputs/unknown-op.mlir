func.func @f(%a: !pl.tensor<16x4xf32>) {
  %0 = "pl.tensor.frobnicate"(%a) : (!pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return
}
