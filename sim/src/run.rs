//! Running one case: module → pld-opt → pld-translate → g++ → the driver on P ranks × B blocks
//! → the result.

use crate::SimError;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::case::{Case, DType, Fault, Op, run_params};
use crate::chip_pipeline::chip_pipeline;
use crate::result::{DomainResult, RankResult, SimResult};
use crate::toolchain::{BuildError, Simulator, Toolchain};

/// A scratch directory under the cache, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tc: &Toolchain) -> Result<Scratch, String> {
        static N: AtomicU64 = AtomicU64::new(0);
        let dir = tc.cache.join("runs").join(format!(
            "{}.{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Builds (or finds in the cache) the simulator for a case's module. `Ok(Err(result))` is a
/// compile_error result.
pub fn build(tc: &Toolchain, case: &Case) -> Result<Result<Simulator, SimResult>, String> {
    let module = chip_pipeline(case);
    let tree = match tc.translate(&module) {
        Ok(tree) => tree,
        Err(BuildError::Compile { code, message }) => {
            return Ok(Err(SimResult::without_ranks(
                "compile_error",
                code,
                message,
                case.blocks(),
            )));
        }
        Err(BuildError::Internal(m)) => return Err(m),
    };
    match tc.simulator(&tree) {
        Ok(sim) => Ok(Ok(sim)),
        Err(BuildError::Compile { message, .. }) | Err(BuildError::Internal(message)) => {
            Err(format!(
                "building the simulator for {} failed: {message}",
                tree.display()
            ))
        }
    }
}

/// The driver's params every case shares (one `key value` line each; the driver reads them
/// by key): the mode, the world, the payload shape, `repeat`, the AIV capacity and a runtime
/// core_num.
fn shared_params(case: &Case, mode: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "mode {mode}");
    let _ = writeln!(s, "ranks {}", case.ranks);
    let _ = writeln!(s, "dtype {}", case.dtype.name());
    let _ = writeln!(s, "max_recv {}", case.max_recv);
    let _ = writeln!(s, "row_elems {}", case.row_elems);
    let _ = writeln!(s, "repeat {}", case.repeat);
    let _ = writeln!(s, "aiv_capacity {}", case.aiv_capacity);
    if case.runtime_core_num {
        // chip_pipeline's scalar parameter; the driver passes it as OrchArgs scalar 0.
        let _ = writeln!(s, "core_num {}", case.core_num);
    }
    s
}

/// How the simulator process ended.
pub(crate) enum Driven {
    /// It exited 0: its output file's text.
    Done(String),
    /// pld-sim's own bound (`timeout_ms`, plus a grace period in process mode, where the driver
    /// enforces `timeout_ms` itself) passed: the simulator's process group was killed.
    Killed,
}

/// The grace pld-sim gives a process-mode driver past `timeout_ms` before killing it (the driver
/// ends its rank processes at `timeout_ms` and reports them itself).
const GRACE_MS: u64 = 3000;

/// Runs a simulator binary `PARAMS OUT` in its own process group, bounded by `timeout_ms` (+
/// [`GRACE_MS`] when `grace`); past the bound the whole group is killed. Rank processes also die
/// with their driver (PR_SET_PDEATHSIG), and the driver with pld-sim.
pub(crate) fn run_bounded(
    binary: &Path,
    dir: &Path,
    params_text: &str,
    timeout_ms: i64,
    grace: bool,
) -> Result<Driven, String> {
    let params_path = dir.join("params.txt");
    let out_path = dir.join("out.txt");
    let err_path = dir.join("stderr.txt");
    fs::write(&params_path, params_text).map_err(|e| e.to_string())?;
    let err_file =
        fs::File::create(&err_path).map_err(|e| format!("{}: {e}", err_path.display()))?;
    let start = Instant::now();
    let mut child = Command::new(binary)
        .arg(&params_path)
        .arg(&out_path)
        .stdin(Stdio::null())
        .stdout(err_file.try_clone().map_err(|e| e.to_string())?)
        .stderr(err_file)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let bound = Duration::from_millis(timeout_ms.max(1) as u64 + if grace { GRACE_MS } else { 0 });
    let mut nap = Duration::from_micros(100);
    let status = loop {
        if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
            break st;
        }
        if start.elapsed() >= bound {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .stderr(Stdio::null())
                .status();
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Driven::Killed);
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(5));
    };
    let wall = start.elapsed();
    LAST_WALL_US.store(wall.as_micros() as u64, Ordering::Relaxed);
    if !status.success() {
        return Err(format!(
            "the simulator {} failed ({status}):\n{}",
            binary.display(),
            fs::read_to_string(&err_path).unwrap_or_default()
        ));
    }
    let text = fs::read_to_string(&out_path).map_err(|e| format!("{}: {e}", out_path.display()))?;
    Ok(Driven::Done(text))
}

