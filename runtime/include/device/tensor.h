// tensor.h (pld's CPU runtime): the tensor descriptor a kernel receives, `ChipTensor`.
//
// Same name, field order, field types and byte layout as the descriptor of
// hw-native-sys/simpler@6ebaf77 (`task_interface/tensor.h`), written from its documented layout
// (docs/spec/device.md, "Layouts"); the static_asserts below pin every offset. A kernel reads the
// fields only (no member call through a __gm__ pointer), so this header declares only what the
// kernels and pld's runtime use. Element 0 of the view is at
// `buffer.addr + start_offset * element size`; at most 5 dimensions; 32-bit extents and strides,
// every stride > 0.
#ifndef PLD_DEVICE_TENSOR_H
#define PLD_DEVICE_TENSOR_H

#include <cstddef>
#include <cstdint>

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
  static constexpr PTO2TaskId invalid() { return PTO2TaskId{UINT64_MAX}; }
};

struct PTOBufferHandle {
  uint64_t addr;  // bytes
  uint64_t size;  // bytes
};

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
};

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
