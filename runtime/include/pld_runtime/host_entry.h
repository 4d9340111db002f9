// pld_runtime/host_entry.h: what a generated HOST orchestrator (`host/<host_fn>.cpp`, see
// docs/codegen.md) is written against, and how a driver runs one on the host runtime.
//
// A HOST orchestrator is L3 code: it allocates communication windows, derives each device's
// CommContext and dispatches CHIP orchestration functions (L2 callables) to devices. Here a device
// is a rank of a pld::host::World. Each device executes its dispatches in dispatch order, one at a
// time (a per-device stream); different devices run concurrently, which the collectives need
// (every rank of an exchange must be inside it together). Header-only, on top of host.h.
#ifndef PLD_RUNTIME_HOST_ENTRY_H
#define PLD_RUNTIME_HOST_ENTRY_H

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pld_runtime/host.h"
#include "pld_runtime/task.h"

namespace pld {
namespace host {

// A `pld.window` view: `offset` bytes into every device's window, with a static packed shape.
// window_tensor() turns it into one device's local pld::Tensor.
struct WindowView {
  uint64_t offset = 0;
  int32_t elem_size = 0;
  int32_t rank = 0;
  int64_t shape[8] = {};

  static WindowView make(uint64_t offset, int32_t elem_size, std::initializer_list<int64_t> dims) {
    WindowView v;
    v.offset = offset;
    v.elem_size = elem_size;
    for (int64_t d : dims) {
      if (v.rank < 8) v.shape[v.rank++] = d;
    }
    return v;
  }
};

// The arguments of a HOST orchestrator: its tensor parameters (host tensors, shared by every
// device they are dispatched to), then its integer/index parameters, each in declaration order.
struct HostArgs {
  rt::Tensor* const* tensors = nullptr;
  int num_tensors = 0;
  const int64_t* scalars = nullptr;
  int num_scalars = 0;

  rt::Tensor& tensor(int i) const { return *tensors[i]; }
  int64_t scalar(int i) const { return scalars[i]; }
};

class Host {
 public:
  explicit Host(World& world) : world_(world), queues_(world.ranks()) {}
  // The host entry as one rank process runs it (ranks as processes, see run_host_entry): every
  // rank process runs the whole entry, and only the dispatches to device `local` execute, at
  // once, on that rank's orchestration `orch`; the others are checked and dropped.
  Host(World& world, int local, rt::Orchestration* orch)
      : world_(world), queues_(world.ranks()), local_(local), local_orch_(orch) {}
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  int num_devices() const { return world_.ranks(); }

  // `at` (every method below that takes it): the op's `file:line:col`, a string literal the
  // generated code passes; a failure's message then reads `<op> at <at>: ...` (nullptr: none).

  // `pld.window_buffer {bytes}`: a symmetric, zero-filled allocation in every device's window.
  // Returns its offset; on a full window latches SIMPLER_ERROR_INVALID_ARGS and returns 0 (check
  // status()).
  uint64_t alloc_window(uint64_t bytes, const char* at = nullptr) {
    try {
      return world_.alloc(bytes);
    } catch (const std::exception& e) {
      fail(SIMPLER_ERROR_INVALID_ARGS, located("pld.window_buffer", at, e.what()));
      return 0;
    }
  }

  // Device `device`'s local view of `view` (a null tensor for a device out of range, which
  // dispatch() rejects).
  rt::Tensor window_tensor(const WindowView& view, int64_t device) const {
    rt::Tensor t{};
    if (device < 0 || device >= num_devices()) return t;
    t.data = world_.window(static_cast<int>(device), view.offset);
    t.rank = view.rank;
    t.elem_size = view.elem_size;
    int64_t stride = 1;
    for (int i = view.rank - 1; i >= 0; --i) {
      t.shape[i] = view.shape[i];
      t.strides[i] = stride;
      stride *= view.shape[i];
    }
    return t;
  }

  // `pld.host.device_ctx`: the CommContext of `device` in the one communication domain.
  rt::CommContext* device_ctx(int64_t device) const {
    if (device < 0 || device >= num_devices()) return nullptr;
    return world_.comm(static_cast<int>(device));
  }

  // `pld.comm_domain {ranks}`: a communication domain over devices 0..ranks-1, with its own
  // CommContext per device (rankId = device, rankNum = ranks, the world's window addresses).
  // Windows are symmetric over every device, so over the domain's too. Returns the domain's
  // index, or latches SIMPLER_ERROR_INVALID_ARGS and returns -1 when ranks is outside
  // [1, num_devices()] (check status()).
  int comm_domain(int64_t ranks, const char* at = nullptr) {
    if (ranks < 1 || ranks > num_devices()) {
      fail(SIMPLER_ERROR_INVALID_ARGS,
           located("pld.comm_domain", at,
                   "communication domain of " + std::to_string(ranks) + " ranks in a world of " +
                       std::to_string(num_devices())));
      return -1;
    }
    std::vector<std::unique_ptr<rt::CommContext>> contexts;
    for (int d = 0; d < ranks; ++d) {
      auto c = std::make_unique<rt::CommContext>(*world_.comm(d));
      c->rankId = static_cast<uint32_t>(d);
      c->rankNum = static_cast<uint32_t>(ranks);
      contexts.push_back(std::move(c));
    }
    domains_.push_back(std::move(contexts));
    return static_cast<int>(domains_.size() - 1);
  }

