// pld's implementation of simpler's orchestration API (pto_orchestration_api.h) over
// pld::rt::Orchestration: Orchestration::run_chip calls an orchestration entry with this thread
// bound to it, and every rt_* call of the entry acts on that binding.
//
// Tasks run asynchronously, ordered as simpler's tensormap runtime orders them (docs/device.md,
// "Orchestration API"): a submit returns at once; its task starts, on a thread of its own, once
// every task it depends on has finished, and then after a seeded delay (PLD_TASK_SEED), so an
// order the program did not state is not one it gets by luck.
#include <algorithm>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <pto_orchestration_api.h>  // runtime/include/device

#include "internal.h"
#include "pld_runtime/task.h"

namespace {

using pld::rt::AllocScope;
using pld::rt::ChipEntry;
using pld::rt::Orchestration;

// One PTO2_SCOPE: the buffers its tasks' OUTPUT slots and alloc_tensors made, and the
// descriptors TaskOutputTensors::get_ref hands out, live until it ends.
struct Scope {
  PTO2ScopeMode mode;  // MANUAL: its tasks are ordered by their explicit dependencies only
  std::unique_ptr<AllocScope> buffers;
  std::deque<ChipTensor> outputs;
};

// A region of memory a task writes (simpler's tensormap entry), by bytes.
struct Writer {
  uint64_t lo, hi;
  uint32_t task;
};

// What the calling thread's orchestration is bound to.
struct Binding {
  Orchestration* orch;
  const ChipEntry* entry;
  std::vector<std::unique_ptr<Scope>> scopes;
  uint32_t next_task = 0;  // local id of the next task (ring 0)

  // The executor: which tasks have finished, the threads that run them, the writers so far.
  std::mutex mu;
  std::condition_variable cv;
  std::vector<char> done;  // by local id
  // By local id: how many of the task's dependencies have not finished, the tasks waiting for it,
  // and the condition its thread waits on (one per task: a finish wakes its own dependents, not
  // every waiting thread; a deque keeps each in place as tasks are added).
  std::vector<uint32_t> pending;
  std::vector<std::vector<uint32_t>> dependents;
  std::deque<std::condition_variable> ready;
  std::deque<std::thread> running;  // in submit order
  // The last collective task submitted (-1: none): a rank's collectives run one at a time, in
  // program order (the same on every rank, so no two ranks wait for each other's second one),
  // which is what the runtime's one in-flight collective record per rank reports on.
  int64_t last_collective = -1;
  std::vector<Writer> writers;
  const char* dispatch_site = nullptr;  // a HOST dispatch's collective site (overrides the entry's)
  // The orchestration's own failure (rt_report_fatal, a refused call), first one wins: later rt_*
  // calls do nothing, the tasks submitted before it still run, and run_chip latches it on the
  // rank once they have.
  int fatal_code = 0;
  std::string fatal_message;
  std::mt19937_64 rng;
  uint32_t max_delay_us = 0;

  // Every task submitted so far has finished (and its thread is joined).
  void wait_all() {
    std::deque<std::thread> threads;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return std::all_of(done.begin(), done.end(), [](char d) { return d != 0; }); });
      threads.swap(running);
    }
    for (std::thread& t : threads) t.join();
  }
};

// PLD_TASK_SEED=n: a task waits a random 0..200 µs (seeded by n) once it is ready; 0 turns the
// delay off. Unset, or not a decimal number: seed 1 (a typo must not turn the delays off).
void seed_executor(Binding* b) {
  uint64_t seed = 1;
  if (const char* e = std::getenv("PLD_TASK_SEED")) {
    char* end = nullptr;
    const uint64_t v = std::strtoull(e, &end, 10);
    if (*e != '\0' && end != nullptr && *end == '\0') seed = v;
  }
  b->rng.seed(seed);
  b->max_delay_us = seed == 0 ? 0 : 200;
}

