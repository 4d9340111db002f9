//! Where the tools, the runtime sources, the compiler and the content-hash cache
//! (`<root>/target/pld-sim-cache`, docs/sim.md) are, and the cache's primitives: keys, locks,
//! temp-and-rename. What is built there (trees, objects, runners) is `crate::build`'s.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::UNIX_EPOCH;

/// Environment variable overriding the repository root (where runtime/, sim/ and target/ are).
pub const ROOT_ENV: &str = "PLD_SIM_ROOT";
/// Environment variable with extra C++ compile and link flags for the simulator.
pub const CXXFLAGS_ENV: &str = "PLD_SIM_CXXFLAGS";

/// 128-bit FNV-1a over length-framed parts.
#[derive(Clone)]
pub struct ContentHash(u128);

impl ContentHash {
    /// A hash seeded with `domain` (what is keyed).
    pub fn new(domain: &str) -> ContentHash {
        let mut h = ContentHash(0x6c62272e07bb014262b821756295c58d);
        h.part(domain.as_bytes());
        h
    }
    fn bytes(&mut self, data: &[u8]) {
        const PRIME: u128 = 0x0000000001000000000000000000013B;
        for &b in data {
            self.0 = (self.0 ^ b as u128).wrapping_mul(PRIME);
        }
    }
    /// Adds one length-framed part.
    pub fn part(&mut self, data: &[u8]) -> &mut ContentHash {
        self.bytes(&(data.len() as u64).to_le_bytes());
        self.bytes(data);
        self
    }
    /// The hash as 32 hex digits.
    pub fn hex(&self) -> String {
        format!("{:032x}", self.0)
    }
}

/// The repository root at build time: the workspace root, the parent of this crate's directory
/// (which holds `runtime/`, `templates/` and the shared `target/`).
fn repo_root() -> PathBuf {
    let sim = Path::new(env!("CARGO_MANIFEST_DIR"));
    sim.parent().unwrap_or(sim).to_path_buf()
}

/// Where things are.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// The repository root: runtime/, sim/, templates/.
    pub root: PathBuf,
    /// Directory holding pld-opt and pld-translate (the one pld-sim runs from).
    pub tools: PathBuf,
    /// The content-hash cache (`<root>/target/pld-sim-cache`).
    pub cache: PathBuf,
    /// C++ compiler ($CXX, default g++).
    pub cxx: String,
    /// Extra compile and link flags ($PLD_SIM_CXXFLAGS, whitespace-separated; e.g.
    /// `-fsanitize=thread -g`), after `-std=c++17 -O2 -pthread`.
    pub extra_flags: Vec<String>,
    /// Run the ranks as threads of one process (`--ranks-as threads`, or `$PLD_SIM_RANKS_AS` =
    /// `threads`) instead of one process per rank (the default).
    pub ranks_as_threads: bool,
    /// Print the build's progress on stderr (pld-run's; pld-sim builds quietly).
    pub progress: bool,
    /// What identifies the compiler in the object and binary keys (see [`Toolchain::cxx_identity`]).
    cxx_id: std::sync::OnceLock<String>,
}

/// Why a build stopped.
#[derive(Debug)]
pub enum BuildError {
    /// pld-opt or pld-translate rejected the module (their exit code and diagnostics).
    Compile {
        /// The tool's exit code.
        code: i64,
        /// Its diagnostics.
        message: String,
    },
    /// Anything else (missing tool, I/O, a C++ compile failure of the generated tree).
    Internal(String),
}

impl From<std::io::Error> for BuildError {
    fn from(e: std::io::Error) -> BuildError {
        BuildError::Internal(e.to_string())
    }
}

fn internal(msg: impl Into<String>) -> BuildError {
    BuildError::Internal(msg.into())
}

static UNIQUE: AtomicU64 = AtomicU64::new(0);

/// A fresh name next to `path` for writing an entry before renaming it into place
/// (shared with pld-run's cache, `crate::build`).
pub(crate) fn temp_beside(path: &Path) -> PathBuf {
    let n = UNIQUE.fetch_add(1, Ordering::Relaxed);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp.{}.{n}", std::process::id()));
    path.with_file_name(name)
}

/// Holds an exclusive lock on `<cache>/locks/<key>` while alive.
pub(crate) struct KeyLock(#[allow(dead_code)] fs::File);

/// Locks `<cache>/locks/<key>` (blocking), so concurrent processes never build one key twice.
pub(crate) fn lock_key(cache: &Path, key: &str) -> std::io::Result<KeyLock> {
    let dir = cache.join("locks");
    fs::create_dir_all(&dir)?;
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(key))?;
    file.lock()?;
    Ok(KeyLock(file))
}

/// What identifies a tool binary in a cache key: its path, size and modification time.
pub(crate) fn identity(path: &Path) -> std::io::Result<String> {
    let meta = fs::metadata(path)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    let mtime = meta
        .modified()?
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    Ok(format!("{}:{}:{mtime}", path.display(), meta.len()))
}

/// What pld-translate renders builtin kernels from besides its own binary: empty, or (when
/// `PLD_DEV_TEMPLATE_DIR` points it at a template tree, docs/codegen.md) a hash of that tree's
/// files, so a cached rendering never outlives an edited template.
pub(crate) fn template_override_identity() -> Result<String, BuildError> {
    let Some(dir) = std::env::var_os(pld::TEMPLATE_DIR_ENV).filter(|d| !d.is_empty()) else {
        return Ok(String::new());
    };
    let mut h = ContentHash::new("pld templates v1");
    for (name, text) in read_tree(Path::new(&dir))? {
        h.part(name.as_bytes()).part(&text);
    }
    Ok(h.hex())
}

