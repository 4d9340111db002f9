// pld-run's driver (sim/src/runner/, docs/running.md): runs one entry of a generated build tree on the
// host runtime, with the inputs pld-run wrote, and writes every tensor back for pld-run to show
// and compare. Linked with the tree's orchestration, HOST and kernel objects, runtime.cpp and a
// generated `entry.cpp` that defines the two entry pointers below (one of them null).
//
//   driver DIR
//
// DIR/params is a text file pld-run writes (sim/src/runner/exec.rs), one item per line:
//   ranks P / timeout_ms T / window_bytes W / comms N   (N: the CHIP entry's CommContext slots)
//   tensor <elem_size> <ndims> <dims...>                (a host tensor parameter, `!pl.tensor`)
//   window <elem_size> <ndims> <dims...>                (a `!pld.dtensor` parameter: CHIP entry only)
//   scalar <value>                                      (an integer or index parameter)
// in the entry's parameter order (the `!pld.comm_ctx` ones left out), then for a HOST entry
//   host_window <offset> <elem_size> <ndims> <dims...>  (a window the HOST orchestrator allocates
//                                                        itself: read back at that offset of every
//                                                        rank's window, passed to nothing)
// Tensor i's initial contents are DIR/in.<i>.bin (every rank) or DIR/in.<i>.r<rank>.bin (that
// rank), else zeros; i counts the tensor, window and host_window lines only.
//
// The HOST entry gets one host tensor per `tensor` line (shared by every device, as
// pld::host::run_host_entry passes them). The CHIP entry runs on every rank of a P-rank World, as
// a HOST side would dispatch it: each rank gets its own buffer per `tensor` line, one symmetric
// window allocation per `window` line (its view on the rank), N copies of the rank's CommContext
// and the scalars.
//
// Writes DIR/out.<i>.r<rank>.bin per tensor and rank (the one host tensor for every rank of a
// HOST entry) and DIR/result: `status <code>`, `rank_status <r> <code>` per rank, `message <text>`
// when the runtime recorded one, `kernel <name> <launches> <blocks>` per kernel that was submitted
// (World::kernel_stats), for a CHIP entry `live_buffers <n>` (runtime-owned buffers still live
// when the entry returned, every rank), and `alloc_end <bytes>`: where the world's window allocator ended
// (pld-run checks the host_window offsets it computed against it).
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pld_runtime/host.h"
#include "pld_runtime/host_entry.h"

extern const pld::host::HostEntryFn pld_run_host_entry;

namespace {
// With ranks as processes each rank process runs the host entry and allocates its windows in its
// own copy of the World; the entry wrapper reports where that allocator ended through shared
// memory, so the launcher can still check the window layout pld-run computed.
pld::host::World* g_world = nullptr;
uint64_t* g_alloc_end = nullptr;
int host_entry_recording_alloc_end(pld::host::Host* host, const pld::host::HostArgs* args) {
  const int rc = pld_run_host_entry(host, args);
  __atomic_store_n(g_alloc_end, g_world->alloc(0, 1), __ATOMIC_RELAXED);
  return rc;
}
}  // namespace
extern const pld::rt::ChipEntry* const pld_run_chip_entry;

