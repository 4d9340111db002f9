//! What the rails read off a collective op against its row: the signal's
//! geometry, `core_num` (attribute or folded operand), the architecture, the
//! rows each rail refuses, and the wording both rails share.

use super::table::*;
use crate::ir::at::OpAt as _;
use melior::ir::{
    Value, ValueLike,
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};

/// The signal's static rank count P and stride S (docs/spec/family.md):
/// `[NR, S]`, `[NR]` (S = 1) for the family, and in allreduce's ring mode
/// `[2*(NR-1)+1, NR]` (P its trailing dimension, one lane). `None` when a
/// needed dimension is not static.
pub fn signal_geometry(
    op: &OperationRef,
    spec: &Spec,
    signal: &crate::ir::tensor_type::TensorView,
) -> Option<(i64, i64)> {
    let shape = signal.static_shape()?;
    let family = spec.width == WidthRule::Exact && !spec.core_num_operand;
    match *shape {
        [rows, columns]
            if spec.selects(Select::Mode)
                && op
                    .attribute("mode")
                    .ok()
                    .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                    .is_some_and(|m| m.value() == "ring") =>
        {
            let _ = rows;
            Some((columns, 1))
        }
        [ranks, stride] => Some((ranks, stride)),
        [ranks] if family => Some((ranks, 1)),
        _ => None,
    }
}

