//! `pld.tensor.broadcast {root}`: every rank's target becomes the root's.

use serde_json::json;

use super::{Elem, FAMILY_DTYPES, Rules, Section, base, collect, moving_grid, with};

pub static RULES: Rules = Rules {
    name: "broadcast",
    keys: &["root"],
    root_default: Some(0),
    payload: true,
    dtypes: &FAMILY_DTYPES,
    input_rows: |_, _| None,
    target_rows: |_, m| m,
    symbol: |c| format!("__builtin_broadcast_root{}__{}", c.root, c.dtype.symbol()),
    meaning: |at| at.payload(at.root, at.row),
    sections: &[Section {
        name: "broadcast",
        full: || {
            let mut v = collect(|out| {
                moving_grid(|dt, p, l| {
                    let mut roots = vec![0, p / 2, p - 1];
                    roots.sort();
                    roots.dedup();
                    out.extend(roots.into_iter().map(|root| broadcast(dt, p, l, root)));
                })
            });
            v.push(restaged());
            v
        },
        ci: || {
            vec![
                broadcast(Elem::F32, 4, 4, 3),
                broadcast(Elem::I8, 1, 1, 0),
                restaged(),
            ]
            .into_iter()
            .chain(
                FAMILY_DTYPES
                    .iter()
                    .flat_map(|&dt| [0, 3, 5].map(|root| broadcast(dt, 6, 2, root))),
            )
            .collect()
        },
    }],
    extras: || {
        vec![(
            "broadcast",
            json!({"op": "broadcast", "root": 1, "rows": 3, "row_elems": 4}),
        )]
    },
};

fn broadcast(dt: Elem, p: usize, l: i64, root: usize) -> (String, serde_json::Value) {
    (
        format!("broadcast:{}_P{p}_L{l}_root{root}", dt.name()),
        with(
            base("broadcast", p, dt, 3, 4),
            json!({"root": root, "core_num": l}),
        ),
    )
}

/// Twenty back-to-back calls on 16 ranks: a non-root that does not wait for the root reads its
/// target before this call's payload arrived, which only that call's recorded target shows.
fn restaged() -> (String, serde_json::Value) {
    let (name, case) = broadcast(Elem::F32, 16, 2, 5);
    (format!("{name}_rep20"), with(case, json!({"repeat": 20})))
}
