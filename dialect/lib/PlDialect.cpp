//===- PlDialect.cpp - the pl dialect: attribute verification, types, registration ---===//

#include "pld/Dialects.h"

#include <limits>

#include "mlir/IR/Builders.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace pld;
using namespace pld::pl;

#include "pld/PlEnums.cpp.inc"
#include "pld/PlOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/PlOpsTypes.cpp.inc"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

void PlDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "pld/PlOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "pld/PlOps.cpp.inc"
      >();
}

StringRef pld::getFuncKind(Operation *func) {
  if (auto kind = func->getAttrOfType<StringAttr>("pl.func_kind"))
    return kind.getValue();
  return "";
}

bool pld::isHostLevel(Operation *func) {
  auto level = func->getAttrOfType<StringAttr>("pl.level");
  return level && pl::symbolizeLevel(level.getValue()) == pl::Level::Host;
}

std::optional<pl::FuncKind> pld::funcKindOf(Operation *func) {
  if (auto kind = func->getAttrOfType<StringAttr>("pl.func_kind"))
    return pl::symbolizeFuncKind(kind.getValue());
  return std::nullopt;
}

bool pld::isOrchestrationBody(Operation *func) {
  std::optional<pl::FuncKind> kind = funcKindOf(func);
  return kind == pl::FuncKind::Orchestration || kind == pl::FuncKind::Graph;
}

bool pld::isChipOrchestration(Operation *func) {
  return isOrchestrationBody(func) && !isHostLevel(func);
}

bool pld::isHostOrchestrator(Operation *func) {
  return funcKindOf(func) == pl::FuncKind::Orchestration && isHostLevel(func);
}

pl::Arch pld::moduleArch(Operation *module) {
  if (auto arch = module->getAttrOfType<StringAttr>("pl.arch"))
    if (std::optional<pl::Arch> known = pl::symbolizeArch(arch.getValue()))
      return *known;
  return pl::Arch::A2A3;
}

/// Every spelling of an enum of PlEnums.td, in case order.
template <typename Enum>
static SmallVector<StringRef> spellings(uint64_t max,
                                        StringRef (*stringify)(Enum)) {
  SmallVector<StringRef> all;
  for (uint64_t v = 0; v <= max; ++v)
    all.push_back(stringify(static_cast<Enum>(v)));
  return all;
}
static const SmallVector<StringRef> kFuncKinds =
    spellings(pl::getMaxEnumValForFuncKind(), pl::stringifyFuncKind);
static const SmallVector<StringRef> kLevels =
    spellings(pl::getMaxEnumValForLevel(), pl::stringifyLevel);
static const SmallVector<StringRef> kDirections =
    spellings(pl::getMaxEnumValForDirection(), pl::stringifyDirection);
static const SmallVector<StringRef> kArchs =
    spellings(pl::getMaxEnumValForArch(), pl::stringifyArch);

static bool isOneOf(StringRef value, ArrayRef<StringRef> allowed) {
  return llvm::is_contained(allowed, value);
}

/// Checks that `attr` is a string from `allowed`.
static LogicalResult verifyEnumString(Operation *op, StringRef name,
                                      Attribute attr,
                                      ArrayRef<StringRef> allowed) {
  auto str = dyn_cast<StringAttr>(attr);
  if (str && isOneOf(str.getValue(), allowed))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "attribute '" << name << "' must be one of ";
  llvm::interleaveComma(allowed, diag,
                        [&](StringRef s) { diag << '"' << s << '"'; });
  diag << ", got " << attr;
  return diag;
}

