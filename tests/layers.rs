//! The crate's layers (docs/contributing.md): every top-level module of
//! `src/` imports only from the layers below it, and the modules of one layer
//! not from each other, so "what may this file use?" has one answer:
//!
//! | layer | modules |
//! |---|---|
//! | 0 ffi | `bridge`, `capi`, `error` |
//! | 1 | `diag` |
//! | 2 | `ir` |
//! | 3 | `collective` |
//! | 4 | `analysis` |
//! | 5 | `passes`, `codegen`, `embedding` (never each other) |
//! | 6 | the crate root (`lib.rs`: re-exports, the C exports) |
//!
//! The simulator and runner (`pld-sim`, `pld-run`) are not here: they are the workspace crate
//! `sim/`, above this one, which uses only its public API (sim/tests/independence.rs).
//!
//! Every `crate::<module>` path in `src/**/*.rs` (comments excluded) is an
//! edge; `crate::<item>` of an item defined or re-exported at the root is an
//! edge to the root, except the unit tests' shared `crate::test_context()`.

use std::path::{Path, PathBuf};

const LAYERS: &[&[&str]] = &[
    &["bridge", "capi", "error"],
    &["diag"],
    &["ir"],
    &["collective"],
    &["analysis"],
    &["passes", "codegen", "embedding"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
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

/// `text` without `//` and `/* */` comments (string literals are rare
/// enough in `use` positions not to matter here).
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('/') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("//") {
            rest = tail.find('\n').map_or("", |n| &tail[n..]);
        } else if tail.starts_with("/*") {
            rest = tail.find("*/").map_or("", |n| &tail[n + 2..]);
        } else {
            out.push('/');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The top-level modules (and root items) a file names through `crate::`,
/// including brace groups (`use crate::{a::x, b::y}`).
fn imports(text: &str) -> Vec<String> {
    let text = strip_comments(text);
    let mut found = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Each item at depth 0 of the group starts with its module.
            let mut depth = 0;
            let mut start = true;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        rest = &group[k..];
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        let name: String = group[k..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        found.push(name);
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push(name);
        }
    }
    found
}

#[test]
fn every_module_imports_only_from_the_layers_below() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut violations = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel.iter().next().unwrap().to_string_lossy().into_owned();
        if first == "bin" || first == "lib.rs" {
            continue; // above every layer
        }
        let module = first.trim_end_matches(".rs").to_string();
        let Some(layer) = layer_of(&module) else {
            violations.push(format!(
                "{}: top-level module '{module}' has no layer",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for dep in imports(&text) {
            if dep == module || dep == "test_context" {
                continue;
            }
            let ok = layer_of(&dep).is_some_and(|l| l < layer);
            if !ok {
                violations.push(format!(
                    "{}: '{module}' (layer {layer}) uses crate::{dep} ({})",
                    rel.display(),
                    layer_of(&dep).map_or("the crate root".to_string(), |l| format!("layer {l}"))
                ));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "imports against the layers:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_parser_sees_groups_and_paths() {
    let found = imports(
        "use crate::{ir::x, diag::{a, b}, collective};\nlet y = crate::analysis::f(); // crate::passes\n",
    );
    assert_eq!(found, ["ir", "diag", "collective", "analysis"]);
}

/// No pass imports another pass: what two passes share lives below them.
#[test]
fn no_pass_imports_another_pass() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/passes");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    // The pass modules (`src/passes/<module>.rs` or `<module>/mod.rs`).
    let passes: Vec<String> = pld::passes::PASSES
        .iter()
        .map(|p| p.module.to_string())
        .collect();
    let mut violations = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&dir).unwrap();
        let own = rel
            .iter()
            .next()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if own == "mod" {
            continue; // the registry names every pass
        }
        let text = strip_comments(&std::fs::read_to_string(file).unwrap());
        for other in passes.iter().filter(|p| **p != own) {
            if text.contains(&format!("super::{other}"))
                || text.contains(&format!("passes::{other}"))
            {
                violations.push(format!("src/passes/{}: uses pass '{other}'", rel.display()));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}
