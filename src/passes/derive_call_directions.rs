//! `--derive-call-directions` (DeriveCallDirections): materializes every
//! function's parameter directions as `pl.direction` argument attributes and
//! records the per-argument directions of every call-like op (`func.call`,
//! `pl.submit`, `pld.host.dispatch`) as `pl.arg_directions`.
//!
//! An explicit `pl.direction` wins; otherwise the direction is derived from
//! the body (see [`crate::directions`]). All directions are computed before
//! anything is written, so the result does not depend on the order in which
//! functions are visited, and a second run changes nothing.

use super::ModulePass;
use crate::{
    contiguity::ContiguityTrace,
    directions::{Direction, Directions},
    error::PldError,
    ir_util::{
        CALL_OPS, arg_attr_lists, function_map, module_body, module_functions, ops_named, set_arg_attr_lists,
        set_attr, string_array_attr,
    },
};
use melior::ir::{Identifier, attribute::StringAttribute, operation::OperationLike};

#[derive(Clone, Default)]
pub struct DeriveCallDirections;

impl ModulePass for DeriveCallDirections {
    const ARGUMENT: &'static str = "derive-call-directions";
    fn run(&mut self, module: melior::ir::operation::OperationRef) -> Result<(), PldError> {
        let body = module_body(&module)?;
        let mut directions = Directions::new(function_map(&module), ContiguityTrace::new(body));
        let functions = module_functions(&module);

        // Decide everything first.
        let params: Vec<Vec<Direction>> = functions.iter().map(|f| directions.of_function(f)).collect();
        let mut calls = Vec::new();
        for func in &functions {
            for call in ops_named(func, &CALL_OPS) {
                let dirs = directions.derived_call_arg_directions(&call);
                calls.push((call, dirs));
            }
        }

        // Then write.
        let context_ref = module.context();
        let context = crate::context::borrow(&context_ref);
        let direction = Identifier::new(context, "pl.direction");
        for (func, dirs) in functions.iter().zip(&params) {
            // One new arg_attrs array per function (not one per parameter:
            // that is quadratic in the parameter count).
            let mut lists = arg_attr_lists(func, dirs.len());
            for (list, d) in lists.iter_mut().zip(dirs) {
                list.retain(|(n, _)| *n != direction);
                list.push((direction, StringAttribute::new(context, d.as_str()).into()));
            }
            set_arg_attr_lists(func, &lists);
        }
        for (call, dirs) in calls {
            let strings: Vec<&str> = dirs.iter().map(|d| d.as_str()).collect();
            set_attr(&call, "pl.arg_directions", string_array_attr(context, &strings));
        }
        Ok(())
    }
}