LogicalResult PlDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto requireFunction = [&]() -> LogicalResult {
    if (isa<FunctionOpInterface>(op))
      return success();
    return op->emitOpError() << "attribute '" << name
                             << "' is only valid on a function";
  };
  auto requireType = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitOpError() << "attribute '" << name << "' must be " << what
                             << ", got " << value;
  };
  auto isI64 = [&](int64_t min) {
    auto i = dyn_cast<IntegerAttr>(value);
    return i && i.getType().isSignlessInteger(64) && i.getInt() >= min;
  };

  if (name == "pl.func_kind")
    return failure(failed(requireFunction()) ||
                   failed(verifyEnumString(op, name, value, kFuncKinds)));
  if (name == "pl.level") {
    if (failed(requireFunction()) ||
        failed(verifyEnumString(op, name, value, kLevels)))
      return failure();
    // Only an orchestrator runs on the host: the passes lower a HOST-level
    // function only as a HOST orchestrator, and pld-translate renders one
    // only as that, so any other kind there would be accepted by one tool
    // and refused (or dropped) by the other.
    auto kind = op->getAttrOfType<StringAttr>("pl.func_kind");
    if (cast<StringAttr>(value).getValue() == "host" &&
        (!kind || kind.getValue() != "orchestration")) {
      InFlightDiagnostic diag =
          op->emitOpError()
          << "attribute 'pl.level' = \"host\" needs pl.func_kind = "
             "\"orchestration\" (only an orchestrator runs on the host), got ";
      if (kind)
        diag << "pl.func_kind \"" << kind.getValue() << "\"";
      else
        diag << "no pl.func_kind";
      return diag;
    }
    return success();
  }
  if (name == "pl.kernel_source" || name == "pl.builtin_template_dir" ||
      name == "pl.builtin_template_vars")
    return failure(failed(requireFunction()) ||
                   failed(requireType(isa<StringAttr>(value), "a string")));
  if (name == "pl.require_contiguous_operands")
    return failure(failed(requireFunction()) ||
                   failed(requireType(isa<UnitAttr>(value), "a unit attribute")));
  if (name == "pl.sync_start")
    return requireType(isa<UnitAttr>(value), "a unit attribute");
  if (name == "pl.core_num")
    return requireType(isI64(1), "an i64 >= 1");
  if (name == "pl.task_id")
    return requireType(isI64(0), "an i64 >= 0");
  if (name == "pl.abi_arg_count")
    return requireType(isI64(0), "an i64 >= 0");
  if (name == "pl.task_deps") {
    auto array = dyn_cast<ArrayAttr>(value);
    bool ok = array && llvm::all_of(array, [](Attribute a) {
                auto i = dyn_cast<IntegerAttr>(a);
                return i && i.getType().isSignlessInteger(64) && i.getInt() >= 0;
              });
    return requireType(ok, "an array of i64 task ids");
  }
  if (name == "pl.arg_directions") {
    auto array = dyn_cast<ArrayAttr>(value);
    bool ok = array && llvm::all_of(array, [](Attribute a) {
                auto s = dyn_cast<StringAttr>(a);
                return s && isOneOf(s.getValue(), kDirections);
              });
    if (failed(requireType(ok, "an array of \"in\" / \"out\" / \"inout\" strings")))
      return failure();
    // One direction per argument the call passes (a pld.host.dispatch's
    // device and core_num are not arguments: its own pass checks those).
    if (isa<func::CallOp, SubmitOp>(op) &&
        array.size() != op->getNumOperands())
      return op->emitOpError()
             << "attribute 'pl.arg_directions' must have one entry per "
                "argument ("
             << op->getNumOperands() << "), got " << array.size();
    return success();
  }
  if (name == "pl.arch") {
    if (!isa<ModuleOp>(op))
      return op->emitOpError() << "attribute 'pl.arch' is only valid on a "
                                  "builtin.module";
    return verifyEnumString(op, name, value, kArchs);
  }
  if (name == "pl.direction")
    return op->emitOpError() << "attribute 'pl.direction' is an argument "
                                "attribute, not an operation attribute";
  return op->emitOpError() << "unknown attribute '" << name
                           << "' of the pl dialect";
}

