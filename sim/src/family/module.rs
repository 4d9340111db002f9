//! The module pld-sim writes for a family case, on either rail (docs/sim.md, "The collective
//! family").
//!
//! Both rails share one user kernel, `family_stage` (`sim/src/family/kernels/family_stage.cpp`):
//!
//! ```text
//! family_stage(src [IN] [P*K*N, E], calls [INOUT] [P] i32, dst [OUT] <the staged operand>, ctx)
//! ```
//!
//! copies chunk `rankId * K + calls[rankId]` of `src` (every rank's payload of every call k < K,
//! filled by pld-sim from the spec's formula) into `dst` and increments `calls[rankId]`. `N`
//! is the staged operand's rows: `input` for allgather and all_to_all, else the target (all NR*M
//! rows for reduce_scatter). `src` and `calls` are one host buffer each, shared by every rank,
//! each rank touching only its own counter. After every call's collective a second user kernel,
//! `family_record` (`sim/src/family/kernels/family_record.cpp`), copies the rank's target into
//! its slot `calls[rankId] - 1` of `history` (`[R, K*T, E]`: R = 1 on the CHIP rail, each rank
//! its own; P on the HOST rail, one the devices share), so the golden checks every call, and a
//! call that a later one broke while a slow peer still read it shows.
//!
//! CHIP (`chip_family`, run by every rank; `%input` only for ops with one):
//!
//! ```text
//! def chip_family(src, calls, history, [input,] target, signal):
//!     for k in range(K):                       # unrolled, or one scf.for with `loop`
//!         calls, staged = family_stage(src, calls, input or target)
//!         target = pld.tensor.<op>([staged,] target or staged, signal, attrs)
//!         history = family_record(target, calls, history)
//!     return target
//! ```
//!
//! HOST (`host_family`, `pl.level = "host"`): the windows from `pld.window_buffer` (target,
//! signal, input, in that order), and per call a `pld.host.dispatch @stage_chip` (a CHIP
//! orchestration calling `family_stage`) to every device, then the same op at host level (the
//! HOST rail dispatches its builtin per device), then `@record_chip` to every device. Barrier: no stage step, the op K times on the
//! one signal (chained through its result on the CHIP rail).

use super::case::{FamilyCase, Rail};
use crate::mlir_text::{Param, aiv_kernel, call, indent};

/// The CHIP orchestration's name.
pub const CHIP_FN: &str = "chip_family";
/// The HOST orchestrator's name.
pub const HOST_FN: &str = "host_family";
/// The user kernels' directory (relative to the repository root).
pub const KERNELS_DIR: &str = "sim/src/family/kernels";

struct Types {
    /// The stage step's source `!pl.tensor<P*K*N x E x T>`.
    src: String,
    calls: String,
    /// The staged operand (a window).
    stage: String,
    input: Option<String>,
    target: String,
    signal: String,
    /// Every call's target, `[R, K*T, E]` (R = 1 on the CHIP rail, P on the HOST rail).
    history: String,
}

/// `!<kind><d0xd1x...xel>`.
fn ty(kind: &str, dims: &[i64], el: &str) -> String {
    let dims: String = dims.iter().map(|d| format!("{d}x")).collect();
    format!("!{kind}<{dims}{el}>")
}

fn types(case: &FamilyCase) -> Types {
    let el = case.dtype.name();
    let (p, e, k) = (case.ranks as i64, case.row_elems, case.repeat as i64);
    let target = ty("pld.dtensor", &[case.target_rows(), e], el);
    let input = case.input_rows().map(|n| ty("pld.dtensor", &[n, e], el));
    let history = [history_owners(case), k * case.target_rows(), e];
    Types {
        src: ty("pl.tensor", &[p * k * case.payload_rows(), e], el),
        calls: ty("pl.tensor", &[p], "i32"),
        stage: input.clone().unwrap_or_else(|| target.clone()),
        input,
        target,
        signal: ty("pld.dtensor", &case.signal_shape(), "i32"),
        history: ty("pl.tensor", &history, el),
    }
}

/// The leading dimension of the history: the CHIP rail's ranks each hold their own (1), the HOST
/// rail's devices share one (P).
pub fn history_owners(case: &FamilyCase) -> i64 {
    match case.rail {
        Rail::Chip => 1,
        Rail::Host => case.ranks as i64,
    }
}

