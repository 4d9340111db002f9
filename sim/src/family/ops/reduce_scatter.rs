//! `pld.tensor.reduce_scatter {reduce}`: rank r's rows `[r*M, (r+1)*M)` become the reduction of
//! those rows over every rank; its other rows keep its own staged payload.

use serde_json::json;

use super::{Elem, LS, REDUCING, Rules, Section, base, collect, reducing, with};

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
        full: || collect(|out| reducing(|r, dt, p| out.extend(LS.map(|l| scatter(r, dt, p, l))))),
        ci: || {
            vec![
                scatter("min", Elem::F16, 5, 2),
                scatter("sum", Elem::I32, 2, 1),
            ]
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
