//! Running one case: the case's module (`crate::chip_pipeline`) built into a runner as pld-run
//! builds one, run by the engine (`pld_run::engine`) on P ranks with the case's payload,
//! counts and index lists as inputs, and the windows it wrote back read into the result.

use crate::SimError;
use std::fs;
use std::path::Path;

use crate::case::{Case, Elem, Op};
use crate::chip_pipeline::{CHIP_FN, chip_pipeline, domain_fn, domain_pipelines, operand_param};
use crate::launch::{self, RunTiming, Timed, block_counts, i32_bytes, payload, started};
use crate::result::{DomainResult, RankResult, SimResult};
use crate::wire;
use pld_run::RunError;
use pld_run::engine::{EntryRun, Place, Report, Spec, TensorArg};
use pld_run::manifest::{Entry, Kind};
use pld_run::toolchain::Toolchain;

pub use crate::launch::last_run_wall;

/// The element types the sim spec's payload formula covers; a case of another dtype is
/// pld-opt's compile_error (the CHIP rail moves only f32 and i8), and were pld-opt to accept
/// one, pld-sim would refuse to run it rather than invent a payload.
fn payload_rule(case: &Case) -> Result<(), String> {
    match case.dtype {
        Elem::F32 | Elem::I8 => Ok(()),
        other => Err(format!(
            "pld-opt accepted dtype {} for {}, but the sim spec's payload formula covers only f32 and i8",
            other.name(),
            case.op.name()
        )),
    }
}

/// The entry's tensors for `case` (one domain's, for a domains case), in parameter order and in
/// the manifest's shapes: inp (the payload), send (the rank's counts), out, [idx (its index
/// list),] and the collective's five windows, the `non_contiguous` operand's strided.
fn tensors(case: &Case, entry: &Entry) -> Result<Vec<TensorArg>, String> {
    let index = case.index_lists();
    let strided = case.non_contiguous.map(operand_param);
    let mut values = Vec::new();
    for p in &entry.params {
        let (dims, elem, place) = match &p.kind {
            Kind::Tensor(d, e) => (d, e, Place::Host),
            Kind::Window(d, e) => (d, e, Place::Window),
            _ => continue,
        };
        let mut t = TensorArg::zeros(place, elem.size() as usize, dims);
        for r in 0..case.ranks {
            let bytes = match p.name.as_str() {
                "inp" => payload(case, r, case.in_rows(), case.row_elems),
                "send" => i32_bytes(&case.send_counts[r]),
                "idx" => i32_bytes(&index[r]),
                "out" | "stage" | "data" | "signal" | "counts" | "recv" => continue,
                other => {
                    return Err(format!(
                        "the manifest names a parameter {other} of no pipeline"
                    ));
                }
            };
            t.per_rank.insert(r, bytes);
        }
        t.strided = strided == Some(p.name.as_str());
        values.push(t);
    }
    Ok(values)
}

/// The spec every run of `case` shares: the world, the case's bound, fault and AIV capacity.
fn spec(tc: &Toolchain, case: &Case, entries: Vec<EntryRun>) -> Result<Spec, String> {
    let mut spec = Spec::new(case.ranks, 0, EntryRun::default());
    spec.entries = entries;
    // The engine sizes the windows from its window parameters.
    spec.window_bytes = 4096;
    spec.aiv_capacity = Some(case.aiv_capacity);
    spec.repeat = case.repeat;
    launch::configure(tc, &mut spec, case.timeout_ms, case.fault)?;
    Ok(spec)
}

/// What one device holds of one pipeline after the run (the entry's tensors from `first`, the
/// tensor index of its inp).
struct Device {
    result: RankResult,
    /// Its staging window holds its input and its send_counts window its send row.
    staged: bool,
    /// consume_step's output equals the target window.
    out_matches: bool,
}

