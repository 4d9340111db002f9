//! `pld-sim --bench --family` (benches/sim_family.sh; docs/sim-performance.md, "The collective
//! family"): each op's generated family program, built and run by the engine as a case is, timed
//! per run from the collective's block spans, as NCCL-style bus bandwidth over this machine's
//! single-thread memcpy bandwidth (measured by the engine just before each run), and the barrier's
//! latency. A benchmark, not a test: no figure is asserted, but every configuration's last run must
//! match the family golden.

use std::io::Write;

use serde_json::{Value, json};

use super::case::FamilyCase;
use super::golden;
use super::ops::{Elem, base, with};
use super::run::run_with;
use crate::bench::{at_least, list_in, walk_flags};
use crate::launch::{Timed, UNBOUNDED_MS, median, run_timings};
use pld_run::toolchain::Toolchain;

/// f32 rows of 32 elements (128 B): the kernels work on flat elements.
const ROW_ELEMS: i64 = 32;
const ROW_BYTES: i64 = ROW_ELEMS * 4;

/// One benchmarked op: its family case, NCCL's bus-bandwidth factor, and the traffic of the
/// 2-core ceiling (`None`: the docs give that op's bound).
struct BenchOp {
    name: &'static str,
    /// The case's keys beyond op, P, dtype, rows and row_elems (`l`: the lanes).
    keys: fn(p: usize, l: i64) -> Value,
    /// bytes x factor = the bus bytes (nccl-tests; reduce and a permute move `bytes` once).
    factor: fn(p: f64) -> f64,
    /// All ranks' memcpy traffic in units of `bytes`: busbw / memcpy <= factor x c / traffic,
    /// c the 2-core memcpy speed-up (reduce: the root reads P targets and writes its own; gather,
    /// scatter: the P chunks; the ring-shift permute: P pushes).
    traffic: Option<fn(p: f64) -> f64>,
}

fn twice(p: f64) -> f64 {
    2.0 * (p - 1.0) / p
}
fn once(p: f64) -> f64 {
    (p - 1.0) / p
}

/// The ops, in the table's order; root 0, `reduce = "sum"`, permute as the ring shift r -> r+1.
#[rustfmt::skip]
const OPS: &[BenchOp] = &[
    BenchOp { name: "allreduce", keys: |_, l| json!({"op": "allreduce", "reduce": "sum", "core_num": l}), factor: twice, traffic: None },
    BenchOp { name: "ring", keys: |_, _| json!({"op": "allreduce", "reduce": "sum", "mode": "ring"}), factor: twice, traffic: None },
    BenchOp { name: "reduce_scatter", keys: |_, l| json!({"op": "reduce_scatter", "reduce": "sum", "core_num": l}), factor: once, traffic: None },
    BenchOp { name: "allgather", keys: |_, l| json!({"op": "allgather", "core_num": l}), factor: once, traffic: None },
    BenchOp { name: "all_to_all", keys: |_, l| json!({"op": "all_to_all", "core_num": l}), factor: once, traffic: None },
    BenchOp { name: "reduce", keys: |_, l| json!({"op": "reduce", "reduce": "sum", "root": 0, "core_num": l}), factor: |_| 1.0, traffic: Some(|p| p + 1.0) },
    BenchOp { name: "gather", keys: |_, l| json!({"op": "gather", "root": 0, "core_num": l}), factor: once, traffic: Some(|_| 1.0) },
    BenchOp { name: "scatter", keys: |_, l| json!({"op": "scatter", "root": 0, "core_num": l}), factor: once, traffic: Some(|_| 1.0) },
    BenchOp { name: "permute", keys: |p, l| json!({"op": "permute", "pairs": (0..p).map(|r| [r, (r + 1) % p]).collect::<Vec<_>>(), "core_num": l}), factor: |_| 1.0, traffic: Some(|p| p) },
];

