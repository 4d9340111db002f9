//===- Dialects.h - the pl and pld dialects -------------------------------===//
#ifndef PLD_DIALECTS_H
#define PLD_DIALECTS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "pld/TensorLike.h"

#include "pld/PlEnums.h.inc"
#include "pld/PlOpsDialect.h.inc"
#include "pld/PldOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "pld/PlOpsTypes.h.inc"
#define GET_TYPEDEF_CLASSES
#include "pld/PldOpsTypes.h.inc"

namespace pld {
/// How a family collective's target rows relate to NR and its input
/// (family.md's Shapes): the `rows` of its Pld_FamilyOp def.
enum class FamilyRows {
  Any,          // allreduce, broadcast, reduce, barrier: any shape
  MultipleOfNR, // reduce_scatter: [NR*M, row...]
  GatherNR,     // allgather, gather: input [M, row...], target [NR*M, row...]
  SameAsInput,  // all_to_all: input and target both [NR*M, row...]
  ScatterNR,    // scatter: input [NR*M, row...], target [M, row...]
  Permute,      // permute: input and target the same [M, row...], `pairs`
};

/// The family's type deducer (docs/spec/family.md, Checks): every family
/// op's verify(), generated from its def in PldOps.td.
llvm::LogicalResult verifyFamilyOp(mlir::Operation *op, FamilyRows rows,
                                   bool allowsI8);

/// The trait of every managed collective op (`Pld_CollectiveOp` in ODS): the
/// one place that says which ops are collectives. Rust asks through the C API
/// (`pldOperationIsCollective`, `pldCollectiveOpNames`), and its variant
/// table is checked against it.
template <typename ConcreteType>
class CollectiveOpTrait
    : public mlir::OpTrait::TraitBase<ConcreteType, CollectiveOpTrait> {};
} // namespace pld

#include "pld/PldOpsInterfaces.h.inc"

#define GET_OP_CLASSES
#include "pld/PlOps.h.inc"
#define GET_OP_CLASSES
#include "pld/PldOps.h.inc"

namespace mlir {
class DialectRegistry;
}

namespace pld {
/// Inserts the pl and pld dialects and the upstream dialects pld's IR uses
/// (func, arith, scf, cf) into `registry`.
void registerDialects(mlir::DialectRegistry &registry);

/// The function-kind vocabulary of `pl.func_kind` / `pl.level`.
llvm::StringRef getFuncKind(mlir::Operation *func); // "" when absent
bool isHostLevel(mlir::Operation *func);
/// `pl.func_kind` as its enum (nullopt when absent or not a known kind).
std::optional<pl::FuncKind> funcKindOf(mlir::Operation *func);
/// An `orchestration` or `graph` function, at either level.
bool isOrchestrationBody(mlir::Operation *func);
/// A CHIP orchestration body: an orchestration or graph function whose level
/// is chip (ir.md).
bool isChipOrchestration(mlir::Operation *func);
/// A HOST orchestrator: an orchestration function at host level.
bool isHostOrchestrator(mlir::Operation *func);
/// A module's `pl.arch` (a2a3 when absent or unknown: the verifier refuses
/// unknown values).
pl::Arch moduleArch(mlir::Operation *module);

/// `pl.require` / `pld.host.require`: the error code the generated C++
/// returns is an `int` and 0 is success, so `attr` (the op's code attribute,
/// read signed: I64Attr's accessor is unsigned) must be in [1, 2^31-1].
llvm::LogicalResult verifyErrorCode(mlir::Operation *op, llvm::StringRef name,
                                    mlir::IntegerAttr attr);
/// pl.require / pld.host.require: one non-empty name in `value_names` per
/// `seen(...)` value, and no names without values.
llvm::LogicalResult verifySeenValues(mlir::Operation *op,
                                     mlir::ValueRange values,
                                     mlir::ArrayAttr names);
} // namespace pld

#endif // PLD_DIALECTS_H