/// Device `r`'s windows of the pipeline whose tensors start at index `first` in the report.
fn device(case: &Case, report: &Report, first: usize, r: usize) -> Result<Device, String> {
    let get = |i: usize| {
        report
            .output(first + i, r)
            .ok_or_else(|| format!("the engine wrote no tensor {} of rank {r}", first + i))
    };
    let indexed = usize::from(case.op == Op::IndexedAllToAllV);
    let (inp, send, out) = (get(0)?, get(1)?, get(2)?);
    let w = 3 + indexed;
    let (stage, data, signal, counts, recv) =
        (get(w)?, get(w + 1)?, get(w + 2)?, get(w + 3)?, get(w + 4)?);
    let shape = (
        case.dtype,
        case.rows() as usize,
        case.row_elems as usize,
        case.stride() as usize,
    );
    Ok(Device {
        result: RankResult::from_windows(shape, &data, &signal, &recv),
        staged: stage.get(..inp.len()) == Some(&inp[..])
            && counts.get(..send.len()) == Some(&send[..]),
        out_matches: out == data,
    })
}

/// Runs one case end to end. `Err` is a failure of pld-sim itself (a tool missing, the generated
/// tree not compiling, the simulator crashing, consume_step's output not matching the target
/// window); every outcome of the case, including compile_error, is an `Ok` result.
pub fn run_case(tc: &Toolchain, case: &Case) -> Result<SimResult, SimError> {
    run_with(tc, case, None)
        .map(|(res, _)| res)
        .map_err(SimError::Driver)
}

/// The tensors of an entry's parameters (tensor and window ones) counted by the engine.
fn tensor_count(case: &Case) -> usize {
    8 + usize::from(case.op == Op::IndexedAllToAllV)
}

/// Where the collective's operands are among the tensors of the pipeline whose tensors start at
/// index `first` (see [`tensors`]: inp, send, out, [idx,] then the five windows).
fn operands(case: &Case, first: usize) -> wire::Operands {
    let w = first + 3 + usize::from(case.op == Op::IndexedAllToAllV);
    wire::Operands {
        input: w,
        target: w + 1,
        recv_counts: w + 4,
    }
}

