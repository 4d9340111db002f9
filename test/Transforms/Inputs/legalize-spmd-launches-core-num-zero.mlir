// Input of legalize-spmd-launches.mlir (parsed without verification).
func.func @k(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  return
}
func.func @zero_blocks(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op attribute 'pl.core_num' of the launch of @k must be an i64 >= 1, got 0 : i64}}
  func.call @k(%x) {pl.core_num = 0 : i64} : (!pl.tensor<4xf32>) -> ()
  return
}
