// pto/pto-inst.hpp (pld's CPU runtime): the subset of pto-isa that pld's kernels use.
//
// Same names, template parameters and call forms as hw-native-sys/pto-isa@cd4a3d3 for what the
// rendered kernels say (docs/spec/device.md, "Kernel text"); written from the documented facts,
// not from pto-isa's text. What differs is the point: this implementation models the device's
// ordering instead of hiding it. A TLOAD / TSTORE (and a TPUT / TGET, pto/comm) is an
// asynchronous job of its pipe (MTE2 / MTE3): it is queued when issued and takes effect, source
// read and destination write together, at the block's next completion point for that pipe
// (pipe_barrier, a wait_flag whose set_flag came after it, the kernel's return), or earlier at
// seeded random points under PLD_DMA_SEED. Vector instructions (TADD, TCVT, ...) run at once but
// check their tiles: reading a tile whose TLOAD has not completed, or writing one a TSTORE has
// not finished reading, is a device-order violation, as is a TNOTIFY issued while this block
// still has transfers in flight or completed writes not yet ordered by dsb(DSB_DDR). A violation
// fails the run, naming the kernel and the line (docs/device.md).
//
// Only row-major vector tiles; a GlobalTensor is 5-D (DIM_0..DIM_4, DIM_4 the contiguous one,
// strides in elements) and a tile's rows map to DIM_0..DIM_3, its columns to DIM_4.
#ifndef PLD_DEVICE_PTO_INST_HPP
#define PLD_DEVICE_PTO_INST_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "pld_runtime/half.h"  // the CPU `half` (pto-isa's CPU build names _Float16 so)

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__
#endif

// ---- Pipes, events, barriers (global names, as the device compiler has them). ----
typedef int pipe_t;
using event_t = int;
constexpr pipe_t PIPE_S = 0, PIPE_V = 1, PIPE_MTE1 = 2, PIPE_MTE2 = 3, PIPE_MTE3 = 4, PIPE_M = 5,
                 PIPE_ALL = 6, PIPE_FIX = 7;
#define EVENT_ID0 0
#define EVENT_ID1 1
#define EVENT_ID2 2
#define EVENT_ID3 3
#define EVENT_ID4 4
#define EVENT_ID5 5
#define EVENT_ID6 6
#define EVENT_ID7 7
using mem_dsb_t = int;
constexpr mem_dsb_t DSB_DDR = 0, DSB_ALL = 0, DSB_UB = 0;
struct dcci_dst_t {
  static constexpr int CACHELINE_OUT = 0;
};
struct cache_line_t {
  static constexpr int SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 0, CACHELINE_OUT = 0;
};

// ---- What the runtime provides (runtime/host/device.cpp). ----
extern "C" {
// One queued transfer: `rows` x `cols` elements of `elem` bytes; element (r, c) of the
// destination is at dst + (dst_row(r) + c * dst_col) * elem, likewise the source, where the row
// offset of a tile side is r * tile_cols and of a tensor side the DIM_0..DIM_3 strides.
struct pld_dma_side {
  void* base;
  int is_tile;         // a UB tile (row-major, `tile_cols` per row) rather than a GlobalTensor
  int64_t tile_cols;
  int64_t shape[4];    // DIM_0..DIM_3 of a tensor side (their product = rows)
  int64_t stride[5];   // DIM_0..DIM_4 strides in elements
};
struct pld_dma_op {
  int pipe;  // PIPE_MTE2 (TLOAD, TGET) or PIPE_MTE3 (TSTORE, TPUT)
  const char* what;  // "TLOAD", "TSTORE", "TPUT", "TGET"
  int line;
  int64_t rows, cols, elem;
  pld_dma_side dst, src;
};
void pld_rt_dma_issue(const pld_dma_op* op);
void pld_rt_pipe_barrier(int pipe, int line);
void pld_rt_set_flag(int src, int dst, int event);
void pld_rt_wait_flag(int src, int dst, int event, int line);
void pld_rt_dsb(int line);
// The block's unified buffer (UB) and its size; TASSIGN places tiles in it.
void* pld_rt_ub_base(void);
uint64_t pld_rt_ub_bytes(void);
// A vector instruction reads [lo, lo+bytes) of UB / writes [wlo, wlo+wbytes): checked against the
// transfers in flight, then the write is pending on PIPE_V until a V completion point.
void pld_rt_vector_access(const char* what, int line, const void* const* reads, const uint64_t* read_bytes,
                          int nreads, const void* write, uint64_t write_bytes);
// A violation of the device's rules outside the ordering model (a tile outside UB, a shape
// mismatch): fails the run like an ordering violation.
void pld_rt_device_error(const char* what, int line, const char* message);
}

