//===- PldDialect.cpp - the pld dialect: types, ops, the type deducer -----===//

#include "pld/Dialects.h"

#include <limits>

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace pld;
using namespace pld::dist;

#include "pld/PldOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/PldOpsTypes.cpp.inc"

// The argument types of pld.host.dispatch: `(t0, t1, ...)`, possibly `()`
// (the declarative `(` type($args) `)` cannot parse an empty list).
static ParseResult parseDispatchArgTypes(OpAsmParser &parser,
                                         SmallVectorImpl<Type> &types) {
  if (parser.parseLParen())
    return failure();
  if (succeeded(parser.parseOptionalRParen()))
    return success();
  if (parser.parseTypeList(types) || parser.parseRParen())
    return failure();
  return success();
}

static void printDispatchArgTypes(OpAsmPrinter &printer, Operation *,
                                  TypeRange types) {
  printer << '(' << types << ')';
}

#define GET_OP_CLASSES
#include "pld/PldOps.cpp.inc"

void PldDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "pld/PldOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "pld/PldOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// DTensorType
//===----------------------------------------------------------------------===//

Type DTensorType::parse(AsmParser &parser) {
  pld::detail::TensorLikeParams p;
  if (failed(pld::detail::parseTensorLike(parser, p, "!pld.dtensor")))
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), p.ranked, p.shape, p.elementType,
                    p.layout, p.valid, p.strides);
}

void DTensorType::print(AsmPrinter &printer) const {
  pld::detail::printTensorLike(printer, getInfo());
}

LogicalResult DTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  bool ranked, ArrayRef<int64_t> shape,
                                  Type elementType, Layout layout,
                                  ArrayRef<int64_t> valid,
                                  ArrayRef<int64_t> strides) {
  return pld::detail::verifyTensorLike(
      emitError, {ranked, shape, elementType, layout, valid, strides},
      "!pld.dtensor");
}

DTensorType DTensorType::getNormalized(Type elementType, bool ranked,
                                       ArrayRef<int64_t> shape, Layout layout,
                                       ArrayRef<int64_t> valid,
                                       ArrayRef<int64_t> strides) {
  pld::detail::TensorLikeParams p{ranked, llvm::to_vector(shape), elementType,
                                  layout, llvm::to_vector(valid),
                                  llvm::to_vector(strides)};
  pld::detail::normalizeTensorLike(p);
  return get(elementType.getContext(), p.ranked, p.shape, p.elementType,
             p.layout, p.valid, p.strides);
}

DTensorType DTensorType::getNormalizedChecked(
    function_ref<InFlightDiagnostic()> emitError, Type elementType, bool ranked,
    ArrayRef<int64_t> shape, Layout layout, ArrayRef<int64_t> valid,
    ArrayRef<int64_t> strides) {
  pld::detail::TensorLikeParams p{ranked, llvm::to_vector(shape), elementType,
                                  layout, llvm::to_vector(valid),
                                  llvm::to_vector(strides)};
  pld::detail::normalizeTensorLike(p);
  return getChecked(emitError, elementType.getContext(), p.ranked, p.shape,
                    p.elementType, p.layout, p.valid, p.strides);
}

//===----------------------------------------------------------------------===//
// CommCtxType, WindowBufferType: no parameters
//===----------------------------------------------------------------------===//

/// The generated parser of a parameterless type would ignore a trailing
/// `<...>`; reject it instead.
static LogicalResult parseNoParameters(AsmParser &parser, StringRef mnemonic) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalLess()))
    return parser.emitError(loc, "'!pld.")
           << mnemonic << "' takes no parameters";
  return success();
}

Type CommCtxType::parse(AsmParser &parser) {
  if (failed(parseNoParameters(parser, getMnemonic())))
    return {};
  return get(parser.getContext());
}

void CommCtxType::print(AsmPrinter &) const {}

Type WindowBufferType::parse(AsmParser &parser) {
  if (failed(parseNoParameters(parser, getMnemonic())))
    return {};
  return get(parser.getContext());
}

void WindowBufferType::print(AsmPrinter &) const {}

Type CommDomainType::parse(AsmParser &parser) {
  if (failed(parseNoParameters(parser, getMnemonic())))
    return {};
  return get(parser.getContext());
}

void CommDomainType::print(AsmPrinter &) const {}

//===----------------------------------------------------------------------===//
// pld.system.nranks
//===----------------------------------------------------------------------===//

LogicalResult SystemNranksOp::verify() {
  if (auto func = (*this)->getParentOfType<func::FuncOp>()) {
    if (isOrchestrationBody(func))
      return emitOpError() << "is InCore-only: it has no orchestration codegen "
                              "(enclosing function @"
                           << func.getSymName() << " has pl.func_kind \""
                           << getFuncKind(func) << "\")";
  }
  return success();
}

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

//===----------------------------------------------------------------------===//
// InCore per-peer primitives
//===----------------------------------------------------------------------===//

