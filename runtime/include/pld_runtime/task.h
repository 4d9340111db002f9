// pld_runtime/task.h: one kernel invocation being built (pld::rt::Task), what the runtime's
// Orchestration::submit runs, and the one wording of a collective's rank mismatch. Apart from
// pld_runtime/orchestration.h so that the ChipEntry table every generated chip_entries.cpp
// compiles does not parse the standard containers.
#ifndef PLD_RUNTIME_TASK_H
#define PLD_RUNTIME_TASK_H

#include <cstdint>
#include <string>
#include <vector>

#include "pld_runtime/orchestration.h"

namespace pld {
namespace rt {

enum class Dir { In, Out, InOut };

class LaunchSpec {
 public:
  void set_block_num(int n) { block_num_ = n; }
  void set_require_sync_start(bool v) { require_sync_start_ = v; }
  int block_num() const { return block_num_; }
  bool require_sync_start() const { return require_sync_start_; }

 private:
  int block_num_ = 1;
  bool require_sync_start_ = false;
};

// One kernel invocation being built. Argument slots are laid out in the order they are added;
// add every tensor first, then the CommContext slots.
class Task {
 public:
  Task(int func_id, const char* kernel_name) : func_id_(func_id), kernel_name_(kernel_name) {}

  Task& add_tensor(const Tensor& t, Dir dir) {
    slots_.push_back(Slot{true, t, dir, nullptr, 0});
    return *this;
  }
  Task& add_comm_context(CommContext* ctx) {
    slots_.push_back(Slot{false, Tensor{}, Dir::In, ctx, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(ctx))});
    return *this;
  }
  // A scalar slot holding `bits` as is (simpler's `add_scalar`; a CommContext passed as a scalar
  // is a raw pointer here, not a CommContext slot: the runtime does not check it).
  Task& add_scalar(uint64_t bits) {
    slots_.push_back(Slot{false, Tensor{}, Dir::In, nullptr, bits});
    return *this;
  }
  LaunchSpec& launch_spec() { return launch_; }
  const LaunchSpec& launch_spec() const { return launch_; }

  // Marks the task as the launch of a managed collective: `op` (e.g. "pld.tensor.allgather") at
  // `site` (the user's `file:line:col`), whose `[NR, S]` signal is the tensor in slot
  // `signal_slot` with NR its dimension `nr_axis` (1 in allreduce's ring mode, else 0). Before
  // the launch, submit() checks that the kernel's CommContext (the first CommContext slot) has
  // NR ranks and otherwise fails with SIMPLER_ERROR_INVALID_ARGS, naming both numbers (a kernel
  // on a world of another size would return without doing anything). A signal wait that times
  // out inside the kernel, and a run that outlives its bound, name the collective, the site, the
  // kernel and the peers that never arrived. `op` and `site` must outlive the run (generated
  // code passes string literals).
  Task& set_collective(const char* op, const char* site, int signal_slot, int nr_axis) {
    collective_ = Collective{op, site, signal_slot, nr_axis};
    return *this;
  }
  struct Collective {
    const char* op = nullptr;  // nullptr: not a collective
    const char* site = nullptr;
    int signal_slot = -1;
    int nr_axis = 0;
  };
  const Collective& collective() const { return collective_; }

  int func_id() const { return func_id_; }
  const std::string& kernel_name() const { return kernel_name_; }

  struct Slot {
    bool is_tensor;
    Tensor tensor;
    Dir dir;
    CommContext* ctx;  // a CommContext slot (nullptr: a tensor or a raw scalar)
    uint64_t bits;     // what a scalar slot passes (the context's address for a CommContext slot)
  };
  const std::vector<Slot>& slots() const { return slots_; }

 private:
  int func_id_;
  std::string kernel_name_;
  std::vector<Slot> slots_;
  LaunchSpec launch_;
  Collective collective_;
};

// The one wording of a collective launched on a world (or domain) of another size than its
// signal's NR: the runtime's check before each collective task, and the HOST entry's before a
// builtin collective's dispatch to a device the world lacks.
inline std::string collective_rank_mismatch(const char* op, const char* site, int64_t ranks,
                                            int64_t nr, const std::string& kernel) {
  return std::string(op) + " at " + (site ? site : "?") + ": the CommContext has " +
         std::to_string(ranks) + " ranks but the signal's NR is " + std::to_string(nr) +
         " (kernel " + kernel + "): a collective runs on a world (or communication domain) of " +
         "exactly NR ranks";
}

}  // namespace rt
}  // namespace pld

#endif  // PLD_RUNTIME_TASK_H
