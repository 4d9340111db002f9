// pto_orchestration_api.h (pld's CPU runtime): what a CHIP orchestration source is written against.
//
// The same header name and the same declarations, for everything pld's orchestration text uses, as
// the orchestration API of hw-native-sys/simpler@6ebaf77's tensormap_and_ringbuffer runtime,
// written from its documented facts (docs/spec/device.md, "Orchestration text"; docs/device.md),
// not from its text. The declarations are the contract; behind them pld's runtime
// (runtime/host/orchestration_api.cpp) runs each submitted task on its ranks. Differences a
// program cannot observe through the API are documented in docs/device.md ("Orchestration API").
//
// An orchestration defines, inside extern "C":
//   PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args);
//   void aicpu_orchestration_entry(const ChipTaskArgs& orch_args);
#ifndef PLD_DEVICE_PTO_ORCHESTRATION_API_H
#define PLD_DEVICE_PTO_ORCHESTRATION_API_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tensor.h"

// Status codes (a fatal report's code; the run's status is the first one reported).
#define PTO2_ERROR_NONE 0
#define PTO2_ERROR_SCOPE_DEADLOCK 1
#define PTO2_ERROR_HEAP_RING_DEADLOCK 2
#define PTO2_ERROR_FLOW_CONTROL_DEADLOCK 3
#define PTO2_ERROR_DEP_POOL_OVERFLOW 4
#define PTO2_ERROR_INVALID_ARGS 5
#define PTO2_ERROR_REQUIRE_SYNC_START_INVALID 7
#define PTO2_ERROR_TENSOR_WAIT_TIMEOUT 8
#define PTO2_ERROR_EXPLICIT_ORCH_FATAL 9

constexpr int MAX_TENSOR_ARGS = 32;  // tensor slots of one task
constexpr int MAX_SCALAR_ARGS = 16;  // scalar slots of one task
constexpr int CHIP_MAX_TENSOR_ARGS = 256;
constexpr int CHIP_MAX_SCALAR_ARGS = 128;
constexpr int32_t INVALID_KERNEL_ID = -1;

// Scalars travel as 64 bits: the value's bytes, zero-filled above its size.
template <typename T>
inline uint64_t to_u64(T value) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8, "a scalar is at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T>
inline T from_u64(uint64_t bits) {
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8, "a scalar is at most 8 bytes");
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

enum class PTO2ScopeMode : uint8_t { AUTO = 0, MANUAL = 1 };
enum class TensorArgType : int32_t { INPUT = 0, OUTPUT = 1, INOUT = 2, OUTPUT_EXISTING = 3, NO_DEP = 4 };

#ifndef PTO2_ORCHESTRATION_CONFIG_DEFINED
#define PTO2_ORCHESTRATION_CONFIG_DEFINED
struct PTO2OrchestrationConfig {
  int expected_arg_count;
};
#endif

// A tensor the runtime allocates for a task's OUTPUT slot (or alloc_tensors): packed row-major,
// contents undefined unless an initial value is set.
class alignas(64) TensorCreateInfo {
 public:
  TensorCreateInfo() = default;
  TensorCreateInfo(const uint32_t shapes_in[], uint32_t ndims_in, DataType dtype_in = DataType::FLOAT32,
                   bool manual_dep_in = false)
      : ndims(ndims_in), dtype(dtype_in), manual_dep(manual_dep_in) {
    for (uint32_t d = 0; d < ndims_in && d < static_cast<uint32_t>(MAX_TENSOR_DIMS); ++d) shapes[d] = shapes_in[d];
  }
  template <typename T = uint64_t>
  void set_initial_value(T value) {
    initial_value = to_u64(value);
    has_initial_value = true;
  }
  uint64_t buffer_size_bytes() const {
    uint64_t n = get_element_size(dtype);
    for (uint32_t d = 0; d < ndims; ++d) n *= shapes[d];
    return n;
  }

