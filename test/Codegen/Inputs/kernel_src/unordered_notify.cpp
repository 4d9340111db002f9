// A user AIV kernel for test/Codegen/run-device-order.test, in the device's kernel text: it copies
// the first half of x (i32) into the second half with a TPUT, then notifies on x[0] without the
// pipe_barrier that completes the TPUT: a device-order violation pld's runtime must report.
#include <cstdint>

#include <pto/pto-inst.hpp>
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
using Stage = pto::Tile<pto::TileType::Vec, int32_t, 1, 64, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;

extern "C" __aicore__ void kernel_entry(__gm__ int64_t* args) {
  __gm__ ChipTensor* x = reinterpret_cast<__gm__ ChipTensor*>(args[0]);
  __gm__ int32_t* p = reinterpret_cast<__gm__ int32_t*>(x->buffer.addr) + x->start_offset;
  const int64_t half = x->shapes[0] / 2;
  Stage stage(1, static_cast<unsigned>(half));
  TASSIGN(stage, 0);
  Row dst(p + half, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>(half),
          pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>(half, half, half, half));
  Row src(p, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>(half),
          pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>(half, half, half, half));
  pto::comm::TPUT(dst, src, stage);
  pto::comm::Signal cell(p);
  pto::comm::TNOTIFY(cell, 0, pto::comm::NotifyOp::AtomicAdd);
}
