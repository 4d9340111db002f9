//! The simulator's independence from what it checks (issue #22 item 5): `pld-sim` and the
//! executor it runs through (`pld-run`, the `runner/` crate) are crates of their own, so they
//! reach pld only through pld-opt / pld-translate (subprocesses) and the `pld` library's public
//! API. This test keeps that API use to the items it needs (`ALLOWED`:
//! `pld::cal_all_to_all_v_blocks`, a case's launch width B; pld-run's collective sites and
//! source names; the template-override variable's name), keeps the goldens free of `pld`
//! altogether (outside their unit tests, which compare the golden's own fold with pld's) and of
//! the executor (but its element types, `pld_run::elem`), and keeps pld's sources out of both
//! crates (`#[path]`, `include!` and path dependencies other than `pld` and, for the simulator,
//! the executor).

use std::path::{Path, PathBuf};

/// The only `pld::` items the simulator and the executor may name: a case's launch width, and
/// (pld-run's `exec::world_ranks`, never a golden) the compiler's own account of a module's
/// collectives, so that nothing outside the compiler scans MLIR text for their rank counts, and
/// (pld-run's `manifest`) the names the user's text gives an entry's values, read by
/// MLIR's parser, and (the build caches) the name of the variable that points pld-translate at
/// another template tree, so a cached rendering keys on it, and (the builds) the `-D` flags a
/// CHIP orchestration is compiled with so its ChipEntry (the tree's chip_entries.cpp) finds it,
/// and the include block a rendered source opens with (what the build precompiles once).
const ALLOWED: &[&str] = &[
    "cal_all_to_all_v_blocks",
    "create_context",
    "parse_file",
    "collective_sites",
    "source_names",
    "TEMPLATE_DIR_ENV",
    "orchestration_rename_flags",
    "include_block",
];

/// The goldens: no `pld::` at all outside `#[cfg(test)]`.
/// (`family/ops/`: each family op's meaning, which the family golden evaluates.)
const GOLDENS: &[&str] = &["golden.rs", "family/golden.rs", "family/ops/"];

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The executor's crate (`runner/`, beside `sim/`).
fn runner_dir() -> PathBuf {
    crate_dir().parent().unwrap().join("runner")
}

/// The one executor item a golden may name: the element types.
const GOLDEN_RUNNER_ITEMS: &[&str] = &["elem"];