  uint64_t initial_value = 0;
  bool has_initial_value = false;
  uint8_t pad1_[7] = {};
  uint64_t pad2_ = 0;
  uint64_t start_offset = 0;
  int32_t version = 0;
  uint32_t ndims = 0;
  DataType dtype = DataType::FLOAT32;
  bool manual_dep = false;
  bool is_contiguous = true;
  uint8_t pad_flags_ = 0;
  uint32_t shapes[MAX_TENSOR_DIMS] = {};
};
static_assert(sizeof(TensorCreateInfo) == 64, "TensorCreateInfo is one line");

// One tensor slot of a task: an existing tensor, or the create-info of one the runtime allocates.
struct TensorRef {
  union {
    const ChipTensor* tensor;
    const TensorCreateInfo* create_info;
  };
  const ChipTensor& ref() const { return *tensor; }
};

class PTO2LaunchSpec {
 public:
  int16_t block_num() const { return block_num_; }
  void set_block_num(int16_t n) { block_num_ = n; }
  bool require_sync_start() const { return require_sync_start_; }
  void set_require_sync_start(bool v) { require_sync_start_ = v; }

 private:
  int16_t block_num_ = 1;
  bool require_sync_start_ = false;
};

// The arguments of one task: its tensors (stored by address: pass named tensors that outlive the
// submit), then its scalars; the kernel sees args[i] = &tensor i, args[T + k] = scalar k.
class CoreTaskArgs {
 public:
  CoreTaskArgs() = default;
  CoreTaskArgs(const CoreTaskArgs&) = delete;
  CoreTaskArgs& operator=(const CoreTaskArgs&) = delete;

  template <typename... Ts>
  void add_input(const Ts&... ts) {
    static_assert(sizeof...(ts) > 0, "add_input takes at least one tensor");
    (add_tensor(&ts, TensorArgType::INPUT), ...);
  }
  template <typename... Ts>
  void add_inout(const Ts&... ts) {
    static_assert(sizeof...(ts) > 0, "add_inout takes at least one tensor");
    (add_tensor(&ts, TensorArgType::INOUT), ...);
  }
  template <typename... Ts>
  void add_no_dep(const Ts&... ts) {
    static_assert(sizeof...(ts) > 0, "add_no_dep takes at least one tensor");
    (add_tensor(&ts, TensorArgType::NO_DEP), ...);
  }
  // Existing tensors (write-only, OUTPUT_EXISTING) or create-infos (OUTPUT: the runtime allocates).
  template <typename... Ts>
  void add_output(const Ts&... ts) {
    static_assert(sizeof...(ts) > 0, "add_output takes at least one tensor");
    (add_out(&ts), ...);
  }
  template <typename... Ts>
  void add_scalar(Ts... vs) {
    static_assert(sizeof...(vs) > 0, "add_scalar takes at least one value");
    (push_scalar(to_u64(vs)), ...);
  }
  void add_scalars(const uint64_t* values, int count) {
    for (int i = 0; i < count; ++i) push_scalar(values[i]);
  }
  // Explicit dependencies (the array is read at the submit; it must outlive it).
  void set_dependencies(const PTO2TaskId* deps, uint32_t count) {
    if (count == 0) {
      deps_ = nullptr;
      dep_count_ = 0;
      return;
    }
    if (deps == nullptr) return set_error("set_dependencies: null array");
    if (dep_count_ != 0) return set_error("set_dependencies: called twice");
    deps_ = deps;
    dep_count_ = count;
  }

  int32_t tensor_count() const { return tensor_count_; }
  int32_t scalar_count() const { return scalar_count_; }
  const TensorRef& tensor(int32_t i) const { return tensors_[i]; }
  TensorArgType tag(int32_t i) const { return tags_[i]; }
  uint64_t scalar(int32_t i) const { return scalars_[i]; }
  uint32_t explicit_dep_count() const { return dep_count_; }
  PTO2TaskId explicit_dep(uint32_t i) const { return deps_[i]; }
  void set_error(const char* msg) {
    if (!has_error) error_msg = msg;
    has_error = true;
  }

  PTO2LaunchSpec launch_spec;
  bool has_error{false};
  const char* error_msg{nullptr};

