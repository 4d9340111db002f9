func.func @f(%a: !pl.tensor<16x4xf32, layout = nd, strides = [4, 1, 1]>) {
  return
}
