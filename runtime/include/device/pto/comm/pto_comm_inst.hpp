// pto/comm/pto_comm_inst.hpp (pld's CPU runtime): the transfers and signal operations between
// ranks, with pto-isa@cd4a3d3's names and call forms (docs/spec/device.md).
//
// TPUT (local GM -> staging tile -> peer GM) and TGET (peer GM -> staging tile -> local GM) are
// queued like TLOAD / TSTORE (pto/pto-inst.hpp): they take effect at the block's next completion
// point (MTE3 for TPUT, whose last stage writes; MTE2 for TGET, whose first stage reads a peer).
// Their logical size is the source's shape, and the destination has the same shape. The staging
// tile is checked as the device needs it (one element type, placed in UB) but not used: the CPU
// moves the data directly.
//
// TNOTIFY is an atomic add or store on a signal cell, sequentially consistent, that wakes the
// cell's waiters; issued while this block has a transfer in flight, or completed writes not yet
// ordered by dsb(DSB_DDR), it is a device-order violation. TWAIT blocks until the cell compares
// true; it cannot report a timeout (it returns nothing), so the runtime bounds it: past the run's
// wait bound, or once the run was aborted, the block is ended.
#ifndef PLD_DEVICE_PTO_COMM_INST_HPP
#define PLD_DEVICE_PTO_COMM_INST_HPP

#include <cstdint>
#include <type_traits>

#include <pto/comm/comm_types.hpp>
#include <pto/pto-inst.hpp>

extern "C" {
void pld_rt_notify(int32_t* cell, int32_t value, int set, int line);
void pld_rt_wait(int32_t* cell, int32_t value, int cmp, int line);
}

namespace pto {
namespace comm {

namespace detail {

template <typename Dst, typename Src, typename TileData>
inline void transfer(const char* what, int pipe, int line, Dst& dst, Src& src, TileData& stage) {
  static_assert(std::is_same<typename Dst::RawDType, typename Src::RawDType>::value &&
                    std::is_same<typename TileData::DType, typename Src::RawDType>::value,
                "a transfer's tensors and staging tile hold one element type");
  static_assert(Dst::layout == Src::layout, "a transfer's tensors have one layout");
  if (stage.data_ == nullptr) {
    pld_rt_device_error(what, line, "the staging tile has no storage (no TASSIGN)");
    return;
  }
  for (int k = 0; k < 5; ++k) {
    if (dst.shape_.shape[k] != src.shape_.shape[k]) {
      pld_rt_device_error(what, line, "the destination's shape differs from the source's");
      return;
    }
  }
  pld_dma_op op{pipe,
                what,
                line,
                ::pto::detail::gt_rows(src),
                src.shape_.shape[4],
                static_cast<int64_t>(sizeof(typename Src::RawDType)),
                ::pto::detail::tensor_side(dst),
                ::pto::detail::tensor_side(src)};
  pld_rt_dma_issue(&op);
}

}  // namespace detail

template <typename GlobalDstData, typename GlobalSrcData, typename TileData>
inline RecordEvent TPUT(GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData, TileData& stagingTileData,
                        int line = __builtin_LINE()) {
  detail::transfer("TPUT", PIPE_MTE3, line, dstGlobalData, srcGlobalData, stagingTileData);
  return {};
}

template <typename GlobalDstData, typename GlobalSrcData, typename TileData>
inline RecordEvent TGET(GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData, TileData& stagingTileData,
                        int line = __builtin_LINE()) {
  detail::transfer("TGET", PIPE_MTE2, line, dstGlobalData, srcGlobalData, stagingTileData);
  return {};
}

template <typename GlobalSignalData>
inline void TNOTIFY(GlobalSignalData& dstSignalData, int32_t value, NotifyOp op, int line = __builtin_LINE()) {
  static_assert(std::is_same<typename GlobalSignalData::RawDType, int32_t>::value, "a signal is an int32 cell");
  pld_rt_notify(dstSignalData.data_, value, op == NotifyOp::Set ? 1 : 0, line);
}

template <typename GlobalSignalData>
inline void TWAIT(GlobalSignalData& signalData, int32_t cmpValue, WaitCmp cmp, int line = __builtin_LINE()) {
  static_assert(std::is_same<typename GlobalSignalData::RawDType, int32_t>::value, "a signal is an int32 cell");
  pld_rt_wait(signalData.data_, cmpValue, static_cast<int>(cmp), line);
}

}  // namespace comm
}  // namespace pto

#endif  // PLD_DEVICE_PTO_COMM_INST_HPP
