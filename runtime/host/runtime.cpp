// The host (CPU) implementation of the pld runtime: ranks and blocks are threads, windows are
// shared memory, signal cells are real atomics, waits park on a futex and time out.
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
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
#include <stdexcept>
#include <thread>

#include "pld_runtime/host.h"
#include "pld_runtime/kernel.h"

namespace pld {
namespace host {

struct World::Impl {
  int ranks = 0;
  uint64_t window_bytes = 0;
  uint64_t next_offset = 0;
  Config config;
  int timeout_ms = 20000;
  std::vector<void*> windows;
  std::vector<std::unique_ptr<CommContext>> comms;
  std::map<std::string, KernelFn> kernels;

  std::atomic<bool> aborted{false};
  std::atomic<long> blocks_started{0};
  mutable std::mutex mu;  // guards error and copies
  std::string error;
  std::vector<CopyRecord> copies;

  void record_error(const std::string& msg) {
    std::lock_guard<std::mutex> lock(mu);
    if (error.empty()) error = msg;
  }
};

}  // namespace host

namespace rt {

class RankState {
 public:
  host::World::Impl* world;
  int rank;
  int latched = 0;
};

}  // namespace rt
}  // namespace pld

namespace {

using pld::host::World;

// What the current thread is running: set for kernel block threads only.
struct BlockCtx {
  World::Impl* world;
  int rank;
  int block;
  int nblocks;
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
struct alignas(64) Bucket {
  std::atomic<int> waiters{0};
};
Bucket g_buckets[256];
Bucket& bucket_of(const void* addr) {
  auto a = reinterpret_cast<uintptr_t>(addr);
  return g_buckets[(a >> 2) * 0x9E3779B97F4A7C15ull >> 56];
}

void futex_wait(int32_t* addr, int32_t expected, int timeout_ms) {
  timespec ts;
  ts.tv_sec = timeout_ms / 1000;
  ts.tv_nsec = static_cast<long>(timeout_ms % 1000) * 1000000L;
  syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, expected, &ts, nullptr, 0);
}
void futex_wake_all(int32_t* addr) { syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0); }

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

}  // namespace

// ---------------------------------------------------------------- kernel services (extern "C")
extern "C" {

int32_t pld_rt_block_idx(void) { return tl_block ? tl_block->block : 0; }
int32_t pld_rt_block_num(void) { return tl_block ? tl_block->nblocks : 1; }

void pld_rt_signal_add(int32_t* cell, int32_t delta) {
  __atomic_fetch_add(cell, delta, __ATOMIC_SEQ_CST);
  if (bucket_of(cell).waiters.load(std::memory_order_seq_cst) > 0) futex_wake_all(cell);
}

bool pld_rt_signal_wait_ge(int32_t* cell, int32_t value, int32_t row, int32_t col) {
  // 1. Brief spin, 2. a few yields, 3. park on the futex in short slices (so an abort elsewhere
  // is noticed) until the deadline.
  for (int i = 0; i < 128; ++i) {
    if (__atomic_load_n(cell, __ATOMIC_ACQUIRE) >= value) return true;
    cpu_relax();
  }
  for (int i = 0; i < 4; ++i) {
    if (__atomic_load_n(cell, __ATOMIC_ACQUIRE) >= value) return true;
    sched_yield();
  }
  World::Impl* w = tl_block ? tl_block->world : nullptr;
  const int timeout_ms = w ? w->timeout_ms : 20000;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::milliseconds(timeout_ms);
  Bucket& b = bucket_of(cell);
  for (;;) {
    if (w && w->aborted.load(std::memory_order_relaxed)) return false;
    b.waiters.fetch_add(1, std::memory_order_seq_cst);
    int32_t v = __atomic_load_n(cell, __ATOMIC_SEQ_CST);
    if (v < value) futex_wait(cell, v, 20);
    b.waiters.fetch_sub(1, std::memory_order_relaxed);
    v = __atomic_load_n(cell, __ATOMIC_ACQUIRE);
    if (v >= value) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      char msg[256];
      std::snprintf(msg, sizeof msg,
                    "signal wait timeout: rank %d block %d waited %lld ms on signal cell [%d, %d] "
                    "for >= %d, value %d",
                    tl_block ? tl_block->rank : -1, tl_block ? tl_block->block : -1,
                    static_cast<long long>(
                        std::chrono::duration_cast<std::chrono::milliseconds>(now - start).count()),
                    row, col, value, v);
      std::fprintf(stderr, "pld-runtime: %s\n", msg);
      if (w) {
        w->record_error(msg);
        w->aborted.store(true);
      }
      return false;
    }
  }
}

