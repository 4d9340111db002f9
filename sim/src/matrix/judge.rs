//! The all_to_all_v case as a [`SimCase`]: its run, and how its result is judged (the golden, the
//! blocks each kernel started, refusals).

use super::*;
use crate::result::SimResult;
use crate::run::{case_kernel, run_case};
use crate::suite::SimCase;
use pld_run::toolchain::Toolchain;

impl SimCase for Case {
    fn to_json(&self) -> serde_json::Value {
        Case::to_json(self)
    }

    fn dtype(&self) -> Elem {
        self.dtype
    }

    fn run(&self, tc: &Toolchain) -> Result<SimResult, SimError> {
        run_case(tc, self)
    }

    fn check(&self, expect: &Expect, result: &SimResult) -> Result<(), String> {
        check(self, expect, result)
    }
}

fn check(c: &Case, expect: &Expect, result: &SimResult) -> Result<(), String> {
    let builtin = case_kernel(c);
    match expect {
        Expect::Golden | Expect::Domains => {
            if c.domains.is_empty() {
                golden::check(c, result)?;
            } else {
                golden::check_domains(c, result)?;
            }
            // Blocks started: each domain (a plain case is one) runs N x B collective blocks and
            // N of each step per exchange.
            let started = &result.kernels;
            let per_call = c.repeat as i64 * c.exchanges_per_call();
            let cases: Vec<Case> = if c.domains.is_empty() {
                vec![c.clone()]
            } else {
                (0..c.domains.len()).map(|d| c.domain_case(d)).collect()
            };
            let want_builtin: i64 = cases
                .iter()
                .map(|d| d.ranks as i64 * golden::expected_blocks(d) * per_call)
                .sum();
            // A raw launch runs the collective alone.
            let want_steps: i64 = if c.launch.is_some() {
                0
            } else {
                cases.iter().map(|d| d.ranks as i64 * per_call).sum()
            };
            let got = started.get(&builtin).copied().unwrap_or(-1);
            if got != want_builtin {
                return Err(format!(
                    "{builtin} ran {got} blocks, expected (sum over domains of) N x B x repeat x layers = {want_builtin}"
                ));
            }
            for k in ["stage_step", "consume_step"] {
                let got = started.get(k).copied().unwrap_or(-1);
                if got != want_steps {
                    return Err(format!(
                        "{k} ran {got} blocks, expected (sum over domains of) N x repeat x layers = {want_steps}"
                    ));
                }
            }
            Ok(())
        }
        Expect::CompileError(_) => Err("a compile_error entry is judged by suite::judge".into()),
        Expect::Untouched => {
            golden::check_untouched(c, result)?;
            let want = c.ranks as i64 * golden::expected_blocks(c) * c.repeat as i64;
            let got = result.kernels.get(&builtin).copied();
            if got != Some(want) {
                return Err(format!(
                    "{builtin} started {got:?} blocks, expected P x B x repeat = {want} (an early return still runs every block)"
                ));
            }
            Ok(())
        }
        Expect::Refused { status, code } => {
            golden::check_refused(c, result, status, *code)?;
            let started = &result.kernels;
            for k in [builtin.as_str(), "consume_step"] {
                if started.get(k) != Some(&0) {
                    return Err(format!(
                        "{k} started {:?} blocks, expected 0: {}",
                        started.get(k),
                        result.message
                    ));
                }
            }
            // A raw launch has no stage task; its refusal is the runtime's capacity check.
            if c.launch.is_some() && !result.message.contains("exceeds") {
                return Err(format!(
                    "the refusal does not name the capacity it exceeds: {}",
                    result.message
                ));
            }
            let stage = if c.launch.is_some() {
                0
            } else {
                c.ranks as i64
            };
            if started.get("stage_step") != Some(&stage) {
                return Err(format!(
                    "stage_step should have run once per rank: {}",
                    result.message
                ));
            }
            Ok(())
        }
    }
}