/// The files of a directory tree, sorted, as (relative path, contents).
fn read_tree(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, BuildError> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), BuildError> {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .map_err(|e| internal(format!("{}: {e}", dir.display())))?
            .collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out)?;
            } else {
                let rel = p
                    .strip_prefix(base)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, fs::read(&p)?));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    Ok(out)
}

/// The runtime's translation units (relative to the checkout), compiled into every binary that
/// runs kernels.
pub(crate) const RUNTIME_SOURCES: &[&str] = &[
    "runtime/host/runtime.cpp",
    "runtime/host/device.cpp",
    "runtime/host/orchestration_api.cpp",
];

impl Toolchain {
    /// The repository root from `$PLD_SIM_ROOT`, else the build-time one (the parent of this
    /// crate's directory); the tools from the running executable's directory.
    pub fn discover() -> Result<Toolchain, String> {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot locate the running executable: {e}"))?;
        let tools = exe
            .parent()
            .ok_or("the executable has no directory")?
            .to_path_buf();
        Toolchain::with_tools(tools)
    }

    /// pld-run's cache: `$PLD_SIM_ROOT/target/pld-sim-cache`, as pld-sim's, when that is set;
    /// else a per-user cache directory, `$XDG_CACHE_HOME/pld-run` or `$HOME/.cache/pld-run`, so a
    /// user's runs never write into the checkout pld-run was built from.
    pub fn with_user_cache(mut self) -> Toolchain {
        self.progress = true;
        if std::env::var_os(ROOT_ENV).is_some() {
            return self;
        }
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|v| !v.is_empty())
                    .map(|h| PathBuf::from(h).join(".cache"))
            });
        if let Some(base) = base {
            self.cache = base.join("pld-run");
        }
        self
    }

    /// As [`Toolchain::discover`], but with pld-opt and pld-translate taken from `tools` (for
    /// callers that are not pld-sim, e.g. the integration tests, which pass the directory of
    /// `CARGO_BIN_EXE_pld-sim`).
    pub fn with_tools(tools: PathBuf) -> Result<Toolchain, String> {
        let root = std::env::var_os(ROOT_ENV)
            .map(PathBuf::from)
            .unwrap_or_else(repo_root);
        for need in [
            "runtime/include/pld_runtime/host.h",
            "runtime/host/runtime.cpp",
            "runner/driver/driver.cpp",
        ] {
            if !root.join(need).is_file() {
                return Err(format!(
                    "{} has no {need} (set {ROOT_ENV} to the pld checkout)",
                    root.display()
                ));
            }
        }
        let cache = root.join("target").join("pld-sim-cache");
        let cxx = std::env::var("CXX")
            .ok()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "g++".into());
        let extra_flags = std::env::var(CXXFLAGS_ENV)
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from)
            .collect();
        Ok(Toolchain {
            root,
            tools,
            cache,
            cxx,
            extra_flags,
            ranks_as_threads: std::env::var("PLD_SIM_RANKS_AS").is_ok_and(|v| v == "threads"),
            progress: false,
            cxx_id: std::sync::OnceLock::new(),
        })
    }

    /// The compiler as the cache keys see it: `$CXX` as given, the executable it resolves to
    /// (path, size, mtime, following symlinks) and its `--version` / `-dumpmachine` output, so
    /// an upgraded compiler, another one earlier on `PATH` or an edited `$CXX` wrapper script
    /// never reuses objects another compiler built. Computed once per process.
    pub fn cxx_identity(&self) -> &str {
        self.cxx_id.get_or_init(|| {
            let mut id = self.cxx.clone();
            let exe = if self.cxx.contains('/') {
                Some(PathBuf::from(&self.cxx))
            } else {
                std::env::var_os("PATH").and_then(|paths| {
                    std::env::split_paths(&paths)
                        .map(|d| d.join(&self.cxx))
                        .find(|p| p.is_file())
                })
            };
            if let Some(exe) = exe
                && let Ok(i) = identity(&exe)
            {
                let _ = write!(id, "\n{i}");
            }
            for arg in ["--version", "-dumpmachine"] {
                if let Ok(out) = Command::new(&self.cxx)
                    .arg(arg)
                    .stdin(Stdio::null())
                    .output()
                {
                    let _ = write!(
                        id,
                        "\n{arg}: {}",
                        String::from_utf8_lossy(&out.stdout).trim()
                    );
                }
            }
            id
        })
    }

    /// The path of tool `name` (pld-opt, pld-translate) in [`Toolchain::tools`].
    pub fn tool(&self, name: &str) -> Result<PathBuf, BuildError> {
        let p = self.tools.join(name);
        if p.is_file() {
            Ok(p)
        } else {
            Err(internal(format!(
                "{name} not found next to pld-sim (looked for {}); build it with `cargo build`",
                p.display()
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ContentHash;

    #[test]
    fn hash_frames_its_parts() {
        let h = |parts: &[&str]| {
            let mut h = ContentHash::new("t");
            for p in parts {
                h.part(p.as_bytes());
            }
            h.hex()
        };
        assert_eq!(h(&["ab", "c"]), h(&["ab", "c"]));
        assert_ne!(h(&["ab", "c"]), h(&["a", "bc"]));
        assert_ne!(ContentHash::new("t").hex(), ContentHash::new("u").hex());
        assert_eq!(h(&[]).len(), 32);
    }
}
