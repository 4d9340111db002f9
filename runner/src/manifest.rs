//! What pld-run knows about a program: the build tree's `manifest.json` (pld-translate's,
//! docs/codegen.md "The manifest": entries, parameters, a HOST orchestrator's window allocations,
//! kernels, runtime checks) and the names the user's text gives the entry's parameters and
//! windows (`pld::source_names`, MLIR's parser state). Nothing here reads MLIR text.

use std::path::Path;

use serde_json::Value;

use crate::RunError;
use crate::value::Elem;

/// The manifest format this reader understands.
const VERSION: u64 = 1;

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

/// The windows a HOST orchestrator allocates itself.
pub struct HostWindows {
    /// One pseudo-parameter ([`Kind::HostWindow`]) per `pld.window`, in program order.
    pub windows: Vec<Param>,
    /// Where the world's allocator ends after the allocations, when they are static.
    pub alloc_end: Option<u64>,
    /// Why no window is reported, when they cannot be.
    pub note: Option<String>,
}

/// One entry of the tree, as pld-run runs it.
pub struct Entry {
    /// Whether it is a HOST orchestrator (else a CHIP orchestration function).
    pub host: bool,
    /// Its parameters, named.
    pub params: Vec<Param>,
    /// A HOST orchestrator's own windows.
    pub host_windows: Option<HostWindows>,
    /// The window bytes every rank needs for it: its window parameters and its
    /// `pld.window_buffer`s.
    pub window_bytes: u64,
}

/// A runtime check of the module.
struct Require {
    code: i64,
    message: String,
    location: String,
}