/// Rejects an InCore-only op inside an orchestration or graph function.
static LogicalResult verifyInCoreOnly(Operation *op) {
  if (auto func = op->getParentOfType<func::FuncOp>()) {
    if (isOrchestrationBody(func))
      return op->emitOpError() << "is InCore-only: it has no orchestration "
                                  "codegen (enclosing function @"
                               << func.getSymName() << " has pl.func_kind \""
                               << getFuncKind(func) << "\")";
  }
  return success();
}

/// Requires a window operand.
static LogicalResult verifyWindow(Operation *op, StringRef name, Value v) {
  if (isa<DTensorType>(v.getType()))
    return success();
  return op->emitOpError() << "operand '" << name
                           << "' must be a !pld.dtensor (a window peers can "
                              "address), got "
                           << v.getType();
}

LogicalResult SystemRankOp::verify() { return verifyInCoreOnly(*this); }

LogicalResult CommReadCountOp::verify() {
  if (failed(verifyInCoreOnly(*this)))
    return failure();
  TensorLikeInfo t = *getTensorLikeInfo(getCounts().getType());
  if (!t.elementType.isSignlessInteger(32))
    return emitOpError() << "operand 'counts' must hold i32 counts, got "
                         << t.elementType;
  if (getRank() && !isa<DTensorType>(getCounts().getType()))
    return emitOpError() << "operand 'counts' must be a !pld.dtensor (a window "
                            "peers can address) for a remote read, got "
                         << getCounts().getType();
  return success();
}

/// Same element type and (where static) the same row shape.
static LogicalResult verifyRowsCompatible(Operation *op, Value source,
                                          Value target) {
  TensorLikeInfo s = *getTensorLikeInfo(source.getType());
  TensorLikeInfo t = *getTensorLikeInfo(target.getType());
  if (s.elementType != t.elementType)
    return op->emitOpError() << "source element type " << s.elementType
                             << " differs from the target element type "
                             << t.elementType;
  if (!s.ranked || !t.ranked)
    return success();
  if (s.shape.empty() || t.shape.empty())
    return op->emitOpError() << "source and target must have a row dimension";
  if (s.shape.size() != t.shape.size())
    return op->emitOpError() << "source rank " << s.shape.size()
                             << " differs from the target rank "
                             << t.shape.size();
  for (size_t i = 1; i < s.shape.size(); ++i)
    if (!ShapedType::isDynamic(s.shape[i]) &&
        !ShapedType::isDynamic(t.shape[i]) && s.shape[i] != t.shape[i])
      return op->emitOpError() << "source and target rows differ in dimension "
                               << i;
  return success();
}

LogicalResult CommPutRowsOp::verify() {
  if (failed(verifyInCoreOnly(*this)) ||
      failed(verifyWindow(*this, "target", getTarget())))
    return failure();
  return verifyRowsCompatible(*this, getSource(), getTarget());
}

static LogicalResult verifySignal(Operation *op, Value signal) {
  if (failed(verifyWindow(op, "signal", signal)))
    return failure();
  TensorLikeInfo s = *getTensorLikeInfo(signal.getType());
  if (!s.elementType.isSignlessInteger(32))
    return op->emitOpError() << "operand 'signal' must hold i32 credits, got "
                             << s.elementType;
  if (s.ranked && s.shape.size() != 2)
    return op->emitOpError() << "operand 'signal' must be shaped [NR, S] (NR "
                                "rows, one per rank, of S credits each), got "
                                "rank "
                             << s.shape.size();
  return success();
}

LogicalResult CommNotifyOp::verify() {
  if (failed(verifyInCoreOnly(*this)) ||
      failed(verifyWindow(*this, "counts", getCounts())))
    return failure();
  TensorLikeInfo c = *getTensorLikeInfo(getCounts().getType());
  if (!c.elementType.isSignlessInteger(32))
    return emitOpError() << "operand 'counts' must hold i32 counts, got "
                         << c.elementType;
  return verifySignal(*this, getSignal());
}

LogicalResult CommWaitOp::verify() {
  if (failed(verifyInCoreOnly(*this)))
    return failure();
  return verifySignal(*this, getSignal());
}

//===----------------------------------------------------------------------===//
// HOST orchestrator ops
//===----------------------------------------------------------------------===//

/// Requires the op to sit in a HOST orchestrator.
static LogicalResult verifyInHostOrchestrator(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (func && isHostOrchestrator(func))
    return success();
  return op->emitOpError()
         << "is only valid in a HOST orchestrator (pl.func_kind = "
            "\"orchestration\", pl.level = \"host\")";
}

LogicalResult HostDispatchOp::verify() {
  return verifyInHostOrchestrator(*this);
}

LogicalResult
HostDispatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "callee @" << getCallee()
                         << " must reference a func.func";
  if (!isChipOrchestration(callee))
    return emitOpError() << "callee @" << getCallee()
                         << " must be a CHIP orchestration function";
  ArrayRef<Type> params = callee.getFunctionType().getInputs();
  if (params.size() != getArgs().size())
    return emitOpError() << "operand count must be the " << params.size()
                         << " parameters of @" << getCallee() << ", got "
                         << getArgs().size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(params, getArgs()))) {
    auto [param, operand] = pair;
    if (param != operand.getType())
      return emitOpError() << "operand #" << i << " type " << operand.getType()
                           << " differs from the parameter type " << param
                           << " of @" << getCallee();
  }
  return success();
}

