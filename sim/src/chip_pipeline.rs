//! The module pld-sim lowers and runs: the seed's `chip_pipeline` (examples/chip_pipeline.mlir)
//! for a case's shapes.
//!
//! ```text
//! def chip_pipeline(self, inp, send, out, stage, data, signal, counts, recv):
//!     stage, counts = self.stage_step(inp, send, stage, counts)
//!     data = pld.tensor.all_to_all_v(stage, data, signal, counts, recv, core_num=L)
//!     return self.consume_step(data, recv, out)
//! ```
//!
//! `stage`, `data`, `signal`, `counts`, `recv` are DistributedTensors (window views); `inp` is
//! the rank's payload and `send` its row of send_counts, both host tensors. The user kernels'
//! C++ sources are `sim/src/kernels/{stage_step,consume_step}.cpp` (`pl.kernel_source`, resolved
//! against the directory the module is written to, where pld-sim copies them).
//!
//! With `layers` N > 1 the three steps run in an `scf.for` of N iterations in the CHIP body
//! (a loop in the generated orchestration, not unrolled):
//!
//! ```text
//! def chip_pipeline(self, inp, send, out, stage, data, signal, counts, recv):
//!     for layer in range(N):                        # iter_args: data, out
//!         src = inp if layer == 0 else pl.cast(data, pl.Tensor)   # scf.if
//!         stage, counts = self.stage_step(src, send, stage, counts)
//!         data = pld.tensor.all_to_all_v(stage, data, signal, counts, recv, core_num=L)
//!         out = self.consume_step(data, recv, out)
//!     return out
//! ```
//!
//! The received window is the loop-carried value the next iteration stages (viewed as a local
//! tensor) and receives into, so the contiguity trace and the task dependencies see it. The
//! internal `inner_layers` M > 1 (tests only) nests a second `scf.for` of M iterations inside,
//! both carrying the window, with the source chosen on `layer == 0 && sub == 0`: N × M
//! exchanges, the same outcome as `layers` = N × M. N = M = 1 writes the straight-line module
//! above, byte for byte as before `layers` existed.
//!
//! With `"op": "indexed_all_to_all_v"` the module is `pl.arch = "a5"` and the collective is the
//! indexed one, gathering the staged input (`input_rows` rows, not necessarily P * max_recv)
//! through `idx`, a host `[P * max_recv] i32` tensor (this rank's index list):
//!
//! ```text
//! def chip_pipeline(self, inp, send, out, idx, stage, data, signal, counts, recv):
//!     stage, counts = self.stage_step(inp, send, stage, counts)
//!     data = pld.tensor.indexed_all_to_all_v(stage, data, signal, counts, recv, idx, core_num=L)
//!     return self.consume_step(data, recv, out)
//! ```

use crate::case::{Case, Op, Operand};
use crate::mlir_text::aiv_kernel;

/// The CHIP orchestration function's name.
pub const CHIP_FN: &str = "chip_pipeline";
/// `pl.kernel_source` of each user kernel, relative to the module's directory.
pub const USER_KERNELS: [(&str, &str); 2] = [
    ("stage_step", "kernels/stage_step.cpp"),
    ("consume_step", "kernels/consume_step.cpp"),
];

/// The parameter of `chip_pipeline` an operand of the collective is passed through.
pub fn operand_param(op: Operand) -> &'static str {
    match op {
        Operand::Input => "stage",
        Operand::Target => "data",
        Operand::Signal => "signal",
        Operand::SendCounts => "counts",
        Operand::RecvCounts => "recv",
        Operand::Index => "idx",
    }
}

/// The CHIP function of domain `d` in a domains case's module.
pub fn domain_fn(d: usize) -> String {
    format!("{CHIP_FN}_d{d}")
}

/// The module of a case with communication domains: domain d's pipeline
/// ([`Case::domain_case`]) as `chip_pipeline_d<d>`, its user kernels `stage_step_d<d>` and
/// `consume_step_d<d>` (the same kernel sources; each domain's shapes are its own), one module.
pub fn domain_pipelines(case: &Case) -> String {
    let mut text = String::new();
    for d in 0..case.domains.len() {
        let mut sub = chip_pipeline(&case.domain_case(d));
        for name in [CHIP_FN, USER_KERNELS[0].0, USER_KERNELS[1].0] {
            sub = sub
                .replace(&format!("@{name}("), &format!("@{name}_d{d}("))
                .replace(&format!("@{name} "), &format!("@{name}_d{d} "));
        }
        text.push_str(&sub);
    }
    text
}

