//! Repeat, signal stride, launch-width, capacity and contiguity cases of the plain exchange.

use super::*;

/// How an extras row departs from its grid case (`repeat`: the matrix's repeat count).
type Tweak = fn(&mut Case, u32);

/// Repeat, signal stride, launch-width, capacity and contiguity cases: (kind, the case of
/// [`case`] as (P, L, dtype, max_recv, row_elems, counts, seed), its tweak, the expectation).
pub fn extras(repeat: u32) -> Vec<Entry> {
    use Elem::{F32, I8};
    use Pattern::*;
    let (fatal, invalid) = (("fatal", 7), ("invalid_args", 5));
    let refused = |(status, code)| Expect::Refused { status, code };
    let s_lt_b = "signal stride S=5 is smaller than the admitted block count B=8";
    let none: Tweak = |_, _| {};
    #[rustfmt::skip]
    let rows: Vec<(&str, (usize, i64, Elem, i64, i64, Pattern, u64), Tweak, Expect)> = vec![
        // Back-to-back exchanges on one signal.
        ("repeat", (4, 8, F32, 3, 7, Random, 101), |c, r| c.repeat = r, Expect::Golden),
        ("repeat", (8, 3, I8, 2, 9, OneAndFull, 102), |c, r| c.repeat = r.min(20), Expect::Golden),
        // S = B explicitly, S > B (multi-block and single-block).
        ("S_eq_B", (8, 10, F32, 3, 5, Random, 103), |c, _| c.signal_stride = Some(8), Expect::Golden),
        ("S_gt_B", (4, 4, I8, 4, 8, Random, 104), |c, _| c.signal_stride = Some(7), Expect::Golden),
        ("S_gt_B", (2, 1, F32, 4, 8, Negative, 105), |c, r| (c.signal_stride, c.repeat) = (Some(3), r.min(10)), Expect::Golden),
        // S < B: pld-opt rejects the module.
        ("S_lt_B", (4, 8, F32, 4, 3, Random, 106), |c, _| c.signal_stride = Some(5), Expect::CompileError(s_lt_b.into())),
        // Launch widths that are not multiples of P, uneven lane slices, rows not multiples of 32 B.
        ("odd_width", (3, 7, I8, 5, 11, Random, 107), none, Expect::Golden),
        ("uneven_slices", (2, 6, F32, 5, 7, Uniform, 108), none, Expect::Golden),
        ("row_3_bytes", (4, 10, I8, 6, 3, Random, 109), none, Expect::Golden),
        ("max_ranks", (16, 16, F32, 2, 3, ZeroAndFull, 110), none, Expect::Golden),
        // A looped pipeline called back to back (the windows carry over from call to call); the
        // module of the CI slice's 5-layer entry.
        ("repeat", (4, 2, I8, 4, 8, Random, 115), |c, r| (c.layers, c.repeat) = (5, r.min(5)), Expect::Golden),
        // Capacity: exactly at it runs; above it the sync-start launch is refused (7), no block runs.
        ("at_capacity", (4, 8, F32, 2, 8, Random, 111), |c, _| c.aiv_capacity = 8, Expect::Golden),
        ("over_capacity_launch", (4, 16, F32, 2, 8, Uniform, 112), |c, _| c.aiv_capacity = 8, refused(fatal)),
        ("over_default_capacity_launch", (4, 64, I8, 2, 8, Uniform, 113), none, refused(fatal)),
    ];
    let mut v: Vec<Entry> = rows
        .into_iter()
        .map(
            |(kind, (p, l, dtype, mr, re, counts, seed), tweak, expect)| {
                let mut c = case(p, l, dtype, mr, re, counts, seed);
                tweak(&mut c, repeat);
                kind_entry(kind, c, "", expect)
            },
        )
        .collect();
    // The contiguity backstop: each operand strided on every rank → 5, nothing submitted.
    for &op in Op::AllToAllV.operands() {
        let mut c = case(4, 8, F32, 3, 5, Uniform, 114);
        c.non_contiguous = Some(op);
        v.push(kind_entry(
            &format!("strided_{}", op.name()),
            c,
            "",
            refused(invalid),
        ));
    }
    // In a loop a refusal stops the first iteration: stage_step once, nothing after it. Both
    // run the module of the CI slice's 3-layer entry (B = 4).
    let mut c = case(4, 4, F32, 3, 5, Uniform, 116);
    (c.layers, c.non_contiguous) = (3, Some(Operand::Target));
    v.push(kind_entry("strided_target", c, "", refused(invalid)));
    let mut c = case(4, 4, F32, 3, 5, Uniform, 117);
    (c.layers, c.aiv_capacity) = (3, 2);
    v.push(kind_entry("over_capacity_launch", c, "", refused(fatal)));
    v
}
