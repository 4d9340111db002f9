//! The independent golden for pld-sim results: what an all_to_all_v exchange must leave behind,
//! computed from the case alone (the wire golden of all_to_all_v-protocol.md and the payload
//! formulas of the sim spec, from which the run fills its input too). It shares no code with the
//! kernel template or the runtime.

use crate::case::{Case, Elem, Op};
use crate::result::SimResult;

/// `input[r][d*max_recv + k][e]` of the sim spec, as the value the result JSON carries.
pub fn payload(dtype: Elem, r: i64, d: i64, k: i64, e: i64) -> f64 {
    match dtype {
        // Rounded to f32 as the element is stored (exact below 2^24).
        Elem::F32 => (r * 1_000_000 + d * 10_000 + k * 100 + e) as f32 as f64,
        Elem::I8 => ((r * 37 + d * 11 + k * 5 + e) % 251 - 125) as f64,
        // The spec has no payload for another dtype (pld-opt refuses it on the CHIP rail): no
        // value matches.
        _ => f64::NAN,
    }
}

/// Rows that cross the wire for one (src, dst) pair: the count clamped to `[0, max_recv]`.
pub fn clamped_rows(count: i32, max_recv: i64) -> i64 {
    (count as i64).clamp(0, max_recv)
}

/// The launch width the result must report for P ranks and core_num L, folded here
/// independently of pld's `cal_all_to_all_v_blocks`: `L < P ? L : L / P * P` for `1 <= L
/// <= 2147483647`, and 0 for an L outside that range (no launch is derived from it: pld-opt
/// rejects the module, or with `runtime_core_num` the orchestration refuses it with error 5).
pub fn fold_blocks(p: usize, l: i64) -> i64 {
    if !(1..=2_147_483_647).contains(&l) {
        return 0;
    }
    let p = p as i64;
    if l < p { l } else { l / p * p }
}

/// The launch width a result must report for a case: the fold for the plain op; for the indexed
/// op `core_num` itself (the exact launch width, indexed.md), 0 outside [1, 2147483647]; a raw
/// launch's own width.
pub fn expected_blocks(case: &Case) -> i64 {
    if let Some(l) = &case.launch {
        return l.blocks;
    }
    match case.op {
        Op::AllToAllV => fold_blocks(case.ranks, case.core_num),
        Op::IndexedAllToAllV if (1..=2_147_483_647).contains(&case.core_num) => case.core_num,
        Op::IndexedAllToAllV => 0,
    }
}

/// One rank's expected state after the exchange.
#[derive(Clone, Debug, PartialEq)]
pub struct RankGolden {
    /// `recv_counts[src]`.
    pub recv_counts: Vec<i64>,
    /// `P * max_recv` rows of `row_elems` values.
    pub target: Vec<Vec<f64>>,
}

/// The value of a target element that starts as a raw launch's `target_fill` byte (0 for a
/// pipeline, whose windows start zeroed).
pub fn background(case: &Case) -> f64 {
    let b = case.launch.as_ref().map_or(0, |l| l.target_fill);
    match case.dtype {
        Elem::I8 => b as i8 as f64,
        _ => f32::from_le_bytes([b; 4]) as f64,
    }
}

/// What a rank holds before any exchange: every target value [`background`], every
/// `recv_counts` entry 0 (a raw launch's `recv_fill`).
fn initial(case: &Case, bg: f64) -> RankGolden {
    let p = case.ranks;
    RankGolden {
        recv_counts: vec![case.launch.as_ref().map_or(0, |l| l.recv_fill as i64); p],
        target: vec![vec![bg; case.row_elems as usize]; case.target_rows() as usize],
    }
}

/// Every rank's expected `recv_counts` and `target` after a run: a direct simulation of the
/// model, window by window. Every rank's `target` and `recv_counts` windows start at 0 and are
/// never cleared; each `chip_pipeline` call (`repeat` of them, back to back) runs
/// `layers` exchanges (× the internal `inner_layers`); exchange 0 of a call sends the case's
/// input `x_0`, exchange k > 0 sends `x_k`, the whole target window the same rank held after
/// exchange k − 1 (what stage_step copies into the staging window). In exchange k, row
/// `src*MAX_RECV + j` of rank `dst`'s target, for `j < rows(src, dst)`, becomes row
/// `dst*MAX_RECV + j` of `x_k` on rank `src`, and `recv_counts[src]` becomes `rows(src, dst)`;
/// every other row keeps what it held (0 if no exchange ever wrote it). The signal must be all
/// zeros after every exchange.
pub fn expected(case: &Case) -> Vec<RankGolden> {
    if case.op == Op::IndexedAllToAllV {
        return expected_indexed(case);
    }
    let bg = background(case);
    let p = case.ranks as i64;
    let (mr, re) = (case.max_recv, case.row_elems);
    // x_0: input[r][d*MR + k][e].
    let mut input: Vec<Vec<Vec<f64>>> = (0..p)
        .map(|r| {
            (0..p * mr)
                .map(|row| {
                    (0..re)
                        .map(|e| payload(case.dtype, r, row / mr, row % mr, e))
                        .collect()
                })
                .collect()
        })
        .collect();
    let mut windows: Vec<RankGolden> = (0..p).map(|_| initial(case, bg)).collect();
    let exchanges = case.exchanges_per_call();
    for call in 0..case.repeat {
        // What each rank stages: the input first, then its own target window (no copy the
        // model does not need: a benchmark's case holds 64 MiB per rank).
        let mut x = if call + 1 == case.repeat {
            std::mem::take(&mut input)
        } else {
            input.clone()
        };
        for exchange in 0..exchanges {
            for dst in 0..p {
                let w = &mut windows[dst as usize];
                for src in 0..p {
                    let rows = clamped_rows(case.send_counts[src as usize][dst as usize], mr);
                    w.recv_counts[src as usize] = rows;
                    for k in 0..rows {
                        // Source row dst*MR + k of rank src's x.
                        w.target[(src * mr + k) as usize]
                            .clone_from(&x[src as usize][(dst * mr + k) as usize]);
                    }
                }
            }
            if exchange + 1 < exchanges {
                x = windows.iter().map(|w| w.target.clone()).collect();
            }
        }
    }
    windows
}

