// pld_runtime/orchestration.h: what generated orchestration code is written against: the
// ChipEntry table (chip_entries.cpp) and the runtime's Orchestration. Light on purpose (no
// standard container): every generated chip_entries.cpp compiles it. The task builder the
// runtime submits is pld_runtime/task.h.
// See docs/runtime-api.md for the exact shape generated code must take.
#ifndef PLD_RUNTIME_ORCHESTRATION_H
#define PLD_RUNTIME_ORCHESTRATION_H

#include <cstddef>
#include <cstdint>

#include "pld_runtime/comm.h"
#include "pld_runtime/scalar.h"
#include "pld_runtime/tensor.h"

// Status codes returned by submit() and by orchestration functions (0 = success).
constexpr int SIMPLER_OK = 0;
// Invalid launch parameters or operands (e.g. the is_contiguous backstop, block_num < 1).
constexpr int SIMPLER_ERROR_INVALID_ARGS = 5;
// Fatal: a require_sync_start launch asked for more blocks than the device has AIV cores. The
// runtime rejects it at submit, before any block runs.
constexpr int SIMPLER_FATAL_SYNC_START_OVER_CAPACITY = 7;
// pld host runtime only: no kernel is registered under the submitted name.
constexpr int PLD_ERROR_UNKNOWN_KERNEL = 121;
// pld host runtime only: a signal wait timed out (the message names rank, block and cell).
constexpr int PLD_ERROR_WAIT_TIMEOUT = 120;
// pld host runtime only: a kernel broke the device's ordering rules (a notify with a transfer in
// flight, a tile used before its transfer completed; docs/device.md). The message names the
// kernel and the line.
constexpr int PLD_ERROR_DEVICE_ORDER = 122;

struct ChipTaskArgs;             // pto_orchestration_api.h
struct PTO2OrchestrationConfig;  // pto_orchestration_api.h

namespace pld {
namespace rt {

using pld::CommContext;
using pld::Tensor;

class Task;  // pld_runtime/task.h

// The arguments of a CHIP orchestration function: its tensor parameters in declaration order,
// then its CommContext parameters (one per DistributedTensor parameter) in declaration order,
// and its integer scalar parameters (`i1`..`i64`, `index`) in declaration order among scalars,
// each as an int64_t (generated code re-normalizes an iN value to N bits, see scalar.h).
struct OrchArgs {
  Tensor* const* tensors = nullptr;
  int num_tensors = 0;
  CommContext* const* comms = nullptr;
  int num_comms = 0;
  // The launch width a HOST dispatch gave a builtin collective callable
  // (`pld.host.dispatch @builtin.tensor.* ... core_num(B)`, see pld_runtime/host_entry.h and
  // docs/codegen.md); 0 when the dispatch gave none. Generated code for such a callable launches
  // its one kernel with B blocks and sync start when B > 1.
  int dispatch_block_num = 0;
  // The source location (`file:line:col`) of the HOST collective whose dispatch runs this
  // builtin callable (nullptr when none was given): the callable's collective task reports it
  // instead of its own, so two collectives sharing one callable are told apart.
  const char* dispatch_site = nullptr;

  const int64_t* scalars = nullptr;
  int num_scalars = 0;

