// The host (CPU) implementation of the pld runtime: ranks and blocks are threads, windows are
// shared memory, signal cells are real atomics, waits park on a futex and time out.
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include <intrinsic.h>  // runtime/include/device
#include <tensor.h>

#include "internal.h"
#include "pld_runtime/host.h"
#include "pld_runtime/kernel.h"

namespace pld {
namespace host {

// The state every rank (thread or process) of a World updates: in a MAP_SHARED anonymous mapping,
// so rank processes forked by World::run share it with the launcher.
struct SharedState {
  std::atomic<int> aborted{0};
  // The status a submit whose run was aborted returns (a wait timeout unless a device-order
  // violation set another).
  std::atomic<int> abort_code{0};
  std::atomic<long> blocks_started{0};
  // One message slot per rank (first wins per rank) and one for messages of no rank, in two
  // classes: refusals and failures (class 0), and signal-wait timeouts (class 1, usually the
  // consequence of a peer's failure). error_message() is the lowest slot's of class 0, else of
  // class 1, so which rank thread or process got there first does not change it.
  static constexpr int kSlots = kCommMaxRanks + 1;
  std::atomic<int> error_state[2][kSlots] = {};  // 0 none, 1 being written, 2 set
  char error[2][kSlots][1024] = {};
  int status[kCommMaxRanks] = {};
  std::atomic<int> done[kCommMaxRanks] = {};
  // Process mode: rank processes ready to run their body (a start gate: the bodies start
  // together, as threads would, not one fork apart).
  alignas(64) std::atomic<int32_t> ready{0};

  // Per rank: the managed collective task it is running (Task::set_collective), for the reports
  // of a signal-wait timeout and of a run past its bound. Text is copied in (no pointer has to be
  // valid in another rank process).
  struct Inflight {
    std::atomic<int> active{0};
    char op[64] = {};
    char site[256] = {};
    char kernel[128] = {};
    int key = -1;      // its signal's arrival slot (-1: table full)
    int64_t seq = 0;   // this rank's arrival number at that signal
    int self = 0;      // the rank's index in the collective's CommContext
    int members = 0;   // the CommContext's rank count
    int16_t world_rank[kCommMaxRanks] = {};  // world rank of each CommContext rank (-1: unknown)
  };
  Inflight inflight[kCommMaxRanks];
  // Arrivals: how many collective tasks each world rank has started on one signal (keyed by the
  // signal's offset in the window, the same on every rank). A peer whose count is below a
  // waiting rank's never arrived at the collective that rank waits in.
  static constexpr int kKeys = 64;
  std::atomic<int64_t> arrival_key[kKeys] = {};  // offset + 1; 0: free
  std::atomic<int64_t> arrivals[kKeys][kCommMaxRanks] = {};
  // The report of a run past Config::run_timeout_ms (error_message() returns it first).
  std::atomic<int> run_report_set{0};
  char run_report[8192] = {};
  // Per kernel name: launches and block instances started (World::kernel_stats). A slot is
  // claimed once (0 free, 1 being named, 2 named) and never freed, so ranks in any process
  // count into the same slot by name.
  static constexpr int kKernelStats = 64;
  struct KernelStat {
    std::atomic<int> state{0};
    char name[128] = {};
    std::atomic<long> launches{0};
    std::atomic<long> blocks{0};
  };
  KernelStat kernel_stats[kKernelStats];
  // Config::trace_kernel's block spans (World::spans): `span_count` claimed, the first kMaxSpans
  // stored.
  static constexpr int kMaxSpans = 1 << 16;
  std::atomic<int> span_count{0};
  BlockSpan spans[kMaxSpans];
  // Config::trace_copies: records claimed in World::Impl::copy_log (the first copy_cap stored).
  std::atomic<int64_t> copy_count{0};
  // The slot of kernel `name` (claimed now if it has none); null when every slot is taken.
  KernelStat* kernel_stat(const std::string& name) {
    for (KernelStat& k : kernel_stats) {
      int st = k.state.load(std::memory_order_acquire);
      if (st == 0) {
        int expected = 0;
        if (k.state.compare_exchange_strong(expected, 1)) {
          std::snprintf(k.name, sizeof k.name, "%s", name.c_str());
          k.state.store(2, std::memory_order_release);
          return &k;
        }
        st = expected;
      }
      while (st == 1) st = k.state.load(std::memory_order_acquire);
      if (std::strncmp(k.name, name.c_str(), sizeof k.name - 1) == 0) return &k;
    }
    return nullptr;
  }
};

// The steady clock in ns (the spans of Config::trace_kernel).
inline int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct World::Impl {
  int ranks = 0;
  uint64_t window_bytes = 0;
  uint64_t next_offset = 0;
  Config config;
  int timeout_ms = 20000;
  std::vector<void*> windows;
  void* window_map = nullptr;  // process mode: the one shm mapping holding every window
  uint64_t window_map_bytes = 0;
  std::vector<std::unique_ptr<CommContext>> comms;
  std::map<std::string, KernelFn> kernels;

  SharedState* shared = nullptr;
  std::vector<std::pair<void*, uint64_t>> shared_allocs;
  std::vector<RankEnd> ends;
  int child_rank = -1;  // in a rank process: its rank
  // Config::trace_copies's log, in shared memory (rank processes record into it too): the
  // kernel is its KernelStat slot (-1: none), so a record holds no pointer into one process.
  struct CopyEntry {
    int rank, block, kernel_slot;
    const void* dst;
    const void* src;
    uint64_t bytes;
  };
  CopyEntry* copy_log = nullptr;
  int64_t copy_cap = 0;
  void record_copy(int rank, int block, int kernel_slot, void* dst, const void* src, uint64_t bytes) {
    const int64_t i = shared->copy_count.fetch_add(1);
    if (i < copy_cap) copy_log[i] = CopyEntry{rank, block, kernel_slot, dst, src, bytes};
  }

  bool aborted() const { return shared->aborted.load(std::memory_order_relaxed) != 0; }
  void abort() { shared->aborted.store(1); }
  void record_error(int rank, const std::string& msg, int cls = 0) {
    const int slot = rank >= 0 && rank < kCommMaxRanks ? rank : SharedState::kSlots - 1;
    int expected = 0;
    if (!shared->error_state[cls][slot].compare_exchange_strong(expected, 1)) return;
    std::snprintf(shared->error[cls][slot], sizeof shared->error[cls][slot], "%s", msg.c_str());
    shared->error_state[cls][slot].store(2);
  }
  // The arrival slot of signal key `key`, claimed if new (-1: the table is full).
  int arrival_slot(int64_t key) {
    for (int i = 0; i < SharedState::kKeys; ++i) {
      int64_t k = shared->arrival_key[i].load();
      if (k == 0 && shared->arrival_key[i].compare_exchange_strong(k, key)) return i;
      if (k == key) return i;  // found, or claimed by another rank with the same key meanwhile
    }
    return -1;
  }
  // "pld.tensor.allgather at m.mlir:8:8 (kernel __builtin_allgather__fp32)" for `rank`'s
  // collective in flight ("" when none).
  std::string collective_text(int rank) const {
    if (rank < 0 || rank >= kCommMaxRanks) return "";
    const SharedState::Inflight& f = shared->inflight[rank];
    if (!f.active.load()) return "";
    return std::string(f.op) + " at " + f.site + " (kernel " + f.kernel + ")";
  }
  // "peers that never arrived: 3" (CommContext ranks) for `rank`'s collective in flight, else
  // "every peer arrived" ("" when it is in none).
  std::string missing_peers(int rank) const {
    if (rank < 0 || rank >= kCommMaxRanks) return "";
    const SharedState::Inflight& f = shared->inflight[rank];
    if (!f.active.load()) return "";
    if (f.key < 0) return "its peers' arrivals are not tracked (more than 64 signals in this run)";
    std::string list;
    for (int d = 0; d < f.members && d < kCommMaxRanks; ++d) {
      const int wr = f.world_rank[d];
      if (d == f.self || wr < 0) continue;
      if (shared->arrivals[f.key][wr].load() < f.seq) list += (list.empty() ? "" : ", ") + std::to_string(d);
    }
    return list.empty() ? "every peer arrived" : "peers that never arrived: " + list;
  }
  // Where each rank in `running` (every rank when empty) is stuck, one "; "-separated entry per
  // rank: the collective it waits in and the peers that never arrived, or that it is in none.
  std::string stuck_report(const std::vector<bool>& running, int limit_ms) const {
    std::string out = "run timeout: still running after " + std::to_string(limit_ms) + " ms: ";
    bool first = true;
    for (int r = 0; r < ranks; ++r) {
      if (!running.empty() && !running[static_cast<size_t>(r)]) continue;
      const std::string what = collective_text(r);
      out += (first ? "" : "; ") + std::string("rank ") + std::to_string(r) + " ";
      out += what.empty() ? std::string("is in no collective")
                          : "waits in " + what + ", " + missing_peers(r);
      first = false;
    }
    return out;
  }
  void set_run_report(const std::string& report) {
    int expected = 0;
    if (!shared->run_report_set.compare_exchange_strong(expected, 1)) return;
    std::snprintf(shared->run_report, sizeof shared->run_report, "%s", report.c_str());
    shared->run_report_set.store(2);
  }
  // Process mode: the configured fault, if it is this rank's and `at` now.
  void maybe_fault(Config::FaultAt at) const {
    if (!config.rank_processes || child_rank < 0 || child_rank != config.fault_rank ||
        config.fault_at != at)
      return;
    switch (config.fault_kind) {
      case Config::FaultKind::kCrash:
        kill(getpid(), SIGKILL);
        for (;;) pause();
      case Config::FaultKind::kExit:
        _exit(0);
      case Config::FaultKind::kHang:
        for (;;) pause();
    }
  }
};

}  // namespace host

namespace rt {

// A create_tensor buffer (calloc'd, so zero-filled; freed with free).
struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};

class RankState {
 public:
  host::World::Impl* world;
  int rank;
  std::atomic<int> latched{0};  // tasks of one rank may run at once (orchestration_api.cpp)
  // create_tensor's buffers in creation order; an AllocScope frees back to its mark. Whatever no
  // scope freed lives until the rank's orchestration body (World::run) returns.
  std::vector<std::unique_ptr<char, FreeDeleter>> buffers;
};

}  // namespace rt
}  // namespace pld