/// The op's attribute dictionary (empty when it has none).
fn attrs(case: &FamilyCase) -> String {
    let mut a = Vec::new();
    if let Some(r) = &case.reduce {
        a.push(format!("reduce = \"{r}\""));
    }
    if let Some(m) = &case.mode {
        a.push(format!("mode = \"{m}\""));
    }
    if case.op.takes("root") && case.root_given {
        a.push(format!("root = {} : i64", case.root));
    }
    if let Some(pairs) = &case.pairs {
        a.push(if pairs.is_empty() {
            "pairs = dense<> : tensor<0x2xi64>".to_string()
        } else {
            let rows: Vec<String> = pairs.iter().map(|(s, d)| format!("[{s}, {d}]")).collect();
            format!(
                "pairs = dense<[{}]> : tensor<{}x2xi64>",
                rows.join(", "),
                pairs.len()
            )
        });
    }
    if let Some(l) = case.core_num {
        a.push(format!("core_num = {l} : i64"));
    }
    if a.is_empty() {
        String::new()
    } else {
        format!(" {{{}}}", a.join(", "))
    }
}

/// One collective: `%res = pld.tensor.<op> ...` over `input` (if the op has one), `target` (but
/// the barrier's), `signal`.
fn op_line(
    case: &FamilyCase,
    t: &Types,
    res: &str,
    input: &str,
    target: &str,
    sig: &str,
) -> String {
    let payload = case.op.moves_payload();
    let mut operands = Vec::new();
    if payload {
        operands.extend(t.input.as_ref().map(|ty| (input, ty)));
        operands.push((target, &t.target));
    }
    operands.push((sig, &t.signal));
    let (names, types): (Vec<&str>, Vec<&str>) =
        operands.iter().map(|(v, ty)| (*v, &ty[..])).unzip();
    format!(
        "{res} = pld.tensor.{} {}{}\n      : {} -> {}",
        case.op.name(),
        names.join(", "),
        attrs(case),
        types.join(", "),
        if payload { &t.target } else { &t.signal }
    )
}

fn header(case: &FamilyCase) -> String {
    format!(
        "// Written by pld-sim: the collective family, case {}.\n",
        case.to_json()
    )
}

/// `family_stage`'s parameters: the source, the counters, the staged operand.
fn stage_params(t: &Types) -> [Param<'_>; 3] {
    [
        ("src", &t.src, "in"),
        ("calls", &t.calls, "inout"),
        ("dst", &t.stage, "out"),
    ]
}

/// `family_record`'s parameters: the target, the counters, the history.
fn record_params(t: &Types) -> [Param<'_>; 3] {
    [
        ("tgt", &t.target, "in"),
        ("calls", &t.calls, "in"),
        ("hist", &t.history, "inout"),
    ]
}

/// Both user kernels' declarations.
fn user_kernels(t: &Types) -> String {
    format!(
        "\n{}\n{}",
        aiv_kernel("family_stage", "kernels/family_stage.cpp", &stage_params(t)),
        aiv_kernel(
            "family_record",
            "kernels/family_record.cpp",
            &record_params(t)
        )
    )
}

/// The module text for a case on its rail.
pub fn module(case: &FamilyCase) -> String {
    match case.rail {
        Rail::Chip => chip(case),
        Rail::Host => host(case),
    }
}

/// The case's `repeat` calls of `step`, unrolled (call i's values suffixed `i`, 1..=K) or as one
/// `scf.for %k` with `loop` (suffixed `k`; `%c0`, `%c1` defined before), threading the `carried`
/// (value, type) through them: `step(suffix, values)` writes one call and names the values the
/// next one takes. The body's lines, and the values after the last call.
fn calls(
    case: &FamilyCase,
    carried: &[(String, &str)],
    step: impl Fn(&str, &[String]) -> (String, Vec<String>),
) -> (String, Vec<String>) {
    if !case.looped {
        let mut values: Vec<String> = carried.iter().map(|(v, _)| v.clone()).collect();
        let mut out = String::new();
        for i in 1..=case.repeat {
            let (text, next) = step(&i.to_string(), &values);
            out.push_str(&indent(&text, "  "));
            values = next;
        }
        return (out, values);
    }
    let n = carried.len();
    let args: Vec<String> = (0..n).map(|i| format!("%it{i}")).collect();
    let types: Vec<&str> = carried.iter().map(|(_, t)| *t).collect();
    let (types, (text, next)) = (types.join(", "), step("k", &args));
    let mut out = format!("  %cK = arith.constant {} : index\n  ", case.repeat);
    if n == 0 {
        out.push_str("scf.for %k = %c0 to %cK step %c1 {\n");
        out.push_str(&indent(&text, "    "));
    } else {
        let inits: Vec<String> = (args.iter().zip(carried))
            .map(|(a, (v, _))| format!("{a} = {v}"))
            .collect();
        out.push_str(&format!(
            "%last:{n} = scf.for %k = %c0 to %cK step %c1\n      iter_args({}) -> ({types}) {{\n",
            inits.join(", ")
        ));
        out.push_str(&indent(&text, "    "));
        out.push_str(&format!("    scf.yield {} : {types}\n", next.join(", ")));
    }
    out.push_str("  }\n");
    (out, (0..n).map(|i| format!("%last#{i}")).collect())
}

