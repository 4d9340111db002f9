//! The engine's side in Rust: what one run of `runner/driver/driver.cpp` (the one C++
//! main over the host runtime) is told — [`Spec`], written as its `params` file and input files —
//! and what it reported — [`Report`], its `result` file and the tensors it wrote back. pld-run
//! ([`super::exec`]) and pld-sim's simulators (`pld_sim::run`, `pld_sim::family::run`) both run
//! through [`run`].

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Where a tensor parameter lives.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// A host tensor (`!pl.tensor`): per rank for a CHIP entry, one for a HOST entry.
    Host,
    /// A window parameter (`!pld.dtensor`): one symmetric allocation.
    Window,
    /// A window a HOST orchestrator allocates itself, at this byte offset.
    HostWindow(u64),
}

/// One parameter of an entry, as the engine binds it.
#[derive(Clone, Debug)]
pub enum Arg {
    /// A `!pld.comm_ctx` slot (filled with the rank's context of the entry's domain).
    Comm,
    /// An integer or index scalar.
    Scalar(i64),
    /// A tensor.
    Tensor(TensorArg),
}

/// A tensor parameter and its initial contents.
#[derive(Clone, Debug)]
pub struct TensorArg {
    /// Where it lives.
    pub place: Place,
    /// Bytes per element.
    pub elem_size: usize,
    /// Its shape.
    pub dims: Vec<u64>,
    /// A test-only non-contiguous view (twice the packed strides up to the innermost extent > 1).
    pub strided: bool,
    /// A CHIP entry's host tensor held once for every rank (as a HOST entry's always is): its
    /// initial bytes are `shared`, every rank's output is the one buffer.
    pub one_buffer: bool,
    /// Every rank's initial bytes (else zeros).
    pub shared: Option<Vec<u8>>,
    /// A rank's own initial bytes (before `shared`).
    pub per_rank: BTreeMap<usize, Vec<u8>>,
}

impl TensorArg {
    /// A zero-initialised tensor.
    pub fn zeros(place: Place, elem_size: usize, dims: &[u64]) -> TensorArg {
        TensorArg {
            place,
            elem_size,
            dims: dims.to_vec(),
            strided: false,
            one_buffer: false,
            shared: None,
            per_rank: BTreeMap::new(),
        }
    }

    /// Its packed bytes.
    pub fn bytes(&self) -> usize {
        self.elem_size * self.dims.iter().product::<u64>() as usize
    }
}

/// A test hook (the engine's `launch` line): instead of a CHIP entry, each rank submits one task
/// of a kernel of the linked tree itself, with this launch spec, the entry's tensors in order
/// (every one InOut) and then its context slots. pld-sim's raw cases run the launches pld-opt
/// never emits through it (docs/sim.md "Raw launches").
#[derive(Clone, Debug)]
pub struct RawLaunch {
    /// The kernel's registered name.
    pub kernel: String,
    /// The launch width.
    pub block_num: i64,
    /// Whether every block must start at once.
    pub sync_start: bool,
    /// How many of the last context slots hold null (a kernel must never read them).
    pub null_comms: usize,
}

/// One CHIP entry run by the engine (or the HOST entry, alone).
#[derive(Clone, Debug, Default)]
pub struct EntryRun {
    /// Its index in the runner's entry table ([`super::build::runner`]'s `functions`).
    pub index: usize,
    /// A raw launch instead of the entry (`index` is then unused).
    pub launch: Option<RawLaunch>,
    /// The communication domain of devices 0..N−1 it runs in (`None`: the world).
    pub domain: Option<usize>,
    /// Its parameters in declaration order.
    pub args: Vec<Arg>,
}

