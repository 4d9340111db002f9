//! `--derive-call-directions` (DeriveCallDirections): materializes every
//! function's parameter directions as `pl.direction` argument attributes and
//! records the per-argument directions of every call-like op (`func.call`,
//! `pl.submit`, `pld.host.dispatch`) as `pl.arg_directions`.
//!
//! An explicit `pl.direction` wins; otherwise the direction is derived from
//! the body (see `crate::analysis::directions`). All directions are computed before
//! anything is written, so the result does not depend on the order in which
//! functions are visited, and a second run changes nothing.
//!
//! A parameter a `pl.submit` leaves to the runtime (`runtime_alloc_outs`) must
//! be `out` (the `pl.submit` verifier refuses any other explicit direction): a
//! body-less callee's undeclared one is derived `out`; if a callee's body
//! derives `in` or `inout` for it, the pass fails at the `pl.submit` (the
//! message of `--legalize-spmd-launches`) and writes nothing, rather than
//! print IR that does not verify.

use super::{Analyses, Effect, ModulePass};
use crate::analysis::directions::runtime_allocated_not_out;
use crate::{
    analysis::directions::{Direction, Directions},
    diag,
    error::PldError,
    ir::attributes::DiscardableAttrSetter,
    ir::calls::{call_arg_count, callee, runtime_alloc_outs},
    ir::handle_maps::NameMap,
    ir::op_kind::OpKind,
    ir::signature::{arg_attr_dicts, set_arg_attr_dicts},
    ir::walk::{module_body, module_functions},
};
use melior::ir::{
    Attribute, AttributeLike, Identifier,
    attribute::{ArrayAttribute, DictionaryAttribute, StringAttribute},
    operation::{OperationLike, OperationRef},
};

/// `--derive-call-directions` (see the module docs and `Passes.td`).
#[derive(Clone, Default)]
pub struct DeriveCallDirections;

impl ModulePass for DeriveCallDirections {
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        self.run_with(module, &mut Analyses::default())
    }
    fn run_with(&mut self, module: OperationRef, analyses: &mut Analyses) -> Result<(), PldError> {
        module_body(&module)?;
        let directions = analyses.directions(&module);
        let functions = module_functions(&module);

        // Decide everything first.
        let params: Vec<Vec<Direction>> = functions
            .iter()
            .map(|f| directions.of_function(f))
            .collect();
        let mut calls = Vec::new();
        let mut errors = 0;
        for func in &functions {
            for call in directions.ops_of_kind(func, OpKind::is_call) {
                if let Err(message) = check_runtime_allocated(&call, directions) {
                    diag::op_error(&call, &message);
                    errors += 1;
                }
                let dirs = directions.derived_call_arg_directions(&call);
                calls.push((call, dirs));
            }
        }
        if errors > 0 {
            return Err(PldError::Diagnosed(errors));
        }

        // Then write: one attribute per distinct direction (list), shared.
        let context_ref = module.context();
        let context = crate::ir::context_borrow::borrow(&context_ref);
        let direction = Identifier::new(context, "pl.direction");
        let strings: Vec<Attribute> = [Direction::In, Direction::Out, Direction::InOut]
            .iter()
            .map(|d| StringAttribute::new(context, d.as_str()).into())
            .collect();
        let string = |d: Direction| strings[d as usize];
        // Each parameter's dictionary with its direction set: a dictionary
        // that already says so is kept, the others are built once per
        // (dictionary, direction) and shared (dictionaries are uniqued).
        let mut with_direction: NameMap<(usize, Direction), Attribute> = NameMap::default();
        for (func, dirs) in functions.iter().zip(&params) {
            // One new arg_attrs array per function (not one per parameter:
            // that is quadratic in the parameter count).
            let mut dicts = arg_attr_dicts(func, dirs.len());
            for (dict, d) in dicts.iter_mut().zip(dirs) {
                let Ok(current) = DictionaryAttribute::try_from(*dict) else {
                    continue;
                };
                if current.element_by_name("pl.direction") == Some(string(*d)) {
                    continue;
                }
                *dict = *with_direction
                    .entry((dict.to_raw().ptr as usize, *d))
                    .or_insert_with(|| {
                        let mut list: Vec<(Identifier, Attribute)> = (0..current.len())
                            .filter_map(|j| current.element(j).ok())
                            .filter(|(n, _)| *n != direction)
                            .collect();
                        list.push((direction, string(*d)));
                        DictionaryAttribute::new(context, &list).into()
                    });
            }
            set_arg_attr_dicts(func, &dicts);
        }
        let mut lists: NameMap<Vec<Direction>, Attribute> = NameMap::default();
        let arg_directions = Identifier::new(context, "pl.arg_directions");
        let mut setter = DiscardableAttrSetter::default();
        for (call, dirs) in calls {
            let attr = *lists.entry(dirs).or_insert_with_key(|dirs| {
                let items: Vec<Attribute> = dirs.iter().map(|d| string(*d)).collect();
                ArrayAttribute::new(context, &items).into()
            });
            setter.set(&call, arg_directions, attr);
        }
        Ok(())
    }
    fn effect(&self) -> Effect {
        // Attributes only: the directions it wrote are the ones it kept.
        Effect::KeepsAnalyses
    }
}

/// `Err` (the message) when a parameter `call` -- a `pl.submit` -- leaves to
/// the runtime has a direction other than `out`.
fn check_runtime_allocated<'c, 'a>(
    call: &OperationRef<'c, 'a>,
    directions: &mut Directions<'c, 'a>,
) -> Result<(), String> {
    let outs = runtime_alloc_outs(call).len();
    if outs == 0 {
        return Ok(());
    }
    let Some(name) = callee(call) else {
        return Ok(());
    };
    let Some(func) = directions.functions().get(name).copied() else {
        return Ok(());
    };
    let params = directions.of_function(&func);
    let first = call_arg_count(call);
    for i in first..first + outs {
        if let Some(&d) = params.get(i)
            && d != Direction::Out
        {
            return Err(runtime_allocated_not_out(&func, name, i, d));
        }
    }
    Ok(())
}
