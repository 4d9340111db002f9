//! pld-sim: runs the rendered all_to_all_v kernel and the generated CHIP orchestration on the CPU.
//!
//! ```text
//! pld-sim CASE.json [-o RESULT.json]        one case (docs/sim.md; `-` reads it from stdin); the result JSON on stdout or in RESULT.json
//! pld-sim --matrix [full|ci|family|family-ci] [--filter S] [--list] [--jobs N]
//!                                           the case matrix against the golden (default full;
//!                                           family / family-ci: the collective family's), N
//!                                           entries at a time (default: the cores), reported in
//!                                           order
//! pld-sim --bench [--ranks 4,8] [--mib 64] [--core-num L] [--warmup W] [--iters N] [--indexed]
//!                                           exchange throughput vs single-thread memcpy; with
//!                                           --indexed, the indexed op (random index) vs the
//!                                           plain op on the same counts, in the same run
//! pld-sim --bench --family [--ranks 4,8] [--sizes-kib 1,...,65536] [--lanes P|2P|N] [--ops ...]
//!                  [--iters N] [--small-iters N] [--warmup N] [--barrier-ranks 2,...,16]
//!                  [--barrier-iters N] [--no-barrier] [-v]
//!                                           the collective family's bus bandwidth vs memcpy,
//!                                           latency, and the barrier's latency (Markdown)
//! ```
//!
//! Every form takes `--ranks-as processes|threads` (anywhere; default processes, or
//! `$PLD_SIM_RANKS_AS`): one process per rank over shared-memory windows, or the ranks as threads
//! of one process (the ThreadSanitizer slices use threads). A single case reports its run's wall
//! time on stderr (`pld-sim: ran in N ms, ranks as processes`); the matrices print each entry's.
//!
//! Exit status: 0 when the case ran (whatever its status), 2 for a malformed case or usage, 1 when
//! pld-sim itself failed (a tool missing, the generated tree not compiling, a matrix entry
//! failing).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use pld_run::toolchain::Toolchain;
use pld_sim::case::{Case, Elem};
use pld_sim::family::{bench as family_bench, case::FamilyCase, matrix as family_matrix};
use pld_sim::matrix::{self, Pattern};
use pld_sim::run::{bench, write_output};
use pld_sim::suite::{self, Entry, SimCase};

const USAGE: &str = "usage: pld-sim CASE.json|- [-o RESULT.json]   (any form: [--ranks-as processes|threads])\n       \
                     pld-sim --matrix [full|ci|family|family-ci] [--filter SUBSTR] [--list] [--jobs N]\n       \
                     pld-sim --bench [--ranks 4,8] [--mib 64] [--core-num L] [--warmup W] [--iters N] [--indexed]\n       \
                     pld-sim --bench --family [--ranks 4,8] [--sizes-kib K,...] [--lanes P|2P|N] [--ops OP,...]\n       \
                     \x20                        [--iters N] [--small-iters N] [--warmup N] [--barrier-ranks P,...] [--barrier-iters N] [--no-barrier] [-v]\n\
                     exit: 0 the case ran (whatever its status), 2 a malformed case or usage, 1 pld-sim failed";

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("pld-sim: {msg}\n{USAGE}");
    ExitCode::from(2)
}