  // `pld.host.device_ctx %device in %d`: the CommContext of `device` in domain `domain`. A
  // device outside the domain latches SIMPLER_ERROR_INVALID_ARGS (the next dispatch returns it)
  // and yields null.
  rt::CommContext* device_ctx(int64_t device, int domain, const char* at = nullptr) {
    if (domain < 0 || static_cast<size_t>(domain) >= domains_.size()) return nullptr;
    const auto& contexts = domains_[static_cast<size_t>(domain)];
    if (device < 0 || static_cast<size_t>(device) >= contexts.size()) {
      fail(SIMPLER_ERROR_INVALID_ARGS,
           located("pld.host.device_ctx", at,
                   "device " + std::to_string(device) + " is not in a communication domain of " +
                       std::to_string(contexts.size()) + " ranks"));
      return nullptr;
    }
    return contexts[static_cast<size_t>(device)].get();
  }

  // `pld.host.dispatch @callee(tensors..., comms...) on device core_num(block_num)`: queues one
  // run of the callee's CHIP orchestration `entry` (its ChipEntry, chip_entries.cpp) on the
  // device's stream and returns at once (0), or latches and returns
  // SIMPLER_ERROR_INVALID_ARGS for a device out of range, or the code already latched.
  // `block_num` (0 = none given) and `site` (the dispatch's `file:line:col`, a string literal;
  // nullptr: none) reach a builtin callable (ChipEntry::dispatch_args) as its last two scalars;
  // the site also locates the dispatch's own failures, as `at` does.
  int dispatch(int64_t device, const rt::ChipEntry* entry, const char* name,
               std::initializer_list<rt::Tensor> tensors,
               std::initializer_list<rt::CommContext*> comms, int64_t block_num,
               const char* site = nullptr) {
    return dispatch(device, entry, name, tensors, comms, {}, block_num, site);
  }
  // The same with the callee's integer scalar arguments (OrchArgs::scalars, in order).
  int dispatch(int64_t device, const rt::ChipEntry* entry, const char* name,
               std::initializer_list<rt::Tensor> tensors,
               std::initializer_list<rt::CommContext*> comms,
               std::initializer_list<int64_t> scalars, int64_t block_num,
               const char* site = nullptr) {
    if (int rc = status()) return rc;
    if (device < 0 || device >= num_devices()) {
      return fail(SIMPLER_ERROR_INVALID_ARGS,
                  located("pld.host.dispatch", site,
                          "dispatch of " + std::string(name) + " to device " +
                              std::to_string(device) + " of " + std::to_string(num_devices())));
    }
    if (block_num < 0 || block_num > 2147483647) {
      return fail(SIMPLER_ERROR_INVALID_ARGS,
                  located("pld.host.dispatch", site,
                          "dispatch of " + std::string(name) + " with core_num " +
                              std::to_string(block_num)));
    }
    Item item;
    item.entry = entry;
    item.name = name;
    item.tensors.assign(tensors.begin(), tensors.end());
    item.comms.assign(comms.begin(), comms.end());
    item.scalars.assign(scalars.begin(), scalars.end());
    item.block_num = static_cast<int>(block_num);
    item.site = site;
    if (local_orch_) {
      // Process mode: this rank process runs its own device's dispatches, in order.
      if (device != local_) return 0;
      const int rc = run_item(item, *local_orch_);
      if (rc != 0 && local_first_ == 0) local_first_ = rc;
      return 0;
    }
    std::lock_guard<std::mutex> lock(mu_);
    queues_[static_cast<size_t>(device)].push_back(std::move(item));
    cv_.notify_all();
    return 0;
  }

  // `pld.host.require ... else error code, "message"`: latches `code` (first wins) with
  // `message` and returns the latched code.
  int fail(int code, const std::string& message) {
    std::lock_guard<std::mutex> lock(mu_);
    if (status_ == 0) {
      status_ = code;
      message_ = message;
      std::fprintf(stderr, "pld-host: error %d: %s\n", code, message.c_str());
    }
    return status_;
  }

  // The code latched by the host entry itself (0 if none) and its message.
  int status() const {
    std::lock_guard<std::mutex> lock(mu_);
    return status_;
  }
  std::string message() const {
    std::lock_guard<std::mutex> lock(mu_);
    return message_;
  }