/// The first path segment after every `pld_run::` in `code` (`{` for a group).
fn runner_items(code: &str) -> Vec<String> {
    code.match_indices("pld_run::")
        .filter(|(at, _)| {
            *at == 0 || {
                let c = code.as_bytes()[at - 1];
                !(c.is_ascii_alphanumeric() || c == b'_')
            }
        })
        .map(|(at, m)| {
            let rest = code[at + m.len()..].trim_start();
            if rest.starts_with('{') {
                // A group hides its items from this scan: refused as the item `{`.
                return "{".to_string();
            }
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` with comments removed and every string, raw string and char literal replaced by
/// `""` (the C++ the simulator writes names `pld::rt::...` inside literals).
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(b[i - 1].is_alphanumeric() || b[i - 1] == '_'))
        {
            // r"..." or r#"..."#: find the closing quote followed by as many #.
            let mut j = i + 1;
            let mut hashes = 0;
            while j < b.len() && b[j] == '#' {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if c == '\'' && next == Some('\\') {
            // An escaped char literal: '\n', '\'', '\u{..}'.
            let mut j = i + 2;
            while j < b.len() && b[j] != '\'' {
                j += 1;
            }
            if j == i + 2 {
                j += 1; // '\''
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
            }
            out.push_str("' '");
            i = j + 1;
        } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The first path segment after every `pld::` in `code` (each item of a `pld::{...}` group).
fn pld_items(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(k) = code[from..].find("pld") {
        let at = from + k;
        from = at + 3;
        let before_ok =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let rest = code[at + 3..].trim_start();
        let Some(rest) = rest.strip_prefix("::") else {
            continue;
        };
        if !before_ok {
            continue;
        }
        let rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = true;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.push(std::mem::take(&mut item));
                        item_start = true;
                        continue;
                    }
                    _ => {}
                }
                if item_start && depth == 0 && (c.is_alphanumeric() || c == '_') {
                    item.push(c);
                } else if !item.is_empty() || !c.is_whitespace() {
                    item_start = false;
                }
            }
            if !item.is_empty() {
                found.push(item);
            }
        } else {
            found.push(
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
    }
    found.retain(|s| !s.is_empty());
    found
}

#[test]
fn the_simulator_uses_only_cal_all_to_all_v_blocks_of_pld() {
    let mut files = Vec::new();
    for (name, dir) in [("sim", crate_dir()), ("runner", runner_dir())] {
        let src = dir.join("src");
        let mut found = Vec::new();
        rust_files(&src, &mut found);
        assert!(found.len() > 5, "{}: {found:?}", src.display());
        files.extend(found.into_iter().map(|f| (name, src.clone(), f)));
    }
    files.sort();
    let mut violations = Vec::new();
    let mut used = 0;
    for (krate, src, file) in &files {
        let in_sim = *krate == "sim";
        let rel = file.strip_prefix(src).unwrap().display().to_string();
        let rel = rel.as_str();
        let text = std::fs::read_to_string(file).unwrap();
        let code = code_only(&text);
        for item in pld_items(&code) {
            if ALLOWED.contains(&item.as_str()) {
                used += 1;
            } else {
                violations.push(format!("{krate}/src/{rel}: pld::{item}"));
            }
        }
        for bad in [
            "extern crate",
            "#[path",
            "include!(",
            "include_str!(",
            "include_bytes!(",
        ] {
            if code.contains(bad) {
                violations.push(format!(
                    "{krate}/src/{rel}: {bad} (sources stay inside the crate)"
                ));
            }
        }
        // `use pld as x;` / `use pld::{self as x}` would hide paths from the scan above.
        if code.contains("pld as ") || code.contains("self as") {
            violations.push(format!("{krate}/src/{rel}: pld renamed"));
        }
        if in_sim
            && GOLDENS
                .iter()
                .any(|g| rel == *g || (g.ends_with('/') && rel.starts_with(g)))
        {
            let body = code.split("#[cfg(test)]").next().unwrap();
            if !pld_items(body).is_empty() {
                violations.push(format!(
                    "sim/src/{rel}: the golden names pld outside its unit tests"
                ));
            }
            for item in runner_items(body) {
                if !GOLDEN_RUNNER_ITEMS.contains(&item.as_str()) {
                    violations.push(format!(
                        "sim/src/{rel}: the golden names the executor (pld_run::{item})"
                    ));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "the simulator reaches into pld (only {ALLOWED:?} is allowed):\n{}",
        violations.join("\n")
    );
    assert!(
        used > 0,
        "the scan found no pld:: path at all: is it still scanning sim/src?"
    );
}

#[test]
fn pld_and_the_executor_are_the_only_path_dependencies() {
    assert_eq!(
        path_dependencies(&crate_dir()),
        [
            r#"pld = { path = ".." }"#,
            r#"pld-run = { path = "../runner" }"#
        ],
        "sim/Cargo.toml's non-source paths"
    );
    assert_eq!(
        path_dependencies(&runner_dir()),
        [r#"pld = { path = ".." }"#],
        "runner/Cargo.toml's non-source paths"
    );
}

/// The `path =` lines of `dir`'s Cargo.toml that point outside its `src/` and `tests/`.
fn path_dependencies(dir: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut deps = Vec::new();
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap().trim();
        if let Some(at) = line.find("path =") {
            let value = line[at + "path =".len()..].trim();
            let value = value.trim_start_matches('"');
            let value = &value[..value.find('"').unwrap()];
            if !value.starts_with("src/") && !value.starts_with("tests/") {
                deps.push(line.to_string());
            }
        }
    }
    deps
}

#[test]
fn the_scan_sees_what_it_must_refuse() {
    let code = code_only(
        r##"use pld::{cal_all_to_all_v_blocks, ir::walk};
let s = "pld::rt::Orchestration"; let r = r#"pld::x"#; let c = '"'; // pld::comment
fn f<'a>(x: &'a str) { pld::codegen::translate(); ::pld::passes::X; }"##,
    );
    assert_eq!(
        pld_items(&code),
        ["cal_all_to_all_v_blocks", "ir", "codegen", "passes"]
    );
    assert!(pld_items(&code_only("use pld_sim::case; my_pld::x;")).is_empty());
    assert_eq!(
        runner_items(&code_only(
            "use pld_run::{elem, engine}; my_pld_run::x; pld_run::elem::Elem"
        )),
        ["{", "elem"]
    );
}