namespace {

struct Param {
  std::string kind;  // tensor | window | host_window | scalar
  uint64_t offset = 0;  // host_window
  int32_t elem_size = 0;
  std::vector<int64_t> dims;
  int64_t scalar = 0;
  int64_t bytes() const {
    int64_t n = elem_size;
    for (int64_t d : dims) n *= d;
    return n;
  }
};

bool read_file(const std::string& path, std::vector<char>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  const std::string text = s.str();
  out.assign(text.begin(), text.end());
  return true;
}

// Fills `dst` (bytes long) from the rank's or the shared input file, if any.
bool fill(const std::string& dir, size_t i, int rank, char* dst, int64_t bytes) {
  std::vector<char> data;
  const std::string base = dir + "/in." + std::to_string(i);
  if (!read_file(base + ".r" + std::to_string(rank) + ".bin", data) && !read_file(base + ".bin", data))
    return true;
  if (static_cast<int64_t>(data.size()) != bytes) {
    std::fprintf(stderr, "pld-run driver: %s: %zu bytes, expected %lld\n", base.c_str(), data.size(),
                 static_cast<long long>(bytes));
    return false;
  }
  std::memcpy(dst, data.data(), data.size());
  return true;
}

bool write_file(const std::string& path, const char* data, int64_t bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = bytes == 0 || std::fwrite(data, 1, static_cast<size_t>(bytes), f) == static_cast<size_t>(bytes);
  return std::fclose(f) == 0 && ok;
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::ifstream pf(dir + "/params");
  if (!pf) {
    std::fprintf(stderr, "pld-run driver: cannot read %s/params\n", dir.c_str());
    return 2;
  }
  int ranks = 1, comms = 0;
  int64_t timeout_ms = 10000;
  int processes = 1;
  uint64_t window_bytes = 1 << 20;
  std::vector<Param> params;
  std::string line;
  while (std::getline(pf, line)) {
    std::istringstream in(line);
    std::string key;
    if (!(in >> key)) continue;
    if (key == "ranks") in >> ranks;
    else if (key == "processes") in >> processes;
    else if (key == "timeout_ms") in >> timeout_ms;
    else if (key == "window_bytes") in >> window_bytes;
    else if (key == "comms") in >> comms;
    else if (key == "scalar") {
      Param p;
      p.kind = key;
      in >> p.scalar;
      params.push_back(p);
    } else if (key == "tensor" || key == "window" || key == "host_window") {
      Param p;
      p.kind = key;
      if (key == "host_window") in >> p.offset;
      int nd = 0;
      in >> p.elem_size >> nd;
      for (int d = 0; d < nd; ++d) {
        int64_t x = 0;
        in >> x;
        p.dims.push_back(x);
      }
      params.push_back(p);
    } else {
      std::fprintf(stderr, "pld-run driver: unknown line '%s'\n", line.c_str());
      return 2;
    }
  }
  const bool host_entry = pld_run_host_entry != nullptr;

  // --timeout-ms bounds the whole run (below) and each signal wait. A wait gets one second more,
  // so a rank waiting for a peer that never arrives is reported by the run bound, which names
  // every waiting rank's collective, site, kernel and missing peers, and kills every rank.
  pld::host::Config cfg;
  cfg.wait_timeout_ms = static_cast<int>(timeout_ms + 1000);
  cfg.run_timeout_ms = static_cast<int>(timeout_ms);
  // Ranks as processes (pld-sim's default): windows in shared memory, each rank its own address
  // space; the host tensors live in shared_alloc() memory so the launcher reads what ranks wrote.
  cfg.rank_processes = processes != 0;
  pld::host::World world(ranks, window_bytes, cfg);

  // data[i][r]: tensor i's bytes on rank r (host tensors: per rank for a CHIP entry, one for a
  // HOST entry; windows: the rank's window at the allocation's offset).
  std::vector<const Param*> tensors;
  std::vector<int64_t> scalars;
  for (const Param& p : params) {
    if (p.kind == "scalar") scalars.push_back(p.scalar);
    else tensors.push_back(&p);
  }
  std::vector<std::vector<char*>> data(tensors.size(), std::vector<char*>(static_cast<size_t>(ranks)));
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Param& p = *tensors[i];
    if (p.kind == "host_window") {
      if (p.offset + static_cast<uint64_t>(p.bytes()) > window_bytes) {
        std::fprintf(stderr, "pld-run driver: a host window at %llu past the window's %llu bytes\n",
                     static_cast<unsigned long long>(p.offset), static_cast<unsigned long long>(window_bytes));
        return 2;
      }
      for (int r = 0; r < ranks; ++r) data[i][static_cast<size_t>(r)] = static_cast<char*>(world.window(r, p.offset));
      continue;  // the HOST orchestrator allocates (and zero-fills) it; no input
    }
    if (p.kind == "window") {
      if (host_entry) {
        std::fprintf(stderr, "pld-run driver: a HOST entry has no window parameters\n");
        return 2;
      }
      const uint64_t off = world.alloc(static_cast<uint64_t>(p.bytes()));
      for (int r = 0; r < ranks; ++r) data[i][static_cast<size_t>(r)] = static_cast<char*>(world.window(r, off));
    } else {
      const int copies = host_entry ? 1 : ranks;
      std::vector<char*> bufs(static_cast<size_t>(copies));
      for (auto& b : bufs) b = static_cast<char*>(world.shared_alloc(static_cast<uint64_t>(p.bytes())));
      for (int r = 0; r < ranks; ++r) data[i][static_cast<size_t>(r)] = bufs[static_cast<size_t>(host_entry ? 0 : r)];
    }
    for (int r = 0; r < (host_entry && p.kind == "tensor" ? 1 : ranks); ++r)
      if (!fill(dir, i, r, data[i][static_cast<size_t>(r)], p.bytes())) return 2;
  }