namespace {

using pld::host::World;

// Slots of a kernel's argument block: the task's own (at most 48), then the two context pointers
// intrinsic.h reads (args[48], args[49]).
constexpr size_t kKernelArgSlots = SPMD_GLOBAL_CONTEXT_INDEX + 1;

// The device's element type of a tensor pld knows only by element size (the kernels read sizes
// from their own text, never this byte).
DataType dtype_of_size(int32_t bytes) {
  switch (bytes) {
    case 2: return DataType::FLOAT16;
    case 4: return DataType::FLOAT32;
    case 8: return DataType::INT64;
    default: return DataType::INT8;
  }
}

// `t` as the device's descriptor: at most 5 dimensions, extents and strides below 2^32, every
// stride > 0 (a stride of an extent-1 dimension is free, so it is set to the packed one).
bool to_chip_tensor(const pld::Tensor& t, ChipTensor* c, std::string* why) {
  *c = ChipTensor{};
  if (t.rank < 0 || t.rank > MAX_TENSOR_DIMS) {
    *why = "rank " + std::to_string(t.rank) + " exceeds " + std::to_string(MAX_TENSOR_DIMS);
    return false;
  }
  if (t.elem_size <= 0) {
    *why = "element size " + std::to_string(t.elem_size);
    return false;
  }
  const int n = t.rank == 0 ? 1 : t.rank;
  const bool empty = t.numel() == 0;
  uint64_t extent = empty ? 0 : 1, packed = 1;
  for (int k = n - 1; k >= 0; --k) {
    const int64_t dim = t.rank == 0 ? 1 : t.shape[k];
    const int64_t stride = (t.rank == 0 || dim <= 1 || empty) ? static_cast<int64_t>(packed) : t.strides[k];
    if (dim < 0 || dim > static_cast<int64_t>(UINT32_MAX)) {
      *why = "extent " + std::to_string(dim) + " of dimension " + std::to_string(k) + " is not below 2^32";
      return false;
    }
    if (stride <= 0 || stride > static_cast<int64_t>(UINT32_MAX)) {
      *why = "stride " + std::to_string(stride) + " of dimension " + std::to_string(k) + " is not in [1, 2^32)";
      return false;
    }
    c->shapes[k] = static_cast<uint32_t>(dim);
    c->strides[k] = static_cast<uint32_t>(stride);
    if (!empty) extent += static_cast<uint64_t>(dim - 1) * static_cast<uint64_t>(stride);
    packed *= static_cast<uint64_t>(dim > 0 ? dim : 1);
  }
  c->buffer.addr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(t.data));
  c->buffer.size = extent * static_cast<uint64_t>(t.elem_size);
  c->owner_task_id = PTO2TaskId::invalid();
  c->start_offset = 0;
  c->ndims = static_cast<uint32_t>(n);
  c->dtype = dtype_of_size(t.elem_size);
  c->is_contiguous = t.is_contiguous();
  c->address_space = AddressSpace::HOST;
  c->extent_elem_cache = extent;
  return true;
}

