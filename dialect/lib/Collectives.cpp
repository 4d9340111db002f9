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

/// family.md, Checks: an unprefixed attribute the op does not define is an
/// error (it would otherwise be dropped, or obeyed by a rule written for
/// another op); a dialect-prefixed (discardable) one such as `pl.note` is
/// allowed. The op's own attributes live in its properties, so every
/// unprefixed discardable attribute is foreign.
static LogicalResult verifyNoForeignAttributes(Operation *op) {
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    StringRef name = attr.getName().getValue();
    if (name.contains('.'))
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << "has no attribute '" << name
                              << "' (its attributes: ";
    bool any = false;
    for (StringAttr own : op->getName().getAttributeNames()) {
      if (own.getValue().ends_with("SegmentSizes"))
        continue;
      diag << (any ? ", " : "") << own.getValue();
      any = true;
    }
    return diag << (any ? "" : "none")
                << "; a discardable attribute needs a dialect prefix, e.g. 'pl."
                << name << "')";
  }
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
  return verifyNoForeignAttributes(op);
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

//===----------------------------------------------------------------------===//
// The collective family's type deducer (docs/spec/family.md, Checks)
//===----------------------------------------------------------------------===//

namespace {
/// One family op's operands and the rows of the Checks table that apply.
struct FamilyOperands {
  Value input;  // null: the op has no input
  Value target; // null: barrier
  Value signal;
  Value result;
  bool allowsI8;
  /// The op takes `reduce` (required) / `mode` / `root`.
  bool takesReduce, takesMode, takesRoot;
  Attribute reduce, mode;
  std::optional<int64_t> coreNum, root;
  FamilyRows rows;
  /// permute's `pairs` (null for every other op).
  Attribute pairs = {};
};
} // namespace

static bool isFamilyElement(Type t, bool allowsI8) {
  return t.isF32() || t.isF16() || t.isSignlessInteger(32) ||
         (allowsI8 && t.isSignlessInteger(8));
}

/// `ring` when the op's `mode` says so (the verifier has checked it).
static bool isRing(Attribute mode) {
  auto s = llvm::dyn_cast_or_null<StringAttr>(mode);
  return s && pl::symbolizeCollectiveMode(s.getValue()) ==
                  pl::CollectiveMode::Ring;
}

/// Row shapes (dims after the first) that differ where both are static.
static bool rowShapesDiffer(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.size() != b.size())
    return true;
  for (size_t i = 1; i < a.size(); ++i)
    if (!ShapedType::isDynamic(a[i]) && !ShapedType::isDynamic(b[i]) &&
        a[i] != b[i])
      return true;
  return false;
}

/// permute's rows (family.md's added Checks): `pairs` is an [N, 2] i64 array of
/// [source, dest] ranks, each in [0, NR), no rank a destination or a source
/// twice; input and target have the same rows.
static LogicalResult verifyPairs(Operation *op, Attribute pairs, int64_t nr,
                                 const std::optional<TensorLikeInfo> &in,
                                 const std::optional<TensorLikeInfo> &tgt) {
  auto dense = llvm::dyn_cast_or_null<DenseIntElementsAttr>(pairs);
  auto type = dense ? llvm::dyn_cast<RankedTensorType>(dense.getType())
                    : RankedTensorType();
  if (!type || type.getRank() != 2 || type.getDimSize(1) != 2 ||
      !type.getElementType().isSignlessInteger(64))
    return op->emitOpError()
           << "pairs must be an [N, 2] i64 array of [source, dest] ranks "
              "(e.g. dense<[[0, 1]]> : tensor<1x2xi64>; no pairs: dense<> : "
              "tensor<0x2xi64>), got "
           << pairs;
  SmallVector<int64_t> values;
  for (const APInt &v : dense.getValues<APInt>())
    values.push_back(v.getSExtValue());
  int64_t count = type.getDimSize(0);
  for (int64_t k = 0; k < count; ++k)
    for (int64_t x : {values[2 * k], values[2 * k + 1]})
      if (x < 0 || (!ShapedType::isDynamic(nr) && x >= nr)) {
        InFlightDiagnostic diag = op->emitOpError()
                                  << "pairs entry " << k << " names rank " << x
                                  << " outside [0, NR=";
        if (ShapedType::isDynamic(nr))
          diag << "?";
        else
          diag << nr;
        return diag << ")";
      }
  for (int64_t k = 0; k < count; ++k)
    for (int64_t j = 0; j < k; ++j)
      if (values[2 * j + 1] == values[2 * k + 1])
        return op->emitOpError() << "pairs has rank " << values[2 * k + 1]
                                 << " as a destination twice";
  for (int64_t k = 0; k < count; ++k)
    for (int64_t j = 0; j < k; ++j)
      if (values[2 * j] == values[2 * k])
        return op->emitOpError()
               << "pairs has rank " << values[2 * k] << " as a source twice";
  if (in && tgt && in->ranked && tgt->ranked &&
      (in->shape.size() != tgt->shape.size() ||
       llvm::any_of(llvm::zip(in->shape, tgt->shape), [](auto dims) {
         auto [a, b] = dims;
         return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) &&
                a != b;
       })))
    return op->emitOpError()
           << "input and target rows must agree, got input "
           << formatDims(in->shape) << " and target " << formatDims(tgt->shape);
  return success();
}