/// A closed stdout (`pld-sim --matrix full --list | head`) ends the process
/// quietly, as for any Unix filter: Rust ignores SIGPIPE by default, so
/// `println!` would panic on the broken pipe instead.
fn default_sigpipe() {
    unsafe extern "C" {
        fn signal(signum: std::ffi::c_int, handler: usize) -> usize;
    }
    const SIGPIPE: std::ffi::c_int = 13;
    const SIG_DFL: usize = 0;
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

fn main() -> ExitCode {
    default_sigpipe();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--ranks-as") {
        let mode = args.get(i + 1).cloned().unwrap_or_default();
        if mode != "processes" && mode != "threads" {
            return usage_error("--ranks-as needs processes or threads");
        }
        // Read by Toolchain::discover (single-threaded here).
        unsafe { std::env::set_var("PLD_SIM_RANKS_AS", &mode) };
        args.drain(i..i + 2);
    }
    match args.first().map(String::as_str) {
        None | Some("-h") | Some("--help") => {
            println!("{USAGE}");
            if args.is_empty() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        Some("--matrix") => matrix_main(&args[1..]),
        Some("--bench") => bench_main(&args[1..]),
        Some(_) => case_main(&args),
    }
}

/// `pld-sim: ran in N ms, ranks as processes|threads` on stderr (the simulator's run, from its
/// start to its exit; 0 when nothing ran, e.g. a compile_error).
fn report_wall(tc: &Toolchain) {
    eprintln!(
        "pld-sim: ran in {:.1} ms, ranks as {}",
        pld_sim::run::last_run_wall().as_secs_f64() * 1e3,
        if tc.ranks_as_threads {
            "threads"
        } else {
            "processes"
        }
    );
}

fn toolchain() -> Result<Toolchain, ExitCode> {
    Toolchain::discover().map_err(|e| {
        eprintln!("pld-sim: {e}");
        ExitCode::from(1)
    })
}

fn case_main(args: &[String]) -> ExitCode {
    let mut input = None;
    let mut output = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" => match it.next() {
                Some(p) => output = Some(PathBuf::from(p)),
                None => return usage_error("-o needs a file"),
            },
            s if s.starts_with('-') && s != "-" => {
                return usage_error(&format!("unknown option {s}"));
            }
            s => {
                if input.replace(s.to_string()).is_some() {
                    return usage_error("one case file at a time");
                }
            }
        }
    }
    let Some(input) = input else {
        return usage_error("no case file");
    };
    let text = if input == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            eprintln!("pld-sim: stdin: {e}");
            return ExitCode::from(2);
        }
        s
    } else {
        match std::fs::read_to_string(&input) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("pld-sim: {input}: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let parsed = pld_sim::case::parse_case_json(&text);
    if let Ok(value) = &parsed
        && pld_sim::family::case::is_family(value)
    {
        return one_case(&input, FamilyCase::from_value(value), output);
    }
    one_case(&input, parsed.and_then(|v| Case::from_value(&v)), output)
}

/// One case of either suite: validated, run, its result written.
fn one_case<C: SimCase>(
    input: &str,
    case: Result<C, pld_sim::SimError>,
    output: Option<PathBuf>,
) -> ExitCode {
    let case = match case {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pld-sim: {input}: {e}");
            return ExitCode::from(e.exit_code());
        }
    };
    let tc = match toolchain() {
        Ok(tc) => tc,
        Err(code) => return code,
    };
    match case.run(&tc) {
        Ok(result) => {
            report_wall(&tc);
            let mut json = result.to_json(case.dtype());
            json.push('\n');
            match write_output(output.as_deref(), &json) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("pld-sim: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Err(e) => {
            eprintln!("pld-sim: {e}");
            ExitCode::from(1)
        }
    }
}

fn matrix_main(args: &[String]) -> ExitCode {
    let mut which = "full";
    let mut filter: Option<&str> = None;
    let mut list = false;
    let mut jobs = std::thread::available_parallelism().map_or(1, usize::from);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "full" => which = "full",
            "ci" => which = "ci",
            "family" => which = "family",
            "family-ci" => which = "family-ci",
            "--filter" => match it.next() {
                Some(f) => filter = Some(f),
                None => return usage_error("--filter needs a substring"),
            },
            "--list" => list = true,
            "--jobs" => match it.next().and_then(|n| n.parse().ok()).filter(|&n| n >= 1) {
                Some(n) => jobs = n,
                None => return usage_error("--jobs needs a count of at least 1"),
            },
            s => return usage_error(&format!("unknown --matrix argument {s}")),
        }
    }
    match which {
        "full" => run_matrix(which, matrix::full(), filter, list, jobs),
        "ci" => run_matrix(which, matrix::ci_slice(), filter, list, jobs),
        "family" => run_matrix(which, family_matrix::full(), filter, list, jobs),
        _ => run_matrix(which, family_matrix::ci(), filter, list, jobs),
    }
}