/// The indexed op (docs/spec/indexed.md), written from the contract alone: on rank `dst`,
/// from every source `src` (itself included), target row `src*MAX_RECV + k` for
/// `k < rows(src, dst)` is row `i = index[src][dst*MAX_RECV + k]` of rank src's input (the payload
/// formula with `d = i / MAX_RECV`, `k' = i % MAX_RECV`) when `0 <= i < input_rows`, else a row
/// of zeros; rows past the count keep their initial 0; `recv_counts[src] = rows(src, dst)`. Every
/// call of `repeat` stages the same input and writes the same rows, so repeating changes nothing.
fn expected_indexed(case: &Case) -> Vec<RankGolden> {
    let p = case.ranks as i64;
    let (mr, re, n_in) = (case.max_recv, case.row_elems, case.readable_rows());
    let index = case.gathered_lists();
    let bg = background(case);
    (0..p)
        .map(|dst| {
            let mut g = initial(case, bg);
            for src in 0..p {
                let rows = clamped_rows(case.send_counts[src as usize][dst as usize], mr);
                g.recv_counts[src as usize] = rows;
                for k in 0..rows {
                    let i = index[src as usize][(dst * mr + k) as usize] as i64;
                    g.target[(src * mr + k) as usize] = if (0..n_in).contains(&i) {
                        (0..re)
                            .map(|e| payload(case.dtype, src, i / mr, i % mr, e))
                            .collect()
                    } else {
                        vec![0.0; re as usize]
                    };
                }
            }
            g
        })
        .collect()
}

/// The result's status, code and launch width are `status`, `code` and `blocks` (`whose`: the
/// B's name in the error).
pub(crate) fn outcome_is(
    result: &SimResult,
    (status, code): (&str, i64),
    blocks: i64,
    whose: &str,
) -> Result<(), String> {
    if result.status != status || result.code != code {
        return Err(format!(
            "expected {status} {code}, got {} {}: {}",
            result.status, result.code, result.message
        ));
    }
    if result.blocks != blocks {
        return Err(format!(
            "blocks = {}, expected {whose}B = {blocks}",
            result.blocks
        ));
    }
    Ok(())
}

/// Checks a pld-sim result of status `ok` against the golden: `blocks`, every rank's
/// `recv_counts`, every target value, and an all-zero `[P, S]` signal. The error names the first
/// few mismatches.
pub fn check(case: &Case, result: &SimResult) -> Result<(), String> {
    outcome_is(result, ("ok", 0), expected_blocks(case), "")?;
    let golden = expected(case);
    if result.ranks.len() != golden.len() {
        return Err(format!(
            "{} ranks in the result, expected {}",
            result.ranks.len(),
            golden.len()
        ));
    }
    let stride = case.stride() as usize;
    let mut errors = Vec::new();
    let mut push = |msg: String| {
        if errors.len() < 8 {
            errors.push(msg);
        }
    };
    for (r, (got, want)) in result.ranks.iter().zip(&golden).enumerate() {
        if got.recv_counts.as_ref() != Some(&want.recv_counts) {
            push(format!(
                "rank {r}: recv_counts {:?}, expected {:?}",
                got.recv_counts, want.recv_counts
            ));
        }
        let target = got.values(case.dtype);
        if target.len() != want.target.len() {
            push(format!(
                "rank {r}: {} target rows, expected {}",
                target.len(),
                want.target.len()
            ));
        } else {
            for (row, (g, w)) in target.iter().zip(&want.target).enumerate() {
                if g != w {
                    let col = g
                        .iter()
                        .zip(w)
                        .position(|(a, b)| a != b)
                        .unwrap_or(g.len().min(w.len()));
                    push(format!(
                        "rank {r}: target row {row} (from rank {}, row {} of its chunk) differs at element {col}: got {:?}, expected {:?}",
                        row as i64 / case.max_recv,
                        row as i64 % case.max_recv,
                        g.get(col),
                        w.get(col)
                    ));
                }
            }
        }
        if let Err(e) = got.zero_signal(case.ranks, stride) {
            push(format!("rank {r}: {e}"));
        }
    }
    errors.is_empty().then_some(()).ok_or(errors.join("\n"))
}

