//! `pld.tensor.scatter {root}`: every rank r's target becomes rows `[r*M, (r+1)*M)` of the
//! root's input (the other ranks' input is never read).

use serde_json::json;

use super::{Elem, FAMILY_DTYPES, Rules, Section, base, collect, moving_grid, with};

pub static RULES: Rules = Rules {
    name: "scatter",
    keys: &["root"],
    root_default: None,
    payload: true,
    dtypes: &FAMILY_DTYPES,
    input_rows: |p, m| Some(p * m),
    target_rows: |_, m| m,
    symbol: |c| format!("__builtin_scatter_root{}__{}", c.root, c.dtype.symbol()),
    meaning: |at| at.payload(at.root, at.rank * at.m() + at.row),
    sections: &[Section {
        name: "scatter",
        full: || collect(|out| moving_grid(|dt, p, l| out.push(row(dt, p, l, (p - 1) / 2)))),
        ci: || {
            vec![
                row(Elem::I32, 4, 2, 1),
                row(Elem::F16, 7, 1, 3),
                row(Elem::I8, 2, 4, 0),
            ]
        },
    }],
    extras: || {
        vec![(
            "scatter",
            json!({"op": "scatter", "root": 0, "rows": 2, "row_elems": 4, "core_num": 2}),
        )]
    },
};

fn row(dt: Elem, p: usize, l: i64, root: usize) -> (String, serde_json::Value) {
    (
        format!("scatter:{}_P{p}_L{l}_root{root}", dt.name()),
        with(
            base("scatter", p, dt, 2, 5),
            json!({"root": root, "core_num": l}),
        ),
    )
}
