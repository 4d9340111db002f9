// Example user AIV kernel (examples/ep_moe.mlir): the routing table of a layer.
//   ep_router(layer_id [IN] [1] i32, table [OUT] [K] i32, ctx)
// Rank 0 (the root of the broadcast that follows) writes table[k] = (3 * k + layer + 1) mod P:
// token class k goes to expert table[k]. Every other rank writes -1 (no expert), so a rank routes
// correctly only with the table the broadcast brought it. Single block.
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

static __aicore__ inline int64_t row_elems(__gm__ ChipTensor* t) {
  int64_t n = 1;
  for (uint32_t k = 1; k < t->ndims; ++k) n *= t->shapes[k];
  return n;
}

static __aicore__ inline int64_t numel(__gm__ ChipTensor* t) { return t->shapes[0] * row_elems(t); }

extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
  __gm__ ChipTensor* layer_id = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ ChipTensor* table = reinterpret_cast<__gm__ ChipTensor*>(args[1]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[2]);
  const int64_t layer = data<int32_t>(layer_id)[0], ranks = ctx->rankNum;
  for (int64_t k = 0; k < numel(table); ++k)
    data<int32_t>(table)[k] = ctx->rankId == 0 ? static_cast<int32_t>((3 * k + layer + 1) % ranks) : -1;
}
