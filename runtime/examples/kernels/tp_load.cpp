// Example user AIV kernel (examples/tp_layer.mlir): tp_load(inp [IN] [T, H], x [OUT] [T, H], ctx)
// copies the tokens, which every rank holds alike (tensor parallelism replicates the activations),
// into the activation window x. Single block.
#include <cstdint>

#include <pto/pto-inst.hpp>

#include "tensor.h"

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__
#endif

// Element 0 of a tensor argument (ChipTensor fields only).
template <typename T>
static __aicore__ inline __gm__ T* data(__gm__ ChipTensor* t) {
  return reinterpret_cast<__gm__ T*>(t->buffer.addr) + t->start_offset;
}

static __aicore__ inline int64_t rows(__gm__ ChipTensor* t) { return t->shapes[0]; }

static __aicore__ inline int64_t row_elems(__gm__ ChipTensor* t) {
  int64_t n = 1;
  for (uint32_t k = 1; k < t->ndims; ++k) n *= t->shapes[k];
  return n;
}

extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
  __gm__ ChipTensor* inp = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* x = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  const int64_t tokens = rows(x), width = row_elems(x);
  if (rows(inp) != tokens || row_elems(inp) != width) return;
  for (int64_t t = 0; t < tokens; ++t) {
    __gm__ float* src = data<float>(inp) + t * inp->strides[0];
    __gm__ float* dst = data<float>(x) + t * x->strides[0];
    for (int64_t j = 0; j < width; ++j) dst[j] = src[j];
  }
}
