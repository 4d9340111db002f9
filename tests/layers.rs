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
//! The simulator and the executor (`pld-sim`, `pld-run`) are not here: they are the workspace
//! crates `sim/` over `runner/`, above this one, which use only its public API
//! (sim/tests/independence.rs).
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

/// Module paths (`["codegen", "chip", "tasks"]`) that `text` (the file at module path `own`)
/// names through `crate::`, `super::` and `self::` paths, brace groups expanded; a `#[cfg(test)]`
/// module and everything after it is left out.
fn module_paths(text: &str, own: &[String]) -> Vec<Vec<String>> {
    let text = strip_comments(text);
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    fn ident(s: &str) -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    }
    // Expands `a::b::{c, d::{e}}` (after its root) into paths.
    fn expand(prefix: &[String], rest: &str, out: &mut Vec<Vec<String>>) -> usize {
        let mut path = prefix.to_vec();
        let mut i = 0;
        loop {
            if rest[i..].starts_with('{') {
                i += 1;
                loop {
                    let trimmed = rest[i..].trim_start();
                    i = rest.len() - trimmed.len();
                    if trimmed.starts_with('}') {
                        return i + 1;
                    }
                    i += expand(&path, &rest[i..], out);
                    let trimmed = rest[i..].trim_start();
                    i = rest.len() - trimmed.len();
                    if trimmed.starts_with(',') {
                        i += 1;
                    }
                    if i >= rest.len() {
                        return i;
                    }
                }
            }
            let name = ident(&rest[i..]);
            if name.is_empty() {
                out.push(path);
                return i;
            }
            i += name.len();
            if name == "super" {
                path.pop();
            } else if name != "self" {
                path.push(name);
            }
            if rest[i..].starts_with("::") {
                i += 2;
            } else {
                out.push(path);
                return i;
            }
        }
    }
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for (root, base) in [
        ("crate::", Vec::new()),
        ("super::", own[..own.len().saturating_sub(1)].to_vec()),
        ("self::", own.to_vec()),
    ] {
        let mut from = 0;
        while let Some(k) = text[from..].find(root) {
            let at = from + k;
            from = at + root.len();
            let boundary = at == 0
                || !(bytes[at - 1].is_ascii_alphanumeric()
                    || bytes[at - 1] == b'_'
                    || bytes[at - 1] == b':');
            if boundary {
                expand(&base, &text[from..], &mut out);
            }
        }
    }
    out
}

/// The cycles among the children of `folder` (module path) of the crate whose sources are
/// `src`: each a list of children, empty when the imports give the children an order.
fn folder_cycles(src: &Path, folder: &[&str]) -> Vec<Vec<String>> {
    let dir = folder.iter().fold(src.to_path_buf(), |d, f| d.join(f));
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let folder: Vec<String> = folder.iter().map(|s| s.to_string()).collect();
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for file in &files {
        let rel = file.strip_prefix(src).unwrap();
        let mut own: Vec<String> = rel
            .iter()
            .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if own
            .last()
            .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
        {
            own.pop();
        }
        if own.len() <= folder.len() {
            continue; // the folder's own mod.rs names its children
        }
        let child = own[folder.len()].clone();
        edges.entry(child.clone()).or_default();
        let text = std::fs::read_to_string(file).unwrap();
        for path in module_paths(&text, &own) {
            if path.len() > folder.len() && path[..folder.len()] == folder[..] {
                let other = &path[folder.len()];
                let sibling = dir.join(other).is_dir() || dir.join(format!("{other}.rs")).is_file();
                if *other != child && sibling {
                    edges.get_mut(&child).unwrap().insert(other.clone());
                }
            }
        }
    }
    // Peel off children with no edge left to the rest; what remains is on or reaches a cycle.
    let mut left = edges.clone();
    loop {
        let sinks: Vec<String> = left
            .iter()
            .filter(|(_, out)| out.iter().all(|o| !left.contains_key(o)))
            .map(|(c, _)| c.clone())
            .collect();
        if sinks.is_empty() {
            break;
        }
        for s in sinks {
            left.remove(&s);
        }
    }
    if left.is_empty() {
        Vec::new()
    } else {
        vec![
            left.iter()
                .map(|(c, out)| {
                    let inside: Vec<&String> =
                        out.iter().filter(|o| left.contains_key(*o)).collect();
                    format!("{c} -> {inside:?}")
                })
                .collect(),
        ]
    }
}

/// Inside the folders that hold several concepts, the files have an order too (issue #34 item 4):
/// the codegen's emitters over their service (`planner`) under the walk (`tree_plan`), the
/// simulator's modules and its family / matrix folders, and the executor's modules.
#[test]
fn folders_have_an_order() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut violations = Vec::new();
    for (src, folder) in [
        ("src", &["codegen"][..]),
        ("src", &["codegen", "chip"][..]),
        ("src", &["analysis"][..]),
        ("src", &["ir"][..]),
        ("src", &["passes"][..]),
        ("sim/src", &[][..]),
        ("sim/src", &["family"][..]),
        ("runner/src", &[][..]),
        ("sim/src", &["matrix"][..]),
    ] {
        for cycle in folder_cycles(&root.join(src), folder) {
            violations.push(format!("{src}/{}: {}", folder.join("/"), cycle.join("; ")));
        }
    }
    assert!(
        violations.is_empty(),
        "import cycles inside folders:\n{}",
        violations.join("\n")
    );
}

#[test]
fn a_folder_cycle_is_found() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("layers-cycle");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("f")).unwrap();
    std::fs::write(dir.join("f/a.rs"), "use super::b::X;\n").unwrap();
    std::fs::write(dir.join("f/b.rs"), "use crate::f::{a::Y, c};\n").unwrap();
    std::fs::write(dir.join("f/c.rs"), "// super::a\n").unwrap();
    let cycles = folder_cycles(&dir, &["f"]);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(
        cycles[0].iter().any(|c| c.starts_with("a ->")),
        "{cycles:?}"
    );
    assert!(
        !cycles[0].iter().any(|c| c.starts_with("c ->")),
        "{cycles:?}"
    );
    std::fs::write(dir.join("f/b.rs"), "use crate::f::c;\n").unwrap();
    assert!(folder_cycles(&dir, &["f"]).is_empty());
}
