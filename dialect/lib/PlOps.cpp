//===- PlOps.cpp - the pl ops' verifiers -----------------------------------===//

#include "pld/Dialects.h"

#include <limits>

#include "mlir/IR/Builders.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace pld;
using namespace pld::pl;

#define GET_OP_CLASSES
#include "pld/PlOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Op verifiers
//===----------------------------------------------------------------------===//

static TensorLikeInfo info(Value v) { return *getTensorLikeInfo(v.getType()); }

static LogicalResult verifySameElementType(Operation *op, Value source,
                                           Value result) {
  Type a = info(source).elementType, b = info(result).elementType;
  if (a == b)
    return success();
  return op->emitOpError() << "result element type " << b
                           << " differs from the source element type " << a;
}

/// ir.md: never tensor -> dtensor, "a local buffer is not a window". A view
/// of a window may stay a window (dtensor -> dtensor) or be its local view
/// (dtensor -> tensor); a view of a local `!pl.tensor` is local.
static LogicalResult verifyNoLocalToWindow(Operation *op, Value source,
                                           Value result) {
  if (!isa<dist::DTensorType>(result.getType()) ||
      isa<dist::DTensorType>(source.getType()))
    return success();
  return op->emitOpError() << "result type " << result.getType()
                           << " must not be a !pld.dtensor when the source "
                           << source.getType()
                           << " is not (a local buffer is not a window)";
}

/// The unary view ops (reshape, view, set_validshape, transpose, slice).
static LogicalResult verifyView(Operation *op, Value source, Value result) {
  if (failed(verifySameElementType(op, source, result)))
    return failure();
  return verifyNoLocalToWindow(op, source, result);
}

/// The types must not lie: reshape, view and slice produce a descriptor whose
/// shape is the result's whole shape (chip_views.inc), so a result type narrowing
/// its valid_shape would state extents the runtime does not have.
static LogicalResult verifyWholeResult(Operation *op, const TensorLikeInfo &res) {
  if (res.valid.empty())
    return success();
  return op->emitOpError()
         << "result type must not narrow its valid_shape (valid = "
         << formatDims(res.valid)
         << "): the result is a whole descriptor of its shape; narrow it with "
            "pl.tensor.set_validshape";
}

/// Appends the source's valid_shape to a message that compared against it.
static void noteValid(InFlightDiagnostic &diag, const TensorLikeInfo &src) {
  if (!src.valid.empty())
    diag << " (the source's valid_shape is " << formatDims(src.valid) << ")";
}

LogicalResult TensorCreateOp::verify() {
  if (!isa<dist::DTensorType>(getResult().getType()))
    return success();
  return emitOpError() << "result type " << getResult().getType()
                       << " must be a !pl.tensor (a fresh local buffer is not "
                          "a window; a window is a pld.window of a "
                          "pld.window_buffer)";
}

/// Element count of static dims (nullopt when one is `?`, unranked, or the
/// product overflows).
static std::optional<int64_t> staticElements(bool ranked,
                                             ArrayRef<int64_t> dims) {
  if (!ranked || llvm::any_of(dims, ShapedType::isDynamic))
    return std::nullopt;
  int64_t n = 1;
  for (int64_t d : dims)
    if (llvm::MulOverflow(n, d, n))
      return std::nullopt;
  return n;
}

LogicalResult TensorReshapeOp::verify() {
  if (failed(verifyView(*this, getSource(), getResult())))
    return failure();
  TensorLikeInfo src = info(getSource()), res = info(getResult());
  if (failed(verifyWholeResult(*this, res)))
    return failure();
  // The runtime reshapes the source's descriptor, whose extents are its
  // valid_shape.
  auto a = staticElements(src.ranked, src.extents()),
       b = staticElements(res.ranked, res.shape);
  if (a && b && *a != *b) {
    InFlightDiagnostic diag = emitOpError()
                              << "reshape changes the element count from "
                              << *a << " to " << *b;
    noteValid(diag, src);
    return diag;
  }
  return success();
}