  Tensor& tensor(int i) const { return *tensors[i]; }
  CommContext* comm(int i) const { return comms[i]; }
  int64_t scalar(int i) const { return scalars[i]; }
};

class RankState;  // runtime-private

// A CHIP orchestration written against simpler's orchestration API (`pto_orchestration_api.h`,
// docs/device.md): its two entry points, compiled with their names changed on the command line
// (`-Daicpu_orchestration_entry=...`), and its kernels by func_id (`kernel_config.py`'s KERNELS),
// each the name it is registered under.
using ChipEntryFn = void (*)(const ::ChipTaskArgs& orch_args);
using ChipConfigFn = ::PTO2OrchestrationConfig (*)(const ::ChipTaskArgs& orch_args);
// A kernel that is a managed collective (pld-translate's builtin): the runtime records it for its
// timeout reports as Task::set_collective does; its scalars are CommContext slots.
struct ChipCollective {
  const char* op;    // nullptr: not a collective
  const char* site;  // the user's file:line:col
  int signal_slot;
  int nr_axis;
};
struct ChipEntry {
  const char* name;              // for messages
  ChipEntryFn entry;
  ChipConfigFn config;           // nullptr: the argument count is not checked
  const char* const* kernels;    // kernels[func_id]
  int num_kernels;
  const ChipCollective* collectives = nullptr;  // collectives[func_id], or none
  // A builtin callable of a HOST dispatch: it takes two more scalars, the launch width and the
  // dispatching collective's site (OrchArgs::dispatch_block_num / dispatch_site).
  bool dispatch_args = false;
};
// The arguments of one call of a ChipEntry: its tensors in order (each becomes a ChipTensor),
// then its scalars in order (integers sign-extended to 64 bits, a CommContext's address).
struct ChipCall {
  ChipCall() = default;
  ChipCall(const Tensor* const* t, int nt, const uint64_t* s = nullptr, int ns = 0)
      : tensors(t), num_tensors(nt), scalars(s), num_scalars(ns) {}
  const Tensor* const* tensors = nullptr;
  int num_tensors = 0;
  const uint64_t* scalars = nullptr;
  int num_scalars = 0;
};

// One rank's submission queue. Tasks run in submission (program) order; submit() returns once
// the task has completed on this rank.
class Orchestration {
 public:
  explicit Orchestration(RankState* state) : state_(state) {}

  // Runs the task. Returns 0, or the error it latched. Once an error is latched (by a failed
  // submit or by latch_error) every later submit is refused without running and returns it.
  int submit(const Task& task);
  // Latches `code` (the first latched code wins) and returns the latched code.
  int latch_error(int code);
  // The latched code, 0 if none.
  int status() const;
  // Latches `code` like latch_error and records `message` in the runtime's error log (the first
  // message of the world wins, as for every runtime error). Returns the latched code.
  int fail(int code, const char* message);
  // This rank's index (informational; generated code does not need it).
  int rank() const;
  // Runs `entry` on this rank with `call`'s arguments, as simpler's executor does: checks the
  // argument count against its config, binds the orchestration API to this Orchestration, opens
  // one scope around the entry. Returns 0 or the status it latched (a fatal report's code).
  int run_chip(const ChipEntry& entry, const ChipCall& call);
  // The same with `args` in the runtime's argument struct: its tensors, then its integer scalars
  // and its CommContexts (their addresses) as the scalars, in that order (pld-translate renders
  // every integer parameter before the CommContexts), then for a `dispatch_args` entry the
  // launch width and the site.
  int run_chip(const ChipEntry& entry, const OrchArgs& args);

  // `pl.tensor.create`: a fresh zero-filled packed row-major buffer of `rank` dims, owned by the
  // runtime until the innermost live AllocScope of this Orchestration ends. Returns 0 and sets
  // *out, or fails (latches SIMPLER_ERROR_INVALID_ARGS: a negative dim, a bad rank or element
  // size, or a size that cannot be allocated).
  int create_tensor(int32_t elem_size, const int64_t* dims, int rank, Tensor* out);
  // How many create_tensor buffers of this rank are live (for tests and diagnostics).
  size_t live_buffers() const;

 private:
  friend class AllocScope;
  RankState* state_;
};

// Owns the buffers create_tensor makes while it is the innermost live scope of `orch`; frees them
// when it ends. Generated orchestration code opens one at entry, so a create's buffer lives until
// that orchestration call returns (a create inside a loop allocates every iteration).
class AllocScope {
 public:
  explicit AllocScope(Orchestration* orch);
  ~AllocScope();
  AllocScope(const AllocScope&) = delete;
  AllocScope& operator=(const AllocScope&) = delete;

 private:
  Orchestration* orch_;
  size_t mark_;
};

// The type of a generated CHIP orchestration function.
using OrchestrationFn = int (*)(Orchestration* orch, const OrchArgs* args);

}  // namespace rt
}  // namespace pld

#endif  // PLD_RUNTIME_ORCHESTRATION_H