/// Checks a `domains` case's result of status `ok`: every domain's exchange equals the golden of
/// its own case ([`Case::domain_case`]: N ranks, its counts) on devices `0..N`, with `blocks` the
/// fold of (N, L); and on every world device outside the domain (`N..W`) that domain's target,
/// recv_counts and signal windows are untouched (all zero, in the domain's shapes). The top-level
/// `blocks` is the widest domain's B.
pub fn check_domains(case: &Case, result: &SimResult) -> Result<(), String> {
    let widest = (0..case.domains.len())
        .map(|d| expected_blocks(&case.domain_case(d)))
        .max()
        .unwrap_or(0);
    outcome_is(result, ("ok", 0), widest, "the widest domain's ")?;
    if result.domains.len() != case.domains.len() {
        return Err(format!(
            "{} domains in the result, expected {}",
            result.domains.len(),
            case.domains.len()
        ));
    }
    let mut errors = Vec::new();
    for (d, got) in result.domains.iter().enumerate() {
        let sub = case.domain_case(d);
        let n = sub.ranks;
        if got.ranks != n || got.devices.len() != case.ranks {
            errors.push(format!(
                "domain {d}: {} ranks over {} devices, expected {n} over the world's {}",
                got.ranks,
                got.devices.len(),
                case.ranks
            ));
            continue;
        }
        let inside = SimResult {
            blocks: got.blocks,
            ranks: got.devices[..n].to_vec(),
            ..SimResult::without_ranks(&result.status, result.code, result.message.clone(), 0)
        };
        if let Err(e) = check(&sub, &inside) {
            errors.push(format!("domain {d} ({n} ranks): {e}"));
        }
        let rows = n * sub.max_recv as usize;
        let zero_target = vec![vec![0.0; sub.row_elems as usize]; rows];
        for (w, dev) in got.devices.iter().enumerate().skip(n) {
            if dev.recv_counts != Some(vec![0; n])
                || dev.values(case.dtype) != zero_target
                || dev.zero_signal(n, sub.stride() as usize).is_err()
            {
                errors.push(format!(
                    "domain {d} ({n} ranks): device {w} is outside the domain, but its windows of the domain were written (or have the wrong shape)"
                ));
            }
        }
    }
    errors.is_empty().then_some(()).ok_or(errors.join("\n"))
}

/// Every rank's expected `recv_counts` and `target` after a refused first exchange (a strided
/// operand, an over-capacity launch, or with `runtime_core_num` an L outside [1, 2147483647] or
/// S < B): the stage task before the collective ran, the collective and everything after it did
/// not, so target and recv_counts hold their initial zeros, or a raw launch's fills (and the
/// signal its zeros).
pub fn expected_refused(case: &Case) -> Vec<RankGolden> {
    let bg = background(case);
    (0..case.ranks).map(|_| initial(case, bg)).collect()
}

/// Checks a refused run: the status and code, `blocks` (the fold of [`fold_blocks`]), every
/// rank's target, recv_counts and `[P, S]` signal untouched (all zero, [`expected_refused`]), and
/// the stage task's effect: the message reports the staging window (and the send_counts window)
/// holding the input on every rank, which the driver checks after the run.
pub fn check_refused(
    case: &Case,
    result: &SimResult,
    status: &str,
    code: i64,
) -> Result<(), String> {
    outcome_is(result, (status, code), expected_blocks(case), "")?;
    let staged = format!(
        "staging windows holding the input: {p} of {p} ranks",
        p = case.ranks
    );
    // A raw launch has no stage task.
    if case.launch.is_none() && !result.message.contains(&staged) {
        return Err(format!(
            "the stage task's effect is missing (expected \"{staged}\"): {}",
            result.message
        ));
    }
    untouched(case, result)
}

/// Checks a run whose collective wrote nothing (a raw launch's kernel that returned early on an
/// operand it cannot serve): status ok, `blocks`, and every rank's operands as they started
/// ([`expected_refused`]).
pub fn check_untouched(case: &Case, result: &SimResult) -> Result<(), String> {
    outcome_is(result, ("ok", 0), expected_blocks(case), "")?;
    untouched(case, result)
}

/// Every rank's target, recv_counts and signal as they started.
fn untouched(case: &Case, result: &SimResult) -> Result<(), String> {
    let golden = expected_refused(case);
    if result.ranks.len() != golden.len() {
        return Err(format!(
            "{} ranks in the result, expected {}",
            result.ranks.len(),
            golden.len()
        ));
    }
    for (r, (got, want)) in result.ranks.iter().zip(&golden).enumerate() {
        if got.recv_counts.as_ref() != Some(&want.recv_counts)
            || got.values(case.dtype) != want.target
            || got.zero_signal(case.ranks, case.stride() as usize).is_err()
        {
            return Err(format!(
                "rank {r}: the collective wrote its operands (or their shape is wrong), which a refused launch or an early return must not"
            ));
        }
    }
    Ok(())
}
