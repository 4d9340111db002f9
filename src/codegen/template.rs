//! Builtin kernel templates: the packages `pl.builtin_template_dir` names,
//! embedded in the binary (so `pld-translate` works from any directory), and
//! `${var}` rendering from `pl.builtin_template_vars`.

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
}

/// One builtin template package: its `:dotted.name` and `kernel.cpp.in`.
pub struct Package {
    pub name: &'static str,
    /// Path of the template in the source tree (a unit test holds it to the
    /// name).
    #[cfg_attr(not(test), allow(dead_code))]
    pub path: &'static str,
    pub text: &'static str,
}

/// Every package the codegen knows (the `template_dir` of each row of
/// [`crate::collective`]'s table; a unit test holds the two together).
pub const PACKAGES: &[Package] = &[
    Package {
        name: ":pypto.runtime.builtins.collectives.all_to_all_v",
        path: "templates/pypto/runtime/builtins/collectives/all_to_all_v/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/all_to_all_v/kernel.cpp.in"
        ),
    },
    Package {
        name: ":pypto.runtime.builtins.collectives.indexed_all_to_all_v",
        path: "templates/pypto/runtime/builtins/collectives/indexed_all_to_all_v/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/indexed_all_to_all_v/kernel.cpp.in"
        ),
    },
    Package {
        name: ":pypto.runtime.builtins.collectives.allreduce",
        path: "templates/pypto/runtime/builtins/collectives/allreduce/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/allreduce/kernel.cpp.in"
        ),
    },
    Package {
        name: ":pypto.runtime.builtins.collectives.allreduce_ring",
        path: "templates/pypto/runtime/builtins/collectives/allreduce_ring/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/allreduce_ring/kernel.cpp.in"
        ),
    },
    Package {
        name: ":pypto.runtime.builtins.collectives.reduce_scatter",
        path: "templates/pypto/runtime/builtins/collectives/reduce_scatter/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/reduce_scatter/kernel.cpp.in"
        ),
    },
    Package {
        name: ":pypto.runtime.builtins.collectives.allgather",
        path: "templates/pypto/runtime/builtins/collectives/allgather/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/allgather/kernel.cpp.in"
        ),
    },
    Package {
        name: ":pypto.runtime.builtins.collectives.broadcast",
        path: "templates/pypto/runtime/builtins/collectives/broadcast/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/broadcast/kernel.cpp.in"
        ),
    },
    Package {
        name: ":pypto.runtime.builtins.collectives.all_to_all",
        path: "templates/pypto/runtime/builtins/collectives/all_to_all/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/all_to_all/kernel.cpp.in"
        ),
    },
    Package {
        name: ":pypto.runtime.builtins.collectives.barrier",
        path: "templates/pypto/runtime/builtins/collectives/barrier/kernel.cpp.in",
        text: include_str!(
            "../../templates/pypto/runtime/builtins/collectives/barrier/kernel.cpp.in"
        ),
    },
];

/// The package named `name` (`:a.b.c`, the form `pl.builtin_template_dir` uses).
pub fn package(name: &str) -> Option<&'static Package> {
    PACKAGES.iter().find(|p| p.name == name)
}

/// Parses `pl.builtin_template_vars` (`name=value`, several separated by `;`
/// as the collective family spells them, or by `,`).
/// A name without `=`, with an empty value, an empty or non-identifier name
/// or a name given twice is an error.
pub fn parse_vars(text: &str) -> Result<BTreeMap<String, String>, TemplateError> {
    let mut vars = BTreeMap::new();
    if text.trim().is_empty() {
        return Ok(vars);
    }
    for item in text.split([';', ',']) {
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

/// Substitutes every `${name}` of `template` from `vars`. A `${name}` with no
/// value, an unterminated or malformed `${...}`, and a variable in `vars`
/// that the template never uses are errors (never an empty string).
pub fn render(template: &str, vars: &BTreeMap<String, String>) -> Result<String, TemplateError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(text: &str) -> BTreeMap<String, String> {
        parse_vars(text).unwrap()
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
        assert_eq!(f32.replace("float", "DT"), i8.replace("int8_t", "DT"));
        assert!(package(":pypto.runtime.builtins.collectives.nope").is_none());
    }

    #[test]
    fn every_collective_has_its_package_and_renders_both_dtypes() {
        for spec in crate::collective::TABLE {
            let pkg = package(spec.template_dir)
                .unwrap_or_else(|| panic!("no package {}", spec.template_dir));
            assert!(
                pkg.path
                    .ends_with(&format!("/{}/kernel.cpp.in", spec.short)),
                "{}",
                pkg.path
            );
            let f32 = render(pkg.text, &vars("dtype_cpp=float")).unwrap();
            let i8 = render(pkg.text, &vars("dtype_cpp=int8_t")).unwrap();
            // The rendering is the template with dtype_cpp substituted, nothing else.
            assert_eq!(f32, pkg.text.replace("${dtype_cpp}", "float"));
            assert_eq!(i8, pkg.text.replace("${dtype_cpp}", "int8_t"));
            // The CommContext slot the codegen checks a task against.
            let slot = format!("pld::comm_arg(args, {})", spec.comm_slot());
            assert!(pkg.text.contains(&slot), "{}: no {slot}", pkg.path);
            assert!(
                crate::collective::Spec::of_template_dir(spec.template_dir)
                    .is_some_and(|s| std::ptr::eq(s, spec))
            );
        }
    }
}
