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
        (l.extra_rows != 0, format!("_extra{}", l.extra_rows)),
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
/// start non-zero, back-to-back launches, the lane slices and the early returns.
fn plain_extras(repeat: u32) -> Vec<Entry> {
    use Elem::{F32, I8};
    use Pattern::*;
    let mut v = Vec::new();
    // kind, P, B, dtype, max_recv, row_elems, pattern, S, AIV capacity, target fill, refused:
    // widths no fold of any core_num gives; S < B and S < P, which pld-opt refuses (the active
    // width min(B, S) carries the exchange); the default capacity, past it, and a capacity of 8
    // (a wider sync-start launch is refused with 7); targets that start as a sentinel (rows past
    // a count keep it).
    #[rustfmt::skip]
    let table = [
        ("width", 4, 6, F32, 3, 5, Random, None, 48, 0, false),
        ("width", 5, 12, F32, 2, 64, OneAndFull, None, 48, 0, false),
        ("S_lt_B", 4, 8, F32, 4, 3, Random, Some(5), 48, 0, false),
        ("S_lt_P", 8, 8, I8, 2, 33, Uniform, Some(3), 48, 0, false),
        ("at_capacity", 2, 48, F32, 2, 300, Uniform, None, 48, 0, false),
        ("over_capacity", 4, 64, F32, 2, 8, Uniform, None, 48, 0, true),
        ("over_capacity", 4, 16, I8, 2, 8, Uniform, None, 8, 0, true),
        ("at_capacity", 4, 8, I8, 2, 8, Random, None, 8, 0, false),
        ("fill", 4, 8, I8, 4, 8, Random, None, 48, 0x5a, false),
        ("fill", 16, 16, F32, 2, 3, ZeroAndFull, None, 48, 0xa5, false),
    ];
    for (n, (kind, p, b, dtype, mr, re, pattern, s, cap, fill, refused)) in
        table.into_iter().enumerate()
    {
        let mut c = raw(
            case(p, 1, dtype, mr, re, pattern, 3101 + n as u64),
            b,
            |x| x.target_fill = fill,
        );
        (c.signal_stride, c.aiv_capacity) = (s, cap);
        let expect = if refused { refused_7() } else { Expect::Golden };
        v.push(entry(kind, c, pattern.name(), expect));
    }
    // Back to back on one signal, at widths above and below P (one context slot) and S > B.
    for (p, b, dtype, mr, re, pattern, s, contexts) in [
        (4, 8, F32, 3, 7, Random, None, Contexts::Three),
        (8, 3, I8, 2, 9, OneAndFull, None, Contexts::One),
        (2, 1, F32, 4, 8, Negative, Some(3), Contexts::Three),
    ] {
        let mut c = raw(case(p, 1, dtype, mr, re, pattern, 3111), b, |x| {
            x.contexts = contexts
        });
        (c.repeat, c.signal_stride) = (repeat, s);
        v.push(entry("repeat", c, pattern.name(), Expect::Golden));
    }
    // The lane slices of the work split (P = 1: the self chunk alone, K = B lanes; the copy
    // trace checks each lane's [begin, end)): 10 f32 over 3 lanes, 36 and 64 i8 over 2 and 3,
    // 2 f32 over 4.
    for (dtype, b, mr, re, count) in [
        (F32, 3, 1, 10, 1),
        (I8, 2, 1, 36, 5),
        (I8, 3, 2, 32, 2),
        (F32, 4, 1, 2, 1),
    ] {
        let c = raw(
            Case::exchange(1, 1, dtype, mr, re, vec![vec![count]]),
            b,
            |_| {},
        );
        v.push(entry("slices", c, "uniform", Expect::Golden));
    }
    // A target of 2 rows more than P x max_recv: MAX_RECV is the rows over P rounded down, and
    // the last 2 rows keep their sentinel.
    let c = raw(case(4, 1, F32, 2, 5, Random, 3114), 4, |x| {
        (x.extra_rows, x.target_fill) = (2, 0x5a)
    });
    v.push(entry("extra_rows", c, "random", Expect::Golden));
    // Early returns on every rank alike (17 ranks; 3 target rows at P = 4, so no row per source;
    // empty rows): every block runs, nothing is written; recv_counts start as -7 to show it.
    for (p, mr, extra, re, b) in [(17, 2, 0, 3, 1), (4, 0, 3, 3, 4), (2, 4, 0, 0, 2)] {
        let c = Case::exchange(p, 1, F32, mr, re, vec![vec![1; p]; p]);
        let c = raw(c, b, |x| (x.recv_fill, x.extra_rows) = (-7, extra));
        v.push(entry("early_return", c, "uniform", Expect::Untouched));
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
    use Elem::{F32, I8};
    use IndexPattern as I;
    use Pattern::*;
    let mut v = Vec::new();
    // kind, P, B, dtype, max_recv, row_elems, index, pattern, AIV capacity, target fill, input
    // row elements, index length, refused: an input whose rows are not the target's has no
    // readable row (every sent row is zeros); an index shorter than P * MAX_RECV (the positions
    // past it name no row); sentinel targets (rows past a count keep it, out-of-range rows are
    // zeros); one block past a capacity of 8 (refused with 7), and 8.
    #[rustfmt::skip]
    let table = [
        ("indexed_input_rows", 4, 4, F32, 3, 6, I::Identity, Random, 48, 0, Some(5), None, false),
        ("indexed_short_index", 4, 2, I8, 3, 4, I::Identity, Uniform, 48, 0, None, Some(7), false),
        ("indexed_fill", 4, 5, I8, 4, 8, I::OutOfRange, Random, 48, 0x5a, None, None, false),
        ("indexed_fill", 16, 19, F32, 2, 3, I::Random, ZeroAndFull, 48, 0xa5, None, None, false),
        ("indexed_over_capacity", 4, 9, I8, 2, 8, I::Random, Random, 8, 0, None, None, true),
        ("indexed_at_capacity", 4, 8, I8, 2, 8, I::Random, Random, 8, 0, None, None, false),
    ];
    for (n, row) in table.into_iter().enumerate() {
        let (kind, p, b, dtype, mr, re, index, pattern, cap, fill, in_elems, len, refused) = row;
        let c = indexed_case(
            p,
            1,
            dtype,
            mr,
            re,
            p as i64 * mr,
            index,
            pattern,
            3301 + n as u64,
        );
        let mut c = raw(c, b, |x| {
            (x.target_fill, x.input_row_elems, x.index_len) = (fill, in_elems, len)
        });
        c.aiv_capacity = cap;
        let expect = if refused { refused_7() } else { Expect::Golden };
        let name = format!("{}_{}", index.name(), pattern.name());
        v.push(entry(kind, c, &name, expect));
    }
    // 17 ranks: every rank returns early, recv_counts (local, starting as -7) untouched.
    let c = Case {
        op: Op::IndexedAllToAllV,
        ..Case::exchange(17, 1, F32, 2, 1, vec![vec![1; 17]; 17])
    };
    let c = raw(c, 2, |x| {
        x.contexts = Contexts::NullExtras;
        x.recv_local = true;
        x.recv_fill = -7;
    });
    v.push(entry(
        "indexed_early_return",
        c,
        "identity_uniform",
        Expect::Untouched,
    ));
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

    /// A listed raw case shows its launch, and reading it back is refused (no case file states
    /// one), never run as a pipeline case.
    #[test]
    fn a_listed_raw_case_is_refused() {
        for e in raw_ci() {
            let json = e.case.to_json();
            assert!(json.get("launch").is_some(), "{}", e.name);
            let err = Case::from_value(&json).unwrap_err().to_string();
            assert!(
                err.contains("'launch' is a raw launch"),
                "{}: {err}",
                e.name
            );
        }
    }

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