/// A build tree's manifest.
pub struct Manifest {
    json: Value,
    requires: Vec<Require>,
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn shape(v: &Value) -> Option<Vec<u64>> {
    v.as_array()?.iter().map(Value::as_u64).collect()
}

fn align(n: u64) -> u64 {
    n.div_ceil(64) * 64
}

impl Manifest {
    /// Reads `<tree>/manifest.json`.
    pub fn read(tree: &Path) -> Result<Manifest, RunError> {
        let path = tree.join("manifest.json");
        let raw = std::fs::read_to_string(&path)
            .map_err(|e| RunError::Tool(format!("{}: {e}", path.display())))?;
        let json: Value = serde_json::from_str(&raw)
            .map_err(|e| RunError::Tool(format!("{}: {e}", path.display())))?;
        if json["format"] != "pld-build-manifest" || json["version"].as_u64() != Some(VERSION) {
            return Err(RunError::Tool(format!(
                "{}: not a version {VERSION} pld build manifest (pld-translate and pld-run differ)",
                path.display()
            )));
        }
        let requires = json["requires"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| Require {
                        code: r["code"].as_i64().unwrap_or(5),
                        message: text(&r["message"]),
                        location: text(&r["location"]),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Manifest { json, requires })
    }

    /// The `pl.kernel_source` paths the tree's kernels were copied from (relative to
    /// `--kernel-source-dir`), sorted, once each.
    pub fn kernel_sources(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .entries()
            .flat_map(|e| e["kernels"].as_array().cloned().unwrap_or_default())
            .filter_map(|k| k["kernel_source"].as_str().map(str::to_string))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Each user kernel's `pl.kernel_source` and where the tree holds its copy (relative to the
    /// tree), once per copy.
    pub fn kernel_copies(&self) -> Vec<(String, String)> {
        self.entries()
            .flat_map(|e| e["kernels"].as_array().cloned().unwrap_or_default())
            .filter_map(|k| Some((k["kernel_source"].as_str()?.to_string(), text(&k["source"]))))
            .collect()
    }

    /// Every kernel of every entry, by name, sorted, once each.
    pub fn kernel_names(&self) -> Vec<String> {
        let names: std::collections::BTreeSet<String> = self
            .entries()
            .flat_map(|e| e["kernels"].as_array().cloned().unwrap_or_default())
            .map(|k| text(&k["name"]))
            .collect();
        names.into_iter().collect()
    }

    /// The C symbol of the entry `function` (its ChipEntry is `pld_chip_<c_symbol>`).
    pub fn c_symbol(&self, function: &str) -> Option<String> {
        self.entries()
            .find(|e| e["symbol"] == function)
            .map(|e| text(&e["c_symbol"]))
    }

    fn entries(&self) -> impl Iterator<Item = &Value> {
        self.json["entries"].as_array().into_iter().flatten()
    }

    /// The entry `function`, its parameters named by `source` (the user's module text: `%x` is
    /// `x`; `arg<N>` where the text gives no usable name).
    pub fn entry(&self, function: &str, source: &str) -> Result<Entry, String> {
        let names = pld::source_names(source, function);
        let Some(e) = self.entries().find(|e| e["symbol"] == function) else {
            if names.is_none() {
                return Err(format!(
                    "the module has no function @{function} with a body"
                ));
            }
            let known: Vec<String> = self
                .entries()
                .map(|e| format!("@{}", text(&e["symbol"])))
                .collect();
            return Err(format!(
                "@{function} is neither a HOST orchestrator (pl.level = \"host\") nor a CHIP \
                 orchestration function (pl.func_kind = \"orchestration\") of the module \
                 (its entries: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        };
        let names = names.unwrap_or_default();
        let usable = |n: &String| {
            !n.is_empty()
                && !n.starts_with(|c: char| c.is_ascii_digit())
                && n.chars().all(|c| c.is_alphanumeric() || c == '_')
        };
        let host = e["rail"] == "host";
        let mut params = Vec::new();
        let mut window_bytes = 0;
        for (i, p) in e["parameters"].as_array().into_iter().flatten().enumerate() {
            let ty = text(&p["type"]);
            let elem = || {
                Elem::from_mlir(p["element_type"].as_str().unwrap_or_default()).ok_or(format!(
                    "parameter {i} of @{function}: {ty}: pld-run cannot hold its element type"
                ))
            };
            let dims = || {
                shape(&p["shape"]).ok_or(format!(
                    "parameter {i} of @{function}: {ty}: pld-run needs a static shape"
                ))
            };
            let kind = match p["kind"].as_str() {
                Some("tensor") => Kind::Tensor(dims()?, elem()?),
                Some("window") => {
                    let (d, el) = (dims()?, elem()?);
                    window_bytes += align(d.iter().product::<u64>() * el.size() as u64);
                    Kind::Window(d, el)
                }
                Some("scalar") => Kind::Scalar(text(&p["element_type"])),
                Some("comm") => Kind::Comm,
                _ => {
                    return Err(format!(
                        "parameter {i} of @{function}: {ty} is not a tensor, window, integer or \
                         context"
                    ));
                }
            };
            params.push(Param {
                name: names
                    .params
                    .get(i)
                    .filter(|n| usable(n))
                    .cloned()
                    .unwrap_or(format!("arg{i}")),
                ty,
                kind,
                direction: text(&p["direction"]),
            });
        }
        let host_windows = host.then(|| {
            let hw = &e["host_windows"];
            window_bytes += hw["buffer_bytes"].as_u64().unwrap_or(0);
            if hw["static_layout"] != true {
                return HostWindows {
                    windows: Vec::new(),
                    alloc_end: None,
                    note: Some(format!(
                        "{} of @{function}, so its windows' offsets are not known statically",
                        hw["why"]
                            .as_str()
                            .unwrap_or("its window layout is not static")
                    )),
                };
            }
            let windows = hw["windows"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .filter_map(|(k, w)| {
                    let elem = Elem::from_mlir(w["element_type"].as_str()?)?;
                    Some(Param {
                        name: names
                            .windows
                            .get(k)
                            .filter(|n| usable(n))
                            .cloned()
                            .unwrap_or(format!("window{k}")),
                        ty: text(&w["type"]),
                        kind: Kind::HostWindow(shape(&w["shape"])?, elem, w["offset"].as_u64()?),
                        direction: "window".to_string(),
                    })
                })
                .collect();
            HostWindows {
                windows,
                alloc_end: hw["alloc_end"].as_u64(),
                note: None,
            }
        });
        Ok(Entry {
            host,
            params,
            host_windows,
            window_bytes: (window_bytes * 2 + 4096).max(1 << 16),
        })
    }

    /// Where the module raises `message` with `code`: the source locations of every check with
    /// that code whose message starts `message` (the runtime appends `(seen: ...)`), once each.
    pub fn locate(&self, code: i64, message: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.requires {
            if r.code == code
                && !r.message.is_empty()
                && message.starts_with(&r.message)
                && !out.contains(&r.location)
            {
                out.push(r.location.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = r#"func.func @h(%inp: !pl.tensor<4x2xf32>, %n: i64) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b1 = pld.window_buffer {bytes = 96 : i64} : !pld.window_buffer
  %act = pld.window %b1 : !pld.dtensor<4x6xf32>
  %tail = "pld.window"(%b1) {offset = 48 : i64} : (!pld.window_buffer) -> !pld.dtensor<12xf16>
  return
}
"#;

    fn manifest() -> Manifest {
        let json = serde_json::json!({
            "format": "pld-build-manifest", "version": 1, "arch": null,
            "entries": [{
                "symbol": "h", "rail": "host",
                "parameters": [
                    {"index": 0, "type": "!pl.tensor<4x2xf32>", "kind": "tensor", "shape": [4, 2], "element_type": "f32", "direction": "in"},
                    {"index": 1, "type": "i64", "kind": "scalar", "shape": null, "element_type": "i64", "direction": "in"},
                ],
                "host_windows": {"static_layout": true, "alloc_end": 96, "buffer_bytes": 128, "windows": [
                    {"offset": 0, "type": "!pld.dtensor<4x6xf32>", "shape": [4, 6], "element_type": "f32"},
                    {"offset": 48, "type": "!pld.dtensor<12xf16>", "shape": [12], "element_type": "f16"},
                ]},
            }],
            "requires": [
                {"code": 5, "message": "x: bad", "location": "m.mlir:7:5"},
                {"code": 5, "message": "y: other", "location": "m.mlir:8:5"},
                {"code": 5, "message": "x: bad", "location": "m.mlir:9:1"},
                {"code": 5, "message": "x: bad", "location": "m.mlir:7:5"},
            ],
        });
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("pld-run-manifest-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("manifest.json"), json.to_string()).unwrap();
        let m = Manifest::read(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        m
    }

    #[test]
    fn parameters_and_windows_are_named_from_the_source_text() {
        let e = manifest().entry("h", SOURCE).unwrap();
        assert!(e.host);
        let names: Vec<&str> = e.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["inp", "n"]);
        assert_eq!(e.params[0].kind, Kind::Tensor(vec![4, 2], Elem::F32));
        let hw = e.host_windows.unwrap();
        let got: Vec<(&str, &Kind)> = hw
            .windows
            .iter()
            .map(|p| (p.name.as_str(), &p.kind))
            .collect();
        // The generic form is named as the custom one.
        assert_eq!(
            got,
            [
                ("act", &Kind::HostWindow(vec![4, 6], Elem::F32, 0)),
                ("tail", &Kind::HostWindow(vec![12], Elem::F16, 48)),
            ]
        );
        assert_eq!(hw.alloc_end, Some(96));
        // Text without the names (a module given already lowered): arg<N> / window<k>.
        let e = manifest()
            .entry("h", &SOURCE.replace("%inp", "%0").replace("%act", "%1"))
            .unwrap();
        assert_eq!(e.params[0].name, "arg0");
        assert_eq!(e.host_windows.unwrap().windows[0].name, "window0");
        // Neither an entry nor a function.
        let err = manifest().entry("g", SOURCE).err().unwrap();
        assert!(err.contains("has no function @g"), "{err}");
    }

    /// A window the manifest cannot place (no static shape) is skipped without shifting the
    /// names of the ones after it: names go by position among all the `pld.window`s.
    #[test]
    fn an_unplaced_window_does_not_shift_the_names_after_it() {
        let mut m = manifest();
        m.json["entries"][0]["host_windows"]["windows"][0] = serde_json::json!(
            {"offset": null, "type": "!pld.dtensor<?x6xf32>", "shape": null, "element_type": "f32"}
        );
        let hw = m.entry("h", SOURCE).unwrap().host_windows.unwrap();
        let names: Vec<&str> = hw.windows.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["tail"]);
    }

    #[test]
    fn messages_are_located_by_code_and_prefix_once_each() {
        let m = manifest();
        assert_eq!(
            m.locate(5, "x: bad (seen: a=1)"),
            ["m.mlir:7:5", "m.mlir:9:1"]
        );
        assert!(m.locate(4, "x: bad").is_empty());
        assert!(m.locate(5, "z").is_empty());
    }
}
