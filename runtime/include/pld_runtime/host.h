// pld_runtime/host.h: the CPU (host) implementation of the runtime, for simulators and tests.
//
// A World is P ranks. Each rank has one window (shared, zero-filled memory; every rank carves its
// tensors out at the same offsets, so CommContext::windowsIn gives peer addresses) and one
// CommContext. World::run executes one orchestration body per rank, each on its own thread; a
// submitted task of B blocks runs as B threads of that rank.
#ifndef PLD_RUNTIME_HOST_H
#define PLD_RUNTIME_HOST_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pld_runtime/comm.h"
#include "pld_runtime/task.h"
#include "pld_runtime/tensor.h"

namespace pld {
namespace host {

using KernelFn = void (*)(int64_t*);

struct Config {
  // AIV cores per device: a require_sync_start launch with more blocks fails with code 7.
  // A launch without sync start runs its blocks in waves of at most this many.
  int aiv_capacity = 48;
  // Signal-wait timeout; negative = $PLD_WAIT_TIMEOUT_MS, else 20000.
  int wait_timeout_ms = -1;
  // Record every pld_rt_copy and every transfer the device model completes into memory (rank,
  // block, kernel, dst, src, bytes); see World::copies(). In shared memory: every rank, thread or
  // process, records into one log of at most `trace_copies_max` records (the rest are counted,
  // World::copies_dropped).
  bool trace_copies = false;
  int64_t trace_copies_max = int64_t{1} << 20;

  // Ranks as processes: World::run forks one process per rank (its blocks are threads of it),
  // and the windows live in one POSIX shared-memory object that every rank process maps (created
  // and unlinked at once by the World, so no /dev/shm entry outlives it on any path). Memory
  // outside the windows is private to each rank process: a kernel that reaches a peer other than
  // through CommContext::windowsIn faults or reads its own stale copy. Default: threads.
  bool rank_processes = false;
  // Process mode: wall-clock bound of one World::run in ms (0 = none). Past it every rank process
  // still running is killed (SIGKILL) and reported as RankEnd::kTimedOut, and error_message()
  // says for each where it was stuck (waiting_report()). Thread mode cannot stop a hung rank:
  // its caller bounds the process (pld-run's driver does).
  int run_timeout_ms = 0;
  // Process mode: fault injection for tests. Rank `fault_rank` (-1 = none) crashes (SIGKILL
  // itself), hangs (blocks forever) or exits 0 early, `fault_at` before its orchestration body,
  // inside a kernel (right after the rank's first signal post) or after the body.
  enum class FaultKind { kCrash, kHang, kExit };
  enum class FaultAt { kBefore, kInside, kAfter };
  int fault_rank = -1;
  FaultKind fault_kind = FaultKind::kCrash;
  FaultAt fault_at = FaultAt::kBefore;
  // Tests and benchmarks: every block of the kernel named `trace_kernel` ("" = none) records its
  // span (World::spans), and on rank r first sleeps `entry_delay_us[r]` µs (when given) -- a late
  // arrival at a barrier, timed by the spans.
  std::string trace_kernel;
  std::vector<int64_t> entry_delay_us;
};

// How a rank ended in the last World::run (process mode; in thread mode every rank finishes).
struct RankEnd {
  enum Kind { kFinished, kFailed, kTimedOut };
  Kind kind = kFinished;
  std::string how;  // "" when finished, else e.g. "killed by signal 9 (Killed)"
};

// The status World::run reports for a rank that failed or was timed out (process mode).
constexpr int kRankFailedStatus = 6;

struct CopyRecord {
  int rank;
  int block;
  const void* dst;
  const void* src;
  uint64_t bytes;
  const char* kernel;  // the copying kernel's registered name ("" if unknown); valid while the World lives
};

// One block of Config::trace_kernel: its rank, block index and when its body started and returned
// (steady clock, ns).
struct BlockSpan {
  int rank;
  int block;
  int64_t start_ns;
  int64_t end_ns;
};

// What World::kernel_stats reports for one kernel.
struct KernelStats {
  std::string name;
  long launches;  // tasks submitted (one per launch on a rank)
  long blocks;    // block instances started
};

class World {
 public:
  World(int ranks, uint64_t window_bytes, Config config = Config());
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int ranks() const;
  const Config& config() const;

  // Symmetric allocation inside every rank's window; returns the offset. Memory starts at zero.
  uint64_t alloc(uint64_t bytes, uint64_t align = 64);
  void* window(int rank, uint64_t offset = 0) const;
  CommContext* comm(int rank) const;

  // Kernels known by name to this world (looked up before the process-wide registry that
  // PLD_KERNEL_NAME / pld_rt_register_kernel fill).
  void register_kernel(const std::string& name, KernelFn fn);

  // Runs `body(rank, orch)` for every rank concurrently and waits for all of them. Returns each
  // rank's status: the body's return value, or the code latched in its Orchestration if the body
  // returned 0.
  // In process mode each body runs in its own forked process (so whatever it writes outside
  // the windows and shared_alloc() memory stays there); a rank that dies, exits before its body
  // returned or outlives Config::run_timeout_ms gets kRankFailedStatus, see rank_ends().
  std::vector<int> run(const std::function<int(int rank, rt::Orchestration& orch)>& body);

  // True when ranks run as processes (Config::rank_processes).
  bool rank_processes() const;
  // Zero-filled memory shared by every rank process and the launcher (driver bookkeeping such as
  // counters and per-rank reports; not a window). In thread mode plain memory. Lives as long as
  // the World.
  void* shared_alloc(uint64_t bytes);
  // How each rank ended in the last run() (all kFinished in thread mode).
  std::vector<RankEnd> rank_ends() const;

  // The report of a run past Config::run_timeout_ms (where every rank still running was stuck),
  // else the first fatal / invalid-args message of the lowest rank that recorded one, else the
  // first signal-wait timeout message of the lowest such rank ("" if none): which rank thread
  // or process got there first does not change it, and a timeout that follows a peer's failure
  // does not hide the failure.
  std::string error_message() const;
  // For every rank: the managed collective it is running (op, `file:line:col`, kernel) and the
  // peers that never arrived at it, or that it is in none -- what a run bounded by the caller
  // (thread mode cannot kill a hung rank) reports when it gives up after `limit_ms`.
  std::string waiting_report(int limit_ms) const;
  // Records `message` for error_message() (a failure of no particular rank, or in a rank
  // process of that rank; the first per rank wins; seen by the launcher in process mode).
  void record_error(const std::string& message);
  // Number of kernel block instances that have started running.
  long blocks_started() const;
  // Per kernel, by name: the launches submitted and block instances started so far, every rank
  // (thread or process) counted, sorted by name.
  std::vector<KernelStats> kernel_stats() const;
  // The spans of Config::trace_kernel's blocks since the World was made or clear_spans(), in the
  // order they ended, every rank (thread or process) counted; at most 65536.
  std::vector<BlockSpan> spans() const;
  void clear_spans();
  // Config::trace_copies's records since the World was made or clear_copies(), every rank
  // (thread or process) counted, at most Config::trace_copies_max; copies_dropped() counts the
  // records past that bound (a trace with drops is incomplete).
  std::vector<CopyRecord> copies() const;
  int64_t copies_dropped() const;
  void clear_copies();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace host
}  // namespace pld

#endif  // PLD_RUNTIME_HOST_H
