// tensor.h (pld's CPU runtime): the tensor descriptor a kernel receives, `ChipTensor`.
//
// Same name, field order, field types and byte layout as the descriptor of
// hw-native-sys/simpler@6ebaf77 (`task_interface/tensor.h`), written from its documented layout
// (docs/spec/device.md, "Layouts"); the static_asserts below pin every offset. A kernel reads the
// fields only (no member call through a __gm__ pointer); orchestration code builds views with the
// member functions (`view`, `reshape`, `transpose`, `slice`) and `make_tensor_external`, declared
// as simpler's orchestration API does. Element 0 of the view is at
// `buffer.addr + start_offset * element size`; at most 5 dimensions; 32-bit extents and strides,
// every stride > 0.
#ifndef PLD_DEVICE_TENSOR_H
#define PLD_DEVICE_TENSOR_H

#include <cstddef>
#include <cstdint>
#include <stdexcept>

constexpr int MAX_TENSOR_DIMS = 5;

// Element types, in the device's numbering (the byte a descriptor stores).
enum class DataType : uint8_t {
  FLOAT32,
  FLOAT16,
  INT32,
  INT16,
  INT8,
  UINT8,
  BFLOAT16,
  INT64,
  UINT64,
  UINT16,
  UINT32,
  BOOL,
  FP8E4M3FN,
  FP8E8M0,
  FP4E2M1,
  DATA_TYPE_NUM,
};

enum class AddressSpace : uint8_t { HOST = 0, DEVICE = 1 };

inline constexpr uint64_t get_element_size(DataType t) {
  switch (t) {
    case DataType::FLOAT32:
    case DataType::INT32:
    case DataType::UINT32:
      return 4;
    case DataType::FLOAT16:
    case DataType::INT16:
    case DataType::BFLOAT16:
    case DataType::UINT16:
      return 2;
    case DataType::INT64:
    case DataType::UINT64:
      return 8;
    default:
      return 1;
  }
}

// The id of the task that created a tensor (all ones: created outside any task).
struct PTO2TaskId {
  uint64_t raw;
  static constexpr PTO2TaskId make(uint8_t ring_id, uint32_t local_id) {
    return PTO2TaskId{(static_cast<uint64_t>(ring_id) << 32) | local_id};
  }
  static constexpr PTO2TaskId invalid() { return PTO2TaskId{UINT64_MAX}; }
  constexpr uint8_t ring() const { return static_cast<uint8_t>(raw >> 32); }
  constexpr uint32_t local() const { return static_cast<uint32_t>(raw); }
  constexpr bool is_valid() const { return raw != UINT64_MAX; }
  constexpr bool is_invalid() const { return raw == UINT64_MAX; }
  constexpr bool operator==(const PTO2TaskId& o) const { return raw == o.raw; }
  constexpr bool operator!=(const PTO2TaskId& o) const { return raw != o.raw; }
};

struct PTOBufferHandle {
  uint64_t addr;  // bytes
  uint64_t size;  // bytes
};

struct ChipTensor;
// A packed row-major descriptor over `addr` (element 0 at `addr`); defined below.
inline ChipTensor make_tensor_external(void* addr, const uint32_t shapes[], uint32_t ndims,
                                       DataType dtype = DataType::FLOAT32, bool manual_dep = false,
                                       int32_t version = 0, AddressSpace address_space = AddressSpace::HOST);

struct alignas(64) ChipTensor {
  // First cache line: what a kernel addresses the data with.
  PTOBufferHandle buffer;
  PTO2TaskId owner_task_id;
  uint64_t start_offset;  // elements from buffer.addr to element 0 of this view
  int32_t version;
  uint32_t ndims;
  DataType dtype;
  bool manual_dep;
  bool is_contiguous;  // strides are the packed row-major ones
  AddressSpace address_space;
  uint32_t shapes[MAX_TENSOR_DIMS];
  // Second cache line.
  uint64_t extent_elem_cache;  // elements the view spans
  uint32_t strides[MAX_TENSOR_DIMS];
  uint8_t reserved_[36];

