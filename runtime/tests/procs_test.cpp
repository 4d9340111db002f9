// procs_test: pld::host::World with ranks as processes (Config::rank_processes): the windows are
// shared between the rank processes and the launcher, nothing else is; shared_alloc memory and the
// world's error message reach the launcher; a crashed, exited or hung rank is reported by
// rank_ends() with status kRankFailedStatus, its peers' waits end, and no /dev/shm entry is left.
// Run by run.sh (`runtime_tests --suite procs`) in the release build only (ThreadSanitizer does
// not follow a multi-threaded fork).
#include <dirent.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"
#include "pld_runtime/host.h"
#include "pld_runtime/kernel.h"
#include "pld_runtime/task.h"

namespace {

pld_test::Suite* g_suite = nullptr;  // the running suite (its checks are counted one by one)

void check(bool ok, const std::string& what) { g_suite->check(ok, what); }

int g_private = 0;  // written by a rank body: stays in that rank's process

int shm_entries() {
  int n = 0;
  const std::string prefix = "pld-world-" + std::to_string(getpid()) + "-";
  if (DIR* d = opendir("/dev/shm")) {
    while (dirent* e = readdir(d))
      if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0) ++n;
    closedir(d);
  }
  return n;
}

// A kernel: posts +1 to cell 0 of every peer's signal (args[0] the signal, a tensor in this
// rank's window; args[1] the CommContext), then waits for its own cell to reach rankNum.
void post_and_wait(int64_t* args) {
  auto* cell = static_cast<int32_t*>(pld::tensor_arg(args, 0)->data);
  auto* ctx = reinterpret_cast<pld::CommContext*>(args[1]);
  for (uint32_t p = 0; p < ctx->rankNum; ++p) pld_rt_signal_add(pld::peer_ptr(ctx, cell, p), 1);
  pld_rt_signal_wait_ge(cell, static_cast<int32_t>(ctx->rankNum), 0, 0);
}

std::vector<int> run_exchange(pld::host::World& w, uint64_t off) {
  w.register_kernel("post_and_wait", &post_and_wait);
  return w.run([&](int rank, pld::rt::Orchestration& orch) {
    pld::rt::Task t(0, "post_and_wait");
    t.add_tensor(pld::Tensor::contiguous(w.window(rank, off), 4, {1}), pld::rt::Dir::InOut);
    t.add_comm_context(w.comm(rank));
    return orch.submit(t);
  });
}

}  // namespace

void procs_suite(pld_test::Suite& t) {
  g_suite = &t;
  using pld::host::Config;
  using pld::host::RankEnd;
  using pld::host::World;
  {
    Config cfg;
    cfg.rank_processes = true;
    World w(3, 4096, cfg);
    check(w.rank_processes(), "rank_processes()");
    check(shm_entries() == 0, "the shm object is unlinked once mapped");
    const uint64_t off = w.alloc(64);
    auto* counter = static_cast<std::atomic<int>*>(w.shared_alloc(sizeof(std::atomic<int>)));
    const auto st = w.run([&](int rank, pld::rt::Orchestration&) {
      // Every rank writes its own window and a peer's, bumps the shared counter and a private
      // global; the launcher sees the first three only.
      static_cast<int*>(w.window(rank, off))[0] = 100 + rank;
      static_cast<int*>(w.window((rank + 1) % 3, off))[1 + rank] = rank + 1;
      counter->fetch_add(1);
      g_private = 7;
      if (rank == 2) w.record_error("rank 2 says hello");
      return rank == 1 ? 5 : 0;
    });
    check(st == std::vector<int>({0, 5, 0}), "statuses of the bodies");
    for (int r = 0; r < 3; ++r) {
      const int* win = static_cast<const int*>(w.window(r, off));
      check(win[0] == 100 + r, "window of rank " + std::to_string(r));
      const int from = (r + 2) % 3;
      check(win[1 + from] == from + 1, "peer write into rank " + std::to_string(r));
    }
    check(counter->load() == 3, "shared_alloc memory is shared");
    check(g_private == 0, "a body's private memory stays in its process");
    check(w.error_message() == "rank 2 says hello", "error message from a rank process");
    for (const RankEnd& e : w.rank_ends()) check(e.kind == RankEnd::kFinished, "every rank finished");
  }
  // Faults: a crash inside the kernel (after the rank's first signal post), an early exit before
  // the body, a hang past the run's timeout. The peers' waits end and the run returns promptly.
  struct FaultCase {
    Config::FaultKind kind;
    Config::FaultAt at;
    RankEnd::Kind want;
    const char* how;
  };
  const FaultCase cases[] = {
      {Config::FaultKind::kCrash, Config::FaultAt::kInside, RankEnd::kFailed, "killed by signal 9"},
      {Config::FaultKind::kExit, Config::FaultAt::kBefore, RankEnd::kFailed, "exited with status 0"},
      {Config::FaultKind::kHang, Config::FaultAt::kAfter, RankEnd::kTimedOut, "still running after 400 ms"},
  };
  for (const FaultCase& c : cases) {
    Config cfg;
    cfg.rank_processes = true;
    cfg.run_timeout_ms = 400;
    cfg.fault_rank = 1;
    cfg.fault_kind = c.kind;
    cfg.fault_at = c.at;
    World w(2, 4096, cfg);
    const uint64_t off = w.alloc(64);
    const auto t0 = std::chrono::steady_clock::now();
    const auto st = run_exchange(w, off);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    const auto ends = w.rank_ends();
    const std::string what = std::string("fault ") + c.how;
    check(st.size() == 2 && st[1] == pld::host::kRankFailedStatus, what + ": status 6");
    check(ends[1].kind == c.want && ends[1].how.find(c.how) == 0, what + ": got '" + ends[1].how + "'");
    check(ms < 3000, what + ": took " + std::to_string(ms) + " ms");
    check(shm_entries() == 0, what + ": no /dev/shm entry");
  }
  // Thread mode is unchanged: the same exchange, every rank finished.
  {
    World w(2, 4096, Config());
    const uint64_t off = w.alloc(64);
    const auto st = run_exchange(w, off);
    check(st == std::vector<int>({0, 0}), "thread mode exchange");
    check(!w.rank_processes(), "thread mode");
  }
}