namespace pto {

constexpr int DYNAMIC = -1;

enum class Layout { ND, DN, NZ };
enum class TileType { Vec, Mat, Left, Right, Acc, Bias, Scaling, ScaleLeft, ScaleRight, Ctrl };
enum class BLayout { RowMajor, ColMajor };
enum class SLayout { NoneBox, RowMajor, ColMajor };
enum class PadValue : uint64_t { Null, Zero, Max, Min };
enum class CompactMode { Null, Normal, RowPlusOne, RowAlignedPadding };
enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ODD };
enum class AtomicType : uint8_t { AtomicNone = 0, AtomicAdd = 1 };

// What an instruction returns (ordering between instructions is the pipes' and flags').
struct RecordEvent {};

namespace detail {

// The five extents (or strides) of Shape / Stride: static ones from the template, DYNAMIC ones
// from the constructor (all five given, or exactly one per DYNAMIC position, in order; 1 if none).
template <int64_t N1, int64_t N2, int64_t N3, int64_t N4, int64_t N5>
struct Dims {
  static constexpr int64_t kStatic[5] = {N1, N2, N3, N4, N5};
  static constexpr int kDynamic = (N1 == DYNAMIC) + (N2 == DYNAMIC) + (N3 == DYNAMIC) + (N4 == DYNAMIC) + (N5 == DYNAMIC);
  int64_t v[5];

  Dims() {
    for (int k = 0; k < 5; ++k) v[k] = kStatic[k] == DYNAMIC ? 1 : kStatic[k];
  }
  template <typename... A>
  void fill(A... a) {
    const int64_t given[] = {static_cast<int64_t>(a)...};
    constexpr int n = sizeof...(A);
    static_assert(n == 5 || n == kDynamic, "give every dimension, or one value per DYNAMIC one");
    int next = 0;
    for (int k = 0; k < 5; ++k) {
      if (n == 5) v[k] = kStatic[k] == DYNAMIC ? given[k] : kStatic[k];
      else v[k] = kStatic[k] == DYNAMIC ? given[next++] : kStatic[k];
    }
  }
};

template <typename... A>
using AllIntegral = std::enable_if_t<(sizeof...(A) > 0) && (std::is_integral<A>::value && ...), int>;

}  // namespace detail

template <int64_t N1 = DYNAMIC, int64_t N2 = DYNAMIC, int64_t N3 = DYNAMIC, int64_t N4 = DYNAMIC,
          int64_t N5 = DYNAMIC>
struct Shape {
  static constexpr int64_t staticShape[5] = {N1, N2, N3, N4, N5};
  int64_t shape[5];
  Shape() {
    detail::Dims<N1, N2, N3, N4, N5> d;
    for (int k = 0; k < 5; ++k) shape[k] = d.v[k];
  }
  template <typename... A, detail::AllIntegral<A...> = 0>
  Shape(A... a) {
    detail::Dims<N1, N2, N3, N4, N5> d;
    d.fill(a...);
    for (int k = 0; k < 5; ++k) shape[k] = d.v[k];
  }
};

template <int64_t N1 = DYNAMIC, int64_t N2 = DYNAMIC, int64_t N3 = DYNAMIC, int64_t N4 = DYNAMIC,
          int64_t N5 = DYNAMIC>
