//===- TensorConstraints.td - type constraints shared by pl and pld ops ---===//
//
// Written as C++ predicates (not TypeDef references) so that each dialect's
// .td file generates only its own types.

#ifndef PLD_TENSORCONSTRAINTS_TD
#define PLD_TENSORCONSTRAINTS_TD

include "mlir/IR/OpBase.td"

def Pl_AnyTensorLike : Type<
    CPred<"::pld::isTensorLike($_self)">,
    "!pl.tensor or !pld.dtensor", "::mlir::Type">;

def Pld_AnyDTensor : Type<
    CPred<"::llvm::isa<::pld::dist::DTensorType>($_self)">,
    "!pld.dtensor", "::pld::dist::DTensorType">;

#endif // PLD_TENSORCONSTRAINTS_TD
