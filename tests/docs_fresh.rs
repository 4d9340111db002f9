//! Measured figures cannot go stale silently (issue #33, item 8).
//!
//! - README.md states no measured figure: no `## Measured` heading and no
//!   wall time written `<N> min <N> s`; figures live in docs/measured.md.
//! - Every line of docs/measured.md that states such a time sits in a
//!   section headed `## <YYYY-MM-DD> at <commit>` (a date and a commit hash
//!   of 7 to 40 hex digits), and git knows each of those commits
//!   (`git cat-file -e <hash>^{commit}` in the repository). Without git, or
//!   outside a full git checkout, that last part is skipped with a printed
//!   reason.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether `line` states a wall time `<N> min <N> s` (`13 min 58 s`,
/// `**1 min 9 s**`, `2 min 0 s,`): digits, ` min `, digits, ` s`, then the
/// end of the line or a character that is not a letter or digit.
fn has_time_figure(line: &str) -> bool {
    let bytes = line.as_bytes();
    let mut from = 0;
    while let Some(at) = line[from..].find(" min ") {
        let start = from + at;
        from = start + 1;
        if start == 0 || !bytes[start - 1].is_ascii_digit() {
            continue;
        }
        let after = start + " min ".len();
        let digits = bytes[after..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 {
            continue;
        }
        if let Some(tail) = line[after + digits..].strip_prefix(" s") {
            if tail.chars().next().is_none_or(|c| !c.is_alphanumeric()) {
                return true;
            }
        }
    }
    false
}

/// A `YYYY-MM-DD` date (month 01..12, day 01..31).
fn is_date(word: &str) -> bool {
    let b = word.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    if !b
        .iter()
        .enumerate()
        .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
    {
        return false;
    }
    let month: u32 = word[5..7].parse().unwrap();
    let day: u32 = word[8..10].parse().unwrap();
    (1..=12).contains(&month) && (1..=31).contains(&day)
}

/// An abbreviated or full commit hash: 7 to 40 hex digits.
fn is_commit(word: &str) -> bool {
    (7..=40).contains(&word.len()) && word.bytes().all(|c| c.is_ascii_hexdigit())
}

/// The date and the commit a heading names (`2026-12-01 at e07b12a`, the
/// hash possibly in backticks).
fn date_and_commit(heading: &str) -> (Option<String>, Option<String>) {
    let words: Vec<&str> = heading
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-'))
        .collect();
    let date = words.iter().find(|w| is_date(w)).map(|w| w.to_string());
    let commit = words
        .iter()
        .find(|w| !is_date(w) && is_commit(w))
        .map(|w| w.to_string());
    (date, commit)
}

/// The text of a Markdown heading line (any level), outside code fences.
fn heading_text(line: &str) -> Option<&str> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if hashes == 0 || hashes > 6 {
        return None;
    }
    let rest = &line[hashes..];
    rest.starts_with(' ').then(|| rest.trim())
}

/// One time figure of docs/measured.md: its line number and text, and the
/// `## ` heading above it (line number and text), if any.
struct Figure<'a> {
    line: usize,
    text: &'a str,
    section: Option<(usize, &'a str)>,
}

/// Every line that states a time figure, with its level-2 section; code
/// fences are skipped.
fn figures(doc: &str) -> Vec<Figure<'_>> {
    let mut section = None;
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in doc.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(text) = line.strip_prefix("## ") {
            section = Some((i + 1, text.trim()));
            continue;
        }
        if has_time_figure(line) {
            out.push(Figure {
                line: i + 1,
                text: line,
                section,
            });
        }
    }
    out
}