/// A domain operand must be a `pld.comm_domain` of the same body (not a
/// parameter: the passes resolve a domain to its op).
static LogicalResult verifyDomainOperand(Operation *op, Value domain) {
  if (!domain || domain.getDefiningOp<CommDomainOp>())
    return success();
  return op->emitOpError()
         << "domain operand must be the result of a 'pld.comm_domain' of the "
            "same HOST orchestrator";
}

LogicalResult HostDeviceCtxOp::verify() {
  if (failed(verifyInHostOrchestrator(*this)))
    return failure();
  return verifyDomainOperand(*this, getDomain());
}

LogicalResult CommDomainOp::verify() {
  if (failed(verifyInHostOrchestrator(*this)))
    return failure();
  // The signed value: I64Attr's accessor is unsigned, so -1 would pass.
  int64_t ranks = getRanksAttr().getInt();
  if (ranks < 1)
    return emitOpError() << "ranks must be at least 1, got " << ranks;
  return success();
}

LogicalResult WindowBufferOp::verify() {
  return verifyDomainOperand(*this, getDomain());
}

namespace {
/// What a statically shaped view spans from its base.
struct ViewSize {
  int64_t elements;     // the elements the view spans
  int64_t elementBytes; // bytes of one element
  bool overflow;        // the element count does not fit in int64 (then
                        // `elements` is meaningless)
};
} // namespace

/// The span of a view type, or nullopt when its shape has a `?` dim (nothing
/// is provable). Packed: the product of the dims. Explicit strides: the span
/// they address, `1 + sum((dim - 1) * stride)` elements (a `?` stride counts
/// as 0, a lower bound), 0 if a dim is 0.
static std::optional<ViewSize> staticViewSize(const TensorLikeInfo &t) {
  if (!t.hasStaticShape() || !t.elementType.isIntOrFloat())
    return std::nullopt;
  ViewSize size{1, (t.elementType.getIntOrFloatBitWidth() + 7) / 8, false};
  if (t.strides.empty()) {
    // verifyTensorLike has bounded the product of the static dims by int64.
    for (int64_t d : t.shape)
      size.elements *= d;
  } else if (llvm::is_contained(t.shape, 0)) {
    size.elements = 0;
  } else {
    // Dims and strides are >= 0 here (verifyTensorLike), so the span only
    // grows: stop at the first overflow.
    for (auto [d, s] : llvm::zip(t.shape, t.strides)) {
      int64_t step = 0;
      if (ShapedType::isDynamic(s))
        continue;
      if (llvm::MulOverflow(d - 1, s, step) ||
          llvm::AddOverflow(size.elements, step, size.elements)) {
        size.overflow = true;
        break;
      }
    }
  }
  return size;
}

LogicalResult WindowOp::verify() {
  // Provable only when the allocation is a pld.window_buffer of this body
  // (a block argument or another op's result has no known size).
  auto buffer = getBuffer().getDefiningOp<WindowBufferOp>();
  if (!buffer)
    return success();
  std::optional<ViewSize> size =
      staticViewSize(*getTensorLikeInfo(getResult().getType()));
  if (!size)
    return success();
  // The signed values: I64Attr's accessor is unsigned (the ODS constraints
  // already refuse a negative bytes or offset).
  int64_t bytes = buffer.getBytesAttr().getInt();
  int64_t offset = getOffsetAttr() ? getOffsetAttr().getInt() : 0;
  int64_t viewBytes = 0, end = 0;
  bool overflow = size->overflow ||
                  llvm::MulOverflow(size->elements, size->elementBytes,
                                    viewBytes) ||
                  llvm::AddOverflow(offset, viewBytes, end);
  if (!overflow && end <= bytes)
    return success();
  // What was found, in one string so the message is one statement.
  std::string found;
  llvm::raw_string_ostream os(found);
  os << offset << " + ";
  if (size->overflow)
    os << "(a span of more than 2^63-1 elements) x " << size->elementBytes
       << " bytes ('" << getResult().getType() << "')";
  else if (overflow)
    os << size->elements << " x " << size->elementBytes
       << " bytes (more than fit in int64)";
  else
    os << viewBytes << " = " << end << " ('" << getResult().getType()
       << "' spans " << size->elements << " elements of "
       << size->elementBytes << " bytes)";
  InFlightDiagnostic diag =
      emitOpError() << "offset + view size must not exceed the " << bytes
                    << " bytes of its pld.window_buffer, got " << found;
  diag.attachNote(buffer.getLoc())
      << "the pld.window_buffer allocates " << bytes << " bytes here";
  return diag;
}

LogicalResult HostRequireOp::verify() {
  if (failed(verifyInHostOrchestrator(*this)) ||
      failed(pld::verifySeenValues(*this, getValues(), getValueNamesAttr())))
    return failure();
  return pld::verifyErrorCode(*this, "error_code", getErrorCodeAttr());
}
