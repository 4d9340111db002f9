//! `pld.tensor.barrier`: no rank leaves before every rank entered (its meaning is the spans the
//! golden checks, [`super::super::golden`]); the signal alone, one block, no payload.

use serde_json::json;

use super::{Rules, Section, with};

pub static RULES: Rules = Rules {
    name: "barrier",
    keys: &["delay_us"],
    root_default: None,
    payload: false,
    dtypes: &[],
    input_rows: |_, _| None,
    target_rows: |_, _| 0,
    symbol: |_| "__builtin_barrier".into(),
    meaning: |_| unreachable!("a barrier has no target"),
    sections: &[Section {
        name: "barrier",
        full: || {
            (1..=16)
                .flat_map(|p| [barrier(p, false), barrier(p, true)])
                .collect()
        },
        ci: || vec![barrier(4, true)],
    }],
    extras: || vec![("barrier", json!({"op": "barrier"}))],
};

fn barrier(p: usize, delays: bool) -> (String, serde_json::Value) {
    let mut case = json!({"op": "barrier", "ranks": p});
    if delays {
        // The last rank enters first, rank 0 last: every rank must wait for rank 0.
        let d: Vec<i64> = (0..p as i64).map(|r| (p as i64 - 1 - r) * 400).collect();
        case = with(case, json!({"delay_us": d}));
    }
    (
        format!("barrier:P{p}{}", if delays { "_delay" } else { "" }),
        case,
    )
}
