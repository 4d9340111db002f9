//! One pld-run: build (cached), write the driver's parameter file and inputs, run the driver,
//! then print, save and check the outputs.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use crate::toolchain::Toolchain;

use crate::RunError;
use crate::build;
use crate::manifest::{Kind, Param};
use crate::options::{Binding, Options, bind_expected, bind_inputs};
use crate::value::{Value, type_text};

use crate::engine::{self, Arg, EntryRun, Place, Report, Spec, TensorArg};

/// The `--print-statistics` lines of `report`.
fn statistics(report: &Report) -> String {
    let blocks: u64 = report.kernels.iter().map(|k| k.blocks).sum();
    let launches: u64 = report.kernels.iter().map(|k| k.launches).sum();
    let mut text = format!("statistics: {launches} launches, {blocks} blocks\n");
    if let Some(live) = report.live_buffers {
        let _ = writeln!(text, "  runtime-owned buffers live after the run: {live}");
    }
    for k in &report.kernels {
        let _ = writeln!(
            text,
            "  kernel {}: {} launches, {} blocks",
            k.name, k.launches, k.blocks
        );
    }
    text
}

/// A scratch directory for one run's files, removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn scratch(tc: &Toolchain) -> Result<Scratch, RunError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = tc.cache.join("run").join("runs").join(format!(
        "{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir)?;
    Ok(Scratch(dir))
}

/// The most ranks a world holds (the runtime's `kCommMaxRanks`).
const MAX_RANKS: i64 = crate::options::MAX_RANKS as i64;

/// The world's rank count: `--ranks`, else the NR every collective of the
/// module agrees on (2 when it has none). Collectives that disagree, or whose
/// NR is not static, need `--ranks` (a usage error naming each and its NR).
pub fn world_ranks(opts: &Options) -> Result<usize, RunError> {
    if opts.ranks_given {
        return Ok(opts.ranks);
    }
    let context = pld::create_context();
    let module = pld::parse_file(&context, &opts.module)
        .map_err(|e| RunError::Usage(format!("cannot parse {}: {e}", opts.module.display())))?;
    let sites = pld::collective_sites(&module);
    if let Some(domain) = sites.iter().find(|s| s.op == "pld.comm_domain") {
        return Err(RunError::Usage(format!(
            "--ranks=P is required: the module declares a communication domain ({} at {}), \
             so its collectives' rank counts need not be the world's",
            domain.op, domain.location
        )));
    }
    let known: std::collections::BTreeSet<Option<i64>> = sites.iter().map(|s| s.ranks).collect();
    match known.iter().collect::<Vec<_>>()[..] {
        [] => Ok(opts.ranks),
        [Some(nr)] if (1..=MAX_RANKS).contains(nr) => Ok(*nr as usize),
        _ => {
            let each: Vec<String> = sites
                .iter()
                .map(|s| {
                    let nr = s
                        .ranks
                        .map_or("NR not static".to_string(), |n| format!("NR={n}"));
                    format!("{} at {} ({nr})", s.op, s.location)
                })
                .collect();
            Err(RunError::Usage(format!(
                "--ranks=P is required: the module's collectives do not agree on a rank count: {}",
                each.join(", ")
            )))
        }
    }
}

/// MLIR bytecode's magic number (`ML\xefR`).
const BYTECODE_MAGIC: &[u8] = b"ML\xefR";

