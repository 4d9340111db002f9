// Example user AIV kernel (examples/tp_layer.mlir): the column-parallel half of the MLP.
//   tp_column(x [IN] [T, H], w1 [IN] [H, F] (this layer's W1, F = P * Fs), a [OUT] [T, Fs], ctx)
// Rank r computes a = relu(x @ W1[:, r * Fs : (r + 1) * Fs]), each dot product summed in order
// k = 0..H-1 in f32. The rank comes from x's CommContext. Single block.
#include <cstdint>

#include <pto/pto-inst.hpp>
#include "platform_comm/comm_context.h"

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
  __gm__ ChipTensor* x = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* w1 = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* a = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[3]);
  const int64_t tokens = rows(x), hidden = row_elems(x), shard = row_elems(a);
  const int64_t first = static_cast<int64_t>(ctx->rankId) * shard;
  if (rows(a) != tokens || rows(w1) != hidden || first + shard > row_elems(w1)) return;
  for (int64_t t = 0; t < tokens; ++t) {
    __gm__ float* xt = data<float>(x) + t * x->strides[0];
    __gm__ float* at = data<float>(a) + t * a->strides[0];
    for (int64_t j = 0; j < shard; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < hidden; ++k) acc += xt[k] * data<float>(w1)[k * w1->strides[0] + first + j];
      at[j] = acc > 0.0f ? acc : 0.0f;
    }
  }
}