/// Runs `case` (`timed`: as a benchmark); the result is the last run's, and the engine's report
/// comes with it (`None` when the run was killed, and for raw launches, which are not
/// benchmarked).
///
/// A case runs one exchange per domain: its own over every rank, or with communication domains
/// (docs/sim.md, "Communication domains") one pipeline per domain (`chip_pipeline_d<i>` of one
/// module, [`domain_pipelines`]) in one world of `ranks` devices, each run in a communication
/// domain of its N devices; a domains result's `domains` holds every domain's windows on every
/// device, `ranks` is empty and `blocks` is the widest domain's B.
fn run_with(
    tc: &Toolchain,
    case: &Case,
    timed: Option<Timed>,
) -> Result<(SimResult, Option<Report>), String> {
    if case.launch.is_some() {
        return Ok((crate::raw::run_case(tc, case, &case_kernel(case))?, None));
    }
    let in_domains = !case.domains.is_empty();
    let (subs, names, text) = if in_domains {
        let n = case.domains.len();
        let subs: Vec<Case> = (0..n).map(|d| case.domain_case(d)).collect();
        (
            subs,
            (0..n).map(domain_fn).collect(),
            domain_pipelines(case),
        )
    } else {
        (
            vec![case.clone()],
            vec![CHIP_FN.to_string()],
            chip_pipeline(case),
        )
    };
    let functions: Vec<&str> = names.iter().map(String::as_str).collect();
    let kernel_dir = tc.root.join("sim/src");
    let runner = match launch::build(tc, &text, &kernel_dir, (&functions, false), case.blocks())? {
        Ok(r) => r,
        // A domains case's refusal is the first refused domain's: its own module's diagnostics.
        Err(compile_error) if in_domains => {
            let refused = refused_domain(tc, &subs, case.blocks());
            return Ok((refused.unwrap_or(compile_error), None));
        }
        Err(compile_error) => return Ok((compile_error, None)),
    };
    payload_rule(case)?;
    let mut entries = Vec::new();
    for (d, sub) in subs.iter().enumerate() {
        // The world's devices outside a domain still get (unused) buffers of its shapes.
        let entry = runner.entry(&names[d])?;
        let scalars = if sub.runtime_core_num {
            vec![sub.core_num]
        } else {
            Vec::new()
        };
        entries.push(EntryRun {
            index: d,
            domain: in_domains.then_some(sub.ranks),
            args: launch::bind(&entry, tensors(sub, &entry)?, &scalars)?,
            launch: None,
        });
    }
    let mut spec = spec(tc, case, entries)?;
    launch::time_runs(&mut spec, timed, case_kernel(case));
    let who = if in_domains { "device" } else { "rank" };
    let bound = (case.timeout_ms, case.blocks());
    let ran = match launch::run_bounded(tc, &runner, &spec, bound, who)? {
        Ok(ran) => ran,
        Err(killed) => return Ok((killed, None)),
    };
    let (report, w) = (&ran.report, case.ranks);
    // What the kernel moved, from the copy trace (a trace the runtime's log could not hold is
    // left to the golden alone; a benchmark runs untraced).
    if ran.traced(&spec) {
        check_copies(case, &subs, report)?;
    }
    // Every domain's windows on every device of the world.
    let mut devices: Vec<Vec<Device>> = Vec::new();
    for (d, sub) in subs.iter().enumerate() {
        let first = d * tensor_count(sub);
        devices.push(
            (0..w)
                .map(|r| device(sub, report, first, r))
                .collect::<Result<_, _>>()?,
        );
    }
    for (d, (sub, on)) in subs.iter().zip(&devices).enumerate() {
        if ran.clean
            && let Some(r) = on[..sub.ranks].iter().position(|dev| !dev.out_matches)
        {
            let at = match in_domains {
                true => format!("domain {d}, device {r}"),
                false => format!("rank {r}"),
            };
            return Err(format!(
                "{at}: consume_step's output differs from the target window (the pipeline's result is not its collective's target)"
            ));
        }
    }
    let staged: usize = (subs.iter().zip(&devices))
        .map(|(sub, on)| on[..sub.ranks].iter().filter(|dev| dev.staged).count())
        .sum();
    let kernels = block_counts(report, &runner.kernels(), pipeline_kernel);
    let started = started(&kernels);
    let calls = case.repeat as i64 * case.exchanges_per_call();
    let (status, code, message) = ran.outcome(
        &started,
        || match in_domains {
            true => {
                let sizes: Vec<String> = subs
                    .iter()
                    .map(|d| format!("{} ranks x {} blocks", d.ranks, d.blocks()))
                    .collect();
                format!(
                    "{w} devices, domains [{}], {calls} exchange(s) per domain",
                    sizes.join(", ")
                )
            }
            false => {
                let layers = match case.exchanges_per_call() {
                    1 => String::new(),
                    n => format!(" ({} call(s) x {n} layers)", case.repeat),
                };
                format!(
                    "{w} ranks x {} blocks, {calls} exchange(s){layers}",
                    case.blocks()
                )
            }
        },
        || match in_domains {
            true => {
                let pairs: usize = subs.iter().map(|d| d.ranks).sum();
                Some(format!(
                    "staging windows holding the input: {staged} of {pairs} (device, domain) pairs"
                ))
            }
            false => Some(format!(
                "staging windows holding the input: {staged} of {w} ranks"
            )),
        },
        |r, code| match (in_domains, code) {
            (true, _) => format!("device {r}: the orchestration returned {code}"),
            (false, 5) => format!(
                "rank {r}: the orchestration returned SIMPLER_ERROR_INVALID_ARGS (5) before submitting the collective"
            ),
            (false, _) => format!("rank {r}: the orchestration returned {code}"),
        },
    );
    let mut windows = (subs.iter().zip(devices)).map(|(sub, on)| {
        let devices = on
            .into_iter()
            .enumerate()
            .map(|(r, dev)| match ran.unfinished.contains(&r) {
                true => RankResult::failed(),
                false => dev.result,
            })
            .collect();
        DomainResult {
            ranks: sub.ranks,
            blocks: sub.blocks(),
            devices,
        }
    });
    let mut result = SimResult::without_ranks(status, code, message, case.blocks());
    result.kernels = kernels;
    if in_domains {
        result.domains = windows.collect();
    } else if let Some(only) = windows.next() {
        result.ranks = only.devices;
    }
    Ok((result, Some(ran.report)))
}

