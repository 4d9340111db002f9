//! Running one family case: the case's module ([`super::module`]) built into a runner as pld-run
//! builds one, run by the engine (`pld_run::engine`) with the stage step's source and
//! counters as inputs, and the windows it wrote back read into the result.

use super::case::{FamilyCase, PREFILL_CALL, Rail};
use super::golden;
use super::module::{CHIP_FN, HOST_FN, KERNELS_DIR, history_owners, module};
use super::ops::{Elem, FAMILY_DTYPES};
use crate::SimError;
use crate::launch::{self, Timed, block_counts, started};
use crate::result::{RankResult, SimResult, rows_of};
use pld_run::engine::{Arg, EntryRun, Place, Report, Spec, TensorArg};
use pld_run::manifest::Kind;
use pld_run::toolchain::Toolchain;

/// Appends rank r's `rows` rows of the family spec's payload for call k ([`golden::payload`]: the
/// formula the golden checks against), little-endian.
fn payload(case: &FamilyCase, r: i64, rows: i64, k: i64, out: &mut Vec<u8>) {
    let size = case.dtype.size() as usize;
    for i in 0..rows {
        for e in 0..case.row_elems {
            out.extend_from_slice(&golden::payload(case, r, i, e, k).to_le_bytes()[..size]);
        }
    }
}

/// The stage step's source `[P][K][N*E]` (every rank's payload of every call) and its `[P]`
/// counters (zeros), each one host buffer every rank shares.
fn stage_inputs(case: &FamilyCase) -> (TensorArg, TensorArg) {
    let p = case.ranks as i64;
    let (n, e_n, k_n) = (case.payload_rows(), case.row_elems, case.repeat as i64);
    let el = case.dtype.size() as usize;
    let mut bytes = Vec::with_capacity((p * k_n * n * e_n).max(0) as usize * el);
    for (r, k) in (0..p).flat_map(|r| (0..k_n).map(move |k| (r, k))) {
        payload(case, r, n, k, &mut bytes);
    }
    let rows = (p * k_n * n).max(1) as u64;
    if bytes.is_empty() {
        bytes = vec![0; rows as usize * e_n.max(1) as usize * el];
    }
    let mut src = TensorArg::zeros(Place::Host, el, &[rows, e_n as u64]);
    src.shared = Some(bytes);
    // One buffer each, every rank's stage step reading its own chunk and bumping its own counter
    // (per-rank copies would hold P times the source).
    src.one_buffer = true;
    let mut calls = TensorArg::zeros(Place::Host, 4, &[p as u64]);
    calls.one_buffer = true;
    (src, calls)
}

/// `prefill`: every rank's target starts as the payload rule with k = 501.
fn prefill(case: &FamilyCase, target: &mut TensorArg) {
    if !case.prefill {
        return;
    }
    for r in 0..case.ranks {
        let mut bytes = Vec::new();
        payload(case, r as i64, case.target_rows(), PREFILL_CALL, &mut bytes);
        target.per_rank.insert(r, bytes);
    }
}

/// Runs one family case end to end. `Err` is a failure of pld-sim itself; every outcome of the
/// case (compile_error included) is an `Ok` result.
pub fn run_family(tc: &Toolchain, case: &FamilyCase) -> Result<SimResult, SimError> {
    run_with(tc, case, None)
        .map(|(res, _)| res)
        .map_err(SimError::Driver)
}

