//! `pld.tensor.gather {root}`: the root's target rows `[q*M, (q+1)*M)` become rank q's input;
//! every other rank's target is left unchanged (zeros, or the `prefill`).

use serde_json::json;

use super::{Elem, FAMILY_DTYPES, Rules, Section, base, collect, moving_grid, with};

pub static RULES: Rules = Rules {
    name: "gather",
    keys: &["root"],
    root_default: None,
    payload: true,
    dtypes: &FAMILY_DTYPES,
    input_rows: |_, m| Some(m),
    target_rows: |p, m| p * m,
    symbol: |c| format!("__builtin_gather_root{}__{}", c.root, c.dtype.symbol()),
    meaning: |at| {
        if at.rank == at.root {
            at.payload(at.row / at.m(), at.row % at.m())
        } else {
            at.initial()
        }
    },
    sections: &[Section {
        name: "gather",
        full: || collect(|out| moving_grid(|dt, p, l| out.push(row(dt, p, l, p / 2, p % 2 == 1)))),
        ci: || {
            vec![
                row(Elem::I8, 3, 2, 1, true),
                row(Elem::F16, 16, 1, 8, false),
                row(Elem::F32, 1, 1, 0, true),
            ]
        },
    }],
    extras: || {
        vec![(
            "gather",
            json!({"op": "gather", "root": 1, "rows": 2, "row_elems": 5, "core_num": 2, "prefill": true}),
        )]
    },
};

fn row(dt: Elem, p: usize, l: i64, root: usize, prefill: bool) -> (String, serde_json::Value) {
    let tag = if prefill { "_prefill" } else { "" };
    (
        format!("gather:{}_P{p}_L{l}_root{root}{tag}", dt.name()),
        with(
            base("gather", p, dt, 2, 5),
            json!({"root": root, "core_num": l, "prefill": prefill}),
        ),
    )
}