/// The first dimension where a box of `sizes` at `offsets` leaves the
/// source's extents (where both are static), or nullopt when it fits.
static std::optional<size_t> boxOutside(const TensorLikeInfo &src,
                                        ArrayRef<int64_t> sizes,
                                        ArrayRef<int64_t> offsets) {
  ArrayRef<int64_t> dims = src.extents();
  for (size_t i = 0; i < sizes.size() && i < dims.size(); ++i) {
    int64_t offset = offsets.empty() ? 0 : offsets[i];
    int64_t dim = dims[i], size = sizes[i];
    // Written as `offset > dim - size` so that huge offsets cannot overflow.
    if (!ShapedType::isDynamic(dim) && !ShapedType::isDynamic(size) &&
        (size > dim || offset > dim - size))
      return i;
  }
  return std::nullopt;
}

LogicalResult TensorViewOp::verify() {
  if (failed(verifyView(*this, getSource(), getResult())))
    return failure();
  TensorLikeInfo src = info(getSource()), res = info(getResult());
  if (auto offsets = getOffsets()) {
    if (src.ranked && offsets->size() != src.shape.size())
      return emitOpError() << "attribute 'offsets' has " << offsets->size()
                           << " entries for a source of rank "
                           << src.shape.size();
    if (llvm::any_of(*offsets, [](int64_t o) { return o < 0; }))
      return emitOpError() << "attribute 'offsets' entries must be >= 0";
  }
  if (failed(verifyWholeResult(*this, res)))
    return failure();
  // Same rank: the result's box at the offsets lies inside the source, like
  // a slice's (checked where both are static).
  if (src.ranked && res.ranked && src.shape.size() == res.shape.size()) {
    ArrayRef<int64_t> offsets =
        getOffsets() ? *getOffsets() : ArrayRef<int64_t>();
    std::optional<size_t> i = boxOutside(src, res.shape, offsets);
    if (!i)
      return success();
    InFlightDiagnostic diag =
        emitOpError() << "view of size " << res.shape[*i] << " at offset "
                      << (offsets.empty() ? 0 : offsets[*i])
                      << " exceeds dimension " << *i << " of size "
                      << src.extents()[*i];
    noteValid(diag, src);
    return diag;
  }
  auto a = staticElements(src.ranked, src.extents()),
       b = staticElements(res.ranked, res.shape);
  if (a && b && *b > *a) {
    InFlightDiagnostic diag = emitOpError()
                              << "view of " << *b
                              << " elements does not fit a source of " << *a;
    noteValid(diag, src);
    return diag;
  }
  return success();
}

LogicalResult TensorSetValidShapeOp::verify() {
  if (failed(verifyView(*this, getSource(), getResult())))
    return failure();
  TensorLikeInfo src = info(getSource()), res = info(getResult());
  if (src.ranked && res.ranked) {
    if (src.shape.size() != res.shape.size())
      return emitOpError() << "result rank " << res.shape.size()
                           << " differs from the source rank "
                           << src.shape.size() << " (only valid changes)";
    for (auto [i, pair] : llvm::enumerate(llvm::zip(src.shape, res.shape))) {
      auto [a, b] = pair;
      if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
        return emitOpError() << "result dimension " << i << " is " << b
                             << " but the source's is " << a
                             << " (only valid changes)";
    }
  }
  ArrayRef<int64_t> valid = getValid();
  if (res.ranked && valid.size() != res.shape.size())
    return emitOpError() << "attribute 'valid' has " << valid.size()
                         << " entries for a result of rank " << res.shape.size();
  for (int64_t v : valid)
    if (v < 0)
      return emitOpError() << "attribute 'valid' entries must be >= 0, got " << v;
  for (auto [v, s] : llvm::zip(valid, res.shape))
    if (!ShapedType::isDynamic(s) && v > s)
      return emitOpError() << "attribute 'valid' entry " << v
                           << " is outside [0, " << s << "]";
  // The types must not lie: the result is the source with valid_shape
  // `valid` (the runtime narrows the descriptor to it), same layout and
  // strides. An unranked result states no valid_shape.
  if (res.ranked) {
    ArrayRef<int64_t> stated = res.extents();
    for (auto [i, pair] : llvm::enumerate(llvm::zip(valid, stated))) {
      auto [want, have] = pair;
      if (!ShapedType::isDynamic(have) && want != have)
        return emitOpError()
               << "result type " << getResult().getType()
               << " must carry the valid_shape the op sets, "
               << formatDims(valid) << " (its valid_shape is "
               << formatDims(stated) << ")";
    }
  }
  if (src.layout != res.layout)
    return emitOpError() << "result layout " << stringifyLayout(res.layout)
                         << " differs from the source layout "
                         << stringifyLayout(src.layout)
                         << " (only valid changes)";
  if (src.ranked && res.ranked && src.strides != res.strides)
    return emitOpError() << "result strides differ from the source's (only "
                            "valid changes)";
  return success();
}

