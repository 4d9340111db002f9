// pld_runtime/views.h: the descriptor ops of generated orchestration code.
//
// Each makes a new descriptor over the same memory as `src` (nothing is copied) and returns 0, or
// SIMPLER_ERROR_INVALID_ARGS (5) when the result would not be a valid view of `src`; *out is then
// unspecified. `offsets`, `sizes`, `shape`, `perm`, `valid` hold one entry per dimension (of src,
// or of the result for `shape`).
#ifndef PLD_RUNTIME_VIEWS_H
#define PLD_RUNTIME_VIEWS_H

#include <cstdint>

#include "pld_runtime/tensor.h"

namespace pld {
namespace rt {

// The code every function here returns for an invalid result (= SIMPLER_ERROR_INVALID_ARGS of
// orchestration.h, which includes this header before defining it).
constexpr int kViewInvalidArgs = 5;

namespace view_detail {

inline bool rank_ok(int rank) { return rank >= 0 && rank <= kMaxTensorRank; }

// The element count of `rank` dims, false when a dim is negative or the count overflows.
inline bool count(const int64_t* dims, int rank, int64_t* n) {
  int64_t c = 1;
  for (int i = 0; i < rank; ++i) {
    if (dims[i] < 0 || __builtin_mul_overflow(c, dims[i], &c)) return false;
  }
  *n = c;
  return true;
}

// A descriptor sharing src's element size, `elems` elements past src.data.
inline Tensor moved(const Tensor& src, int64_t elems) {
  Tensor t;
  t.data = src.data;
  if (elems != 0) t.data = static_cast<PLD_GM char*>(src.data) + elems * int64_t{src.elem_size};
  t.elem_size = src.elem_size;
  return t;
}

// Fills t's shape with `dims` and packed row-major strides.
inline void pack(Tensor* t, const int64_t* dims, int rank) {
  t->rank = rank;
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; --i) {
    t->shape[i] = dims[i];
    t->strides[i] = s;
    s *= dims[i];
  }
}

}  // namespace view_detail

// `pl.tensor.slice`: the `sizes` box at `offsets`. data advances by sum(offsets[i] *
// strides[i]) elements, shape = sizes, strides = src's. 5 when a box dimension is negative or
// leaves [0, src.shape[i]].
inline int slice(const Tensor& src, const int64_t* offsets, const int64_t* sizes, Tensor* out) {
  if (!view_detail::rank_ok(src.rank)) return kViewInvalidArgs;
  int64_t elems = 0;
  for (int i = 0; i < src.rank; ++i) {
    if (offsets[i] < 0 || sizes[i] < 0 || src.shape[i] < 0 || offsets[i] > src.shape[i] - sizes[i])
      return kViewInvalidArgs;
    elems += offsets[i] * src.strides[i];
  }
  Tensor t = view_detail::moved(src, elems);
  t.rank = src.rank;
  for (int i = 0; i < src.rank; ++i) {
    t.shape[i] = sizes[i];
    t.strides[i] = src.strides[i];
  }
  *out = t;
  return 0;
}

// `pl.tensor.view` (offsets may be null: all zero). With rank == src.rank it is a slice of
// `shape` at `offsets`. With another rank it is a packed row-major descriptor of `shape`
// starting at the element `offsets` addresses, which needs a contiguous src and the view's
// elements inside src's (else 5): each offsets[i] in [0, src.shape[i]], linear offset
// L = sum(offsets[i] * packed_stride[i]) (src's strides, for a contiguous src), and
// L + numel(view) <= numel(src).
inline int view(const Tensor& src, const int64_t* offsets, const int64_t* shape, int rank,
                Tensor* out) {
  if (!view_detail::rank_ok(src.rank) || !view_detail::rank_ok(rank)) return kViewInvalidArgs;
  if (rank == src.rank) {
    const int64_t zeros[kMaxTensorRank] = {};
    return slice(src, offsets ? offsets : zeros, shape, out);
  }
  // Another rank: flat addressing, so src must be packed. The offset is taken with src's packed
  // row-major strides (equal to src.strides wherever they matter: is_contiguous lets an extent-1
  // dimension carry any stride, and its offset is 0 unless the view is past the end anyway).
  int64_t src_n = 0, view_n = 0;
  if (!src.is_contiguous() || !view_detail::count(src.shape, src.rank, &src_n) ||
      !view_detail::count(shape, rank, &view_n))
    return kViewInvalidArgs;
  int64_t linear = 0, packed = 1;
  for (int i = src.rank - 1; i >= 0; --i) {
    const int64_t o = offsets ? offsets[i] : 0;
    if (o < 0 || o > src.shape[i]) return kViewInvalidArgs;
    linear += o * packed;
    packed *= src.shape[i];
  }
  if (linear > src_n - view_n) return kViewInvalidArgs;
  Tensor t = view_detail::moved(src, linear);
  view_detail::pack(&t, shape, rank);
  *out = t;
  return 0;
}

// `pl.tensor.reshape`: a packed descriptor of `shape` over src's data. 5 when src is not
// contiguous, a dimension is negative or the element counts differ.
inline int reshape(const Tensor& src, const int64_t* shape, int rank, Tensor* out) {
  int64_t src_n = 0, n = 0;
  if (!view_detail::rank_ok(src.rank) || !view_detail::rank_ok(rank) || !src.is_contiguous() ||
      !view_detail::count(src.shape, src.rank, &src_n) || !view_detail::count(shape, rank, &n) ||
      n != src_n)
    return kViewInvalidArgs;
  Tensor t = view_detail::moved(src, 0);
  view_detail::pack(&t, shape, rank);
  *out = t;
  return 0;
}

// `pl.tensor.transpose`: result dimension i is src dimension perm[i] (shape and stride). 5 when
// perm is not a permutation of 0..src.rank-1.
inline int transpose(const Tensor& src, const int64_t* perm, Tensor* out) {
  if (!view_detail::rank_ok(src.rank)) return kViewInvalidArgs;
  bool seen[kMaxTensorRank] = {};
  Tensor t = view_detail::moved(src, 0);
  t.rank = src.rank;
  for (int i = 0; i < src.rank; ++i) {
    const int64_t p = perm[i];
    if (p < 0 || p >= src.rank || seen[p]) return kViewInvalidArgs;
    seen[p] = true;
    t.shape[i] = src.shape[p];
    t.strides[i] = src.strides[p];
  }
  *out = t;
  return 0;
}

// `pl.tensor.set_validshape`: the same data with shape = valid (the runtime descriptor carries
// no separate valid shape). 5 when an entry is negative or above src's extent.
inline int set_validshape(const Tensor& src, const int64_t* valid, Tensor* out) {
  if (!view_detail::rank_ok(src.rank)) return kViewInvalidArgs;
  Tensor t = view_detail::moved(src, 0);
  t.rank = src.rank;
  for (int i = 0; i < src.rank; ++i) {
    if (valid[i] < 0 || valid[i] > src.shape[i]) return kViewInvalidArgs;
    t.shape[i] = valid[i];
    t.strides[i] = src.strides[i];
  }
  *out = t;
  return 0;
}

}  // namespace rt
}  // namespace pld

#endif  // PLD_RUNTIME_VIEWS_H
