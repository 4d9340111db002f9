//! The diagnostics style test (docs/diagnostics.md, issue #13 item 4).
//!
//! (a) Every diagnostic text the lit suite expects (`expected-error/-note/
//!     -remark {{…}}` in test/**/*.mlir and `error:`/`note:`/`remark:` CHECK
//!     lines in test/**/*.test) is checked against the style: the op prefix,
//!     `@name` never quoted, IR names instead of PyPTO ones, spec shorthand
//!     with its meaning.
//! (b) Every emission site in src/**/*.rs and dialect/lib/**/*.cpp (plus the
//!     C++ in src/bridge) is found and its message template must be part of
//!     an entry of the inventory in docs/diagnostics.md: a new diagnostic
//!     without an inventory entry fails.
//! (c) Every inventory entry names a test file that exists and contains the
//!     entry's text (its longest literal piece), or says why it is untested.
//!
//! `PLD_DIAG_DUMP=1 cargo test --test integration diagnostics_style:: -- --nocapture`
//! prints every extracted template.

use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// Each pattern is compiled once: the checks run them over every text and template.
macro_rules! regex {
    ($pattern:expr) => {{
        static RE: LazyLock<Regex> = LazyLock::new(|| Regex::new($pattern).unwrap());
        &*RE
    }};
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, exts, out);
        } else if let Some(name) = path.file_name().and_then(|n| n.to_str())
            && exts.iter().any(|e| name.ends_with(e))
        {
            out.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned()
}

/// Frozen phrases (docs/spec tables): the style does not apply inside
/// them. Placeholders are regex `.*?`.
const FROZEN: &[&str] = &[
    "symbol '@<name>' already exists",
    "send_counts must be a DistributedTensor",
    "<a> and <b> must be different window allocations",
    "signal has NR=<P> rows but communication domain has <N> ranks",
    // docs/spec/family.md's Checks table.
    "ring mode needs the element count divisible by NR=<NR>",
    "root must be in [0, NR=<NR>), got <R>",
    "pairs entry <k> names rank <x> outside [0, NR=<NR>)",
];

fn template_regex(template: &str) -> Regex {
    let mut pattern = String::new();
    for (i, piece) in regex!(r"<[A-Za-z_#0-9 .-]+>").split(template).enumerate() {
        if i > 0 {
            pattern.push_str(".*?");
        }
        pattern.push_str(&regex::escape(piece));
    }
    Regex::new(&pattern).unwrap()
}

/// The style violations of one diagnostic text (empty: conforms).
fn violations(text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut rest = text.to_string();
    static FROZEN_RE: LazyLock<Vec<Regex>> =
        LazyLock::new(|| FROZEN.iter().map(|f| template_regex(f)).collect());
    for frozen in FROZEN_RE.iter() {
        rest = frozen.replace_all(&rest, "<frozen>").into_owned();
    }
    // The prefix: a message that starts with a quoted op name continues with ` op `.
    let op_start = regex!(r"^'([a-z_][a-z0-9_]*\.[a-z0-9_.]+)'");
    if let Some(m) = op_start.captures(text)
        && !text[m.get(0).unwrap().end()..].starts_with(" op ")
    {
        problems.push(format!(
            "starts with '{}' but not with the prefix '{}' op",
            &m[1], &m[1]
        ));
    }
    if rest.contains("'@") {
        problems.push("quotes a symbol ('@name'): write @name".into());
    }
    if rest.contains("DistributedTensor") {
        problems.push("says DistributedTensor outside a frozen phrase: write !pld.dtensor".into());
    }
    for bad in [
        "kind is '",
        "kind '",
        "without pl.func_kind",
        "is 'without",
        "InCore-level",
    ] {
        if rest.contains(bad) {
            problems.push(format!(
                "uses the wording {bad:?}: name pl.func_kind \"<kind>\" or `no pl.func_kind`"
            ));
        }
    }
    // Spec shorthand with its meaning: the words around `X=<n>` say what X is.
    let shorthand = regex!(r"\b(NR|S|B|L|P) ?= ?-?\d+");
    for m in shorthand.find_iter(&rest) {
        let name = m
            .as_str()
            .split(|c: char| c == '=' || c == ' ')
            .next()
            .unwrap();
        let meaning: &[&str] = match name {
            "S" => &["stride"],
            "B" => &["block count", "launch width", "blocks"],
            "L" => &["core_num", "launch width"],
            "P" => &["ranks"],
            // NR: the signal's rows (one per rank), or the family's rank count.
            _ => &["row", "ranks"],
        };
        let lo = rest[..m.start()]
            .char_indices()
            .rev()
            .nth(23)
            .map_or(0, |(i, _)| i);
        let hi = rest[m.end()..]
            .char_indices()
            .nth(12)
            .map_or(rest.len(), |(i, _)| m.end() + i);
        if !meaning.iter().any(|w| rest[lo..hi].contains(w)) {
            problems.push(format!(
                "spec shorthand {} without its meaning ({})",
                m.as_str(),
                meaning.join(" / ")
            ));
        }
    }
    problems
}