void pld_rt_copy(void* dst, const void* src, uint64_t bytes) {
  if (bytes == 0) return;
  std::memcpy(dst, src, bytes);
  if (tl_block && tl_block->world->config.trace_copies) {
    std::lock_guard<std::mutex> lock(tl_block->world->mu);
    tl_block->world->copies.push_back(
        pld::host::CopyRecord{tl_block->rank, tl_block->block, dst, src, bytes});
  }
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
  for (int r = 0; r < ranks; ++r) {
    void* p = mmap(nullptr, window_bytes ? window_bytes : 1, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("pld::host::World: mmap failed");
    impl_->windows.push_back(p);
  }
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
  for (void* p : impl_->windows) munmap(p, impl_->window_bytes ? impl_->window_bytes : 1);
}

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

std::vector<int> World::run(const std::function<int(int, rt::Orchestration&)>& body) {
  std::vector<int> status(impl_->ranks, 0);
  std::vector<std::thread> threads;
  threads.reserve(impl_->ranks);
  for (int r = 0; r < impl_->ranks; ++r) {
    threads.emplace_back([this, r, &body, &status] {
      rt::RankState st{impl_.get(), r, 0};
      rt::Orchestration orch(&st);
      int rc = body(r, orch);
      status[r] = rc != 0 ? rc : orch.status();
    });
  }
  for (auto& t : threads) t.join();
  return status;
}

std::string World::error_message() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->error;
}
long World::blocks_started() const { return impl_->blocks_started.load(); }
std::vector<CopyRecord> World::copies() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->copies;
}
void World::clear_copies() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->copies.clear();
}

}  // namespace host

// ---------------------------------------------------------------- Orchestration
namespace rt {

int Orchestration::latch_error(int code) {
  if (state_->latched == 0) state_->latched = code;
  return state_->latched;
}
int Orchestration::status() const { return state_->latched; }
int Orchestration::rank() const { return state_->rank; }

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
    w->record_error(msg);
    return latch_error(PLD_ERROR_UNKNOWN_KERNEL);
  }

  const LaunchSpec& spec = task.launch_spec();
  const int nblocks = spec.block_num();
  if (nblocks < 1) {
    std::snprintf(msg, sizeof msg, "rank %d: kernel '%s': block_num %d < 1", state_->rank,
                  task.kernel_name().c_str(), nblocks);
    w->record_error(msg);
    return latch_error(SIMPLER_ERROR_INVALID_ARGS);
  }
  const int capacity = std::max(1, w->config.aiv_capacity);
  if (spec.require_sync_start() && nblocks > capacity) {
    std::snprintf(msg, sizeof msg,
                  "rank %d: kernel '%s': sync-start launch of %d blocks exceeds the %d AIV cores",
                  state_->rank, task.kernel_name().c_str(), nblocks, capacity);
    w->record_error(msg);
    return latch_error(SIMPLER_FATAL_SYNC_START_OVER_CAPACITY);
  }

  // Argument block: tensor slots point at this task's own descriptor copies.
  const auto& slots = task.slots();
  std::vector<Tensor> descs;
  descs.reserve(slots.size());
  std::vector<int64_t> args(slots.size());
  for (size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].is_tensor) {
      descs.push_back(slots[i].tensor);
      args[i] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(&descs.back()));
    } else {
      args[i] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(slots[i].ctx));
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
        BlockCtx ctx{w, state_->rank, first + i, nblocks};
        tl_block = &ctx;
        w->blocks_started.fetch_add(1);
        fn(args.data());
        tl_block = nullptr;
      });
    }
    for (auto& t : blocks) t.join();
  }

  if (w->aborted.load()) return latch_error(PLD_ERROR_WAIT_TIMEOUT);
  return 0;
}

}  // namespace rt
}  // namespace pld
