// Example user AIV kernel (examples/tp_layer.mlir): the row-parallel half of the MLP.
//   tp_row(a [IN] [T, Fs], w2 [IN] [F, H] (this layer's W2, F = P * Fs), x [IN] [T, H],
//          y [OUT] [T, H], ctx x2)
// Rank r computes its partial output y = a @ W2[r * Fs : (r + 1) * Fs, :], each dot product
// summed in order j = 0..Fs-1 in f32, and rank 0 adds the residual x, so the sum of every rank's
// y is x + relu(x @ W1) @ W2. The rank comes from x's CommContext. Single block.
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
  __gm__ ChipTensor* a = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* w2 = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* x = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  __gm__ ChipTensor* y = reinterpret_cast<__gm__ ChipTensor*>(args[3]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[4]);
  const int64_t tokens = rows(y), hidden = row_elems(y), shard = row_elems(a);
  const int64_t first = static_cast<int64_t>(ctx->rankId) * shard;
  if (rows(a) != tokens || rows(x) != tokens || row_elems(x) != hidden ||
      row_elems(w2) != hidden || first + shard > rows(w2))
    return;
  const bool residual = ctx->rankId == 0;
  for (int64_t t = 0; t < tokens; ++t) {
    __gm__ float* at = data<float>(a) + t * a->strides[0];
    __gm__ float* xt = data<float>(x) + t * x->strides[0];
    __gm__ float* yt = data<float>(y) + t * y->strides[0];
    for (int64_t i = 0; i < hidden; ++i) {
      float acc = 0.0f;
      for (int64_t j = 0; j < shard; ++j) acc += at[j] * data<float>(w2)[(first + j) * w2->strides[0] + i];
      yt[i] = residual ? xt[i] + acc : acc;
    }
  }
}
