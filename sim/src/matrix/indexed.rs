//! The A5 indexed variant (`pld.tensor.indexed_all_to_all_v`): its grid, CI picks and extras.

use super::*;

/// The indexed op's launch widths for P: {1, 2, P, P + 3, 16}, duplicates dropped.
pub fn indexed_ls(p: usize) -> Vec<i64> {
    let p = p as i64;
    let mut ls = Vec::new();
    for l in [1, 2, p, p + 3, 16] {
        if !ls.contains(&l) {
            ls.push(l);
        }
    }
    ls
}

/// An indexed case: `input_rows` n, `index` of the pattern.
#[allow(clippy::too_many_arguments)]
pub fn indexed_case(
    p: usize,
    l: i64,
    dtype: Elem,
    mr: i64,
    re: i64,
    n: i64,
    index: IndexPattern,
    pattern: Pattern,
    seed: u64,
) -> Case {
    let mut c = case(p, l, dtype, mr, re, pattern, seed);
    c.op = Op::IndexedAllToAllV;
    c.input_rows = Some(n);
    c.index = Some(index_lists(index, p, p as i64 * mr, n, seed ^ 0x5bd1_e995));
    c
}

fn indexed_name(kind: &str, c: &Case, index: &str, pattern: &str) -> String {
    format!(
        "{kind}:P{}_L{}_{}_{index}{}_mr{}_re{}_nin{}_S{}{}",
        c.ranks,
        c.core_num,
        c.dtype.name(),
        if pattern.is_empty() {
            String::new()
        } else {
            format!("_{pattern}")
        },
        c.max_recv,
        c.row_elems,
        c.in_rows(),
        c.stride(),
        if c.repeat > 1 {
            format!("_rep{}", c.repeat)
        } else {
            String::new()
        },
    )
}

/// The input rows of indexed variant `v` (P * max_recv, a few more, half, rotating): the
/// module depends on them, so each (P, L, dtype) variant has one.
fn indexed_rows(p: usize, mr: i64, v: usize) -> i64 {
    let rows = p as i64 * mr;
    [rows, rows + 3, (rows / 2).max(1)][v % 3]
}

/// The indexed op's matrix: P ∈ {1,2,4,8,16} × L ∈ {1, 2, P, P+3, 16} (22 distinct (P, L)) × the
/// five index patterns × the six count patterns × {f32, i8} = 1320 entries (`indexed:…`), one
/// module per (P, L, dtype) variant (shape and input rows rotating), against the golden.
pub fn indexed_full() -> Vec<Entry> {
    let mut v = Vec::new();
    let mut variant = 0;
    for p in PS {
        for l in indexed_ls(p) {
            for dtype in [Elem::F32, Elem::I8] {
                let (mr, re) = SHAPES[variant % SHAPES.len()];
                let n = indexed_rows(p, mr, variant);
                for (x, index) in IndexPattern::ALL.into_iter().enumerate() {
                    for (i, pattern) in Pattern::ALL.into_iter().enumerate() {
                        let seed = (2000 + variant * 64 + x * 8 + i) as u64;
                        let c = indexed_case(p, l, dtype, mr, re, n, index, pattern, seed);
                        v.push(Entry {
                            name: indexed_name("indexed", &c, index.name(), pattern.name()),
                            case: c,
                            expect: Expect::Golden,
                        });
                    }
                }
                variant += 1;
            }
        }
    }
    v
}

/// The CI slice of the indexed matrix: one (P, L) per P (L = P + 3, 16, 2, P, 1 rotating so
/// every kind of L appears), dtype alternating, each index pattern once with a count pattern
/// rotating through all six: 10 entries.
pub(super) fn indexed_ci() -> Vec<Entry> {
    let full = indexed_full();
    let picks: [(usize, i64, Elem); 5] = [
        (1, 4, Elem::F32),
        (2, 16, Elem::I8),
        (4, 2, Elem::F32),
        (8, 8, Elem::I8),
        (16, 1, Elem::F32),
    ];
    let mut v = Vec::new();
    let mut k = 0;
    for (p, l, dtype) in picks {
        for t in 0..2 {
            let index = IndexPattern::ALL[(2 * k + t) % IndexPattern::ALL.len()];
            let pattern = Pattern::ALL[(2 * k + t) % Pattern::ALL.len()];
            let e = full
                .iter()
                .find(|e| {
                    e.case.ranks == p
                        && e.case.core_num == l
                        && e.case.dtype == dtype
                        && e.name
                            .contains(&format!("_{}_{}_", index.name(), pattern.name()))
                })
                .unwrap_or_else(|| panic!("indexed P{p} L{l} {} {}", index.name(), pattern.name()))
                .clone();
            v.push(e);
        }
        k += 1;
    }
    v
}

