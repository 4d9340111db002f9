// Example user AIV kernel (examples/moe_layers.mlir): the expert of this rank.
//   moe_expert(recv [IN] [P * C, H], recv_counts [IN] [P] i32, y [OUT] [P * C, H],
//              back_counts [OUT] [P] i32, ctx x4)
// Expert e (= this rank) computes y = 2 * x + (e + 1) on the recv_counts[src] rows it received
// from each source rank src (rows src * C ..), in place in the same rows of y, and sends every
// row back: back_counts[src] = recv_counts[src]. Single block.
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
  __gm__ ChipTensor* recv = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* recv_counts = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* y = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  __gm__ ChipTensor* back_counts = reinterpret_cast<__gm__ ChipTensor*>(args[3]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[4]);
  const int64_t sources = numel(recv_counts);
  if (sources <= 0 || numel(back_counts) != sources) return;
  const int64_t capacity = rows(recv) / sources, width = row_elems(recv);
  const float bias = static_cast<float>(ctx->rankId + 1);
  for (int64_t src = 0; src < sources; ++src) {
    const int32_t n = data<int32_t>(recv_counts)[src];
    for (int64_t k = 0; k < n && k < capacity; ++k) {
      __gm__ float* in = data<float>(recv) + (src * capacity + k) * recv->strides[0];
      __gm__ float* res = data<float>(y) + (src * capacity + k) * y->strides[0];
      for (int64_t j = 0; j < width; ++j) res[j] = 2.0f * in[j] + bias;
    }
    data<int32_t>(back_counts)[src] = n;
  }
}
