//! Names in generated C++: symbols as C identifiers, local variables without
//! clashes, string literals.

use std::collections::{HashMap, HashSet};

pub use crate::ir::entry_names::{KEYWORDS, c_identifier, quoted};

const RESERVED: &[&str] = &[
    // Names the generated code itself uses (`block_num` is the HOST-dispatched width local).
    "orch",
    "args",
    "host",
    "task",
    "rc",
    "pld",
    "Dir",
    "Task",
    "std",
    "block_num",
    // simpler's orchestration API and what a rendered orchestration declares (its entry's
    // argument, the dispatch site, the prelude's namespace, the fixed names of a
    // descriptor op's arrays and of a create's locals).
    "orch_args",
    "dispatch_site",
    "rt_submit_aiv_task",
    "rt_report_fatal",
    "rt_is_fatal",
    "alloc_tensors",
    "get_tensor_data",
    "set_tensor_data",
    "make_tensor_external",
    "get_element_size",
    "pld_orch",
    "info",
    "made",
    "dims",
    "offsets",
    "sizes",
    "shape",
    "perm",
    "valid",
    "indices",
    // Types and object-like macros of <cstdint>/<cerrno> a local would collide with.
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "size_t",
    "intptr_t",
    "uintptr_t",
    "ptrdiff_t",
    "errno",
    "NULL",
];

/// Hands out distinct local variable names.
#[derive(Default)]
pub struct Locals {
    used: HashSet<String>,
    /// Names the generated body refers to besides its locals (e.g. the C symbols
    /// of the functions a HOST entry dispatches), which a local must not shadow.
    taken: HashSet<String>,
    /// The last suffix handed out per base name: the first free `base_<n>` is
    /// never below it (names are only ever added), so the search resumes there
    /// (10k locals named `i` cost linear time, not quadratic).
    suffixes: HashMap<String, usize>,
}

impl Locals {
    /// Locals that never shadow any of `names` (as C identifiers).
    pub fn avoiding<'n>(names: impl IntoIterator<Item = &'n str>) -> Self {
        Self {
            used: HashSet::new(),
            taken: names.into_iter().map(c_identifier).collect(),
            suffixes: HashMap::new(),
        }
    }

    /// `wanted` made a valid, unreserved, not yet used identifier. A name with an
    /// upper-case letter gets a `v_` prefix too: it could be one of the runtime's
    /// constants (`SIMPLER_ERROR_INVALID_ARGS`) or a macro (`INT64_MIN`, `_X`).
    pub fn fresh(&mut self, wanted: &str) -> String {
        let mut base = c_identifier(wanted);
        if KEYWORDS.contains(&base.as_str())
            || RESERVED.contains(&base.as_str())
            || base.starts_with("__")
            || base.starts_with("pld_")
            || base.chars().any(|c| c.is_ascii_uppercase())
            || self.taken.contains(&base)
        {
            base = format!("v_{base}");
        }
        // Candidates in order: base, base_1, base_2, ...
        let candidate = |n: usize| {
            if n == 0 {
                base.clone()
            } else {
                format!("{base}_{n}")
            }
        };
        let mut n = self.suffixes.get(&base).copied().unwrap_or(0);
        let mut name = candidate(n);
        while self.used.contains(&name) || self.taken.contains(&name) {
            n += 1;
            name = candidate(n);
        }
        self.suffixes.insert(base, n + 1);
        self.used.insert(name.clone());
        name
    }
}

/// The C++ `std::string` expression of a failed check's report:
/// `message`, then `(seen: <name>=<value>, ...)` for the run-time values the
/// check read (`pl.require` / `pld.host.require` `seen(...)`), so a refusal
/// names what it saw (`core_num L=0, B=0`). `None` without values: the plain
/// literal serves.
pub fn seen_report(message: &str, seen: &[(String, String)]) -> Option<String> {
    if seen.is_empty() {
        return None;
    }
    let mut expr = format!("std::string({})", quoted(&format!("{message} (seen: ")));
    for (k, (name, value)) in seen.iter().enumerate() {
        let sep = if k == 0 { "" } else { ", " };
        expr.push_str(&format!(
            " + {} + std::to_string(static_cast<long long>({value}))",
            quoted(&format!("{sep}{name}="))
        ));
    }
    expr.push_str(" + \")\"");
    Some(expr)
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_report_names_the_values_seen() {
        assert_eq!(super::seen_report("m", &[]), None);
        assert_eq!(
            super::seen_report(
                "bad \"L\"",
                &[
                    ("core_num L".into(), "v".into()),
                    ("B".into(), "b_1".into())
                ]
            )
            .unwrap(),
            "std::string(\"bad \\\"L\\\" (seen: \") + \"core_num L=\" + std::to_string(static_cast<long long>(v)) + \", B=\" + std::to_string(static_cast<long long>(b_1)) + \")\""
        );
    }

    use super::*;

    #[test]
    fn identifiers() {
        let mut l = Locals::default();
        assert_eq!(l.fresh("out"), "out");
        assert_eq!(l.fresh("out"), "out_1");
        assert_eq!(l.fresh("int"), "v_int");
        assert_eq!(l.fresh("task"), "v_task");
        assert_eq!(l.fresh("block_num"), "v_block_num");
        assert_eq!(
            l.fresh("SIMPLER_ERROR_INVALID_ARGS"),
            "v_SIMPLER_ERROR_INVALID_ARGS"
        );
        assert_eq!(l.fresh("INT64_MIN"), "v_INT64_MIN");
        assert_eq!(l.fresh("int64_t"), "v_int64_t");
        let mut l = Locals::avoiding(["chip", "builtin.x", "v_chip"]);
        assert_eq!(l.fresh("chip"), "v_chip_1");
        assert_eq!(l.fresh("builtin_x"), "v_builtin_x");
        assert_eq!(l.fresh("x"), "x");
        assert_eq!(l.fresh("static_cast"), "v_static_cast");
    }
}
