//! `pld.tensor.allreduce {reduce, mode}`: every rank's target becomes the reduction over every
//! rank's target; mesh (L blocks) or ring (one block, `[2*(NR-1)+1, NR]` signal, every rank
//! bitwise identical, within a tolerance of the mesh fold: [`super::super::golden`]).

use serde_json::json;

use super::{Elem, LS, REDUCING, Rules, Section, base, collect, reducing, with};

pub static RULES: Rules = Rules {
    name: "allreduce",
    keys: &["reduce", "mode"],
    root_default: None,
    payload: true,
    dtypes: &REDUCING,
    input_rows: |_, _| None,
    target_rows: |_, m| m,
    symbol: |c| {
        let ring = if c.ring { "_ring" } else { "" };
        format!(
            "__builtin_allreduce{ring}_{}__{}",
            c.reduce,
            c.dtype.symbol()
        )
    },
    meaning: |at| at.folded(at.row),
    sections: &[
        Section {
            name: "allreduce",
            full: || collect(|out| reducing(|r, dt, p| out.extend(LS.map(|l| mesh(r, dt, p, l))))),
            ci: || {
                vec![
                    mesh("sum", Elem::F32, 4, 2),
                    mesh("prod", Elem::F16, 3, 1),
                    mesh("max", Elem::I32, 16, 4),
                ]
            },
        },
        Section {
            name: "allreduce_ring",
            full: || collect(|out| reducing(|r, dt, p| out.push(ring(r, dt, p)))),
            ci: || {
                vec![
                    ring("sum", Elem::F32, 4),
                    ring("sum", Elem::F16, 8),
                    ring("min", Elem::I32, 3),
                ]
            },
        },
    ],
    extras: || {
        vec![
            (
                "allreduce",
                json!({"op": "allreduce", "reduce": "sum", "rows": 3, "row_elems": 5, "core_num": 2}),
            ),
            (
                "allreduce_ring",
                json!({"op": "allreduce", "reduce": "prod", "mode": "ring", "rows": 8, "row_elems": 2}),
            ),
        ]
    },
};

fn mesh(reduce: &str, dt: Elem, p: usize, l: i64) -> (String, serde_json::Value) {
    (
        format!("allreduce:{reduce}_{}_P{p}_L{l}", dt.name()),
        with(
            base("allreduce", p, dt, 3, 5),
            json!({"reduce": reduce, "core_num": l}),
        ),
    )
}

fn ring(reduce: &str, dt: Elem, p: usize) -> (String, serde_json::Value) {
    (
        format!("allreduce_ring:{reduce}_{}_P{p}", dt.name()),
        with(
            base("allreduce", p, dt, p as i64, 3),
            json!({"reduce": reduce, "mode": "ring"}),
        ),
    )
}
