// pld_runtime/kernel.h: what an AIV kernel is written against.
//
// Entry ABI. Every kernel source defines exactly one entry point, with a fixed name:
//
//     PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) { ... }
//
// `args[i]` is either a `ChipTensor*` (a tensor slot) or a `CommContext*` (a CommContext slot),
// cast to int64_t, in the order the orchestration task added them (tensors first, then
// CommContext slots): the device's kernel ABI (docs/spec/device.md). This header is pld's CPU-only
// adapter over it, not portable to simpler: `tensor_arg` hands out pld's own descriptor of the
// slot's tensor, which only pld's runtime keeps beside the ChipTensor. Kernels meant to run on
// the device are written against the device headers instead (`tensor.h`, `intrinsic.h`, pto-isa). Since each kernel is its own compilation unit with the same entry
// name, a build that links several kernels into one binary renames the entry per kernel on the
// command line: `-Dkernel_entry=<unique symbol>`. Defining `PLD_KERNEL_NAME` as a string literal
// too (`-DPLD_KERNEL_NAME='"stage_step"'`) registers the entry under that kernel name with the
// runtime at static-initialization time, so orchestration code can submit it by name.
//
// Execution model: a launch of B blocks runs `kernel_entry` B times, concurrently; each instance
// reads its index with `pld::block_idx()` (0..B-1) and B with `pld::block_num()`.
#ifndef PLD_RUNTIME_KERNEL_H
#define PLD_RUNTIME_KERNEL_H

#include <cstdint>

#include "pld_runtime/comm.h"
#include "pld_runtime/half.h"  // the CPU `half` (dtype_cpp = half), unless PLD_NATIVE_HALF
#include "pld_runtime/tensor.h"

#ifndef PLD_AIV_KERNEL
#define PLD_AIV_KERNEL extern "C" __attribute__((visibility("default")))
#endif

// ---- Services the runtime provides to kernels (implemented by runtime/host on the CPU). ----
extern "C" {
int32_t pld_rt_block_idx(void);
int32_t pld_rt_block_num(void);
// pld's descriptor of tensor slot `i` of the running block's argument block (null if none).
const pld::Tensor* pld_rt_tensor_arg(const int64_t* args, int32_t i);
// Atomic `*cell += delta`, sequentially consistent (so at least release), visible to every rank;
// wakes a waiter parked on `cell`.
void pld_rt_signal_add(PLD_GM int32_t* cell, int32_t delta);
// Waits until `*cell >= value` (acquire). `row`/`col` name the cell for diagnostics only.
// Returns false when the wait timed out or the run was aborted: the kernel must then return.
bool pld_rt_signal_wait_ge(PLD_GM int32_t* cell, int32_t value, int32_t row, int32_t col);
// Bulk copy of `bytes` bytes; source and destination may live in any rank's memory.
void pld_rt_copy(PLD_GM void* dst, const PLD_GM void* src, uint64_t bytes);
// Full memory fence: every earlier store (copies included) is visible before any later one.
void pld_rt_fence(void);
// Registers `fn` under `name`; returns 0 (used by PLD_KERNEL_NAME's static registration).
int pld_rt_register_kernel(const char* name, void (*fn)(int64_t*));
}

namespace pld {

inline int32_t block_idx() { return pld_rt_block_idx(); }
inline int32_t block_num() { return pld_rt_block_num(); }

inline const PLD_GM Tensor* tensor_arg(PLD_GM int64_t* args, int i) {
  return pld_rt_tensor_arg(args, i);
}
inline const PLD_GM CommContext* comm_arg(PLD_GM int64_t* args, int i) {
  return reinterpret_cast<const PLD_GM CommContext*>(static_cast<uintptr_t>(args[i]));
}

// Signal cells (int32 in a window). Local or remote: pass a peer_ptr() for a remote cell.
inline void signal_add(PLD_GM int32_t* cell, int32_t delta) { pld_rt_signal_add(cell, delta); }
inline bool signal_wait_ge(PLD_GM int32_t* cell, int32_t value, int32_t row, int32_t col) {
  return pld_rt_signal_wait_ge(cell, value, row, col);
}
inline int32_t signal_load(const PLD_GM int32_t* cell) {
  return __atomic_load_n(cell, __ATOMIC_ACQUIRE);
}

// A scalar read of GM (local or a peer's window): one relaxed load, ordered by the barriers.
template <typename T>
inline T load_gm(const PLD_GM T* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
// A scalar store to GM. It goes through the runtime's copy so a tracing runtime sees it.
template <typename T>
inline void store_gm(PLD_GM T* p, T v) { pld_rt_copy(p, &v, sizeof(T)); }

template <typename T>
inline void copy(PLD_GM T* dst, const PLD_GM T* src, int64_t elems) {
  if (elems > 0) pld_rt_copy(dst, src, static_cast<uint64_t>(elems) * sizeof(T));
}

inline void fence() { pld_rt_fence(); }

}  // namespace pld

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args);

#ifdef PLD_KERNEL_NAME
namespace {
[[maybe_unused]] const int pld_kernel_registration_ =
    pld_rt_register_kernel(PLD_KERNEL_NAME, &kernel_entry);
}
#endif

#endif  // PLD_RUNTIME_KERNEL_H