const INDEX_CONSTS: &str = "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n";

fn chip(case: &FamilyCase) -> String {
    let t = types(case);
    let mut out = header(case);
    let payload = case.op.moves_payload();
    let mut params = Vec::new();
    if payload {
        out.push_str(&user_kernels(&t));
        params = vec![
            ("src", &t.src),
            ("calls", &t.calls),
            ("history", &t.history),
        ];
        params.extend(t.input.as_ref().map(|i| ("input", i)));
        params.push(("target", &t.target));
    }
    params.push(("signal", &t.signal));
    let result = if payload { &t.target } else { &t.signal };
    let decl: Vec<String> = params.iter().map(|(p, ty)| format!("%{p}: {ty}")).collect();
    out.push_str(&format!(
        "\nfunc.func @{CHIP_FN}({}) -> {result}\n    attributes {{pl.func_kind = \"orchestration\"}} {{\n",
        decl.join(", ")
    ));
    if case.looped {
        out.push_str(INDEX_CONSTS);
    }
    // The values each call takes and gives the next: a payload op's parameters but the source and
    // the signal (counters, history, input, target: its result); the barrier's signal (chained
    // through its result).
    let carried = match payload {
        true => &params[1..params.len() - 1],
        false => &params[..],
    };
    let carried: Vec<_> = carried
        .iter()
        .map(|(p, ty)| (format!("%{p}"), &ty[..]))
        .collect();
    let (body, last) = calls(case, &carried, |n, v| {
        let [st, res, c, h] = ["st", "t", "c", "h"].map(|v| format!("%{v}{n}"));
        if !payload {
            return (op_line(case, &t, &c, "", "", &v[0]), vec![c]);
        }
        // The stage step fills the input (the target where there is none), then the op and the
        // record step.
        let (cc, hh, tt) = (&v[0], &v[1], &v[v.len() - 1]);
        let (dst, input, target) = match t.input {
            Some(_) => (&v[2][..], &st[..], &tt[..]),
            None => (&tt[..], "", &st[..]),
        };
        let (sp, rp) = (stage_params(&t), record_params(&t));
        let stage = call("family_stage", &[&c, &st], &["%src", cc, dst], &sp);
        let record = call("family_record", &[&h], &[&res, &c, hh], &rp);
        let op = op_line(case, &t, &res, input, target, "%signal");
        let mut next = vec![c.clone(), h.clone()];
        next.extend(t.input.as_ref().map(|_| st.clone()));
        next.push(res.clone());
        (format!("{stage}{op}\n{record}"), next)
    });
    out.push_str(&body);
    out.push_str(&format!(
        "  return {} : {result}\n}}\n",
        last[last.len() - 1]
    ));
    out
}

/// A CHIP orchestration `name` that calls user kernel `kernel` with its own parameters and
/// returns the kernel's last result (what the HOST rail dispatches to every device).
fn chip_call(name: &str, kernel: &str, params: &[Param]) -> String {
    let decl: Vec<String> = params
        .iter()
        .map(|p| format!("%{}: {}", p.0, p.1))
        .collect();
    let args: Vec<String> = params.iter().map(|p| format!("%{}", p.0)).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let outs = params.iter().filter(|p| p.2 != "in").count();
    let results: Vec<String> = (0..outs).map(|i| format!("%r{i}")).collect();
    let results: Vec<&str> = results.iter().map(String::as_str).collect();
    let last = params.iter().rfind(|p| p.2 != "in").map_or("", |p| p.1);
    format!(
        "\nfunc.func @{name}({}) -> {last}\n    attributes {{pl.func_kind = \"orchestration\"}} {{\n{}  return {} : {last}\n}}\n",
        decl.join(", "),
        indent(&call(kernel, &results, &args, params), "  "),
        results[outs - 1]
    )
}

/// `pld.window_buffer` bytes of a window type's packed shape.
fn bytes(case: &FamilyCase, rows: i64) -> i64 {
    rows * case.row_elems * case.dtype.size()
}