LogicalResult TensorTransposeOp::verify() {
  if (failed(verifyView(*this, getSource(), getResult())))
    return failure();
  TensorLikeInfo src = info(getSource());
  ArrayRef<int64_t> perm = getPerm();
  SmallVector<bool> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(perm.size()) || seen[p])
      return emitOpError() << "attribute 'perm' is not a permutation of [0, "
                           << perm.size() << ")";
    seen[p] = true;
  }
  if (src.ranked && perm.size() != src.shape.size())
    return emitOpError() << "attribute 'perm' has " << perm.size()
                         << " entries for a source of rank " << src.shape.size();
  TensorLikeInfo res = info(getResult());
  if (!res.ranked)
    return success();
  if (res.shape.size() != perm.size())
    return emitOpError() << "result rank " << res.shape.size()
                         << " differs from the number of 'perm' entries "
                         << perm.size();
  if (src.ranked)
    for (auto [i, p] : llvm::enumerate(perm)) {
      int64_t want = src.shape[p], have = res.shape[i];
      if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
          want != have)
        return emitOpError() << "result dimension " << i << " is " << have
                             << " but source dimension " << p << " is "
                             << want;
    }
  // The valid_shape moves with its dimensions (the runtime permutes the
  // descriptor's extents, which are the valid_shape).
  if (src.ranked) {
    ArrayRef<int64_t> from = src.extents(), stated = res.extents();
    SmallVector<int64_t> want;
    for (int64_t p : perm)
      want.push_back(from[p]);
    for (auto [w, h] : llvm::zip(want, stated))
      if (!ShapedType::isDynamic(w) && !ShapedType::isDynamic(h) && w != h)
        return emitOpError()
               << "result type " << getResult().getType()
               << " must carry the source's valid_shape permuted, "
               << formatDims(want) << " (its valid_shape is "
               << formatDims(stated) << ")";
  }
  return success();
}

