//! Builtin kernel templates: the package `pl.builtin_template_dir` names
//! (each row of [`crate::collective`]'s table carries its own, embedded in
//! the binary), and `${var}` rendering from `pl.builtin_template_vars`.

use std::collections::BTreeMap;
use thiserror::Error;

/// Why `pl.builtin_template_vars` or a template did not render.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TemplateError {
    /// An item of the vars list is not `name=value`.
    #[error("template variable '{0}' has no value (expected name=value)")]
    NoValue(String),
    /// A name that is not an identifier.
    #[error("'{0}' is not a template variable name")]
    BadName(String),
    /// `name=` with nothing after it.
    #[error("template variable '{0}' has an empty value")]
    EmptyValue(String),
    /// A name given twice.
    #[error("template variable '{0}' is given twice")]
    Twice(String),
    /// A `${` without its `}` (at this byte of the template).
    #[error("unterminated '${{' at byte {0}")]
    Unterminated(usize),
    /// `${...}` around something that is not a name.
    #[error("'${{{0}}}' is not a template variable")]
    NotAVariable(String),
    /// The template uses a name the vars do not give.
    #[error("the template uses '${{{0}}}', which has no value")]
    Missing(String),
    /// The vars give a name the template never uses.
    #[error("template variable '{0}' is not used by the template")]
    Unused(String),
    /// `$PLD_DEV_TEMPLATE_DIR` names a template tree without this file.
    #[error("cannot read {0} (PLD_DEV_TEMPLATE_DIR): {1}")]
    Unreadable(String, String),
}

/// The environment variable that points the renderer at a template tree (a copy of
/// `templates/pypto/runtime/builtins/collectives`) instead of the templates embedded in the
/// binary: for developing or mutating a kernel template without rebuilding pld
/// (docs/codegen.md, "Builtin kernel templates"). Unset, the embedded ones render.
pub const TEMPLATE_DIR_ENV: &str = "PLD_DEV_TEMPLATE_DIR";

/// The text of `file` (a package's `<dir>/kernel.cpp.in`, or the prelude) under
/// `$PLD_DEV_TEMPLATE_DIR`, or `embedded` when the variable is unset or empty.
fn template_file(
    file: &str,
    embedded: &'static str,
) -> Result<std::borrow::Cow<'static, str>, TemplateError> {
    match std::env::var_os(TEMPLATE_DIR_ENV).filter(|d| !d.is_empty()) {
        None => Ok(std::borrow::Cow::Borrowed(embedded)),
        Some(dir) => {
            let path = std::path::Path::new(&dir).join(file);
            std::fs::read_to_string(&path)
                .map(std::borrow::Cow::Owned)
                .map_err(|e| TemplateError::Unreadable(path.display().to_string(), e.to_string()))
        }
    }
}

/// Renders `package` with `vars` as pld-translate does: its template (and the device prelude) as
/// embedded, or from `$PLD_DEV_TEMPLATE_DIR` when that is set.
pub fn render_package(
    package: &Package,
    vars: &BTreeMap<String, String>,
) -> Result<String, TemplateError> {
    let folder = &package.name[package.name.rfind('.').map_or(0, |i| i + 1)..];
    let template = template_file(&format!("{folder}/kernel.cpp.in"), package.text)?;
    let prelude = template_file("device_prelude.inc", DEVICE_PRELUDE)?;
    match (&template, &prelude) {
        (std::borrow::Cow::Borrowed(t), std::borrow::Cow::Borrowed(_)) => render(t, vars),
        _ => substitute(&with_prelude_text(&template, &prelude), vars),
    }
}

pub use crate::collective::Package;

/// The package named `name` (`:a.b.c`, the form `pl.builtin_template_dir` uses).
pub fn package(name: &str) -> Option<&'static Package> {
    crate::collective::Spec::packages().find(|p| p.name == name)
}