  // Thread mode cannot kill a hung rank thread: past the bound this watchdog writes the result
  // (status 6, where each rank is stuck) and ends the process; the outputs are not written.
  // (Process mode: World::run kills the rank processes itself.)
  std::mutex run_mu;
  std::condition_variable run_cv;
  bool run_done = false;
  std::thread watchdog;
  if (!cfg.rank_processes && timeout_ms > 0) {
    watchdog = std::thread([&] {
      std::unique_lock<std::mutex> lock(run_mu);
      if (run_cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return run_done; })) return;
      const std::string report = world.waiting_report(static_cast<int>(timeout_ms));
      std::fprintf(stderr, "pld-runtime: error %d: %s\n", pld::host::kRankFailedStatus, report.c_str());
      if (FILE* f = std::fopen((dir + "/result").c_str(), "w")) {
        std::fprintf(f, "status %d\n", pld::host::kRankFailedStatus);
        for (int r = 0; r < ranks; ++r) std::fprintf(f, "rank_status %d %d\n", r, pld::host::kRankFailedStatus);
        std::fprintf(f, "message %s\n", one_line(report).c_str());
        std::fclose(f);
      }
      std::fflush(nullptr);
      _exit(0);
    });
  }
  struct StopWatchdog {
    std::mutex& mu;
    std::condition_variable& cv;
    bool& done;
    std::thread& t;
    ~StopWatchdog() {
      {
        std::lock_guard<std::mutex> lock(mu);
        done = true;
      }
      cv.notify_all();
      if (t.joinable()) t.join();
    }
  };

  int rc = 0;
  std::vector<int> status;
  std::string message;
  long* live = nullptr;
  {
  StopWatchdog stop{run_mu, run_cv, run_done, watchdog};
  if (host_entry) {
    std::vector<pld::rt::Tensor> desc;
    for (size_t i = 0; i < tensors.size(); ++i)
      if (tensors[i]->kind != "host_window")
        desc.push_back(pld::rt::Tensor::contiguous(data[i][0], tensors[i]->elem_size, tensors[i]->dims.data(),
                                                 tensors[i]->dims.size()));
    std::vector<pld::rt::Tensor*> ptrs;
    for (auto& d : desc) ptrs.push_back(&d);
    pld::host::HostArgs args;
    args.tensors = ptrs.data();
    args.num_tensors = static_cast<int>(ptrs.size());
    args.scalars = scalars.data();
    args.num_scalars = static_cast<int>(scalars.size());
    g_world = &world;
    g_alloc_end = static_cast<uint64_t*>(world.shared_alloc(sizeof(uint64_t)));
    rc = pld::host::run_host_entry(world, &host_entry_recording_alloc_end, args, &status, &message);
  } else {
    // Per rank: the runtime-owned buffers (pl.tensor.create) still live when the entry returned
    // (in shared memory: a rank process counts its own).
    live = static_cast<long*>(world.shared_alloc(sizeof(long) * static_cast<uint64_t>(ranks)));
    status = world.run([&](int r, pld::rt::Orchestration& orch) {
      std::vector<pld::rt::Tensor> desc;
      for (size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i]->kind != "host_window")
          desc.push_back(pld::rt::Tensor::contiguous(data[i][static_cast<size_t>(r)], tensors[i]->elem_size,
                                                   tensors[i]->dims.data(), tensors[i]->dims.size()));
      std::vector<pld::rt::Tensor*> ptrs;
      for (auto& d : desc) ptrs.push_back(&d);
      std::vector<pld::rt::CommContext*> ctx(static_cast<size_t>(comms), world.comm(r));
      pld::rt::OrchArgs args;
      args.tensors = ptrs.data();
      args.num_tensors = static_cast<int>(ptrs.size());
      args.comms = ctx.data();
      args.num_comms = comms;
      args.scalars = scalars.data();
      args.num_scalars = static_cast<int>(scalars.size());
      const int entry_rc = orch.run_chip(*pld_run_chip_entry, args);
      live[r] = static_cast<long>(orch.live_buffers());
      return entry_rc;
    });
    for (int s : status)
      if (s != 0 && rc == 0) rc = s;
    message = world.error_message();
  }
  }

  for (size_t i = 0; i < tensors.size(); ++i)
    for (int r = 0; r < ranks; ++r) {
      const std::string path = dir + "/out." + std::to_string(i) + ".r" + std::to_string(r) + ".bin";
      if (!write_file(path, data[i][static_cast<size_t>(r)], tensors[i]->bytes())) {
        std::fprintf(stderr, "pld-run driver: cannot write %s\n", path.c_str());
        return 2;
      }
    }
  FILE* f = std::fopen((dir + "/result").c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "pld-run driver: cannot write %s/result\n", dir.c_str());
    return 2;
  }
  std::fprintf(f, "status %d\n", rc);
  for (size_t r = 0; r < status.size(); ++r) std::fprintf(f, "rank_status %zu %d\n", r, status[r]);
  if (!message.empty()) std::fprintf(f, "message %s\n", one_line(message).c_str());
  // A zero-byte allocation at alignment 1 returns where the allocator is and moves nothing.
  const uint64_t alloc_end = host_entry && world.rank_processes() ? *g_alloc_end : world.alloc(0, 1);
  std::fprintf(f, "alloc_end %llu\n", static_cast<unsigned long long>(alloc_end));
  for (const pld::host::KernelStats& k : world.kernel_stats())
    std::fprintf(f, "kernel %s %ld %ld\n", k.name.c_str(), k.launches, k.blocks);
  if (live) {
    long total = 0;
    for (int r = 0; r < ranks; ++r) total += live[r];
    std::fprintf(f, "live_buffers %ld\n", total);
  }
  std::fclose(f);
  return 0;
}
