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
//! C++ sources are `sim/kernels/{stage_step,consume_step}.cpp` (`pl.kernel_source`, resolved
//! against the directory the module is written to, where pld-sim copies them).

use super::case::Case;

/// The CHIP orchestration function's name.
pub const CHIP_FN: &str = "chip_pipeline";
/// `pl.kernel_source` of each user kernel, relative to the module's directory.
pub const USER_KERNELS: [(&str, &str); 2] =
    [("stage_step", "kernels/stage_step.cpp"), ("consume_step", "kernels/consume_step.cpp")];

/// The module text for a case (shapes, dtype, S and core_num; the counts and payload are runtime
/// data).
pub fn chip_pipeline(case: &Case) -> String {
    let el = case.dtype.name();
    let (rows, re, p, s) = (case.rows(), case.row_elems, case.ranks, case.stride());
    let pay = format!("{rows}x{re}x{el}");
    let t = format!("!pl.tensor<{pay}>");
    let d = format!("!pld.dtensor<{pay}>");
    let cnt_in = format!("!pl.tensor<{p}xi32>");
    let cnt = format!("!pld.dtensor<{p}xi32>");
    let sig = format!("!pld.dtensor<{p}x{s}xi32>");
    let l = case.core_num;
    let (stage_src, consume_src) = (USER_KERNELS[0].1, USER_KERNELS[1].1);
    format!(
        r#"// Written by pld-sim: the seed's chip_pipeline for P = {p} ranks, MAX_RECV = {mr} rows of
// {re} {el} per peer, signal [{p}, {s}], core_num = {l}.

func.func private @stage_step(%inp: {t} {{pl.direction = "in"}},
                              %send: {cnt_in} {{pl.direction = "in"}},
                              %stage: {d} {{pl.direction = "out"}},
                              %counts: {cnt} {{pl.direction = "out"}})
    -> ({d}, {cnt})
    attributes {{pl.func_kind = "aiv", pl.kernel_source = "{stage_src}"}} {{
  return %stage, %counts : {d}, {cnt}
}}

func.func private @consume_step(%data: {d} {{pl.direction = "in"}},
                                %recv: {cnt} {{pl.direction = "in"}},
                                %out: {t} {{pl.direction = "out"}})
    -> {t}
    attributes {{pl.func_kind = "aiv", pl.kernel_source = "{consume_src}"}} {{
  return %out : {t}
}}

func.func @{CHIP_FN}(%inp: {t}, %send: {cnt_in}, %out: {t},
                         %stage: {d}, %data: {d},
                         %signal: {sig}, %counts: {cnt},
                         %recv: {cnt}) -> {t}
    attributes {{pl.func_kind = "orchestration"}} {{
  %staged, %sent = call @stage_step(%inp, %send, %stage, %counts)
      : ({t}, {cnt_in}, {d}, {cnt}) -> ({d}, {cnt})
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {{core_num = {l} : i64}}
      : {d}, {d}, {sig}, {cnt}, {cnt} -> {d}
  %result = call @consume_step(%received, %recv, %out)
      : ({d}, {cnt}, {t}) -> {t}
  return %result : {t}
}}
"#,
        mr = case.max_recv,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::case::Case;

    #[test]
    fn shapes_follow_the_case() {
        let c = Case::from_json(
            r#"{"ranks": 4, "core_num": 10, "dtype": "i8", "max_recv": 3, "row_elems": 5,
                "send_counts": [[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#,
        )
        .unwrap();
        let m = chip_pipeline(&c);
        assert!(m.contains("!pld.dtensor<12x5xi8>"));
        assert!(m.contains("!pld.dtensor<4x8xi32>")); // S defaults to B = 8
        assert!(m.contains("{core_num = 10 : i64}"));
        assert!(m.contains("pl.kernel_source = \"kernels/stage_step.cpp\""));
    }
}