/// The `end <r> finished|failed|timeout <how>` lines of a driver's output as a fault outcome:
/// `Some((status, message))` when a rank failed (`rank_failed`) or was ended at the timeout
/// (`timeout`), code 6; and the ranks whose entry is `{"failed": true}`.
pub(crate) fn fault_outcome(
    text: &str,
    timeout_ms: i64,
    what: &str,
) -> (Option<(&'static str, String)>, Vec<usize>) {
    let mut failed = Vec::new();
    let mut timed_out = Vec::new();
    let mut unfinished = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("end ") else {
            continue;
        };
        let mut it = rest.splitn(3, ' ');
        let (Some(r), Some(kind)) = (it.next().and_then(|r| r.parse::<usize>().ok()), it.next())
        else {
            continue;
        };
        let how = it.next().unwrap_or("").trim().to_string();
        match kind {
            "failed" => failed.push(format!("{what} {r} {how}")),
            "timeout" => timed_out.push(r),
            _ => continue,
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

/// The result of a run pld-sim had to kill (a thread-mode hang, or a driver that outlived
/// its own bound): `timeout`, code 6.
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

/// Refuses a `fault` in thread mode (a crash there ends every rank).
fn check_mode(tc: &Toolchain, fault: Option<Fault>) -> Result<(), String> {
    if tc.ranks_as_threads && fault.is_some() {
        return Err("a case with 'fault' needs ranks as processes (not --ranks-as threads)".into());
    }
    Ok(())
}

fn params(case: &Case, mode: &str, extra: &str) -> String {
    let mut s = shared_params(case, mode);
    let _ = writeln!(s, "stride {}", case.stride());
    let _ = writeln!(
        s,
        "non_contiguous {}",
        case.non_contiguous.map_or("none", |o| o.name())
    );
    s.push_str("send_counts");
    for row in &case.send_counts {
        for v in row {
            let _ = write!(s, " {v}");
        }
    }
    s.push('\n');
    if case.op == Op::IndexedAllToAllV {
        let _ = writeln!(s, "op {}", case.op.name());
        let _ = writeln!(s, "input_rows {}", case.in_rows());
        s.push_str("index");
        for list in case.index_lists() {
            for v in list {
                let _ = write!(s, " {v}");
            }
        }
        s.push('\n');
    }
    s.push_str(extra);
    s
}

/// Runs the driver with the case's mode, timeout and fault lines appended to `params_text`.
fn drive(
    tc: &Toolchain,
    sim: &Simulator,
    case: &Case,
    params_text: &str,
) -> Result<Driven, String> {
    check_mode(tc, case.fault)?;
    let scratch = Scratch::new(tc)?;
    let text = format!(
        "{params_text}{}",
        run_params(tc.ranks_as_threads, case.timeout_ms, case.fault)
    );
    let driven = run_bounded(
        &sim.binary,
        &scratch.0,
        &text,
        case.timeout_ms,
        !tc.ranks_as_threads,
    )?;
    Ok(driven)
}

/// The wall time of the last simulator run of this process, in µs (what `pld-sim` reports).
static LAST_WALL_US: AtomicU64 = AtomicU64::new(0);

/// The wall time of the last simulator run (driver start to exit) in this process.
pub fn last_run_wall() -> Duration {
    Duration::from_micros(LAST_WALL_US.load(Ordering::Relaxed))
}

/// The driver's output, keyed lines.
struct DriverOutput {
    status: Vec<i64>,
    error: String,
    kernels: BTreeMap<String, i64>,
    ranks: Vec<(RankResult, bool)>,
    /// Per rank: its staging window holds its input and its send_counts window its send row.
    staged: Vec<bool>,
}

fn parse_output(case: &Case, text: &str) -> Result<DriverOutput, String> {
    parse_output_shaped(case, case.ranks, text)
}

/// The output of `devices` rank sections, each in the shapes of `case` (its P, max_recv,
/// row_elems, S): a `domains` case's section lists every world device in the domain's shapes.
fn parse_output_shaped(case: &Case, devices: usize, text: &str) -> Result<DriverOutput, String> {
    let p = case.ranks;
    let (mr, re, s) = (
        case.max_recv as usize,
        case.row_elems as usize,
        case.stride() as usize,
    );
    let bad = |what: &str| format!("malformed simulator output: {what}");
    let ints = |rest: &str| -> Result<Vec<i64>, String> {
        rest.split_ascii_whitespace()
            .map(|t| {
                t.parse::<i64>()
                    .map_err(|_| bad(&format!("'{t}' is not an integer")))
            })
            .collect()
    };
    let mut out = DriverOutput {
        status: Vec::new(),
        error: String::new(),
        kernels: BTreeMap::new(),
        ranks: Vec::new(),
        staged: Vec::new(),
    };
    let mut cur: Option<RankResult> = None;
    for line in text.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "status" => out.status = ints(rest)?,
            "error" => out.error = rest.trim().to_string(),
            "kernel" => {
                let (name, n) = rest.split_once(' ').ok_or_else(|| bad("kernel line"))?;
                out.kernels.insert(
                    name.to_string(),
                    n.trim().parse().map_err(|_| bad("kernel count"))?,
                );
            }
            "rank" => {
                cur = Some(RankResult {
                    failed: false,
                    recv_counts: Vec::new(),
                    target: Vec::new(),
                    signal: Vec::new(),
                })
            }
            "recv_counts" => {
                cur.as_mut()
                    .ok_or_else(|| bad("recv_counts before rank"))?
                    .recv_counts = ints(rest)?
            }
            "target" => {
                let vals: Vec<f64> = rest
                    .split_ascii_whitespace()
                    .map(|t| {
                        t.parse::<f64>()
                            .map_err(|_| bad(&format!("'{t}' is not a number")))
                    })
                    .collect::<Result<_, _>>()?;
                if vals.len() != p * mr * re {
                    return Err(bad(&format!(
                        "{} target values, expected {}",
                        vals.len(),
                        p * mr * re
                    )));
                }
                cur.as_mut()
                    .ok_or_else(|| bad("target before rank"))?
                    .target = vals.chunks(re).map(|c| c.to_vec()).collect();
            }
            "signal" => {
                let vals = ints(rest)?;
                if vals.len() != p * s {
                    return Err(bad(&format!(
                        "{} signal values, expected {}",
                        vals.len(),
                        p * s
                    )));
                }
                cur.as_mut()
                    .ok_or_else(|| bad("signal before rank"))?
                    .signal = vals.chunks(s).map(|c| c.to_vec()).collect();
            }
            "end" => {}
            "staged" => {
                cur.as_ref().ok_or_else(|| bad("staged before rank"))?;
                out.staged.push(rest.trim() == "1");
            }
            "out_matches" => {
                let r = cur.take().ok_or_else(|| bad("out_matches before rank"))?;
                out.ranks.push((r, rest.trim() == "1"));
            }
            "" => {}
            other => return Err(bad(&format!("unknown line '{other}'"))),
        }
    }
    if out.status.len() != devices || out.ranks.len() != devices || out.staged.len() != devices {
        return Err(bad(&format!(
            "{} statuses, {} ranks and {} staged lines for {devices} devices (P = {p})",
            out.status.len(),
            out.ranks.len(),
            out.staged.len()
        )));
    }
    Ok(out)
}

/// Runs one case end to end. `Err` is a failure of pld-sim itself (a tool missing, the generated
/// tree not compiling, the simulator crashing, consume_step's output not matching the target
/// window); every outcome of the case, including compile_error, is an `Ok` result.
pub fn run_case(tc: &Toolchain, case: &Case) -> Result<SimResult, SimError> {
    run_case_untyped(tc, case).map_err(SimError::Driver)
}

fn run_case_untyped(tc: &Toolchain, case: &Case) -> Result<SimResult, String> {
    if !case.domains.is_empty() {
        return run_domains(tc, case);
    }
    let sim = match build(tc, case)? {
        Ok(sim) => sim,
        Err(compile_error) => return Ok(compile_error),
    };
    let text = match drive(tc, &sim, case, &params(case, "run", ""))? {
        Driven::Done(text) => text,
        Driven::Killed => {
            return Ok(killed_result(
                tc.ranks_as_threads,
                case.timeout_ms,
                case.blocks(),
            ));
        }
    };
    let out = parse_output(case, &text)?;
    let (fault, unfinished) = fault_outcome(&text, case.timeout_ms, "rank");

    let started: Vec<String> = out
        .kernels
        .iter()
        .map(|(k, n)| format!("{k}={n}"))
        .collect();
    let started = format!("kernel blocks started: {}", started.join(" "));
    let first_bad = out.status.iter().position(|&s| s != 0);
    let (status, code, message) = match (first_bad, fault) {
        (_, Some((status, what))) => (
            status,
            6,
            format!("{what}; rank statuses {:?}; {started}", out.status),
        ),
        (None, None) => {
            if let Some(r) = out.ranks.iter().position(|(_, m)| !m) {
                return Err(format!(
                    "rank {r}: consume_step's output differs from the target window (the pipeline's result is not its collective's target)"
                ));
            }
            let exchanges = if case.exchanges_per_call() > 1 {
                format!(
                    "{} exchange(s) ({} call(s) x {} layers)",
                    case.repeat as i64 * case.exchanges_per_call(),
                    case.repeat,
                    case.exchanges_per_call()
                )
            } else {
                format!("{} exchange(s)", case.repeat)
            };
            (
                "ok",
                0,
                format!(
                    "{} ranks x {} blocks, {exchanges}; {started}",
                    case.ranks,
                    case.blocks()
                ),
            )
        }
        (Some(r), None) => {
            let code = out.status[r];
            let what = if out.error.is_empty() {
                match code {
                    5 => format!(
                        "rank {r}: the orchestration returned SIMPLER_ERROR_INVALID_ARGS (5) before submitting the collective"
                    ),
                    _ => format!("rank {r}: the orchestration returned {code}"),
                }
            } else {
                out.error.clone()
            };
            let status = if code == 5 { "invalid_args" } else { "fatal" };
            let staged = out.staged.iter().filter(|&&s| s).count();
            (
                status,
                code,
                format!(
                    "{what}; rank statuses {:?}; staging windows holding the input: {staged} of {} ranks; {started}",
                    out.status, case.ranks
                ),
            )
        }
    };
    Ok(SimResult {
        status: status.into(),
        code,
        message,
        blocks: case.blocks(),
        ranks: out
            .ranks
            .into_iter()
            .enumerate()
            .map(|(i, (r, _))| {
                if unfinished.contains(&i) {
                    RankResult {
                        failed: true,
                        ..RankResult::default()
                    }
                } else {
                    r
                }
            })
            .collect(),
        domains: Vec::new(),
    })
}

/// The simulator of a `domains` case: each domain's module ([`Case::domain_case`]) lowered and
/// translated on its own (cached like any case's), linked into one binary. `Ok(Err(result))` is
/// the first domain's compile_error, its message prefixed with the domain.
pub fn build_domains(tc: &Toolchain, case: &Case) -> Result<Result<Simulator, SimResult>, String> {
    let mut trees = Vec::new();
    for d in 0..case.domains.len() {
        let sub = case.domain_case(d);
        match tc.translate(&chip_pipeline(&sub)) {
            Ok(tree) => trees.push(tree),
            Err(BuildError::Compile { code, message }) => {
                return Ok(Err(SimResult::without_ranks(
                    "compile_error",
                    code,
                    format!("domain {d} ({} ranks): {message}", sub.ranks),
                    case.blocks(),
                )));
            }
            Err(BuildError::Internal(m)) => return Err(m),
        }
    }
    match tc.simulator_multi(&trees) {
        Ok(sim) => Ok(Ok(sim)),
        Err(BuildError::Compile { message, .. }) | Err(BuildError::Internal(message)) => Err(
            format!("building the simulator for the domains' trees failed: {message}"),
        ),
    }
}

/// The driver's params for a `domains` case: the shared keys, then one `domain N S counts` line
/// per domain (no `stride` or `send_counts` line).
fn domain_params(case: &Case) -> String {
    let mut s = shared_params(case, "run");
    for d in 0..case.domains.len() {
        let sub = case.domain_case(d);
        let _ = write!(s, "domain {} {}", sub.ranks, sub.stride());
        for v in sub.send_counts.iter().flatten() {
            let _ = write!(s, " {v}");
        }
        s.push('\n');
    }
    s
}

/// Runs a case with communication domains (docs/sim.md, "Communication domains"): one pipeline
/// per domain in one world of `ranks` devices; the result's `domains` holds every domain's
/// windows on every device, `ranks` is empty and `blocks` is the widest domain's B.
fn run_domains(tc: &Toolchain, case: &Case) -> Result<SimResult, String> {
    let sim = match build_domains(tc, case)? {
        Ok(sim) => sim,
        Err(compile_error) => return Ok(compile_error),
    };
    let text = match drive(tc, &sim, case, &domain_params(case))? {
        Driven::Done(text) => text,
        Driven::Killed => {
            return Ok(killed_result(
                tc.ranks_as_threads,
                case.timeout_ms,
                case.blocks(),
            ));
        }
    };
    let (fault, unfinished) = fault_outcome(&text, case.timeout_ms, "device");
    let w = case.ranks;
    let bad = |what: &str| format!("malformed simulator output: {what}");
    // Split the output at the `domain d` lines: the head (status, error, kernels) is parsed as a
    // one-rank output would be; each domain's section as the output of its own case over W ranks.
    let mut sections: Vec<String> = vec![String::new()];
    for line in text.lines() {
        if line.starts_with("domain ") {
            sections.push(String::new());
        } else {
            let last = sections.last_mut().expect("one section");
            last.push_str(line);
            last.push('\n');
        }
    }
    if sections.len() != case.domains.len() + 1 {
        return Err(bad(&format!(
            "{} domain sections for {} domains",
            sections.len() - 1,
            case.domains.len()
        )));
    }
    let mut status = Vec::new();
    let mut error = String::new();
    let mut kernels = BTreeMap::new();
    for line in sections[0].lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "status" => {
                status = rest
                    .split_ascii_whitespace()
                    .map(|t| {
                        t.parse::<i64>()
                            .map_err(|_| bad(&format!("'{t}' is not an integer")))
                    })
                    .collect::<Result<_, _>>()?
            }
            "error" => error = rest.trim().to_string(),
            "end" => {}
            "kernel" => {
                let (name, n) = rest.split_once(' ').ok_or_else(|| bad("kernel line"))?;
                kernels.insert(
                    name.to_string(),
                    n.trim().parse::<i64>().map_err(|_| bad("kernel count"))?,
                );
            }
            "" => {}
            other => return Err(bad(&format!("unknown line '{other}'"))),
        }
    }
    if status.len() != w {
        return Err(bad(&format!(
            "{} statuses for a world of {w}",
            status.len()
        )));
    }
    let mut domains = Vec::new();
    let mut staged = 0;
    let mut in_domain = 0;
    for (d, section) in sections[1..].iter().enumerate() {
        let sub = case.domain_case(d);
        // W device sections in the domain's shapes (the statuses were read above).
        let head = format!("status {}\n", vec!["0"; w].join(" "));
        let out = parse_output_shaped(&sub, w, &(head + section))?;
        for (r, (_, matches)) in out.ranks.iter().enumerate() {
            if r < sub.ranks && !matches && status.iter().all(|&s| s == 0) && fault.is_none() {
                return Err(format!(
                    "domain {d}, device {r}: consume_step's output differs from the target window (the pipeline's result is not its collective's target)"
                ));
            }
        }
        in_domain += sub.ranks;
        staged += out.staged.iter().take(sub.ranks).filter(|&&s| s).count();
        domains.push(DomainResult {
            ranks: sub.ranks,
            blocks: sub.blocks(),
            devices: out
                .ranks
                .into_iter()
                .enumerate()
                .map(|(i, (r, _))| {
                    if unfinished.contains(&i) {
                        RankResult {
                            failed: true,
                            ..RankResult::default()
                        }
                    } else {
                        r
                    }
                })
                .collect(),
        });
    }
    let started: Vec<String> = kernels.iter().map(|(k, n)| format!("{k}={n}")).collect();
    let started = format!("kernel blocks started: {}", started.join(" "));
    let sizes: Vec<String> = domains
        .iter()
        .map(|d| format!("{} ranks x {} blocks", d.ranks, d.blocks))
        .collect();
    let (status_name, code, message) = match (status.iter().position(|&s| s != 0), fault) {
        (_, Some((name, what))) => (
            name,
            6,
            format!("{what}; device statuses {status:?}; {started}"),
        ),
        (None, None) => (
            "ok",
            0,
            format!(
                "{w} devices, domains [{}], {} exchange(s) per domain; {started}",
                sizes.join(", "),
                case.repeat as i64 * case.exchanges_per_call()
            ),
        ),
        (Some(r), None) => {
            let code = status[r];
            let what = if error.is_empty() {
                format!("device {r}: the orchestration returned {code}")
            } else {
                error
            };
            (
                if code == 5 { "invalid_args" } else { "fatal" },
                code,
                format!(
                    "{what}; device statuses {status:?}; staging windows holding the input: {staged} of {in_domain} (device, domain) pairs; {started}"
                ),
            )
        }
    };
    Ok(SimResult {
        status: status_name.into(),
        code,
        message,
        blocks: case.blocks(),
        ranks: Vec::new(),
        domains,
    })
}