/// What the engine is told.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Devices of the world.
    pub ranks: usize,
    /// Ranks as processes (else threads).
    pub processes: bool,
    /// The run's bound (and, unless `wait_timeout_ms`, each signal wait's, plus a second).
    pub timeout_ms: u64,
    /// A signal wait's bound (`Some(-1)`: the runtime's default).
    pub wait_timeout_ms: Option<i64>,
    /// Thread mode: the engine reports a run past `timeout_ms` itself (else its caller kills it).
    pub watchdog: bool,
    /// The window bytes of every rank.
    pub window_bytes: u64,
    /// AIV cores per device (`None`: the runtime's 48).
    pub aiv_capacity: Option<i64>,
    /// Each rank runs its CHIP entries this many times per run.
    pub repeat: u32,
    /// World::run this many times (a benchmark), stopping at the first that fails.
    pub runs: u32,
    /// Before each run, time a single-thread memcpy of this many bytes, and the same copy over
    /// two threads (0: none).
    pub copy_bytes: u64,
    /// Before every run after the first, every tensor back to its staged content (its input,
    /// else zeros), so each run of a benchmark starts as the first.
    pub restage: bool,
    /// Process mode's fault: (rank, crash|hang|exit, before|inside|after).
    pub fault: Option<(usize, String, String)>,
    /// The kernel whose block spans are recorded.
    pub trace_kernel: Option<String>,
    /// Per rank: a delay before each block of `trace_kernel`, µs.
    pub delay_us: Vec<i64>,
    /// Record every copy a kernel makes ([`Report::copies`]).
    pub trace_copies: bool,
    /// The entries, in the order a rank runs them.
    pub entries: Vec<EntryRun>,
}

impl Spec {
    /// A spec of one entry over `ranks` devices with pld-run's defaults.
    pub fn new(ranks: usize, window_bytes: u64, entry: EntryRun) -> Spec {
        Spec {
            ranks,
            processes: true,
            timeout_ms: 10_000,
            wait_timeout_ms: None,
            watchdog: true,
            window_bytes,
            aiv_capacity: None,
            repeat: 1,
            runs: 1,
            copy_bytes: 0,
            restage: false,
            fault: None,
            trace_kernel: None,
            delay_us: Vec::new(),
            trace_copies: false,
            entries: vec![entry],
        }
    }

    /// Writes `dir/params` and the input files.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        let mut s = String::new();
        let _ = writeln!(s, "ranks {}", self.ranks);
        let _ = writeln!(s, "timeout_ms {}", self.timeout_ms.min(i32::MAX as u64));
        let _ = writeln!(s, "processes {}", u8::from(self.processes));
        let _ = writeln!(s, "window_bytes {}", self.window_bytes);
        if let Some(w) = self.wait_timeout_ms {
            let _ = writeln!(s, "wait_timeout_ms {w}");
        }
        if !self.watchdog {
            s.push_str("watchdog 0\n");
        }
        if let Some(c) = self.aiv_capacity {
            let _ = writeln!(s, "aiv_capacity {c}");
        }
        for (key, v) in [("repeat", self.repeat), ("runs", self.runs)] {
            if v != 1 {
                let _ = writeln!(s, "{key} {v}");
            }
        }
        if self.copy_bytes > 0 {
            let _ = writeln!(s, "copy_bytes {}", self.copy_bytes);
        }
        if self.restage {
            s.push_str("restage 1\n");
        }
        if let Some((r, kind, at)) = &self.fault {
            let _ = writeln!(s, "fault {r} {kind} {at}");
        }
        if let Some(k) = &self.trace_kernel {
            let _ = writeln!(s, "trace_kernel {k}");
        }
        if self.trace_copies {
            s.push_str("trace_copies 1\n");
        }
        if !self.delay_us.is_empty() {
            let d: Vec<String> = self.delay_us.iter().map(i64::to_string).collect();
            let _ = writeln!(s, "delay_us {}", d.join(" "));
        }
        let mut tensor_ix = 0;
        for e in &self.entries {
            match (&e.launch, e.domain) {
                (Some(l), _) => {
                    let _ = writeln!(
                        s,
                        "launch {} {} {}",
                        l.kernel,
                        l.block_num,
                        u8::from(l.sync_start)
                    );
                }
                (None, Some(n)) => {
                    let _ = writeln!(s, "entry {} domain {n}", e.index);
                }
                (None, None) => {
                    let _ = writeln!(s, "entry {}", e.index);
                }
            }
            let comms = e.args.iter().filter(|a| matches!(a, Arg::Comm)).count();
            let _ = writeln!(s, "comms {comms}");
            if let Some(l) = e.launch.as_ref().filter(|l| l.null_comms > 0) {
                let _ = writeln!(s, "null_comms {}", l.null_comms);
            }
            for a in &e.args {
                match a {
                    Arg::Comm => {}
                    Arg::Scalar(v) => {
                        let _ = writeln!(s, "scalar {v}");
                    }
                    Arg::Tensor(t) => {
                        let dims: Vec<String> = t.dims.iter().map(u64::to_string).collect();
                        let head = match t.place {
                            Place::Host => "tensor".to_string(),
                            Place::Window => "window".to_string(),
                            Place::HostWindow(off) => format!("host_window {off}"),
                        };
                        let _ = writeln!(
                            s,
                            "{head} {} {} {}{}{}",
                            t.elem_size,
                            t.dims.len(),
                            dims.join(" "),
                            if t.strided { " strided" } else { "" },
                            if t.one_buffer { " shared" } else { "" }
                        );
                        if let Some(v) = &t.shared {
                            fs::write(dir.join(format!("in.{tensor_ix}.bin")), v)?;
                        }
                        for (r, v) in &t.per_rank {
                            fs::write(dir.join(format!("in.{tensor_ix}.r{r}.bin")), v)?;
                        }
                        tensor_ix += 1;
                    }
                }
            }
        }
        fs::write(dir.join("params"), s)
    }
}

