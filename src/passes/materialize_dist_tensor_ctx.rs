//! `--materialize-dist-tensor-ctx` (MaterializeDistTensorCtx): gives every
//! function one `!pld.comm_ctx` parameter per `!pld.dtensor` parameter,
//! appended after all existing parameters in the order of the dtensor
//! parameters (`pl.direction = "in"`), and threads the matching context at
//! every call site (`func.call`, `pl.submit`, `pld.host.dispatch`).
//!
//! The synthesized all_to_all_v kernel thus has `args[0..4]` tensors,
//! `args[5]` the context of `target`, `args[6..7]` those of `signal` and
//! `recv_counts` (the seed's ABI table).
//!
//! Where a caller's context comes from:
//! - a `pld.host.dispatch` to device `%dev` passes, for each context
//!   parameter, `pld.host.device_ctx %dev in %d` of the domain `%d` of the
//!   window bound to the matching dtensor parameter (domains.md; one op per
//!   (dispatch, domain), inserted right before it); the implicit domain's
//!   (buffers without a domain, or a value that resolves to no single
//!   domain) prints without `in`, as before;
//! - any other call passes the caller's own context argument: the one of the
//!   caller's dtensor parameter that the argument aliases (`crate::analysis::alias`),
//!   else (one communication domain per function is the precondition) the
//!   caller's first context argument;
//! - a caller with no dtensor parameter and no device is an error.
//!
//! A function that already has `!pld.comm_ctx` parameters is taken as
//! materialized when they are exactly one per dtensor parameter, all last
//! (anything else is an error at the function), and a call that
//! already passes every parameter is left alone, so a second run changes
//! nothing. Every call is planned before any signature changes.

use super::{MaterializeDistTensorCtxStatistics, ModulePass};
use crate::ir::at::{BlockAt as _, OpAt as _};
use crate::{
    diag,
    error::PldError,
    ir::attributes::{DiscardableAttrSetter, extend_array_attr, is_string_array},
    ir::calls::{append_call_args, call_arg_count, callee},
    ir::func_kind::{is_host_level, symbol_name},
    ir::handle_maps::{NameMap, PtrMap},
    ir::mutation::insert_before,
    ir::op_kind::{OpKind, op_id, op_kind},
    ir::signature::{append_params, entry_block, param_types},
    ir::types::{comm_ctx_type, is_comm_ctx, is_dtensor},
    ir::walk::{module_body, module_functions},
};
use melior::ir::{
    Attribute, Identifier, Type, ValueLike,
    attribute::{DictionaryAttribute, StringAttribute},
    operation::{OperationLike, OperationRef},
};

/// The pass, with what its last run counted.
#[derive(Clone, Default)]
pub struct MaterializeDistTensorCtx {
    statistics: MaterializeDistTensorCtxStatistics,
}

impl ModulePass for MaterializeDistTensorCtx {
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        self.run_with(module, &mut super::Analyses::default())
    }
    fn run_with(
        &mut self,
        module: OperationRef,
        analyses: &mut super::Analyses,
    ) -> Result<(), PldError> {
        self.statistics = materialize(module, analyses)?;
        Ok(())
    }
    fn statistics(&self) -> MaterializeDistTensorCtxStatistics {
        self.statistics
    }
}

/// The context layout of one function.
#[derive(Clone, Debug)]
struct CtxLayout {
    /// Parameter indices of the dtensor parameters, in order.
    dtensors: Vec<usize>,
    /// Index of the first context parameter.
    base: usize,
    /// Already has its context parameters.
    materialized: bool,
}

impl CtxLayout {
    /// The layout of a function's parameter types, or why its existing
    /// `!pld.comm_ctx` parameters are not this pass's layout (one per
    /// dtensor parameter, all of them last).
    fn of(types: &[Type]) -> Result<Self, String> {
        let dtensors: Vec<usize> = types
            .iter()
            .enumerate()
            .filter(|(_, t)| is_dtensor(**t))
            .map(|(i, _)| i)
            .collect();
        let contexts = types.iter().filter(|t| is_comm_ctx(**t)).count();
        let materialized = contexts > 0;
        let base = if materialized {
            types.len().saturating_sub(dtensors.len())
        } else {
            types.len()
        };
        if materialized
            && !dtensors.is_empty()
            && (contexts != dtensors.len() || !types[base..].iter().all(|t| is_comm_ctx(*t)))
        {
            return Err(diag::msg!(
                "must have exactly one !pld.comm_ctx parameter per !pld.dtensor parameter ({}), after all its other \
                 parameters, got {contexts} !pld.comm_ctx parameter(s)",
                dtensors.len()
            ));
        }
        Ok(Self {
            dtensors,
            base,
            materialized,
        })
    }
}

