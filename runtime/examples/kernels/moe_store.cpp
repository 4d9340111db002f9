// Example user AIV kernel (examples/moe_layers.mlir): moe_store(h [IN], out [OUT], ctx) copies
// the activation window h ([T, H]) into this rank's rows [rank * T, (rank + 1) * T) of out
// ([P * T, H]); ranks write disjoint rows of the one shared output. Single block.
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
  __gm__ ChipTensor* h = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* out = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[2]);
  const int64_t tokens = rows(h), width = row_elems(h);
  const int64_t first = static_cast<int64_t>(ctx->rankId) * tokens;
  if (first + tokens > rows(out) || row_elems(out) != width) return;
  for (int64_t t = 0; t < tokens; ++t) {
    __gm__ float* src = data<float>(h) + t * h->strides[0];
    __gm__ float* dst = data<float>(out) + (first + t) * out->strides[0];
    for (int64_t j = 0; j < width; ++j) dst[j] = src[j];
  }
}
