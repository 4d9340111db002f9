func.func @chip(%a: !pl.tensor<16x4xf32>) {
  %0 = pl.tensor.reshape %a : !pl.tensor<16x4xf32> -> 
