//===- Collectives.cpp - the collectives' type deducer ---------------------===//

#include "pld/Dialects.h"

#include <limits>

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace pld;
using namespace pld::dist;

//===----------------------------------------------------------------------===//
// The all_to_all_v type deducer
//===----------------------------------------------------------------------===//

namespace {
struct NamedOperand {
  StringRef name;
  Value value;
};
} // namespace

/// Checks an `[NR]` or `[NR, 1]` i32 counts operand; records NR if static.
static LogicalResult verifyCounts(Operation *op, NamedOperand counts,
                                  int64_t signalRanks) {
  TensorLikeInfo t = *getTensorLikeInfo(counts.value.getType());
  if (!t.elementType.isSignlessInteger(32))
    return op->emitOpError() << "operand '" << counts.name
                             << "' must hold i32 counts, got "
                             << t.elementType;
  if (!t.ranked)
    return success();
  bool shapeOk = t.shape.size() == 1 ||
                 (t.shape.size() == 2 && (ShapedType::isDynamic(t.shape[1]) ||
                                          t.shape[1] == 1));
  if (!shapeOk) {
    return op->emitOpError() << "operand '" << counts.name
                             << "' must be shaped [NR] or [NR, 1] (NR = the "
                                "signal's row count), got "
                             << formatDims(t.shape);
  }
  if (!ShapedType::isDynamic(signalRanks) &&
      !ShapedType::isDynamic(t.shape[0]) && t.shape[0] != signalRanks)
    return op->emitOpError() << "operand '" << counts.name << "' has "
                             << t.shape[0]
                             << " entries but the signal has NR = "
                             << signalRanks << " rows";
  return success();
}

/// What differs between the two collectives' operand rules.
struct CollectiveRules {
  /// Operands that must be windows (`!pld.dtensor`): peers address them.
  ArrayRef<unsigned> windows;
  /// The indexed variant: `input` has any number of rows but the target's row
  /// shape, and operand 5 is the `[NR*MAX_RECV]` / `[NR*MAX_RECV, 1]` i32
  /// gather list.
  bool indexed;
};

/// Checks the indexed variant's `index`: i32, `[N]` or `[N, 1]`, and (where
/// both are static) N equal to the target's rows: one gather entry per target
/// row.
static LogicalResult verifyIndex(Operation *op, NamedOperand index,
                                 const TensorLikeInfo &tgt) {
  TensorLikeInfo t = *getTensorLikeInfo(index.value.getType());
  if (!t.elementType.isSignlessInteger(32))
    return op->emitOpError() << "operand '" << index.name
                             << "' must hold i32 row indices, got "
                             << t.elementType;
  if (!t.ranked)
    return success();
  bool shapeOk = t.shape.size() == 1 ||
                 (t.shape.size() == 2 && (ShapedType::isDynamic(t.shape[1]) ||
                                          t.shape[1] == 1));
  if (!shapeOk)
    return op->emitOpError() << "operand '" << index.name
                             << "' must be shaped [NR*MAX_RECV] or "
                                "[NR*MAX_RECV, 1] (one row index per target "
                                "row), got "
                             << formatDims(t.shape);
  if (tgt.ranked && !tgt.shape.empty() &&
      !ShapedType::isDynamic(tgt.shape[0]) &&
      !ShapedType::isDynamic(t.shape[0]) && t.shape[0] != tgt.shape[0])
    return op->emitOpError() << "operand '" << index.name << "' has "
                             << t.shape[0] << " rows but 'target' has "
                             << tgt.shape[0]
                             << " (one gather entry per target row)";
  return success();
}

/// The indexed variant's `input`: any number of rows, each of the target's
/// row shape (where static).
static LogicalResult verifyInputRows(Operation *op, const TensorLikeInfo &in,
                                     const TensorLikeInfo &tgt) {
  if (!in.ranked || !tgt.ranked)
    return success();
  if (in.shape.empty())
    return op->emitOpError() << "operand 'input' must have a row dimension";
  if (in.shape.size() != tgt.shape.size())
    return op->emitOpError()
           << "operand 'input' row shape "
           << formatDims(in.shape.drop_front())
           << " differs from the row shape of 'target' "
           << formatDims(tgt.shape.drop_front());
  for (size_t i = 1; i < in.shape.size(); ++i)
    if (!ShapedType::isDynamic(in.shape[i]) &&
        !ShapedType::isDynamic(tgt.shape[i]) && in.shape[i] != tgt.shape[i])
      return op->emitOpError()
             << "operand 'input' row shape "
             << formatDims(in.shape.drop_front())
             << " differs from the row shape of 'target' "
             << formatDims(tgt.shape.drop_front());
  return success();
}