LogicalResult TensorSliceOp::verify() {
  if (failed(verifyView(*this, getSource(), getResult())))
    return failure();
  TensorLikeInfo src = info(getSource());
  ArrayRef<int64_t> sizes = getSizes();
  std::optional<ArrayRef<int64_t>> offsets = getOffsets();
  size_t dynamicCount = getDynamicOffsets().size();
  if (offsets && dynamicCount)
    return emitOpError() << "takes either literal 'offsets' or offset "
                            "operands, not both";
  if (!offsets && dynamicCount != sizes.size())
    return emitOpError() << "needs 'offsets' or one offset operand per "
                            "dimension ("
                         << sizes.size() << "), got " << dynamicCount;
  if (offsets && offsets->size() != sizes.size())
    return emitOpError() << "attributes 'offsets' and 'sizes' differ in length";
  if (src.ranked && sizes.size() != src.shape.size())
    return emitOpError() << "attribute 'sizes' has " << sizes.size()
                         << " entries for a source of rank " << src.shape.size();
  for (auto [i, size] : llvm::enumerate(sizes)) {
    int64_t offset = offsets ? (*offsets)[i] : 0;
    if (size < 0 || offset < 0)
      return emitOpError() << "attributes 'offsets' and 'sizes' must be >= 0";
  }
  if (std::optional<size_t> i =
          src.ranked ? boxOutside(src, sizes,
                                  offsets ? *offsets : ArrayRef<int64_t>())
                     : std::nullopt) {
    InFlightDiagnostic diag =
        emitOpError() << "slice of size " << sizes[*i] << " at offset "
                      << (offsets ? (*offsets)[*i] : 0)
                      << " exceeds dimension " << *i << " of size "
                      << src.extents()[*i];
    noteValid(diag, src);
    return diag;
  }
  TensorLikeInfo res = info(getResult());
  if (failed(verifyWholeResult(*this, res)))
    return failure();
  if (res.ranked && res.shape.size() != sizes.size())
    return emitOpError() << "result rank " << res.shape.size()
                         << " differs from the number of 'sizes' "
                         << sizes.size();
  for (auto [d, s] : llvm::zip(res.shape, sizes))
    if (!ShapedType::isDynamic(d) && d != s)
      return emitOpError() << "result shape does not match 'sizes'";
  return success();
}

LogicalResult TensorAssembleOp::verify() {
  TensorLikeInfo target = info(getTarget()), source = info(getSource());
  if (target.elementType != source.elementType)
    return emitOpError() << "source element type " << source.elementType
                         << " differs from the target element type "
                         << target.elementType;
  ArrayRef<int64_t> offsets = getOffsets();
  if (target.ranked && offsets.size() != target.shape.size())
    return emitOpError() << "attribute 'offsets' has " << offsets.size()
                         << " entries for a target of rank "
                         << target.shape.size();
  if (target.ranked && source.ranked &&
      source.shape.size() == target.shape.size())
    for (auto [i, o] : llvm::enumerate(offsets)) {
      int64_t s = source.shape[i], t = target.shape[i];
      if (o < 0 || (!ShapedType::isDynamic(s) && !ShapedType::isDynamic(t) &&
                    (s > t || o > t - s)))
        return emitOpError() << "source does not fit the target in dimension "
                             << i;
    }
  return success();
}

LogicalResult TensorWriteOp::verify() {
  TensorLikeInfo dst = info(getDst());
  if (getValue().getType() != dst.elementType)
    return emitOpError() << "value type " << getValue().getType()
                         << " differs from the element type "
                         << dst.elementType;
  if (dst.ranked && getIndices().size() != dst.shape.size())
    return emitOpError() << "needs one index per dimension ("
                         << dst.shape.size() << "), got "
                         << getIndices().size();
  return success();
}

bool CastOp::areCastCompatible(TypeRange inputs, TypeRange outputs) {
  if (inputs.size() != 1 || outputs.size() != 1)
    return false;
  auto from = getTensorLikeInfo(inputs.front());
  auto to = getTensorLikeInfo(outputs.front());
  if (!from || !to || from->elementType != to->elementType)
    return false;
  // A local buffer is never a window.
  if (isa<pl::TensorType>(inputs.front()) &&
      isa<dist::DTensorType>(outputs.front()))
    return false;
  if (from->layout != to->layout || from->valid != to->valid ||
      from->strides != to->strides)
    return false;
  if (!from->ranked || !to->ranked)
    return true;
  if (from->shape.size() != to->shape.size())
    return false;
  for (auto [a, b] : llvm::zip(from->shape, to->shape))
    if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b)
      return false;
  return true;
}