/// Kernel block counts from a result message (`name=count` tokens after "kernel blocks started:").
pub fn blocks_started(message: &str) -> BTreeMap<String, i64> {
    let mut m = BTreeMap::new();
    if let Some((_, rest)) = message.split_once("kernel blocks started:") {
        for tok in rest.split_ascii_whitespace() {
            if let Some((k, v)) = tok.split_once('=')
                && let Ok(n) = v.parse()
            {
                m.insert(k.to_string(), n);
            }
        }
    }
    m
}

/// The plain builtin collective kernel's name for a dtype.
pub fn builtin_kernel(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 => "__builtin_all_to_all_v__fp32",
        DType::I8 => "__builtin_all_to_all_v__int8",
    }
}

/// The builtin kernel a case's collective lowers to.
pub fn case_kernel(case: &Case) -> &'static str {
    match (case.op, case.dtype) {
        (Op::AllToAllV, dtype) => builtin_kernel(dtype),
        (Op::IndexedAllToAllV, DType::F32) => "__builtin_indexed_all_to_all_v__fp32",
        (Op::IndexedAllToAllV, DType::I8) => "__builtin_indexed_all_to_all_v__int8",
    }
}

/// One benchmark measurement.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// P.
    pub ranks: usize,
    /// B.
    pub blocks: i64,
    /// Payload bytes each rank receives per exchange.
    pub bytes_per_rank: i64,
    /// Per timed exchange: (best single-thread memcpy of `bytes_per_rank` just before it, the
    /// exchange), ns.
    pub timings: Vec<(i64, i64)>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