/// The family's rows a rail checks once the signal's NR is known (the
/// kernels' own limits, so that no accepted program meets a kernel that
/// returns without doing anything): at most 16 ranks, and in ring mode a
/// statically shaped target (the verifier checks its divisibility by NR).
/// `None` for the other rows.
pub fn family_rail_problem(op: &OperationRef, spec: &Spec, ranks: i64) -> Option<String> {
    if spec.core_num_operand {
        return None;
    }
    if ranks > 16 {
        return Some(crate::diag::msg!(
            "{} supports at most 16 ranks (its kernel's limit), got NR={ranks} ranks",
            spec.short
        ));
    }
    let ring = spec.selects(Select::Mode)
        && op
            .attribute("mode")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .is_some_and(|m| m.value() == "ring");
    let target = op
        .operand(spec.result)
        .ok()
        .and_then(|v| crate::ir::tensor_type::TensorView::of(v.r#type()));
    if ring && target.is_some_and(|t| t.static_shape().is_none()) {
        return Some(crate::diag::msg!(
            "ring mode needs the element count divisible by NR={ranks}, which a target of dynamic \
             shape does not prove"
        ));
    }
    // The rows rules (the rows_by_nr rows): the kernel splits the rows by
    // NR, so they must be provable here.
    if spec.rows_by_nr {
        for (i, p) in spec.params.iter().enumerate() {
            if p.element != Element::Payload {
                continue;
            }
            let view = op
                .operand(i)
                .ok()
                .and_then(|v| crate::ir::tensor_type::TensorView::of(v.r#type()));
            if view.is_some_and(|t| t.static_shape().is_none()) {
                return Some(crate::diag::msg!(
                    "target rows must be NR*M (NR={ranks} ranks), which operand '{}' of dynamic \
                     shape does not prove",
                    p.name
                ));
            }
        }
    }
    None
}

/// The module's `pl.arch` (`"a2a3"` when absent).
pub fn module_arch<'c>(module: &melior::ir::operation::OperationRef<'c, '_>) -> String {
    // The dialect's reading (`pld::moduleArch`: a2a3 when absent).
    let s = unsafe { crate::capi::pldModuleArch(module.to_raw()) };
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The first rows of indexed.md's diagnostics table that do not depend on
/// the rail: the architecture. `None` when `spec` may be lowered in a module
/// of architecture `arch`; else the message (without the op prefix).
pub fn arch_problem(spec: &Spec, arch: &str) -> Option<String> {
    let needed = spec.arch?;
    if arch == needed {
        return None;
    }
    Some(crate::diag::msg!(
        "{short} needs pl.arch = \"{needed}\" (A5 URMA PER_PEER transport), got pl.arch = \"{arch}\"{default}",
        short = spec.short,
        default = if arch == "a2a3" {
            " (the default when absent)"
        } else {
            ""
        },
    ))
}

/// indexed.md's rows for a collective met in a HOST orchestrator (by any
/// pass): the architecture, then the rail. `None` for the collectives the
/// HOST rail lowers (every row but the indexed op); else the message
/// (without the op prefix).
pub fn host_rail_problem(op_name: &str, arch: &str) -> Option<String> {
    let spec = Collective::of_op_name(op_name).map(|c| c.spec());
    if spec.is_some_and(|s| s.host) {
        return None;
    }
    Some(spec.and_then(|s| arch_problem(s, arch)).unwrap_or_else(|| {
        crate::diag::msg!(
            "{} is not supported on the HOST rail (its lowering is CHIP-only)",
            spec.map_or(op_name, |s| s.short)
        )
    }))
}

/// The message of the run-time check of a runtime `core_num` (its range and
/// `S >= B`), worded once for both rails' `pl.require` / `pld.host.require`.
pub fn runtime_width_message(op: &str, stride: i64, ranks: i64) -> String {
    crate::diag::msg!(
        "{op}: core_num must be in [1, 2147483647] and the signal stride S={stride} must be at least \
         the admitted block count B (core_num folded for P={ranks} ranks)"
    )
}

/// `aiv-cores`: a compile-time launch width above the target's AIV core
/// count, in the words both rails use (0: unknown, nothing is checked).
pub fn aiv_cores_problem(spec: &Spec, ranks: i64, limit: i64, aiv_cores: u64) -> Option<String> {
    let blocks = spec.blocks(ranks, limit);
    if aiv_cores == 0 || blocks as u64 <= aiv_cores {
        return None;
    }
    Some(match spec.width {
        WidthRule::Folded => format!(
            "launch width B={blocks} exceeds the target's {aiv_cores} AIV cores \
             (core_num L={limit} folded for P={ranks} ranks; option aiv-cores={aiv_cores})"
        ),
        WidthRule::Exact => format!(
            "launch width L={limit} exceeds the target's {aiv_cores} AIV cores (option aiv-cores={aiv_cores})"
        ),
    })
}

/// A compile-time CHIP-rail launch width above [`MAX_LAUNCH_BLOCKS`] (what one launch spec
/// holds), in the CHIP rail's words.
///
/// [`MAX_LAUNCH_BLOCKS`]: crate::ir::launch_width::MAX_LAUNCH_BLOCKS
pub fn launch_spec_problem(spec: &Spec, ranks: i64, limit: i64) -> Option<String> {
    let max = crate::ir::launch_width::MAX_LAUNCH_BLOCKS;
    let blocks = spec.blocks(ranks, limit);
    if blocks <= max {
        return None;
    }
    Some(match spec.width {
        WidthRule::Folded => format!(
            "launch width B={blocks} exceeds {max}, the most blocks one launch holds (a launch \
             spec's block_num is an int16_t; core_num L={limit} folded for P={ranks} ranks)"
        ),
        WidthRule::Exact => format!(
            "launch width L={limit} exceeds {max}, the most blocks one launch holds (a launch \
             spec's block_num is an int16_t)"
        ),
    })
}

/// The plain op's operand names in ABI order (`args[0..4]`, both rails).
pub const ALL_TO_ALL_V_OPERANDS: [&str; 5] =
    ["input", "target", "signal", "send_counts", "recv_counts"];

/// A collective's launch width request `core_num` (L).
pub enum CoreNum {
    /// A compile-time constant (the attribute, or an operand that folds).
    Static(i64),
    /// A runtime value.
    Runtime,
}

/// A collective's `core_num`: the attribute, or the `dynamic_core_num`
/// operand when it folds to a constant (see [`fold_i64`]); anything else is
/// runtime.
pub fn core_num(op: &OperationRef) -> CoreNum {
    if let Ok(attr) = op.attribute("core_num")
        && let Ok(int) = IntegerAttribute::try_from(attr)
    {
        return CoreNum::Static(int.value());
    }
    // Without the attribute: the family's default 1, or the
    // `dynamic_core_num` operand after the op's tensor operands (five for the
    // plain op, six for the indexed one).
    let spec = Collective::of_op_name(&crate::ir::op_kind::op_name(op)).map(|c| c.spec());
    if spec.is_some_and(|s| !s.core_num_operand) {
        return CoreNum::Static(1);
    }
    let index = dynamic_core_num_index(op);
    let Some(value) = op.operand_at(index) else {
        return CoreNum::Runtime;
    };
    match fold_i64(value, 0) {
        Some(v) => CoreNum::Static(v),
        None => CoreNum::Runtime,
    }
}

/// The operand index of a collective's `dynamic_core_num` (after its tensor
/// operands, per the variant table).
pub fn dynamic_core_num_index(op: &OperationRef) -> usize {
    let name = op.name();
    name.as_string_ref()
        .as_str()
        .ok()
        .and_then(Collective::of_op_name)
        .map_or(5, |c| c.spec().params.len())
}

/// The constant an integer value folds to: `arith.constant`, and the `arith`
/// integer ops of constants that `arith`'s own folders reduce (add, sub, mul,
/// signed div/rem, min/max, select, extsi/trunci/index_cast), evaluated on
/// i64 with a wrapped result, at most 64 ops deep.
pub fn fold_i64(value: Value, depth: usize) -> Option<i64> {
    if depth > 64 {
        return None;
    }
    let def = crate::ir::value_defs::as_result(value)?.owner();
    let name = def.name();
    let name = name.as_string_ref().as_str().ok()?;
    let arg = |i: usize| def.operand_at(i).and_then(|v| fold_i64(v, depth + 1));
    Some(match name {
        "arith.constant" => IntegerAttribute::try_from(def.attribute("value").ok()?)
            .ok()?
            .value(),
        "arith.addi" => arg(0)?.wrapping_add(arg(1)?),
        "arith.subi" => arg(0)?.wrapping_sub(arg(1)?),
        "arith.muli" => arg(0)?.wrapping_mul(arg(1)?),
        "arith.divsi" => arg(0)?.checked_div(arg(1)?)?,
        "arith.remsi" => arg(0)?.checked_rem(arg(1)?)?,
        "arith.minsi" => arg(0)?.min(arg(1)?),
        "arith.maxsi" => arg(0)?.max(arg(1)?),
        "arith.select" => {
            if arg(0)? != 0 {
                arg(1)?
            } else {
                arg(2)?
            }
        }
        // Widening a constant of at most 64 bits keeps its value; a narrowing
        // cast is left to run time rather than modelled here.
        "arith.extsi" | "arith.index_cast" => {
            let from = def.operand_at(0)?.r#type();
            let to = def.result_at(0)?.r#type();
            if crate::ir::orch_ops::scalar_bits(to)? < crate::ir::orch_ops::scalar_bits(from)? {
                return None;
            }
            arg(0)?
        }
        _ => return None,
    })
}

/// The symbol prefix of the HOST rail's builtin chip callables
/// (`builtin.tensor.<op>...`, one per kernel variant).
pub const BUILTIN_CALLABLE_PREFIX: &str = "builtin.tensor.";

/// A builtin callable's one task: the first `func.call` of its entry block,
/// which calls its collective's kernel.
pub fn builtin_callable_call<'c, 'a>(
    callable: &OperationRef<'c, 'a>,
) -> Option<OperationRef<'c, 'a>> {
    use melior::ir::BlockLike;
    let mut next = crate::ir::signature::entry_block(callable)?.first_operation();
    while let Some(op) = next {
        if crate::ir::op_kind::op_name(&op) == "func.call" {
            return Some(op);
        }
        next = op.next_in_block();
    }
    None
}

/// A lowered collective: `call` (a `func.call` of a builtin collective
/// kernel, or a HOST `pld.host.dispatch` of its builtin callable, whose
/// operands keep the op's order) with the kernel function `kernel`. Gives
/// the op's name and its rank count NR, read off the signal operand's static
/// shape through the lowering's `pl.cast` to an unranked type (`None` when
/// not static); `None` when `kernel` is not a builtin collective kernel.
pub fn lowered_collective(
    call: &OperationRef,
    kernel: &OperationRef,
) -> Option<(&'static str, Option<i64>)> {
    let dir = crate::ir::attributes::attr_str(kernel.attribute("pl.builtin_template_dir").ok()?)?;
    let spec = Spec::of_template_dir(dir)?;
    let ranks = (|| {
        let signal = call.operand_at(spec.signal)?;
        let source = crate::ir::value_defs::as_result(signal)
            .map(|r| r.owner())
            .filter(|o| crate::ir::op_kind::op_name(o) == "pl.cast")
            .and_then(|o| o.operand_at(0))
            .unwrap_or(signal);
        let shape = crate::ir::tensor_type::TensorLike::of(source.r#type())?.static_shape()?;
        shape.get(spec.nr_axis(dir)).copied()
    })();
    Some((spec.op, ranks))
}

/// Why a task of builtin kernel `spec` with `tensors` tensor and `comms`
/// `!pld.comm_ctx` arguments cannot run: its template reads the CommContext
/// at a fixed ABI slot right after its tensors, so without one there
/// (contexts never materialized, or materialized before the lowering
/// synthesized the kernel) it would read past the task's arguments. `callee`
/// names the kernel. The CHIP codegen asks (legalize cannot: it runs before
/// the pipeline materializes the contexts).
pub fn builtin_comm_problem(
    spec: &Spec,
    callee: &str,
    tensors: usize,
    comms: usize,
) -> Option<String> {
    let slot = spec.comm_slot();
    (slot < tensors || slot >= tensors + comms).then(|| {
        format!(
            "callee @{callee} must receive a !pld.comm_ctx as args[{slot}], after its {slot} tensor arguments \
             (its builtin template '{}' reads the CommContext there: run --materialize-dist-tensor-ctx \
             after the collective lowering, as --pld-lower-collectives does), got {tensors} tensor and {comms} !pld.comm_ctx arguments",
            spec.template.name,
        )
    })
}
