//! `--legalize-spmd-launches` (LegalizeSpmdLaunches): checks every kernel
//! launch of a CHIP orchestration body.
//!
//! A *launch* is a `func.call` or `pl.submit` in a CHIP orchestration body
//! whose callee is a kernel (`pl.func_kind` `incore`, `aic` or `aiv`) or that
//! carries a launch spec (`pl.core_num` / `pl.sync_start`, as the CHIP rail
//! attaches for B > 1). For each, in this order (one error per launch, the
//! first failing row):
//!
//! | condition | message contains |
//! |---|---|
//! | `pl.core_num` not an i64 >= 1 | `pl.core_num must be an i64 >= 1` |
//! | `pl.core_num` above 32767 (a launch spec's `int16_t` block_num) | `must be a block count in [1, 32767]` |
//! | `pl.sync_start` without `pl.core_num` > 1 | `pl.sync_start requires pl.core_num > 1` |
//! | a launch spec or a builtin kernel whose callee is not `aiv` | `must launch an AIV function` |
//! | a runtime-allocated parameter of a `pl.submit` that is not `out` | `runtime-allocated parameter 'name' (#i) of @k must be an out parameter` |
//! | an `out`/`inout` parameter without a caller argument (on an SPMD launch: any runtime-allocated one) | `must pass an argument for every out/inout parameter` + `'name' (#i, dir)` list |
//!
//! It refuses an orchestration function's or HOST orchestrator's name that
//! pld-translate could not give its folder or file and its `extern "C"`
//! symbol (`@main`, `@"a/b"`, two names with one C symbol, ...:
//! `ir::entry_names::entry_name_problems`, the rules both share).
//!
//! It refuses a `builtin.module` nested in the module that holds pld code (a
//! `pl`/`pld` op or a function with a `pl.func_kind`), at the nested module:
//! the pipeline's passes do not enter it and pld-translate does not build it
//! (`ir::walk::nested_pld_modules`).
//!
//! It also refuses, at the op's location, everything in a CHIP orchestration
//! body that `pld-translate`'s orchestration codegen cannot emit, so no
//! program is accepted by `pld-opt` and then refused by the codegen (see
//! [`crate::ir::orch_ops`], the one list both read): an op not in the
//! list (`cf` branches, each at its own location, `memref`, `tensor`,
//! floating-point `arith`, ...), a
//! value or parameter that is not a tensor, a CommContext or an integer
//! scalar, a view/reshape/create/runtime-
//! allocated result without a static shape, a task whose callee is not an
//! AIV kernel, a task result its callee does not return as a parameter, a
//! task argument that is an integer scalar, and (at the function) more
//! parameters than the entry's `ChipTaskArgs` holds (256 tensors, 128
//! integer and CommContext scalars, a `!pld.dtensor` taking a CommContext).
//!
//! Likewise it refuses, at the op's location, everything in a HOST
//! orchestrator that `pld-translate`'s HOST codegen cannot emit (see
//! [`crate::ir::host_ops`], the one list both read): an op not in that list
//! (`scf.if`, `scf.while`, `func.call`, `cf` branches, floating-point
//! `arith`, ...; the integer `arith` ops are the CHIP list's, from one scalar
//! model), a parameter that is not a host tensor or an integer scalar, a
//! non-integer constant or scalar result, an `scf.for` with loop-carried
//! values, a `pld.window` view that is not a packed static shape of a sized
//! element type, and a dispatch of a CHIP orchestration function without a
//! body. Collectives are left to `--lower-host-tensor-collectives`.
//!
//! On both rails a tensor the device's tensor descriptor cannot hold (simpler's
//! `ChipTensor`: more than 5 dimensions, a static extent or stride of 2^32 or
//! more, a zero stride on a dimension of extent > 1; docs/spec/device.md) is
//! refused, at the function for a parameter and at the defining op for a
//! value ([`crate::ir::tensor_type::chip_tensor_problem`]).
//!
//! Parameter directions are the explicit `pl.direction`s, else derived (see
//! `crate::analysis::directions`). A parameter's name is the name of its location
//! (`%out: !pl.tensor<...> loc("out")`), else `arg<i>`. Only `pl.submit` can
//! pass fewer arguments than its callee has parameters: its operands pass the
//! leading parameters and the trailing ones, one per `runtime_alloc_outs`
//! entry, are the Outs the runtime allocates (the `pl.submit` verifier checks
//! the count, the types and that the callee returns each at its result; see
//! docs/lowering.md). Here each such parameter's direction, explicit or
//! derived, must be `out`: the runtime allocates it uninitialized, so an
//! `inout` one would read garbage. An SPMD launch (one carrying
//! `pl.core_num`) may not leave any `out`/`inout` parameter to the runtime.
//! The pass changes nothing.

