// Example user AIV kernel (examples/ep_moe.mlir): fixed-capacity routing.
//   ep_route(h [IN] [T, H], table [IN] [K] i32, stage [OUT] [P * C, H], slot_of [OUT] [T] i32, ctx x2)
// Token t goes to expert e = table[int(sum of h[t]) mod K] (the sum in order, in f32). In token
// order the k-th token for e (k < C) is copied to stage row e * C + k and slot_of[t] = e * C + k;
// later tokens for e, and tokens whose table entry is not an expert, are dropped (slot_of[t] = -1).
// Every other stage row is zeroed: the dense all_to_all sends all P * C rows. P comes from h's
// CommContext, C = stage rows / P. Single block.
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

static __aicore__ inline int64_t numel(__gm__ ChipTensor* t) { return t->shapes[0] * row_elems(t); }

extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
  __gm__ ChipTensor* h = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* table = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* stage = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  __gm__ ChipTensor* slot_of = reinterpret_cast<__gm__ ChipTensor*>(args[3]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[4]);
  const int64_t experts = ctx->rankNum, tokens = rows(h), width = row_elems(h);
  const int64_t classes = numel(table);
  if (experts < 1 || experts > 16 || classes < 1 || rows(stage) % experts != 0 ||
      row_elems(stage) != width || numel(slot_of) < tokens)
    return;
  const int64_t capacity = rows(stage) / experts;
  for (int64_t s = 0; s < rows(stage); ++s)
    for (int64_t j = 0; j < width; ++j) data<float>(stage)[s * stage->strides[0] + j] = 0.0f;
  int64_t taken[16] = {};
  for (int64_t t = 0; t < tokens; ++t) {
    __gm__ float* x = data<float>(h) + t * h->strides[0];
    float sum = 0.0f;
    for (int64_t j = 0; j < width; ++j) sum += x[j];
    int64_t key = static_cast<int64_t>(sum) % classes;
    if (key < 0) key += classes;
    const int64_t e = data<int32_t>(table)[key];
    int32_t slot = -1;
    if (e >= 0 && e < experts && taken[e] < capacity) {
      slot = static_cast<int32_t>(e * capacity + taken[e]++);
      __gm__ float* dst = data<float>(stage) + slot * stage->strides[0];
      for (int64_t j = 0; j < width; ++j) dst[j] = x[j];
    }
    data<int32_t>(slot_of)[t * slot_of->strides[0]] = slot;
  }
}