/// (a) The texts the lit suite expects, with where they are.
fn expected_texts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut paths = Vec::new();
    files(&root().join("test"), &[".mlir", ".test"], &mut paths);
    let expected = Regex::new(r"expected-(?:error|note|remark|warning)[^{]*\{\{(.*?)\}\}").unwrap();
    let check = Regex::new(
        r"^\W*[A-Z][A-Z0-9_-]*(?:-NEXT|-SAME|-DAG)?:.*?\b(?:error|note|remark|warning): (.*)$",
    )
    .unwrap();
    for path in paths {
        let text = read(&path);
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        for (i, line) in text.lines().enumerate() {
            for c in expected.captures_iter(line) {
                out.push((format!("{name}:{}", i + 1), c[1].to_string()));
            }
            if !line.contains("expected-")
                && let Some(c) = check.captures(line)
            {
                out.push((format!("{name}:{}", i + 1), c[1].trim().to_string()));
            }
        }
    }
    out
}

#[test]
fn expected_diagnostics_follow_the_style() {
    let texts = expected_texts();
    assert!(
        texts.len() > 200,
        "found only {} expected diagnostics",
        texts.len()
    );
    let bad: Vec<String> = texts
        .iter()
        .flat_map(|(at, text)| {
            violations(text)
                .into_iter()
                .map(move |v| format!("{at}: {v}\n    {text}"))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} diagnostics break the style (docs/diagnostics.md):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_style_check_can_fail() {
    for text in [
        "'pld.tensor.all_to_all_v': core_num must be in [1, 2147483647], got 0",
        "'func.call' op launch of '@k' must be an AIV function",
        "'pld.tensor.all_to_all_v' op input must be a window-bound DistributedTensor",
        "function '@f' is HOST-level but its kind is 'none'",
        "'pld.tensor.all_to_all_v' op B=4 exceeds the target's 2 AIV cores",
    ] {
        assert!(!violations(text).is_empty(), "accepted: {text}");
    }
    for text in [
        "'pld.tensor.all_to_all_v' op symbol '@__builtin_all_to_all_v__fp32' already exists",
        "'pld.tensor.all_to_all_v' op send_counts must be a DistributedTensor (a !pld.dtensor window), got '!pl.tensor<2xi32>'",
        "'pld.tensor.all_to_all_v' op signal stride S=2 is smaller than the admitted block count B=4 (core_num L=4 folded for P=2 ranks)",
        "'!pl.tensor' parameter 'valid' has 1 entries but the shape has rank 2",
    ] {
        assert!(
            violations(text).is_empty(),
            "refused: {text}: {:?}",
            violations(text)
        );
    }
}

/// A template with every placeholder as `<>`.
fn canonical(template: &str) -> String {
    regex!(r"<[A-Za-z_#0-9 .-]+>")
        .replace_all(template, "<>")
        .into_owned()
}

/// The string literals of a Rust argument list, each as a template
/// (`{name}` placeholders as `<name>`, `{}` as `<value>`, `{{`/`}}` as braces).
fn rust_literals(args: &str) -> Vec<String> {
    let literal = regex!(r#"(?s)"((?:[^"\\]|\\.)*)""#);
    let placeholder = regex!(r"\{[A-Za-z_0-9.:?#]*\}");
    let continuation = regex!(r"\\\n\s*");
    literal
        .captures_iter(args)
        .map(|c| {
            let s = continuation
                .replace_all(&c[1], "")
                .replace("\\\"", "\"")
                .replace("\\n", "\n");
            let s = s.replace("{{", "\u{1}").replace("}}", "\u{2}");
            placeholder
                .replace_all(&s, |c: &regex::Captures| {
                    let name = c[0]
                        .trim_matches(['{', '}'])
                        .split(':')
                        .next()
                        .unwrap_or("");
                    if name.is_empty() || name.chars().all(|ch| ch.is_ascii_digit()) {
                        "<value>".to_string()
                    } else {
                        format!("<{name}>")
                    }
                })
                .replace('\u{1}', "{")
                .replace('\u{2}', "}")
        })
        .collect()
}

/// The text of a balanced `(…)` starting at `open` (the index of `(`).
fn balanced(text: &str, open: usize) -> &str {
    let mut depth = 0;
    let mut in_string = false;
    let bytes = text.as_bytes();
    let mut i = open;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            if b == b'\\' {
                i += 1;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'(' {
            depth += 1;
        } else if b == b')' {
            depth -= 1;
            if depth == 0 {
                return &text[open + 1..i];
            }
        }
        i += 1;
    }
    &text[open + 1..]
}

/// The index of the `;` that ends the C++ statement at `start` (one outside
/// string and character literals).
fn statement_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut quote = None;
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b';' => return i,
            None => {}
        }
        i += 1;
    }
    text.len()
}