struct Stride {
  static constexpr int64_t staticStride[5] = {N1, N2, N3, N4, N5};
  int64_t stride[5];
  Stride() {
    detail::Dims<N1, N2, N3, N4, N5> d;
    for (int k = 0; k < 5; ++k) stride[k] = d.v[k];
  }
  template <typename... A, detail::AllIntegral<A...> = 0>
  Stride(A... a) {
    detail::Dims<N1, N2, N3, N4, N5> d;
    d.fill(a...);
    for (int k = 0; k < 5; ++k) stride[k] = d.v[k];
  }
};

// A view of global memory (this rank's or, through CommContext::windowsIn, a peer's).
template <typename Element_, typename Shape_, typename Stride_, Layout Layout_ = Layout::ND>
struct GlobalTensor {
  using Shape = Shape_;
  using Stride = Stride_;
  using RawDType = std::remove_cv_t<Element_>;
  using DType = __gm__ RawDType;
  static constexpr Layout layout = Layout_;

  GlobalTensor() : data_(nullptr) {}
  GlobalTensor(DType* data, const Shape& shape = Shape(), const Stride& stride = Stride())
      : data_(data), shape_(shape), stride_(stride) {}

  DType* data() { return data_; }
  int64_t GetShape(const int dim) { return shape_.shape[dim]; }
  int64_t GetStride(const int dim) { return stride_.stride[dim]; }

  DType* data_;
  Shape shape_;
  Stride stride_;
};

// A tile of the unified buffer: Rows x Cols storage, row-major, with a valid region (static, or
// DYNAMIC and set at run time). Its storage is placed by TASSIGN.
template <TileType Loc_, typename Element_, const int Rows_, const int Cols_,
          const BLayout BFractal_ = BLayout::RowMajor, const int RowValid_ = Rows_, const int ColValid_ = Cols_,
          const SLayout SFractal_ = SLayout::NoneBox, const int SFractalSize_ = 512,
          PadValue PadVal_ = PadValue::Null, const CompactMode Compact_ = CompactMode::Null>
struct Tile {
  static_assert(Loc_ == TileType::Vec && BFractal_ == BLayout::RowMajor && SFractal_ == SLayout::NoneBox,
                "pld's CPU runtime implements row-major vector tiles");
  static_assert(Rows_ > 0 && Cols_ > 0, "a tile has rows and columns");
  static_assert(Cols_ * sizeof(Element_) % 32 == 0, "a tile row is a multiple of 32 bytes");
  using DType = Element_;
  static constexpr int Rows = Rows_;
  static constexpr int Cols = Cols_;
  static constexpr int Numel = Rows_ * Cols_;
  static constexpr int ValidRow = RowValid_;
  static constexpr int ValidCol = ColValid_;

  Tile()
      : valid_row_(RowValid_ == DYNAMIC ? Rows_ : RowValid_), valid_col_(ColValid_ == DYNAMIC ? Cols_ : ColValid_) {}
  Tile(unsigned vr, unsigned vc) : valid_row_(vr), valid_col_(vc) {
    static_assert(RowValid_ == DYNAMIC && ColValid_ == DYNAMIC, "(rows, cols) is for a DYNAMIC valid shape");
  }

  unsigned GetValidRow() const { return valid_row_; }
  unsigned GetValidCol() const { return valid_col_; }
  void SetValidRow(unsigned r) { valid_row_ = r; }
  void SetValidCol(unsigned c) { valid_col_ = c; }
  void SetValidShape(unsigned r, unsigned c) {
    valid_row_ = r;
    valid_col_ = c;
  }
  void SetValue(uint32_t offset, DType v) { data_[offset] = v; }
  DType GetValue(uint32_t offset) { return data_[offset]; }
  DType*& data() { return data_; }

  DType* data_ = nullptr;
  unsigned valid_row_;
  unsigned valid_col_;
};