/// The plain variant's `input`: ir.md types both `input` and `target` as
/// `[NR*MAX_RECV, ...]` payloads, and the kernel takes MAX_RECV and the row
/// size from `target` and reads `input` with them (rows `d*MAX_RECV ..` of
/// `target.row_elems()` elements each, addressed flat). So where the static
/// types prove it, `input` must have the target's row count and rows of the
/// target's element count (the row shape itself may differ: 16x2x2 and 16x4
/// are the same flat rows). Only static facts are compared: a `?` row count,
/// a row with a `?` dim or an unranked type checks nothing on that side.
static LogicalResult verifyInputGeometry(Operation *op,
                                         const TensorLikeInfo &in,
                                         const TensorLikeInfo &tgt) {
  if (!in.ranked || !tgt.ranked || tgt.shape.empty())
    return success(); // an unranked side proves nothing; a rank-0 target is
                      // refused before ("must have a row dimension")
  if (in.shape.empty())
    return op->emitOpError() << "operand 'input' must have a row dimension";
  if (!ShapedType::isDynamic(in.shape[0]) &&
      !ShapedType::isDynamic(tgt.shape[0]) && in.shape[0] != tgt.shape[0])
    return op->emitOpError()
           << "operand 'input' row count must equal the row count "
           << tgt.shape[0]
           << " of 'target' (both are [NR*MAX_RECV, ...] payloads), got "
           << in.shape[0];
  // The element count of one row, or nullopt when a row dim is `?`. The
  // verifyTensorLike check bounds the whole shape's product by int64, but a
  // row of a `0x...` shape is not bounded by it: multiply with overflow care.
  auto rowElems = [](ArrayRef<int64_t> shape) -> std::optional<int64_t> {
    int64_t n = 1;
    for (int64_t d : shape.drop_front()) {
      if (ShapedType::isDynamic(d) || llvm::MulOverflow(n, d, n))
        return std::nullopt;
    }
    return n;
  };
  std::optional<int64_t> inRow = rowElems(in.shape), tgtRow = rowElems(tgt.shape);
  if (inRow && tgtRow && *inRow != *tgtRow)
    return op->emitOpError()
           << "operand 'input' rows must hold as many elements as a "
              "'target' row ("
           << *tgtRow << " in " << formatDims(tgt.shape.drop_front())
           << "), got " << *inRow << " in "
           << formatDims(in.shape.drop_front());
  return success();
}