  // What orchestration code may call (host side only; a kernel reads the fields). Every view
  // operation returns a new descriptor over the same buffer and sets `manual_dep` to its last
  // argument; a view outside its parent throws std::logic_error (the device's runtime asserts).
  uint64_t numel() const {
    uint64_t n = 1;
    for (uint32_t d = 0; d < ndims; ++d) n *= shapes[d];
    return n;
  }
  uint64_t extent_elem() const {
    if (numel() == 0) return 0;
    uint64_t e = 1;
    for (uint32_t d = 0; d < ndims; ++d) e += static_cast<uint64_t>(shapes[d] - 1) * strides[d];
    return e;
  }
  uint64_t nbytes() const { return numel() * get_element_size(dtype); }
  template <typename T>
  T* data_as() const {
    return reinterpret_cast<T*>(static_cast<uintptr_t>(buffer.addr));
  }
  uint64_t compute_flat_offset(const uint32_t indices[], uint32_t in_ndims) const {
    uint64_t off = start_offset;
    for (uint32_t d = 0; d < in_ndims && d < ndims; ++d) off += static_cast<uint64_t>(indices[d]) * strides[d];
    return off;
  }
  // The sub-block of `view_shapes` at `view_offsets` (one entry per dimension each).
  ChipTensor view(const uint32_t view_shapes[], const uint32_t view_offsets[], bool in_manual_dep = false) const {
    ChipTensor t = *this;
    bool empty = false;
    for (uint32_t d = 0; d < ndims; ++d) empty = empty || view_shapes[d] == 0;
    for (uint32_t d = 0; d < ndims; ++d) {
      if (!empty) {
        check(static_cast<uint64_t>(view_offsets[d]) + view_shapes[d] <= shapes[d], "view outside its tensor");
        t.start_offset += static_cast<uint64_t>(view_offsets[d]) * strides[d];
      }
      t.shapes[d] = view_shapes[d];
    }
    t.manual_dep = in_manual_dep;
    t.refresh();
    return t;
  }
  // The same elements under packed row-major `new_shapes`; the tensor must be contiguous.
  ChipTensor reshape(const uint32_t new_shapes[], uint32_t new_ndims, bool in_manual_dep = false) const {
    check(is_contiguous, "reshape of a non-contiguous tensor");
    check(new_ndims >= 1 && new_ndims <= MAX_TENSOR_DIMS, "reshape rank outside [1, 5]");
    ChipTensor t = *this;
    t.ndims = new_ndims;
    for (uint32_t d = 0; d < new_ndims; ++d) t.shapes[d] = new_shapes[d];
    t.pack();
    check(t.numel() == numel(), "reshape changes the element count");
    t.manual_dep = in_manual_dep;
    t.refresh();
    return t;
  }
  // Dimensions `x` and `y` swapped.
  ChipTensor transpose(uint32_t x, uint32_t y, bool in_manual_dep = false) const {
    check(x < ndims && y < ndims, "transpose of a dimension the tensor lacks");
    ChipTensor t = *this;
    t.shapes[x] = shapes[y];
    t.shapes[y] = shapes[x];
    t.strides[x] = strides[y];
    t.strides[y] = strides[x];
    t.manual_dep = in_manual_dep;
    t.refresh();
    return t;
  }
  // [start, end) of dimension `dim`, every `step`-th element.
  ChipTensor slice(uint32_t dim, uint32_t start, uint32_t end, uint32_t step = 1, bool in_manual_dep = false) const {
    check(dim < ndims && start < end && end <= shapes[dim] && step >= 1, "slice outside its tensor");
    ChipTensor t = *this;
    t.start_offset += static_cast<uint64_t>(start) * strides[dim];
    t.shapes[dim] = (end - start + step - 1) / step;
    t.strides[dim] = strides[dim] * step;
    t.manual_dep = in_manual_dep;
    t.refresh();
    return t;
  }

 private:
  friend ChipTensor make_tensor_external(void*, const uint32_t[], uint32_t, DataType, bool, int32_t, AddressSpace);
  // Packed row-major strides for the current shape.
  void pack() {
    uint64_t n = 1;
    for (uint32_t d = ndims; d-- > 0;) {
      strides[d] = static_cast<uint32_t>(n);
      n *= shapes[d] == 0 ? 1 : shapes[d];
    }
  }
  static void check(bool ok, const char* what) {
    if (!ok) throw std::logic_error(what);
  }
  // Recomputes the cached contiguity and extent after the shape or strides changed.
  void refresh() {
    bool packed = true;
    uint64_t expect = 1;
    for (uint32_t d = ndims; d-- > 0;) {
      if (shapes[d] != 1 && strides[d] != expect) packed = false;
      expect *= shapes[d];
    }
    is_contiguous = packed || numel() == 0;
    extent_elem_cache = extent_elem();
  }
};

inline ChipTensor make_tensor_external(void* addr, const uint32_t shapes[], uint32_t ndims, DataType dtype,
                                       bool manual_dep, int32_t version, AddressSpace address_space) {
  // shapes[] would be read, and ChipTensor::shapes written, past their 5 entries (simpler's
  // runtime asserts the same bound).
  if (ndims > static_cast<uint32_t>(MAX_TENSOR_DIMS)) throw std::logic_error("make_tensor_external of more than 5 dimensions");
  ChipTensor t{};
  t.buffer.addr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(addr));
  t.owner_task_id = PTO2TaskId::invalid();
  t.version = version;
  t.ndims = ndims;
  t.dtype = dtype;
  t.manual_dep = manual_dep;
  t.address_space = address_space;
  for (uint32_t d = 0; d < ndims; ++d) t.shapes[d] = shapes[d];
  t.pack();
  t.is_contiguous = true;
  t.extent_elem_cache = t.extent_elem();
  t.buffer.size = t.numel() * get_element_size(dtype);
  return t;
}

static_assert(sizeof(ChipTensor) == 128 && alignof(ChipTensor) == 64, "ChipTensor is two lines");
static_assert(offsetof(ChipTensor, buffer) == 0, "ChipTensor layout");
static_assert(offsetof(ChipTensor, owner_task_id) == 16, "ChipTensor layout");
static_assert(offsetof(ChipTensor, start_offset) == 24, "ChipTensor layout");
static_assert(offsetof(ChipTensor, version) == 32, "ChipTensor layout");
static_assert(offsetof(ChipTensor, ndims) == 36, "ChipTensor layout");
static_assert(offsetof(ChipTensor, dtype) == 40, "ChipTensor layout");
static_assert(offsetof(ChipTensor, manual_dep) == 41, "ChipTensor layout");
static_assert(offsetof(ChipTensor, is_contiguous) == 42, "ChipTensor layout");
static_assert(offsetof(ChipTensor, address_space) == 43, "ChipTensor layout");
static_assert(offsetof(ChipTensor, shapes) == 44, "ChipTensor layout");
static_assert(offsetof(ChipTensor, extent_elem_cache) == 64, "ChipTensor layout");
static_assert(offsetof(ChipTensor, strides) == 72, "ChipTensor layout");

#endif  // PLD_DEVICE_TENSOR_H
