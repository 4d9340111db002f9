//! `pld.tensor.reduce {reduce, root}`: the root's target becomes the reduction over every rank's
//! target (the mesh left fold); every other rank's target is left unchanged (its own staged
//! payload: the stage step writes every rank's target before each call).

use serde_json::json;

use super::{Elem, LS, REDUCING, Rules, Section, base, collect, reducing, with};

pub static RULES: Rules = Rules {
    name: "reduce",
    keys: &["reduce", "root"],
    root_default: None,
    payload: true,
    dtypes: &REDUCING,
    input_rows: |_, _| None,
    target_rows: |_, m| m,
    symbol: |c| {
        format!(
            "__builtin_reduce_{}_root{}__{}",
            c.reduce,
            c.root,
            c.dtype.symbol()
        )
    },
    meaning: |at| {
        if at.rank == at.root {
            at.folded(at.row)
        } else {
            at.payload(at.rank, at.row)
        }
    },
    sections: &[Section {
        name: "reduce",
        full: || {
            collect(|out| {
                reducing(|r, dt, p| {
                    let mut roots = vec![0, p - 1];
                    roots.dedup();
                    out.extend(roots.into_iter().map(|root| row(r, dt, p, LS[p % 3], root)));
                })
            })
        },
        ci: || {
            vec![
                row("sum", Elem::F32, 4, 2, 3),
                row("prod", Elem::F16, 3, 1, 0),
                row("max", Elem::I32, 8, 4, 7),
            ]
        },
    }],
    extras: || {
        vec![(
            "reduce",
            json!({"op": "reduce", "reduce": "min", "root": 1, "rows": 2, "row_elems": 3, "core_num": 2}),
        )]
    },
};

fn row(reduce: &str, dt: Elem, p: usize, l: i64, root: usize) -> (String, serde_json::Value) {
    (
        format!("reduce:{reduce}_{}_P{p}_L{l}_root{root}", dt.name()),
        with(
            base("reduce", p, dt, 2, 5),
            json!({"reduce": reduce, "root": root, "core_num": l}),
        ),
    )
}
