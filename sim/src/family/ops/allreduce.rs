//! `pld.tensor.allreduce {reduce, mode}`: every rank's target becomes the reduction over every
//! rank's target; mesh (L blocks) or ring (one block, `[2*(NR-1)+1, NR]` signal, every rank
//! bitwise identical, within a tolerance of the mesh fold: [`super::super::golden`]).

use serde_json::json;

use super::{Elem, LS, REDUCING, Rules, Section, base, collect, every_reducing, reducing, with};

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
            full: || {
                let mut v =
                    collect(|out| reducing(|r, dt, p| out.extend(LS.map(|l| mesh(r, dt, p, l)))));
                v.extend([tiles("allreduce", Elem::F32), tiles("allreduce", Elem::F16)]);
                v
            },
            ci: || {
                vec![
                    mesh("sum", Elem::F32, 4, 2),
                    mesh("prod", Elem::F16, 3, 1),
                    mesh("max", Elem::I32, 16, 4),
                    tiles("allreduce", Elem::F32),
                    tiles("allreduce", Elem::F16),
                ]
                .into_iter()
                .chain(every_reducing(|r, dt| mesh(r, dt, 5, 2)))
                .collect()
            },
        },
        Section {
            name: "allreduce_ring",
            full: || {
                let mut v = collect(|out| reducing(|r, dt, p| out.push(ring(r, dt, p))));
                v.extend([tiles("allreduce_ring", Elem::F32), ring_restaged()]);
                v
            },
            ci: || {
                vec![
                    ring("sum", Elem::F32, 4),
                    ring("sum", Elem::F16, 8),
                    ring("min", Elem::I32, 3),
                    tiles("allreduce_ring", Elem::F32),
                    ring_restaged(),
                ]
                .into_iter()
                .chain(every_reducing(|r, dt| ring(r, dt, 6)))
                .collect()
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

/// Thirty back-to-back ring calls on 16 ranks: without the ring's final barrier a rank restages
/// while a peer still reads it, which only a call's recorded target shows (caught 8 runs of 8;
/// twenty calls on 8 ranks let it through about one run in four).
fn ring_restaged() -> (String, serde_json::Value) {
    let (name, case) = ring("sum", Elem::F32, 16);
    (format!("{name}_rep30"), with(case, json!({"repeat": 30})))
}

/// Tile reuse: a lane folds more than one 4096-element tile (M = 4 rows of 2100 on 2 ranks, one
/// block), so the fold reloads its tiles while the previous tile's stores may be in flight (the
/// device order between them, docs/device.md). `section`: `allreduce`, `allreduce_ring` or
/// `reduce_scatter`.
pub(super) fn tiles(section: &str, dt: Elem) -> (String, serde_json::Value) {
    let op = if section == "reduce_scatter" {
        "reduce_scatter"
    } else {
        "allreduce"
    };
    let mut case = with(base(op, 2, dt, 4, 2100), json!({"reduce": "sum"}));
    if section == "allreduce_ring" {
        case = with(case, json!({"mode": "ring"}));
    }
    (format!("{section}:tiles_sum_{}_P2", dt.name()), case)
}
