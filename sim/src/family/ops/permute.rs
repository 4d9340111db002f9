//! `pld.tensor.permute {pairs}` (XLA collective_permute): for every pair `[s, d]`, rank d's
//! target becomes rank s's input (`s == d` copies locally); a rank that is no pair's dest keeps
//! its target (zeros, or the `prefill`). No pairs: a no-op, `blocks` 0.

use serde_json::{Value, json};

use super::{Elem, FAMILY_DTYPES, Rules, Section, base, collect, with};

pub static RULES: Rules = Rules {
    name: "permute",
    keys: &["pairs"],
    root_default: None,
    payload: true,
    dtypes: &FAMILY_DTYPES,
    input_rows: |_, m| Some(m),
    target_rows: |_, m| m,
    symbol: |c| {
        let pairs: String = c.pairs.iter().map(|(s, d)| format!("_{s}to{d}")).collect();
        format!("__builtin_permute{pairs}__{}", c.dtype.symbol())
    },
    meaning: |at| match at.sources.get(at.rank as usize).copied().flatten() {
        Some(source) => at.payload(source, at.row),
        None => at.initial(),
    },
    sections: &[Section {
        name: "permute",
        full: || {
            collect(|out| {
                for dt in FAMILY_DTYPES {
                    for p in 1..=16usize {
                        for set in SETS {
                            out.push(grid_row(set, dt, p));
                        }
                    }
                }
            })
        },
        ci: || {
            vec![
                grid_row("ring_shift", Elem::F32, 4),
                grid_row("open_shift", Elem::I8, 5),
                grid_row("swaps", Elem::F16, 6),
                grid_row("identity", Elem::I32, 3),
                grid_row("single", Elem::F32, 8),
                grid_row("none", Elem::I32, 2),
            ]
        },
    }],
    extras: || {
        vec![(
            "permute",
            json!({"op": "permute", "pairs": [[0, 1], [1, 0]], "rows": 2, "row_elems": 5, "core_num": 2}),
        )]
    },
};

/// The pair sets the matrix tries.
const SETS: [&str; 6] = [
    "ring_shift",
    "open_shift",
    "swaps",
    "identity",
    "single",
    "none",
];

/// A pair set on `p` ranks: the ring shift r -> r+1 mod P (pipeline and context parallelism),
/// the open shift r -> r+1 without the wrap, neighbour swaps 2i <-> 2i+1, the identity, one pair
/// 0 -> P-1, and none.
fn pairs(set: &str, p: i64) -> Vec<[i64; 2]> {
    match set {
        "ring_shift" => (0..p).map(|r| [r, (r + 1) % p]).collect(),
        "open_shift" => (0..p - 1).map(|r| [r, r + 1]).collect(),
        "swaps" => (0..p / 2 * 2).map(|r| [r, r ^ 1]).collect(),
        "identity" => (0..p).map(|r| [r, r]).collect(),
        "single" => vec![[0, p - 1]],
        _ => Vec::new(),
    }
}

/// The matrix's row of a pair set on `p` ranks: L cycles through 1, 2, 4 and every other P
/// starts from the prefill.
fn grid_row(set: &str, dt: Elem, p: usize) -> (String, Value) {
    row(set, dt, p, [1, 2, 4][p % 3], p % 2 == 0)
}

fn row(set: &str, dt: Elem, p: usize, l: i64, prefill: bool) -> (String, Value) {
    let tag = if prefill { "_prefill" } else { "" };
    (
        format!("permute:{set}_{}_P{p}_L{l}{tag}", dt.name()),
        with(
            base("permute", p, dt, 2, 5),
            json!({"pairs": pairs(set, p as i64), "core_num": l, "prefill": prefill}),
        ),
    )
}