 private:
  void add_tensor(const ChipTensor* t, TensorArgType tag) {
    if (scalar_count_ > 0) return set_error("a tensor added after a scalar");
    if (tensor_count_ >= MAX_TENSOR_ARGS) return set_error("more than MAX_TENSOR_ARGS tensors");
    tensors_[tensor_count_].tensor = t;
    tags_[tensor_count_++] = tag;
  }
  void add_out(const ChipTensor* t) { add_tensor(t, TensorArgType::OUTPUT_EXISTING); }
  void add_out(const TensorCreateInfo* ci) {
    if (scalar_count_ > 0) return set_error("a tensor added after a scalar");
    if (tensor_count_ >= MAX_TENSOR_ARGS) return set_error("more than MAX_TENSOR_ARGS tensors");
    tensors_[tensor_count_].create_info = ci;
    tags_[tensor_count_++] = TensorArgType::OUTPUT;
  }
  void push_scalar(uint64_t v) {
    if (scalar_count_ >= MAX_SCALAR_ARGS) return set_error("more than MAX_SCALAR_ARGS scalars");
    scalars_[scalar_count_++] = v;
  }

  TensorRef tensors_[MAX_TENSOR_ARGS] = {};
  TensorArgType tags_[MAX_TENSOR_ARGS] = {};
  uint64_t scalars_[MAX_SCALAR_ARGS] = {};
  int32_t tensor_count_ = 0;
  int32_t scalar_count_ = 0;
  const PTO2TaskId* deps_ = nullptr;
  uint32_t dep_count_ = 0;
};

// The orchestration's own arguments: the entry's tensors (in order), then its scalars.
struct ChipTaskArgs {
  ChipTaskArgs() = default;
  ChipTaskArgs(const ChipTaskArgs&) = delete;
  ChipTaskArgs& operator=(const ChipTaskArgs&) = delete;

  const TensorRef& tensor(int32_t i) const { return tensors_[i]; }
  uint64_t scalar(int32_t i) const { return scalars_[i]; }
  const uint64_t* scalars() const { return scalars_; }
  int32_t tensor_count() const { return tensor_count_; }
  int32_t scalar_count() const { return scalar_count_; }

  // Filled by the runtime that calls the entry.
  TensorRef tensors_[CHIP_MAX_TENSOR_ARGS] = {};
  uint64_t scalars_[CHIP_MAX_SCALAR_ARGS] = {};
  int32_t tensor_count_ = 0;
  int32_t scalar_count_ = 0;
};

// What a submit returns: the task's id (for set_dependencies) and its runtime-allocated outputs
// (the OUTPUT slots, in order), valid until the scope that submitted it ends.
class TaskOutputTensors {
 public:
  TaskOutputTensors() = default;
  bool empty() const { return count_ == 0; }
  uint32_t size() const { return count_; }
  const ChipTensor& get_ref(uint32_t index) const& {
    if (index >= count_) throw std::logic_error("TaskOutputTensors::get_ref: no such output");
    return *tensors_[index];
  }
  const ChipTensor& get_ref(uint32_t index) const&& = delete;
  PTO2TaskId task_id() const { return task_id_; }

  // Runtime side.
  void set_task_id(PTO2TaskId id) { task_id_ = id; }
  void add(const ChipTensor* t) {
    if (count_ < static_cast<uint32_t>(MAX_TENSOR_ARGS)) tensors_[count_++] = t;
  }

 private:
  PTO2TaskId task_id_ = PTO2TaskId::invalid();
  uint32_t count_ = 0;
  const ChipTensor* tensors_[MAX_TENSOR_ARGS] = {};
};