// What the current thread is running: set for kernel block threads only.
struct BlockCtx {
  World::Impl* world;
  int rank;
  int block;
  int nblocks;
  // The task's argument slots: the device descriptors the kernel's args point at, and pld's
  // descriptor of the same tensor per slot (what kernel.h's CPU-only adapter hands out).
  const ChipTensor* chips;
  const pld::Tensor* descs;
  size_t nslots;
  const char* kernel;
  int kernel_slot;  // its SharedState::kernel_stats slot (-1: none)
};
thread_local const BlockCtx* tl_block = nullptr;

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, pld::host::KernelFn>& registry() {
  static std::map<std::string, pld::host::KernelFn> r;
  return r;
}

// ---- Parking: waiters count per address bucket, futex wait / wake on the cell itself. ----
// The buckets live in a MAP_SHARED mapping made before any rank process is forked, and the futex
// operations are the shared (not _PRIVATE) ones, so a post in one rank process wakes a waiter in
// another (the windows are one shared mapping, at the same address in every rank process).
struct alignas(64) Bucket {
  std::atomic<int> waiters{0};
};
Bucket* buckets() {
  static Bucket* b = [] {
    void* p = mmap(nullptr, sizeof(Bucket) * 256, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                   -1, 0);
    if (p == MAP_FAILED) {
      std::fprintf(stderr, "pld-runtime: cannot map the wait buckets\n");
      std::abort();
    }
    return new (p) Bucket[256];
  }();
  return b;
}
Bucket& bucket_of(const void* addr) {
  auto a = reinterpret_cast<uintptr_t>(addr);
  return buckets()[(a >> 2) * 0x9E3779B97F4A7C15ull >> 56];
}

void futex_wait(int32_t* addr, int32_t expected, int timeout_ms) {
  timespec ts;
  ts.tv_sec = timeout_ms / 1000;
  ts.tv_nsec = static_cast<long>(timeout_ms % 1000) * 1000000L;
  syscall(SYS_futex, addr, FUTEX_WAIT, expected, &ts, nullptr, 0);
}
void futex_wake_all(int32_t* addr) { syscall(SYS_futex, addr, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0); }

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

int default_timeout_ms(const pld::host::Config& c) {
  if (c.wait_timeout_ms >= 0) return c.wait_timeout_ms;
  if (const char* e = std::getenv("PLD_WAIT_TIMEOUT_MS")) {
    int v = std::atoi(e);
    if (v > 0) return v;
  }
  return 20000;
}

// WaitCmp (pto/comm/comm_types.hpp) numbering.
constexpr int kCmpGe = 3;
bool meets(int32_t v, int32_t value, int cmp) {
  switch (cmp) {
    case 0: return v == value;
    case 1: return v != value;
    case 2: return v > value;
    case 4: return v < value;
    case 5: return v <= value;
    default: return v >= value;
  }
}
const char* cmp_text(int cmp) {
  static const char* const t[] = {"==", "!=", ">", ">=", "<", "<="};
  return cmp >= 0 && cmp < 6 ? t[cmp] : ">=";
}

// [row, col] of an int32 cell inside one of the running block's tensor arguments (a signal
// [NR] or [NR, S]); -1s when no argument holds it.
void signal_cell_of(const int32_t* cell, int* row, int* col) {
  if (!tl_block) return;
  const char* p = reinterpret_cast<const char*>(cell);
  for (size_t i = 0; i < tl_block->nslots; ++i) {
    const pld::Tensor& t = tl_block->descs[i];
    if (t.data == nullptr || t.elem_size != 4 || t.rank < 1) continue;
    const char* base = static_cast<const char*>(t.data);
    const int64_t off = (p - base) / 4;
    if (p < base || off >= t.numel()) continue;
    const int64_t outer = t.rank >= 2 ? t.strides[0] : 1;
    *row = static_cast<int>(outer > 0 ? off / outer : off);
    *col = static_cast<int>(outer > 0 ? off % outer : 0);
    return;
  }
}

// The bounded wait of every signal wait (kernel.h's and TWAIT): true once `*cell <cmp> value`,
// false when the run was aborted or the wait timed out (then reported, and the run aborted).
// `row`/`col` name the cell for pld_runtime's kernels; a TWAIT gives -1 and its line.
bool wait_until(int32_t* cell, int32_t value, int cmp, int32_t row, int32_t col, int line);

}  // namespace

// ---------------------------------------------------------------- kernel services (extern "C")
extern "C" {

int32_t pld_rt_block_idx(void) { return tl_block ? tl_block->block : 0; }
int32_t pld_rt_block_num(void) { return tl_block ? tl_block->nblocks : 1; }

const pld::Tensor* pld_rt_tensor_arg(const int64_t* args, int32_t i) {
  if (!tl_block || i < 0 || static_cast<size_t>(i) >= tl_block->nslots) return nullptr;
  const auto* chip = reinterpret_cast<const ChipTensor*>(static_cast<uintptr_t>(args[i]));
  const ptrdiff_t k = chip - tl_block->chips;
  if (k < 0 || static_cast<size_t>(k) >= tl_block->nslots) return nullptr;
  return &tl_block->descs[k];
}

void pld_rt_signal_add(int32_t* cell, int32_t delta) {
  __atomic_fetch_add(cell, delta, __ATOMIC_SEQ_CST);
  if (bucket_of(cell).waiters.load(std::memory_order_seq_cst) > 0) futex_wake_all(cell);
  if (tl_block) tl_block->world->maybe_fault(pld::host::Config::FaultAt::kInside);
}

void pld_rt_signal_set(int32_t* cell, int32_t value) {
  __atomic_store_n(cell, value, __ATOMIC_SEQ_CST);
  if (bucket_of(cell).waiters.load(std::memory_order_seq_cst) > 0) futex_wake_all(cell);
  if (tl_block) tl_block->world->maybe_fault(pld::host::Config::FaultAt::kInside);
}

bool pld_rt_signal_wait_ge(int32_t* cell, int32_t value, int32_t row, int32_t col) {
  return wait_until(cell, value, kCmpGe, row, col, 0);
}

}  // extern "C"

