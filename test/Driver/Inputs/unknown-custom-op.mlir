func.func @f(%a: !pl.tensor<16x4xf32>) {
  %0 = pld.tensor.all_gather %a : !pl.tensor<16x4xf32>
  return
}