// pld's runtime behind the API (runtime/host/orchestration_api.cpp): each acts on the
// orchestration the calling thread runs.
extern "C" {
void pld_orch_submit(int32_t kernel_id, const CoreTaskArgs* args, TaskOutputTensors* out);
void pld_orch_alloc(const CoreTaskArgs* args, TaskOutputTensors* out);
bool pld_orch_is_fatal(void);
void pld_orch_report_fatal(int32_t code, const char* func, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
uint64_t pld_orch_get_tensor_data(const ChipTensor* tensor, uint32_t ndims, const uint32_t indices[]);
void pld_orch_set_tensor_data(const ChipTensor* tensor, uint32_t ndims, const uint32_t indices[], uint64_t value);
void pld_orch_scope_begin(PTO2ScopeMode mode);
void pld_orch_scope_end(void);
int32_t pld_orch_available_aiv_count(void);
}

static inline TaskOutputTensors rt_submit_aiv_task(int32_t kernel_id, const CoreTaskArgs& args) {
  TaskOutputTensors out;
  if (!pld_orch_is_fatal()) pld_orch_submit(kernel_id, &args, &out);
  return out;
}

static inline TaskOutputTensors alloc_tensors(const CoreTaskArgs& args) {
  TaskOutputTensors out;
  if (!pld_orch_is_fatal()) pld_orch_alloc(&args, &out);
  return out;
}
static inline TaskOutputTensors alloc_tensors(const TensorCreateInfo create_infos[], uint32_t count) {
  CoreTaskArgs args;
  for (uint32_t i = 0; i < count; ++i) args.add_output(create_infos[i]);
  return alloc_tensors(args);
}
template <typename... CIs>
static inline TaskOutputTensors alloc_tensors(const CIs&... cis) {
  static_assert(sizeof...(cis) > 0, "alloc_tensors takes at least one TensorCreateInfo");
  static_assert((std::is_same<typename std::decay<CIs>::type, TensorCreateInfo>::value && ...),
                "alloc_tensors takes TensorCreateInfo arguments only");
  CoreTaskArgs args;
  (args.add_output(cis), ...);
  return alloc_tensors(args);
}

static inline bool rt_is_fatal() { return pld_orch_is_fatal(); }
static inline int32_t rt_available_aiv_count() { return pld_orch_available_aiv_count(); }
static inline void rt_scope_begin(PTO2ScopeMode mode = PTO2ScopeMode::AUTO) {
  if (!pld_orch_is_fatal()) pld_orch_scope_begin(mode);
}
static inline void rt_scope_end() {
  if (!pld_orch_is_fatal()) pld_orch_scope_end();
}

// Latches the run's failure (the first report wins) and makes every later rt_* call a no-op; it
// does not return from the orchestration (the code that reports returns itself).
#define rt_report_fatal(code, fmt, ...) pld_orch_report_fatal((code), __FUNCTION__, (fmt), ##__VA_ARGS__)

// Raw element access (no conversion: T must be the element's own type), after every earlier task
// that writes the tensor has completed.
template <typename T = uint64_t>
static inline T get_tensor_data(const ChipTensor& tensor, uint32_t ndims, const uint32_t indices[]) {
  if (pld_orch_is_fatal()) return from_u64<T>(0);
  return from_u64<T>(pld_orch_get_tensor_data(&tensor, ndims, indices));
}
template <typename T = uint64_t>
static inline void set_tensor_data(const ChipTensor& tensor, uint32_t ndims, const uint32_t indices[], T value) {
  if (pld_orch_is_fatal()) return;
  pld_orch_set_tensor_data(&tensor, ndims, indices, to_u64(value));
}

class PTO2ScopeGuard {
 public:
  explicit PTO2ScopeGuard(PTO2ScopeMode mode = PTO2ScopeMode::AUTO, const char* file = __builtin_FILE(),
                          int line = __builtin_LINE()) {
    (void)file;
    (void)line;
    rt_scope_begin(mode);
  }
  ~PTO2ScopeGuard() { rt_scope_end(); }
  PTO2ScopeGuard(const PTO2ScopeGuard&) = delete;
  PTO2ScopeGuard& operator=(const PTO2ScopeGuard&) = delete;
};

#define PTO2_CONCATENATE_IMPL_(x, y) x##y
#define PTO2_CONCATENATE_(x, y) PTO2_CONCATENATE_IMPL_(x, y)
#define PTO2_SCOPE_GUARD(...) \
  [[maybe_unused]] PTO2ScopeGuard PTO2_CONCATENATE_(pto2_scope_guard_, __COUNTER__) { __VA_ARGS__ }
// `PTO2_SCOPE() { ... }`: the braces are one scope.
#define PTO2_SCOPE(...) if (PTO2ScopeGuard PTO2_CONCATENATE_(pto2_scope_, __COUNTER__){__VA_ARGS__}; true)

#endif  // PLD_DEVICE_PTO_ORCHESTRATION_API_H
