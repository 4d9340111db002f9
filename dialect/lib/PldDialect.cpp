//===- PldDialect.cpp - the pld dialect and its types ----------------------===//

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
// Discardable attributes: pld defines none
//===----------------------------------------------------------------------===//

/// The error for a `pld.*` discardable attribute `name` (`where`: "attribute",
/// "argument attribute", "result attribute"), pointing at the `pl` spelling.
static LogicalResult unknownPldAttribute(Operation *op, StringRef where,
                                         StringRef name) {
  StringRef rest = name.drop_front(/*"pld."*/ 4);
  return op->emitOpError()
         << "unknown " << where << " '" << name
         << "' of the pld dialect (it defines none; the function and call "
            "attributes are the pl dialect's: 'pl."
         << rest << "'?)";
}

LogicalResult PldDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  return unknownPldAttribute(op, "attribute", attr.getName().getValue());
}

LogicalResult PldDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned,
                                                   NamedAttribute attr) {
  return unknownPldAttribute(op, "argument attribute",
                             attr.getName().getValue());
}

LogicalResult PldDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                      unsigned,
                                                      NamedAttribute attr) {
  return unknownPldAttribute(op, "result attribute",
                             attr.getName().getValue());
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
