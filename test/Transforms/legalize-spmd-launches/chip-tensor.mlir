// --legalize-spmd-launches refuses, on both rails, a tensor the device's tensor descriptor
// cannot hold (simpler's ChipTensor, docs/spec/device.md: at most 5 dimensions, 32-bit extents
// and strides, every stride > 0): at the function for a parameter, at the defining op for a
// value. A stride of an extent-1 dimension is never used, so it may be anything.
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics | FileCheck %s

// Five dimensions, a zero stride on an extent-1 dimension: accepted, unchanged.
// CHECK-LABEL: func.func @five_dims
// CHECK-SAME: !pl.tensor<2x1x2x1x2xf32, strides = [4, 0, 2, 7, 1]>
func.func @five_dims(%x: !pl.tensor<2x1x2x1x2xf32, strides = [4, 0, 2, 7, 1]>) attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// expected-error @+1 {{'func.func' op CHIP orchestration function @six_dims: parameter #0 cannot be the device's tensor descriptor (a ChipTensor, docs/spec/device.md): a ChipTensor holds at most 5 dimensions, this type has 6, got '!pl.tensor<1x2x1x2x1x2xf32>'}}
func.func @six_dims(%x: !pl.tensor<1x2x1x2x1x2xf32>) attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// expected-error @+1 {{'func.func' op CHIP orchestration function @zero_stride: parameter #1 cannot be the device's tensor descriptor (a ChipTensor, docs/spec/device.md): stride 0 of dimension 0 is not a ChipTensor stride (every stride is > 0), got '!pl.tensor<4x4xf32, strides = [0, 1]>'}}
func.func @zero_stride(%n: index, %x: !pl.tensor<4x4xf32, strides = [0, 1]>) attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// expected-error @+1 {{'func.func' op CHIP orchestration function @wide_stride: parameter #0 cannot be the device's tensor descriptor (a ChipTensor, docs/spec/device.md): stride 4294967296 of dimension 0 does not fit a ChipTensor's 32-bit strides, got '!pl.tensor<2x4xf32, strides = [4294967296, 1]>'}}
func.func @wide_stride(%x: !pl.tensor<2x4xf32, strides = [4294967296, 1]>) attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// A packed tensor whose leading stride is the product of the others: 2^16 * 2^16 = 2^32.
func.func @big() attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.tensor.create' op result #0 cannot be the device's tensor descriptor (a ChipTensor, docs/spec/device.md): stride 4294967296 of dimension 0 does not fit a ChipTensor's 32-bit strides, got '!pl.tensor<2x65536x65536xi8>'}}
  %t = pl.tensor.create : !pl.tensor<2x65536x65536xi8>
  return
}

// -----

func.func @long_dims() attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.tensor.create' op result #0 cannot be the device's tensor descriptor (a ChipTensor, docs/spec/device.md): extent 4294967296 of dimension 0 does not fit a ChipTensor's 32-bit extents, got '!pl.tensor<4294967296xi8>'}}
  %t = pl.tensor.create : !pl.tensor<4294967296xi8>
  return
}

// -----

// The HOST rail runs the same kernels: its tensors and windows are refused alike.
// expected-error @+1 {{'func.func' op HOST orchestrator @host_six: parameter #0 cannot be the device's tensor descriptor (a ChipTensor, docs/spec/device.md): a ChipTensor holds at most 5 dimensions, this type has 6, got '!pl.tensor<1x1x1x1x1x4xf32>'}}
func.func @host_six(%x: !pl.tensor<1x1x1x1x1x4xf32>) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  return
}

// -----

func.func @host_window() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %buf = pld.window_buffer {bytes = 4096 : i64} : !pld.window_buffer
  // expected-error @+1 {{'pld.window' op result #0 cannot be the device's tensor descriptor (a ChipTensor, docs/spec/device.md): a ChipTensor holds at most 5 dimensions, this type has 6, got '!pld.dtensor<1x1x1x2x2x4xf32>'}}
  %w = pld.window %buf : !pld.dtensor<1x1x1x2x2x4xf32>
  return
}