// The bytes a view spans ([lo, hi), empty for an empty tensor).
Writer span_of(const ChipTensor& c, uint32_t task) {
  const uint64_t elem = get_element_size(c.dtype);
  const uint64_t lo = c.buffer.addr + c.start_offset * elem;
  return Writer{lo, lo + c.extent_elem() * elem, task};
}

thread_local Binding* tl_binding = nullptr;
// The site run_chip(entry, OrchArgs) passes to the run it starts.
thread_local const char* tl_dispatch_site = nullptr;

Binding& bound() {
  if (tl_binding == nullptr) throw std::logic_error("an orchestration API call outside Orchestration::run_chip");
  return *tl_binding;
}

bool fatal() { return tl_binding == nullptr || tl_binding->fatal_code != 0 || tl_binding->orch->status() != 0; }

void report(Binding& b, int code, const std::string& text) {
  if (b.fatal_code != 0) return;
  b.fatal_code = code;
  b.fatal_message = text;
}

void fail(int code, const std::string& message) {
  Binding& b = bound();
  report(b, code, std::string("orchestration '") + b.entry->name + "': " + message);
}

// The view a ChipTensor describes, as the runtime's descriptor (element 0 at start_offset).
bool to_tensor(const ChipTensor& c, pld::Tensor* t, std::string* why) {
  const uint64_t elem = get_element_size(c.dtype);
  if (c.ndims < 1 || c.ndims > static_cast<uint32_t>(MAX_TENSOR_DIMS) || elem == 0) {
    *why = "a ChipTensor of " + std::to_string(c.ndims) + " dimensions and dtype " +
           std::to_string(static_cast<int>(c.dtype));
    return false;
  }
  *t = pld::Tensor{};
  t->data = reinterpret_cast<void*>(static_cast<uintptr_t>(c.buffer.addr + c.start_offset * elem));
  t->elem_size = static_cast<int32_t>(elem);
  t->rank = static_cast<int32_t>(c.ndims);
  for (uint32_t d = 0; d < c.ndims; ++d) {
    t->shape[d] = c.shapes[d];
    t->strides[d] = c.strides[d];
  }
  return true;
}

// A fresh buffer for `ci` in the innermost scope; its descriptor stays there.
const ChipTensor* materialize(const TensorCreateInfo& ci, PTO2TaskId owner) {
  Binding& b = bound();
  if (b.scopes.empty()) {
    fail(PTO2_ERROR_INVALID_ARGS, "a tensor created outside any scope");
    return nullptr;
  }
  if (ci.ndims < 1 || ci.ndims > static_cast<uint32_t>(MAX_TENSOR_DIMS)) {
    fail(PTO2_ERROR_INVALID_ARGS, "a TensorCreateInfo of " + std::to_string(ci.ndims) + " dimensions");
    return nullptr;
  }
  int64_t dims[MAX_TENSOR_DIMS];
  for (uint32_t d = 0; d < ci.ndims; ++d) dims[d] = ci.shapes[d];
  const auto elem = static_cast<int32_t>(get_element_size(ci.dtype));
  pld::Tensor t;
  if (b.orch->create_tensor(elem, dims, static_cast<int>(ci.ndims), &t) != 0) return nullptr;
  // The device's contents are undefined unless an initial value is set: a recognizable pattern
  // instead of create_tensor's zeros, so a program that reads before it writes shows it.
  const uint64_t bytes = static_cast<uint64_t>(t.numel()) * static_cast<uint64_t>(elem);
  auto* p = static_cast<unsigned char*>(t.data);
  if (ci.has_initial_value) {
    for (uint64_t i = 0; i < bytes; i += static_cast<uint64_t>(elem))
      std::memcpy(p + i, &ci.initial_value, static_cast<size_t>(elem));
  } else {
    std::memset(p, 0xA5, bytes);
  }
  ChipTensor c = make_tensor_external(t.data, ci.shapes, ci.ndims, ci.dtype, ci.manual_dep);
  c.owner_task_id = owner;
  b.scopes.back()->outputs.push_back(c);
  return &b.scopes.back()->outputs.back();
}