use super::{Analyses, Effect, ModulePass};
use crate::{
    analysis::directions::{Direction, Directions, param_name, runtime_allocated_not_out},
    diag,
    error::PldError,
    ir::calls::{call_arg_count, callee, callee_name, runtime_alloc_outs},
    ir::entry_names::{entry_name_problems, path_component_ok, quoted, tree_entries},
    ir::func_kind::{func_kind, is_chip_orchestration, is_host_orchestrator, symbol_name},
    ir::launch_width::{MAX_LAUNCH_BLOCKS, MAX_TASK_SCALARS, MAX_TASK_TENSORS},
    ir::walk::{
        module_body, module_functions, nested_module_message, nested_pld_modules, ops_named,
    },
};
use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};

/// `--legalize-spmd-launches` (see the module docs and `Passes.td`).
#[derive(Clone, Default)]
pub struct LegalizeSpmdLaunches;

impl ModulePass for LegalizeSpmdLaunches {
    fn run(&mut self, module: OperationRef) -> Result<(), PldError> {
        self.run_with(module, &mut Analyses::default())
    }
    fn run_with(&mut self, module: OperationRef, analyses: &mut Analyses) -> Result<(), PldError> {
        module_body(&module)?;
        let mut errors = 0;
        // pld code in a nested module is neither lowered by the pipeline nor built.
        for (nested, what) in nested_pld_modules(&module) {
            diag::op_error(&nested, &nested_module_message(&what));
            errors += 1;
        }
        // The names pld-translate gives the entries (ir::entry_names: a file or folder, a unique C
        // symbol); pld's own builtin.* callables are named by the HOST rail, after this pass.
        let named = tree_entries(&module_functions(&module), |_| false);
        for (func, message) in entry_name_problems(&named) {
            diag::op_error(&func, &message);
            errors += 1;
        }
        let directions = analyses.directions(&module);
        let functions = directions.functions_rc();
        let mut bad_kernels = std::collections::HashSet::new();
        for func in module_functions(&module)
            .iter()
            .filter(|f| is_chip_orchestration(f))
        {
            // One error per op: a launch refused here is not re-checked for codegen support.
            let mut refused = std::collections::HashSet::new();
            for call in ops_named(func, &["func.call", "pl.submit"]) {
                let callee = callee(&call).and_then(|c| functions.get(c).copied());
                if let Err(message) = check_launch(&call, callee.as_ref(), directions) {
                    diag::op_error(&call, &message);
                    refused.insert(crate::ir::op_kind::op_id(&call));
                    errors += 1;
                }
                // A launched AIV kernel's name is its file in the tree (kernels/aiv/<name>.cpp).
                if let Some(kernel) = callee.filter(|k| func_kind(k) == Some("aiv"))
                    && let Some(name) = symbol_name(&kernel)
                    && !path_component_ok(name)
                    && bad_kernels.insert(name.to_string())
                {
                    diag::op_error(
                        &kernel,
                        &format!(
                            "AIV kernel @{}: its name cannot be a file name",
                            quoted(name)
                        ),
                    );
                    errors += 1;
                }
            }
            errors += crate::ir::orch_ops::check_body(func, &functions, &refused);
        }
        for func in module_functions(&module)
            .iter()
            .filter(|f| is_host_orchestrator(f))
        {
            errors += crate::ir::host_ops::check_body(func, &functions);
        }
        if errors > 0 {
            Err(PldError::Diagnosed(errors))
        } else {
            Ok(())
        }
    }
    fn effect(&self) -> Effect {
        // A check: it changes nothing.
        Effect::Unchanged
    }
}

fn is_kernel(func: &OperationRef) -> bool {
    matches!(func_kind(func), Some("incore" | "aic" | "aiv"))
}

