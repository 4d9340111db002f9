//! Raw launches of both exchange kernels (`crate::raw`): the launches pld-opt never emits but
//! the kernel template's contract covers, judged by the same golden and copy trace.

use super::*;
use crate::case::{Contexts, Launch};

/// A raw case: `c`'s exchange launched `blocks` wide, its other launch fields from `set`.
fn raw(mut c: Case, blocks: i64, set: impl FnOnce(&mut Launch)) -> Case {
    let mut l = Launch::new(blocks);
    set(&mut l);
    c.launch = Some(l);
    c
}

/// `raw:<kind>:P…_B…` with the launch's departures from pld-opt's layout.
fn entry(kind: &str, c: Case, pattern: &str, expect: Expect) -> Entry {
    let l = c.launch.clone().expect("a raw case");
    let mut name = format!(
        "raw:{kind}:P{}_B{}_{}_{pattern}_mr{}_re{}_S{}",
        c.ranks,
        l.blocks,
        c.dtype.name(),
        c.max_recv,
        c.row_elems,
        c.stride()
    );
    let flags = [
        (l.contexts == Contexts::One, "_ctx1".to_string()),
        (l.contexts == Contexts::NullExtras, "_ctxnull".into()),
        (l.counts_2d, "_counts2d".into()),
        (l.index_2d, "_index2d".into()),
        (l.recv_local, "_recvlocal".into()),
        (l.target_fill != 0, format!("_fill{:02x}", l.target_fill)),
        (c.aiv_capacity != 48, format!("_cap{}", c.aiv_capacity)),
        (c.repeat > 1, format!("_rep{}", c.repeat)),
        (
            c.op == Op::IndexedAllToAllV && c.in_rows() != c.rows(),
            format!("_nin{}", c.in_rows()),
        ),
    ];
    for (on, text) in flags {
        if on {
            name.push_str(&text);
        }
    }
    Entry {
        name,
        case: c,
        expect,
    }
}

/// all_to_all_v over P ∈ {1, 2, 4, 8, 16} at the fold of each L (`ls`: the L of the full grid
/// or the CI slice), dtype, shape and pattern rotating, with one context slot in every other
/// entry, `[P, 1]` counts in every third and rows of two dimensions wherever RE is even.
fn plain_grid(ls: &[i64]) -> Vec<Entry> {
    let mut v = Vec::new();
    let mut n = 0;
    for p in PS {
        for &l in ls {
            let dtype = [Elem::F32, Elem::I8][n % 2];
            let (mr, re) = SHAPES[n % SHAPES.len()];
            let pattern = Pattern::ALL[n % Pattern::ALL.len()];
            let c = case(p, l, dtype, mr, re, pattern, (3000 + n) as u64);
            let c = raw(c, golden::fold_blocks(p, l), |x| {
                x.contexts = if n % 2 == 0 {
                    Contexts::Three
                } else {
                    Contexts::One
                };
                x.counts_2d = n % 3 == 0;
            });
            v.push(entry("grid", c, pattern.name(), Expect::Golden));
            n += 1;
        }
    }
    v
}

