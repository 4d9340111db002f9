// reduce.cc - pld-reduce: MLIR's test-case reducer (mlirReduceMain) over the
// registry pld-opt parses with, every registered pass available to
// --opt-reduction-pass, and the pl/pld reduction patterns the
// --reduction-tree pass tries on the ops it keeps.
#include "pld/src/bridge/argv.h"
#include "pld/src/bridge/shim.h"

#include "pld/Dialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Reducer/ReductionPatternInterface.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"


namespace pld {
namespace {
using namespace mlir;

/// A collective's result is its window (the window-as-result contract: the
/// target, the signal for a barrier): replacing the result by that operand
/// leaves the collective unused, so the tree can then drop it, and whatever
/// reads the result reads the window directly. One pattern for every
/// collective, through the ops' CollectiveOpInterface.
struct ReplaceCollectiveByWindow
    : OpInterfaceRewritePattern<CollectiveOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(CollectiveOpInterface op,
                                PatternRewriter &rewriter) const override {
    Value window = op.getWindow();
    Value result = op->getResult(0);
    if (result.use_empty() || window.getType() != result.getType())
      return failure();
    rewriter.replaceAllUsesWith(result, window);
    return success();
  }
};

/// Drops what --derive-call-directions and --auto-derive-task-dependencies
/// attach to a task (`pl.task_id`, `pl.task_deps`, `pl.arg_directions`): the
/// passes derive them again, and a reproducer seldom needs them.
struct DropTaskAttributes : RewritePattern {
  explicit DropTaskAttributes(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  static constexpr llvm::StringLiteral kNames[] = {
      "pl.task_id", "pl.task_deps", "pl.arg_directions"};
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    bool dropped = false;
    for (llvm::StringLiteral name : kNames)
      if (op->hasAttr(name)) {
        rewriter.modifyOpInPlace(op, [&] { op->removeAttr(name); });
        dropped = true;
      }
    return success(dropped);
  }
};

/// A kernel whose body only returns parameters (pld's convention for a
/// kernel's window results: `return %stage, %counts`): the results of a
/// `func.call` / `pl.submit` of it are those operands. Forwarding them leaves
/// the task unused, so the next --reduction-tree round can drop it.
struct ForwardKernelResults : RewritePattern {
  ForwardKernelResults(llvm::StringRef rootName, MLIRContext *context)
      : RewritePattern(rootName, /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto callee = op->getAttrOfType<FlatSymbolRefAttr>("callee");
    if (!callee)
      return failure();
    auto func =
        SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, callee);
    if (!func || func.isExternal() || !func.getBody().hasOneBlock())
      return failure();
    Block &body = func.getBody().front();
    if (body.getOperations().size() != 1)
      return failure();
    auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
    if (!ret || ret.getNumOperands() != op->getNumResults())
      return failure();
    // func.call's operands are its arguments; pl.submit's are its leading ones.
    ValueRange operands = op->getOperands();
    bool changed = false;
    for (auto [result, returned] : llvm::zip(op->getResults(), ret.getOperands())) {
      auto param = dyn_cast<BlockArgument>(returned);
      if (!param || result.use_empty() || param.getArgNumber() >= operands.size())
        continue;
      Value operand = operands[param.getArgNumber()];
      if (operand.getType() != result.getType())
        continue;
      rewriter.replaceAllUsesWith(result, operand);
      changed = true;
    }
    return success(changed);
  }
};

struct PlReductionPatterns : DialectReductionPatternInterface {
  explicit PlReductionPatterns(Dialect *dialect)
      : DialectReductionPatternInterface(dialect) {}
  void populateReductionPatterns(RewritePatternSet &patterns) const override {
    patterns.add<DropTaskAttributes>(patterns.getContext());
    patterns.add<ForwardKernelResults>("func.call", patterns.getContext());
    patterns.add<ForwardKernelResults>("pl.submit", patterns.getContext());
  }
};

struct PldReductionPatterns : DialectReductionPatternInterface {
  explicit PldReductionPatterns(Dialect *dialect)
      : DialectReductionPatternInterface(dialect) {}
  void populateReductionPatterns(RewritePatternSet &patterns) const override {
    patterns.add<ReplaceCollectiveByWindow>(patterns.getContext());
  }
};
} // namespace

/// Attaches the pl / pld reduction patterns (pld-reduce only: the reducer
/// is the one client of the interface).
static void registerReductionPatterns(mlir::DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, pl::PlDialect *dialect) {
    dialect->addInterfaces<PlReductionPatterns>();
  });
  registry.addExtension(+[](MLIRContext *, dist::PldDialect *dialect) {
    dialect->addInterfaces<PldReductionPatterns>();
  });
}

namespace bridge {
int32_t reduce_main(rust::Slice<const rust::String> args) {
  Argv argv(args);
  // Every pld pass (registered by the caller) and the upstream transforms
  // are pipeline elements of --opt-reduction-pass='opt-pass=...'.
  register_upstream_passes();
  mlir::DialectRegistry registry;
  pld::registerDialects(registry);
  registerReductionPatterns(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(
             mlir::mlirReduceMain(argv.argc(), argv.argv.data(), context))
             ? 1
             : 0;
}
} // namespace bridge
} // namespace pld
