/*===- pld-c/Dialects.h - C API of the pl / pld dialects ------------------===*/
/* For C and C++ drivers (and melior users through mlir-sys handles).       */
#ifndef PLD_C_DIALECTS_H
#define PLD_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"
#include "mlir-c/Pass.h"
#include "pld-c/Registration.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Pl, pl);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Pld, pld);

/* pldRegisterDialects, pldRegisterPasses, pldRegisterAllPasses: see
 * pld-c/Registration.h (the functions the shared library exports). */

/* Tensor-like types (!pl.tensor, !pld.dtensor). Layout: 0 nd, 1 dn, 2 nz. */
MLIR_CAPI_EXPORTED bool pldTypeIsTensor(MlirType type);
MLIR_CAPI_EXPORTED bool pldTypeIsDTensor(MlirType type);
MLIR_CAPI_EXPORTED bool pldTypeIsCommCtx(MlirType type);
MLIR_CAPI_EXPORTED bool pldTypeIsWindowBuffer(MlirType type);
/* The !pld.comm_ctx type (the pld dialect must be loaded in ctx). */
MLIR_CAPI_EXPORTED MlirType pldCommCtxTypeGet(MlirContext ctx);
/* -1 for an unranked type. */
MLIR_CAPI_EXPORTED intptr_t pldTensorLikeGetRank(MlirType type);
/* Dimension `pos`; INT64_MIN (MLIR's kDynamic) for `?`. */
MLIR_CAPI_EXPORTED int64_t pldTensorLikeGetDim(MlirType type, intptr_t pos);
MLIR_CAPI_EXPORTED MlirType pldTensorLikeGetElementType(MlirType type);
MLIR_CAPI_EXPORTED uint32_t pldTensorLikeGetLayout(MlirType type);
MLIR_CAPI_EXPORTED bool pldTensorLikeHasValid(MlirType type);
MLIR_CAPI_EXPORTED bool pldTensorLikeHasStrides(MlirType type);
/* One call per query (issue #16): 0 for a type that is not tensor-like,
 * 1 for !pl.tensor, 2 for !pld.dtensor. */
MLIR_CAPI_EXPORTED int pldTypeGetTensorLikeKind(MlirType type);
/* Everything the getters above return, in one call. `shape` points into the
 * type's uniqued storage (valid as long as the context); `rank` is -1 for an
 * unranked type. */
typedef struct {
  int kind; /* as pldTypeGetTensorLikeKind; 0: nothing else is set */
  intptr_t rank;
  const int64_t *shape; /* INT64_MIN (kDynamic) for `?` */
  MlirType elementType;
  uint32_t layout;
  bool hasValid;
  bool hasStrides;
  const int64_t *strides; /* `rank` explicit strides (uniqued storage), NULL when packed */
} PldTensorLikeInfo;
MLIR_CAPI_EXPORTED PldTensorLikeInfo pldTypeGetTensorLikeInfo(MlirType type);
/* Sets `n` discardable attributes of `op` at once: one new attribute
 * dictionary instead of one per attribute (issue #16). */
MLIR_CAPI_EXPORTED void pldOperationSetDiscardableAttrs(
    MlirOperation op, intptr_t n, const MlirIdentifier *names,
    const MlirAttribute *values);
/* The dictionary of `op`'s discardable attributes, and setting it whole
 * (attribute dictionaries are uniqued: a pass that gives many ops the same
 * attributes builds each resulting dictionary once, issue #16). */
MLIR_CAPI_EXPORTED MlirAttribute
pldOperationGetDiscardableAttrDictionary(MlirOperation op);
MLIR_CAPI_EXPORTED void
pldOperationSetDiscardableAttrDictionary(MlirOperation op,
                                         MlirAttribute dictionary);
/* `dictionary` (a DictionaryAttr) with `n` entries set (added or replaced). */
MLIR_CAPI_EXPORTED MlirAttribute pldDictionaryAttrWith(
    MlirAttribute dictionary, intptr_t n, const MlirIdentifier *names,
    const MlirAttribute *values);
