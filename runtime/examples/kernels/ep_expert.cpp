// Example user AIV kernel (examples/ep_moe.mlir): the expert of this rank, fixed capacity.
//   ep_expert(recv [IN] [P * C, H], y [OUT] [P * C, H], ctx)
// Expert e (= this rank) computes y = 2 * x + (e + 1) on every received slot, filled or not (an
// unused slot's result goes back too and is never read). Single block.
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
  __gm__ ChipTensor* recv = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* y = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[2]);
  const int64_t slots = rows(recv), width = row_elems(recv);
  if (rows(y) != slots || row_elems(y) != width) return;
  const float bias = static_cast<float>(ctx->rankId + 1);
  for (int64_t s = 0; s < slots; ++s) {
    __gm__ float* in = data<float>(recv) + s * recv->strides[0];
    __gm__ float* res = data<float>(y) + s * y->strides[0];
    for (int64_t j = 0; j < width; ++j) res[j] = 2.0f * in[j] + bias;
  }
}