/// A CHIP orchestration body: an orchestration or graph function that is not HOST level.
static LogicalResult verifyInChipOrchestration(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (func && isChipOrchestration(func))
    return success();
  return op->emitOpError()
         << "is only valid in a CHIP orchestration body (pl.func_kind = "
            "\"orchestration\" or \"graph\", pl.level = \"chip\")";
}

LogicalResult LaunchOp::verify() {
  if (failed(verifyInChipOrchestration(*this)))
    return failure();
  Block &body = getBody().front();
  // The region uses the enclosing body's values; nothing binds arguments.
  if (body.getNumArguments() != 0)
    return emitOpError() << "region must have no block arguments (it uses the "
                            "enclosing body's values), got "
                         << body.getNumArguments();
  func::CallOp call;
  for (Operation &op : body.without_terminator()) {
    if (auto c = dyn_cast<func::CallOp>(op)) {
      if (call)
        return emitOpError() << "region holds more than one 'func.call'; a "
                                "launch runs exactly one kernel call";
      call = c;
      continue;
    }
    if (!isa<CastOp>(op))
      return emitOpError() << "region may hold only one 'func.call' and "
                              "'pl.cast' ops, got '"
                           << op.getName() << "'";
  }
  if (!call)
    return emitOpError() << "region holds no 'func.call' to launch";
  if (call->hasAttr("pl.core_num") || call->hasAttr("pl.sync_start"))
    return emitOpError() << "the launched 'func.call' may not carry "
                            "pl.core_num or pl.sync_start: the launch gives "
                            "its width";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError() << "region must end with 'pl.yield'";
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "'pl.yield' types " << yield.getValues().getTypes()
                         << " differ from the result types "
                         << getResultTypes();
  return success();
}

LogicalResult RequireOp::verify() {
  if (failed(verifyInChipOrchestration(*this)) ||
      failed(verifySeenValues(*this, getValues(), getValueNamesAttr())))
    return failure();
  return verifyErrorCode(*this, "code", getCodeAttr());
}

LogicalResult pld::verifySeenValues(Operation *op, ValueRange values,
                                    ArrayAttr names) {
  size_t count = names ? names.size() : 0;
  if (count != values.size())
    return op->emitOpError()
           << "attribute 'value_names' must name each of the " << values.size()
           << " seen values, got " << count << " names";
  if (names && llvm::any_of(names, [](Attribute a) {
        return cast<StringAttr>(a).getValue().empty();
      }))
    return op->emitOpError() << "attribute 'value_names' entries must not be empty";
  return success();
}

LogicalResult pld::verifyErrorCode(Operation *op, StringRef name,
                                   IntegerAttr attr) {
  int64_t code = attr.getInt();
  if (code < 1 || code > std::numeric_limits<int32_t>::max())
    return op->emitOpError() << "attribute '" << name
                             << "' must be in [1, 2147483647] (a nonzero C++ "
                                "int error code), got "
                             << code;
  return success();
}

LogicalResult SubmitOp::verify() {
  if (auto outs = getRuntimeAllocOuts()) {
    llvm::SmallDenseSet<int64_t> seen;
    for (int64_t index : *outs) {
      if (index < 0 || index >= static_cast<int64_t>(getNumResults()))
        return emitOpError() << "attribute 'runtime_alloc_outs' entries must "
                                "be result indices in [0, "
                             << getNumResults() << "), got " << index;
      if (!seen.insert(index).second)
        return emitOpError() << "attribute 'runtime_alloc_outs' entries must "
                                "be distinct, got "
                             << index << " twice";
    }
  }
  return success();
}

