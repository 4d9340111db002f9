//! `pld-sim --bench` (benches/sim_exchange.sh; docs/sim-performance.md): the all_to_all_v
//! exchange, and with `--indexed` the indexed op against it, each case run as every case is
//! ([`crate::run::bench`]: the generated pipeline, the last run judged by the golden) and timed
//! from the collective's block spans against this machine's single-thread memcpy. A benchmark,
//! not a test: no figure is asserted. The flag walk here serves `--bench --family` too.

use std::io::Write;

use crate::case::{Case, Elem};
use crate::launch::{RunTiming, median};
use crate::matrix::{self, IndexPattern, Pattern, indexed_case};
use crate::run::bench;
use pld_run::toolchain::Toolchain;

/// f32 rows of 1024 elements (4 KiB); every count MAX_RECV, so each rank sends its whole input.
const ROW_ELEMS: i64 = 1024;

/// Walks a benchmark's flags: a `switch` takes no value (`on(flag, None)`), every other flag
/// the next argument (`on(flag, Some(value))`); `Err` names the flag.
pub(crate) fn walk_flags(
    args: &[String],
    switches: &[&str],
    mut on: impl FnMut(&str, Option<&str>) -> Result<(), String>,
) -> Result<(), String> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if switches.contains(&a.as_str()) {
            on(a, None)?;
        } else {
            let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
            on(a, Some(v))?;
        }
    }
    Ok(())
}

/// `value` of `flag` as a number ≥ `min`.
pub(crate) fn at_least<T: std::str::FromStr + PartialOrd>(
    flag: &str,
    value: &str,
    min: T,
) -> Result<T, String> {
    value
        .parse::<T>()
        .ok()
        .filter(|n| *n >= min)
        .ok_or_else(|| format!("bad value {value} for {flag}"))
}