/// What the runtime counted for one kernel (`pld::host::World::kernel_stats`).
#[derive(Clone, Debug, PartialEq)]
pub struct KernelStats {
    /// The kernel's registered name.
    pub name: String,
    /// Tasks that launched it, every rank counted.
    pub launches: u64,
    /// Block instances started, every rank counted.
    pub blocks: u64,
}

/// One block of the traced kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    /// The run (0-based).
    pub run: u32,
    /// The rank (device) it ran on.
    pub rank: usize,
    /// Its block index.
    pub block: i64,
    /// When its body started, steady-clock ns.
    pub start_ns: i64,
    /// When it returned.
    pub end_ns: i64,
}

/// Where a traced copy's address lies: in which tensor (numbered as the engine numbers them:
/// the tensor, window and host-window parameters of every entry in order), in whose buffer, and
/// at which byte offset of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    /// The tensor (`None`: outside every tensor, e.g. a runtime-owned buffer).
    pub tensor: Option<usize>,
    /// The rank whose buffer it is (0 for a buffer every rank shares).
    pub rank: usize,
    /// Byte offset in that buffer.
    pub offset: u64,
}

/// One copy a kernel made (`Spec::trace_copies`): a `pld_rt_copy` or a transfer the device
/// model completed.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyRecord {
    /// The run (0-based).
    pub run: u32,
    /// The rank whose block copied.
    pub rank: usize,
    /// That block's index.
    pub block: i64,
    /// The copying kernel's registered name.
    pub kernel: String,
    /// Where it wrote.
    pub dst: Loc,
    /// Where it read.
    pub src: Loc,
    /// How many bytes.
    pub bytes: u64,
}

/// How one rank ended (`end` lines).
#[derive(Clone, Debug, PartialEq)]
pub enum RankEnd {
    /// Its body returned.
    Finished,
    /// It died or exited early: how.
    Failed(String),
    /// It was still running at the bound and was killed.
    TimedOut,
}