  // Driver side (run_host_entry): serve one device's stream until close(); returns the first
  // non-zero status of the callables it ran.
  int serve(int device, rt::Orchestration& orch) {
    int first = 0;
    for (;;) {
      Item item;
      {
        std::unique_lock<std::mutex> lock(mu_);
        auto& q = queues_[static_cast<size_t>(device)];
        cv_.wait(lock, [&] { return closed_ || !q.empty(); });
        if (q.empty()) return first;
        item = std::move(q.front());
        q.pop_front();
      }
      const int rc = run_item(item, orch);
      if (rc != 0 && first == 0) first = rc;
    }
  }
  // Process mode: the first non-zero status of this rank's own dispatches.
  int local_status() const { return local_first_; }
  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }

 private:
  // A failure's message, prefixed with its op and site when the generated code gave one.
  static std::string located(const char* op, const char* at, const std::string& message) {
    return at ? std::string(op) + " at " + at + ": " + message : message;
  }

  struct Item {
    const rt::ChipEntry* entry = nullptr;
    std::string name;
    std::vector<rt::Tensor> tensors;
    std::vector<rt::CommContext*> comms;
    std::vector<int64_t> scalars;
    int block_num = 0;
    const char* site = nullptr;
  };

  static int run_item(Item& item, rt::Orchestration& orch) {
    std::vector<rt::Tensor*> tensor_ptrs;
    for (auto& t : item.tensors) tensor_ptrs.push_back(&t);
    rt::OrchArgs args;
    args.tensors = tensor_ptrs.data();
    args.num_tensors = static_cast<int>(tensor_ptrs.size());
    args.comms = item.comms.data();
    args.num_comms = static_cast<int>(item.comms.size());
    args.scalars = item.scalars.data();
    args.num_scalars = static_cast<int>(item.scalars.size());
    args.dispatch_block_num = item.block_num;
    args.dispatch_site = item.site;
    int rc = orch.run_chip(*item.entry, args);
    if (rc == 0) rc = orch.status();
    return rc;
  }

  World& world_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::deque<Item>> queues_;
  std::vector<std::vector<std::unique_ptr<rt::CommContext>>> domains_;
  bool closed_ = false;
  int status_ = 0;
  std::string message_;
  int local_ = -1;                            // process mode: this rank process's device
  rt::Orchestration* local_orch_ = nullptr;  // and its orchestration
  int local_first_ = 0;
};

// The type of a generated HOST orchestrator: returns 0 or the code it failed with.
using HostEntryFn = int (*)(Host* host, const HostArgs* args);

// Runs a HOST orchestrator on `world`: every device serves its stream on its own thread while
// `entry` runs on the calling thread; returns once every dispatched callable has finished. The
// result is the entry's code if non-zero, else the first non-zero device status (in device
// order), else 0. `device_status` (optional) receives each device's status, `message` the host
// entry's failure message, else the first failure message a device recorded.
//
// With ranks as processes (Config::rank_processes) every rank process runs the whole entry, and
// executes only its own device's dispatches (Host(world, device, orch)); the host entry's
// windows are allocated alike in every process (symmetric, deterministic), and a failure the
// entry latches is that rank's status, its message recorded in the world.
inline int run_host_entry(World& world, HostEntryFn entry, const HostArgs& args,
                          std::vector<int>* device_status = nullptr,
                          std::string* message = nullptr) {
  if (world.rank_processes()) {
    std::vector<int> statuses = world.run([&](int rank, rt::Orchestration& orch) {
      Host local(world, rank, &orch);
      const int rc = entry(&local, &args);
      if (rc != 0) {
        if (!local.message().empty()) world.record_error(local.message());
        return rc;
      }
      return local.local_status();
    });
    if (device_status) *device_status = statuses;
    if (message) *message = world.error_message();
    for (int s : statuses) {
      if (s != 0) return s;
    }
    return 0;
  }
  Host host(world);
  std::vector<int> statuses;
  std::thread devices([&] {
    statuses = world.run([&](int rank, rt::Orchestration& orch) { return host.serve(rank, orch); });
  });
  int rc = entry(&host, &args);
  host.close();
  devices.join();
  if (device_status) *device_status = statuses;
  // The host entry's own failure message, else the first one a device's CHIP
  // orchestration recorded (a failing pl.require, a view's refusal, ...).
  if (message) {
    *message = host.message();
    if (message->empty()) *message = world.error_message();
  }
  if (rc != 0) return rc;
  for (int s : statuses) {
    if (s != 0) return s;
  }
  return 0;
}

}  // namespace host
}  // namespace pld

#endif  // PLD_RUNTIME_HOST_ENTRY_H