#[test]
fn the_readme_states_no_measured_figure() {
    let path = root().join("README.md");
    let readme = read(&path);
    let mut problems = Vec::new();
    let mut fenced = false;
    for (i, line) in readme.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced
            && heading_text(line).is_some_and(|t| t.to_ascii_lowercase().starts_with("measured"))
        {
            problems.push(format!("README.md:{}: a Measured section: {line}", i + 1));
        }
        if has_time_figure(line) {
            problems.push(format!("README.md:{}: a time figure: {line}", i + 1));
        }
    }
    assert!(
        problems.is_empty(),
        "measured figures belong in docs/measured.md, each under its `## <date> at <commit>` \
         heading:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_measured_figure_names_its_date_and_commit() {
    let path = root().join("docs/measured.md");
    let doc = read(&path);
    let found = figures(&doc);
    assert!(
        !found.is_empty(),
        "docs/measured.md states no `<N> min <N> s` figure: is the parser still right?"
    );
    let mut problems = Vec::new();
    let mut commits: Vec<(usize, String)> = Vec::new();
    for f in &found {
        let Some((heading_line, heading)) = f.section else {
            problems.push(format!(
                "docs/measured.md:{}: a figure before any `## <date> at <commit>` heading: {}",
                f.line, f.text
            ));
            continue;
        };
        match date_and_commit(heading) {
            (Some(_), Some(commit)) => {
                if !commits.iter().any(|(_, c)| *c == commit) {
                    commits.push((heading_line, commit));
                }
            }
            (date, commit) => problems.push(format!(
                "docs/measured.md:{}: the figure on line {} is under `## {heading}`, which names \
                 {} (write `## <YYYY-MM-DD> at <commit>`)",
                heading_line,
                f.line,
                match (date, commit) {
                    (None, None) => "neither a date nor a commit",
                    (None, Some(_)) => "no date",
                    _ => "no commit",
                }
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    match unknown_commits(&commits) {
        Ok(unknown) => assert!(
            unknown.is_empty(),
            "docs/measured.md names commits git does not know:\n{}",
            unknown.join("\n")
        ),
        Err(reason) => println!("docs_fresh: commits not checked: {reason}"),
    }
}

/// The commits of `commits` git does not know, or why git cannot tell.
fn unknown_commits(commits: &[(usize, String)]) -> Result<Vec<String>, String> {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root())
            .output()
            .map_err(|e| format!("git is not available ({e})"))
    };
    let inside = git(&["rev-parse", "--is-inside-work-tree"])?;
    if !inside.status.success() || String::from_utf8_lossy(&inside.stdout).trim() != "true" {
        return Err(format!(
            "{} is not a git checkout ({})",
            root().display(),
            String::from_utf8_lossy(&inside.stderr).trim()
        ));
    }
    let shallow = git(&["rev-parse", "--is-shallow-repository"])?;
    if String::from_utf8_lossy(&shallow.stdout).trim() == "true" {
        return Err("a shallow clone lacks older commits".into());
    }
    let mut unknown = Vec::new();
    for (line, commit) in commits {
        let object = format!("{commit}^{{commit}}");
        let known = git(&["cat-file", "-e", object.as_str()])?;
        if !known.status.success() {
            unknown.push(format!(
                "docs/measured.md:{line}: {commit} ({})",
                String::from_utf8_lossy(&known.stderr).trim()
            ));
        }
    }
    Ok(unknown)
}

#[test]
fn the_parsers() {
    assert!(has_time_figure(
        "exited 0 in **13 min 58 s** (23.1 min of CPU)"
    ));
    assert!(has_time_figure(
        "the fuzz slice 1 min 9 s, the sanitizer job"
    ));
    assert!(has_time_figure("took 2 min 0 s"));
    assert!(!has_time_figure("in under 10 min however the phases"));
    assert!(!has_time_figure("23.1 min of CPU, 52 s"));
    assert!(!has_time_figure("admin 5 s"));
    assert!(!has_time_figure("3 min 4 sec"));
    assert!(is_date("2026-12-01"));
    assert!(!is_date("2026-13-01"));
    assert!(!is_date("2026-1-01x"));
    assert!(is_commit("e07b12a"));
    assert!(!is_commit("e07b12"));
    assert!(!is_commit("e07b12g"));
    assert_eq!(
        date_and_commit("2026-12-01 at `364464d`"),
        (Some("2026-12-01".into()), Some("364464d".into()))
    );
    assert_eq!(date_and_commit("Older runs"), (None, None));
    assert_eq!(heading_text("## Measured"), Some("Measured"));
    assert_eq!(heading_text("#include <x>"), None);
    let doc =
        "intro 1 min 2 s\n## 2026-12-01 at e07b12a\nx 3 min 4 s\n```\n## not 5 min 6 s\n```\n";
    let found = figures(doc);
    assert_eq!(found.len(), 2);
    assert!(found[0].section.is_none());
    assert_eq!(found[1].section, Some((2, "2026-12-01 at e07b12a")));
}
