//! The names an entry of the build tree (a CHIP orchestration function, a HOST orchestrator)
//! becomes: a folder or file name and an `extern "C"` symbol, and the rules those must keep.
//! pld-translate renders them and `--legalize-spmd-launches` checks them, from this one place,
//! so the pipeline refuses every name pld-translate would.

use melior::ir::operation::OperationRef;
use std::collections::HashMap;

/// C++17 keywords and alternative tokens (none can be a variable or a function name).
pub const KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "constexpr",
    "continue",
    "default",
    "delete",
    "do",
    "double",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "nullptr",
    "operator",
    "or",
    "private",
    "protected",
    "public",
    "register",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "template",
    "this",
    "throw",
    "true",
    "try",
    "typedef",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
    "xor",
    "and_eq",
    "bitand",
    "bitor",
    "compl",
    "char16_t",
    "char32_t",
    "const_cast",
    "decltype",
    "dynamic_cast",
    "not_eq",
    "or_eq",
    "reinterpret_cast",
    "static_assert",
    "static_cast",
    "thread_local",
    "typeid",
    "wchar_t",
    "xor_eq",
];

/// `name` as a C identifier: every other character becomes `_`, a leading
/// digit gets a `_` prefix (`builtin.tensor.all_to_all_v__fp32` →
/// `builtin_tensor_all_to_all_v__fp32`).
pub fn c_identifier(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// Why `c_name` (a [`c_identifier`]) cannot be the `extern "C"` symbol of a
/// generated function, if it cannot: a C++ keyword, `main`, or a name reserved
/// for the implementation (`__x`, `_X`).
pub fn c_symbol_problem(c_name: &str) -> Option<&'static str> {
    if KEYWORDS.contains(&c_name) {
        Some("is a C++ keyword")
    } else if c_name == "main" {
        Some("is the program's entry point")
    } else if c_name.starts_with("__")
        || (c_name.starts_with('_') && c_name[1..].starts_with(|c: char| c.is_ascii_uppercase()))
    {
        Some("is reserved for the C++ implementation")
    } else {
        None
    }
}

