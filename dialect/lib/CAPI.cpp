//===- CAPI.cpp - C API of the pl / pld dialects --------------------------===//

#include "pld-c/Dialects.h"
#include "pld/Dialects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Rewrite.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Pl, pl, pld::pl::PlDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Pld, pld, pld::dist::PldDialect)

// pldRegisterDialects is Rust (src/capi.rs), like the other functions of
// pld-c/Registration.h, so that the shared library exports it.

bool pldTypeIsTensor(MlirType type) {
  return isa<pld::pl::TensorType>(unwrap(type));
}
bool pldTypeIsDTensor(MlirType type) {
  return isa<pld::dist::DTensorType>(unwrap(type));
}
bool pldTypeIsCommCtx(MlirType type) {
  return isa<pld::dist::CommCtxType>(unwrap(type));
}
MlirType pldCommCtxTypeGet(MlirContext ctx) {
  return wrap(pld::dist::CommCtxType::get(unwrap(ctx)));
}
bool pldTypeIsWindowBuffer(MlirType type) {
  return isa<pld::dist::WindowBufferType>(unwrap(type));
}

intptr_t pldTensorLikeGetRank(MlirType type) {
  auto info = pld::getTensorLikeInfo(unwrap(type));
  if (!info || !info->ranked)
    return -1;
  return static_cast<intptr_t>(info->shape.size());
}

// The queries below answer for any type (a non-tensor type or an
// out-of-range dimension reads as absent), so no caller can index past a
// shape (a rank-0 tensor has no dimension 0).
int64_t pldTensorLikeGetDim(MlirType type, intptr_t pos) {
  auto info = pld::getTensorLikeInfo(unwrap(type));
  if (!info || pos < 0 || static_cast<size_t>(pos) >= info->shape.size())
    return ShapedType::kDynamic;
  return info->shape[pos];
}

MlirType pldTensorLikeGetElementType(MlirType type) {
  auto info = pld::getTensorLikeInfo(unwrap(type));
  return info ? wrap(info->elementType) : MlirType{nullptr};
}

uint32_t pldTensorLikeGetLayout(MlirType type) {
  auto info = pld::getTensorLikeInfo(unwrap(type));
  return static_cast<uint32_t>(info ? info->layout : pld::Layout::ND);
}

bool pldTensorLikeHasValid(MlirType type) {
  auto info = pld::getTensorLikeInfo(unwrap(type));
  return info && !info->valid.empty();
}

bool pldTensorLikeHasStrides(MlirType type) {
  auto info = pld::getTensorLikeInfo(unwrap(type));
  return info && !info->strides.empty();
}

int pldTypeGetTensorLikeKind(MlirType type) {
  Type t = unwrap(type);
  if (isa<pld::pl::TensorType>(t))
    return 1;
  if (isa<pld::dist::DTensorType>(t))
    return 2;
  return 0;
}

PldTensorLikeInfo pldTypeGetTensorLikeInfo(MlirType type) {
  PldTensorLikeInfo out{};
  Type t = unwrap(type);
  std::optional<pld::TensorLikeInfo> info;
  if (auto tensor = dyn_cast<pld::pl::TensorType>(t)) {
    out.kind = 1;
    info = tensor.getInfo();
  } else if (auto dtensor = dyn_cast<pld::dist::DTensorType>(t)) {
    out.kind = 2;
    info = dtensor.getInfo();
  } else {
    return out;
  }
  out.rank = info->ranked ? static_cast<intptr_t>(info->shape.size()) : -1;
  out.shape = info->shape.data();
  out.elementType = wrap(info->elementType);
  out.layout = static_cast<uint32_t>(info->layout);
  out.hasValid = !info->valid.empty();
  out.hasStrides = !info->strides.empty();
  out.strides = info->strides.empty() ? nullptr : info->strides.data();
  return out;
}

void pldOperationSetDiscardableAttrs(MlirOperation op, intptr_t n,
                                     const MlirIdentifier *names,
                                     const MlirAttribute *values) {
  Operation *o = unwrap(op);
  NamedAttrList list(o->getDiscardableAttrDictionary());
  for (intptr_t i = 0; i < n; ++i)
    list.set(unwrap(names[i]), unwrap(values[i]));
  o->setDiscardableAttrs(list.getDictionary(o->getContext()));
}

MlirAttribute pldOperationGetDiscardableAttrDictionary(MlirOperation op) {
  return wrap(Attribute(unwrap(op)->getDiscardableAttrDictionary()));
}

void pldOperationSetDiscardableAttrDictionary(MlirOperation op,
                                              MlirAttribute dictionary) {
  unwrap(op)->setDiscardableAttrs(cast<DictionaryAttr>(unwrap(dictionary)));
}

MlirAttribute pldDictionaryAttrWith(MlirAttribute dictionary, intptr_t n,
                                    const MlirIdentifier *names,
                                    const MlirAttribute *values) {
  auto dict = cast<DictionaryAttr>(unwrap(dictionary));
  NamedAttrList list(dict);
  for (intptr_t i = 0; i < n; ++i)
    list.set(unwrap(names[i]), unwrap(values[i]));
  return wrap(Attribute(list.getDictionary(dict.getContext())));
}

MlirOperation pldCastCreate(MlirLocation loc, MlirValue source,
                            MlirType type) {
  Location location = unwrap(loc);
  OpBuilder builder(location.getContext());
  return wrap(builder
                  .create<pld::pl::CastOp>(location, unwrap(type),
                                           unwrap(source))
                  .getOperation());
}

