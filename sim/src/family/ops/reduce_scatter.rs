//! `pld.tensor.reduce_scatter {reduce}`: rank r's rows `[r*M, (r+1)*M)` become the reduction of
//! those rows over every rank; its other rows keep its own staged payload.

use serde_json::json;

use super::allreduce::tiles;
use super::{Elem, LS, REDUCING, Rules, Section, base, collect, every_reducing, reducing, with};

pub static RULES: Rules = Rules {
    name: "reduce_scatter",
    keys: &["reduce"],
    root_default: None,
    payload: true,
    dtypes: &REDUCING,
    input_rows: |_, _| None,
    target_rows: |p, m| p * m,
    symbol: |c| {
        format!(
            "__builtin_reduce_scatter_{}__{}",
            c.reduce,
            c.dtype.symbol()
        )
    },
    meaning: |at| {
        if at.row / at.m() == at.rank {
            at.folded(at.row)
        } else {
            at.payload(at.rank, at.row)
        }
    },
    sections: &[Section {
        name: "reduce_scatter",
        full: || {
            let mut v =
                collect(|out| reducing(|r, dt, p| out.extend(LS.map(|l| scatter(r, dt, p, l)))));
            v.extend([tiles("reduce_scatter", Elem::F16), restaged()]);
            v
        },
        ci: || {
            vec![
                scatter("min", Elem::F16, 5, 2),
                scatter("sum", Elem::I32, 2, 1),
                tiles("reduce_scatter", Elem::F16),
                restaged(),
            ]
            .into_iter()
            .chain(every_reducing(|r, dt| scatter(r, dt, 3, 4)))
            .collect()
        },
    }],
    extras: || {
        vec![(
            "reduce_scatter",
            json!({"op": "reduce_scatter", "reduce": "max", "rows": 2, "row_elems": 3, "core_num": 2}),
        )]
    },
};

fn scatter(reduce: &str, dt: Elem, p: usize, l: i64) -> (String, serde_json::Value) {
    (
        format!("reduce_scatter:{reduce}_{}_P{p}_L{l}", dt.name()),
        with(
            base("reduce_scatter", p, dt, 2, 3),
            json!({"reduce": reduce, "core_num": l}),
        ),
    )
}

/// Twenty back-to-back calls on 16 ranks: a rank restages its target for call k+1 while a slower
/// peer may still read it for call k unless the final barrier holds it; each call's recorded
/// target shows a call the next one broke (without the barrier: caught 5 runs of 5, where 6 calls
/// on 8 ranks caught 3 of 5).
fn restaged() -> (String, serde_json::Value) {
    let (name, case) = scatter("sum", Elem::F32, 16, 1);
    (format!("{name}_rep20"), with(case, json!({"repeat": 20})))
}