/// The two user kernels' declarations: `stage_step` (`inp`, `send` -> `stage`, `counts`) and
/// `consume_step` (`data`, `recv` -> `out`), by their operands' types.
fn user_kernels(inp: &str, stage: &str, cnt_in: &str, cnt: &str, data: &str, out: &str) -> String {
    let stage_step = [
        ("inp", inp, "in"),
        ("send", cnt_in, "in"),
        ("stage", stage, "out"),
        ("counts", cnt, "out"),
    ];
    let consume_step = [
        ("data", data, "in"),
        ("recv", cnt, "in"),
        ("out", out, "out"),
    ];
    format!(
        "{}\n{}",
        aiv_kernel(USER_KERNELS[0].0, USER_KERNELS[0].1, &stage_step),
        aiv_kernel(USER_KERNELS[1].0, USER_KERNELS[1].1, &consume_step)
    )
}

/// The types a module spells, by the case's shapes: the payload tensor and window (`t`, `d`),
/// the staged input's (`t_in`, `d_in`: the same but for an indexed case's `input_rows`), the send
/// counts (`cnt_in`), the counts window (`cnt`) and the signal (`sig`).
struct Types {
    t: String,
    d: String,
    t_in: String,
    d_in: String,
    cnt_in: String,
    cnt: String,
    sig: String,
}

fn types(case: &Case) -> Types {
    let (el, re, p, s) = (case.dtype.name(), case.row_elems, case.ranks, case.stride());
    let pay = |rows: i64| format!("{rows}x{re}x{el}");
    Types {
        t: format!("!pl.tensor<{}>", pay(case.rows())),
        d: format!("!pld.dtensor<{}>", pay(case.rows())),
        t_in: format!("!pl.tensor<{}>", pay(case.in_rows())),
        d_in: format!("!pld.dtensor<{}>", pay(case.in_rows())),
        cnt_in: format!("!pl.tensor<{p}xi32>"),
        cnt: format!("!pld.dtensor<{p}xi32>"),
        sig: format!("!pld.dtensor<{p}x{s}xi32>"),
    }
}

