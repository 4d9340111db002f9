//! `--pld-test-count-functions`: a test pass that counts the module's
//! functions (`private-only`: the private ones) into its statistic. It emits
//! no diagnostics and changes nothing.

use super::{Effect, ModulePass, PldTestCountFunctionsOptions, PldTestCountFunctionsStatistics};
use crate::{error::PldError, ir::walk::module_functions};
use melior::ir::{attribute::StringAttribute, operation::OperationLike, operation::OperationRef};

/// `--pld-test-count-functions` (see `Passes.td`).
#[derive(Clone, Default)]
pub struct PldTestCountFunctions {
    private_only: bool,
    statistics: PldTestCountFunctionsStatistics,
}

impl ModulePass for PldTestCountFunctions {
    fn set_options(&mut self, options: &PldTestCountFunctionsOptions) {
        self.private_only = options.private_only;
    }
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        let private = |f: &OperationRef| {
            f.attribute("sym_visibility")
                .ok()
                .and_then(|a| StringAttribute::try_from(a).ok())
                .is_some_and(|a| a.value() == "private")
        };
        self.statistics.functions_counted = module_functions(&module)
            .iter()
            .filter(|f| !self.private_only || private(f))
            .count() as u64;
        Ok(())
    }
    fn statistics(&self) -> PldTestCountFunctionsStatistics {
        self.statistics
    }
    fn effect(&self) -> Effect {
        Effect::Unchanged
    }
}
