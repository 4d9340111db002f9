//! The family's independent golden (family spec, "Meaning"): what every rank must hold after the
//! last call, computed from the case alone. It shares no code with the kernel templates or the
//! runtime: its payload formula is the one the run fills the stage step's source from (the data
//! is the case's; what is checked is where the kernels move it); the f32 → f16 rounding here is
//! the `half` crate's.
//!
//! - Reductions (allreduce mesh, reduce_scatter): the left fold in rank order 0..P-1; f32 in f32;
//!   f16 accumulating in f32 from rank 0's value and rounding once, to nearest even; i32 wrapping;
//!   `max`/`min` by the type's order. Compared bit for bit.
//! - allreduce ring: every rank bitwise identical to rank 0, and each element within 1e-5 (f32)
//!   / 1e-2 (f16) relative of the mesh fold (i32 and max/min: equal to it).
//! - reduce_scatter's rows outside `[r*M, (r+1)*M)` are rank r's own staged payload (unchanged).
//! - allgather, broadcast, all_to_all: the moved payload, bit for bit.
//! - Every signal cell 0 after the last call, in the case's signal shape.
//! - barrier: every rank's `leave_ns` >= every rank's `enter_ns` (the spans of every call when
//!   the driver reports them, else the last call's from the result).
//!
//! Every call k stages the call-k payload and each op's result depends only on that call's
//! staged data (ops with `input` overwrite every target row), so the expected state after K calls
//! is that of call K-1; a residue an earlier call left in the signal would show in the signal
//! check or break a later call's data.

use super::case::{Elem, FamilyCase};
use super::ops::At;
use crate::result::SimResult;

/// f32 → IEEE binary16 bits, round to nearest even (overflow to infinity): the `half` crate's,
/// not the runtime's `pld_runtime/half.h` the kernels use.
pub fn f32_to_f16(f: f32) -> u16 {
    half::f16::from_f32(f).to_bits()
}

/// IEEE binary16 bits → f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

/// The spec's payload of rank r, row i, element e, call k, as a word.
pub fn payload(case: &FamilyCase, r: i64, i: i64, e: i64, k: i64) -> i64 {
    match case.dtype {
        Elem::F32 | Elem::F16 => {
            let v: f32 = if case.prod() {
                1.0 + ((r + i + e + k) % 5 - 2) as f32 / 16.0
            } else {
                ((r * 131 + i * 17 + e * 7 + k * 29) % 1000 - 500) as f32 / 8.0
            };
            if case.dtype == Elem::F32 {
                v.to_bits() as i64
            } else {
                f32_to_f16(v) as i64
            }
        }
        Elem::I32 => ((r * 7919 + i * 104729 + e * 13 + k * 31) as u64 as u32) as i32 as i64,
        Elem::I8 => (r * 37 + i * 11 + e * 5 + k) % 251 - 125,
        // No payload rule for another dtype (the family takes f32, f16, i8, i32): never equal to
        // a word the run can hold.
        _ => i64::MIN,
    }
}

/// The left fold in rank order of one element's words (`reduce` one of sum, max, min, prod): f32
/// in f32, f16 accumulating in f32 from rank 0's value and rounding once, integers wrapping.
pub fn fold(dtype: Elem, reduce: &str, words: &[i64]) -> i64 {
    let unknown = |other: &str| -> ! { panic!("fold: unknown reduce {other}") };
    if matches!(dtype, Elem::F32 | Elem::F16) {
        let acc = (words[1..].iter()).fold(dtype.value(words[0]) as f32, |acc, &w| {
            let x = dtype.value(w) as f32;
            match reduce {
                "sum" => acc + x,
                "prod" => acc * x,
                // The payloads are finite and never -0: max and min are the type's order.
                "max" => acc.max(x),
                "min" => acc.min(x),
                other => unknown(other),
            }
        });
        return match dtype {
            Elem::F32 => acc.to_bits() as i64,
            _ => f32_to_f16(acc) as i64,
        };
    }
    let acc = (words[1..].iter()).fold(words[0] as i32, |acc, &w| match reduce {
        "sum" => acc.wrapping_add(w as i32),
        "prod" => acc.wrapping_mul(w as i32),
        "max" => acc.max(w as i32),
        "min" => acc.min(w as i32),
        other => unknown(other),
    });
    match dtype {
        Elem::I8 => acc as i8 as i64,
        _ => acc as i64,
    }
}

