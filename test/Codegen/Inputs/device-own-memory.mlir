// A module whose one user AIV kernel (kernel_src/peer_load.cpp) TLOADs a peer's window instead of
// TGETting it: test/Codegen/run-device-own-memory.test.
func.func private @peer_load(%x: !pld.dtensor<16xi32> {pl.direction = "inout"}) -> !pld.dtensor<16xi32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/peer_load.cpp"} {
  return %x : !pld.dtensor<16xi32>
}
func.func @load_peer(%x: !pld.dtensor<16xi32> loc("x")) attributes {pl.func_kind = "orchestration"} {
  %a = call @peer_load(%x) : (!pld.dtensor<16xi32>) -> !pld.dtensor<16xi32>
  return
}