/// The indexed op's repeat, stride, launch-width, wide-row, capacity and contiguity cases, and the
/// compile-time refusals a pld-sim case can reach (S < L, core_num 0, a runtime core_num).
pub fn indexed_extras(repeat: u32) -> Vec<Entry> {
    let mut v = Vec::new();
    let mut add = |kind: &str, c: Case, index: IndexPattern, expect: Expect| {
        v.push(Entry {
            name: indexed_name(kind, &c, index.name(), ""),
            case: c,
            expect,
        });
    };
    use IndexPattern::*;
    // Back-to-back exchanges on one signal.
    let mut c = indexed_case(4, 7, Elem::F32, 3, 7, 15, Random, Pattern::Random, 3001);
    c.repeat = repeat;
    add("indexed_repeat", c, Random, Expect::Golden);
    let mut c = indexed_case(
        8,
        3,
        Elem::I8,
        2,
        9,
        16,
        OutOfRange,
        Pattern::OneAndFull,
        3002,
    );
    c.repeat = repeat.min(20);
    add("indexed_repeat", c, OutOfRange, Expect::Golden);
    // S > L, and S < L (compile error).
    let mut c = indexed_case(4, 5, Elem::I8, 4, 8, 16, Reverse, Pattern::Random, 3003);
    c.signal_stride = Some(9);
    add("indexed_S_gt_L", c, Reverse, Expect::Golden);
    let mut c = indexed_case(4, 7, Elem::F32, 4, 3, 16, Random, Pattern::Random, 3004);
    c.signal_stride = Some(4);
    add(
        "indexed_S_lt_L",
        c,
        Random,
        Expect::CompileError("signal stride S=4 is smaller than the launch width L=7".into()),
    );
    // core_num 0 and a runtime core_num: compile errors of the indexed row.
    let mut c = indexed_case(2, 0, Elem::F32, 2, 4, 4, Identity, Pattern::Uniform, 3005);
    c.signal_stride = Some(2);
    add(
        "indexed_core_num_0",
        c,
        Identity,
        Expect::CompileError("core_num must be in [1, 2147483647], got 0".into()),
    );
    let mut c = indexed_case(2, 2, Elem::F32, 2, 4, 4, Identity, Pattern::Uniform, 3006);
    c.runtime_core_num = true;
    add(
        "runtime_indexed",
        c,
        Identity,
        Expect::CompileError("a runtime core_num is not supported for indexed_all_to_all_v".into()),
    );
    // One input row gathered by every slot; a large local split (L = 11 at P = 2).
    add(
        "indexed_one_row",
        indexed_case(4, 4, Elem::I8, 3, 5, 1, Repeated, Pattern::Uniform, 3007),
        Repeated,
        Expect::Golden,
    );
    add(
        "indexed_local_split",
        indexed_case(2, 11, Elem::F32, 23, 5, 40, Random, Pattern::Uniform, 3008),
        Random,
        Expect::Golden,
    );
    // Out-of-range rows wider than the kernel's zero tile (1024 elements): the receiver zeroes
    // them in pieces, which the copy trace adds up per row.
    for (l, dtype, mr, re, n_in, counts, seed) in [
        (2, Elem::F32, 3, 1500, 6, Pattern::Uniform, 3012),
        (3, Elem::I8, 2, 2500, 4, Pattern::OverCapacity, 3013),
    ] {
        let c = indexed_case(2, l, dtype, mr, re, n_in, OutOfRange, counts, seed);
        add("indexed_wide_zero_rows", c, OutOfRange, Expect::Golden);
    }
    // Capacity: L over it is refused at the sync-start launch (fatal 7), nothing runs.
    let mut c = indexed_case(4, 9, Elem::F32, 2, 8, 8, Random, Pattern::Uniform, 3009);
    c.aiv_capacity = 8;
    add(
        "indexed_over_capacity_launch",
        c,
        Random,
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    let mut c = indexed_case(4, 8, Elem::F32, 2, 8, 8, Random, Pattern::Random, 3010);
    c.aiv_capacity = 8;
    add("indexed_at_capacity", c, Random, Expect::Golden);
    // The contiguity backstop on each of the six operands (index included).
    for op in Operand::INDEXED {
        let mut c = indexed_case(4, 5, Elem::F32, 3, 5, 14, Random, Pattern::Uniform, 3011);
        c.non_contiguous = Some(op);
        add(
            &format!("indexed_strided_{}", op.name()),
            c,
            Random,
            Expect::Refused {
                status: "invalid_args",
                code: 5,
            },
        );
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_entries() {
        assert_eq!(indexed_ls(1), [1, 2, 4, 16]);
        assert_eq!(indexed_ls(4), [1, 2, 4, 7, 16]);
        assert_eq!(indexed_ls(16), [1, 2, 16, 19]);
        let full = indexed_full();
        assert_eq!(full.len(), 1320);
        for p in PS {
            for l in indexed_ls(p) {
                for dtype in [Elem::F32, Elem::I8] {
                    for index in IndexPattern::ALL {
                        for pat in Pattern::ALL {
                            let n = full
                                .iter()
                                .filter(|e| {
                                    e.case.ranks == p
                                        && e.case.core_num == l
                                        && e.case.dtype == dtype
                                        && e.name.contains(&format!(
                                            "_{}_{}_",
                                            index.name(),
                                            pat.name()
                                        ))
                                })
                                .count();
                            assert_eq!(
                                n,
                                1,
                                "P={p} L={l} {dtype:?} {} {}",
                                index.name(),
                                pat.name()
                            );
                        }
                    }
                }
            }
        }
        for e in &full {
            let c = &e.case;
            assert_eq!(c.op, Op::IndexedAllToAllV);
            assert_eq!(c.blocks(), c.core_num, "the exact launch width");
            assert_eq!(c.stride(), c.core_num, "S defaults to L");
            let index = c.index.as_ref().unwrap();
            assert_eq!((index.len(), index[0].len() as i64), (c.ranks, c.rows()));
            // Every entry round-trips as a case.
            assert_eq!(Case::from_value(&c.to_json()).unwrap(), *c, "{}", e.name);
        }
        // The patterns do what they say.
        let n = 5;
        let ix = |p| index_lists(p, 2, 8, n, 1);
        assert_eq!(ix(IndexPattern::Identity)[1], [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(ix(IndexPattern::Reverse)[0], [4, 3, 2, 1, 0, 4, 3, 2]);
        assert!(
            ix(IndexPattern::Random)
                .iter()
                .flatten()
                .all(|&v| (0..5).contains(&v))
        );
        assert!(
            ix(IndexPattern::Repeated)
                .iter()
                .flatten()
                .all(|&v| (0..3).contains(&v))
        );
        let oor = ix(IndexPattern::OutOfRange);
        assert!(oor.iter().flatten().any(|&v| v < 0) && oor.iter().flatten().any(|&v| v >= 5));
        assert!(oor[0].contains(&i32::MAX) && oor[0].contains(&i32::MIN));
        // The slice: every P, every index pattern, every count pattern, both dtypes.
        let slice: Vec<Entry> = ci_slice()
            .into_iter()
            .filter(|e| e.case.op == Op::IndexedAllToAllV)
            .collect();
        for p in PS {
            assert!(
                slice
                    .iter()
                    .any(|e| e.case.ranks == p && e.name.starts_with("indexed:")),
                "P={p}"
            );
        }
        for index in IndexPattern::ALL {
            assert!(
                slice
                    .iter()
                    .any(|e| e.name.contains(&format!("_{}_", index.name()))),
                "{}",
                index.name()
            );
        }
        for pat in Pattern::ALL {
            assert!(
                slice.iter().any(|e| e.name.starts_with("indexed:")
                    && e.name.contains(&format!("_{}_", pat.name())))
            );
        }
        assert!(slice.iter().any(|e| e.case.repeat > 1));
    }
}
