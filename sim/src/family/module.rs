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

fn shape(dims: &[i64], el: &str) -> String {
    let mut s = String::new();
    for d in dims {
        s.push_str(&format!("{d}x"));
    }
    s.push_str(el);
    s
}

fn types(case: &FamilyCase) -> Types {
    let el = case.dtype.name();
    let (p, e) = (case.ranks as i64, case.row_elems);
    let src = format!(
        "!pl.tensor<{}>",
        shape(&[p * case.repeat as i64 * case.payload_rows(), e], el)
    );
    let target = format!("!pld.dtensor<{}>", shape(&[case.target_rows(), e], el));
    let input = case
        .input_rows()
        .map(|n| format!("!pld.dtensor<{}>", shape(&[n, e], el)));
    Types {
        src,
        calls: format!("!pl.tensor<{p}xi32>"),
        stage: input.clone().unwrap_or_else(|| target.clone()),
        input,
        target,
        signal: format!("!pld.dtensor<{}>", shape(&case.signal_shape(), "i32")),
        history: format!(
            "!pl.tensor<{}>",
            shape(
                &[
                    history_owners(case),
                    case.repeat as i64 * case.target_rows(),
                    e
                ],
                el
            )
        ),
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

/// One collective: `%res = pld.tensor.<op> ...` over `input` (if any), `target`, `signal`.
fn op_line(
    case: &FamilyCase,
    t: &Types,
    res: &str,
    input: &str,
    target: &str,
    sig: &str,
) -> String {
    let name = case.op.name();
    let a = attrs(case);
    if !case.op.moves_payload() {
        return format!(
            "{res} = pld.tensor.{name} {sig}{a} : {s} -> {s}",
            s = t.signal
        );
    }
    match &t.input {
        Some(input_type) => format!(
            "{res} = pld.tensor.{name} {input}, {target}, {sig}{a}\n      : {}, {}, {} -> {}",
            input_type, t.target, t.signal, t.target
        ),
        None => format!(
            "{res} = pld.tensor.{name} {target}, {sig}{a}\n      : {}, {} -> {}",
            t.target, t.signal, t.target
        ),
    }
}

fn header(case: &FamilyCase) -> String {
    format!(
        "// Written by pld-sim: the collective family, case {}.\n",
        case.to_json()
    )
}

fn stage_kernel(t: &Types) -> String {
    format!(
        r#"func.func private @family_stage(%src: {src} {{pl.direction = "in"}},
                                %calls: {calls} {{pl.direction = "inout"}},
                                %dst: {stage} {{pl.direction = "out"}})
    -> ({calls}, {stage})
    attributes {{pl.func_kind = "aiv", pl.kernel_source = "kernels/family_stage.cpp"}} {{
  return %calls, %dst : {calls}, {stage}
}}
"#,
        src = t.src,
        calls = t.calls,
        stage = t.stage
    )
}

fn record_kernel(t: &Types) -> String {
    format!(
        r#"func.func private @family_record(%tgt: {target} {{pl.direction = "in"}},
                                 %calls: {calls} {{pl.direction = "in"}},
                                 %hist: {history} {{pl.direction = "inout"}})
    -> {history}
    attributes {{pl.func_kind = "aiv", pl.kernel_source = "kernels/family_record.cpp"}} {{
  return %hist : {history}
}}
"#,
        target = t.target,
        calls = t.calls,
        history = t.history
    )
}

/// The module text for a case on its rail.
pub fn module(case: &FamilyCase) -> String {
    match case.rail {
        Rail::Chip => chip(case),
        Rail::Host => host(case),
    }
}

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| format!("{by}{l}\n"))
        .collect::<String>()
}