/// Where one context argument of a call comes from.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// The caller's context parameter `k` (of its k-th dtensor parameter).
    Caller(usize),
    /// `pld.host.device_ctx` of the dispatch's device, in the domain of the
    /// window bound to the matching dtensor parameter (the `pld.comm_domain`
    /// op's key; `None`: the implicit domain).
    Device(Option<usize>),
}

/// Returns the counts of the pass's statistics.
fn materialize(
    module: OperationRef,
    analyses: &mut super::Analyses,
) -> Result<MaterializeDistTensorCtxStatistics, PldError> {
    module_body(&module)?;
    let functions = module_functions(&module);
    // The pipeline's alias classes and trace (kept since derive-call-directions
    // when nothing in between changed the IR).
    let directions = analyses.directions(&module);
    let mut errors = 0;
    let mut layouts: NameMap<String, CtxLayout> = NameMap::default();
    for func in &functions {
        let Some(name) = symbol_name(func) else {
            continue;
        };
        match CtxLayout::of(&param_types(func)) {
            Ok(layout) => {
                layouts.insert(name.to_string(), layout);
            }
            Err(why) => {
                diag::op_error(
                    func,
                    &format!("cannot materialize the CommContexts of @{name}: @{name} {why}"),
                );
                errors += 1;
            }
        }
    }
    if errors > 0 {
        return Err(PldError::Diagnosed(errors));
    }

    // Plan every call.
    let mut plans: Vec<(OperationRef, Vec<Source>)> = Vec::new();
    let mut windows = crate::analysis::provenance::RootSets::default();
    for caller in &functions {
        let calls = directions.ops_of_kind(caller, crate::ir::op_kind::OpKind::is_call);
        if calls.is_empty() {
            continue;
        }
        let Some(caller_layout) = symbol_name(caller).and_then(|n| layouts.get(n)) else {
            continue;
        };
        let mut classes = directions.take_classes(caller);
        let caller_classes: Vec<usize> = entry_block(caller)
            .map(|entry| {
                caller_layout
                    .dtensors
                    .iter()
                    .filter_map(|&p| entry.argument_at(p))
                    .map(|a| classes.class(a.into()))
                    .collect()
            })
            .unwrap_or_default();
        for call in calls {
            let Some(callee) = callee(&call) else {
                continue;
            };
            let Some(layout) = layouts.get(callee) else {
                continue;
            };
            if layout.dtensors.is_empty() {
                continue;
            }
            let provided = call_arg_count(&call);
            if provided == layout.base + layout.dtensors.len() {
                continue; // already threaded
            }
            if provided != layout.base {
                diag::op_error(
                    &call,
                    &format!(
                        "cannot thread CommContext arguments into the call to @{callee}: the call must pass the {} \
                         parameters @{callee} has before its CommContexts, got {provided} arguments",
                        layout.base
                    ),
                );
                errors += 1;
                continue;
            }
            let is_dispatch = op_kind(&call) == OpKind::HostDispatch;
            let mut sources = Vec::new();
            for &p in &layout.dtensors {
                if is_dispatch {
                    // domains.md: the domain of the window bound to this parameter.
                    let mut domains: Vec<Option<usize>> = Vec::new();
                    if let Some(arg) = call.operand_at(p) {
                        for &b in windows
                            .get(
                                arg,
                                directions.trace(),
                                &crate::analysis::provenance::window_buffer_leaf,
                            )
                            .iter()
                        {
                            let d = crate::analysis::provenance::buffer_domain(
                                &crate::analysis::provenance::op_from_id(b),
                            )
                            .map(|d| op_id(&d));
                            if !domains.contains(&d) {
                                domains.push(d);
                            }
                        }
                    }
                    sources.push(Source::Device(if domains.len() == 1 {
                        domains[0]
                    } else {
                        None
                    }));
                    continue;
                }
                let class = call.operand_at(p).map(|v| classes.class(v));
                let own = class.and_then(|c| caller_classes.iter().position(|&cc| cc == c));
                match own {
                    Some(k) => sources.push(Source::Caller(k)),
                    None if !caller_layout.dtensors.is_empty() => sources.push(Source::Caller(0)),
                    None => {
                        let why = if is_host_level(caller) {
                            "a HOST orchestrator passes a device context only through 'pld.host.dispatch'"
                        } else {
                            "the caller has no !pld.dtensor parameter whose CommContext it could pass"
                        };
                        diag::op_error(
                            &call,
                            &format!(
                                "cannot find a CommContext for argument #{p} of the call to @{callee}: {why}"
                            ),
                        );
                        errors += 1;
                        break;
                    }
                }
            }
            if sources.len() == layout.dtensors.len() {
                plans.push((call, sources));
            }
        }
    }
    if errors > 0 {
        return Err(PldError::Diagnosed(errors));
    }
    // Every call is planned: the rest changes the IR the analyses describe.
    drop(windows);
    analyses.clear();

    // Signatures.
    let context_ref = module.context();
    let context = crate::ir::context_borrow::borrow(&context_ref);
    let ctx_type = comm_ctx_type(context);
    let direction_in_attr: Attribute = StringAttribute::new(context, "in").into();
    let direction_in: Attribute = DictionaryAttribute::new(
        context,
        &[(Identifier::new(context, "pl.direction"), direction_in_attr)],
    )
    .into();
    let mut ctx_args: PtrMap<Vec<mlir_sys::MlirValue>> = PtrMap::default();
    let mut statistics = MaterializeDistTensorCtxStatistics::default();
    for func in &functions {
        let Some(layout) = symbol_name(func).and_then(|n| layouts.get(n)) else {
            continue;
        };
        if layout.dtensors.is_empty() {
            continue;
        }
        let values = if layout.materialized {
            entry_block(func)
                .map(|b| {
                    (0..layout.dtensors.len())
                        .filter_map(|k| b.argument_at(layout.base + k))
                        .map(|a| a.to_raw())
                        .collect()
                })
                .unwrap_or_default()
        } else {
            let params: Vec<_> = layout
                .dtensors
                .iter()
                .map(|_| (ctx_type, direction_in))
                .collect();
            statistics.contexts_appended += params.len() as u64;
            append_params(func, &params)
        };
        ctx_args.insert(op_id(func), values);
    }

    // Call sites.
    let mut extended_dirs: NameMap<(usize, usize), Option<Attribute>> = NameMap::default();
    let arg_directions = Identifier::new(context, "pl.arg_directions");
    let mut setter = DiscardableAttrSetter::default();
    for (call, sources) in plans {
        let caller = crate::ir::walk::enclosing_function(&call)
            .ok_or_else(|| PldError::Internal("call outside a function".into()))?;
        let own = ctx_args.get(&op_id(&caller)).cloned().unwrap_or_default();
        let mut device_ctx: Vec<(Option<usize>, mlir_sys::MlirValue)> = Vec::new();
        let mut extra = Vec::new();
        for source in &sources {
            let value = match *source {
                Source::Caller(k) => *own
                    .get(k)
                    .ok_or_else(|| PldError::Internal("missing caller context".into()))?,
                Source::Device(domain) => match device_ctx.iter().find(|(d, _)| *d == domain) {
                    Some(&(_, v)) => v,
                    None => {
                        // One per (dispatch, domain), right before the dispatch.
                        let device = call.operand(call_arg_count(&call))?;
                        let domain_value = match domain {
                            Some(d) => {
                                Some(crate::analysis::provenance::op_from_id(d).result(0)?.into())
                            }
                            None => None,
                        };
                        let op = crate::ir::builders::host_device_ctx(
                            context,
                            device,
                            domain_value,
                            call.location(),
                        )?;
                        let v = insert_before(&call, op)?.result(0)?.to_raw();
                        device_ctx.push((domain, v));
                        v
                    }
                },
            };
            extra.push(value);
        }
        statistics.context_arguments_threaded += extra.len() as u64;
        let call = append_call_args(call, &extra);
        // The recorded directions gain one "in" per context (appended as
        // attributes, once per distinct list: nothing re-parsed per call).
        if let Ok(dirs) = call.attribute("pl.arg_directions") {
            let key = (
                melior::ir::AttributeLike::to_raw(&dirs).ptr as usize,
                sources.len(),
            );
            let extended = *extended_dirs.entry(key).or_insert_with(|| {
                is_string_array(dirs)
                    .then(|| {
                        extend_array_attr(context, dirs, &vec![direction_in_attr; sources.len()])
                    })
                    .flatten()
            });
            if let Some(extended) = extended {
                setter.set(&call, arg_directions, extended);
            }
        }
    }
    Ok(statistics)
}
