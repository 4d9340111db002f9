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
                        let names = format!("{}_{}", index.name(), pattern.name());
                        v.push(kind_entry("indexed", c, &names, Expect::Golden));
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
/// compile-time refusals a pld-sim case can reach (S < L, core_num 0, a runtime core_num): (kind,
/// the case of [`indexed_case`] as (P, L, dtype, max_recv, row_elems, input_rows, index, counts,
/// seed), its tweak (`repeat`: the matrix's repeat count), the expectation).
pub fn indexed_extras(repeat: u32) -> Vec<Entry> {
    use Elem::{F32, I8};
    use IndexPattern::*;
    use Pattern::{OneAndFull, OverCapacity, Uniform};
    let rnd = Pattern::Random;
    type Tweak = fn(&mut Case, u32);
    let (fatal, invalid) = (("fatal", 7), ("invalid_args", 5));
    let refused = |(status, code)| Expect::Refused { status, code };
    let error = |msg: &str| Expect::CompileError(msg.into());
    let none: Tweak = |_, _| {};
    #[rustfmt::skip]
    let rows: Vec<(&str, (usize, i64, Elem, i64, i64, i64, IndexPattern, Pattern, u64), Tweak, Expect)> = vec![
        // Back-to-back exchanges on one signal.
        ("indexed_repeat", (4, 7, F32, 3, 7, 15, Random, rnd, 3001), |c, r| c.repeat = r, Expect::Golden),
        ("indexed_repeat", (8, 3, I8, 2, 9, 16, OutOfRange, OneAndFull, 3002), |c, r| c.repeat = r.min(20), Expect::Golden),
        // S > L, and S < L (compile error).
        ("indexed_S_gt_L", (4, 5, I8, 4, 8, 16, Reverse, rnd, 3003), |c, _| c.signal_stride = Some(9), Expect::Golden),
        ("indexed_S_lt_L", (4, 7, F32, 4, 3, 16, Random, rnd, 3004), |c, _| c.signal_stride = Some(4),
            error("signal stride S=4 is smaller than the launch width L=7")),
        // core_num 0 and a runtime core_num: compile errors of the indexed row.
        ("indexed_core_num_0", (2, 0, F32, 2, 4, 4, Identity, Uniform, 3005), |c, _| c.signal_stride = Some(2),
            error("core_num must be in [1, 2147483647], got 0")),
        ("runtime_indexed", (2, 2, F32, 2, 4, 4, Identity, Uniform, 3006), |c, _| c.runtime_core_num = true,
            error("a runtime core_num is not supported for indexed_all_to_all_v")),
        // One input row gathered by every slot; a large local split (L = 11 at P = 2).
        ("indexed_one_row", (4, 4, I8, 3, 5, 1, Repeated, Uniform, 3007), none, Expect::Golden),
        ("indexed_local_split", (2, 11, F32, 23, 5, 40, Random, Uniform, 3008), none, Expect::Golden),
        // Out-of-range rows wider than the kernel's zero tile (1024 elements): the receiver zeroes
        // them in pieces, which the copy trace adds up per row.
        ("indexed_wide_zero_rows", (2, 2, F32, 3, 1500, 6, OutOfRange, Uniform, 3012), none, Expect::Golden),
        ("indexed_wide_zero_rows", (2, 3, I8, 2, 2500, 4, OutOfRange, OverCapacity, 3013), none, Expect::Golden),
        // Capacity: L over it is refused at the sync-start launch (fatal 7), nothing runs.
        ("indexed_over_capacity_launch", (4, 9, F32, 2, 8, 8, Random, Uniform, 3009), |c, _| c.aiv_capacity = 8, refused(fatal)),
        ("indexed_at_capacity", (4, 8, F32, 2, 8, 8, Random, rnd, 3010), |c, _| c.aiv_capacity = 8, Expect::Golden),
    ];
    let mut v: Vec<Entry> = rows
        .into_iter()
        .map(
            |(kind, (p, l, dt, mr, re, n, index, counts, seed), tweak, expect)| {
                let mut c = indexed_case(p, l, dt, mr, re, n, index, counts, seed);
                tweak(&mut c, repeat);
                kind_entry(kind, c, index.name(), expect)
            },
        )
        .collect();
    // The contiguity backstop on each of the six operands (index included).
    for op in Operand::INDEXED {
        let mut c = indexed_case(4, 5, F32, 3, 5, 14, Random, Uniform, 3011);
        c.non_contiguous = Some(op);
        let kind = format!("indexed_strided_{}", op.name());
        v.push(kind_entry(&kind, c, Random.name(), refused(invalid)));
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
