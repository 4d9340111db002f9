// Example user AIV kernel (examples/pp_pipeline.mlir): one pipeline stage at one step of the
// GPipe schedule.
//   pp_stage(step [IN] [1] i32, inp [IN] [NM*T, H], w [IN] [P*H, H], recv [IN] window [T, H],
//            send [OUT] [T, H], out [INOUT] [NM*T, H], loss [INOUT] window [1, H], ctx)
// Rank r is stage r. At step s it works on micro-batch m = s - r when 0 <= m < NM (else it idles
// and writes nothing): its input x is micro-batch m of inp on rank 0 and what the previous stage
// sent (recv) on every other rank; it computes y = relu(x @ W_r) + 1, W_r = rows [r*H, (r+1)*H)
// of w, writes y to send (the permute that follows moves it to stage r + 1), adds y's column
// sums to loss, and the last stage stores y as rows [m*T, (m+1)*T) of out. Single block.
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
  __gm__ ChipTensor* step = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* inp = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ ChipTensor* w = reinterpret_cast<__gm__ ChipTensor*>(args[2]);
  __gm__ ChipTensor* recv = reinterpret_cast<__gm__ ChipTensor*>(args[3]);
  __gm__ ChipTensor* send = reinterpret_cast<__gm__ ChipTensor*>(args[4]);
  __gm__ ChipTensor* out = reinterpret_cast<__gm__ ChipTensor*>(args[5]);
  __gm__ ChipTensor* loss = reinterpret_cast<__gm__ ChipTensor*>(args[6]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[7]);
  const int64_t r = ctx->rankId, stages = ctx->rankNum;
  const int64_t tokens = rows(send), width = row_elems(send);
  const int64_t micro = rows(inp) / tokens;
  const int64_t m = static_cast<int64_t>(data<int32_t>(step)[0]) - r;
  if (m < 0 || m >= micro) return;
  if (rows(w) != stages * width || row_elems(w) != width || rows(recv) != tokens ||
      rows(out) != micro * tokens || row_elems(loss) != width)
    return;
  __gm__ float* x = r == 0 ? data<float>(inp) + m * tokens * width : data<float>(recv);
  __gm__ float* wr = data<float>(w) + r * width * width;
  __gm__ float* y = data<float>(send);
  for (int64_t t = 0; t < tokens; ++t)
    for (int64_t j = 0; j < width; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < width; ++k) acc += x[t * width + k] * wr[k * width + j];
      y[t * width + j] = (acc > 0.0f ? acc : 0.0f) + 1.0f;
    }
  for (int64_t j = 0; j < width; ++j)
    for (int64_t t = 0; t < tokens; ++t) data<float>(loss)[j] += y[t * width + j];
  if (r == stages - 1)
    for (int64_t i = 0; i < tokens * width; ++i) data<float>(out)[m * tokens * width + i] = y[i];
}
