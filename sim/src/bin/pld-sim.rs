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
use pld_sim::bench as exchange_bench;
use pld_sim::case::Case;
use pld_sim::family::{bench as family_bench, case::FamilyCase, matrix as family_matrix};
use pld_sim::matrix;
use pld_sim::run::write_output;
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
            "full" | "ci" | "family" | "family-ci" => which = a,
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

/// A benchmark's options: `--bench` (pld_sim::bench), or with `--family` the collective family's
/// table (pld_sim::family::bench).
enum Bench {
    Exchange(exchange_bench::Opts),
    Family(family_bench::Opts),
}

fn bench_main(args: &[String]) -> ExitCode {
    let family = args.iter().any(|a| a == "--family");
    let rest: Vec<String> = args.iter().filter(|a| *a != "--family").cloned().collect();
    let bench = match family {
        true => family_bench::Opts::parse(&rest).map(Bench::Family),
        false => exchange_bench::Opts::parse(&rest).map(Bench::Exchange),
    };
    let bench = match bench {
        Ok(b) => b,
        Err(e) => return usage_error(&e),
    };
    let tc = match toolchain() {
        Ok(tc) => tc,
        Err(code) => return code,
    };
    let out = &mut std::io::stdout().lock();
    let ran = match &bench {
        Bench::Exchange(o) => exchange_bench::run(&tc, o, out),
        Bench::Family(o) => family_bench::run(&tc, o, out),
    };
    match ran {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("pld-sim: stdout: {e}");
            ExitCode::from(1)
        }
    }
}
