//! `pld.tensor.all_to_all`: rank r's target rows `[q*M, (q+1)*M)` become rank q's input rows
//! `[r*M, (r+1)*M)`.

use serde_json::json;

use super::{Elem, FAMILY_DTYPES, Rules, Section, collect, moving, moving_grid};

pub static RULES: Rules = Rules {
    name: "all_to_all",
    keys: &[],
    root_default: None,
    payload: true,
    dtypes: &FAMILY_DTYPES,
    input_rows: |p, m| Some(p * m),
    target_rows: |p, m| p * m,
    symbol: |c| format!("__builtin_all_to_all__{}", c.dtype.symbol()),
    meaning: |at| at.payload(at.row / at.m(), at.rank * at.m() + at.row % at.m()),
    sections: &[Section {
        name: "all_to_all",
        full: || collect(|out| moving_grid(|dt, p, l| out.push(moving("all_to_all", dt, p, l)))),
        ci: || {
            vec![
                moving("all_to_all", Elem::I32, 4, 2),
                moving("all_to_all", Elem::F16, 7, 1),
            ]
            .into_iter()
            .chain(FAMILY_DTYPES.map(|dt| moving("all_to_all", dt, 5, 2)))
            .collect()
        },
    }],
    extras: || {
        vec![(
            "all_to_all",
            json!({"op": "all_to_all", "rows": 2, "row_elems": 5, "core_num": 2}),
        )]
    },
};
