// Example user AIV kernel (examples/moe_layers.mlir): the residual combine.
//   moe_gather(combined [IN] [P * C, H], slot_of [IN] [T] i32, h [IN] [T, H],
//              h_next [OUT] [T, H], ctx x3)
// h_next[t] = h[t] + combined[slot_of[t]] for a routed token (its expert's result came back to
// the slot it was staged in), h_next[t] = h[t] for a dropped one (slot_of[t] = -1). Single block.
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

static __aicore__ inline int64_t numel(__gm__ ChipTensor* t) { return t->shapes[0] * row_elems(t); }

extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
  __gm__ ChipTensor* combined = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* slot_of = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* h = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  __gm__ ChipTensor* h_next = reinterpret_cast<__gm__ ChipTensor*>(args[3]);
  const int64_t tokens = rows(h), width = row_elems(h);
  if (rows(h_next) != tokens || row_elems(h_next) != width || numel(slot_of) < tokens) return;
  for (int64_t t = 0; t < tokens; ++t) {
    const int64_t slot = data<int32_t>(slot_of)[t * slot_of->strides[0]];
    __gm__ float* x = data<float>(h) + t * h->strides[0];
    __gm__ float* dst = data<float>(h_next) + t * h_next->strides[0];
    const bool routed = slot >= 0 && slot < rows(combined);
    __gm__ float* r = routed ? data<float>(combined) + slot * combined->strides[0] : nullptr;
    for (int64_t j = 0; j < width; ++j) dst[j] = routed ? x[j] + r[j] : x[j];
  }
}