/* A new, detached `pl.cast` of `source` to `type` (built by its ODS builder:
 * no op-name lookup by string, no generic OperationState copy, issue #16). */
MLIR_CAPI_EXPORTED MlirOperation pldCastCreate(MlirLocation loc,
                                               MlirValue source, MlirType type);
/* Replaces the collective `op` through `rewriter` (a PatternRewriter): a
 * `pl.cast` of each of its first `n` operands whose type is not `params[i]`,
 * a `func.call` of `callee` (a FlatSymbolRefAttr) returning `result` with
 * the discardable attributes `discardable` (a DictionaryAttr, or null), and
 * a `pl.cast` of the call's result back to `op`'s result type when they
 * differ. Returns the call. One C call per collective: the ODS builders,
 * no op-name lookup by string (issue #23, the mixed pipeline's cost). */
MLIR_CAPI_EXPORTED MlirOperation pldRewriteCollectiveAsCall(
    MlirPatternRewriter rewriter, MlirOperation op, MlirAttribute callee,
    intptr_t n, const MlirType *params, MlirType result,
    MlirAttribute discardable);
/* Replaces `op` (attached to a block) by a copy whose operand list has `n`
 * operands inserted before operand `index`, and returns the copy: its uses,
 * attributes, properties and regions are the old op's, its operands are
 * allocated inline (Operation::insertOperands would keep the old inline
 * operands and allocate a second, out-of-line list). */
MLIR_CAPI_EXPORTED MlirOperation pldOperationRebuildWithOperands(
    MlirOperation op, intptr_t index, intptr_t n, const MlirValue *values);
/* Builds a normalized unranked type of `elementType`. */
MLIR_CAPI_EXPORTED MlirType pldTensorLikeGetUnranked(bool distributed,
                                                     MlirType elementType);

/* The pl.* vocabularies (PlEnums.td): a function's kind predicates, as the
 * verifier applies them (ir.md's "CHIP orchestration body", "HOST
 * orchestrator"). */
MLIR_CAPI_EXPORTED bool pldFunctionIsOrchestrationBody(MlirOperation func);
MLIR_CAPI_EXPORTED bool pldFunctionIsChipOrchestration(MlirOperation func);
MLIR_CAPI_EXPORTED bool pldFunctionIsHostOrchestrator(MlirOperation func);
/* A pl.direction spelling's value (0 in, 1 out, 2 inout), -1 if it is none;
 * and a value's spelling. */
MLIR_CAPI_EXPORTED int32_t pldDirectionFromString(MlirStringRef text);
MLIR_CAPI_EXPORTED MlirStringRef pldDirectionToString(int32_t direction);
/* A module's pl.arch spelling ("a2a3" when absent). */
MLIR_CAPI_EXPORTED MlirStringRef pldModuleArch(MlirOperation module);

/* Whether `op` is a managed collective (the ODS trait Pld_CollectiveOp). */
MLIR_CAPI_EXPORTED bool pldOperationIsCollective(MlirOperation op);

/* Calls `callback(name, userData)` for every registered op of `context` that
 * is a managed collective, in name order; returns how many. */
MLIR_CAPI_EXPORTED intptr_t pldCollectiveOpNames(MlirContext context,
                                                 MlirStringCallback callback,
                                                 void *userData);

/* Structural equality of two ops (attributes, types, operands, regions),
 * ignoring locations (OperationEquivalence::IgnoreLocations). */
MLIR_CAPI_EXPORTED bool pldOperationEquivalent(MlirOperation lhs,
                                               MlirOperation rhs);

/* The one way pld emits a diagnostic: an error (0), warning (1) or remark
 * (2) at `loc` with `numNotes` attached notes (a collective, its dispatch,
 * its windows...). */
MLIR_CAPI_EXPORTED void pldEmitDiagnostic(MlirLocation loc, int32_t severity,
                                          MlirStringRef message,
                                          intptr_t numNotes,
                                          const MlirLocation *noteLocs,
                                          const MlirStringRef *notes);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_DIALECTS_H */