/// Per rank, the target's words (`target_rows * row_elems`, row-major) after the last call, for
/// an `ok` case (reductions: the mesh fold, also the reference of ring mode).
pub fn expected_targets(case: &FamilyCase) -> Vec<Vec<i64>> {
    expected_targets_after(case, case.repeat as i64 - 1)
}

/// As [`expected_targets`], after call `k` (every call stages its own payload and the op writes
/// the same rows each time, so call k's target is the meaning over call k's payload).
pub fn expected_targets_after(case: &FamilyCase, k: i64) -> Vec<Vec<i64>> {
    let p = case.ranks as i64;
    let e_n = case.row_elems;
    let reduce = case.reduce.as_deref().unwrap_or("sum");
    let pay = |r: i64, i: i64, e: i64| payload(case, r, i, e, k);
    let folded = |i: i64, e: i64| -> i64 {
        let words: Vec<i64> = (0..p).map(|q| pay(q, i, e)).collect();
        fold(case.dtype, reduce, &words)
    };
    let meaning = case.op.rules().meaning;
    let sources = case.sources();
    let initial = |r: i64, i: i64, e: i64| -> i64 {
        if case.prefill {
            payload(case, r, i, e, super::case::PREFILL_CALL)
        } else {
            0
        }
    };
    (0..p)
        .map(|r| {
            let mut out = Vec::with_capacity((case.target_rows() * e_n) as usize);
            for row in 0..case.target_rows() {
                for e in 0..e_n {
                    out.push(meaning(&At {
                        m: case.rows,
                        root: case.root,
                        sources: &sources,
                        rank: r,
                        row,
                        elem: e,
                        payload: &pay,
                        folded: &folded,
                        initial: &initial,
                    }));
                }
            }
            out
        })
        .collect()
}

fn describe(case: &FamilyCase, w: i64) -> String {
    match case.dtype {
        Elem::F32 | Elem::F16 => format!("{} (bits {w:#x})", case.dtype.value(w)),
        _ => w.to_string(),
    }
}

/// Compares an `ok` result with the golden; names the first mismatch.
pub fn check(case: &FamilyCase, result: &SimResult) -> Result<(), String> {
    crate::golden::outcome_is(result, ("ok", 0), case.blocks(), "")?;
    let p = case.ranks;
    if result.ranks.len() != p {
        return Err(format!(
            "{} ranks in the result, expected {p}",
            result.ranks.len()
        ));
    }
    // The signal: the case's shape, every cell 0.
    let shape = case.signal_shape();
    let (rows, cols) = (
        shape[0] as usize,
        shape[1..].iter().product::<i64>() as usize,
    );
    for (r, rank) in result.ranks.iter().enumerate() {
        rank.zero_signal(rows, cols).map_err(|e| {
            format!("rank {r}: {e} (the signal shape {shape:?}, after the last call)")
        })?;
    }
    if !case.op.moves_payload() {
        return check_barrier(case, result);
    }
    let e_n = case.row_elems as usize;
    for (r, rank) in result.ranks.iter().enumerate() {
        if rank.target.len() != case.target_rows() as usize
            || rank.target.iter().any(|row| row.len() != e_n)
        {
            return Err(format!(
                "rank {r}: target is not [{}, {e_n}]",
                case.target_rows()
            ));
        }
    }
    let last = case.repeat as i64 - 1;
    let finals: Vec<Vec<i64>> = result
        .ranks
        .iter()
        .map(|rank| rank.target.iter().flatten().copied().collect())
        .collect();
    check_targets(case, last, &finals).map_err(|e| format!("{e} (after the last call)"))?;
    // Every call's target, as its record step saw it right after the call's collective (a call
    // a later call's restaging broke shows only here). A result read back from its JSON carries
    // no history.
    if result.ranks.iter().all(|rank| rank.history.is_empty()) {
        return Ok(());
    }
    for k in 0..case.repeat as usize {
        let at_k: Vec<Vec<i64>> = result
            .ranks
            .iter()
            .map(|rank| rank.history.get(k).cloned().unwrap_or_default())
            .collect();
        if at_k.iter().any(|t| t.len() != finals[0].len()) {
            return Err(format!("call {k}: no recorded target of every rank"));
        }
        check_targets(case, k as i64, &at_k).map_err(|e| format!("call {k}: {e}"))?;
    }
    Ok(())
}

