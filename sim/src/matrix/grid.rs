//! The plain all_to_all_v grid: P × L × count pattern × dtype, the case every other section
//! starts from, and entry names.

use super::*;

/// The rank counts P of the matrix.
pub const PS: [usize; 5] = [1, 2, 4, 8, 16];
/// The block limits L of the matrix.
pub const LS: [i64; 6] = [1, 2, 4, 8, 10, 16];
/// (max_recv, row_elems) by variant; rows of 12, 20, 52, 132, 160 bytes (f32) and 3..40 bytes
/// (i8): mostly not multiples of 32 bytes.
pub(super) const SHAPES: [(i64, i64); 6] = [(4, 8), (3, 5), (2, 33), (5, 3), (1, 13), (4, 40)];

/// The matrix's case for P = `p`, L = `l`, a dtype, MAX_RECV = `mr`, row elements `re`
/// and a count pattern drawn with `seed`.
#[allow(clippy::too_many_arguments)]
pub fn case(p: usize, l: i64, dtype: Elem, mr: i64, re: i64, pattern: Pattern, seed: u64) -> Case {
    Case::exchange(p, l, dtype, mr, re, counts(pattern, p, mr, seed))
}

/// An entry's name after its `kind:` prefix (runtime core_num entries carry a `runtime` prefix;
/// an indexed case's `pattern` starts with its index pattern's name).
pub(super) fn name_of(c: &Case, pattern: &str) -> String {
    format!(
        "P{}_L{}_{}{}_mr{}_re{}{}_S{}{}{}",
        c.ranks,
        c.core_num,
        c.dtype.name(),
        (!pattern.is_empty())
            .then(|| format!("_{pattern}"))
            .unwrap_or_default(),
        c.max_recv,
        c.row_elems,
        match c.op {
            Op::IndexedAllToAllV => format!("_nin{}", c.in_rows()),
            Op::AllToAllV => String::new(),
        },
        c.stride(),
        (c.repeat > 1)
            .then(|| format!("_rep{}", c.repeat))
            .unwrap_or_default(),
        match (c.layers, c.inner_layers) {
            (1, 1) => String::new(),
            (n, 1) => format!("_layers{n}"),
            (n, m) => format!("_layers{n}x{m}"),
        }
    )
}

/// An entry named `<kind>:` and the case's name (with `pattern`, when not empty).
pub(super) fn kind_entry(kind: &str, c: Case, pattern: &str, expect: Expect) -> Entry {
    Entry {
        name: format!("{kind}:{}", name_of(&c, pattern)),
        case: c,
        expect,
    }
}

pub(super) fn golden_entry(c: Case, pattern: &str) -> Entry {
    Entry {
        name: name_of(&c, pattern),
        case: c,
        expect: Expect::Golden,
    }
}

/// The full grid: P ∈ {1,2,4,8,16} × L ∈ {1,2,4,8,10,16} × six count patterns × {f32, i8}
/// (360 cases, one shape per (P, L, dtype) variant so each variant compiles once).
pub(super) fn grid_full() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut variant = 0;
    for p in PS {
        for l in LS {
            for dtype in [Elem::F32, Elem::I8] {
                let (mr, re) = SHAPES[variant % SHAPES.len()];
                for (i, pattern) in Pattern::ALL.into_iter().enumerate() {
                    let seed = (variant * 16 + i) as u64;
                    v.push(golden_entry(
                        case(p, l, dtype, mr, re, pattern, seed),
                        pattern.name(),
                    ));
                }
                variant += 1;
            }
        }
    }
    v
}

/// The CI slice of the grid: every P, three of the six L per P (rotating, so every L appears),
/// alternating dtype, two patterns per variant (rotating through all six).
pub(super) fn grid_ci() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut k = 0;
    for (pi, p) in PS.into_iter().enumerate() {
        for j in 0..3 {
            let l = LS[(pi + 2 * j) % LS.len()];
            let dtype = if k % 2 == 0 { Elem::F32 } else { Elem::I8 };
            let (mr, re) = SHAPES[k % SHAPES.len()];
            for t in 0..2 {
                let pattern = Pattern::ALL[(2 * k + t) % Pattern::ALL.len()];
                v.push(golden_entry(
                    case(p, l, dtype, mr, re, pattern, (k * 2 + t) as u64),
                    pattern.name(),
                ));
            }
            k += 1;
        }
    }
    v
}

/// The largest repeat: 16 ranks x 16 blocks, 100 exchanges on one signal (25600 blocks).
pub(super) fn repeat_max() -> Vec<Entry> {
    let mut c = case(16, 16, Elem::F32, 2, 33, Pattern::Random, 120);
    c.repeat = 100;
    vec![kind_entry("repeat", c, "", Expect::Golden)]
}