/// A symbol usable as one path component (not empty, `.` or `..`, no `/` or `\\`). Control
/// characters are refused too: the name also lands in `//` and `#` comments of the generated
/// C++ and Python, where a newline would turn the rest of the name into code.
pub fn path_component_ok(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

/// The symbols `chip_entries.cpp` defines per CHIP sub-build: [`entry_symbol`] of the
/// function's C name plus each suffix (and what it is).
pub const ENTRY_SUFFIXES: [(&str, &str); 4] = [
    ("_entry", "entry point"),
    ("_config", "config entry point"),
    ("_kernels", "kernel names"),
    ("_collectives", "collectives table"),
];

/// The name of the ChipEntry of the orchestration whose C identifier is `c_name`.
pub fn entry_symbol(c_name: &str) -> String {
    format!("pld_chip_{c_name}")
}

/// A C++ (and Python) double-quoted string literal. Other control bytes are
/// three-digit octal escapes (`\001`): an octal escape ends after three
/// digits in both languages, while a C++ `\x` escape would swallow every hex
/// digit after it (`\x01abc` is one out-of-range escape).
pub fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Which rail an entry of the tree is on (its file and message words).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum EntryRail {
    /// A CHIP orchestration function: `next_levels/<name>/`, a ChipEntry.
    Chip,
    /// A HOST orchestrator: `host/<name>.cpp`.
    Host,
}

/// The entries of the build tree among `functions` (in their order): every CHIP orchestration
/// function with a body (a pld-named `builtin.*` callable only where `built` says the HOST rail
/// dispatched it) and every HOST orchestrator with a body, each with its symbol and rail. The one
/// list pld-translate builds and `--legalize-spmd-launches` checks the names of.
pub fn tree_entries<'c, 'a>(
    functions: &[OperationRef<'c, 'a>],
    built: impl Fn(&str) -> bool,
) -> Vec<(OperationRef<'c, 'a>, &'c str, EntryRail)> {
    use crate::ir::func_kind::{is_chip_orchestration, is_host_orchestrator, symbol_name};
    functions
        .iter()
        .filter(|f| crate::ir::signature::entry_block(f).is_some())
        .filter_map(|f| {
            let name = symbol_name(f)?;
            if is_chip_orchestration(f) {
                (!name.starts_with("builtin.") || built(name)).then_some((
                    *f,
                    name,
                    EntryRail::Chip,
                ))
            } else if is_host_orchestrator(f) {
                Some((*f, name, EntryRail::Host))
            } else {
                None
            }
        })
        .collect()
}

/// The located problems of the tree's entries' names (`entries`: each function, its symbol
/// name and rail, in module order): a name that cannot be its file or folder, a C symbol that is
/// a keyword, `main` or reserved, two entries with one C symbol, and a CHIP entry whose C symbol
/// is another's plus an [`ENTRY_SUFFIXES`] suffix (`chip_entries.cpp` would define a symbol
/// twice). A name that cannot be a path is [`quoted`] in the message.
pub fn entry_name_problems<'c, 'a>(
    entries: &[(OperationRef<'c, 'a>, &str, EntryRail)],
) -> Vec<(OperationRef<'c, 'a>, String)> {
    let mut problems = Vec::new();
    let mut c_names: HashMap<String, String> = HashMap::new();
    let mut chip: Vec<(OperationRef<'c, 'a>, &str, String)> = Vec::new();
    for &(func, name, rail) in entries {
        let (kind, path_use) = match rail {
            EntryRail::Chip => ("orchestration function", "a directory name"),
            EntryRail::Host => ("HOST orchestrator", "a file name"),
        };
        if !path_component_ok(name) {
            problems.push((
                func,
                format!("{kind} @{}: its name cannot be {path_use}", quoted(name)),
            ));
            continue;
        }
        let c_name = c_identifier(name);
        if let Some(why) = c_symbol_problem(&c_name) {
            problems.push((func, format!("@{name}: its C symbol '{c_name}' {why}")));
            continue;
        }
        if let Some(other) = c_names.insert(c_name.clone(), name.to_string()) {
            problems.push((
                func,
                format!("@{name} and @{other} have the same C symbol '{c_name}'"),
            ));
            continue;
        }
        if rail == EntryRail::Chip {
            chip.push((func, name, c_name));
        }
    }
    // C symbols are unique among them by now: one lookup per entry and suffix (a scan of every
    // entry per entry was quadratic: 15 s for 20000 functions).
    let by_c_name: HashMap<&str, &(OperationRef<'c, 'a>, &str, String)> =
        chip.iter().map(|e| (e.2.as_str(), e)).collect();
    for (_, name, c_name) in &chip {
        for (suffix, what) in ENTRY_SUFFIXES {
            let derived = format!("{c_name}{suffix}");
            if let Some((other_func, other, _)) = by_c_name.get(derived.as_str()) {
                problems.push((
                    *other_func,
                    format!(
                        "@{other} and @{name}: chip_entries.cpp would define '{}' twice (the ChipEntry of @{other}, and @{name}'s {what})",
                        entry_symbol(&derived)
                    ),
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_symbols() {
        assert_eq!(
            c_identifier("builtin.tensor.all_to_all_v__fp32"),
            "builtin_tensor_all_to_all_v__fp32"
        );
        assert_eq!(c_identifier("9lives"), "_9lives");
        assert_eq!(quoted("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        for bad in ["int", "delete", "xor_eq", "main", "__x", "_Foo"] {
            assert!(c_symbol_problem(bad).is_some(), "{bad}");
        }
        for good in [
            "chip_pipeline",
            "builtin_tensor_all_to_all_v__fp32",
            "_9lives",
            "_x",
        ] {
            assert_eq!(c_symbol_problem(good), None, "{good}");
        }
        for bad in ["", ".", "..", "a/b", "a\\b", "a\nb"] {
            assert!(!path_component_ok(bad), "{bad:?}");
        }
        assert!(path_component_ok("builtin.tensor.all_to_all_v__fp32"));
    }

    #[test]
    fn quoted_control_bytes_are_octal_and_end_where_they_should() {
        // The review's case: a hex escape would swallow `abc` / `def`.
        assert_eq!(quoted("\x01abc\x7fdef"), "\"\\001abc\\177def\"");
        // A digit after the escape stays its own character (an octal escape
        // takes at most three digits).
        assert_eq!(quoted("\x1f7"), "\"\\0377\"");
        assert_eq!(quoted("\r\t\0"), "\"\\015\\t\\000\"");
        // No `\x` escape is ever produced.
        let all: String = (0u8..0x80).map(char::from).collect();
        assert!(!quoted(&all).contains("\\x"));
    }
}