static LogicalResult verifyFamily(Operation *op, const FamilyOperands &o) {
  if (!op->getParentOfType<func::FuncOp>())
    return op->emitOpError()
           << "must be inside a function body (a collective is a task of an "
              "orchestration or InCore function)";
  std::optional<TensorLikeInfo> tgt;
  if (o.target) {
    tgt = getTensorLikeInfo(o.target.getType());
    StringRef list = o.allowsI8 ? "f32, f16, i8 or i32" : "f32, f16 or i32";
    if (!isFamilyElement(tgt->elementType, o.allowsI8)) {
      // family.md words it with the type bare (`got i8`), not quoted as a
      // streamed Type would be.
      std::string bare;
      llvm::raw_string_ostream(bare) << tgt->elementType;
      return op->emitOpError()
             << "supports only " << list << ", got " << bare;
    }
  }
  std::optional<TensorLikeInfo> in;
  if (o.input) {
    in = getTensorLikeInfo(o.input.getType());
    if (in->elementType != tgt->elementType)
      return op->emitOpError()
             << "operand 'input' element type " << in->elementType
             << " differs from 'target' element type " << tgt->elementType;
  }
  if (o.takesReduce) {
    auto reduce = llvm::dyn_cast_or_null<StringAttr>(o.reduce);
    if (!reduce || !pl::symbolizeReduce(reduce.getValue())) {
      InFlightDiagnostic diag = op->emitOpError()
                                << "reduce must be one of sum, max, min, prod";
      if (o.reduce)
        diag << ", got " << o.reduce;
      else
        diag << " (the attribute is required)";
      return diag;
    }
  }
  if (o.takesMode && o.mode) {
    auto mode = llvm::dyn_cast<StringAttr>(o.mode);
    if (!mode || !pl::symbolizeCollectiveMode(mode.getValue()))
      return op->emitOpError()
             << "mode must be mesh or ring, got " << o.mode;
  }
  int64_t limit = o.coreNum.value_or(1);
  if (limit < 1 || limit > std::numeric_limits<int32_t>::max())
    return op->emitOpError()
           << "core_num must be in [1, 2147483647], got " << limit;

  // The signal: an i32 [NR] / [NR, S] window (ring: [2*(NR-1)+1, NR]).
  bool ring = o.takesMode && isRing(o.mode);
  TensorLikeInfo sig = *getTensorLikeInfo(o.signal.getType());
  bool sigShapeOk = !sig.ranked || sig.shape.size() == 1 ||
                    sig.shape.size() == 2;
  if (!sig.elementType.isSignlessInteger(32) || !sigShapeOk ||
      !isa<DTensorType>(o.signal.getType()) ||
      (sig.ranked && !ShapedType::isDynamic(sig.shape[0]) &&
       sig.shape[0] < 1))
    return op->emitOpError()
           << "signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor "
              "with NR >= 1), got "
           << o.signal.getType();
  int64_t ranks = ShapedType::kDynamic, stride = ShapedType::kDynamic;
  if (sig.ranked) {
    ranks = ring && sig.shape.size() == 2 ? sig.shape[1] : sig.shape[0];
    stride = sig.shape.size() == 1 ? 1 : sig.shape[1];
  }
  if (o.target && !isa<DTensorType>(o.target.getType()))
    return op->emitOpError()
           << "operand 'target' must be a !pld.dtensor (a window peers can "
              "address), got "
           << o.target.getType();
  if (o.target && !ring && !ShapedType::isDynamic(stride) && stride < limit)
    return op->emitOpError()
           << "signal stride S=" << stride
           << " is smaller than the launch width L=" << limit;
  if (ring) {
    if (limit != 1)
      return op->emitOpError()
             << "ring mode needs core_num = 1, got " << limit;
    if (sig.ranked &&
        (sig.shape.size() != 2 ||
         (!ShapedType::isDynamic(ranks) &&
          !ShapedType::isDynamic(sig.shape[0]) &&
          sig.shape[0] != 2 * (ranks - 1) + 1)))
      return op->emitOpError()
             << "ring mode needs a [2*(NR-1)+1, NR] signal, got "
             << formatDims(sig.shape);
    if (!ShapedType::isDynamic(ranks) && tgt->hasStaticShape()) {
      int64_t elems = 1;
      for (int64_t d : tgt->shape)
        elems *= d; // bounded by verifyTensorLike
      if (ranks > 0 && elems % ranks != 0)
        return op->emitOpError()
               << "ring mode needs the element count divisible by NR="
               << ranks << ", got " << elems << " elements";
    }
    if (!ShapedType::isDynamic(ranks) && ranks > 16)
      return op->emitOpError()
             << "ring mode supports at most 16 ranks, got NR=" << ranks;
  }
  if (o.takesRoot) {
    int64_t root = o.root.value_or(0);
    if (root < 0 || (!ShapedType::isDynamic(ranks) && root >= ranks)) {
      InFlightDiagnostic diag = op->emitOpError() << "root must be in [0, NR=";
      if (ShapedType::isDynamic(ranks))
        diag << "?";
      else
        diag << ranks;
      return diag << "), got " << root;
    }
  }

  // Rows (family.md's Shapes): NR*M, input rows M, one row shape.
  bool needsRows = o.rows != FamilyRows::Any;
  if (needsRows && tgt->ranked && tgt->shape.empty())
    return op->emitOpError() << "operand 'target' must have a row dimension";
  if (in && in->ranked && in->shape.empty())
    return op->emitOpError() << "operand 'input' must have a row dimension";
  auto known = [](int64_t d) { return !ShapedType::isDynamic(d); };
  int64_t nr = ranks;
  bool rowShapes = in && in->ranked && tgt->ranked &&
                   o.rows != FamilyRows::Permute &&
                   rowShapesDiffer(in->shape, tgt->shape);
  if (rowShapes && o.rows == FamilyRows::ScatterNR)
    return op->emitOpError()
           << "input rows must be NR*M rows of the target's row shape, got "
              "input rows "
           << formatDims(in->shape.drop_front()) << " and target rows "
           << formatDims(tgt->shape.drop_front());
  if (rowShapes)
    return op->emitOpError()
           << "target rows must be NR*M rows of the input's row shape, got "
              "input rows "
           << formatDims(in->shape.drop_front()) << " and target rows "
           << formatDims(tgt->shape.drop_front());
  int64_t tRows = needsRows && tgt->ranked ? tgt->shape[0] : ShapedType::kDynamic;
  int64_t iRows = in && in->ranked ? in->shape[0] : ShapedType::kDynamic;
  switch (o.rows) {
  case FamilyRows::Any:
  case FamilyRows::Permute:
    break;
  case FamilyRows::ScatterNR:
    if (known(nr) && known(iRows) && known(tRows) && iRows != nr * tRows)
      return op->emitOpError()
             << "input rows must be NR*M = " << nr << "*" << tRows << " = "
             << nr * tRows << " (NR=" << nr << " ranks, M=" << tRows
             << " target rows), got " << iRows;
    break;
  case FamilyRows::GatherNR:
    if (known(nr) && known(iRows) && known(tRows) && tRows != nr * iRows)
      return op->emitOpError()
             << "target rows must be NR*M = " << nr << "*" << iRows << " = "
             << nr * iRows << " (NR=" << nr << " ranks, M=" << iRows
             << " input rows), got " << tRows;
    break;
  case FamilyRows::SameAsInput:
    if (known(iRows) && known(tRows) && iRows != tRows) {
      // family.md: the message names NR and M as numbers (M = the input's
      // rows / NR, where that is whole).
      InFlightDiagnostic diag = op->emitOpError() << "target rows must be NR*M";
      if (known(nr) && iRows % nr == 0)
        diag << " = " << nr << "*" << iRows / nr << " = " << iRows
             << " (NR=" << nr << " ranks, M=" << iRows / nr
             << " rows per rank, the input's " << iRows << " rows)";
      else if (known(nr))
        diag << ", the input's row count " << iRows << " (NR=" << nr
             << ", M = " << iRows << "/" << nr
             << " is not a whole number of rows)";
      else
        diag << ", the input's row count " << iRows << " (NR=?)";
      return diag << ", got " << tRows;
    }
    [[fallthrough]];
  case FamilyRows::MultipleOfNR:
    if (known(nr) && known(tRows) && tRows % nr != 0)
      return op->emitOpError()
             << "target rows must be NR*M (NR=" << nr << ", M = " << tRows
             << "/" << nr << " is not a whole number of rows), got " << tRows;
    break;
  }

  if (o.rows == FamilyRows::Permute &&
      failed(verifyPairs(op, o.pairs, nr, in, tgt)))
    return failure();

  // Operand-local rules, as for all_to_all_v: the kernel addresses every
  // operand flat from its base.
  SmallVector<NamedOperand, 3> operands;
  if (o.input)
    operands.push_back({"input", o.input});
  if (o.target)
    operands.push_back({"target", o.target});
  operands.push_back({"signal", o.signal});
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
  if (o.input && o.input == o.target)
    return op->emitOpError()
           << "operand 'input' must not be the same value as 'target'";
  if (o.target && o.target == o.signal)
    return op->emitOpError()
           << "operand 'target' must not be the same value as 'signal'";
  Value returned = o.target ? o.target : o.signal;
  StringRef role = o.target ? "target" : "signal";
  if (o.result.getType() != returned.getType())
    return op->emitOpError()
           << "result type " << o.result.getType() << " must be the type of '"
           << role << "' " << returned.getType();
  return verifyNoForeignAttributes(op);
}