/// The C++ stream chain of one statement as a template: literals joined,
/// each non-literal operand `<its last identifier>`.
fn cpp_template(statement: &str) -> String {
    let literal = regex!(r#"(?s)"((?:[^"\\]|\\.)*)""#);
    let ident = regex!(r"[A-Za-z_][A-Za-z_0-9]*");
    let placeholder = |between: &str| -> Option<String> {
        let operand = between
            .split("<<")
            .skip(1)
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .last()?;
        let name = ident
            .find_iter(operand)
            .map(|m| m.as_str())
            .filter(|n| {
                ![
                    "get",
                    "getValue",
                    "size",
                    "getType",
                    "getTypes",
                    "drop_front",
                ]
                .contains(n)
            })
            .last()
            .unwrap_or("value");
        let name = name
            .strip_prefix("get")
            .filter(|n| !n.is_empty())
            .unwrap_or(name);
        Some(format!("<{}>", name.trim_start_matches('*')))
    };
    let mut out = String::new();
    let mut last = 0;
    for m in literal.find_iter(statement) {
        let between = &statement[last..m.start()];
        if (last > 0 || between.contains("<<"))
            && let Some(p) = placeholder(between)
        {
            out.push_str(&p);
        }
        out.push_str(
            &m.as_str()[1..m.as_str().len() - 1]
                .replace("\\\"", "\"")
                .replace("\\'", "'"),
        );
        last = m.end();
    }
    if last > 0
        && let Some(p) = placeholder(&statement[last..])
    {
        out.push_str(&p);
    }
    out
}

/// (b) Every emission site's message templates: (file:line, template), the
/// template prefixed with `'<op>' op ` where the site adds that prefix.
fn emitted_templates() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rust = Vec::new();
    files(&root().join("src"), &[".rs"], &mut rust);
    // Calls whose arguments are diagnostic text: the diag helpers, `msg!`, and
    // the local reporters that forward to them.
    let call = Regex::new(
        r"\b(?:diag::[a-z_]+!?|crate::diag::[a-z_]+!?|(?:self\.|e\.)?p\.error(?:_with_note)?|self\.error(?:_with_note)?|fail(?:_with_note)?|report|Fail::(?:Op|Text|Value))\s*\(",
    )
    .unwrap();
    for path in rust {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        if name == "src/diag.rs" {
            continue;
        }
        let text = read(&path);
        // Unit tests are not emission sites.
        let text = text.split("#[cfg(test)]").next().unwrap();
        for m in call.find_iter(text) {
            let line = text[..m.start()].lines().count();
            let args = balanced(text, m.end() - 1);
            let callee = m.as_str();
            let prefixed = callee.contains("op_")
                || callee.contains("error")
                || callee.starts_with("fail")
                || callee.starts_with("report");
            let prefixed = prefixed
                && !callee.ends_with("diag::error(")
                && !callee.ends_with("diag::error_with_note(");
            // The prefix goes before the message, the first literal (a note
            // or a format argument comes later).
            for (k, t) in rust_literals(args).into_iter().enumerate() {
                if !has_text(&t) {
                    continue;
                }
                let t = if prefixed && k == 0 {
                    format!("'<op>' op {t}")
                } else {
                    t
                };
                out.push((format!("{name}:{line}"), t));
            }
        }
    }
    let mut cpp = Vec::new();
    files(&root().join("dialect/lib"), &[".cpp"], &mut cpp);
    files(&root().join("src/bridge"), &[".cc"], &mut cpp);
    let emit = Regex::new(r"\b(?:emitOpError|emitError|emitRemark|emitWarning|emit)\s*\(").unwrap();
    for path in cpp {
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        let text = read(&path);
        for m in emit.find_iter(&text) {
            let line = text[..m.start()].lines().count();
            let end = statement_end(&text, m.start());
            let mut statement = text[m.end() - 1..end].to_string();
            // `diag << …` continuations of a named diagnostic (verifyEnumString).
            if text[..m.start()].ends_with("diag = op->")
                || text[..m.start()].trim_end().ends_with("diag =")
            {
                let more = &text[end..];
                for cont in more.split(';').take(3) {
                    if cont.trim_start().starts_with("llvm::interleave") {
                        statement.push_str("<< \"<list>\"");
                    } else if cont.trim_start().starts_with("diag <<") {
                        statement.push_str(&cont.trim_start()["diag".len()..]);
                    }
                }
            }
            let t = cpp_template(&statement);
            if !has_text(&t) {
                continue;
            }
            let t = if m.as_str().starts_with("emitOpError") {
                format!("'<op>' op {t}")
            } else {
                t
            };
            out.push((format!("{name}:{line}"), t));
        }
    }
    out
}