namespace detail {

template <typename GT>
inline pld_dma_side tensor_side(GT& g) {
  pld_dma_side s{};
  s.base = const_cast<void*>(static_cast<const void*>(g.data_));
  s.is_tile = 0;
  for (int k = 0; k < 4; ++k) s.shape[k] = g.shape_.shape[k];
  for (int k = 0; k < 5; ++k) s.stride[k] = g.stride_.stride[k];
  return s;
}

template <typename TileT>
inline pld_dma_side tile_side(TileT& t) {
  pld_dma_side s{};
  s.base = t.data_;
  s.is_tile = 1;
  s.tile_cols = TileT::Cols;
  return s;
}

template <typename GT>
inline int64_t gt_rows(GT& g) {
  return g.shape_.shape[0] * g.shape_.shape[1] * g.shape_.shape[2] * g.shape_.shape[3];
}

// The tile's valid region must be the tensor's shape (rows DIM_0..DIM_3, columns DIM_4), and the
// tile must lie in UB.
template <typename TileT, typename GT>
inline bool check_tile_gt(const char* what, int line, TileT& t, GT& g) {
  if (t.data_ == nullptr) {
    pld_rt_device_error(what, line, "the tile has no storage (no TASSIGN)");
    return false;
  }
  if (static_cast<int64_t>(t.valid_row_) != gt_rows(g) || static_cast<int64_t>(t.valid_col_) != g.shape_.shape[4] ||
      t.valid_row_ > static_cast<unsigned>(TileT::Rows) || t.valid_col_ > static_cast<unsigned>(TileT::Cols)) {
    pld_rt_device_error(what, line, "the tile's valid shape differs from the tensor's shape (or exceeds the tile)");
    return false;
  }
  return true;
}

template <typename T>
inline float widen(T v) {
  return static_cast<float>(v);
}

}  // namespace detail

// Places `tile` at byte `addr` of the unified buffer.
template <typename T, typename AddrType>
inline void TASSIGN(T& obj, AddrType addr, int line = __builtin_LINE()) {
  static_assert(std::is_integral<AddrType>::value, "TASSIGN takes a UB byte address");
  const uint64_t off = static_cast<uint64_t>(addr);
  const uint64_t bytes = static_cast<uint64_t>(T::Numel) * sizeof(typename T::DType);
  if (off % 32 != 0 || off + bytes > pld_rt_ub_bytes()) {
    pld_rt_device_error("TASSIGN", line, "the tile does not fit the unified buffer at a 32-byte aligned address");
    obj.data_ = nullptr;
    return;
  }
  obj.data_ = reinterpret_cast<typename T::DType*>(static_cast<char*>(pld_rt_ub_base()) + off);
}

// GM -> tile, on PIPE_MTE2.
template <typename TileData, typename GlobalData>
inline RecordEvent TLOAD(TileData& dst, GlobalData& src, int line = __builtin_LINE()) {
  static_assert(std::is_same<typename TileData::DType, typename GlobalData::RawDType>::value,
                "TLOAD: the tile and the tensor hold the same element type");
  if (!detail::check_tile_gt("TLOAD", line, dst, src)) return {};
  pld_dma_op op{PIPE_MTE2, "TLOAD", line, static_cast<int64_t>(dst.valid_row_), static_cast<int64_t>(dst.valid_col_),
                static_cast<int64_t>(sizeof(typename TileData::DType)), detail::tile_side(dst), detail::tensor_side(src)};
  pld_rt_dma_issue(&op);
  return {};
}

// Tile -> GM, on PIPE_MTE3.
template <typename TileData, typename GlobalData>
inline RecordEvent TSTORE(GlobalData& dst, TileData& src, int line = __builtin_LINE()) {
  static_assert(std::is_same<typename TileData::DType, typename GlobalData::RawDType>::value,
                "TSTORE: the tile and the tensor hold the same element type");
  if (!detail::check_tile_gt("TSTORE", line, src, dst)) return {};
  pld_dma_op op{PIPE_MTE3, "TSTORE", line, static_cast<int64_t>(src.valid_row_), static_cast<int64_t>(src.valid_col_),
                static_cast<int64_t>(sizeof(typename TileData::DType)), detail::tensor_side(dst), detail::tile_side(src)};
  pld_rt_dma_issue(&op);
  return {};
}