LogicalResult PlDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == "pl.direction")
    return verifyEnumString(op, name, attr.getValue(), kDirections);
  return op->emitOpError() << "unknown argument attribute '" << name
                           << "' of the pl dialect (argument " << argIndex
                           << ")";
}

LogicalResult PlDialect::verifyRegionResultAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned resultIndex,
                                                     NamedAttribute attr) {
  return op->emitOpError() << "unknown result attribute '"
                           << attr.getName().getValue()
                           << "' of the pl dialect (result " << resultIndex
                           << ")";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type pl::TensorType::parse(AsmParser &parser) {
  pld::detail::TensorLikeParams p;
  if (failed(pld::detail::parseTensorLike(parser, p, "!pl.tensor")))
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), p.ranked, p.shape, p.elementType,
                    p.layout, p.valid, p.strides);
}

void pl::TensorType::print(AsmPrinter &printer) const {
  pld::detail::printTensorLike(printer, getInfo());
}

LogicalResult pl::TensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 bool ranked, ArrayRef<int64_t> shape,
                                 Type elementType, Layout layout,
                                 ArrayRef<int64_t> valid,
                                 ArrayRef<int64_t> strides) {
  return pld::detail::verifyTensorLike(
      emitError, {ranked, shape, elementType, layout, valid, strides},
      "!pl.tensor");
}

pl::TensorType pl::TensorType::getNormalized(Type elementType, bool ranked,
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

pl::TensorType pl::TensorType::getNormalizedChecked(
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
// Registration
//===----------------------------------------------------------------------===//

namespace {
/// `func`'s inliner interface with one rule added: a call of a kernel
/// (`pl.func_kind` = "aiv", "aic" or "incore") is a task whose body is a stub
/// (its implementation is the kernel source), so it is never inlined; every
/// other single-block function inlines as upstream's FuncInlinerInterface
/// does. Registered only where no other inliner interface for `func` is.
struct PldFuncInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    std::optional<pl::FuncKind> kind = funcKindOf(callable);
    return kind != pl::FuncKind::Aiv && kind != pl::FuncKind::Aic &&
           kind != pl::FuncKind::InCore;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  // A multi-block callee: each return branches to the block after the call.
  void handleTerminator(Operation *op, Block *newDest) const final {
    auto ret = cast<func::ReturnOp>(op);
    OpBuilder builder(op);
    builder.create<cf::BranchOp>(op->getLoc(), newDest, ret.getOperands());
    op->erase();
  }
  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto ret = cast<func::ReturnOp>(op);
    for (auto [value, replacement] : llvm::zip(valuesToRepl, ret.getOperands()))
      value.replaceAllUsesWith(replacement);
  }
};
/// The pl and pld ops carry no state of their own (a view, a cast, a task
/// launch, a window of a buffer): they may be inlined with the function that
/// holds them, so `--inline` folds an orchestration helper into its caller.
/// (Calls into kernels stay calls: PldFuncInlinerInterface refuses those.)
struct PlOpsInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void pld::registerDialects(DialectRegistry &registry) {
  // pld's IR and every pipeline around it use these (pld-opt registers the
  // same): one call gives an embedding driver everything.
  // ub: what upstream folds emit (ub.poison) must read back in (legalize
  // then refuses it at its op).
  registry.insert<pl::PlDialect, dist::PldDialect, func::FuncDialect,
                  arith::ArithDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  ub::UBDialect>();
  registry.addExtension(+[](MLIRContext *, pl::PlDialect *dialect) {
    dialect->addInterfaces<PlOpsInlinerInterface>();
  });
  registry.addExtension(+[](MLIRContext *, dist::PldDialect *dialect) {
    dialect->addInterfaces<PlOpsInlinerInterface>();
  });
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *dialect) {
    if (!dialect->getRegisteredInterface<DialectInlinerInterface>()) {
      ctx->getOrLoadDialect<cf::ControlFlowDialect>();
      dialect->addInterfaces<PldFuncInlinerInterface>();
    }
  });
}