namespace pld {
namespace host {
namespace internal {

bool current_block(BlockInfo* info) {
  if (!tl_block) return false;
  *info = BlockInfo{tl_block->rank, tl_block->block, tl_block->kernel ? tl_block->kernel : "?"};
  return true;
}

void fail_run(int code, const std::string& message) {
  std::fprintf(stderr, "pld-runtime: %s\n", message.c_str());
  World::Impl* w = tl_block ? tl_block->world : nullptr;
  if (!w) return;
  int none = 0;
  w->shared->abort_code.compare_exchange_strong(none, code);
  w->record_error(tl_block->rank, message);
  w->abort();
}

bool chip_tensor_of(const pld::Tensor& t, ChipTensor* c, std::string* why) { return to_chip_tensor(t, c, why); }

bool run_aborted() { return tl_block && tl_block->world->aborted(); }

int peer_window_rank(const void* lo, const void* hi) {
  if (!tl_block) return -1;
  const World::Impl* w = tl_block->world;
  const char* l = static_cast<const char*>(lo);
  const char* h = static_cast<const char*>(hi);
  for (size_t r = 0; r < w->windows.size(); ++r) {
    if (static_cast<int>(r) == tl_block->rank) continue;
    const char* b = static_cast<const char*>(w->windows[r]);
    if (l < b + w->window_bytes && b < h) return static_cast<int>(r);
  }
  return -1;
}

void trace_copy(void* dst, const void* src, uint64_t bytes) {
  if (tl_block && tl_block->world->copy_log)
    tl_block->world->record_copy(tl_block->rank, tl_block->block, tl_block->kernel_slot, dst, src, bytes);
}

bool wait_signal(int32_t* cell, int32_t value, int cmp, int line) {
  return wait_until(cell, value, cmp, -1, -1, line);
}

}  // namespace internal
}  // namespace host
}  // namespace pld

extern "C" {

}  // extern "C"

namespace {

bool wait_until(int32_t* cell, int32_t value, int cmp, int32_t row, int32_t col, int line) {
  // 1. Brief spin, 2. a few yields, 3. park on the futex in short slices (so an abort elsewhere
  // is noticed) until the deadline.
  for (int i = 0; i < 128; ++i) {
    if (meets(__atomic_load_n(cell, __ATOMIC_ACQUIRE), value, cmp)) return true;
    cpu_relax();
  }
  for (int i = 0; i < 4; ++i) {
    if (meets(__atomic_load_n(cell, __ATOMIC_ACQUIRE), value, cmp)) return true;
    sched_yield();
  }
  World::Impl* w = tl_block ? tl_block->world : nullptr;
  const int timeout_ms = w ? w->timeout_ms : 20000;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::milliseconds(timeout_ms);
  Bucket& b = bucket_of(cell);
  for (;;) {
    if (w && w->aborted()) return false;
    b.waiters.fetch_add(1, std::memory_order_seq_cst);
    int32_t v = __atomic_load_n(cell, __ATOMIC_SEQ_CST);
    if (!meets(v, value, cmp)) futex_wait(cell, v, 20);
    b.waiters.fetch_sub(1, std::memory_order_relaxed);
    v = __atomic_load_n(cell, __ATOMIC_ACQUIRE);
    if (meets(v, value, cmp)) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      char cell_text[256];
      const int rank = tl_block ? tl_block->rank : -1;
      const long long waited = static_cast<long long>(
          std::chrono::duration_cast<std::chrono::milliseconds>(now - start).count());
      if (row >= 0) {
        std::snprintf(cell_text, sizeof cell_text,
                      "rank %d block %d waited %lld ms on signal cell [%d, %d] for >= %d, value %d", rank,
                      tl_block ? tl_block->block : -1, waited, row, col, value, v);
      } else {  // a TWAIT: the cell's place in the argument that holds it, and the kernel's line
        int r = -1, c = -1;
        signal_cell_of(cell, &r, &c);
        std::snprintf(cell_text, sizeof cell_text,
                      "rank %d block %d waited %lld ms on signal cell [%d, %d] for %s %d, value %d "
                      "(TWAIT at line %d of kernel '%s')",
                      rank, tl_block ? tl_block->block : -1, waited, r, c, cmp_text(cmp), value, v, line,
                      tl_block && tl_block->kernel ? tl_block->kernel : "?");
      }
      // Named after the collective (op, the user's file:line:col, the kernel) and the peers
      // that never arrived at it, when the task was marked (Task::set_collective).
      const std::string where = w ? w->collective_text(rank) : "";
      std::string msg = "signal wait timeout";
      if (!where.empty()) msg += " in " + where;
      msg += std::string(": ") + cell_text;
      if (!where.empty()) msg += "; " + w->missing_peers(rank);
      std::fprintf(stderr, "pld-runtime: %s\n", msg.c_str());
      if (w) {
        w->record_error(tl_block ? tl_block->rank : -1, msg, 1);
        w->abort();
      }
      return false;
    }
  }
}

}  // namespace

extern "C" {

void pld_rt_copy(void* dst, const void* src, uint64_t bytes) {
  if (bytes == 0) return;
  std::memcpy(dst, src, bytes);
  pld::host::internal::trace_copy(dst, src, bytes);
}

void pld_rt_fence(void) {
#if defined(__SANITIZE_THREAD__)
  // TSan does not model standalone fences. Leaving it out under TSan is the stricter check: the
  // protocol must be race-free through its signal atomics alone (the barrier-B add is seq_cst).
  asm volatile("" ::: "memory");
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

int pld_rt_register_kernel(const char* name, void (*fn)(int64_t*)) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[name] = fn;
  return 0;
}

}  // extern "C"