namespace detail {

// o[c] = f(o[c], v[c]) / f(u[c], v[c]) for c < count, over restrict parameters (g++ honours
// restrict on parameters, also inlined, and then vectorizes at -O2; its cheap cost model adds no
// run-time alias checks). kN > 0: a compile-time trip count.
template <int kN, typename T, typename F>
inline void row_inplace(T* __restrict o, const T* __restrict v, unsigned n, bool o_first, F f) {
  const unsigned count = kN > 0 ? static_cast<unsigned>(kN) : n;
  if (o_first) {
    for (unsigned c = 0; c < count; ++c) o[c] = f(o[c], v[c]);
  } else {
    for (unsigned c = 0; c < count; ++c) o[c] = f(v[c], o[c]);
  }
}
template <int kN, typename T, typename F>
inline void row_apart(T* __restrict o, const T* __restrict u, const T* __restrict v, unsigned n, F f) {
  const unsigned count = kN > 0 ? static_cast<unsigned>(kN) : n;
  for (unsigned c = 0; c < count; ++c) o[c] = f(u[c], v[c]);
}
// d[c] = f(x[c], y[c]) for c < n: the folds write one of their sources (acc = acc + in), so each
// aliasing shape takes its own loop.
template <int kN, typename T, typename F>
inline void row_op(T* d, const T* x, const T* y, unsigned n, F f) {
  const unsigned count = kN > 0 ? static_cast<unsigned>(kN) : n;
  if (x == y) {
    for (unsigned c = 0; c < count; ++c) d[c] = f(x[c], y[c]);
  } else if (d == x) {
    row_inplace<kN>(d, y, n, true, f);
  } else if (d == y) {
    row_inplace<kN>(d, x, n, false, f);
  } else {
    row_apart<kN>(d, x, y, n, f);
  }
}

// dst = f(a, b) over dst's valid region, after checking the three tiles against the transfers in
// flight. Element types are the same for all three (as on the device).
template <typename D, typename A, typename B, typename F>
inline void binary(const char* what, int line, D& dst, A& a, B& b, F f) {
  static_assert(std::is_same<typename D::DType, typename A::DType>::value &&
                    std::is_same<typename D::DType, typename B::DType>::value,
                "a vector instruction's tiles hold one element type");
  if (!dst.data_ || !a.data_ || !b.data_) {
    pld_rt_device_error(what, line, "a tile has no storage (no TASSIGN)");
    return;
  }
  const unsigned rows = dst.valid_row_, cols = dst.valid_col_;
  const void* reads[2] = {a.data_, b.data_};
  const uint64_t read_bytes[2] = {static_cast<uint64_t>(rows) * A::Cols * sizeof(typename A::DType),
                                  static_cast<uint64_t>(rows) * B::Cols * sizeof(typename B::DType)};
  pld_rt_vector_access(what, line, reads, read_bytes, 2, dst.data_,
                       static_cast<uint64_t>(rows) * D::Cols * sizeof(typename D::DType));
  for (unsigned r = 0; r < rows; ++r) {
    typename D::DType* d = dst.data_ + r * D::Cols;
    const typename A::DType* x = a.data_ + r * A::Cols;
    const typename B::DType* y = b.data_ + r * B::Cols;
    if (cols == static_cast<unsigned>(D::Cols)) {
      row_op<D::Cols>(d, x, y, D::Cols, f);
    } else {
      row_op<0>(d, x, y, cols, f);
    }
  }
}

template <typename T>
struct Arith {
  static T add(T x, T y) { return static_cast<T>(x + y); }
  static T mul(T x, T y) { return static_cast<T>(x * y); }
};
// Integers wrap, as the device's vector unit does.
template <>
struct Arith<int32_t> {
  static int32_t add(int32_t x, int32_t y) {
    return static_cast<int32_t>(static_cast<uint32_t>(x) + static_cast<uint32_t>(y));
  }
  static int32_t mul(int32_t x, int32_t y) {
    return static_cast<int32_t>(static_cast<uint32_t>(x) * static_cast<uint32_t>(y));
  }
};
#ifndef PLD_NATIVE_HALF
template <>
struct Arith<half> {
  static half add(half x, half y) { return half(static_cast<float>(x) + static_cast<float>(y)); }
  static half mul(half x, half y) { return half(static_cast<float>(x) * static_cast<float>(y)); }
};
#endif

template <typename T>
inline bool less(T x, T y) {
  return widen(x) < widen(y);
}
inline bool less(int32_t x, int32_t y) { return x < y; }

}  // namespace detail