/// all_to_all_v's launches no fold gives: other widths, S below B, the capacity, targets that
/// start non-zero, back-to-back launches, and the early returns.
fn plain_extras(repeat: u32) -> Vec<Entry> {
    use Pattern::*;
    let mut v = Vec::new();
    let mk = |p, dtype, mr, re, pattern: Pattern, seed| case(p, 1, dtype, mr, re, pattern, seed);
    let mut add = |kind: &str, c: Case, pattern: Pattern, expect: Expect| {
        v.push(entry(kind, c, pattern.name(), expect))
    };
    // Widths that are no fold of any core_num: B = 6 at P = 4, B = 12 at P = 5.
    add(
        "width",
        raw(mk(4, Elem::F32, 3, 5, Random, 3101), 6, |_| {}),
        Random,
        Expect::Golden,
    );
    let c = raw(mk(5, Elem::F32, 2, 64, OneAndFull, 3102), 12, |_| {});
    add("width", c, OneAndFull, Expect::Golden);
    // S < B, which pld-opt refuses: the active width min(B, S) carries the exchange.
    let mut c = raw(mk(4, Elem::F32, 4, 3, Random, 3103), 8, |_| {});
    c.signal_stride = Some(5);
    add("S_lt_B", c, Random, Expect::Golden);
    let mut c = raw(mk(8, Elem::I8, 2, 33, Uniform, 3104), 8, |_| {});
    c.signal_stride = Some(3);
    add("S_lt_P", c, Uniform, Expect::Golden);
    // The runtime's whole capacity, one block past it, and a capacity of 8.
    let c = raw(mk(2, Elem::F32, 2, 300, Uniform, 3105), 48, |_| {});
    add("at_capacity", c, Uniform, Expect::Golden);
    let c = raw(mk(4, Elem::F32, 2, 8, Uniform, 3106), 64, |_| {});
    add("over_capacity", c, Uniform, refused_7());
    let mut c = raw(mk(4, Elem::I8, 2, 8, Uniform, 3107), 16, |_| {});
    c.aiv_capacity = 8;
    add("over_capacity", c, Uniform, refused_7());
    let mut c = raw(mk(4, Elem::I8, 2, 8, Random, 3108), 8, |_| {});
    c.aiv_capacity = 8;
    add("at_capacity", c, Random, Expect::Golden);
    // Targets that start as a sentinel: rows past a count keep it.
    let c = raw(mk(4, Elem::I8, 4, 8, Random, 3109), 8, |x| {
        x.target_fill = 0x5a
    });
    add("fill", c, Random, Expect::Golden);
    let c = raw(mk(16, Elem::F32, 2, 3, ZeroAndFull, 3110), 16, |x| {
        x.target_fill = 0xa5
    });
    add("fill", c, ZeroAndFull, Expect::Golden);
    // Back to back on one signal, at widths above, below and beside P.
    let mut c = raw(mk(4, Elem::F32, 3, 7, Random, 3111), 8, |_| {});
    c.repeat = repeat;
    add("repeat", c, Random, Expect::Golden);
    let mut c = raw(mk(8, Elem::I8, 2, 9, OneAndFull, 3112), 3, |x| {
        x.contexts = Contexts::One
    });
    c.repeat = repeat;
    add("repeat", c, OneAndFull, Expect::Golden);
    let mut c = raw(mk(2, Elem::F32, 4, 8, Negative, 3113), 1, |_| {});
    c.repeat = repeat;
    c.signal_stride = Some(3);
    add("repeat", c, Negative, Expect::Golden);
    // The lane slices of the work split (P = 1: the self chunk alone, K = B lanes; the copy
    // trace checks each lane's [begin, end)): 10 f32 over 3 lanes, 36 and 64 i8 over 2 and 3,
    // 2 f32 over 4.
    for (dtype, blocks, mr, re, count) in [
        (Elem::F32, 3, 1, 10, 1),
        (Elem::I8, 2, 1, 36, 5),
        (Elem::I8, 3, 2, 32, 2),
        (Elem::F32, 4, 1, 2, 1),
    ] {
        let c = Case::exchange(1, 1, dtype, mr, re, vec![vec![count]]);
        add("slices", raw(c, blocks, |_| {}), Uniform, Expect::Golden);
    }
    // Early returns on every rank alike (17 ranks, no row per source, empty rows): every block
    // runs, nothing is written; recv_counts start as -7 to show it.
    for (p, mr, re, blocks) in [(17, 2, 3, 1), (4, 0, 3, 4), (2, 4, 0, 2)] {
        let c = Case::exchange(p, 1, Elem::F32, mr, re, vec![vec![1; p]; p]);
        let c = raw(c, blocks, |x| x.recv_fill = -7);
        add("early_return", c, Uniform, Expect::Untouched);
    }
    v
}

fn refused_7() -> Expect {
    Expect::Refused {
        status: "fatal",
        code: 7,
    }
}

/// indexed_all_to_all_v over P ∈ {1, 2, 4, 8, 16} at each L of `ls(P)`, index and count
/// patterns, dtype, shape and input rows rotating, with null duplicate contexts, `[P, 1]` counts,
/// an `[N, 1]` index, recv_counts in local memory and a sentinel target each in their own
/// rotation.
fn indexed_grid(ls: impl Fn(usize) -> Vec<i64>) -> Vec<Entry> {
    let mut v = Vec::new();
    let mut n = 0;
    for p in PS {
        for l in ls(p) {
            let dtype = [Elem::F32, Elem::I8][n % 2];
            let (mr, re) = SHAPES[n % SHAPES.len()];
            let rows = p as i64 * mr;
            let nin = [rows, rows + 3, (rows / 2).max(1), 1][(n / 2) % 4];
            let index = IndexPattern::ALL[n % IndexPattern::ALL.len()];
            let pattern = Pattern::ALL[n % Pattern::ALL.len()];
            let c = indexed_case(p, l, dtype, mr, re, nin, index, pattern, (3200 + n) as u64);
            let c = raw(c, l, |x| {
                x.contexts = if n % 2 == 0 {
                    Contexts::NullExtras
                } else {
                    Contexts::Three
                };
                x.counts_2d = n % 3 == 0;
                x.index_2d = n % 4 == 1;
                x.recv_local = n % 5 != 2;
                x.target_fill = if n % 7 == 3 { 0xa5 } else { 0 };
            });
            v.push(entry(
                "indexed",
                c,
                &format!("{}_{}", index.name(), pattern.name()),
                Expect::Golden,
            ));
            n += 1;
        }
    }
    v
}