impl BenchResult {
    /// Median single-thread memcpy bandwidth, GB/s.
    pub fn memcpy_gbps(&self) -> f64 {
        median(
            self.timings
                .iter()
                .map(|&(m, _)| self.bytes_per_rank as f64 / m as f64)
                .collect(),
        )
    }
    /// Median aggregate exchange throughput (every rank's `bytes_per_rank` moved), GB/s.
    pub fn exchange_gbps(&self) -> f64 {
        let total = (self.ranks as i64 * self.bytes_per_rank) as f64;
        median(
            self.timings
                .iter()
                .map(|&(_, e)| total / e as f64)
                .collect(),
        )
    }
    /// Median over exchanges of (exchange throughput / the memcpy bandwidth measured just before).
    pub fn ratio(&self) -> f64 {
        let total = (self.ranks as i64 * self.bytes_per_rank) as f64;
        median(
            self.timings
                .iter()
                .map(|&(m, e)| (total / e as f64) / (self.bytes_per_rank as f64 / m as f64))
                .collect(),
        )
    }
}

/// Times the generated collective inside the generated pipeline: `iters` exchanges (after
/// `warmup`), each from the moment its last block started to the moment its last block ended.
/// The case must be f32 with every count at MAX_RECV for the bytes to be `rows * row_elems * 4`
/// (and, indexed, every index entry in range: the driver verifies the gathered rows).
pub fn bench(
    tc: &Toolchain,
    case: &Case,
    warmup: u32,
    iters: u32,
) -> Result<BenchResult, SimError> {
    bench_untyped(tc, case, warmup, iters).map_err(SimError::Driver)
}

