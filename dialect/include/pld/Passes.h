//===- Passes.h - the pld passes and the pld-lower-collectives pipeline ---===//
//
// The pass classes are generated from Passes.td; their runOnOperation bodies
// are Rust (src/passes/), reached through the cxx bridge (src/bridge/passes.cc).
//
//===----------------------------------------------------------------------===//
#ifndef PLD_PASSES_H
#define PLD_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

#include <memory>

namespace pld {

#define GEN_PASS_DECL
#include "pld/Passes.h.inc"

/// The options of the `pld-lower-collectives` pipeline, forwarded to its passes.
struct PldLowerCollectivesOptions
    : public mlir::PassPipelineOptions<PldLowerCollectivesOptions> {
  Option<uint64_t> aivCores{
      *this, "aiv-cores",
      llvm::cl::desc("lower-l2-tensor-collectives{aiv-cores}: the target's AIV "
                     "core count (0: unknown, not checked)"),
      llvm::cl::init(0)};
};

/// The design-order pipeline: lower-composite-ops, lower-l2-tensor-collectives,
/// legalize-spmd-launches, derive-call-directions,
/// auto-derive-task-dependencies, lower-host-tensor-collectives,
/// materialize-dist-tensor-ctx, each on the module `pm` is anchored on.
void buildPldLowerCollectivesPipeline(mlir::OpPassManager &pm,
                                      const PldLowerCollectivesOptions &options);

/// Registers every pld pass (`registerPldPasses`) and the
/// `pld-lower-collectives` pipeline in MLIR's global registry.
void registerPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "pld/Passes.h.inc"

} // namespace pld

#endif // PLD_PASSES_H