// ---------------------------------------------------------------- World
namespace pld {
namespace host {

World::World(int ranks, uint64_t window_bytes, Config config) : impl_(new Impl) {
  if (ranks < 1 || ranks > kCommMaxRanks) throw std::invalid_argument("pld::host::World: bad rank count");
  impl_->ranks = ranks;
  impl_->window_bytes = window_bytes;
  impl_->config = config;
  impl_->timeout_ms = default_timeout_ms(config);
  (void)buckets();  // mapped before any fork
  impl_->shared = new (shared_alloc(sizeof(SharedState))) SharedState();
  if (config.trace_copies && config.trace_copies_max > 0) {
    impl_->copy_cap = config.trace_copies_max;
    impl_->copy_log = static_cast<Impl::CopyEntry*>(
        shared_alloc(static_cast<uint64_t>(impl_->copy_cap) * sizeof(Impl::CopyEntry)));
  }
  if (config.rank_processes) {
    // One POSIX shared-memory object holds every window (page-aligned, zero-filled). It is
    // unlinked as soon as it is mapped: the mapping (inherited by the forked rank processes)
    // keeps it alive, and no /dev/shm entry is left whatever ends the run.
    const uint64_t stride = ((window_bytes ? window_bytes : 1) + 4095) / 4096 * 4096;
    impl_->window_map_bytes = stride * static_cast<uint64_t>(ranks);
    static std::atomic<int> serial{0};
    char name[96];
    std::snprintf(name, sizeof name, "/pld-world-%d-%d", static_cast<int>(getpid()), serial.fetch_add(1));
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) throw std::runtime_error(std::string("pld::host::World: shm_open failed: ") + std::strerror(errno));
    void* p = MAP_FAILED;
    if (ftruncate(fd, static_cast<off_t>(impl_->window_map_bytes)) == 0)
      p = mmap(nullptr, impl_->window_map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const int err = errno;
    shm_unlink(name);
    close(fd);
    if (p == MAP_FAILED)
      throw std::runtime_error(std::string("pld::host::World: shared windows: ") + std::strerror(err));
    impl_->window_map = p;
    for (int r = 0; r < ranks; ++r) impl_->windows.push_back(static_cast<char*>(p) + stride * r);
  } else {
    for (int r = 0; r < ranks; ++r) {
      void* p = mmap(nullptr, window_bytes ? window_bytes : 1, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::runtime_error("pld::host::World: mmap failed");
      impl_->windows.push_back(p);
    }
  }
  impl_->ends.assign(ranks, RankEnd{});
  for (int r = 0; r < ranks; ++r) {
    auto c = std::make_unique<CommContext>();
    c->rankId = static_cast<uint32_t>(r);
    c->rankNum = static_cast<uint32_t>(ranks);
    c->winSize = window_bytes;
    for (int p = 0; p < ranks; ++p) c->windowsIn[p] = reinterpret_cast<uint64_t>(impl_->windows[p]);
    impl_->comms.push_back(std::move(c));
  }
}

World::~World() {
  if (impl_->window_map) {
    munmap(impl_->window_map, impl_->window_map_bytes);
  } else {
    for (void* p : impl_->windows) munmap(p, impl_->window_bytes ? impl_->window_bytes : 1);
  }
  impl_->shared = nullptr;
  for (auto& m : impl_->shared_allocs) munmap(m.first, m.second);
}

bool World::rank_processes() const { return impl_->config.rank_processes; }

void* World::shared_alloc(uint64_t bytes) {
  const uint64_t n = bytes ? bytes : 1;
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("pld::host::World: shared_alloc failed");
  impl_->shared_allocs.emplace_back(p, n);
  return p;
}

std::vector<RankEnd> World::rank_ends() const { return impl_->ends; }

int World::ranks() const { return impl_->ranks; }
const Config& World::config() const { return impl_->config; }

uint64_t World::alloc(uint64_t bytes, uint64_t align) {
  if (align == 0) align = 1;
  uint64_t off = (impl_->next_offset + align - 1) / align * align;
  if (off + bytes > impl_->window_bytes) throw std::runtime_error("pld::host::World: window full");
  impl_->next_offset = off + bytes;
  return off;
}

void* World::window(int rank, uint64_t offset) const {
  return static_cast<char*>(impl_->windows.at(rank)) + offset;
}
CommContext* World::comm(int rank) const { return impl_->comms.at(rank).get(); }

void World::register_kernel(const std::string& name, KernelFn fn) { impl_->kernels[name] = fn; }

namespace {

std::string how_ended(int wstatus) {
  char buf[128];
  if (WIFSIGNALED(wstatus)) {
    const int sig = WTERMSIG(wstatus);
    std::snprintf(buf, sizeof buf, "killed by signal %d (%s)", sig, strsignal(sig));
  } else if (WIFEXITED(wstatus)) {
    std::snprintf(buf, sizeof buf, "exited with status %d before its orchestration finished",
                  WEXITSTATUS(wstatus));
  } else {
    std::snprintf(buf, sizeof buf, "ended (wait status 0x%x)", wstatus);
  }
  return buf;
}

int64_t mono_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

}  // namespace

std::vector<int> World::run(const std::function<int(int, rt::Orchestration&)>& body) {
  Impl* w = impl_.get();
  w->ends.assign(w->ranks, RankEnd{});
  if (w->config.rank_processes) {
    // One process per rank, forked from here (the calling thread is the only one they inherit).
    const int P = w->ranks;
    for (int r = 0; r < P; ++r) {
      w->shared->status[r] = 0;
      w->shared->done[r].store(0);
    }
    w->shared->ready.store(0);
    std::fflush(nullptr);
    const pid_t launcher = getpid();
    std::vector<pid_t> pids(P, -1);
    for (int r = 0; r < P; ++r) {
      const pid_t pid = fork();
      if (pid == 0) {
        // A rank process ends with its launcher, whatever ends the launcher.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != launcher) _exit(1);
        w->child_rank = r;
        // fork() leaves a shared mapping's page tables empty: without this every first touch of
        // a window page (the peers' included) in this process would be a page fault inside the
        // kernels. Prefault them all, as a thread-mode run's warm windows are.
#ifdef MADV_POPULATE_WRITE
        if (madvise(w->window_map, w->window_map_bytes, MADV_POPULATE_WRITE) != 0)
#endif
        {
          for (uint64_t i = 0; i < w->window_map_bytes; i += 4096)
            (void)*static_cast<volatile char*>(static_cast<char*>(w->window_map) + i);
        }
        // The start gate: every rank process forked and prefaulted before any body runs.
        {
          auto* ready = reinterpret_cast<int32_t*>(&w->shared->ready);
          int32_t v = __atomic_add_fetch(ready, 1, __ATOMIC_SEQ_CST);
          if (v == P) {
            futex_wake_all(ready);
          } else {
            while ((v = __atomic_load_n(ready, __ATOMIC_ACQUIRE)) < P) futex_wait(ready, v, 20);
          }
        }
        int st_code = 0;
        try {
          w->maybe_fault(Config::FaultAt::kBefore);
          rt::RankState st{w, r, 0, {}};
          rt::Orchestration orch(&st);
          const int rc = body(r, orch);
          st_code = rc != 0 ? rc : orch.status();
        } catch (const std::exception& e) {
          std::fprintf(stderr, "pld-runtime: rank %d: %s\n", r, e.what());
          _exit(3);
        }
        w->maybe_fault(Config::FaultAt::kAfter);
        w->shared->status[r] = st_code;
        w->shared->done[r].store(1);
        _exit(0);
      }
      if (pid < 0) {
        for (int q = 0; q < r; ++q) kill(pids[q], SIGKILL);
        for (int q = 0; q < r; ++q) waitpid(pids[q], nullptr, 0);
        throw std::runtime_error(std::string("pld::host::World: fork failed: ") + std::strerror(errno));
      }
      pids[r] = pid;
    }
    const int64_t start = mono_ms();
    const int limit = w->config.run_timeout_ms;
    std::vector<bool> running(P, true);
    int left = P;
    long nap_us = 50;
    while (left > 0) {
      bool reaped = false;
      for (int r = 0; r < P; ++r) {
        if (!running[r]) continue;
        int ws = 0;
        const pid_t got = waitpid(pids[r], &ws, WNOHANG);
        if (got == 0) continue;
        running[r] = false;
        --left;
        reaped = true;
        if (got == pids[r] && WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && w->shared->done[r].load()) continue;
        w->ends[r].kind = RankEnd::kFailed;
        w->ends[r].how = got == pids[r] ? how_ended(ws) : "lost (waitpid failed)";
        w->abort();  // the others stop waiting for it
      }
      if (left == 0) break;
      if (limit > 0 && mono_ms() - start >= limit) {
        // Where each rank still running is stuck, read before they are killed.
        w->set_run_report(w->stuck_report(running, limit));
        for (int r = 0; r < P; ++r)
          if (running[r]) kill(pids[r], SIGKILL);
        for (int r = 0; r < P; ++r) {
          if (!running[r]) continue;
          waitpid(pids[r], nullptr, 0);
          running[r] = false;
          w->ends[r].kind = RankEnd::kTimedOut;
          w->ends[r].how = "still running after " + std::to_string(limit) + " ms";
        }
        w->abort();
        break;
      }
      if (reaped) nap_us = 50;
      timespec ts{0, nap_us * 1000};
      nanosleep(&ts, nullptr);
      nap_us = std::min(nap_us * 2, 2000L);
    }
    std::vector<int> status(P, 0);
    for (int r = 0; r < P; ++r)
      status[r] = w->ends[r].kind == RankEnd::kFinished ? w->shared->status[r] : kRankFailedStatus;
    return status;
  }

  std::vector<int> status(impl_->ranks, 0);
  std::vector<std::thread> threads;
  threads.reserve(impl_->ranks);
  for (int r = 0; r < impl_->ranks; ++r) w->shared->done[r].store(0);
  for (int r = 0; r < impl_->ranks; ++r) {
    threads.emplace_back([this, r, &body, &status] {
      rt::RankState st{impl_.get(), r, 0, {}};
      rt::Orchestration orch(&st);
      int rc = body(r, orch);
      status[r] = rc != 0 ? rc : orch.status();
      impl_->shared->done[r].store(1);  // for waiting_report()
    });
  }
  for (auto& t : threads) t.join();
  return status;
}

std::string World::waiting_report(int limit_ms) const {
  std::vector<bool> running(static_cast<size_t>(impl_->ranks));
  for (int r = 0; r < impl_->ranks; ++r) running[static_cast<size_t>(r)] = !impl_->shared->done[r].load();
  return impl_->stuck_report(running, limit_ms);
}

std::string World::error_message() const {
  if (impl_->shared->run_report_set.load() == 2) return impl_->shared->run_report;
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < SharedState::kSlots; ++i)
      if (impl_->shared->error_state[c][i].load() == 2) return impl_->shared->error[c][i];
  return "";
}
void World::record_error(const std::string& message) { impl_->record_error(impl_->child_rank, message); }
long World::blocks_started() const { return impl_->shared->blocks_started.load(); }

std::vector<KernelStats> World::kernel_stats() const {
  std::vector<KernelStats> out;
  for (const SharedState::KernelStat& k : impl_->shared->kernel_stats)
    if (k.state.load(std::memory_order_acquire) == 2)
      out.push_back(KernelStats{k.name, k.launches.load(), k.blocks.load()});
  std::sort(out.begin(), out.end(),
            [](const KernelStats& a, const KernelStats& b) { return a.name < b.name; });
  return out;
}
std::vector<BlockSpan> World::spans() const {
  const int n = std::min(impl_->shared->span_count.load(), SharedState::kMaxSpans);
  return std::vector<BlockSpan>(impl_->shared->spans, impl_->shared->spans + n);
}

void World::clear_spans() { impl_->shared->span_count.store(0); }

std::vector<CopyRecord> World::copies() const {
  std::vector<CopyRecord> out;
  const int64_t n = std::min(impl_->shared->copy_count.load(), impl_->copy_cap);
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const Impl::CopyEntry& e = impl_->copy_log[i];
    const char* kernel = e.kernel_slot >= 0 ? impl_->shared->kernel_stats[e.kernel_slot].name : "";
    out.push_back(CopyRecord{e.rank, e.block, e.dst, e.src, e.bytes, kernel});
  }
  return out;
}
int64_t World::copies_dropped() const {
  return std::max<int64_t>(0, impl_->shared->copy_count.load() - impl_->copy_cap);
}
void World::clear_copies() { impl_->shared->copy_count.store(0); }

}  // namespace host

