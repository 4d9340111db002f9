//! pld-sim's runs of the engine (`pld_run::engine`, the one C++ main over the runtime): a
//! case's module built into a runner exactly as pld-run builds one (`pld_run::build`,
//! cached by content), run bounded as the case says, and the fault and kill outcomes every
//! simulator reports alike.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::case::{Case, Elem, Fault};
use crate::result::SimResult;
use pld_run::RunError;
use pld_run::build::{self, Tree};
use pld_run::engine::{self, Arg, Ended, RankEnd, Report, Spec, TensorArg};
use pld_run::manifest::{Entry, Kind};
use pld_run::toolchain::Toolchain;

/// A case's runner: its tree and the engine linked with it.
pub(crate) struct Runner {
    /// The rendered tree (its manifest).
    pub tree: Tree,
    /// The engine executable.
    pub exe: PathBuf,
    /// The module text (the manifest's entries name their parameters from it).
    pub source: String,
}

impl Runner {
    /// The manifest's entry `function`.
    pub fn entry(&self, function: &str) -> Result<Entry, String> {
        self.tree.manifest.entry(function, &self.source)
    }

    /// Every kernel of the tree, by name (the ones a run never launched count 0 blocks).
    pub fn kernels(&self) -> Vec<String> {
        self.tree.manifest.kernel_names()
    }
}

/// The module's file name (diagnostics cite it).
pub(crate) const MODULE_FILE: &str = "input.mlir";

/// Lowers, renders and links `text` (its `pl.kernel_source`s under `kernel_dir`) for the entries
/// `functions`. `Ok(Err(result))`: pld-opt or pld-translate refused it, the case's compile_error
/// (`blocks`: the case's B).
pub(crate) fn build(
    tc: &Toolchain,
    text: &str,
    kernel_dir: &Path,
    (functions, host): (&[&str], bool),
    blocks: i64,
) -> Result<Result<Runner, SimResult>, String> {
    let tree = match build::translate(tc, MODULE_FILE, text, kernel_dir) {
        Ok(tree) => tree,
        Err(RunError::Compile { code, message }) => {
            let refused = SimResult::without_ranks("compile_error", code, message, blocks);
            return Ok(Err(refused));
        }
        Err(e) => return Err(e.to_string()),
    };
    let exe = build::runner(tc, &tree, functions, host).map_err(|e| {
        format!(
            "building the simulator for {} failed: {e}",
            tree.dir.display()
        )
    })?;
    Ok(Ok(Runner {
        tree,
        exe,
        source: text.to_string(),
    }))
}

/// The input payload of sim.md ([`crate::golden::payload`]: the formula the golden checks
/// against): rank r's `rows` rows of `elems` elements, row `row` read as d = row / MR, k = row %
/// MR, element e (a raw launch's input rows may be of another width).
pub(crate) fn payload(case: &Case, r: usize, rows: i64, elems: i64) -> Vec<u8> {
    let mr = case.max_recv.max(1);
    let mut out = Vec::with_capacity((rows * elems).max(0) as usize * case.dtype.size() as usize);
    for row in 0..rows {
        let (d, k) = (row / mr, row % mr);
        for e in 0..elems {
            let v = crate::golden::payload(case.dtype, r as i64, d, k, e);
            match case.dtype {
                Elem::F32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
                Elem::I8 => out.push(v as i8 as u8),
                // No payload rule: such a case never runs (`run::payload_rule`).
                _ => {}
            }
        }
    }
    out
}

/// Little-endian int32 words, as the engine's input files hold them.
pub(crate) fn i32_bytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Binds `values` (tensors in order) and `scalars` to `entry`'s parameters: a tensor or window
/// parameter takes the next tensor, a scalar the next scalar, a context slot a context.
pub(crate) fn bind(
    entry: &Entry,
    values: Vec<TensorArg>,
    scalars: &[i64],
) -> Result<Vec<Arg>, String> {
    let mut values = values.into_iter();
    let mut scalars = scalars.iter();
    let mut args = Vec::new();
    for p in &entry.params {
        args.push(match p.kind {
            Kind::Comm => Arg::Comm,
            Kind::Scalar(_) => Arg::Scalar(
                *scalars
                    .next()
                    .ok_or_else(|| format!("no value for the scalar parameter {}", p.name))?,
            ),
            Kind::Tensor(..) | Kind::Window(..) => Arg::Tensor(
                values
                    .next()
                    .ok_or_else(|| format!("no value for the parameter {}", p.name))?,
            ),
            Kind::HostWindow(..) => continue,
        });
    }
    if values.next().is_some() || scalars.next().is_some() {
        return Err("more values than the entry has parameters".into());
    }
    Ok(args)
}