static std::optional<int64_t> optionalInt(Attribute attr) {
  auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr);
  if (!i)
    return std::nullopt;
  return i.getValue().getSExtValue();
}

/// Every family op's verify() (generated from its Pld_FamilyOp def): its
/// operands are [input,] [target,] signal, in that order (barrier has only
/// the signal), and the attributes its def declares say which rows apply.
LogicalResult pld::verifyFamilyOp(Operation *op, FamilyRows rows,
                                  bool allowsI8) {
  auto declares = [&](StringRef name) {
    return llvm::any_of(op->getName().getAttributeNames(),
                        [&](StringAttr a) { return a.getValue() == name; });
  };
  // Only the attributes the def declares: any other is a foreign attribute,
  // which the last row refuses.
  auto attr = [&](StringRef name) {
    return declares(name) ? op->getAttr(name) : Attribute();
  };
  unsigned n = op->getNumOperands();
  // A def whose operands are not [input,] [target,] signal is a dialect bug, not the user's.
  if (n < 1 || n > 3 || op->getNumResults() != 1)
    return op->emitOpError()
           << "must have [input,] [target,] signal operands and one result (a "
              "family collective; an internal error of pld), got "
           << n << " operands and " << op->getNumResults() << " results";
  FamilyOperands o{n == 3 ? op->getOperand(0) : Value(),
                   n >= 2 ? op->getOperand(n - 2) : Value(),
                   op->getOperand(n - 1),
                   op->getResult(0),
                   allowsI8,
                   declares("reduce"),
                   declares("mode"),
                   declares("root"),
                   attr("reduce"),
                   attr("mode"),
                   optionalInt(attr("core_num")),
                   optionalInt(attr("root")),
                   rows,
                   attr("pairs")};
  return verifyFamily(op, o);
}
