// Example user AIV kernel (examples/micro_batches.mlir):
//   mb_pack(xs [IN] [P * R, H], stage [OUT] [P * R, H], send_counts [OUT] [P] i32, ctx x2)
// Rows [q * R, (q + 1) * R) of the micro-batch xs are for peer q. The rows whose first element,
// as an integer, is not a multiple of 3 are packed, in order, to the front of chunk q of stage
// (rows q * R ..); send_counts[q] = how many. xs may be a strided view (a slice of a bigger
// tensor): rows are addressed through its strides. Single block.
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
  __gm__ ChipTensor* xs = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* stage = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* send_counts = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  const int64_t peers = numel(send_counts);
  if (peers <= 0 || xs->ndims != 2 || stage->ndims != 2 || xs->shapes[1] != stage->shapes[1]) return;
  const int64_t per_peer = rows(stage) / peers, width = xs->shapes[1];
  for (int64_t q = 0; q < peers; ++q) {
    int32_t kept = 0;
    for (int64_t j = q * per_peer; j < (q + 1) * per_peer && j < rows(xs); ++j) {
      __gm__ float* row = data<float>(xs) + j * xs->strides[0];
      if (static_cast<int64_t>(row[0]) % 3 == 0) continue;
      __gm__ float* dst = data<float>(stage) + (q * per_peer + kept) * stage->strides[0];
      for (int64_t e = 0; e < width; ++e) dst[e * stage->strides[1]] = row[e * xs->strides[1]];
      ++kept;
    }
    data<int32_t>(send_counts)[q] = kept;
  }
}