MlirOperation pldRewriteCollectiveAsCall(MlirPatternRewriter rewriterRaw,
                                         MlirOperation opRaw,
                                         MlirAttribute callee, intptr_t n,
                                         const MlirType *params,
                                         MlirType result,
                                         MlirAttribute discardable) {
  PatternRewriter &rewriter = *unwrap(rewriterRaw);
  Operation *op = unwrap(opRaw);
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  // pl.cast has no attributes or properties: created directly with its name
  // looked up once per collective (not per cast) and no attribute list to
  // unique, ~40% cheaper than its ODS builder (issue #23).
  OperationName castName(pld::pl::CastOp::getOperationName(),
                         op->getContext());
  auto noAttributes = DictionaryAttr::get(op->getContext());
  auto castTo = [&](Type type, Value value) -> Value {
    Operation *cast = Operation::create(loc, castName, TypeRange{type},
                                        ValueRange{value}, noAttributes,
                                        /*properties=*/nullptr, BlockRange{},
                                        /*numRegions=*/0);
    rewriter.insert(cast);
    return cast->getResult(0);
  };
  SmallVector<Value, 8> args;
  args.reserve(n);
  for (intptr_t i = 0; i < n; ++i) {
    Value value = op->getOperand(i);
    Type type = unwrap(params[i]);
    if (value.getType() != type)
      value = castTo(type, value);
    args.push_back(value);
  }
  auto call = func::CallOp::create(rewriter, loc,
                                   cast<FlatSymbolRefAttr>(unwrap(callee)),
                                   TypeRange{unwrap(result)}, args);
  if (!mlirAttributeIsNull(discardable))
    call->setDiscardableAttrs(cast<DictionaryAttr>(unwrap(discardable)));
  Value value = call.getResult(0);
  Type back = op->getResult(0).getType();
  if (value.getType() != back)
    value = castTo(back, value);
  rewriter.replaceOp(op, value);
  return wrap(call.getOperation());
}

MlirOperation pldOperationRebuildWithOperands(MlirOperation opRaw,
                                              intptr_t index, intptr_t n,
                                              const MlirValue *values) {
  Operation *op = unwrap(opRaw);
  SmallVector<Value> operands(op->getOperands());
  operands.reserve(operands.size() + n);
  for (intptr_t i = 0; i < n; ++i)
    operands.insert(operands.begin() + index + i, unwrap(values[i]));
  // What Operation::clone does, with the longer operand list: the operands
  // live inline in the new op instead of a grown out-of-line storage
  // beside the old op's unused inline one (issue #16, peak RSS).
  Operation *rebuilt = Operation::create(
      op->getLoc(), op->getName(), op->getResultTypes(), operands,
      op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
      op->getSuccessors(), op->getNumRegions());
  for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
    rebuilt->getRegion(i).takeBody(op->getRegion(i));
  op->getBlock()->getOperations().insert(Block::iterator(op), rebuilt);
  op->replaceAllUsesWith(rebuilt);
  op->erase();
  return wrap(rebuilt);
}

MlirType pldTensorLikeGetUnranked(bool distributed, MlirType elementType) {
  Type element = unwrap(elementType);
  if (distributed)
    return wrap(pld::dist::DTensorType::getNormalized(element, false, {}));
  return wrap(pld::pl::TensorType::getNormalized(element, false, {}));
}

bool pldFunctionIsOrchestrationBody(MlirOperation func) {
  return pld::isOrchestrationBody(unwrap(func));
}
bool pldFunctionIsChipOrchestration(MlirOperation func) {
  return pld::isChipOrchestration(unwrap(func));
}
bool pldFunctionIsHostOrchestrator(MlirOperation func) {
  return pld::isHostOrchestrator(unwrap(func));
}

int32_t pldDirectionFromString(MlirStringRef text) {
  if (auto d = pld::pl::symbolizeDirection(unwrap(text)))
    return static_cast<int32_t>(*d);
  return -1;
}

MlirStringRef pldDirectionToString(int32_t direction) {
  return wrap(pld::pl::stringifyDirection(
      static_cast<pld::pl::Direction>(direction)));
}

MlirStringRef pldModuleArch(MlirOperation module) {
  return wrap(pld::pl::stringifyArch(pld::moduleArch(unwrap(module))));
}

bool pldOperationIsCollective(MlirOperation op) {
  return unwrap(op)->hasTrait<pld::CollectiveOpTrait>();
}

intptr_t pldCollectiveOpNames(MlirContext context, MlirStringCallback callback,
                              void *userData) {
  intptr_t count = 0;
  for (mlir::RegisteredOperationName name :
       unwrap(context)->getRegisteredOperations()) {
    if (!name.hasTrait<pld::CollectiveOpTrait>())
      continue;
    llvm::StringRef text = name.getStringRef();
    callback(MlirStringRef{text.data(), text.size()}, userData);
    ++count;
  }
  return count;
}

bool pldOperationEquivalent(MlirOperation lhs, MlirOperation rhs) {
  return OperationEquivalence::isEquivalentTo(
      unwrap(lhs), unwrap(rhs), OperationEquivalence::IgnoreLocations);
}

void pldEmitDiagnostic(MlirLocation loc, int32_t severity,
                       MlirStringRef message, intptr_t numNotes,
                       const MlirLocation *noteLocs,
                       const MlirStringRef *notes) {
  Location location = unwrap(loc);
  InFlightDiagnostic diag = severity == 0   ? emitError(location)
                            : severity == 1 ? emitWarning(location)
                                            : emitRemark(location);
  diag << unwrap(message);
  for (intptr_t i = 0; i < numNotes; ++i)
    diag.attachNote(unwrap(noteLocs[i])) << unwrap(notes[i]);
}