/// The binding of a `pl.submit` to its callee (docs/lowering.md, "pl.submit"):
/// the operands pass the callee's leading parameters, exactly as a
/// `func.call` would (same types); the callee's remaining, trailing
/// parameters are the runtime-allocated Outs, one per `runtime_alloc_outs`
/// entry in order: parameter `operand count + k` is the buffer the runtime
/// allocates for result `runtime_alloc_outs[k]`. Such a parameter is a
/// statically shaped `!pl.tensor` of that result's type, not declared `in` or
/// `inout` (the runtime allocates it uninitialized), and a callee with a body
/// returns it at that result index. The results are the callee's results.
LogicalResult SubmitOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "callee @" << getCallee()
                         << " must reference a func.func";
  FunctionType type = callee.getFunctionType();
  SmallVector<int64_t> outs;
  if (auto attr = getRuntimeAllocOuts())
    outs.assign(attr->begin(), attr->end());
  unsigned numOperands = getNumOperands();
  if (numOperands + outs.size() != type.getNumInputs())
    return emitOpError()
           << "operands and runtime-allocated results must cover the "
           << type.getNumInputs() << " parameters of @" << getCallee()
           << " (the operands pass the leading ones, the runtime allocates "
              "the trailing ones), got "
           << numOperands << " operands and " << outs.size()
           << " runtime-allocated results";
  for (unsigned i = 0; i < numOperands; ++i)
    if (getOperand(i).getType() != type.getInput(i))
      return emitOpError() << "operand #" << i
                           << " must have the type of parameter #" << i
                           << " of @" << getCallee() << ", "
                           << type.getInput(i) << ", got "
                           << getOperand(i).getType();
  if (getNumResults() != type.getNumResults())
    return emitOpError() << "result count must equal the result count of @"
                         << getCallee() << ", " << type.getNumResults()
                         << ", got " << getNumResults();
  for (unsigned i = 0; i < getNumResults(); ++i)
    if (getResult(i).getType() != type.getResult(i))
      return emitOpError() << "result #" << i
                           << " must have the type of result #" << i << " of @"
                           << getCallee() << ", " << type.getResult(i)
                           << ", got " << getResult(i).getType();
  for (auto [k, result] : llvm::enumerate(outs)) {
    unsigned param = numOperands + k;
    Type paramType = type.getInput(param);
    auto tensor = dyn_cast<pl::TensorType>(paramType);
    auto info = getTensorLikeInfo(paramType);
    if (!tensor || !info || !info->hasStaticShape())
      return emitOpError() << "parameter #" << param << " of @" << getCallee()
                           << " (runtime-allocated for result #" << result
                           << ") must be a statically shaped !pl.tensor, got "
                           << paramType;
    if (paramType != type.getResult(result))
      return emitOpError() << "parameter #" << param << " of @" << getCallee()
                           << " (runtime-allocated for result #" << result
                           << ") must have the type of that result, "
                           << type.getResult(result) << ", got " << paramType;
    if (auto dir = callee.getArgAttrOfType<StringAttr>(param, "pl.direction");
        dir && dir.getValue() != "out")
      return emitOpError() << "parameter #" << param << " of @" << getCallee()
                           << " (runtime-allocated for result #" << result
                           << ") must have pl.direction \"out\" (the runtime "
                              "allocates it uninitialized), got pl.direction \""
                           << dir.getValue() << "\"";
    if (callee.isExternal())
      continue;
    Value arg = callee.getArgument(param);
    for (Block &block : callee.getBody()) {
      auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
      if (!ret || result >= static_cast<int64_t>(ret.getNumOperands()))
        continue;
      Value returned = ret.getOperand(result);
      if (returned == arg)
        continue;
      InFlightDiagnostic diag =
          emitOpError() << "parameter #" << param << " of @" << getCallee()
                        << " (runtime-allocated for result #" << result
                        << ") must be what @" << getCallee()
                        << " returns there, got ";
      auto returnedArg = dyn_cast<BlockArgument>(returned);
      if (returnedArg && returnedArg.getOwner() == &callee.front())
        diag << "parameter #" << returnedArg.getArgNumber();
      else
        diag << "a value that is not a parameter";
      diag.attachNote(ret.getLoc()) << "returned here";
      return diag;
    }
  }
  return success();
}