/// What the engine reported (its `result` file).
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The run's status (0 ok).
    pub status: i64,
    /// Each rank's status.
    pub rank_status: Vec<i64>,
    /// The runtime's message, if any.
    pub message: Option<String>,
    /// How each rank ended (empty when the thread-mode watchdog wrote the result).
    pub ends: Vec<RankEnd>,
    /// Where the world's window allocator ended after the run.
    pub alloc_end: Option<u64>,
    /// Per kernel that was submitted, by name.
    pub kernels: Vec<KernelStats>,
    /// The traced kernel's blocks.
    pub spans: Vec<Span>,
    /// Every copy of every run, with `Spec::trace_copies`.
    pub copies: Vec<CopyRecord>,
    /// Copies the runtime's log had no room for, every run counted (the trace is incomplete).
    pub copies_dropped: i64,
    /// Per run: the reference memcpy, ns.
    pub copy_ns: Vec<i64>,
    /// Per run: the reference memcpy split over two threads, ns.
    pub copy2_ns: Vec<i64>,
    /// Per run of several: each rank's status.
    pub run_status: Vec<Vec<i64>>,
    /// CHIP entries' runtime-owned buffers still live when they returned, every rank counted.
    pub live_buffers: Option<u64>,
    /// Where the engine wrote the tensors back (empty when it reported nothing).
    pub dir: PathBuf,
}

impl Report {
    /// Tensor `i`'s packed bytes on rank `r` after the run (`None` when the engine wrote none: a
    /// run stopped at its thread-mode bound).
    pub fn output(&self, i: usize, r: usize) -> Option<Vec<u8>> {
        fs::read(self.dir.join(format!("out.{i}.r{r}.bin"))).ok()
    }

    fn parse(text: &str, dir: &Path) -> Report {
        let mut report = Report {
            dir: dir.to_path_buf(),
            ..Report::default()
        };
        let ints = |s: &str| -> Vec<i64> {
            s.split_whitespace()
                .map(|x| x.parse().unwrap_or(i64::MIN))
                .collect()
        };
        for line in text.lines() {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "status" => report.status = rest.trim().parse().unwrap_or(1),
                "rank_status" => report
                    .rank_status
                    .push(ints(rest).get(1).copied().unwrap_or(1)),
                "message" => report.message = Some(rest.to_string()),
                "alloc_end" => report.alloc_end = rest.trim().parse().ok(),
                "live_buffers" => report.live_buffers = rest.trim().parse().ok(),
                "end" => {
                    let mut it = rest.splitn(3, ' ');
                    let _rank = it.next();
                    let kind = it.next().unwrap_or("");
                    let how = it.next().unwrap_or("").trim().to_string();
                    report.ends.push(match kind {
                        "failed" => RankEnd::Failed(how),
                        "timeout" => RankEnd::TimedOut,
                        _ => RankEnd::Finished,
                    });
                }
                "kernel" => {
                    let f: Vec<&str> = rest.split_whitespace().collect();
                    if let [name, launches, blocks] = f[..] {
                        report.kernels.push(KernelStats {
                            name: name.to_string(),
                            launches: launches.parse().unwrap_or(0),
                            blocks: blocks.parse().unwrap_or(0),
                        });
                    }
                }
                "span" => {
                    if let [run, rank, block, start_ns, end_ns] = ints(rest)[..] {
                        report.spans.push(Span {
                            run: run as u32,
                            rank: rank as usize,
                            block,
                            start_ns,
                            end_ns,
                        });
                    }
                }
                "copy" => {
                    if let Some(c) = parse_copy(rest) {
                        report.copies.push(c);
                    }
                }
                "copies_dropped" => {
                    report.copies_dropped += ints(rest).get(1).copied().unwrap_or(1)
                }
                "copy_ns" => report.copy_ns.push(ints(rest).get(1).copied().unwrap_or(0)),
                "copy2_ns" => report
                    .copy2_ns
                    .push(ints(rest).get(1).copied().unwrap_or(0)),
                "run_status" => report.run_status.push(ints(rest).split_off(1)),
                _ => {}
            }
        }
        report
    }

    /// Blocks started per kernel, by name.
    pub fn blocks(&self) -> BTreeMap<String, i64> {
        self.kernels
            .iter()
            .map(|k| (k.name.clone(), k.blocks as i64))
            .collect()
    }
}