/// Compares every rank's target words after call `k` with the golden; names the first mismatch.
fn check_targets(case: &FamilyCase, k: i64, got_all: &[Vec<i64>]) -> Result<(), String> {
    let expected = expected_targets_after(case, k);
    let e_n = case.row_elems.max(1) as usize;
    let float = matches!(case.dtype, Elem::F32 | Elem::F16);
    let reduce = case.reduce.as_deref().unwrap_or("sum");
    let tolerant = case.ring() && float && matches!(reduce, "sum" | "prod");
    if case.ring() {
        // Bitwise identical on every rank.
        let first = &got_all[0];
        for (r, got) in got_all.iter().enumerate().skip(1) {
            if let Some(j) = (0..got.len()).find(|&j| got[j] != first[j]) {
                return Err(format!(
                    "ring: rank {r} target[{}][{}] = {} differs from rank 0's {} (ring results must be bitwise identical on every rank)",
                    j / e_n,
                    j % e_n,
                    describe(case, got[j]),
                    describe(case, first[j])
                ));
            }
        }
    }
    let rel = if case.dtype == Elem::F32 { 1e-5 } else { 1e-2 };
    for (r, got) in got_all.iter().enumerate() {
        for (j, (&g, &x)) in got.iter().zip(&expected[r]).enumerate() {
            let ok = if tolerant {
                let (gv, xv) = (case.dtype.value(g), case.dtype.value(x));
                g == x || (gv - xv).abs() <= rel * xv.abs()
            } else {
                g == x
            };
            if !ok {
                let (row, e) = (j / e_n, j % e_n);
                return Err(format!(
                    "rank {r}: target[{row}][{e}] = {}, expected {}{}",
                    describe(case, g),
                    describe(case, x),
                    if tolerant {
                        format!(" within {rel} relative (ring vs the mesh fold)")
                    } else {
                        String::new()
                    }
                ));
            }
        }
    }
    Ok(())
}