// ---------------------------------------------------------------- Orchestration
namespace rt {

int Orchestration::latch_error(int code) {
  int none = 0;
  state_->latched.compare_exchange_strong(none, code);
  return state_->latched;
}
int Orchestration::status() const { return state_->latched; }
int Orchestration::rank() const { return state_->rank; }

// Task::set_collective, before the launch: the kernel's CommContext (the first CommContext slot)
// must have the signal's NR ranks (a kernel on a world of another size would return without doing
// anything): the refusal's text, or "" with `rank`'s collective recorded as in flight (its op,
// site and kernel, its arrival number at its signal and the world rank of each CommContext rank)
// for the timeout reports.
static std::string begin_collective(host::World::Impl* w, int rank, const Task& task) {
  const Task::Collective& coll = task.collective();
  const auto& slots = task.slots();
  const CommContext* ctx = nullptr;
  for (const auto& s : slots)
    if (!s.is_tensor) {
      ctx = s.ctx;
      break;
    }
  const size_t sig_slot = static_cast<size_t>(coll.signal_slot);
  const Tensor* sig = coll.signal_slot >= 0 && sig_slot < slots.size() && slots[sig_slot].is_tensor
                          ? &slots[sig_slot].tensor
                          : nullptr;
  if (ctx != nullptr && sig != nullptr && coll.nr_axis >= 0 && coll.nr_axis < sig->rank &&
      static_cast<int64_t>(ctx->rankNum) != sig->shape[coll.nr_axis])
    return collective_rank_mismatch(coll.op, coll.site, ctx->rankNum, sig->shape[coll.nr_axis],
                                    task.kernel_name());
  if (rank < 0 || rank >= kCommMaxRanks) return "";
  host::SharedState::Inflight& f = w->shared->inflight[rank];
  std::snprintf(f.op, sizeof f.op, "%s", coll.op);
  std::snprintf(f.site, sizeof f.site, "%s", coll.site ? coll.site : "?");
  std::snprintf(f.kernel, sizeof f.kernel, "%s", task.kernel_name().c_str());
  f.key = -1;
  f.members = 0;
  if (ctx != nullptr && sig != nullptr) {
    // Keyed by the signal's offset in the window: the same on every rank (symmetric allocation).
    const int64_t offset = static_cast<int64_t>(reinterpret_cast<uintptr_t>(sig->data)) -
                           static_cast<int64_t>(ctx->windowsIn[ctx->rankId % kCommMaxRanks]);
    f.key = w->arrival_slot(offset + (int64_t(1) << 62));
    f.self = static_cast<int>(ctx->rankId);
    f.members = static_cast<int>(std::min<uint32_t>(ctx->rankNum, kCommMaxRanks));
    for (int d = 0; d < f.members; ++d) {
      f.world_rank[d] = -1;
      for (int r = 0; r < w->ranks; ++r)
        if (reinterpret_cast<uint64_t>(w->windows[static_cast<size_t>(r)]) == ctx->windowsIn[d])
          f.world_rank[d] = static_cast<int16_t>(r);
    }
    if (f.key >= 0) f.seq = w->shared->arrivals[f.key][rank].fetch_add(1) + 1;
  }
  f.active.store(1);
  return "";
}

int Orchestration::submit(const Task& task) {
  host::World::Impl* w = state_->world;
  if (state_->latched != 0) return state_->latched;
  char msg[256];

  host::KernelFn fn = nullptr;
  auto it = w->kernels.find(task.kernel_name());
  if (it != w->kernels.end()) {
    fn = it->second;
  } else {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto g = registry().find(task.kernel_name());
    if (g != registry().end()) fn = g->second;
  }
  if (!fn) {
    std::snprintf(msg, sizeof msg, "rank %d: no kernel registered as '%s'", state_->rank,
                  task.kernel_name().c_str());
    w->record_error(state_->rank, msg);
    return latch_error(PLD_ERROR_UNKNOWN_KERNEL);
  }

  const LaunchSpec& spec = task.launch_spec();
  const int nblocks = spec.block_num();
  if (nblocks < 1) {
    std::snprintf(msg, sizeof msg, "rank %d: kernel '%s': block_num %d < 1", state_->rank,
                  task.kernel_name().c_str(), nblocks);
    w->record_error(state_->rank, msg);
    return latch_error(SIMPLER_ERROR_INVALID_ARGS);
  }
  const int capacity = std::max(1, w->config.aiv_capacity);
  if (spec.require_sync_start() && nblocks > capacity) {
    std::snprintf(msg, sizeof msg,
                  "rank %d: kernel '%s': sync-start launch of %d blocks exceeds the %d AIV cores",
                  state_->rank, task.kernel_name().c_str(), nblocks, capacity);
    w->record_error(state_->rank, msg);
    return latch_error(SIMPLER_FATAL_SYNC_START_OVER_CAPACITY);
  }

  // A managed collective: checked against its signal's NR and recorded as this rank's
  // collective in flight until the task ends.
  const auto& slots = task.slots();
  const bool collective = task.collective().op != nullptr;
  if (collective) {
    const std::string refused = begin_collective(w, state_->rank, task);
    if (!refused.empty()) return fail(SIMPLER_ERROR_INVALID_ARGS, refused.c_str());
  }
  struct InflightEnd {
    host::SharedState* shared;
    int rank;
    ~InflightEnd() {
      if (rank >= 0) shared->inflight[rank].active.store(0);
    }
  } inflight_end{w->shared,
                 collective && state_->rank >= 0 && state_->rank < kCommMaxRanks ? state_->rank : -1};

  host::SharedState::KernelStat* stat = w->shared->kernel_stat(task.kernel_name());
  const bool traced = !w->config.trace_kernel.empty() && task.kernel_name() == w->config.trace_kernel;
  if (stat) stat->launches.fetch_add(1);

  // Argument block (the device's kernel ABI, docs/spec/device.md): tensor slots point at this
  // task's own ChipTensor copies, CommContext slots at the context; each block gets its own copy
  // of the block with its LocalContext at args[48] and the core's GlobalContext at args[49].
  if (slots.size() > static_cast<size_t>(SPMD_LOCAL_CONTEXT_INDEX)) {
    std::snprintf(msg, sizeof msg, "rank %d: kernel '%s': %zu argument slots exceed the %d a kernel can take",
                  state_->rank, task.kernel_name().c_str(), slots.size(), SPMD_LOCAL_CONTEXT_INDEX);
    return fail(SIMPLER_ERROR_INVALID_ARGS, msg);
  }
  std::vector<ChipTensor> chips(slots.size());
  std::vector<Tensor> descs(slots.size());
  std::array<int64_t, kKernelArgSlots> args{};
  for (size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].is_tensor) {
      descs[i] = slots[i].tensor;
      std::string why;
      if (!to_chip_tensor(descs[i], &chips[i], &why)) {
        std::snprintf(msg, sizeof msg, "rank %d: kernel '%s': argument %zu is not a ChipTensor: %s",
                      state_->rank, task.kernel_name().c_str(), i, why.c_str());
        return fail(SIMPLER_ERROR_INVALID_ARGS, msg);
      }
      args[i] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&chips[i]));
    } else {
      args[i] = static_cast<int64_t>(slots[i].bits);
    }
  }

  // Sync start: all blocks are created first and released together. Otherwise blocks run in
  // waves of at most `capacity` resident blocks, as on a device with that many cores.
  const int wave = spec.require_sync_start() ? nblocks : std::min(nblocks, capacity);
  for (int first = 0; first < nblocks; first += wave) {
    const int count = std::min(wave, nblocks - first);
    std::mutex gate_mu;
    std::condition_variable gate_cv;
    int arrived = 0;
    std::vector<std::thread> blocks;
    blocks.reserve(count);
    for (int i = 0; i < count; ++i) {
      blocks.emplace_back([&, i] {
        {
          std::unique_lock<std::mutex> lock(gate_mu);
          if (++arrived == count) gate_cv.notify_all();
          else gate_cv.wait(lock, [&] { return arrived == count; });
        }
        BlockCtx ctx{w, state_->rank, first + i, nblocks, chips.data(), descs.data(), slots.size(),
                     task.kernel_name().c_str(),
                     stat ? static_cast<int>(stat - w->shared->kernel_stats) : -1};
        LocalContext local{first + i, nblocks};
        GlobalContext global{0};
        std::array<int64_t, kKernelArgSlots> block_args = args;
        block_args[SPMD_LOCAL_CONTEXT_INDEX] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&local));
        block_args[SPMD_GLOBAL_CONTEXT_INDEX] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&global));
        tl_block = &ctx;
        w->shared->blocks_started.fetch_add(1);
        if (stat) stat->blocks.fetch_add(1);
        pld::host::internal::device_block_begin();
        int64_t span_start = 0;
        if (traced) {
          const int r = state_->rank;
          if (r >= 0 && static_cast<size_t>(r) < w->config.entry_delay_us.size() && w->config.entry_delay_us[r] > 0)
            std::this_thread::sleep_for(std::chrono::microseconds(w->config.entry_delay_us[r]));
          span_start = host::steady_ns();
        }
        try {
          fn(block_args.data());
        } catch (const pld::host::internal::BlockEnded&) {
          // The run failed inside the block (reported where it failed).
        }
        if (traced) {
          const int64_t span_end = host::steady_ns();
          const int n = w->shared->span_count.fetch_add(1);
          if (n < host::SharedState::kMaxSpans) w->shared->spans[n] = host::BlockSpan{state_->rank, first + i, span_start, span_end};
        }
        pld::host::internal::device_block_end();
        tl_block = nullptr;
      });
    }
    for (auto& t : blocks) t.join();
  }

  if (w->aborted()) {
    const int code = w->shared->abort_code.load();
    return latch_error(code != 0 ? code : PLD_ERROR_WAIT_TIMEOUT);
  }
  return 0;
}