/// The benchmark's options (the flags of `pld-sim --bench --family`).
#[derive(Clone, Debug, PartialEq)]
pub struct Opts {
    /// `--ranks`: the P of the data ops (2..=16).
    pub ranks: Vec<usize>,
    /// `--sizes-kib`: the bytes per rank of the target (scatter: the root's input), KiB.
    pub sizes_kib: Vec<i64>,
    /// `--lanes`: L, `P`, `2P` or a number (ring mode: 1).
    pub lanes: String,
    /// `--ops`: the data ops, among allreduce, ring, reduce_scatter, allgather, all_to_all,
    /// reduce, gather, scatter, permute.
    pub ops: Vec<&'static str>,
    /// `--iters`: timed runs above 256 KiB.
    pub iters: u32,
    /// `--small-iters`: timed runs up to 256 KiB.
    pub small_iters: u32,
    /// `--warmup`: untimed runs first.
    pub warmup: u32,
    /// `--barrier-ranks`: the P of the barrier's latency table.
    pub barrier_ranks: Vec<usize>,
    /// `--barrier-iters`: the barrier's timed runs.
    pub barrier_iters: u32,
    /// Whether the barrier's table runs (`--no-barrier`: not).
    pub barrier: bool,
    /// `-v`: one line per run on stderr.
    pub verbose: bool,
}

impl Default for Opts {
    fn default() -> Opts {
        Opts {
            ranks: vec![4, 8],
            sizes_kib: vec![1, 4, 16, 64, 256, 1024, 4096, 16384, 65536],
            lanes: "P".into(),
            ops: vec![
                "allreduce",
                "ring",
                "reduce_scatter",
                "allgather",
                "all_to_all",
            ],
            iters: 9,
            small_iters: 31,
            warmup: 2,
            barrier_ranks: (2..=16).collect(),
            barrier_iters: 101,
            barrier: true,
            verbose: false,
        }
    }
}

impl Opts {
    /// Parses the flags after `--bench --family`; `Err` names the bad flag.
    pub fn parse(args: &[String]) -> Result<Opts, String> {
        let mut o = Opts::default();
        walk_flags(args, &["--no-barrier", "-v"], |a, v| {
            let v = v.unwrap_or_default();
            match a {
                "--no-barrier" => o.barrier = false,
                "-v" => o.verbose = true,
                "--ranks" => o.ranks = list_in(a, v, 2..=16)?,
                "--barrier-ranks" => o.barrier_ranks = list_in(a, v, 1..=16)?,
                "--sizes-kib" => o.sizes_kib = list_in(a, v, 1..=i64::MAX)?,
                "--lanes" => {
                    if v != "P" && v != "2P" {
                        at_least(a, v, 1i64)?;
                    }
                    o.lanes = v.to_string();
                }
                "--ops" => {
                    o.ops = v
                        .split(',')
                        .map(|n| {
                            OPS.iter()
                                .find(|op| op.name == n)
                                .map(|op| op.name)
                                .ok_or_else(|| format!("unknown op '{n}' for --ops"))
                        })
                        .collect::<Result<_, _>>()?
                }
                "--iters" => o.iters = at_least(a, v, 1)?,
                "--small-iters" => o.small_iters = at_least(a, v, 1)?,
                "--warmup" => o.warmup = at_least(a, v, 0)?,
                "--barrier-iters" => o.barrier_iters = at_least(a, v, 1)?,
                _ => return Err(format!("unknown --bench --family argument {a}")),
            }
            Ok(())
        })?;
        Ok(o)
    }

    fn lanes_for(&self, p: usize) -> i64 {
        match self.lanes.as_str() {
            "P" => p as i64,
            "2P" => 2 * p as i64,
            n => n.parse().unwrap_or(1),
        }
    }
}

/// Medians over the timed runs of one configuration.
#[derive(Clone, Copy, Debug, Default)]
struct Measured {
    memcpy_gbs: f64,
    us: f64,
    ratio: f64,
    /// The 2-core memcpy speed-up c.
    cores: f64,
}

