//! `pld.tensor.allgather`: every rank's target rows `[q*M, (q+1)*M)` become rank q's input.

use serde_json::json;

use super::{Elem, FAMILY_DTYPES, Rules, Section, collect, moving, moving_grid};

pub static RULES: Rules = Rules {
    name: "allgather",
    keys: &[],
    root_default: None,
    payload: true,
    dtypes: &FAMILY_DTYPES,
    input_rows: |_, m| Some(m),
    target_rows: |p, m| p * m,
    symbol: |c| format!("__builtin_allgather__{}", c.dtype.symbol()),
    meaning: |at| at.payload(at.row / at.m(), at.row % at.m()),
    sections: &[Section {
        name: "allgather",
        full: || collect(|out| moving_grid(|dt, p, l| out.push(moving("allgather", dt, p, l)))),
        ci: || {
            vec![
                moving("allgather", Elem::I8, 3, 2),
                moving("allgather", Elem::F16, 16, 1),
            ]
            .into_iter()
            .chain(FAMILY_DTYPES.map(|dt| moving("allgather", dt, 5, 2)))
            .collect()
        },
    }],
    extras: || {
        vec![(
            "allgather",
            json!({"op": "allgather", "rows": 2, "row_elems": 5, "core_num": 4}),
        )]
    },
};
