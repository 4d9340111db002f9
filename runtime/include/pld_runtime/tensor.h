// pld_runtime/tensor.h: the tensor descriptor shared by orchestration code and kernels.
//
// A kernel argument slot that carries a tensor holds a `const pld::Tensor*` (cast to int64_t).
// The descriptor is plain data (standard layout, no virtuals) so both sides agree on it.
#ifndef PLD_RUNTIME_TENSOR_H
#define PLD_RUNTIME_TENSOR_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#ifndef PLD_GM
#define PLD_GM  // global-memory address space qualifier (`__gm__` on the device, nothing on the host)
#endif

namespace pld {

constexpr int kMaxTensorRank = 8;

struct Tensor {
  PLD_GM void* data = nullptr;     // address of element [0, 0, ...]
  int32_t rank = 0;                // number of dimensions, 0..kMaxTensorRank
  int32_t elem_size = 0;           // bytes per element
  int64_t shape[kMaxTensorRank] = {};
  int64_t strides[kMaxTensorRank] = {};  // in elements, not bytes

  // Element count (1 for rank 0).
  int64_t numel() const {
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= shape[i];
    return n;
  }
  // shape[0] (1 for rank 0).
  int64_t rows() const { return rank > 0 ? shape[0] : 1; }
  // Product of shape[1:] (1 for rank <= 1).
  int64_t row_elems() const {
    int64_t n = 1;
    for (int i = 1; i < rank; ++i) n *= shape[i];
    return n;
  }
  // True when the strides are the packed row-major ones, so the tensor can be addressed flat from
  // `data`. Dimensions of extent 1 may carry any stride; an empty tensor is contiguous.
  bool is_contiguous() const {
    if (rank < 0 || rank > kMaxTensorRank) return false;
    int64_t expect = 1;
    for (int i = rank - 1; i >= 0; --i) {
      if (shape[i] == 0) return true;
      if (shape[i] != 1 && strides[i] != expect) return false;
      expect *= shape[i];
    }
    return true;
  }

  template <typename T>
  PLD_GM T* as() const { return static_cast<PLD_GM T*>(data); }

  // A packed row-major descriptor over `data`.
  static Tensor contiguous(void* data, int32_t elem_size, std::initializer_list<int64_t> dims);
  static Tensor contiguous(void* data, int32_t elem_size, const int64_t* dims, size_t rank);
};

}  // namespace pld

inline pld::Tensor pld::Tensor::contiguous(void* data, int32_t elem_size, const int64_t* dims,
                                           size_t rank) {
  Tensor t;
  t.data = data;
  t.elem_size = elem_size;
  t.rank = static_cast<int32_t>(rank > kMaxTensorRank ? kMaxTensorRank : rank);
  int64_t s = 1;
  for (int k = t.rank - 1; k >= 0; --k) {
    t.shape[k] = dims[k];
    t.strides[k] = s;
    s *= t.shape[k];
  }
  return t;
}

inline pld::Tensor pld::Tensor::contiguous(void* data, int32_t elem_size,
                                           std::initializer_list<int64_t> dims) {
  return contiguous(data, elem_size, dims.begin(), dims.size());
}

#endif  // PLD_RUNTIME_TENSOR_H