/// The case keys every run shares: ranks as processes or threads, the bound, the fault, and the
/// runtime's own signal-wait default (a simulator case has no per-wait bound of its own).
pub(crate) fn configure(
    tc: &Toolchain,
    spec: &mut Spec,
    timeout_ms: i64,
    fault: Option<Fault>,
) -> Result<(), String> {
    if tc.ranks_as_threads && fault.is_some() {
        return Err("a case with 'fault' needs ranks as processes (not --ranks-as threads)".into());
    }
    spec.processes = !tc.ranks_as_threads;
    spec.timeout_ms = timeout_ms.max(0) as u64;
    spec.wait_timeout_ms = Some(-1);
    // Thread mode: a hung rank thread cannot be stopped; pld-sim kills the engine at the bound
    // and reports a timeout of unknown ranks.
    spec.watchdog = false;
    spec.fault = fault.map(|f| (f.rank, f.kind.name().to_string(), f.at.name().to_string()));
    Ok(())
}

/// The grace pld-sim gives a process-mode engine past `timeout_ms` before killing it (the engine
/// ends its rank processes at `timeout_ms` and reports them itself).
const GRACE_MS: u64 = 3000;

/// A scratch directory under the cache, removed on drop (the engine's params, inputs and
/// outputs).
pub(crate) struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs `spec` on `runner`, bounded by its `timeout_ms` (+ [`GRACE_MS`] in process mode); `None`
/// when the engine was killed at the bound. The report reads its outputs from the returned
/// scratch directory.
fn launch(
    tc: &Toolchain,
    runner: &Runner,
    spec: &Spec,
) -> Result<(Option<Report>, Scratch), String> {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = tc.cache.join("runs").join(format!(
        "{}.{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let scratch = Scratch(dir);
    let bound =
        Duration::from_millis(spec.timeout_ms.max(1) + if spec.processes { GRACE_MS } else { 0 });
    let start = Instant::now();
    let (ended, stderr) = engine::run(&runner.exe, &scratch.0, spec, bound)
        .map_err(|e| format!("the simulator {} failed: {e}", runner.exe.display()))?;
    LAST_WALL_US.store(start.elapsed().as_micros() as u64, Ordering::Relaxed);
    // The engine's stderr repeats the runtime's `pld-runtime: error` lines, which the report
    // carries as its message.
    drop(stderr);
    Ok(match ended {
        Ended::Reported(r) => (Some(r), scratch),
        Ended::Killed => (None, scratch),
    })
}

/// A case's finished engine run.
pub(crate) struct Ran {
    /// The engine's report (its outputs in the scratch directory held here).
    pub report: Report,
    /// The fault outcome ([`fault_outcome`]).
    pub fault: Option<(&'static str, String)>,
    /// The ranks whose result entry is `{"failed": true}`.
    pub unfinished: Vec<usize>,
    /// No fault and every rank returned 0.
    pub clean: bool,
    /// What a rank is called ("rank", "device").
    who: &'static str,
    _scratch: Scratch,
}

/// [`launch`] for a case's result (`who` names a rank: "rank", "device"): `Ok(Err(result))` is
/// the timeout result ([`killed_result`]) of an engine pld-sim had to kill at the case's bound.
pub(crate) fn run_bounded(
    tc: &Toolchain,
    runner: &Runner,
    spec: &Spec,
    (timeout_ms, blocks): (i64, i64),
    who: &'static str,
) -> Result<Result<Ran, SimResult>, String> {
    let (report, scratch) = launch(tc, runner, spec)?;
    let Some(report) = report else {
        return Ok(Err(killed_result(tc.ranks_as_threads, timeout_ms, blocks)));
    };
    if report.rank_status.len() != spec.ranks {
        return Err(format!(
            "malformed simulator output: {} statuses for {} {who}s",
            report.rank_status.len(),
            spec.ranks
        ));
    }
    let (fault, unfinished) = fault_outcome(&report.ends, timeout_ms, who);
    let clean = fault.is_none() && report.rank_status.iter().all(|&s| s == 0);
    Ok(Ok(Ran {
        report,
        fault,
        unfinished,
        clean,
        who,
        _scratch: scratch,
    }))
}

/// The wall time of the last engine run of this process, in µs (what `pld-sim` reports).
static LAST_WALL_US: AtomicU64 = AtomicU64::new(0);

/// The wall time of the last simulator run (engine start to exit) in this process.
pub fn last_run_wall() -> Duration {
    Duration::from_micros(LAST_WALL_US.load(Ordering::Relaxed))
}

/// How the ranks ended as a fault outcome: `Some((status, message))` when a rank failed
/// (`rank_failed`) or was ended at the timeout (`timeout`), code 6; and the ranks whose entry is
/// `{"failed": true}`. `what` names a rank ("rank", "device").
fn fault_outcome(
    ends: &[RankEnd],
    timeout_ms: i64,
    what: &str,
) -> (Option<(&'static str, String)>, Vec<usize>) {
    let mut failed = Vec::new();
    let mut timed_out = Vec::new();
    let mut unfinished = Vec::new();
    for (r, end) in ends.iter().enumerate() {
        match end {
            RankEnd::Failed(how) => failed.push(format!("{what} {r} {how}")),
            RankEnd::TimedOut => timed_out.push(r),
            RankEnd::Finished => continue,
        }
        unfinished.push(r);
    }
    let outcome = if !failed.is_empty() {
        let mut m = failed.join("; ");
        if !timed_out.is_empty() {
            let _ = write!(
                m,
                "; still running at the timeout ({timeout_ms} ms): {what}s {timed_out:?}"
            );
        }
        Some(("rank_failed", m))
    } else if !timed_out.is_empty() {
        Some((
            "timeout",
            format!(
                "the run did not end within timeout_ms = {timeout_ms} ms: {what}s {timed_out:?} still running, ended"
            ),
        ))
    } else {
        None
    };
    (outcome, unfinished)
}

impl Ran {
    /// Whether the run's copy trace is whole (a clean, traced run whose log held every copy), so
    /// the copy rules apply.
    pub fn traced(&self, spec: &Spec) -> bool {
        self.clean && spec.trace_copies && self.report.copies_dropped == 0
    }

    /// The case's status, code and message, alike for every suite: the fault's outcome (code 6);
    /// else the first rank whose orchestration returned non-zero (5 `invalid_args`, else `fatal`;
    /// the runtime's message, else `silent(rank, code)`), with `note` (what a refusal left
    /// behind) after the statuses; else `ok` with the summary `ok`. The kernel block counts
    /// `started` end every message.
    pub fn outcome(
        &self,
        started: &str,
        ok: impl FnOnce() -> String,
        note: impl FnOnce() -> Option<String>,
        silent: impl FnOnce(usize, i64) -> String,
    ) -> (&'static str, i64, String) {
        let (status, who) = (&self.report.rank_status, self.who);
        if let Some((name, what)) = &self.fault {
            return (
                name,
                6,
                format!("{what}; {who} statuses {status:?}; {started}"),
            );
        }
        let Some(r) = status.iter().position(|&s| s != 0) else {
            return ("ok", 0, format!("{}; {started}", ok()));
        };
        let code = status[r];
        let what = match &self.report.message {
            Some(m) if !m.is_empty() => m.clone(),
            _ => silent(r, code),
        };
        let note = note().map_or(String::new(), |n| format!("{n}; "));
        (
            if code == 5 { "invalid_args" } else { "fatal" },
            code,
            format!("{what}; {who} statuses {status:?}; {note}{started}"),
        )
    }
}

/// The result of a run pld-sim had to kill (a thread-mode hang, or an engine that outlived its
/// own bound): `timeout`, code 6.
pub(crate) fn killed_result(threads: bool, timeout_ms: i64, blocks: i64) -> SimResult {
    SimResult::without_ranks(
        "timeout",
        6,
        format!(
            "the run did not end within timeout_ms = {timeout_ms} ms{}: the simulator was killed, ranks unknown",
            if threads {
                " (ranks as threads)"
            } else {
                " (+ the driver's grace)"
            }
        ),
        blocks,
    )
}

/// Blocks started per kernel of the tree (`names`, the ones never launched at 0), each counted
/// under `key(name)` (a domains case's per-domain user kernels under their pipeline's name).
pub(crate) fn block_counts(
    report: &Report,
    names: &[String],
    key: impl Fn(&str) -> String,
) -> std::collections::BTreeMap<String, i64> {
    let mut counts: std::collections::BTreeMap<String, i64> = Default::default();
    for n in names {
        counts.entry(key(n)).or_insert(0);
    }
    for (n, b) in report.blocks() {
        *counts.entry(key(&n)).or_insert(0) += b;
    }
    counts
}

/// `kernel blocks started: k=n ...` of [`block_counts`].
pub(crate) fn started(counts: &std::collections::BTreeMap<String, i64>) -> String {
    let each: Vec<String> = counts.iter().map(|(k, n)| format!("{k}={n}")).collect();
    format!("kernel blocks started: {}", each.join(" "))
}

/// Run `run`'s exchange time from the timed kernel's spans: lane b can move data only once block b
/// of every rank has started (its barrier A needs them all), so the exchange starts at the min
/// over lanes of the max over ranks of the block's start, and ends when the last block ends.
pub fn exchange_ns(report: &Report, run: u32) -> i64 {
    let mut lane_ready: std::collections::BTreeMap<i64, i64> = Default::default();
    let mut end = i64::MIN;
    for s in report.spans.iter().filter(|s| s.run == run) {
        let t = lane_ready.entry(s.block).or_insert(s.start_ns);
        *t = (*t).max(s.start_ns);
        end = end.max(s.end_ns);
    }
    let start = lane_ready.values().copied().min().unwrap_or(i64::MAX);
    end.saturating_sub(start)
}

/// A benchmark's runs of one case (the all_to_all_v and family benches): `runs` runs of the
/// entry, each restaged as the first, with the collective's block spans recorded and a memcpy of
/// `copy_bytes` timed before each.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    /// Runs in one engine, the warm-up ones included.
    pub runs: u32,
    /// The bytes of the memcpy baselines.
    pub copy_bytes: u64,
}

/// A benchmark is not bounded by a case's `timeout_ms`: many runs in one engine.
pub const UNBOUNDED_MS: i64 = 86_400_000;

/// Sets `spec` up for `timed` (`None`: one traced run): a benchmark runs untraced (the copy trace
/// would be timed too), `kernel`'s block spans recorded, restaged before each run so that its last
/// run's result is a first run's, which the golden judges.
pub(crate) fn time_runs(spec: &mut Spec, timed: Option<Timed>, kernel: String) {
    spec.trace_copies = timed.is_none();
    if let Some(t) = timed {
        spec.trace_kernel = Some(kernel);
        (spec.runs, spec.copy_bytes, spec.restage) = (t.runs, t.copy_bytes, true);
    }
}

/// One run of a benchmark, ns: the single-thread and the 2-thread memcpy of `copy_bytes` timed
/// just before it (0 when `copy_bytes` is 0), and the collective ([`exchange_ns`]).
#[derive(Clone, Copy, Debug)]
pub struct RunTiming {
    /// The single-thread memcpy.
    pub memcpy: i64,
    /// The same bytes copied by two threads.
    pub memcpy2: i64,
    /// The collective's span.
    pub collective: i64,
}

/// Every run's timing; `Err` names a run without a timed block of the collective, or without
/// its memcpy baselines when `copy_bytes` > 0.
pub fn run_timings(report: &Report, timed: Timed) -> Result<Vec<RunTiming>, String> {
    (0..timed.runs)
        .map(|run| {
            let at = |v: &[i64]| v.get(run as usize).copied().unwrap_or(0);
            let t = RunTiming {
                memcpy: at(&report.copy_ns),
                memcpy2: at(&report.copy2_ns),
                collective: exchange_ns(report, run),
            };
            if t.collective <= 0 {
                Err(format!("run {run}: no timed block of the collective"))
            } else if timed.copy_bytes > 0 && (t.memcpy <= 0 || t.memcpy2 <= 0) {
                Err(format!("run {run}: no memcpy timing"))
            } else {
                Ok(t)
            }
        })
        .collect()
}

/// The median of a benchmark's figures (the mean of the middle two for an even count; 0 for none).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}