/// The module text for a case (shapes, dtype, S and core_num; the counts and payload are runtime
/// data): straight-line, or the CHIP body a loop for `layers` > 1 (or `inner_layers` > 1).
pub fn chip_pipeline(case: &Case) -> String {
    let (el, rows, re, p, s) = (
        case.dtype.name(),
        case.rows(),
        case.row_elems,
        case.ranks,
        case.stride(),
    );
    let (mr, n_in) = (case.max_recv, case.in_rows());
    let ty = types(case);
    let Types {
        t,
        d,
        t_in,
        d_in,
        cnt_in,
        cnt,
        sig,
    } = &ty;
    // How the module spells core_num (`l` in the header comment, `param` after chip_pipeline's
    // parameters, `attr` after the collective's operands): a compile-time one is the
    // collective's attribute (the text of before `runtime_core_num` existed); a runtime one is
    // the `i64` parameter `%core_num` after the tensors (the only scalar, so OrchArgs scalar 0),
    // and the text does not depend on L at all (cases differing only in L share a tree).
    let (l, param, attr) = match case.runtime_core_num {
        true => (
            "the runtime i64 parameter %core_num".to_string(),
            ",\n                         %core_num: i64",
            "core_num(%core_num)".to_string(),
        ),
        false => {
            let l = case.core_num;
            (l.to_string(), "", format!("{{core_num = {l} : i64}}"))
        }
    };
    let kernels = user_kernels(t_in, d_in, cnt_in, cnt, d, t);
    let looped = case.layers > 1 || case.inner_layers > 1;
    // The indexed op (never looped: the case validation refuses it) gathers through the host
    // index `%idx`, a parameter after `%out`, in an A5 module.
    let idx = format!("!pl.tensor<{rows}xi32>");
    // The collective: its name, what follows its five window operands, what follows their types.
    let (what, open, close, idx_param, exchange);
    if case.op == Op::IndexedAllToAllV {
        what = format!(
            "chip_pipeline with the indexed A5 exchange for P = {p} ranks, MAX_RECV =\n// {mr} rows of {re} {el} per peer gathered from {n_in} input rows through a [{rows}] index, signal\n// [{p}, {s}], core_num (the exact launch width) = {l}."
        );
        (open, close) = ("module attributes {pl.arch = \"a5\"} {\n\n", "\n}\n");
        idx_param = format!(" %idx: {idx},");
        exchange = (
            "indexed_all_to_all_v",
            format!(", %idx {attr}"),
            format!(", {idx}"),
        );
    } else {
        let tail = if looped {
            let loops = match case.inner_layers {
                1 => format!("{} iterations", case.layers),
                m => format!("{} x {m} iterations (nested loops)", case.layers),
            };
            format!(
                ", in a loop of {loops}: the first\n// exchange stages the input, every later one what the previous one received."
            )
        } else {
            ".".into()
        };
        what = format!(
            "the seed's chip_pipeline for P = {p} ranks, MAX_RECV = {mr} rows of\n// {re} {el} per peer, signal [{p}, {s}], core_num = {l}{tail}"
        );
        (open, close, idx_param) = ("", "", String::new());
        exchange = ("all_to_all_v", format!(" {attr}"), String::new());
    }
    let (op, tail, idx_type) = exchange;
    // Straight-line: stage, exchange, consume.
    let body = if looped {
        looped_body(case, &ty, &attr)
    } else {
        format!(
            r#"  %staged, %sent = call @stage_step(%inp, %send, %stage, %counts)
      : ({t_in}, {cnt_in}, {d_in}, {cnt}) -> ({d_in}, {cnt})
  %received = pld.tensor.{op} %staged, %data, %signal, %sent, %recv{tail}
      : {d_in}, {d}, {sig}, {cnt}, {cnt}{idx_type} -> {d}
  %result = call @consume_step(%received, %recv, %out)
      : ({d}, {cnt}, {t}) -> {t}
"#
        )
    };
    format!(
        r#"// Written by pld-sim: {what}

{open}{kernels}
func.func @{CHIP_FN}(%inp: {t_in}, %send: {cnt_in}, %out: {t},{idx_param}
                         %stage: {d_in}, %data: {d},
                         %signal: {sig}, %counts: {cnt},
                         %recv: {cnt}{param}) -> {t}
    attributes {{pl.func_kind = "orchestration"}} {{
{body}  return %result : {t}
}}
{close}"#
    )
}