int Orchestration::fail(int code, const char* message) {
  // The first failure of this orchestration is also reported on stderr, as
  // the HOST rail's pld.host.require is (pld-host: error ...): a run's refusal
  // is never silent.
  if (status() == 0) std::fprintf(stderr, "pld-runtime: error %d: %s\n", code, message ? message : "");
  state_->world->record_error(state_->rank, message ? message : "");
  return latch_error(code);
}

// ---------------------------------------------------------------- create
namespace {

// "[4, 8]" for `n` entries of v.
std::string dims_str(const int64_t* v, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += std::to_string(v[i]);
  }
  return s + "]";
}

bool rank_ok(int rank) { return rank >= 0 && rank <= kMaxTensorRank; }

}  // namespace

int Orchestration::create_tensor(int32_t elem_size, const int64_t* dims, int rank, Tensor* out) {
  if (state_->latched != 0) return state_->latched;
  std::string why;
  int64_t numel = 1, bytes = 0;
  if (!rank_ok(rank)) {
    why = "rank " + std::to_string(rank) + " outside 0.." + std::to_string(kMaxTensorRank);
  } else if (elem_size != 1 && elem_size != 2 && elem_size != 4 && elem_size != 8) {
    why = "element size " + std::to_string(elem_size) + " is not 1, 2, 4 or 8 bytes";
  } else if (rank > 0 && !dims) {
    why = "no dims";
  } else if (!out) {
    why = "no result descriptor";
  } else {
    for (int i = 0; i < rank && why.empty(); ++i)
      if (dims[i] < 0) why = "negative dimension in " + dims_str(dims, rank);
    for (int i = 0; i < rank && why.empty(); ++i)
      if (__builtin_mul_overflow(numel, dims[i], &numel))
        why = "shape " + dims_str(dims, rank) + " overflows the element count";
    // 2^47 bytes: no host can map more, and sanitizer allocators abort rather than fail above it.
    if (why.empty() && (__builtin_mul_overflow(numel, int64_t{elem_size}, &bytes) ||
                        bytes > (int64_t{1} << 47)))
      why = "shape " + dims_str(dims, rank) + " of " + std::to_string(elem_size) +
            "-byte elements is too large to allocate";
  }
  char* p = nullptr;
  if (why.empty()) {
    p = static_cast<char*>(std::calloc(static_cast<size_t>(bytes > 0 ? bytes : 1), 1));
    if (!p)
      why = "cannot allocate " + std::to_string(bytes) + " bytes for " + dims_str(dims, rank);
  }
  if (!why.empty()) {
    return fail(SIMPLER_ERROR_INVALID_ARGS,
                ("rank " + std::to_string(state_->rank) + ": pl.tensor.create: " + why).c_str());
  }
  std::unique_ptr<char, FreeDeleter> owned(p);
  state_->buffers.push_back(std::move(owned));
  *out = Tensor::contiguous(p, elem_size, dims, static_cast<size_t>(rank));
  return 0;
}

size_t Orchestration::live_buffers() const { return state_->buffers.size(); }

AllocScope::AllocScope(Orchestration* orch) : orch_(orch), mark_(orch->state_->buffers.size()) {}

AllocScope::~AllocScope() {
  auto& buffers = orch_->state_->buffers;
  if (buffers.size() > mark_)
    buffers.erase(buffers.begin() + static_cast<std::ptrdiff_t>(mark_), buffers.end());
}

}  // namespace rt
}  // namespace pld