/// `value` of `flag` as a comma list of numbers, each in `range`.
pub(crate) fn list_in<T: std::str::FromStr + PartialOrd>(
    flag: &str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<Vec<T>, String> {
    value
        .split(',')
        .map(|x| x.parse::<T>().ok().filter(|n| range.contains(n)))
        .collect::<Option<Vec<T>>>()
        .ok_or_else(|| format!("bad value {value} for {flag}"))
}

/// The exchange benchmark's options (the flags of `pld-sim --bench`).
#[derive(Clone, Debug, PartialEq)]
pub struct Opts {
    /// `--ranks`: the P of each row (1..=16).
    pub ranks: Vec<usize>,
    /// `--mib`: the MiB each rank sends.
    pub mib: i64,
    /// `--core-num`: L (default P).
    pub core_num: Option<i64>,
    /// `--warmup`: untimed runs first.
    pub warmup: u32,
    /// `--iters`: timed runs (with `--indexed`: per round).
    pub iters: u32,
    /// `--indexed`: the indexed op against the plain one.
    pub indexed: bool,
}

impl Opts {
    /// Parses the flags after `--bench`; `Err` names the bad flag.
    pub fn parse(args: &[String]) -> Result<Opts, String> {
        let mut o = Opts {
            ranks: vec![4, 8],
            mib: 64,
            core_num: None,
            warmup: 2,
            iters: 5,
            indexed: false,
        };
        walk_flags(args, &["--indexed"], |a, v| {
            let v = v.unwrap_or_default();
            match a {
                "--indexed" => o.indexed = true,
                "--ranks" => o.ranks = list_in(a, v, 1..=16)?,
                "--mib" => o.mib = at_least(a, v, 1)?,
                "--core-num" => o.core_num = Some(at_least(a, v, 1)?),
                "--warmup" => o.warmup = at_least(a, v, 0)?,
                "--iters" => o.iters = at_least(a, v, 1)?,
                _ => return Err(format!("unknown --bench argument {a}")),
            }
            Ok(())
        })?;
        Ok(o)
    }
}

/// Median (memcpy GB/s, exchange GB/s of all ranks, exchange / memcpy) over `runs`, P ranks each
/// receiving `bytes`.
fn rates(runs: &[RunTiming], p: usize, bytes: i64) -> (f64, f64, f64) {
    let each = |f: &dyn Fn(&RunTiming) -> f64| median(runs.iter().map(f).collect());
    let total = (p as i64 * bytes) as f64;
    (
        each(&|t| bytes as f64 / t.memcpy as f64),
        each(&|t| total / t.collective as f64),
        each(&|t| p as f64 * t.memcpy as f64 / t.collective as f64),
    )
}

/// The exchange's cases at P: the plain one and its indexed twin (a random index over the same
/// P * MAX_RECV input rows, the same counts). MAX_RECV = `mib` × 256 / P ≥ 16 for P ≤ 16.
fn cases(o: &Opts, p: usize) -> (Case, Case) {
    let mr = o.mib * (1 << 20) / (p as i64 * ROW_ELEMS * 4);
    let l = o.core_num.unwrap_or(p as i64);
    let plain = matrix::case(p, l, Elem::F32, mr, ROW_ELEMS, Pattern::Uniform, 0);
    let n = p as i64 * mr;
    let indexed = indexed_case(
        p,
        l,
        Elem::F32,
        mr,
        ROW_ELEMS,
        n,
        IndexPattern::Random,
        Pattern::Uniform,
        7,
    );
    (plain, indexed)
}

fn ms(runs: &[RunTiming], memcpy: bool) -> String {
    let each: Vec<String> = runs
        .iter()
        .map(|t| match memcpy {
            true => format!(
                "{:.2}/{:.2}",
                t.memcpy as f64 / 1e6,
                t.collective as f64 / 1e6
            ),
            false => format!("{:.1}", t.collective as f64 / 1e6),
        })
        .collect();
    each.join(" ")
}

/// Runs the benchmark, a Markdown table on `out` and each row's timings on stderr; `false` when a
/// configuration failed (named on stderr, the others still run).
pub fn run(tc: &Toolchain, o: &Opts, out: &mut impl Write) -> std::io::Result<bool> {
    if o.indexed {
        return run_indexed(tc, o, out);
    }
    writeln!(
        out,
        "| P | B | MiB per rank | single-thread memcpy GB/s | exchange GB/s (all ranks) | exchange / memcpy (median of {}) |\n|---|---|---|---|---|---|",
        o.iters
    )?;
    let mut ok = true;
    for &p in &o.ranks {
        let (case, _) = cases(o, p);
        match bench(tc, &case, o.warmup, o.iters) {
            Ok(runs) => {
                let bytes = case.rows() * ROW_ELEMS * 4;
                let (memcpy, exchange, ratio) = rates(&runs, p, bytes);
                writeln!(
                    out,
                    "| {p} | {} | {:.0} | {memcpy:.2} | {exchange:.2} | {ratio:.2} |",
                    case.blocks(),
                    bytes as f64 / (1 << 20) as f64,
                )?;
                eprintln!("P={p}: memcpy/exchange ms: {}", ms(&runs, true));
            }
            Err(e) => {
                eprintln!("pld-sim: P={p}: {e}");
                ok = false;
            }
        }
        out.flush()?;
    }
    Ok(ok)
}

/// `--indexed`: per P, the plain op and the indexed op in the same run, three alternating rounds
/// of each (`iters` timed exchanges per round), so both see the same machine load; the ratio is
/// the median indexed exchange throughput over the median plain one.
fn run_indexed(tc: &Toolchain, o: &Opts, out: &mut impl Write) -> std::io::Result<bool> {
    writeln!(
        out,
        "| P | L | MiB per rank | plain exchange GB/s | indexed exchange GB/s (random index) | indexed / plain | indexed / memcpy |\n|---|---|---|---|---|---|---|"
    )?;
    let mut ok = true;
    for &p in &o.ranks {
        let (plain, indexed) = cases(o, p);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _round in 0..3 {
            for (case, into) in [(&plain, &mut a), (&indexed, &mut b)] {
                match bench(tc, case, o.warmup, o.iters) {
                    Ok(runs) => into.extend(runs),
                    Err(e) => {
                        eprintln!("pld-sim: P={p}: {e}");
                        ok = false;
                    }
                }
            }
        }
        if a.is_empty() || b.is_empty() {
            continue;
        }
        let bytes = plain.rows() * ROW_ELEMS * 4;
        let ((_, plain_gbs, _), (_, indexed_gbs, ratio)) =
            (rates(&a, p, bytes), rates(&b, p, bytes));
        writeln!(
            out,
            "| {p} | {} | {:.0} | {plain_gbs:.2} | {indexed_gbs:.2} | **{:.2}** | {ratio:.2} |",
            plain.core_num,
            bytes as f64 / (1 << 20) as f64,
            indexed_gbs / plain_gbs,
        )?;
        eprintln!(
            "P={p}: plain exchange ms: {}; indexed exchange ms: {}",
            ms(&a, false),
            ms(&b, false)
        );
        out.flush()?;
    }
    Ok(ok)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A command line's words.
    pub(crate) fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn flags_parse_and_refuse() {
        let o = Opts::parse(&args(
            "--ranks 2,16 --mib 8 --core-num 3 --warmup 0 --indexed",
        ))
        .unwrap();
        assert_eq!(
            (o.ranks, o.mib, o.core_num, o.warmup),
            (vec![2, 16], 8, Some(3), 0)
        );
        assert!(o.indexed && o.iters == 5);
        for bad in [
            "--ranks 0",
            "--ranks 17",
            "--mib 0",
            "--iters 0",
            "--core-num",
            "-x 1",
        ] {
            assert!(Opts::parse(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_rank_sends_its_mib() {
        let o = Opts::parse(&args("--mib 4")).unwrap();
        let (plain, indexed) = cases(&o, 4);
        assert_eq!(plain.rows() * ROW_ELEMS * 4, 4 << 20);
        assert_eq!(indexed.in_rows(), plain.rows());
        assert_eq!(cases(&Opts { mib: 1, ..o }, 16).0.max_recv, 16);
        let t = |m, c| RunTiming {
            memcpy: m,
            memcpy2: m,
            collective: c,
        };
        // 4 ranks of 1000 B: memcpy 1 GB/s; the exchange of 4000 B in 2000 ns is 2 GB/s.
        assert_eq!(rates(&[t(1000, 2000)], 4, 1000), (1.0, 2.0, 2.0));
    }
}