// The element `indices` addresses, or nullptr (reported) when an index is out of range.
unsigned char* element(const ChipTensor* t, uint32_t ndims, const uint32_t indices[], const char* what) {
  if (t->buffer.addr == 0 || ndims != t->ndims) {
    fail(PTO2_ERROR_INVALID_ARGS, std::string(what) + ": " + std::to_string(ndims) + " indices for a tensor of " +
                                      std::to_string(t->ndims) + " dimensions");
    return nullptr;
  }
  for (uint32_t d = 0; d < ndims; ++d) {
    if (indices[d] >= t->shapes[d]) {
      fail(PTO2_ERROR_INVALID_ARGS, std::string(what) + ": index " + std::to_string(indices[d]) + " of dimension " +
                                        std::to_string(d) + " is outside its extent " + std::to_string(t->shapes[d]));
      return nullptr;
    }
  }
  const uint64_t elem = get_element_size(t->dtype);
  return reinterpret_cast<unsigned char*>(static_cast<uintptr_t>(t->buffer.addr)) +
         t->compute_flat_offset(indices, ndims) * elem;
}

}  // namespace

extern "C" {

bool pld_orch_is_fatal(void) { return fatal(); }

void pld_orch_report_fatal(int32_t code, const char* func, const char* fmt, ...) {
  (void)func;
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (tl_binding == nullptr) return;
  // The message is the program's own (pld's orchestration text words it, located).
  report(*tl_binding, code != 0 ? code : PTO2_ERROR_EXPLICIT_ORCH_FATAL, text);
}

void pld_orch_scope_begin(PTO2ScopeMode mode) {
  Binding& b = bound();
  auto s = std::make_unique<Scope>();
  s->mode = mode;
  s->buffers = std::make_unique<AllocScope>(b.orch);
  b.scopes.push_back(std::move(s));
}

void pld_orch_scope_end(void) {
  Binding& b = bound();
  // Its buffers outlive every task that may use them.
  b.wait_all();
  if (!b.scopes.empty()) b.scopes.pop_back();
}

void pld_orch_submit(int32_t kernel_id, const CoreTaskArgs* args, TaskOutputTensors* out) {
  Binding& b = bound();
  const PTO2TaskId id = PTO2TaskId::make(0, b.next_task);
  if (args->has_error) return fail(PTO2_ERROR_INVALID_ARGS, args->error_msg ? args->error_msg : "bad task arguments");
  if (kernel_id < 0 || kernel_id >= b.entry->num_kernels) {
    return fail(PTO2_ERROR_INVALID_ARGS, "no kernel has func_id " + std::to_string(kernel_id));
  }
  for (uint32_t i = 0; i < args->explicit_dep_count(); ++i) {
    const PTO2TaskId dep = args->explicit_dep(i);
    if (!dep.is_valid() || dep.ring() != 0 || dep.local() >= b.next_task) {
      return fail(PTO2_ERROR_INVALID_ARGS, "task " + std::to_string(b.next_task) + " (kernel " +
                                               b.entry->kernels[kernel_id] + ") depends on task id " +
                                               std::to_string(dep.raw) + ", which no earlier submit returned");
    }
  }
  const char* name = b.entry->kernels[kernel_id];
  pld::rt::Task task(kernel_id, name);
  TaskOutputTensors result;
  // The tasks this one waits for, by simpler's rule: its explicit dependencies; the creator of
  // every tensor it names; for an INPUT or INOUT slot every earlier writer of overlapping memory.
  // Its INOUT and OUTPUT_EXISTING slots then become writers. No write-after-read edge.
  std::vector<uint32_t> deps;
  for (uint32_t i = 0; i < args->explicit_dep_count(); ++i) deps.push_back(args->explicit_dep(i).local());
  std::vector<Writer> writes;
  // INOUT spans: an earlier writer inside one is ordered before this task, which every later
  // reader of that memory then waits for, so the earlier entry is dropped (simpler drops a
  // covered entry on INOUT too); the writer list stays as long as the live regions, not the run.
  std::vector<Writer> covering;
  for (int32_t i = 0; i < args->tensor_count(); ++i) {
    const TensorArgType tag = args->tag(i);
    const ChipTensor* c = tag == TensorArgType::OUTPUT ? materialize(*args->tensor(i).create_info, id)
                                                       : &args->tensor(i).ref();
    if (c == nullptr) return;
    if (tag == TensorArgType::OUTPUT) result.add(c);
    const bool manual_scope = !b.scopes.empty() && b.scopes.back()->mode == PTO2ScopeMode::MANUAL;
    if (tag != TensorArgType::OUTPUT && !manual_scope) {
      if (c->owner_task_id.is_valid() && c->owner_task_id.local() < b.next_task) deps.push_back(c->owner_task_id.local());
      const Writer span = span_of(*c, b.next_task);
      if (!c->manual_dep && span.hi > span.lo) {
        if (tag == TensorArgType::INPUT || tag == TensorArgType::INOUT) {
          std::lock_guard<std::mutex> lock(b.mu);
          for (const Writer& w : b.writers)
            if (w.lo < span.hi && span.lo < w.hi) deps.push_back(w.task);
        }
        if (tag == TensorArgType::INOUT || tag == TensorArgType::OUTPUT_EXISTING) writes.push_back(span);
        if (tag == TensorArgType::INOUT) covering.push_back(span);
      }
    }
    pld::Tensor t;
    std::string why;
    if (!to_tensor(*c, &t, &why)) {
      return fail(PTO2_ERROR_INVALID_ARGS, std::string("kernel '") + name + "' argument " + std::to_string(i) +
                                               ": " + why);
    }
    const pld::rt::Dir dir = tag == TensorArgType::INPUT  ? pld::rt::Dir::In
                             : tag == TensorArgType::INOUT ? pld::rt::Dir::InOut
                                                           : pld::rt::Dir::Out;
    task.add_tensor(t, dir);
  }
  // A collective's scalars are its CommContexts: the runtime checks and records it (the rank
  // count against its signal's NR, its arrival for the timeout reports).
  const pld::rt::ChipCollective* coll =
      b.entry->collectives != nullptr && b.entry->collectives[kernel_id].op != nullptr ? &b.entry->collectives[kernel_id]
                                                                                        : nullptr;
  for (int32_t k = 0; k < args->scalar_count(); ++k) {
    if (coll != nullptr) {
      task.add_comm_context(reinterpret_cast<pld::CommContext*>(static_cast<uintptr_t>(args->scalar(k))));
    } else {
      task.add_scalar(args->scalar(k));
    }
  }
  if (coll != nullptr) {
    task.set_collective(coll->op, b.dispatch_site != nullptr ? b.dispatch_site : coll->site, coll->signal_slot,
                        coll->nr_axis);
    if (b.last_collective >= 0) deps.push_back(static_cast<uint32_t>(b.last_collective));
    b.last_collective = id.local();
  }
  task.launch_spec().set_block_num(args->launch_spec.block_num());
  task.launch_spec().set_require_sync_start(args->launch_spec.require_sync_start());
  const uint32_t delay_us = b.max_delay_us == 0 ? 0 : static_cast<uint32_t>(b.rng() % (b.max_delay_us + 1));
  {
    std::lock_guard<std::mutex> lock(b.mu);
    if (!covering.empty()) {
      b.writers.erase(std::remove_if(b.writers.begin(), b.writers.end(),
                                     [&](const Writer& w) {
                                       return std::any_of(covering.begin(), covering.end(), [&](const Writer& c) {
                                         return c.lo <= w.lo && w.hi <= c.hi;
                                       });
                                     }),
                      b.writers.end());
    }
    b.writers.insert(b.writers.end(), writes.begin(), writes.end());
    b.done.push_back(0);
    b.pending.push_back(0);
    b.dependents.emplace_back();
    b.ready.emplace_back();
    const uint32_t me = id.local();
    for (uint32_t d : deps) {
      if (b.done[d] == 0) {
        b.dependents[d].push_back(me);
        ++b.pending[me];
      }
    }
    ++b.next_task;
    Binding* bp = &b;
    try {
      b.running.emplace_back([bp, me, task = std::move(task), delay_us] {
      {
        std::unique_lock<std::mutex> lock(bp->mu);
        bp->ready[me].wait(lock, [&] { return bp->pending[me] == 0; });
      }
      if (delay_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
      try {
        bp->orch->submit(task);  // runs it on this rank; a failure latches the rank's status
      } catch (const std::exception& e) {
        bp->orch->fail(PTO2_ERROR_INVALID_ARGS, e.what());
      }
      std::lock_guard<std::mutex> lock(bp->mu);
      bp->done[me] = 1;
      for (uint32_t x : bp->dependents[me]) {
        if (--bp->pending[x] == 0) bp->ready[x].notify_one();
      }
      bp->cv.notify_all();  // wait_all
      });
    } catch (const std::exception& e) {
      // No thread for the task (EAGAIN): it never runs, the run fails, nobody waits for it.
      b.done[me] = 1;
      report(b, PTO2_ERROR_INVALID_ARGS, std::string("orchestration '") + b.entry->name +
                                             "': cannot start a thread for task " + std::to_string(me) + ": " +
                                             e.what());
      return;
    }
  }
  // At most kMaxThreads task threads at once: the oldest is joined first (its dependencies were
  // all submitted before it, on every rank, so it finishes without this orchestration).
  constexpr size_t kMaxThreads = 256;
  while (true) {
    std::thread oldest;
    {
      std::lock_guard<std::mutex> lock(b.mu);
      if (b.running.size() <= kMaxThreads) break;
      oldest = std::move(b.running.front());
      b.running.pop_front();
    }
    oldest.join();
  }
  result.set_task_id(id);
  *out = result;
}

void pld_orch_alloc(const CoreTaskArgs* args, TaskOutputTensors* out) {
  Binding& b = bound();
  const PTO2TaskId id = PTO2TaskId::make(0, b.next_task);
  if (args->has_error) return fail(PTO2_ERROR_INVALID_ARGS, args->error_msg ? args->error_msg : "bad alloc arguments");
  if (args->scalar_count() != 0) return fail(PTO2_ERROR_INVALID_ARGS, "alloc_tensors with scalars");
  TaskOutputTensors result;
  for (int32_t i = 0; i < args->tensor_count(); ++i) {
    if (args->tag(i) != TensorArgType::OUTPUT) {
      return fail(PTO2_ERROR_INVALID_ARGS, "alloc_tensors with an existing tensor");
    }
    const ChipTensor* c = materialize(*args->tensor(i).create_info, id);
    if (c == nullptr) return;
    result.add(c);
  }
  {
    std::lock_guard<std::mutex> lock(b.mu);
    b.done.push_back(1);  // an allocation is complete when it returns
    b.pending.push_back(0);
    b.dependents.emplace_back();
    b.ready.emplace_back();
    ++b.next_task;
  }
  result.set_task_id(id);
  *out = result;
}

uint64_t pld_orch_get_tensor_data(const ChipTensor* tensor, uint32_t ndims, const uint32_t indices[]) {
  bound().wait_all();  // after its writers (here: after every task so far)
  const unsigned char* p = element(tensor, ndims, indices, "get_tensor_data");
  uint64_t bits = 0;
  if (p != nullptr) std::memcpy(&bits, p, get_element_size(tensor->dtype));
  return bits;
}

void pld_orch_set_tensor_data(const ChipTensor* tensor, uint32_t ndims, const uint32_t indices[], uint64_t value) {
  bound().wait_all();  // after its writers and their readers (here: after every task so far)
  unsigned char* p = element(tensor, ndims, indices, "set_tensor_data");
  if (p != nullptr) std::memcpy(p, &value, get_element_size(tensor->dtype));
}

int32_t pld_orch_available_aiv_count(void) { return 0; }

}  // extern "C"

namespace pld {
namespace rt {

int Orchestration::run_chip(const ChipEntry& entry, const OrchArgs& args) {
  std::vector<uint64_t> scalars;
  for (int k = 0; k < args.num_scalars; ++k) scalars.push_back(static_cast<uint64_t>(args.scalars[k]));
  for (int k = 0; k < args.num_comms; ++k)
    scalars.push_back(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(args.comms[k])));
  if (entry.dispatch_args) {
    scalars.push_back(static_cast<uint64_t>(args.dispatch_block_num));
    scalars.push_back(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(args.dispatch_site)));
  }
  tl_dispatch_site = entry.dispatch_args ? args.dispatch_site : nullptr;
  const int rc = run_chip(entry, ChipCall(args.tensors, args.num_tensors, scalars.data(),
                                          static_cast<int>(scalars.size())));
  tl_dispatch_site = nullptr;
  return rc;
}

int Orchestration::run_chip(const ChipEntry& entry, const ChipCall& call) {
  if (status() != 0) return status();
  if (call.num_tensors < 0 || call.num_tensors > CHIP_MAX_TENSOR_ARGS || call.num_scalars < 0 ||
      call.num_scalars > CHIP_MAX_SCALAR_ARGS) {
    return fail(PTO2_ERROR_INVALID_ARGS, (std::string("orchestration '") + entry.name + "': " +
                                          std::to_string(call.num_tensors) + " tensors and " +
                                          std::to_string(call.num_scalars) + " scalars exceed a ChipTaskArgs")
                                             .c_str());
  }
  // The entry's tensors, as the executor hands them over: external (no owner), contiguous or not.
  std::vector<ChipTensor> chips(static_cast<size_t>(call.num_tensors));
  auto args = std::make_unique<ChipTaskArgs>();
  for (int i = 0; i < call.num_tensors; ++i) {
    std::string why;
    if (!pld::host::internal::chip_tensor_of(*call.tensors[i], &chips[i], &why)) {
      return fail(PTO2_ERROR_INVALID_ARGS, (std::string("orchestration '") + entry.name + "': tensor argument " +
                                            std::to_string(i) + " is not a ChipTensor: " + why)
                                               .c_str());
    }
    args->tensors_[i].tensor = &chips[i];
  }
  for (int k = 0; k < call.num_scalars; ++k) args->scalars_[k] = call.scalars[k];
  args->tensor_count_ = call.num_tensors;
  args->scalar_count_ = call.num_scalars;

  Binding binding;
  binding.orch = this;
  binding.entry = &entry;
  binding.dispatch_site = tl_dispatch_site;
  seed_executor(&binding);
  Binding* outer = tl_binding;
  tl_binding = &binding;
  struct Unbind {
    Binding* binding;
    Binding* outer;
    ~Unbind() {
      binding->wait_all();  // the orchestration is done once its tasks are
      tl_binding = outer;
    }
  } unbind{&binding, outer};
  if (entry.config != nullptr) {
    const PTO2OrchestrationConfig cfg = entry.config(*args);
    const int given = call.num_tensors + call.num_scalars;
    if (cfg.expected_arg_count > 0 && given != cfg.expected_arg_count) {
      return fail(PTO2_ERROR_INVALID_ARGS, (std::string("orchestration '") + entry.name + "': " +
                                            std::to_string(given) + " arguments, but its config expects " +
                                            std::to_string(cfg.expected_arg_count))
                                               .c_str());
    }
  }
  try {
    PTO2ScopeGuard scope;
    entry.entry(*args);
  } catch (const std::exception& e) {
    // A view outside its tensor, get_ref of a missing output: the device's runtime asserts.
    report(binding, PTO2_ERROR_INVALID_ARGS, std::string("orchestration '") + entry.name + "': " + e.what());
  }
  binding.wait_all();
  binding.scopes.clear();
  if (binding.fatal_code != 0) fail(binding.fatal_code, binding.fatal_message.c_str());
  return status();
}

}  // namespace rt
}  // namespace pld