/// Runs `case` (`timed`: as a benchmark, unbounded in time); the result is the last run's, and
/// the engine's report comes with it (`None` when the run was killed).
pub(crate) fn run_with(
    tc: &Toolchain,
    case: &FamilyCase,
    timed: Option<Timed>,
) -> Result<(SimResult, Option<Report>), String> {
    let (function, host) = match case.rail {
        Rail::Chip => (CHIP_FN, false),
        Rail::Host => (HOST_FN, true),
    };
    // `pl.kernel_source = "kernels/family_stage.cpp"` is relative to the kernels' parent.
    let kernel_dir = tc.root.join(KERNELS_DIR);
    let kernel_dir = kernel_dir.parent().unwrap_or(&tc.root);
    let runner = match launch::build(
        tc,
        &module(case),
        kernel_dir,
        (&[function], host),
        case.blocks(),
    )? {
        Ok(r) => r,
        Err(compile_error) => return Ok((compile_error, None)),
    };
    if !FAMILY_DTYPES.contains(&case.dtype) {
        return Err(format!(
            "pld-opt accepted dtype {} for {}, but the family spec's payload rule covers only f32, f16, i8 and i32",
            case.dtype.name(),
            case.op.name()
        ));
    }
    let entry = runner.entry(function)?;
    let barrier = !case.op.moves_payload();
    let el = case.dtype.size() as usize;
    let e_n = case.row_elems as u64;
    let (src, calls) = stage_inputs(case);
    // Every call's target, recorded after its collective (module.rs's family_record).
    let (k_n, t_rows) = (case.repeat as u64, case.target_rows() as u64);
    let history = TensorArg::zeros(
        Place::Host,
        el,
        &[history_owners(case) as u64, k_n * t_rows, e_n],
    );
    // The tensors in parameter order: the stage step's (but the barrier's), then the windows in
    // the manifest's shapes, the CHIP function's window parameters or the HOST orchestrator's own
    // (at the manifest's offsets); and where the target and the signal are among them.
    let mut values = Vec::new();
    let (calls_ix, history_ix) = match barrier {
        true => (None, None),
        false => {
            values.extend([src, calls, history]);
            (Some(1), Some(2))
        }
    };
    let own = match &entry.host_windows {
        Some(hw) if hw.note.is_some() => {
            return Err("the HOST orchestrator's window layout is not static".into());
        }
        Some(hw) => &hw.windows[..],
        None => &[],
    };
    let (mut target_ix, mut signal_ix) = (None, None);
    for p in entry.params.iter().chain(own) {
        let (dims, elem, place) = match &p.kind {
            Kind::Window(d, e) => (d, e, Place::Window),
            Kind::HostWindow(d, e, offset) => (d, e, Place::HostWindow(*offset)),
            _ => continue,
        };
        let mut t = TensorArg::zeros(place, elem.size() as usize, dims);
        match p.name.as_str() {
            "target" => {
                prefill(case, &mut t);
                target_ix = Some(values.len());
            }
            "signal" => signal_ix = Some(values.len()),
            _ => {}
        }
        values.push(t);
    }
    let signal_ix = signal_ix.ok_or("the manifest names no window `signal`")?;
    if !barrier && target_ix.is_none() {
        return Err("the manifest names no window `target`".into());
    }
    let host_windows = values.split_off(values.len() - own.len());
    let mut args = launch::bind(&entry, values, &[])?;
    args.extend(host_windows.into_iter().map(Arg::Tensor));
    let mut spec = Spec::new(
        case.ranks,
        if host { entry.window_bytes } else { 4096 },
        EntryRun {
            index: 0,
            domain: None,
            args,
            launch: None,
        },
    );
    launch::configure(tc, &mut spec, case.timeout_ms, case.fault)?;
    if barrier {
        // The barrier's spans: its entry and return on each rank, after the rank's delay.
        spec.trace_kernel = Some(case.kernel_symbol());
        spec.delay_us = case.delay_us.clone();
    }
    // What the kernel moved (`crate::wire::check_family`), but for a benchmark.
    launch::time_runs(&mut spec, timed, case.kernel_symbol());
    let ran =
        match launch::run_bounded(tc, &runner, &spec, (case.timeout_ms, case.blocks()), "rank")? {
            Ok(ran) => ran,
            Err(killed) => return Ok((killed, None)),
        };
    let report = &ran.report;
    if host {
        let want = entry.host_windows.as_ref().and_then(|hw| hw.alloc_end);
        if report.status == 0 && want.is_some() && report.alloc_end != want {
            return Err(
                "the HOST orchestrator's windows are not where the manifest says they are".into(),
            );
        }
    }
    if ran.traced(&spec) {
        let bytes = case.target_rows() as u64 * e_n * el as u64;
        let kernel = case.kernel_symbol();
        crate::wire::check_family(
            &kernel,
            target_ix.map(|t| (t, bytes)),
            case.ranks,
            &report.copies,
        )
        .map_err(|e| format!("the copy trace of {kernel}: {e}"))?;
    }
    let mut res = SimResult::without_ranks("ok", 0, String::new(), case.blocks());
    res.timed = barrier;
    res.kernels = block_counts(report, &runner.kernels(), str::to_string);
    let output = |i: usize, r: usize| {
        report
            .output(i, r)
            .ok_or_else(|| format!("the engine wrote no tensor {i} of rank {r}"))
    };
    let cols = case.signal_shape()[1..].iter().product::<i64>().max(1) as usize;
    for r in 0..case.ranks {
        res.calls.push(match calls_ix {
            Some(i) => Elem::I32.words(&output(i, r)?)[r],
            None => 0,
        });
        let target = match target_ix {
            Some(i) => rows_of(case.dtype.words(&output(i, r)?), case.row_elems as usize),
            None => Vec::new(),
        };
        let signal = rows_of(Elem::I32.words(&output(signal_ix, r)?), cols);
        // This rank's slot of the history: call k's target at k.
        let history = match history_ix {
            Some(i) => {
                let all = rows_of(case.dtype.words(&output(i, r)?), (t_rows * e_n) as usize);
                let own = if history_owners(case) == 1 { 0 } else { r };
                all.into_iter()
                    .skip(own * k_n as usize)
                    .take(k_n as usize)
                    .collect()
            }
            None => Vec::new(),
        };
        res.ranks.push(RankResult {
            target,
            signal,
            history,
            ..RankResult::default()
        });
    }
    // The barrier's spans, numbered per rank in the order they ended; the last of each rank is
    // its enter_ns / leave_ns (a benchmark's: its last run's).
    let last_run = timed.map_or(0, |t| t.runs - 1);
    let mut seen = vec![0usize; case.ranks];
    for s in report.spans.iter().filter(|s| barrier && s.run == last_run) {
        let Some(n) = seen.get_mut(s.rank) else {
            continue;
        };
        res.spans.push((s.rank, *n, s.start_ns, s.end_ns));
        *n += 1;
        res.ranks[s.rank].enter_ns = Some(s.start_ns);
        res.ranks[s.rank].leave_ns = Some(s.end_ns);
    }
    let started = started(&res.kernels);
    let calls = format!(
        "{} call(s){}",
        case.repeat,
        if case.looped { " in an scf.for" } else { "" }
    );
    if ran.clean
        && case.op.moves_payload()
        && let Some(r) = res.calls.iter().position(|&c| c != case.repeat as i64)
    {
        return Err(format!(
            "rank {r}: the stage step ran {} time(s), expected {} (its counter; -1: past the staged calls)",
            res.calls[r], case.repeat
        ));
    }
    let (name, code, message) = ran.outcome(
        &started,
        || {
            format!(
                "{} ranks x {} blocks, {calls}, {} rail",
                case.ranks,
                case.blocks(),
                case.rail.name()
            )
        },
        || None,
        |r, code| format!("rank {r}: the orchestration returned {code}"),
    );
    (res.status, res.code, res.message) = (name.into(), code, message);
    for &r in &ran.unfinished {
        res.ranks[r] = RankResult::failed();
    }
    Ok((res, Some(ran.report)))
}