/// Parses `pl.builtin_template_vars` (`name=value`, several separated by `;`
/// as the collective family spells them, or by `,` in a list without `;`).
/// A name without `=`, with an empty value, an empty or non-identifier name
/// or a name given twice is an error.
pub fn parse_vars(text: &str) -> Result<BTreeMap<String, String>, TemplateError> {
    let mut vars = BTreeMap::new();
    if text.trim().is_empty() {
        return Ok(vars);
    }
    // `;` separates the family's variables (a value may then hold commas:
    // `pairs=0:1,1:2`); a list without `;` may use `,`.
    let separator: &[char] = if text.contains(';') { &[';'] } else { &[','] };
    for item in text.split(separator) {
        let item = item.trim();
        let Some((name, value)) = item.split_once('=') else {
            return Err(TemplateError::NoValue(item.to_string()));
        };
        let (name, value) = (name.trim(), value.trim());
        if !is_identifier(name) {
            return Err(TemplateError::BadName(name.to_string()));
        }
        if value.is_empty() {
            return Err(TemplateError::EmptyValue(name.to_string()));
        }
        if vars.insert(name.to_string(), value.to_string()).is_some() {
            return Err(TemplateError::Twice(name.to_string()));
        }
    }
    Ok(vars)
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The line a template writes where the device prelude goes (the helpers every builtin kernel
/// shares, so each rendered kernel stays one self-contained file).
pub const DEVICE_PRELUDE_MARKER: &str = "// @pld-device-prelude";
const DEVICE_PRELUDE: &str =
    include_str!("../../templates/pypto/runtime/builtins/collectives/device_prelude.inc");

/// `template` with its device-prelude line (if any) replaced by the prelude.
fn with_prelude(template: &str) -> std::borrow::Cow<'_, str> {
    with_prelude_text(template, DEVICE_PRELUDE)
}

/// `template` with its device-prelude line (if any) replaced by `prelude`.
fn with_prelude_text<'t>(template: &'t str, prelude: &str) -> std::borrow::Cow<'t, str> {
    match template.find(DEVICE_PRELUDE_MARKER) {
        Some(at) if template[at..].starts_with(&format!("{DEVICE_PRELUDE_MARKER}\n")) => {
            let end = at + DEVICE_PRELUDE_MARKER.len() + 1;
            std::borrow::Cow::Owned(format!(
                "{}{}{}",
                &template[..at],
                prelude,
                &template[end..]
            ))
        }
        _ => std::borrow::Cow::Borrowed(template),
    }
}

/// Substitutes every `${name}` of `template` (its device prelude spliced in) from `vars`. A `${name}` with no
/// value, an unterminated or malformed `${...}`, and a variable in `vars`
/// that the template never uses are errors (never an empty string).
pub fn render(template: &str, vars: &BTreeMap<String, String>) -> Result<String, TemplateError> {
    substitute(&with_prelude(template), vars)
}

/// Substitutes every `${name}` of `template` from `vars` (see [`render`]).
fn substitute(template: &str, vars: &BTreeMap<String, String>) -> Result<String, TemplateError> {
    let mut out = String::with_capacity(template.len());
    let mut used = std::collections::BTreeSet::new();
    let mut rest = template;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            return Err(TemplateError::Unterminated(
                template.len() - rest.len() + start,
            ));
        };
        let name = &after[..end];
        if !is_identifier(name) {
            return Err(TemplateError::NotAVariable(name.to_string()));
        }
        let Some(value) = vars.get(name) else {
            return Err(TemplateError::Missing(name.to_string()));
        };
        used.insert(name);
        out.push_str(value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    if let Some(unused) = vars.keys().find(|k| !used.contains(k.as_str())) {
        return Err(TemplateError::Unused(unused.clone()));
    }
    Ok(out)
}

/// One builtin kernel as pld-translate renders it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinKernel {
    /// Its symbol, e.g. `__builtin_allreduce_sum__fp32`.
    pub symbol: String,
    /// Its template in the source tree.
    pub template: &'static str,
    /// The rendered kernel source (one self-contained file).
    pub source: String,
}

/// A sample of every builtin kernel the collective table synthesizes (each op
/// × dtype × reduction × mode, roots 0 and 15, three permute pair lists),
/// rendered exactly as `pld-translate` renders it: what a toolchain check
/// compiles (docs/device.md, conformance).
pub fn collective_kernels() -> Vec<BuiltinKernel> {
    crate::collective::Variant::samples()
        .into_iter()
        .map(|v| {
            let package =
                package(v.template_dir()).expect("every variant's template is in the table");
            let vars =
                parse_vars(&v.template_vars()).expect("the table's template variables parse");
            BuiltinKernel {
                symbol: v.symbol(),
                template: package.path,
                source: render_package(package, &vars)
                    .expect("every template renders its variants"),
            }
        })
        .collect()
}