/// The case of `op` at P ranks and L lanes whose target per rank (scatter: the root's input) is
/// `bytes`, or why there is none.
fn bench_case(op: &BenchOp, p: usize, l: i64, bytes: i64) -> Result<FamilyCase, String> {
    let rows = bytes / ROW_BYTES;
    if bytes % ROW_BYTES != 0 || rows % p as i64 != 0 || rows == 0 {
        return Err(format!(
            "{bytes} bytes do not split into {p} ranks of {ROW_BYTES}-byte rows"
        ));
    }
    let case = |m: i64| {
        let v = with(base("", p, Elem::F32, m, ROW_ELEMS), (op.keys)(p, l));
        FamilyCase::from_value(&with(v, json!({"timeout_ms": UNBOUNDED_MS})))
            .map_err(|e| e.to_string())
    };
    // M from the op's rule: the measured operand holds 1 or P rows per unit of M. The case is
    // checked at M = 1: a benchmark's sizes go past a case file's bounds (which keep a result
    // JSON printable), as the all_to_all_v bench's do.
    let mut c = case(1)?;
    let per_m = if op.name == "scatter" {
        c.input_rows().unwrap_or(1)
    } else {
        c.target_rows()
    };
    c.rows = rows / per_m;
    Ok(c)
}

/// Runs one configuration: `runs` restaged runs, the first `warmup` untimed.
fn measure(
    tc: &Toolchain,
    case: &FamilyCase,
    bytes: i64,
    factor: f64,
    warmup: u32,
    iters: u32,
    verbose: bool,
) -> Result<Measured, String> {
    let timed = Timed {
        runs: warmup + iters,
        copy_bytes: bytes as u64,
    };
    let (res, report) = run_with(tc, case, Some(timed))?;
    if res.status != "ok" {
        return Err(format!("{}: {}", res.status, res.message));
    }
    let report = report.ok_or("the run was killed")?;
    // The last run is restaged as the first: it must give the golden's result.
    golden::check(case, &res).map_err(|e| format!("the last run's result: {e}"))?;
    let (mut us, mut gbs, mut ratio, mut cores) = (vec![], vec![], vec![], vec![]);
    for (run, t) in run_timings(&report, timed)?.into_iter().enumerate() {
        let (m, m2, c) = (t.memcpy as f64, t.memcpy2 as f64, t.collective as f64);
        if verbose {
            eprintln!(
                "{} P={} L={} {bytes} B run {run}: memcpy {:.3} us, call {:.3} us{}",
                case.op.name(),
                case.ranks,
                case.blocks(),
                m / 1e3,
                c / 1e3,
                if run < warmup as usize {
                    " (warm-up)"
                } else {
                    ""
                }
            );
        }
        if run < warmup as usize {
            continue;
        }
        us.push(c / 1e3);
        if bytes > 0 {
            gbs.push(bytes as f64 / m);
            cores.push(m / m2);
            ratio.push(factor * m / c);
        }
    }
    Ok(Measured {
        memcpy_gbs: median(gbs),
        us: median(us),
        ratio: median(ratio),
        cores: median(cores),
    })
}