/// The compile_error of a domains case's first refused domain (`blocks`: the case's): its own
/// module's diagnostics, prefixed (`None` when every domain's module lowers alone).
fn refused_domain(tc: &Toolchain, subs: &[Case], blocks: i64) -> Option<SimResult> {
    let kernel_dir = tc.root.join("sim/src");
    subs.iter().enumerate().find_map(|(d, sub)| {
        match pld_run::build::translate(tc, launch::MODULE_FILE, &chip_pipeline(sub), &kernel_dir) {
            Err(RunError::Compile { code, message }) => Some(SimResult::without_ranks(
                "compile_error",
                code,
                format!("domain {d} ({} ranks): {message}", sub.ranks),
                blocks,
            )),
            _ => None,
        }
    })
}

/// The copy trace of the case's collective, checked per exchange ([`wire::check`]): a plain
/// case's every copy, a domains case's each domain's copies into its own operands (its
/// pipeline's tensors), a copy into none of them being outside every domain's.
fn check_copies(case: &Case, subs: &[Case], report: &Report) -> Result<(), String> {
    let kernel = case_kernel(case);
    if case.domains.is_empty() {
        return wire::check(case, &kernel, operands(case, 0), &report.copies)
            .map_err(|e| format!("the copy trace of {kernel}: {e}"));
    }
    let mut claimed = 0;
    for (d, sub) in subs.iter().enumerate() {
        let first = d * tensor_count(sub);
        let mine: Vec<_> = report
            .copies
            .iter()
            .filter(|c| {
                c.kernel == kernel
                    && c.dst
                        .tensor
                        .is_some_and(|t| (first..first + tensor_count(sub)).contains(&t))
            })
            .cloned()
            .collect();
        claimed += mine.len();
        wire::check(sub, &kernel, operands(sub, first), &mine)
            .map_err(|e| format!("domain {d}: the copy trace of {kernel}: {e}"))?;
    }
    let all = report.copies.iter().filter(|c| c.kernel == kernel).count();
    if all != claimed {
        return Err(format!(
            "the copy trace of {kernel}: {} copies outside every domain's operands",
            all - claimed
        ));
    }
    Ok(())
}

/// A domains case's user kernel under its pipeline's name (`stage_step_d1` → `stage_step`).
fn pipeline_kernel(name: &str) -> String {
    for base in ["stage_step", "consume_step"] {
        if let Some(rest) = name.strip_prefix(base).and_then(|r| r.strip_prefix("_d"))
            && !rest.is_empty()
            && rest.bytes().all(|b| b.is_ascii_digit())
        {
            return base.to_string();
        }
    }
    name.to_string()
}

/// The builtin kernel a case's collective lowers to.
pub fn case_kernel(case: &Case) -> String {
    match case.op {
        Op::AllToAllV => format!("__builtin_all_to_all_v__{}", case.dtype.symbol()),
        Op::IndexedAllToAllV => format!("__builtin_indexed_all_to_all_v__{}", case.dtype.symbol()),
    }
}

/// Times the generated collective inside the generated pipeline: `warmup + iters` restaged runs
/// in one engine, each from the moment its last block started to the moment its last block ended
/// ([`launch::exchange_ns`]); the last run's result must be the golden's. The `iters` timed runs'
/// timings (`memcpy`: of the bytes each rank receives).
pub fn bench(
    tc: &Toolchain,
    case: &Case,
    warmup: u32,
    iters: u32,
) -> Result<Vec<RunTiming>, SimError> {
    let case = Case {
        timeout_ms: launch::UNBOUNDED_MS,
        ..case.clone()
    };
    let timed = Timed {
        runs: warmup + iters,
        copy_bytes: (case.rows() * case.row_elems * case.dtype.size()) as u64,
    };
    let (res, report) = run_with(tc, &case, Some(timed)).map_err(SimError::Driver)?;
    crate::golden::check(&case, &res).map_err(SimError::Mismatch)?;
    let report = report.ok_or(SimError::Driver("the bench run was killed".into()))?;
    let mut runs = launch::run_timings(&report, timed).map_err(SimError::Driver)?;
    Ok(runs.split_off(warmup as usize))
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