/// Whether a template carries text: pure placeholders (a forwarded message),
/// `"?"` and other short literals do not.
fn has_text(template: &str) -> bool {
    regex!(r"<[A-Za-z_#0-9 .-]+>")
        .replace_all(template, "")
        .chars()
        .filter(|c| c.is_alphabetic())
        .count()
        >= 6
}

struct Entry {
    template: String,
    test: String,
    line: usize,
}

/// The inventory table of docs/diagnostics.md: rows `| ``message`` | file | test |`.
fn inventory() -> Vec<Entry> {
    let doc = read(&root().join("docs/diagnostics.md"));
    let section = doc
        .split("## Inventory")
        .nth(1)
        .expect("docs/diagnostics.md has an ## Inventory section");
    let mut out = Vec::new();
    for (i, line) in doc.lines().enumerate() {
        if !line.starts_with("| ``") || !section.contains(line) {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert!(
            cells.len() >= 3,
            "docs/diagnostics.md:{}: a row needs message | file | test",
            i + 1
        );
        let message = cells[0].trim_start_matches("`` ").trim_end_matches(" ``");
        out.push(Entry {
            template: message.to_string(),
            test: cells[2].trim_matches('`').to_string(),
            line: i + 1,
        });
    }
    out
}

#[test]
fn every_emission_site_is_in_the_inventory() {
    let sites = emitted_templates();
    assert!(
        sites.len() > 150,
        "found only {} emission templates",
        sites.len()
    );
    if std::env::var_os("PLD_DIAG_DUMP").is_some() {
        for (at, t) in &sites {
            println!("{at}\t{t}");
        }
    }
    let inventory: Vec<String> = inventory().iter().map(|e| canonical(&e.template)).collect();
    let missing: Vec<String> = sites
        .iter()
        .filter(|(_, t)| !inventory.iter().any(|e| e.contains(canonical(t).as_str())))
        .map(|(at, t)| format!("{at}: {t}"))
        .collect();
    assert!(
        missing.is_empty(),
        "{} message templates have no entry in the inventory of docs/diagnostics.md:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_inventory_entry_is_tested() {
    let entries = inventory();
    assert!(
        entries.len() > 100,
        "the inventory has only {} entries",
        entries.len()
    );
    let piece = Regex::new(r"<[A-Za-z_#0-9 .-]+>").unwrap();
    let mut bad = Vec::new();
    for e in &entries {
        if e.test.starts_with("untested") {
            continue;
        }
        let path = root().join(&e.test);
        if !path.is_file() {
            bad.push(format!(
                "docs/diagnostics.md:{}: no test file {}",
                e.line, e.test
            ));
            continue;
        }
        let longest = piece
            .split(&e.template)
            .max_by_key(|p| p.len())
            .unwrap_or("")
            .trim();
        if !read(&path).contains(longest) {
            bad.push(format!(
                "docs/diagnostics.md:{}: {} does not contain {longest:?}",
                e.line, e.test
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