fn bench_untyped(
    tc: &Toolchain,
    case: &Case,
    warmup: u32,
    iters: u32,
) -> Result<BenchResult, String> {
    let sim = match build(tc, case)? {
        Ok(sim) => sim,
        Err(r) => return Err(format!("the bench module does not compile: {}", r.message)),
    };
    let extra = format!(
        "iters {iters}\nwarmup {warmup}\ntimed_kernel {}\n",
        case_kernel(case)
    );
    // A benchmark is not bounded by the default timeout_ms (many runs in one driver).
    let unbounded = Case {
        timeout_ms: 86_400_000,
        ..case.clone()
    };
    let text = match drive(tc, &sim, &unbounded, &params(case, "bench", &extra))? {
        Driven::Done(text) => text,
        Driven::Killed => {
            return Err(format!(
                "the bench run outlived timeout_ms = {}",
                case.timeout_ms
            ));
        }
    };
    let mut r = BenchResult {
        ranks: case.ranks,
        blocks: case.blocks(),
        bytes_per_rank: case.rows() * case.row_elems * case.dtype.size(),
        timings: Vec::new(),
    };
    let mut status_ok = false;
    let mut verified = false;
    let mut error = String::new();
    for line in text.lines() {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "timing" => {
                let t: Vec<i64> = rest
                    .split_ascii_whitespace()
                    .filter_map(|t| t.parse().ok())
                    .collect();
                match t[..] {
                    [m, e] if m > 0 && e > 0 => r.timings.push((m, e)),
                    _ => return Err(format!("bad timing line '{line}'")),
                }
            }
            "verified" => verified = rest.trim() == "1",
            "status" => status_ok = rest.split_ascii_whitespace().all(|t| t == "0"),
            "error" => error = rest.to_string(),
            _ => {}
        }
    }
    if !verified {
        return Err(
            "the benchmarked exchange did not deliver every rank's input (uniform full counts)"
                .into(),
        );
    }
    if !status_ok || r.timings.len() != iters as usize {
        return Err(format!("the bench run failed: {error}\n{text}"));
    }
    Ok(r)
}

/// Writes `text` to `path` (or stdout for `None`).
pub fn write_output(path: Option<&Path>, text: &str) -> Result<(), SimError> {
    write_output_untyped(path, text).map_err(SimError::Output)
}

fn write_output_untyped(path: Option<&Path>, text: &str) -> Result<(), String> {
    match path {
        Some(p) => fs::write(p, text).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("stdout: {e}"))
        }
    }
}
