func.func @f(%a: !pld.tensor<16x4xf32>) {
  return
}
