// A user AIV kernel for test/Codegen/run-device-own-memory.test, in the device's kernel text: it
// TLOADs the next rank's copy of its window x (i32) straight into UB. Data cross ranks only
// through TPUT / TGET (docs/spec/device.md): pld's runtime must report the TLOAD.
#include <cstdint>

#include <pto/pto-inst.hpp>
#include "platform_comm/comm_context.h"
#include "pto/comm/comm_types.hpp"
#include "pto/comm/pto_comm_inst.hpp"
#include "tensor.h"

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__
#endif

using Row = pto::GlobalTensor<int32_t, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>,
                              pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>>;
using Tile = pto::Tile<pto::TileType::Vec, int32_t, 1, 64, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;

extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
  __gm__ ChipTensor* x = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ CommContext* ctx = reinterpret_cast<__gm__ CommContext*>(args[1]);
  __gm__ int32_t* p = reinterpret_cast<__gm__ int32_t*>(x->buffer.addr) + x->start_offset;
  const uint64_t next = (ctx->rankId + 1) % ctx->rankNum;
  __gm__ int32_t* theirs =
      reinterpret_cast<__gm__ int32_t*>(ctx->windowsIn[next] + (reinterpret_cast<uint64_t>(p) - ctx->windowsIn[ctx->rankId]));
  const int64_t n = x->shapes[0];
  Tile t(1, static_cast<unsigned>(n));
  TASSIGN(t, 0);
  Row g(theirs, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>(n),
        pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>(n, n, n, n));
  TLOAD(t, g);
  pipe_barrier(PIPE_ALL);
}