fn chip(case: &FamilyCase) -> String {
    let t = types(case);
    let k = case.repeat;
    let mut out = header(case);
    if !case.op.moves_payload() {
        out.push_str(&format!(
            "\nfunc.func @{CHIP_FN}(%signal: {s}) -> {s}\n    attributes {{pl.func_kind = \"orchestration\"}} {{\n",
            s = t.signal
        ));
        if case.looped {
            out.push_str(&format!(
                "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %cK = arith.constant {k} : index\n  %last = scf.for %k = %c0 to %cK step %c1 iter_args(%sig = %signal) -> ({s}) {{\n    {}\n    scf.yield %next : {s}\n  }}\n  return %last : {s}\n}}\n",
                op_line(case, &t, "%next", "", "", "%sig"),
                s = t.signal
            ));
        } else {
            let mut prev = "%signal".to_string();
            for i in 1..=k {
                out.push_str(&format!(
                    "  {}\n",
                    op_line(case, &t, &format!("%s{i}"), "", "", &prev)
                ));
                prev = format!("%s{i}");
            }
            out.push_str(&format!("  return {prev} : {}\n}}\n", t.signal));
        }
        return out;
    }
    out.push('\n');
    out.push_str(&stage_kernel(&t));
    out.push('\n');
    out.push_str(&record_kernel(&t));
    let input_param = t
        .input
        .as_ref()
        .map(|i| format!("%input: {i}, "))
        .unwrap_or_default();
    out.push_str(&format!(
        "\nfunc.func @{CHIP_FN}(%src: {src}, %calls: {calls}, %history: {hs}, {input_param}%target: {tg}, %signal: {sg}) -> {tg}\n    attributes {{pl.func_kind = \"orchestration\"}} {{\n",
        src = t.src,
        calls = t.calls,
        hs = t.history,
        tg = t.target,
        sg = t.signal
    ));
    let has_input = t.input.is_some();
    // One call: (calls, input, target, history) in, (calls', input', target', history') out.
    let step = |n: &str, cc: &str, ii: &str, tt: &str, hh: &str| -> String {
        let dst = if has_input { ii } else { tt };
        let mut s = format!(
            "%c{n}, %st{n} = func.call @family_stage(%src, {cc}, {dst})\n    : ({}, {}, {}) -> ({}, {})\n",
            t.src, t.calls, t.stage, t.calls, t.stage
        );
        let line = if has_input {
            op_line(
                case,
                &t,
                &format!("%t{n}"),
                &format!("%st{n}"),
                tt,
                "%signal",
            )
        } else {
            op_line(
                case,
                &t,
                &format!("%t{n}"),
                "",
                &format!("%st{n}"),
                "%signal",
            )
        };
        s.push_str(&line);
        s.push('\n');
        s.push_str(&format!(
            "%h{n} = func.call @family_record(%t{n}, %c{n}, {hh})\n    : ({}, {}, {}) -> {}\n",
            t.target, t.calls, t.history, t.history
        ));
        s
    };
    if case.looped {
        let (carried, tys) = if has_input {
            (
                "%cc = %calls, %ii = %input, %tt = %target, %hh = %history",
                format!("{}, {}, {}, {}", t.calls, t.stage, t.target, t.history),
            )
        } else {
            (
                "%cc = %calls, %tt = %target, %hh = %history",
                format!("{}, {}, {}", t.calls, t.target, t.history),
            )
        };
        let results = if has_input {
            "%rc, %ri, %rt, %rh"
        } else {
            "%rc, %rt, %rh"
        };
        let yielded = if has_input {
            "%ck, %stk, %tk, %hk"
        } else {
            "%ck, %tk, %hk"
        };
        out.push_str(&format!(
            "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %cK = arith.constant {k} : index\n  {results} = scf.for %k = %c0 to %cK step %c1\n      iter_args({carried}) -> ({tys}) {{\n"
        ));
        out.push_str(&indent(&step("k", "%cc", "%ii", "%tt", "%hh"), "    "));
        out.push_str(&format!("    scf.yield {yielded} : {tys}\n  }}\n"));
        out.push_str(&format!("  return %rt : {}\n}}\n", t.target));
    } else {
        let (mut cc, mut ii, mut tt, mut hh) = (
            "%calls".to_string(),
            "%input".to_string(),
            "%target".to_string(),
            "%history".to_string(),
        );
        for i in 1..=k {
            let n = i.to_string();
            out.push_str(&indent(&step(&n, &cc, &ii, &tt, &hh), "  "));
            cc = format!("%c{n}");
            ii = format!("%st{n}");
            tt = format!("%t{n}");
            hh = format!("%h{n}");
        }
        out.push_str(&format!("  return {tt} : {}\n}}\n", t.target));
    }
    out
}

/// `pld.window_buffer` bytes of a window type's packed shape.
fn bytes(case: &FamilyCase, rows: i64) -> i64 {
    rows * case.row_elems * case.dtype.size()
}