/// `Ok` for a legal launch or a call that is not a launch.
fn check_launch<'c, 'a>(
    call: &OperationRef<'c, 'a>,
    callee: Option<&OperationRef<'c, 'a>>,
    directions: &mut Directions<'c, 'a>,
) -> Result<(), String> {
    let core_num = call.attribute("pl.core_num").ok();
    let sync_start = call.has_attribute("pl.sync_start");
    let has_spec = core_num.is_some() || sync_start;
    let builtin = callee.is_some_and(|f| f.has_attribute("pl.builtin_template_dir"));
    if !has_spec && !callee.is_some_and(is_kernel) {
        return Ok(());
    }
    let name = callee
        .and_then(symbol_name)
        .map(str::to_string)
        .or_else(|| callee_name(call))
        .unwrap_or_default();

    let blocks = match core_num {
        None => None,
        Some(attr) => match IntegerAttribute::try_from(attr)
            .ok()
            .map(|i| i.value())
            .filter(|&v| v >= 1)
        {
            Some(v) => Some(v),
            None => {
                return Err(diag::msg!(
                    "attribute 'pl.core_num' of the launch of @{name} must be an i64 >= 1, got {attr}"
                ));
            }
        },
    };
    if let Some(b) = blocks.filter(|&b| b > MAX_LAUNCH_BLOCKS) {
        return Err(diag::msg!(
            "attribute 'pl.core_num' of the launch of @{name} must be a block count in \
             [1, {MAX_LAUNCH_BLOCKS}] (a launch spec's block_num is an int16_t), got {b}"
        ));
    }
    if sync_start && blocks.is_none_or(|b| b <= 1) {
        let got = blocks.map_or("no pl.core_num".to_string(), |b| {
            format!("pl.core_num = {b}")
        });
        return Err(diag::msg!(
            "attribute 'pl.sync_start' of the launch of @{name} requires pl.core_num > 1 \
             (a single-block launch needs no co-residency), got {got}"
        ));
    }
    let Some(callee) = callee else {
        return Ok(());
    };
    if (has_spec || builtin) && func_kind(callee) != Some("aiv") {
        return Err(diag::msg!(
            "callee @{name} must be an AIV function (pl.func_kind \"aiv\") to be launched, got {}",
            func_kind(callee).map_or("no pl.func_kind".to_string(), |k| format!(
                "pl.func_kind \"{k}\""
            ))
        ));
    }
    // One task's argument slots, known from the kernel's signature alone: a tensor slot per
    // tensor parameter, a scalar per CommContext (one per !pld.dtensor parameter, materialized
    // later in the pipeline). Past them the task fails at run time without a location.
    let types = crate::ir::signature::param_types(callee);
    let tensors = types
        .iter()
        .filter(|t| crate::ir::tensor_type::TensorLike::of(**t).is_some())
        .count();
    let contexts = types
        .iter()
        .filter(|t| crate::ir::types::is_dtensor(**t))
        .count();
    if tensors > MAX_TASK_TENSORS || contexts > MAX_TASK_SCALARS {
        return Err(diag::msg!(
            "launch of @{name} must fit one task's argument slots (at most {MAX_TASK_TENSORS} \
             tensors and {MAX_TASK_SCALARS} scalars: simpler's CoreTaskArgs), got {tensors} tensor \
             parameters and {contexts} !pld.dtensor parameters (a CommContext scalar each)"
        ));
    }
    let params = directions.of_function(callee);
    let provided = call_arg_count(call);
    // The parameters a pl.submit leaves to the runtime: exactly those after its
    // operands, one per runtime_alloc_outs entry (the pl.submit verifier checks
    // the count). An SPMD launch leaves none.
    let runtime = if has_spec {
        0
    } else {
        runtime_alloc_outs(call).len()
    };
    let mut missing: Vec<String> = Vec::new();
    for (i, d) in params.iter().enumerate().skip(provided) {
        if i < provided + runtime {
            if *d != Direction::Out {
                return Err(runtime_allocated_not_out(callee, &name, i, *d));
            }
            continue;
        }
        if d.writes() {
            missing.push(format!(
                "'{}' (#{i}, {})",
                param_name(callee, i),
                d.as_str()
            ));
        }
    }
    if !missing.is_empty() {
        return Err(diag::msg!(
            "launch of @{name} must pass an argument for every out/inout parameter of the kernel, got none for {}",
            missing.join(", ")
        ));
    }
    Ok(())
}
