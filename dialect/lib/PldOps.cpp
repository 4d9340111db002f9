//===- PldOps.cpp - the pld ops (InCore, HOST) and their verifiers ---------===//

#include "pld/Dialects.h"

#include <limits>

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace pld;
using namespace pld::dist;

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

#include "pld/PldOpsInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "pld/PldOps.cpp.inc"

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
