// Example user AIV kernel (examples/moe_layers.mlir): top-1 routing with a capacity.
//   moe_route(h [IN] [T, H], layer_id [IN] [1] i32, stage [OUT] [P * C, H],
//             send_counts [OUT] [P] i32, slot_of [OUT] [T] i32, ctx x3)
// Token t goes to expert e = (int(sum of h[t]) + layer) mod P. In token order, the first C tokens of
// each expert are staged at stage[e * C + k] (k = how many went to e before it) and
// slot_of[t] = e * C + k; a token over capacity is dropped (slot_of[t] = -1). send_counts[e] is
// the number staged for e (at most C = stage.rows / P): the all_to_all_v then delivers
// stage[e * C .. e * C + send_counts[e]) to rank e. Single block.
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
  __gm__ ChipTensor* h = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* layer_id = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* stage = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  __gm__ ChipTensor* send_counts = reinterpret_cast<__gm__ ChipTensor*>(args[3]);
  __gm__ ChipTensor* slot_of = reinterpret_cast<__gm__ ChipTensor*>(args[4]);
  const int64_t experts = numel(send_counts);
  if (experts <= 0) return;
  const int64_t capacity = rows(stage) / experts;
  const int64_t tokens = rows(h), width = row_elems(h);
  if (row_elems(stage) != width || numel(slot_of) < tokens) return;
  const int64_t layer = data<int32_t>(layer_id)[0];
  __gm__ int32_t* counts = data<int32_t>(send_counts);
  for (int64_t e = 0; e < experts; ++e) counts[e] = 0;
  for (int64_t t = 0; t < tokens; ++t) {
    __gm__ float* row = data<float>(h) + t * h->strides[0];
    float sum = 0.0f;
    for (int64_t j = 0; j < width; ++j) sum += row[j];
    const int64_t key = static_cast<int64_t>(sum) + layer;
    const int64_t e = ((key % experts) + experts) % experts;
    int32_t slot = -1;
    if (counts[e] < capacity) {
      slot = static_cast<int32_t>(e * capacity + counts[e]);
      counts[e] += 1;
      __gm__ float* dst = data<float>(stage) + slot * stage->strides[0];
      for (int64_t j = 0; j < width; ++j) dst[j] = row[j];
    }
    data<int32_t>(slot_of)[t * slot_of->strides[0]] = slot;
  }
}