/// The include block a rendered source opens with: its `#include` lines up to the first line
/// that is not an include, a `//` comment or blank (None without one). Only comments come before
/// them, so a translation unit that starts with a precompiled header of exactly these lines, in
/// this order, is the source's own (its includes are then re-entries of guarded headers): what
/// pld-run's build cache and the device conformance test precompile once for many kernels.
pub fn include_block(source: &str) -> Option<String> {
    let mut block = String::new();
    for line in source.lines().map(str::trim) {
        // A `\` at a line's end splices the next line (into a comment, say): the block stops.
        if line.ends_with('\\') {
            break;
        }
        let include = line
            .strip_prefix("#include")
            .is_some_and(|rest| rest.starts_with([' ', '<', '"']));
        if include {
            block.push_str(line);
            block.push('\n');
        } else if !(line.is_empty() || line.starts_with("//")) {
            break;
        }
    }
    (!block.is_empty()).then_some(block)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_blocks_stop_at_the_first_line_of_code() {
        let src = "// a\n#include <a.h>\n\n#include \"b.h\"\n#ifndef X\n#include <c.h>\n#endif\n";
        assert_eq!(
            include_block(src).as_deref(),
            Some("#include <a.h>\n#include \"b.h\"\n")
        );
        assert_eq!(include_block("int x;\n#include <a.h>\n"), None);
        // A spliced comment hides the next line; `#include_next` is not an include.
        assert_eq!(
            include_block("#include <a.h>\n// x \\\n#include <b.h>\n").as_deref(),
            Some("#include <a.h>\n")
        );
        assert_eq!(include_block("#include_next <a.h>\n"), None);
        assert_eq!(include_block("// only a comment\n"), None);
        // Every builtin kernel opens with the device prelude's block.
        let blocks: std::collections::BTreeSet<_> = collective_kernels()
            .iter()
            .map(|k| include_block(&k.source).expect("a builtin kernel includes its headers"))
            .collect();
        assert_eq!(blocks.len(), 1, "{blocks:?}");
    }

    fn vars(text: &str) -> BTreeMap<String, String> {
        parse_vars(text).unwrap()
    }

    #[test]
    fn splices_the_device_prelude_once() {
        let out = render(
            "// head\n// @pld-device-prelude\nusing T = ${dtype_cpp};\n",
            &vars("dtype_cpp=float"),
        )
        .unwrap();
        assert!(out.starts_with("// head\n// ---- The device prelude"));
        assert!(out.ends_with("// ---- end of the device prelude ----\nusing T = float;\n"));
        assert!(!out.contains(DEVICE_PRELUDE_MARKER));
        // Without the marker, nothing is added.
        assert_eq!(render("x", &vars("")).unwrap(), "x");
    }

    #[test]
    fn substitutes_every_occurrence() {
        let out = render(
            "using T = ${dtype_cpp}; // ${dtype_cpp}\n$x {y}",
            &vars("dtype_cpp=int8_t"),
        )
        .unwrap();
        assert_eq!(out, "using T = int8_t; // int8_t\n$x {y}");
    }

    #[test]
    fn several_variables() {
        let out = render("${a}+${b}", &vars("a=1, b=2")).unwrap();
        assert_eq!(out, "1+2");
    }

    #[test]
    fn unknown_variable_is_an_error() {
        let err = render("x ${dtype} y", &vars("dtype_cpp=float")).unwrap_err();
        assert_eq!(err, TemplateError::Missing("dtype".into()));
        assert!(err.to_string().contains("'${dtype}'"), "{err}");
    }

    #[test]
    fn missing_value_is_an_error() {
        assert_eq!(
            parse_vars("dtype_cpp").unwrap_err(),
            TemplateError::NoValue("dtype_cpp".into())
        );
        assert_eq!(
            parse_vars("dtype_cpp=").unwrap_err(),
            TemplateError::EmptyValue("dtype_cpp".into())
        );
        assert_eq!(
            parse_vars("dtype_cpp=float,dtype_cpp=int8_t").unwrap_err(),
            TemplateError::Twice("dtype_cpp".into())
        );
        assert_eq!(
            parse_vars("1x=float").unwrap_err(),
            TemplateError::BadName("1x".into())
        );
        let err = render("${dtype_cpp}", &BTreeMap::new()).unwrap_err();
        assert!(err.to_string().contains("has no value"), "{err}");
    }

    #[test]
    fn malformed_references_are_errors() {
        assert_eq!(
            render("${dtype_cpp", &vars("dtype_cpp=float")).unwrap_err(),
            TemplateError::Unterminated(0)
        );
        assert_eq!(
            render("${} ${dtype_cpp}", &vars("dtype_cpp=float")).unwrap_err(),
            TemplateError::NotAVariable(String::new())
        );
    }

    #[test]
    fn unused_variable_is_an_error() {
        let err = render("${a}", &vars("a=1,b=2")).unwrap_err();
        assert!(err.to_string().contains("'b' is not used"), "{err}");
    }

    #[test]
    fn all_to_all_v_package_renders_both_dtypes() {
        let pkg = package(":pypto.runtime.builtins.collectives.all_to_all_v").unwrap();
        let f32 = render(pkg.text, &vars("dtype_cpp=float")).unwrap();
        let i8 = render(pkg.text, &vars("dtype_cpp=int8_t")).unwrap();
        assert!(f32.contains("using Elem = float;") && i8.contains("using Elem = int8_t;"));
        assert!(!f32.contains("${") && !i8.contains("${"));
        // Outside the shared device prelude, the two differ only where the dtype is named.
        assert_eq!(
            f32.replace(DEVICE_PRELUDE, "").replace("float", "DT"),
            i8.replace(DEVICE_PRELUDE, "").replace("int8_t", "DT")
        );
        assert!(package(":pypto.runtime.builtins.collectives.nope").is_none());
    }

    #[test]
    fn every_collective_has_its_package_and_renders_every_variant() {
        use crate::collective::Variant;
        for spec in crate::collective::TABLE {
            {
                let variants: Vec<Variant> = Variant::samples()
                    .into_iter()
                    .filter(|v| std::ptr::eq(v.spec(), spec))
                    .collect();
                assert!(!variants.is_empty(), "{}: no variant", spec.op);
                for v in variants {
                    let dir = v.template_dir();
                    let pkg = package(dir).unwrap_or_else(|| panic!("no package {dir}"));
                    assert!(pkg.path.ends_with(&format!(
                        "/{}/kernel.cpp.in",
                        &dir[dir.rfind('.').unwrap() + 1..]
                    )));
                    let given = vars(&v.template_vars());
                    let text =
                        render(pkg.text, &given).unwrap_or_else(|e| panic!("{}: {e}", v.symbol()));
                    // The rendering is the template (its device prelude spliced in) with its
                    // variables substituted, nothing else.
                    let mut expected = with_prelude(pkg.text).into_owned();
                    for (name, value) in &given {
                        expected = expected.replace(&format!("${{{name}}}"), value);
                    }
                    assert_eq!(text, expected);
                    // The CommContext slot the codegen checks a task against.
                    let slot = format!("pld_dev::comm_arg(args, {})", spec.comm_slot());
                    assert!(pkg.text.contains(&slot), "{}: no {slot}", pkg.path);
                    assert!(
                        crate::collective::Spec::of_template_dir(dir)
                            .is_some_and(|s| std::ptr::eq(s, spec))
                    );
                }
            }
        }
        // Every template directory is a row's package (none left without a row).
        let names: Vec<&str> = crate::collective::Spec::packages()
            .map(|p| p.name)
            .collect();
        let root = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/templates/pypto/runtime/builtins/collectives"
        );
        // Every package folder (the device prelude beside them is a file).
        let mut dirs: Vec<String> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        dirs.sort();
        for d in &dirs {
            let name = format!(":pypto.runtime.builtins.collectives.{d}");
            assert!(names.contains(&name.as_str()), "{d} is no row's template");
        }
        assert_eq!(dirs.len(), names.len());
    }
}