/// indexed_all_to_all_v's layouts no module states: input rows of another width, a short
/// index, sentinel targets, the capacity, and the early return.
fn indexed_extras() -> Vec<Entry> {
    use IndexPattern as I;
    use Pattern::*;
    let mut v = Vec::new();
    let mk = |p: usize, dtype, mr: i64, re, index, pattern, seed| {
        indexed_case(p, 1, dtype, mr, re, p as i64 * mr, index, pattern, seed)
    };
    let mut add =
        |kind: &str, c: Case, name: &str, expect: Expect| v.push(entry(kind, c, name, expect));
    // An input whose rows are not the target's has no readable row: every sent row is zeros.
    let c = raw(mk(4, Elem::F32, 3, 6, I::Identity, Random, 3301), 4, |x| {
        x.input_row_elems = Some(5)
    });
    add("indexed_input_rows", c, "identity_random", Expect::Golden);
    // An index shorter than P * MAX_RECV: the positions past it name no row.
    let c = raw(mk(4, Elem::I8, 3, 4, I::Identity, Uniform, 3302), 2, |x| {
        x.index_len = Some(7)
    });
    add("indexed_short_index", c, "identity_uniform", Expect::Golden);
    // Sentinel targets: rows past a count keep it, out-of-range rows are zeros.
    let c = raw(mk(4, Elem::I8, 4, 8, I::OutOfRange, Random, 3303), 5, |x| {
        x.target_fill = 0x5a
    });
    add("indexed_fill", c, "out_of_range_random", Expect::Golden);
    let c = raw(
        mk(16, Elem::F32, 2, 3, I::Random, ZeroAndFull, 3304),
        19,
        |x| x.target_fill = 0xa5,
    );
    add("indexed_fill", c, "random_zero_and_full", Expect::Golden);
    // The capacity: one block past 8 is refused, 8 runs.
    let mut c = raw(mk(4, Elem::I8, 2, 8, I::Random, Random, 3305), 9, |_| {});
    c.aiv_capacity = 8;
    add("indexed_over_capacity", c, "random_random", refused_7());
    let mut c = raw(mk(4, Elem::I8, 2, 8, I::Random, Random, 3306), 8, |_| {});
    c.aiv_capacity = 8;
    add("indexed_at_capacity", c, "random_random", Expect::Golden);
    // 17 ranks: every rank returns early, recv_counts (local, starting as -7) untouched.
    let c = Case {
        op: Op::IndexedAllToAllV,
        ..Case::exchange(17, 1, Elem::F32, 2, 1, vec![vec![1; 17]; 17])
    };
    let c = raw(c, 2, |x| {
        x.contexts = Contexts::NullExtras;
        x.recv_local = true;
        x.recv_fill = -7;
    });
    add(
        "indexed_early_return",
        c,
        "identity_uniform",
        Expect::Untouched,
    );
    v
}

/// The raw section's full entries.
pub(super) fn raw_full() -> Vec<Entry> {
    let mut v = plain_grid(&LS);
    v.extend(plain_extras(100));
    v.extend(indexed_grid(indexed_ls));
    v.extend(indexed_extras());
    v
}

/// The raw section's CI entries: two L per P of each grid, every extra.
pub(super) fn raw_ci() -> Vec<Entry> {
    let mut v = plain_grid(&[4, 10]);
    v.extend(plain_extras(10));
    v.extend(indexed_grid(|p| vec![2, p as i64 + 3]));
    v.extend(indexed_extras());
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip_pipeline::chip_pipeline;

    /// Each carrier's module is the module of the CI-slice entry it names (the TSan slice builds
    /// those too), whatever that entry's counts, index or repeat.
    #[test]
    fn carriers_are_slice_modules() {
        let slice = super::super::ci_slice();
        for (op, dtype, name) in [
            (Op::AllToAllV, Elem::F32, "repeat:P4_L8_f32"),
            (Op::AllToAllV, Elem::I8, "repeat:P8_L3_i8"),
            (Op::IndexedAllToAllV, Elem::F32, "indexed_repeat:P4_L7_f32"),
            (Op::IndexedAllToAllV, Elem::I8, "indexed:P8_L8_i8_reverse"),
        ] {
            let e = slice
                .iter()
                .find(|e| e.name.starts_with(name))
                .unwrap_or_else(|| panic!("no CI entry {name}"));
            assert_eq!(
                chip_pipeline(&crate::raw::carrier(op, dtype)),
                chip_pipeline(&e.case),
                "{name}"
            );
        }
    }
}