/// barrier: no rank leaves before every rank has entered, for every call the result reports.
fn check_barrier(case: &FamilyCase, result: &SimResult) -> Result<(), String> {
    let k = case.repeat as usize;
    // Per call: (max enter, its rank), (min leave, its rank).
    let mut spans: Vec<Vec<(usize, i64, i64)>> = vec![Vec::new(); k];
    if result.spans.is_empty() {
        for (r, rank) in result.ranks.iter().enumerate() {
            let (Some(a), Some(b)) = (rank.enter_ns, rank.leave_ns) else {
                return Err(format!("rank {r}: no enter_ns / leave_ns"));
            };
            spans[k - 1].push((r, a, b));
        }
    } else {
        for &(r, call, a, b) in &result.spans {
            if call >= k {
                return Err(format!("rank {r}: a barrier span for call {call} of {k}"));
            }
            spans[call].push((r, a, b));
        }
        for (call, s) in spans.iter().enumerate() {
            if s.len() != case.ranks {
                return Err(format!(
                    "call {call}: {} barrier spans, expected one per rank ({})",
                    s.len(),
                    case.ranks
                ));
            }
        }
    }
    for (call, s) in spans.iter().enumerate() {
        if s.is_empty() {
            continue;
        }
        let last_in = s.iter().max_by_key(|x| x.1).expect("spans");
        let first_out = s.iter().min_by_key(|x| x.2).expect("spans");
        if first_out.2 < last_in.1 {
            return Err(format!(
                "barrier call {call}: rank {} left at {} ns before rank {} entered at {} ns",
                first_out.0, first_out.2, last_in.0, last_in.1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_rounding_by_hand() {
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-2.0), 0xc000);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00); // rounds up to infinity
        assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
        assert_eq!(f32_to_f16(2f32.powi(-25)), 0x0000); // tie to even (0)
        assert_eq!(f32_to_f16(3.0 * 2f32.powi(-25)), 0x0002); // tie to even (2)
        assert_eq!(f32_to_f16(2f32.powi(-14)), 0x0400);
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even is 1.
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
        // 1 + 3*2^-11: tie between 1+2^-10 (odd) and 1+2^-9 (even).
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        // 2047.5 -> 2048 (carry into the exponent).
        assert_eq!(f32_to_f16(2047.5), 0x6800);
        for h in 0u16..0x7c00 {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#x}");
            assert_eq!(f32_to_f16(-f16_to_f32(h)), h | 0x8000, "{h:#x}");
        }
    }

    #[test]
    fn fold_is_left_to_right_and_rounds_once() {
        // f16: 1000.125 is not an f16 (spacing 0.5 there) but the f32 accumulator keeps it;
        // one rounding at the end: 1000.125 + 0.375 = 1000.5, exactly an f16.
        let w = |v: f32| f32_to_f16(v) as i64;
        let got = fold(Elem::F16, "sum", &[w(1000.0), w(0.125), w(0.375)]);
        assert_eq!(f16_to_f32(got as u16), 1000.5);
        // Rounding after every step would give 1000 + 0.125 -> 1000, + 0.375 -> 1000.5? no:
        // 1000.375 -> 1000.5 (nearest): the once-rounded result differs for 0.125 + 0.125.
        let got = fold(Elem::F16, "sum", &[w(1000.0), w(0.125), w(0.125)]);
        assert_eq!(f16_to_f32(got as u16), 1000.0); // 1000.25 ties to even 1000.0
        let got = fold(Elem::F16, "sum", &[w(1000.0), w(0.125), w(0.125), w(0.125)]);
        assert_eq!(f16_to_f32(got as u16), 1000.5); // 1000.375 -> 1000.5
        // i32 wraps.
        assert_eq!(
            fold(Elem::I32, "sum", &[i32::MAX as i64, 1]),
            i32::MIN as i64
        );
        assert_eq!(fold(Elem::I32, "prod", &[65536, 65536]), 0);
        assert_eq!(fold(Elem::I32, "max", &[-3, 7, 2]), 7);
        // f32: the left fold's order matters: (1e8 + 1) - 1e8 = 0 in f32.
        let f = |v: f32| v.to_bits() as i64;
        let got = fold(Elem::F32, "sum", &[f(1e8), f(1.0), f(-1e8)]);
        assert_eq!(f32::from_bits(got as u32), 0.0);
    }

    #[test]
    fn expected_rows_by_hand() {
        let c = FamilyCase::from_json(
            r#"{"op": "all_to_all", "ranks": 2, "dtype": "i8", "rows": 1, "row_elems": 1}"#,
        )
        .unwrap();
        // payload(r, i) = (r*37 + i*11) % 251 - 125; rank r row q = payload(q, r).
        let t = expected_targets(&c);
        assert_eq!(t[0], vec![-125, 37 - 125]);
        assert_eq!(t[1], vec![11 - 125, 37 + 11 - 125]);
        let c = FamilyCase::from_json(
            r#"{"op": "reduce_scatter", "ranks": 2, "dtype": "i32", "rows": 1, "row_elems": 1, "reduce": "sum", "repeat": 2}"#,
        )
        .unwrap();
        // k = 1: payload(r, i) = r*7919 + i*104729 + 31.
        let pay = |r: i64, i: i64| r * 7919 + i * 104729 + 31;
        let t = expected_targets(&c);
        assert_eq!(t[0], vec![pay(0, 0) + pay(1, 0), pay(0, 1)]);
        assert_eq!(t[1], vec![pay(1, 0), pay(0, 1) + pay(1, 1)]);
        let c = FamilyCase::from_json(
            r#"{"op": "allreduce", "ranks": 3, "dtype": "f32", "rows": 1, "row_elems": 1, "reduce": "prod"}"#,
        )
        .unwrap();
        // 1 + ((r % 5) - 2)/16 for r = 0, 1, 2: 0.875 * 0.9375 * 1.
        let t = expected_targets(&c);
        assert_eq!(f32::from_bits(t[2][0] as u32), 0.875 * 0.9375);
    }
}