/// A `copy` line's fields: `<run> <rank> <block> <kernel> <dst> <src> <bytes>`, each place
/// `<tensor> <rank> <offset>` (tensor -1: none).
fn parse_copy(rest: &str) -> Option<CopyRecord> {
    let f: Vec<&str> = rest.split_whitespace().collect();
    let [run, rank, block, kernel, dst @ .., bytes] = &f[..] else {
        return None;
    };
    let loc = |p: &[&str]| -> Option<Loc> {
        let tensor: i64 = p[0].parse().ok()?;
        Some(Loc {
            tensor: usize::try_from(tensor).ok(),
            rank: p[1].parse().unwrap_or(0),
            offset: p[2].parse().unwrap_or(0),
        })
    };
    if dst.len() != 6 {
        return None;
    }
    Some(CopyRecord {
        run: run.parse().ok()?,
        rank: rank.parse().ok()?,
        block: block.parse().ok()?,
        kernel: kernel.to_string(),
        dst: loc(&dst[..3])?,
        src: loc(&dst[3..])?,
        bytes: bytes.parse().ok()?,
    })
}

/// How the engine process ended.
pub enum Ended {
    /// It exited 0 and wrote its result.
    Reported(Report),
    /// It outlived `bound` and its process group was killed.
    Killed,
}

/// Writes `spec` into `dir`, runs the engine `exe` on it in its own process group and reads its
/// report. Past `bound` the whole group is killed. The engine's stderr is returned beside (a
/// refusal's `pld-runtime: error` line, what pld-run shows).
pub fn run(
    exe: &Path,
    dir: &Path,
    spec: &Spec,
    bound: Duration,
) -> Result<(Ended, String), String> {
    use std::io::Read;
    spec.write(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut child = Command::new(exe)
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let mut pipe = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(p) = pipe.as_mut() {
            let _ = p.read_to_string(&mut text);
        }
        text
    });
    let start = Instant::now();
    let mut nap = Duration::from_micros(100);
    let status: Option<ExitStatus> = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(s);
        }
        if start.elapsed() >= bound {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .stderr(Stdio::null())
                .status();
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(5));
    };
    let stderr = reader.join().unwrap_or_default();
    let Some(status) = status else {
        return Ok((Ended::Killed, stderr));
    };
    if !status.success() {
        return Err(format!(
            "the engine {} failed ({status}):\n{stderr}",
            exe.display()
        ));
    }
    let text = fs::read_to_string(dir.join("result"))
        .map_err(|e| format!("the engine wrote no result: {e}"))?;
    Ok((Ended::Reported(Report::parse(&text, dir)), stderr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_lines_parse_into_records() {
        let text = "status 0\n\
                    copy 0 2 5 __builtin_all_to_all_v__fp32 4 3 96 3 2 192 28\n\
                    copy 1 0 0 - -1 -1 0 0 0 8 4\n\
                    copy 0 1\n\
                    copies_dropped 1 7\n";
        let r = Report::parse(text, Path::new("/nonexistent"));
        assert_eq!(r.copies.len(), 2, "the short line is skipped");
        assert_eq!(
            r.copies[0],
            CopyRecord {
                run: 0,
                rank: 2,
                block: 5,
                kernel: "__builtin_all_to_all_v__fp32".into(),
                dst: Loc {
                    tensor: Some(4),
                    rank: 3,
                    offset: 96
                },
                src: Loc {
                    tensor: Some(3),
                    rank: 2,
                    offset: 192
                },
                bytes: 28,
            }
        );
        assert_eq!(r.copies[1].dst.tensor, None);
        assert_eq!(r.copies[1].src.tensor, Some(0));
        assert_eq!(r.copies_dropped, 7);
    }
}
