// runtime/host/internal.h: what the runtime's translation units share (not an interface for
// kernels or drivers).
#ifndef PLD_RUNTIME_HOST_INTERNAL_H
#define PLD_RUNTIME_HOST_INTERNAL_H

#include <cstdint>
#include <string>

#include "pld_runtime/tensor.h"
#include "tensor.h"

namespace pld {
namespace host {
namespace internal {

// Thrown through a kernel to end its block early (the run was failed or aborted: a device-order
// violation, a bounded wait that ran out). Caught by the runtime around the kernel's entry.
struct BlockEnded {};

// The kernel block the calling thread runs, if any.
struct BlockInfo {
  int rank;
  int block;
  const char* kernel;
};
bool current_block(BlockInfo* info);

// Fails the run from inside a kernel block: records `message` for the rank, aborts the world
// (every other wait ends promptly) and remembers `code` as the status of the task's submit.
void fail_run(int code, const std::string& message);

// `t` as the device's descriptor (false, with the reason, when a ChipTensor cannot hold it).
bool chip_tensor_of(const pld::Tensor& t, ChipTensor* c, std::string* why);

// The world rank other than the calling block's whose window [lo, hi) overlaps, or -1.
int peer_window_rank(const void* lo, const void* hi);

// The run was aborted (by a failure anywhere).
bool run_aborted();

// Records a copy for World::copies() when tracing is on.
void trace_copy(void* dst, const void* src, uint64_t bytes);

// Bounded signal wait (the runtime's wait engine): true once `*cell <cmp> value` (WaitCmp
// numbering: EQ, NE, GT, GE, LT, LE), false when it timed out (reported) or the run was aborted.
bool wait_signal(int32_t* cell, int32_t value, int cmp, int line);

// Per-block device state (device.cpp): created before a block's kernel runs, completed and
// destroyed after it returned (its transfers in flight complete at the return).
void device_block_begin();
void device_block_end();

}  // namespace internal
}  // namespace host
}  // namespace pld

#endif  // PLD_RUNTIME_HOST_INTERNAL_H
