//! The entry function's parameters, read from module text: names from the user's module (the
//! SSA names without `%`; a module printed by pld-opt has `arg<N>`), types and `pl.direction`
//! from the lowered one (pld-opt writes every parameter's direction).

use super::value::{Elem, parse_type};

/// What a parameter is at run time.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `!pl.tensor<...>`: a host tensor.
    Tensor(Vec<u64>, Elem),
    /// `!pld.dtensor<...>`: a window view (one allocation per rank).
    Window(Vec<u64>, Elem),
    /// An integer or `index` scalar (passed as i64).
    Scalar(String),
    /// `!pld.comm_ctx`: filled by the driver, bound by no input.
    Comm,
}

/// One parameter of the entry.
#[derive(Clone, Debug)]
pub struct Param {
    /// The name inputs and outputs use.
    pub name: String,
    /// The type as written.
    pub ty: String,
    /// What it is.
    pub kind: Kind,
    /// `pl.direction` (`in`, `out`, `inout`; empty when absent).
    pub direction: String,
}

impl Param {
    /// Whether the run may write it (shown and saved as an output).
    pub fn is_output(&self) -> bool {
        matches!(self.kind, Kind::Tensor(..) | Kind::Window(..)) && self.direction != "in"
    }
}

/// A function's header: its parameters' text and what follows the parameter list.
pub struct Header {
    /// `%name: type {attrs} loc(...)` per parameter.
    pub params: Vec<String>,
    /// The text after the parameter list up to the body (`attributes {...}`).
    pub attributes: String,
}

/// The header of `func.func @name(` in `text`, if there is one.
pub fn header(text: &str, name: &str) -> Option<Header> {
    let start = [
        format!("func.func @{name}("),
        format!("func.func private @{name}("),
    ]
    .iter()
    .find_map(|n| text.find(n.as_str()).map(|i| i + n.len()))?;
    let bytes = text.as_bytes();
    let (mut depth, mut in_str, mut k) = (0i32, false, start);
    let mut params = Vec::new();
    let mut cur = start;
    while k < bytes.len() {
        let c = bytes[k] as char;
        if in_str {
            if c == '\\' {
                k += 1;
            } else if c == '"' {
                in_str = false;
            }
        } else {
            match c {
                '"' => in_str = true,
                '(' | '<' | '{' | '[' => depth += 1,
                ')' | '>' | '}' | ']' if depth > 0 => {
                    // `->` is not a bracket.
                    if !(c == '>' && k > 0 && bytes[k - 1] == b'-') {
                        depth -= 1;
                    }
                }
                ')' => {
                    let last = text[cur..k].trim();
                    if !last.is_empty() {
                        params.push(last.to_string());
                    }
                    let rest = &text[k + 1..];
                    let end = rest.find('\n').unwrap_or(rest.len());
                    return Some(Header {
                        params,
                        attributes: rest[..end].to_string(),
                    });
                }
                ',' if depth == 0 => {
                    params.push(text[cur..k].trim().to_string());
                    cur = k + 1;
                }
                _ => {}
            }
        }
        k += 1;
    }
    None
}

/// `(name, type, direction)` of one parameter's text.
fn split_param(p: &str) -> (String, String, String) {
    let (name, rest) = p.split_once(':').unwrap_or(("", p));
    let name = name.trim().trim_start_matches('%').to_string();
    let rest = rest.trim();
    // The type ends at the first top-level space (before `{attrs}` or `loc(`).
    let mut depth = 0;
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ' ' if depth == 0 => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let ty = rest[..end].to_string();
    let direction = rest
        .find("pl.direction = \"")
        .map(|i| {
            let s = &rest[i + "pl.direction = \"".len()..];
            s[..s.find('"').unwrap_or(0)].to_string()
        })
        .unwrap_or_default();
    (name, ty, direction)
}

/// The kind of a type, or why it cannot be passed.
pub fn kind_of(ty: &str) -> Result<Kind, String> {
    let shaped = |inner: &str| -> Option<(Vec<u64>, Elem)> {
        let spec = inner.split(',').next()?.trim();
        parse_type(spec)
    };
    if let Some(inner) = ty
        .strip_prefix("!pl.tensor<")
        .and_then(|s| s.strip_suffix('>'))
    {
        let (d, e) = shaped(inner).ok_or(format!("unsupported tensor type {ty}"))?;
        return Ok(Kind::Tensor(d, e));
    }
    if let Some(inner) = ty
        .strip_prefix("!pld.dtensor<")
        .and_then(|s| s.strip_suffix('>'))
    {
        let (d, e) = shaped(inner).ok_or(format!("unsupported tensor type {ty}"))?;
        return Ok(Kind::Window(d, e));
    }
    if ty == "!pld.comm_ctx" {
        return Ok(Kind::Comm);
    }
    if ty == "index" || ["i1", "i8", "i16", "i32", "i64"].contains(&ty) {
        return Ok(Kind::Scalar(ty.to_string()));
    }
    Err(format!(
        "a parameter of type {ty} cannot be passed by pld-run"
    ))
}

/// The entry's parameters: types and directions from `lowered`, names from `source` by position
/// (falling back to `arg<N>`).
pub fn params(source: &str, lowered: &str, function: &str) -> Result<(Vec<Param>, bool), String> {
    let low = header(lowered, function).ok_or(format!(
        "the module has no function @{function} (after lowering)"
    ))?;
    let names: Vec<String> = header(source, function)
        .map(|h| h.params.iter().map(|p| split_param(p).0).collect())
        .unwrap_or_default();
    let host = low.attributes.contains("pl.level = \"host\"");
    let mut out = Vec::new();
    for (i, p) in low.params.iter().enumerate() {
        let (_, ty, direction) = split_param(p);
        let kind = kind_of(&ty).map_err(|e| format!("parameter {i} of @{function}: {e}"))?;
        let name = names
            .get(i)
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .cloned()
            .unwrap_or(format!("arg{i}"));
        out.push(Param {
            name,
            ty,
            kind,
            direction,
        });
    }
    Ok((out, host))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_with_attributes_and_locations() {
        let src = "func.func @f(%inp: !pl.tensor<4x2xf32>, %w: !pld.dtensor<2xi32>, %n: i64)\n  attributes {pl.func_kind = \"orchestration\"} {\n";
        let low = "func.func @f(%arg0: !pl.tensor<4x2xf32> {pl.direction = \"in\"} loc(\"a.mlir\":1:2), %arg1: !pld.dtensor<2xi32> {pl.direction = \"inout\"}, %arg2: i64 {pl.direction = \"in\"}, %arg3: !pld.comm_ctx {pl.direction = \"in\"}) attributes {pl.func_kind = \"orchestration\", pl.level = \"host\"} {\n";
        let (ps, host) = params(src, low, "f").unwrap();
        assert!(host);
        let names: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["inp", "w", "n", "arg3"]);
        assert_eq!(ps[0].kind, Kind::Tensor(vec![4, 2], Elem::F32));
        assert_eq!(ps[1].kind, Kind::Window(vec![2], Elem::I32));
        assert_eq!(ps[2].kind, Kind::Scalar("i64".into()));
        assert_eq!(ps[3].kind, Kind::Comm);
        assert!(ps[1].is_output() && !ps[0].is_output());
    }
}
