// Example user AIV kernel: stage_step(inp [IN], stage [INOUT], counts [INOUT]) copies inp into the
// staging window; counts (already written by the host) passes through. Single block. The device's
// kernel text (docs/device.md): one TPUT through a UB tile, completed by the kernel's return.
#include <cstdint>

#include <pto/pto-inst.hpp>
#include "pto/comm/pto_comm_inst.hpp"
#include "tensor.h"

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__
#endif

namespace {

using Bytes = pto::GlobalTensor<int8_t, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>,
                                pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>>;
using Stage = pto::Tile<pto::TileType::Vec, int8_t, 1, 16384, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;

__aicore__ inline __gm__ int8_t* bytes_of(__gm__ ChipTensor* t, int64_t elem) {
  return reinterpret_cast<__gm__ int8_t*>(t->buffer.addr) + t->start_offset * elem;
}
__aicore__ inline int64_t numel(__gm__ ChipTensor* t) {
  int64_t n = 1;
  for (uint32_t k = 0; k < t->ndims; ++k) n *= t->shapes[k];
  return n;
}
__aicore__ inline int64_t elem_size(__gm__ ChipTensor* t) {
  switch (t->dtype) {
    case DataType::FLOAT32: case DataType::INT32: case DataType::UINT32: return 4;
    case DataType::FLOAT16: case DataType::BFLOAT16: case DataType::INT16: case DataType::UINT16: return 2;
    case DataType::INT64: case DataType::UINT64: return 8;
    default: return 1;
  }
}
// n bytes src -> dst (this rank's memory) through a UB staging tile; complete at return.
__aicore__ inline void copy_bytes(__gm__ int8_t* dst, __gm__ int8_t* src, int64_t n) {
  if (n <= 0) return;
  Stage stage(1, static_cast<unsigned>(n < 16384 ? n : 16384));
  TASSIGN(stage, 0);
  Bytes d(dst, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>(n), pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>(n, n, n, n));
  Bytes s(src, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>(n), pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>(n, n, n, n));
  pto::comm::TPUT(d, s, stage);
}

}  // namespace

extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
  __gm__ ChipTensor* inp = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* stage = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  const int64_t n = numel(inp) < numel(stage) ? numel(inp) : numel(stage);
  const int64_t elem = elem_size(inp);
  copy_bytes(bytes_of(stage, elem), bytes_of(inp, elem), n * elem);
  pipe_barrier(PIPE_ALL);
}