/// `--matrix WHICH`: the entries `filter` selects, listed or run against their golden.
fn run_matrix<C: SimCase + Sync>(
    which: &str,
    entries: Vec<Entry<C>>,
    filter: Option<&str>,
    list: bool,
    jobs: usize,
) -> ExitCode {
    let entries: Vec<_> = entries
        .into_iter()
        .filter(|e| filter.is_none_or(|f| e.name.contains(f)))
        .collect();
    if entries.is_empty() {
        // A filter that selects nothing would otherwise "pass" a run that checked nothing.
        return usage_error(&format!(
            "no entry of the {which} matrix matches --filter {}",
            filter.unwrap_or("")
        ));
    }
    if list {
        for e in &entries {
            println!("{}\t{}", e.name, e.case.to_json());
        }
        return ExitCode::SUCCESS;
    }
    let tc = match toolchain() {
        Ok(tc) => tc,
        Err(code) => return code,
    };
    let start = Instant::now();
    let (passed, failed) =
        suite::run_matrix(&tc, &entries, jobs, |e, verdict, secs| match verdict {
            Ok(()) => println!("ok   {} ({secs:.2}s)", e.name),
            Err(msg) => println!(
                "FAIL {}: {}",
                e.name,
                msg.to_string().replace('\n', "\n     ")
            ),
        });
    println!(
        "{passed} passed, {failed} failed ({which} matrix, {:.1}s)",
        start.elapsed().as_secs_f64()
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn bench_main(args: &[String]) -> ExitCode {
    if let Some(i) = args.iter().position(|a| a == "--family") {
        let mut rest = args.to_vec();
        rest.remove(i);
        return family_bench_main(&rest);
    }
    let mut ranks = vec![4usize, 8];
    let mut mib = 64i64;
    let mut core_num: Option<i64> = None;
    let mut warmup = 2u32;
    let mut iters = 5u32;
    let mut indexed = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--indexed" {
            indexed = true;
            continue;
        }
        let Some(v) = it.next() else {
            return usage_error(&format!("{a} needs a value"));
        };
        let bad = || usage_error(&format!("bad value {v} for {a}"));
        match a.as_str() {
            "--ranks" => match v
                .split(',')
                .map(str::parse::<usize>)
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(r) if r.iter().all(|p| (1..=16).contains(p)) => ranks = r,
                _ => return bad(),
            },
            "--mib" => match v.parse() {
                Ok(m) if m >= 1 => mib = m,
                _ => return bad(),
            },
            "--core-num" => match v.parse() {
                Ok(l) if l >= 1 => core_num = Some(l),
                _ => return bad(),
            },
            "--warmup" => match v.parse() {
                Ok(w) => warmup = w,
                _ => return bad(),
            },
            "--iters" => match v.parse() {
                Ok(n) if n >= 1 => iters = n,
                _ => return bad(),
            },
            s => return usage_error(&format!("unknown --bench argument {s}")),
        }
    }
    let tc = match toolchain() {
        Ok(tc) => tc,
        Err(code) => return code,
    };
    // f32 rows of 1024 elements (4 KiB); every count MAX_RECV, so each rank sends its whole
    // input: `mib` MiB per rank.
    const ROW_ELEMS: i64 = 1024;
    if indexed {
        return bench_indexed(&tc, &ranks, mib, core_num, warmup, iters, ROW_ELEMS);
    }
    println!(
        "| P | B | MiB per rank | single-thread memcpy GB/s | exchange GB/s (all ranks) | exchange / memcpy (median of {iters}) |"
    );
    println!("|---|---|---|---|---|---|");
    let mut ok = true;
    for p in ranks {
        let rows_per_peer = mib * (1 << 20) / (p as i64 * ROW_ELEMS * 4);
        if rows_per_peer < 1 {
            return usage_error("--mib too small for that many ranks");
        }
        let l = core_num.unwrap_or(p as i64);
        let case = matrix::case(
            p,
            l,
            Elem::F32,
            rows_per_peer,
            ROW_ELEMS,
            Pattern::Uniform,
            0,
        );
        match bench(&tc, &case, warmup, iters) {
            Ok(r) => {
                println!(
                    "| {} | {} | {:.0} | {:.2} | {:.2} | {:.2} |",
                    r.ranks,
                    r.blocks,
                    r.bytes_per_rank as f64 / (1 << 20) as f64,
                    r.memcpy_gbps(),
                    r.exchange_gbps(),
                    r.ratio()
                );
                let ms: Vec<String> = r
                    .timings
                    .iter()
                    .map(|(m, e)| format!("{:.2}/{:.2}", *m as f64 / 1e6, *e as f64 / 1e6))
                    .collect();
                eprintln!("P={p}: memcpy/exchange ms: {}", ms.join(" "));
            }
            Err(e) => {
                eprintln!("pld-sim: P={p}: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `--bench --family`: the collective family's table (pld_sim::family::bench).
fn family_bench_main(args: &[String]) -> ExitCode {
    let opts = match family_bench::Opts::parse(args) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    let tc = match toolchain() {
        Ok(tc) => tc,
        Err(code) => return code,
    };
    match family_bench::run(&tc, &opts, &mut std::io::stdout().lock()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("pld-sim: stdout: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--bench --indexed`: per P, the plain op and the indexed op with a random index over the same
/// P * MAX_RECV input rows, on the same counts (every one MAX_RECV), in the same run: three
/// alternating rounds of each (`iters` timed exchanges per round), so both see the same machine
/// load. The ratio is the median indexed exchange throughput over the median plain one.
fn bench_indexed(
    tc: &Toolchain,
    ranks: &[usize],
    mib: i64,
    core_num: Option<i64>,
    warmup: u32,
    iters: u32,
    row_elems: i64,
) -> ExitCode {
    use pld_sim::matrix::{IndexPattern, indexed_case};
    println!(
        "| P | L | MiB per rank | plain exchange GB/s | indexed exchange GB/s (random index) | indexed / plain | indexed / memcpy |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut ok = true;
    for &p in ranks {
        let mr = mib * (1 << 20) / (p as i64 * row_elems * 4);
        if mr < 1 {
            return usage_error("--mib too small for that many ranks");
        }
        let l = core_num.unwrap_or(p as i64);
        let plain = matrix::case(p, l, Elem::F32, mr, row_elems, Pattern::Uniform, 0);
        let indexed = indexed_case(
            p,
            l,
            Elem::F32,
            mr,
            row_elems,
            p as i64 * mr,
            IndexPattern::Random,
            Pattern::Uniform,
            7,
        );
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _round in 0..3 {
            for (case, into) in [(&plain, &mut a), (&indexed, &mut b)] {
                match bench(tc, case, warmup, iters) {
                    Ok(r) => into.push(r),
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
        let merge = |rs: &[pld_sim::run::BenchResult]| {
            let mut all = rs[0].clone();
            all.timings = rs.iter().flat_map(|r| r.timings.iter().copied()).collect();
            all
        };
        let (a, b) = (merge(&a), merge(&b));
        println!(
            "| {} | {} | {:.0} | {:.2} | {:.2} | **{:.2}** | {:.2} |",
            p,
            l,
            a.bytes_per_rank as f64 / (1 << 20) as f64,
            a.exchange_gbps(),
            b.exchange_gbps(),
            b.exchange_gbps() / a.exchange_gbps(),
            b.ratio()
        );
        let ms = |r: &pld_sim::run::BenchResult| -> String {
            r.timings
                .iter()
                .map(|(_, e)| format!("{:.1}", *e as f64 / 1e6))
                .collect::<Vec<_>>()
                .join(" ")
        };
        eprintln!(
            "P={p}: plain exchange ms: {}; indexed exchange ms: {}",
            ms(&a),
            ms(&b)
        );
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
