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
    /// Not a parameter: a window a HOST orchestrator allocates itself (a `pld.window` of a
    /// `pld.window_buffer` of its body), at this byte offset of every rank's window. Reported per
    /// rank after the run and comparable with `--expected-output`; takes no input (it starts as
    /// zeros).
    HostWindow(Vec<u64>, Elem, u64),
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
        match self.kind {
            Kind::Tensor(..) | Kind::Window(..) => self.direction != "in",
            Kind::HostWindow(..) => true,
            Kind::Scalar(_) | Kind::Comm => false,
        }
    }

    /// Whether it holds a tensor (a host tensor or a window), so it has an output and may have an
    /// expectation.
    pub fn is_tensor(&self) -> bool {
        matches!(
            self.kind,
            Kind::Tensor(..) | Kind::Window(..) | Kind::HostWindow(..)
        )
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

/// The text of `func.func @name`'s body (between its braces, without them), if the module has
/// the function. The body's `{` is the first one that ends a line outside the parameter list.
fn body<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let start = [
        format!("func.func @{name}("),
        format!("func.func private @{name}("),
    ]
    .iter()
    .find_map(|n| text.find(n.as_str()))?;
    let bytes = text.as_bytes();
    let (mut depth, mut in_str, mut open) = (0i32, false, None);
    for k in start..bytes.len() {
        let c = bytes[k] as char;
        if in_str {
            if c == '"' && bytes[k - 1] != b'\\' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' => {
                let rest = text[k + 1..].trim_start_matches([' ', '\t']);
                if open.is_none() && depth == 0 && (rest.starts_with('\n') || rest.is_empty()) {
                    open = Some(k + 1);
                }
                depth += 1;
            }
            '}' => {
                depth -= 1;
                if depth == 0
                    && let Some(o) = open
                {
                    return Some(&text[o..k]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Each line of `body` with its region depth at the line's start (0: the body's top level).
fn lines_with_depth(body: &str) -> Vec<(usize, &str)> {
    let mut depth = 0i32;
    let mut out = Vec::new();
    for line in body.lines() {
        out.push((depth.max(0) as usize, line));
        let mut in_str = false;
        let mut prev = ' ';
        for c in line.chars() {
            if in_str {
                if c == '"' && prev != '\\' {
                    in_str = false;
                }
            } else {
                match c {
                    '"' => in_str = true,
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            prev = c;
        }
    }
    out
}

/// `%name = OP ...` → (name, the text after `OP`) when the line's op is `OP`.
fn op_line<'l>(line: &'l str, op: &str) -> Option<(&'l str, &'l str)> {
    let (lhs, rhs) = line.trim().split_once(" = ")?;
    let rest = rhs.strip_prefix(op)?;
    if !(rest.starts_with(' ') || rest.is_empty()) {
        return None;
    }
    Some((lhs.trim().trim_start_matches('%'), rest))
}

/// `key = N` in `text` (an integer attribute).
fn int_attr(text: &str, key: &str) -> Option<u64> {
    let i = text.find(&format!("{key} = "))?;
    let digits: String = text[i + key.len() + 3..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The windows a HOST orchestrator allocates itself, and how many bytes of window its
/// allocations take in all.
pub struct HostWindows {
    /// One pseudo-parameter ([`Kind::HostWindow`]) per `pld.window`, in program order.
    pub windows: Vec<Param>,
    /// Where the world's bump allocator ends after the allocations (every `pld.window_buffer`
    /// in order, each at a 64-byte boundary, from offset 0, as `pld::host::World::alloc`).
    pub alloc_end: u64,
    /// Why no window is reported, when they cannot be.
    pub note: Option<String>,
}

/// The `pld.window` views of the HOST orchestrator `function` of `lowered` (offsets, types),
/// named by the SSA names of `source`'s views in the same order (`%act_a` → `act_a`), else
/// `window<k>`. Their offsets are known only when every `pld.window_buffer` is allocated once,
/// at the body's top level (not in a loop or a branch).
pub fn host_windows(source: &str, lowered: &str, function: &str) -> HostWindows {
    let mut out = HostWindows {
        windows: Vec::new(),
        alloc_end: 0,
        note: None,
    };
    let Some(low) = body(lowered, function) else {
        return out;
    };
    let mut buffers: std::collections::HashMap<String, u64> = Default::default();
    let mut end = 0u64;
    let mut views = Vec::new();
    for (depth, line) in lines_with_depth(low) {
        if let Some((name, rest)) = op_line(line, "pld.window_buffer") {
            if depth > 0 {
                out.note = Some(format!(
                    "a pld.window_buffer of @{function} is allocated inside a region (a loop or \
                     a branch), so its windows' offsets are not known statically"
                ));
                return out;
            }
            let Some(bytes) = int_attr(rest, "bytes") else {
                out.note = Some(format!("cannot read `{}`", line.trim()));
                return out;
            };
            let off = end.div_ceil(64) * 64;
            end = off + bytes;
            buffers.insert(name.to_string(), off);
        } else if let Some((name, rest)) = op_line(line, "pld.window") {
            let buffer = rest
                .trim_start()
                .split([' ', ':'])
                .next()
                .unwrap_or("")
                .trim_start_matches('%');
            let ty = rest
                .rsplit_once(" : ")
                .map(|(_, t)| t.split(" loc(").next().unwrap_or(t).trim().to_string())
                .unwrap_or_default();
            let offset = int_attr(rest.split(" : ").next().unwrap_or(""), "offset").unwrap_or(0);
            views.push((name.to_string(), buffer.to_string(), offset, ty));
        }
    }
    out.alloc_end = end;
    let names: Vec<String> = body(source, function)
        .map(|b| {
            lines_with_depth(b)
                .into_iter()
                .filter_map(|(_, l)| op_line(l, "pld.window").map(|(n, _)| n.to_string()))
                .collect()
        })
        .unwrap_or_default();
    let usable = |n: &str| {
        !n.is_empty()
            && !n.starts_with(|c: char| c.is_ascii_digit())
            && n.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    for (k, (_, buffer, view_offset, ty)) in views.into_iter().enumerate() {
        let Some(&base) = buffers.get(&buffer) else {
            continue; // a view of a buffer this body does not allocate (verified away)
        };
        let Ok(Kind::Window(shape, elem)) = kind_of(&ty) else {
            continue;
        };
        let name = names
            .get(k)
            .filter(|n| usable(n))
            .cloned()
            .unwrap_or(format!("window{k}"));
        out.windows.push(Param {
            name,
            ty,
            kind: Kind::HostWindow(shape, elem, base + view_offset),
            direction: "window".to_string(),
        });
    }
    out
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

    #[test]
    fn host_windows_are_named_from_the_source_and_placed_like_the_allocator() {
        let src = "func.func @h(%x: !pl.tensor<4xf32>)\n    attributes {pl.level = \"host\"} {\n\
            %b1 = pld.window_buffer {bytes = 96 : i64} : !pld.window_buffer\n\
            %b2 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer\n\
            %act = pld.window %b1 : !pld.dtensor<4x6xf32>\n\
            %tail = pld.window %b1 {offset = 48 : i64} : !pld.dtensor<12xf16>\n\
            %sig = pld.window %b2 : !pld.dtensor<4x2xi32>\n\
            scf.for %d = %c0 to %c4 step %c1 {\n  pld.host.dispatch @f(%act) on %d : (!pld.dtensor<4x6xf32>), index\n}\n\
            return\n}\n";
        let low = "  func.func @h(%arg0: !pl.tensor<4xf32> {pl.direction = \"in\"} loc(#loc1)) attributes {pl.func_kind = \"orchestration\", pl.level = \"host\"} {\n\
            %0 = pld.window_buffer {bytes = 96 : i64} : !pld.window_buffer loc(#loc2)\n\
            %1 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer loc(#loc3)\n\
            %2 = pld.window %0 : !pld.dtensor<4x6xf32> loc(#loc4)\n\
            %3 = pld.window %0 {offset = 48 : i64} : !pld.dtensor<12xf16> loc(#loc4)\n\
            %4 = pld.window %1 : !pld.dtensor<4x2xi32> loc(\"m.mlir\":3:4)\n\
            return loc(#loc5)\n  } loc(#loc6)\n";
        let hw = host_windows(src, low, "h");
        assert!(hw.note.is_none());
        assert_eq!(hw.alloc_end, 128 + 32);
        let got: Vec<(&str, &Kind)> = hw
            .windows
            .iter()
            .map(|p| (p.name.as_str(), &p.kind))
            .collect();
        assert_eq!(
            got,
            [
                ("act", &Kind::HostWindow(vec![4, 6], Elem::F32, 0)),
                ("tail", &Kind::HostWindow(vec![12], Elem::F16, 48)),
                ("sig", &Kind::HostWindow(vec![4, 2], Elem::I32, 128)),
            ]
        );
        // Lowered text only: `window<k>`.
        let hw = host_windows(low, low, "h");
        assert_eq!(hw.windows[2].name, "window2");
        // A buffer allocated in a loop: no offsets.
        let looped = low.replace(
            "%1 = pld.window_buffer",
            "scf.for %i = %a to %b step %c {\n%9 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer\n}\n%1 = pld.window_buffer",
        );
        let hw = host_windows(src, &looped, "h");
        assert!(hw.windows.is_empty() && hw.note.is_some());
    }
}