fn host(case: &FamilyCase) -> String {
    let t = types(case);
    let mut out = header(case);
    let payload = case.op.moves_payload();
    let mut params = String::new();
    // The windows (the run finds each by its name in the manifest): target, signal, input.
    let mut windows = Vec::new();
    if payload {
        out.push_str(&user_kernels(&t));
        out.push_str(&chip_call("stage_chip", "family_stage", &stage_params(&t)));
        out.push_str(&chip_call(
            "record_chip",
            "family_record",
            &record_params(&t),
        ));
        params = format!(
            "%src: {}, %calls: {}, %history: {}",
            t.src, t.calls, t.history
        );
        windows.push(("target", bytes(case, case.target_rows()), &t.target));
    }
    let sig_bytes = case.signal_shape().iter().product::<i64>() * 4;
    windows.push(("signal", sig_bytes, &t.signal));
    if let (Some(rows), Some(ty)) = (case.input_rows(), &t.input) {
        windows.push(("input", bytes(case, rows), ty));
    }
    out.push_str(&format!(
        "\nfunc.func @{HOST_FN}({params})\n    attributes {{pl.func_kind = \"orchestration\", pl.level = \"host\"}} {{\n"
    ));
    for (name, bytes, _) in &windows {
        out.push_str(&format!(
            "  %b_{name} = pld.window_buffer {{bytes = {bytes} : i64}} : !pld.window_buffer\n"
        ));
    }
    for (name, _, ty) in &windows {
        out.push_str(&format!("  %{name} = pld.window %b_{name} : {ty}\n"));
    }
    out.push_str(&format!(
        "{INDEX_CONSTS}  %cP = arith.constant {} : index\n",
        case.ranks
    ));
    let dst = if t.input.is_some() {
        "%input"
    } else {
        "%target"
    };
    // Each call: the stage step dispatched to every device, the op, the record step likewise.
    let dispatch = |chip: &str, args: &str, params: [Param; 3], n: &str| {
        let types: Vec<&str> = params.iter().map(|p| p.1).collect();
        format!(
            "scf.for %{chip}{n} = %c0 to %cP step %c1 {{\n  pld.host.dispatch @{chip}({args}) on %{chip}{n}\n      : ({}), index\n}}\n",
            types.join(", ")
        )
    };
    let (body, _) = calls(case, &[], |n, _| {
        let op = op_line(case, &t, &format!("%r{n}"), "%input", "%target", "%signal");
        if !payload {
            return (op, Vec::new());
        }
        let stage = dispatch(
            "stage_chip",
            &format!("%src, %calls, {dst}"),
            stage_params(&t),
            n,
        );
        let record = dispatch(
            "record_chip",
            "%target, %calls, %history",
            record_params(&t),
            n,
        );
        (format!("{stage}{op}\n{record}"), Vec::new())
    });
    out.push_str(&body);
    out.push_str("  return\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(s: &str) -> FamilyCase {
        FamilyCase::from_json(s).unwrap()
    }

    #[test]
    fn chip_unrolled_chains_the_target() {
        let m = module(&case(
            r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 2, "row_elems": 3, "reduce": "sum", "repeat": 2}"#,
        ));
        assert!(
            m.contains("%c1, %st1 = func.call @family_stage(%src, %calls, %target)"),
            "{m}"
        );
        assert!(
            m.contains("%t1 = pld.tensor.allreduce %st1, %signal {reduce = \"sum\"}"),
            "{m}"
        );
        assert!(
            m.contains("%c2, %st2 = func.call @family_stage(%src, %c1, %t1)"),
            "{m}"
        );
        assert!(m.contains("return %t2 : !pld.dtensor<2x3xf32>"), "{m}");
        assert!(m.contains("%src: !pl.tensor<8x3xf32>"), "{m}");
    }

    #[test]
    fn chip_loop_and_input() {
        let m = module(&case(
            r#"{"op": "allgather", "ranks": 4, "dtype": "i8", "rows": 2, "row_elems": 3, "repeat": 3, "loop": true, "core_num": 2}"#,
        ));
        assert!(m.contains("scf.for %k = %c0 to %cK step %c1"), "{m}");
        assert!(
            m.contains("%ck, %stk = func.call @family_stage(%src, %it0, %it2)"),
            "{m}"
        );
        assert!(
            m.contains("%tk = pld.tensor.allgather %stk, %it3, %signal {core_num = 2 : i64}"),
            "{m}"
        );
        assert!(m.contains("!pld.dtensor<4x2xi32>"), "{m}");
        assert!(m.contains("scf.yield %ck, %hk, %stk, %tk : ") && m.contains("return %last#3 : "));
    }

    #[test]
    fn host_windows_in_order() {
        let m = module(&case(
            r#"{"op": "all_to_all", "ranks": 2, "dtype": "f16", "rows": 1, "row_elems": 4, "rail": "host"}"#,
        ));
        let bt = m
            .find("%b_target = pld.window_buffer {bytes = 16")
            .expect(&m);
        let bs = m
            .find("%b_signal = pld.window_buffer {bytes = 8")
            .expect(&m);
        let bi = m
            .find("%b_input = pld.window_buffer {bytes = 16")
            .expect(&m);
        assert!(bt < bs && bs < bi, "{m}");
        assert!(
            m.contains("pld.host.dispatch @stage_chip(%src, %calls, %input) on %stage_chip1"),
            "{m}"
        );
    }
}