static LogicalResult verifyCollective(Operation *op,
                                      ArrayRef<NamedOperand> operands,
                                      Value result, bool hasAttr,
                                      bool hasOperand,
                                      const CollectiveRules &rules) {
  // A collective is a task of a function body (orchestration or InCore); at
  // module level no pass would ever see, lower or refuse it.
  if (!op->getParentOfType<func::FuncOp>())
    return op->emitOpError()
           << "must be inside a function body (a collective is a task of an "
              "orchestration or InCore function)";
  // Operand-local rules: the kernel addresses every operand flat from its
  // base, so only a packed, full, ND view is usable.
  for (const NamedOperand &operand : operands) {
    TensorLikeInfo t = *getTensorLikeInfo(operand.value.getType());
    if (t.layout != Layout::ND)
      return op->emitOpError()
             << "operand '" << operand.name << "' must have layout nd, got "
             << stringifyLayout(t.layout);
    if (t.stridesProvablyNotPacked())
      return op->emitOpError() << "operand '" << operand.name
                               << "' has strides " << formatDims(t.strides)
                               << " that are not packed row-major";
    if (t.validProvablyNarrower())
      return op->emitOpError() << "operand '" << operand.name
                               << "' has a valid_shape narrower than its shape";
  }
  Value input = operands[0].value, target = operands[1].value,
        signal = operands[2].value;
  if (input == target)
    return op->emitOpError()
           << "operand 'input' must not be the same value as 'target'";
  for (unsigned i : rules.windows)
    if (!isa<DTensorType>(operands[i].value.getType()))
      return op->emitOpError()
             << "operand '" << operands[i].name
             << "' must be a !pld.dtensor (a window peers can address), got "
             << operands[i].value.getType();

  TensorLikeInfo in = *getTensorLikeInfo(input.getType());
  TensorLikeInfo tgt = *getTensorLikeInfo(target.getType());
  if (in.elementType != tgt.elementType)
    return op->emitOpError() << "operand 'input' element type "
                             << in.elementType
                             << " differs from 'target' element type "
                             << tgt.elementType;
  // Before anything reads target's rows (every rule below indexes its
  // leading dimension or drops it).
  if (tgt.ranked && tgt.shape.empty())
    return op->emitOpError() << "operand 'target' must have a row dimension";
  if (rules.indexed ? failed(verifyInputRows(op, in, tgt))
                    : failed(verifyInputGeometry(op, in, tgt)))
    return failure();

  TensorLikeInfo sig = *getTensorLikeInfo(signal.getType());
  if (!sig.elementType.isSignlessInteger(32))
    return op->emitOpError() << "operand 'signal' must hold i32 credits, got "
                             << sig.elementType;
  if (sig.ranked && sig.shape.size() != 2)
    return op->emitOpError() << "operand 'signal' must be shaped [NR, S] (NR "
                                "rows, one per rank, of S credits each), got "
                                "rank "
                             << sig.shape.size();
  int64_t ranks = sig.ranked ? sig.shape[0] : ShapedType::kDynamic;
  if (!ShapedType::isDynamic(ranks) && ranks < 1)
    return op->emitOpError()
           << "operand 'signal' must have NR >= 1 rows (one per rank), got "
           << ranks;
  if (failed(verifyCounts(op, operands[3], ranks)) ||
      failed(verifyCounts(op, operands[4], ranks)))
    return failure();

  if (rules.indexed && failed(verifyIndex(op, operands[5], tgt)))
    return failure();

  // ir.md: the type deducer rejects "(where static) target rows not
  // divisible by NR" (target is `[NR*MAX_RECV, ...]`). The plain op's input
  // has the target's rows (checked above), so this covers it too; the indexed
  // op's input rows are free (indexed.md: `N_in` is free).
  if (tgt.ranked && !tgt.shape.empty() && !ShapedType::isDynamic(ranks) &&
      !ShapedType::isDynamic(tgt.shape[0]) && tgt.shape[0] % ranks != 0)
    return op->emitOpError()
           << "operand 'target' row count must be divisible by the signal's "
              "row count NR = "
           << ranks << ", got " << tgt.shape[0];
  if (result.getType() != target.getType())
    return op->emitOpError() << "result type " << result.getType()
                             << " must be the type of 'target' "
                             << target.getType();
  if (hasAttr == hasOperand)
    return op->emitOpError()
           << "needs exactly one of the 'core_num' attribute and the "
              "'dynamic_core_num' operand";
  return success();
}

LogicalResult AllToAllVOp::verify() {
  NamedOperand operands[] = {{"input", getInput()},
                             {"target", getTarget()},
                             {"signal", getSignal()},
                             {"send_counts", getSendCounts()},
                             {"recv_counts", getRecvCounts()}};
  // target, signal and recv_counts are windows (the plain kernel's ABI: one
  // CommContext each); a local send_counts is refused by the CHIP rail.
  static constexpr unsigned kWindows[] = {1, 2, 4};
  return verifyCollective(*this, operands, getResult(),
                          getCoreNumAttr() != nullptr,
                          getDynamicCoreNum() != nullptr, {kWindows, false});
}

LogicalResult IndexedAllToAllVOp::verify() {
  NamedOperand operands[] = {{"input", getInput()},
                             {"target", getTarget()},
                             {"signal", getSignal()},
                             {"send_counts", getSendCounts()},
                             {"recv_counts", getRecvCounts()},
                             {"index", getIndex()}};
  // target, signal and send_counts are windows (receivers pull the counts
  // from the senders' send_counts); recv_counts and index may be local.
  static constexpr unsigned kWindows[] = {1, 2, 3};
  return verifyCollective(*this, operands, getResult(),
                          getCoreNumAttr() != nullptr,
                          getDynamicCoreNum() != nullptr, {kWindows, true});
}