fn host(case: &FamilyCase) -> String {
    let t = types(case);
    let k = case.repeat;
    let p = case.ranks;
    let mut out = header(case);
    let sig_bytes = case.signal_shape().iter().product::<i64>() * 4;
    let barrier = !case.op.moves_payload();
    if !barrier {
        out.push('\n');
        out.push_str(&stage_kernel(&t));
        out.push_str(&format!(
            r#"
func.func @stage_chip(%src: {src}, %calls: {calls}, %dst: {stage}) -> {stage}
    attributes {{pl.func_kind = "orchestration"}} {{
  %c, %staged = func.call @family_stage(%src, %calls, %dst)
      : ({src}, {calls}, {stage}) -> ({calls}, {stage})
  return %staged : {stage}
}}
"#,
            src = t.src,
            calls = t.calls,
            stage = t.stage
        ));
        out.push('\n');
        out.push_str(&record_kernel(&t));
        out.push_str(&format!(
            r#"
func.func @record_chip(%target: {target}, %calls: {calls}, %hist: {history}) -> {history}
    attributes {{pl.func_kind = "orchestration"}} {{
  %h = func.call @family_record(%target, %calls, %hist)
      : ({target}, {calls}, {history}) -> {history}
  return %h : {history}
}}
"#,
            target = t.target,
            calls = t.calls,
            history = t.history
        ));
    }
    let params = if barrier {
        String::new()
    } else {
        format!(
            "%src: {}, %calls: {}, %history: {}",
            t.src, t.calls, t.history
        )
    };
    out.push_str(&format!(
        "\nfunc.func @{HOST_FN}({params})\n    attributes {{pl.func_kind = \"orchestration\", pl.level = \"host\"}} {{\n"
    ));
    // The windows, in the order the driver recomputes their offsets: target, signal, input.
    if !barrier {
        out.push_str(&format!(
            "  %bt = pld.window_buffer {{bytes = {} : i64}} : !pld.window_buffer\n",
            bytes(case, case.target_rows())
        ));
    }
    out.push_str(&format!(
        "  %bs = pld.window_buffer {{bytes = {sig_bytes} : i64}} : !pld.window_buffer\n"
    ));
    if let Some(rows) = case.input_rows() {
        out.push_str(&format!(
            "  %bi = pld.window_buffer {{bytes = {} : i64}} : !pld.window_buffer\n",
            bytes(case, rows)
        ));
    }
    if !barrier {
        out.push_str(&format!("  %target = pld.window %bt : {}\n", t.target));
    }
    out.push_str(&format!("  %signal = pld.window %bs : {}\n", t.signal));
    if let Some(i) = &t.input {
        out.push_str(&format!("  %input = pld.window %bi : {i}\n"));
    }
    out.push_str(&format!(
        "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %cP = arith.constant {p} : index\n"
    ));
    let dst = if t.input.is_some() {
        "%input"
    } else {
        "%target"
    };
    let step = |n: &str| -> String {
        let mut s = String::new();
        if !barrier {
            s.push_str(&format!(
                "scf.for %dev{n} = %c0 to %cP step %c1 {{\n  pld.host.dispatch @stage_chip(%src, %calls, {dst}) on %dev{n}\n      : ({}, {}, {}), index\n}}\n",
                t.src, t.calls, t.stage
            ));
        }
        s.push_str(&op_line(
            case,
            &t,
            &format!("%r{n}"),
            "%input",
            "%target",
            "%signal",
        ));
        s.push('\n');
        if !barrier {
            s.push_str(&format!(
                "scf.for %rec{n} = %c0 to %cP step %c1 {{\n  pld.host.dispatch @record_chip(%target, %calls, %history) on %rec{n}\n      : ({}, {}, {}), index\n}}\n",
                t.target, t.calls, t.history
            ));
        }
        s
    };
    if case.looped {
        out.push_str(&format!(
            "  %cK = arith.constant {k} : index\n  scf.for %k = %c0 to %cK step %c1 {{\n"
        ));
        out.push_str(&indent(&step("k"), "    "));
        out.push_str("  }\n");
    } else {
        for i in 1..=k {
            out.push_str(&indent(&step(&i.to_string()), "  "));
        }
    }
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
            m.contains("%ck, %stk = func.call @family_stage(%src, %cc, %ii)"),
            "{m}"
        );
        assert!(
            m.contains("%tk = pld.tensor.allgather %stk, %tt, %signal {core_num = 2 : i64}"),
            "{m}"
        );
        assert!(m.contains("!pld.dtensor<4x2xi32>"), "{m}");
    }

    #[test]
    fn host_windows_in_order() {
        let m = module(&case(
            r#"{"op": "all_to_all", "ranks": 2, "dtype": "f16", "rows": 1, "row_elems": 4, "rail": "host"}"#,
        ));
        let bt = m.find("%bt = pld.window_buffer {bytes = 16").expect(&m);
        let bs = m.find("%bs = pld.window_buffer {bytes = 8").expect(&m);
        let bi = m.find("%bi = pld.window_buffer {bytes = 16").expect(&m);
        assert!(bt < bs && bs < bi, "{m}");
        assert!(
            m.contains("pld.host.dispatch @stage_chip(%src, %calls, %input) on %dev1"),
            "{m}"
        );
    }
}
