// Example user AIV kernel (examples/micro_batches.mlir):
//   mb_unpack(recv [IN] [P * R, H], recv_counts [IN] [P] i32, part [OUT] [P * R, H], ctx x2)
// part[q * R + k] = 2 * recv[q * R + k] + 1 for k < recv_counts[q] (the rows peer q sent in this
// micro-batch); every other row of part is left as it is (zero in a fresh pl.tensor.create
// buffer). Single block.
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
  __gm__ ChipTensor* recv = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* recv_counts = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* part = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  const int64_t peers = numel(recv_counts);
  if (peers <= 0 || recv->ndims != 2 || part->ndims != 2 || recv->shapes[1] != part->shapes[1]) return;
  const int64_t per_peer = rows(recv) / peers, width = recv->shapes[1];
  for (int64_t q = 0; q < peers; ++q) {
    const int64_t n = data<int32_t>(recv_counts)[q];
    for (int64_t k = 0; k < n && k < per_peer; ++k) {
      __gm__ float* src = data<float>(recv) + (q * per_peer + k) * recv->strides[0];
      __gm__ float* dst = data<float>(part) + (q * per_peer + k) * part->strides[0];
      for (int64_t e = 0; e < width; ++e) dst[e * part->strides[1]] = 2.0f * src[e * recv->strides[1]] + 1.0f;
    }
  }
}