/// The looped body: `layers` iterations (nested: `layers` x `inner_layers`), each one exchange.
fn looped_body(case: &Case, ty: &Types, attr: &str) -> String {
    let Types {
        t,
        d,
        cnt_in,
        cnt,
        sig,
        ..
    } = ty;
    let (n, m) = (case.layers, case.inner_layers);
    // One exchange: choose the source, stage, exchange into the carried window, consume into
    // the carried result. `{i}` is the indentation, `%first` the "first exchange" condition.
    let step = |i: &str| {
        format!(
            r#"{i}%src = scf.if %first -> ({t}) {{
{i}  scf.yield %inp : {t}
{i}}} else {{
{i}  %local = pl.cast %prev : {d} to {t}
{i}  scf.yield %local : {t}
{i}}}
{i}%staged, %sent = func.call @stage_step(%src, %send, %stage, %counts)
{i}    : ({t}, {cnt_in}, {d}, {cnt}) -> ({d}, {cnt})
{i}%received = pld.tensor.all_to_all_v %staged, %prev, %signal, %sent, %recv {attr}
{i}    : {d}, {d}, {sig}, {cnt}, {cnt} -> {d}
{i}%consumed = func.call @consume_step(%received, %recv, %acc)
{i}    : ({d}, {cnt}, {t}) -> {t}
{i}scf.yield %received, %consumed : {d}, {t}
"#
        )
    };
    let consts = "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n";
    if m > 1 {
        format!(
            r#"{consts}  %layers = arith.constant {n} : index
  %subs = arith.constant {m} : index
  %window, %result = scf.for %layer = %c0 to %layers step %c1
      iter_args(%prev_layer = %data, %acc_layer = %out) -> ({d}, {t}) {{
    %first_layer = arith.cmpi eq, %layer, %c0 : index
    %inner_window, %inner_result = scf.for %sub = %c0 to %subs step %c1
        iter_args(%prev = %prev_layer, %acc = %acc_layer) -> ({d}, {t}) {{
      %first_sub = arith.cmpi eq, %sub, %c0 : index
      %first = arith.andi %first_layer, %first_sub : i1
{inner}    }}
    scf.yield %inner_window, %inner_result : {d}, {t}
  }}
"#,
            inner = step("      ")
        )
    } else {
        format!(
            r#"{consts}  %layers = arith.constant {n} : index
  %window, %result = scf.for %layer = %c0 to %layers step %c1
      iter_args(%prev = %data, %acc = %out) -> ({d}, {t}) {{
    %first = arith.cmpi eq, %layer, %c0 : index
{inner}  }}
"#,
            inner = step("    ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{Case, Elem};

    #[test]
    fn shapes_follow_the_case() {
        let c = Case::exchange(4, 10, Elem::I8, 3, 5, vec![vec![0; 4]; 4]);
        let m = chip_pipeline(&c);
        assert!(m.contains("!pld.dtensor<12x5xi8>"));
        assert!(m.contains("!pld.dtensor<4x8xi32>")); // S defaults to B = 8
        assert!(m.contains("{core_num = 10 : i64}"));
        assert!(m.contains("pl.kernel_source = \"kernels/stage_step.cpp\""));
        assert!(
            !m.contains("scf.") && !m.contains("arith."),
            "layers = 1 is straight-line"
        );
    }

    #[test]
    fn layers_are_a_loop_in_the_chip_body() {
        let mut c = Case::exchange(2, 4, Elem::F32, 3, 5, vec![vec![0; 2]; 2]);
        c.layers = 5;
        let m = chip_pipeline(&c);
        assert!(m.contains("%layers = arith.constant 5 : index"));
        assert!(m.contains(
            "iter_args(%prev = %data, %acc = %out) -> (!pld.dtensor<6x5xf32>, !pl.tensor<6x5xf32>)"
        ));
        assert!(m.contains("%first = arith.cmpi eq, %layer, %c0 : index"));
        assert!(
            m.contains("%local = pl.cast %prev : !pld.dtensor<6x5xf32> to !pl.tensor<6x5xf32>")
        );
        assert!(m.contains("pld.tensor.all_to_all_v %staged, %prev, %signal"));
        assert_eq!(m.matches("scf.for").count(), 1);
        assert_eq!(
            m.matches("all_to_all_v %").count(),
            1,
            "one collective, not unrolled"
        );

        c.inner_layers = 3;
        let nested = chip_pipeline(&c);
        assert_eq!(nested.matches("scf.for").count(), 2);
        assert!(nested.contains("%subs = arith.constant 3 : index"));
        assert!(nested.contains("%first = arith.andi %first_layer, %first_sub : i1"));
        assert_eq!(nested.matches("all_to_all_v %").count(), 1);
    }

    #[test]
    fn runtime_core_num_is_the_last_parameter() {
        let mut c = Case::exchange(4, 10, Elem::I8, 3, 5, vec![vec![0; 4]; 4]);
        let static_text = chip_pipeline(&c);
        c.runtime_core_num = true;
        let m = chip_pipeline(&c);
        assert!(m.contains("%recv: !pld.dtensor<4xi32>,\n                         %core_num: i64) -> !pl.tensor<12x5xi8>"), "{m}");
        assert!(m.contains("%sent, %recv core_num(%core_num)\n"));
        assert!(
            !m.contains("{core_num") && !m.contains("10"),
            "the module does not depend on L: {m}"
        );
        assert!(
            m.contains("!pld.dtensor<4x8xi32>"),
            "S still defaults to B = 8"
        );
        // Only those (and the header comment) differ from the compile-time module.
        let back = m
            .replace(",\n                         %core_num: i64", "")
            .replace("core_num(%core_num)", "{core_num = 10 : i64}")
            .replace(
                "core_num = the runtime i64 parameter %core_num.",
                "core_num = 10.",
            );
        assert_eq!(back, static_text);
        // Another L folding to the same B: the same module (one tree for both).
        c.core_num = 9;
        assert_eq!(chip_pipeline(&c), m);
        // In a loop too.
        c.layers = 3;
        let looped = chip_pipeline(&c);
        assert!(looped.contains("%core_num: i64) -> !pl.tensor<12x5xi8>"));
        assert!(looped.contains("%sent, %recv core_num(%core_num)\n"));
    }
}