template <typename D, typename A, typename B>
inline RecordEvent TADD(D& dst, A& a, B& b, int line = __builtin_LINE()) {
  using T = typename D::DType;
  detail::binary("TADD", line, dst, a, b, [](T x, T y) { return detail::Arith<T>::add(x, y); });
  return {};
}
template <typename D, typename A, typename B>
inline RecordEvent TMUL(D& dst, A& a, B& b, int line = __builtin_LINE()) {
  using T = typename D::DType;
  detail::binary("TMUL", line, dst, a, b, [](T x, T y) { return detail::Arith<T>::mul(x, y); });
  return {};
}
template <typename D, typename A, typename B>
inline RecordEvent TMAX(D& dst, A& a, B& b, int line = __builtin_LINE()) {
  using T = typename D::DType;
  detail::binary("TMAX", line, dst, a, b, [](T x, T y) { return detail::less(x, y) ? y : x; });
  return {};
}
template <typename D, typename A, typename B>
inline RecordEvent TMIN(D& dst, A& a, B& b, int line = __builtin_LINE()) {
  using T = typename D::DType;
  detail::binary("TMIN", line, dst, a, b, [](T x, T y) { return detail::less(y, x) ? y : x; });
  return {};
}

// dst = src converted element by element over src's valid region (float <-> half round to
// nearest even, the only conversions pld's kernels use).
template <typename D, typename S>
inline RecordEvent TCVT(D& dst, S& src, RoundMode mode, int line = __builtin_LINE()) {
  (void)mode;
  if (!dst.data_ || !src.data_) {
    pld_rt_device_error("TCVT", line, "a tile has no storage (no TASSIGN)");
    return {};
  }
  const unsigned rows = src.valid_row_, cols = src.valid_col_;
  const void* reads[1] = {src.data_};
  const uint64_t read_bytes[1] = {static_cast<uint64_t>(rows) * S::Cols * sizeof(typename S::DType)};
  pld_rt_vector_access("TCVT", line, reads, read_bytes, 1, dst.data_,
                       static_cast<uint64_t>(rows) * D::Cols * sizeof(typename D::DType));
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < cols; ++c)
      dst.data_[r * D::Cols + c] =
          static_cast<typename D::DType>(static_cast<float>(src.data_[r * S::Cols + c]));
  return {};
}

// dst = scalar over dst's valid region.
template <typename TileData>
inline RecordEvent TEXPANDS(TileData& dst, typename TileData::DType scalar, int line = __builtin_LINE()) {
  if (!dst.data_) {
    pld_rt_device_error("TEXPANDS", line, "the tile has no storage (no TASSIGN)");
    return {};
  }
  pld_rt_vector_access("TEXPANDS", line, nullptr, nullptr, 0, dst.data_,
                       static_cast<uint64_t>(dst.valid_row_) * TileData::Cols * sizeof(typename TileData::DType));
  for (unsigned r = 0; r < dst.valid_row_; ++r)
    for (unsigned c = 0; c < dst.valid_col_; ++c) dst.data_[r * TileData::Cols + c] = scalar;
  return {};
}

}  // namespace pto

// Completion points and ordering.
inline void pipe_barrier(pipe_t pipe, int line = __builtin_LINE()) { pld_rt_pipe_barrier(pipe, line); }
inline void set_flag(pipe_t src, pipe_t dst, int event) { pld_rt_set_flag(src, dst, event); }
inline void wait_flag(pipe_t src, pipe_t dst, int event, int line = __builtin_LINE()) {
  pld_rt_wait_flag(src, dst, event, line);
}
inline void dsb(mem_dsb_t, int line = __builtin_LINE()) { pld_rt_dsb(line); }
inline void dcci(const volatile void*, int) {}
inline void dcci(const volatile void*, int, int) {}
#define set_mask_norm(...)
#define set_vector_mask(...)

#endif  // PLD_DEVICE_PTO_INST_HPP