/// The module's text: the file as it is, or, for MLIR bytecode (which every pld tool reads),
/// pld-opt's printing of it. Bytecode keeps no SSA names, so its parameters are `arg0`, ...
/// as in an already-lowered module.
fn module_text(tc: &Toolchain, module: &Path) -> Result<String, RunError> {
    let cannot = |e: &dyn std::fmt::Display| {
        RunError::Usage(format!("cannot read {}: {e}", module.display()))
    };
    let bytes = fs::read(module).map_err(|e| cannot(&e))?;
    if !bytes.starts_with(BYTECODE_MAGIC) {
        return String::from_utf8(bytes).map_err(|e| cannot(&e));
    }
    let pld_opt = tc.tool("pld-opt").map_err(RunError::from_build)?;
    let out = std::process::Command::new(&pld_opt)
        .arg(module)
        .output()
        .map_err(|e| RunError::Tool(format!("{}: {e}", pld_opt.display())))?;
    if !out.status.success() {
        return Err(RunError::Compile {
            code: out.status.code().unwrap_or(1) as i64,
            message: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    String::from_utf8(out.stdout).map_err(|e| cannot(&e))
}

/// Runs `opts`; returns the exit code.
pub fn run(opts: &Options) -> Result<u8, RunError> {
    // Where the outputs go is checked before the build and the run, not after them.
    if let Some(out_dir) = &opts.output_dir {
        fs::create_dir_all(out_dir).map_err(|e| {
            RunError::Usage(format!(
                "--output-dir={}: cannot create the directory: {e}",
                out_dir.display()
            ))
        })?;
    }
    let tc = Toolchain::discover()
        .map_err(|e| RunError::Tool(e.to_string()))?
        .with_user_cache();
    let source = module_text(&tc, &opts.module)?;
    let file_name = opts
        .module
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.is_empty())
        .unwrap_or("module.mlir")
        .to_string();
    let module_dir = opts
        .module
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let kernel_dir = opts
        .kernel_source_dir
        .clone()
        .unwrap_or_else(|| module_dir.to_path_buf());
    let kernel_dir = fs::canonicalize(&kernel_dir).map_err(|e| {
        RunError::Usage(format!(
            "kernel source directory {}: {e}",
            kernel_dir.display()
        ))
    })?;

    let tree = build::translate(&tc, &file_name, &source, &kernel_dir)?;
    // pld-opt accepted the module: it parses here too.
    let opts = &Options {
        ranks: world_ranks(opts)?,
        ..opts.clone()
    };
    let entry = tree
        .manifest
        .entry(&opts.function, &source)
        .map_err(RunError::Usage)?;
    let host = entry.host;
    let mut params = entry.params;
    if host
        && params
            .iter()
            .any(|p| matches!(p.kind, Kind::Window(..) | Kind::Comm))
    {
        return Err(RunError::Usage(format!(
            "the HOST orchestrator @{} takes windows or contexts as parameters",
            opts.function
        )));
    }
    // A HOST orchestrator's own windows are reported like its parameters (after them).
    let host_windows = entry.host_windows;
    if let Some(hw) = &host_windows {
        params.extend(hw.windows.iter().cloned());
    }
    let base = Path::new("");
    let bindings = bind_inputs(&opts.inputs, &params, opts.ranks, base)?;
    let expected = bind_expected(&opts.expected, &params, opts.ranks, base)?;
    for (p, b) in params.iter().zip(&bindings) {
        if matches!(p.kind, Kind::Scalar(_)) && b.shared.is_none() {
            return Err(RunError::Usage(format!(
                "no --input for the scalar parameter {} ({})",
                p.name, p.ty
            )));
        }
        if host && !b.per_rank.is_empty() {
            return Err(RunError::Usage(format!(
                "parameter {}: a HOST orchestrator's tensor is one host tensor every device \
                 shares; give one value, not one per rank",
                p.name
            )));
        }
        if !b.per_rank.is_empty() && b.shared.is_none() {
            if let Some(r) = (0..opts.ranks).find(|r| !b.per_rank.contains_key(r)) {
                return Err(RunError::Usage(format!(
                    "parameter {}: rank {r} has no value",
                    p.name
                )));
            }
        }
    }

    let exe = build::runner(&tc, &tree, &[opts.function.as_str()], host)?;
    let dir = scratch(&tc)?;
    let report = drive(&exe, &dir.0, opts, &params, &bindings, entry.window_bytes)?;

    // The HOST orchestrator's windows are where pld-run computed only if the allocator agrees.
    let mut notes = Vec::new();
    let windows_known = match &host_windows {
        Some(hw) if !hw.windows.is_empty() => {
            if report.alloc_end.is_some() && report.alloc_end == hw.alloc_end {
                true
            } else {
                notes.push(format!(
                    "the windows @{} allocates are not shown: its allocations ended at byte {}, \
                     not at {} as its pld.window_buffers in order make",
                    opts.function,
                    report.alloc_end.map_or("?".to_string(), |e| e.to_string()),
                    hw.alloc_end.map_or("?".to_string(), |e| e.to_string())
                ));
                false
            }
        }
        Some(hw) => {
            notes.extend(
                hw.note
                    .iter()
                    .map(|n| format!("the windows are not shown: {n}")),
            );
            false
        }
        None => false,
    };

    // Outputs per parameter (tensors and windows) and rank.
    let mut tensor_ix = 0;
    let mut outputs: Vec<(usize, Vec<Value>)> = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let (shape, elem) = match &p.kind {
            Kind::Tensor(d, e) | Kind::Window(d, e) => (d.clone(), *e),
            Kind::HostWindow(d, e, _) if windows_known => (d.clone(), *e),
            Kind::HostWindow(..) => {
                tensor_ix += 1;
                continue;
            }
            _ => continue,
        };
        let mut per_rank = Vec::new();
        for r in 0..opts.ranks {
            let path = dir.0.join(format!("out.{tensor_ix}.r{r}.bin"));
            // A run stopped at its bound (thread mode) wrote no outputs.
            if report.status != 0 && !path.exists() {
                break;
            }
            let bytes = fs::read(&path).map_err(|e| {
                RunError::Tool(format!("the driver wrote no {}: {e}", path.display()))
            })?;
            per_rank.push(Value {
                elem,
                shape: shape.clone(),
                bytes,
            });
        }
        tensor_ix += 1;
        if (p.is_output() || expected.contains_key(&i)) && per_rank.len() == opts.ranks {
            outputs.push((i, per_rank));
        }
    }

    let mut text = String::new();
    let ok = report.status == 0;
    let _ = writeln!(
        text,
        "@{} ({}) on {} rank{}: {}",
        opts.function,
        if host { "HOST" } else { "CHIP" },
        opts.ranks,
        if opts.ranks == 1 { "" } else { "s" },
        if ok {
            "ok".to_string()
        } else {
            format!("status {}", report.status)
        }
    );
    if !ok {
        let ranks: Vec<String> = report.rank_status.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(text, "rank status: {}", ranks.join(" "));
        if let Some(m) = &report.message {
            let _ = writeln!(text, "error {}: {m}", report.status);
            let at = tree.manifest.locate(report.status, m);
            if !at.is_empty() {
                let _ = writeln!(
                    text,
                    "  raised by the check at {}",
                    at.join(if at.len() == 2 { " or " } else { ", or " })
                );
            }
        }
    }
    if opts.print_statistics {
        text.push_str(&statistics(&report));
    }
    for n in &notes {
        let _ = writeln!(text, "note: {n}");
    }
    for (i, vals) in &outputs {
        let p = &params[*i];
        // --print-limit=0 prints no values at all (the status line and errors
        // above always print).
        if !p.is_output() || opts.print_limit == 0 {
            continue;
        }
        let shared = host && !matches!(p.kind, Kind::HostWindow(..));
        for (r, v) in vals.iter().enumerate() {
            if shared && r > 0 {
                break;
            }
            let who = if shared {
                "host tensor".to_string()
            } else {
                format!("rank {r}")
            };
            let _ = writeln!(
                text,
                "{} ({}, {who}, {}):",
                p.name,
                type_text(&v.shape, v.elem),
                if p.direction.is_empty() {
                    "out"
                } else {
                    &p.direction
                }
            );
            text.push_str(&table(v, opts.print_limit));
        }
    }
    if let Some(out_dir) = &opts.output_dir {
        fs::create_dir_all(out_dir)?;
        for (i, vals) in &outputs {
            for (r, v) in vals.iter().enumerate() {
                v.write_npy(&out_dir.join(format!("{}.rank{r}.npy", params[*i].name)))?;
            }
        }
        let _ = writeln!(text, "outputs written to {}", out_dir.display());
    }
    let mut failed = false;
    if ok {
        for (i, want) in &expected {
            let p = &params[*i];
            let Some((_, got)) = outputs.iter().find(|(j, _)| j == i) else {
                failed = true;
                let _ = writeln!(text, "mismatch: {}: the run's value is not known", p.name);
                continue;
            };
            for (r, g) in got.iter().enumerate() {
                let Some(w) = want.of_rank(r) else { continue };
                if let Some(line) = compare(&p.name, r, g, w, opts.tolerance) {
                    failed = true;
                    let _ = writeln!(text, "{line}");
                }
            }
        }
        if !expected.is_empty() && !failed {
            let names: Vec<&str> = expected.keys().map(|i| params[*i].name.as_str()).collect();
            let _ = writeln!(text, "expected outputs hold: {}", names.join(", "));
        }
    }
    print!("{text}");
    if !ok {
        return Ok(report.status.clamp(1, 255) as u8);
    }
    Ok(if failed { 1 } else { 0 })
}

fn compare(name: &str, r: usize, got: &Value, want: &Value, tol: f64) -> Option<String> {
    if got.shape != want.shape || got.elem != want.elem {
        return Some(format!(
            "mismatch: {name} rank {r}: the output is {}, the expected value {}",
            type_text(&got.shape, got.elem),
            type_text(&want.shape, want.elem)
        ));
    }
    let (k, n) = got.first_mismatch(want, tol)?;
    let idx: Vec<String> = got.index_of(k).iter().map(|d| d.to_string()).collect();
    Some(format!(
        "mismatch: {name} rank {r} index [{}]: got {}, expected {} ({n} of {} elements differ{})",
        idx.join(", "),
        got.element_text(k),
        want.element_text(k),
        got.numel(),
        if got.elem.is_float() {
            format!(", tolerance {tol}")
        } else {
            String::new()
        }
    ))
}

/// The value as rows of its last dimension (a scalar or 1-D tensor on one row).
fn table(v: &Value, limit: usize) -> String {
    let n = v.numel();
    if n > limit {
        return format!(
            "  ({n} elements, more than --print-limit={limit}; --output-dir saves them)\n"
        );
    }
    let row = v.shape.last().copied().unwrap_or(1).max(1) as usize;
    let texts: Vec<String> = (0..n).map(|k| v.element_text(k)).collect();
    let width = texts.iter().map(String::len).max().unwrap_or(1);
    let leads: Vec<String> = (0..n.div_ceil(row))
        .map(|i| {
            if v.shape.len() > 1 {
                let idx = v.index_of(i * row);
                let idx: Vec<String> = idx[..idx.len() - 1].iter().map(|d| d.to_string()).collect();
                format!("[{}] ", idx.join(", "))
            } else {
                String::new()
            }
        })
        .collect();
    let lead_width = leads.iter().map(String::len).max().unwrap_or(0);
    let mut s = String::new();
    for (i, chunk) in texts.chunks(row).enumerate() {
        let lead = format!("{:<lead_width$}", leads[i]);
        let cells: Vec<String> = chunk.iter().map(|t| format!("{t:>width$}")).collect();
        let _ = writeln!(s, "  {lead}{}", cells.join(" "));
    }
    s
}

/// The engine's spec for `opts`' entry, its parameters bound to the inputs.
fn spec(opts: &Options, params: &[Param], bindings: &[Binding], window_bytes: u64) -> Spec {
    let mut args = Vec::new();
    for (p, b) in params.iter().zip(bindings) {
        let tensor = |place: Place, d: &[u64], size: usize| {
            let mut t = TensorArg::zeros(place, size, d);
            t.shared = b.shared.as_ref().map(|v| v.bytes.clone());
            t.per_rank = b
                .per_rank
                .iter()
                .map(|(r, v)| (*r, v.bytes.clone()))
                .collect();
            Arg::Tensor(t)
        };
        args.push(match &p.kind {
            Kind::Comm => Arg::Comm,
            Kind::Scalar(_) => {
                let v = b.shared.as_ref().expect("checked by the caller");
                Arg::Scalar(v.element_text(0).parse().unwrap_or(0))
            }
            // A HOST orchestrator's own window takes no input (it starts as zeros).
            Kind::HostWindow(d, e, offset) => Arg::Tensor(TensorArg::zeros(
                Place::HostWindow(*offset),
                e.size() as usize,
                d,
            )),
            Kind::Tensor(d, e) => tensor(Place::Host, d, e.size() as usize),
            Kind::Window(d, e) => tensor(Place::Window, d, e.size() as usize),
        });
    }
    let mut spec = Spec::new(
        opts.ranks,
        window_bytes,
        EntryRun {
            index: 0,
            domain: None,
            args,
            launch: None,
        },
    );
    spec.timeout_ms = opts.timeout_ms;
    spec.processes = opts.rank_processes;
    spec
}

/// Runs the engine on `opts`' entry and reads its report.
fn drive(
    exe: &Path,
    dir: &Path,
    opts: &Options,
    params: &[Param],
    bindings: &[Binding],
    window_bytes: u64,
) -> Result<Report, RunError> {
    let spec = spec(opts, params, bindings, window_bytes);
    // The engine bounds the run itself; this is the last resort for an engine that did not stop
    // (its whole process group is killed).
    let bound = std::time::Duration::from_millis(opts.timeout_ms.saturating_add(LAST_RESORT_MS));
    let (ended, stderr) = engine::run(exe, dir, &spec, bound).map_err(RunError::Tool)?;
    eprint!("{stderr}");
    match ended {
        engine::Ended::Reported(report) => Ok(report),
        engine::Ended::Killed => Ok(Report {
            status: RANK_FAILED,
            rank_status: vec![RANK_FAILED; opts.ranks],
            message: Some(format!(
                "run timeout: the runner did not stop {} ms after its {} ms bound and was killed",
                LAST_RESORT_MS, opts.timeout_ms
            )),
            ..Report::default()
        }),
    }
}

/// sim.md's status of a failed or timed-out rank (and of a run past its bound).
const RANK_FAILED: i64 = 6;
/// How long after `--timeout-ms` pld-run waits for the engine to stop itself.
const LAST_RESORT_MS: u64 = 10_000;
