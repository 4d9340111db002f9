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

// Every pipeline of Passes.td (PassPipeline defs): its options struct, e.g.
// PldLowerCollectivesOptions, and its builder, e.g.
// buildPldLowerCollectivesPipeline (dialect/PassShells.cmake).
#define PLD_GEN_PIPELINE_DECLS
#include "pld/PassShells.h.inc"

/// Registers every pld pass (`registerPldPasses`) and pipeline
/// (`pld-lower-collectives`) in MLIR's global registry.
void registerPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "pld/Passes.h.inc"

} // namespace pld

#endif // PLD_PASSES_H