fn size_str(bytes: i64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// Runs the benchmark, Markdown tables on `out`; `false` when a configuration failed (each
/// failure named on stderr, the others still run).
pub fn run(tc: &Toolchain, o: &Opts, out: &mut impl Write) -> std::io::Result<bool> {
    let mut ok = true;
    if !o.ops.is_empty() && !o.sizes_kib.is_empty() {
        writeln!(
            out,
            "| op | P | L | bytes per rank | memcpy GB/s | time µs | algbw GB/s | busbw GB/s | busbw / memcpy | P × busbw / memcpy | c | of the 2-core ceiling |"
        )?;
        writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|")?;
        out.flush()?;
        for op in OPS.iter().filter(|op| o.ops.contains(&op.name)) {
            for &p in &o.ranks {
                for &kib in &o.sizes_kib {
                    let bytes = kib << 10;
                    let l = o.lanes_for(p);
                    let iters = if bytes <= 256 << 10 {
                        o.small_iters
                    } else {
                        o.iters
                    };
                    let pf = p as f64;
                    let factor = (op.factor)(pf);
                    let m = match bench_case(op, p, l, bytes).and_then(|case| {
                        measure(tc, &case, bytes, factor, o.warmup, iters, o.verbose)
                    }) {
                        Ok(m) => m,
                        Err(e) => {
                            eprintln!("pld-sim: {} P={p} {}: {e}", op.name, size_str(bytes));
                            ok = false;
                            continue;
                        }
                    };
                    let algbw = bytes as f64 / (m.us * 1e3);
                    let of = match op.traffic {
                        Some(t) => format!("{:.2}", m.ratio / (factor * m.cores / t(pf))),
                        None => "—".into(),
                    };
                    writeln!(
                        out,
                        "| {} | {p} | {} | {} | {:.2} | {:.1} | {:.3} | {:.3} | {:.3} | {:.2} | {:.2} | {of} |",
                        op.name,
                        if op.name == "ring" { 1 } else { l },
                        size_str(bytes),
                        m.memcpy_gbs,
                        m.us,
                        algbw,
                        algbw * factor,
                        m.ratio,
                        pf * m.ratio,
                        m.cores,
                    )?;
                    out.flush()?;
                }
            }
        }
    }
    if o.barrier {
        writeln!(out, "\n| barrier P | time µs (median) |\n|---|---|")?;
        for &p in &o.barrier_ranks {
            let case = FamilyCase::from_value(
                &json!({"op": "barrier", "ranks": p, "timeout_ms": UNBOUNDED_MS}),
            )
            .map_err(|e| e.to_string());
            match case.and_then(|c| measure(tc, &c, 0, 0.0, o.warmup, o.barrier_iters, o.verbose)) {
                Ok(m) => writeln!(out, "| {p} | {:.1} |", m.us)?,
                Err(e) => {
                    eprintln!("pld-sim: barrier P={p}: {e}");
                    ok = false;
                }
            }
            out.flush()?;
        }
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::tests::args;

    #[test]
    fn flags_parse_and_refuse() {
        let o = Opts::parse(&args(
            "--ranks 2,4 --sizes-kib 4,64 --lanes 2P --ops reduce,permute --iters 3 --no-barrier -v",
        ))
        .unwrap();
        assert_eq!(o.ranks, vec![2, 4]);
        assert_eq!(o.sizes_kib, vec![4, 64]);
        assert_eq!(
            (o.lanes_for(4), o.ops.clone()),
            (8, vec!["reduce", "permute"])
        );
        assert!(!o.barrier && o.verbose && o.iters == 3);
        for bad in [
            "--ranks 1",
            "--ranks 17",
            "--ops broadcast",
            "--lanes 0",
            "--iters 0",
            "--sizes-kib",
            "--frobnicate 1",
        ] {
            assert!(Opts::parse(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_op_measures_the_bytes_asked_for() {
        // The measured operand (the target; scatter: the root's input) holds `bytes`.
        for op in OPS {
            let c = bench_case(op, 4, 4, 64 << 10).unwrap();
            let rows = if op.name == "scatter" {
                c.input_rows().unwrap()
            } else {
                c.target_rows()
            };
            assert_eq!(rows * ROW_BYTES, 64 << 10, "{}", op.name);
        }
        let ring = bench_case(&OPS[1], 4, 4, 4096).unwrap();
        assert!(ring.ring() && ring.blocks() == 1);
        // 1 KiB is 8 rows: not a multiple of P = 3.
        assert!(bench_case(&OPS[0], 3, 3, 1024).is_err());
    }

    #[test]
    fn medians_and_factors() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(twice(4.0), 1.5);
        assert_eq!(once(4.0), 0.75);
    }
}
