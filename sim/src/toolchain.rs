//! From a case's module to a simulator binary: pld-opt, pld-translate, g++, with a content-hash
//! cache under `<root>/target/pld-sim-cache` (docs/sim.md).
//!
//! Cache layout (every entry is written under a temporary name and renamed into place, so
//! concurrent pld-sim processes never see half an entry; a per-key lock file keeps them from
//! doing the same work twice):
//!
//! ```text
//! trees/<key>/   key = hash(module text, pld-opt and pld-translate identity, sim/src/kernels/*)
//!   input.mlir, kernels/*.cpp, lowered.mlir, tree/ (pld-translate's output), outcome
//! obj/<key>.o    key = hash(compiler identity, flags, source text, runtime/include/**, sim/src/driver/*.h)
//! bin/<key>      key = hash(compiler identity, link flags, the object keys)
//! multi/<key>/   key = hash(the trees' paths): the kernel table of a `domains` case's simulator
//! ```

use crate::SimError;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::UNIX_EPOCH;

use crate::chip_pipeline::CHIP_FN;

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
/// (shared with pld-run's cache, `crate::runner::build`).
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

fn output_text(out: &Output) -> String {
    let mut s = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !stdout.trim().is_empty() {
        s.push_str(&stdout);
    }
    s.trim_end().to_string()
}

/// One translation unit of the simulator binary.
/// The runtime's translation units (relative to the checkout), compiled into every binary that
/// runs kernels.
pub(crate) const RUNTIME_SOURCES: &[&str] = &[
    "runtime/host/runtime.cpp",
    "runtime/host/device.cpp",
    "runtime/host/orchestration_api.cpp",
];

pub(crate) struct Unit {
    /// What it is, for error messages.
    pub what: String,
    /// The C++ source.
    pub source: PathBuf,
    /// Its own flags (after the shared ones).
    pub flags: Vec<String>,
}

/// A built simulator: the binary and the kernels it holds.
#[derive(Clone, Debug)]
pub struct Simulator {
    /// The simulator executable.
    pub binary: PathBuf,
    /// The kernels it links, by symbol.
    pub kernels: Vec<String>,
}

impl Toolchain {
    /// The repository root from `$PLD_SIM_ROOT`, else the build-time one (the parent of this
    /// crate's `sim/`); the tools from the running executable's directory.
    pub fn discover() -> Result<Toolchain, SimError> {
        let exe = std::env::current_exe().map_err(|e| {
            SimError::Toolchain(format!("cannot locate the running executable: {e}"))
        })?;
        let tools = exe
            .parent()
            .ok_or(SimError::Toolchain(
                "the executable has no directory".into(),
            ))?
            .to_path_buf();
        Toolchain::with_tools(tools)
    }

    /// pld-run's cache: `$PLD_SIM_ROOT/target/pld-sim-cache`, as pld-sim's, when that is set;
    /// else a per-user cache directory, `$XDG_CACHE_HOME/pld-run` or `$HOME/.cache/pld-run`, so a
    /// user's runs never write into the checkout pld-run was built from.
    pub fn with_user_cache(mut self) -> Toolchain {
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
    pub fn with_tools(tools: PathBuf) -> Result<Toolchain, SimError> {
        Toolchain::locate(tools).map_err(SimError::Toolchain)
    }

    fn locate(tools: PathBuf) -> Result<Toolchain, String> {
        let root = std::env::var_os(ROOT_ENV)
            .map(PathBuf::from)
            .unwrap_or_else(repo_root);
        for need in [
            "runtime/include/pld_runtime/host.h",
            "runtime/host/runtime.cpp",
            "sim/src/driver/driver.cpp",
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

    fn link_flags(&self) -> Vec<String> {
        let mut f: Vec<String> = vec!["-std=c++17".into(), "-O2".into(), "-pthread".into()];
        f.extend(self.extra_flags.iter().cloned());
        f
    }

    fn base_flags(&self) -> Vec<String> {
        let mut f = self.link_flags();
        f.push(format!("-I{}", self.root.join("runtime/include").display()));
        f.push(format!(
            "-I{}",
            self.root.join("runtime/include/device").display()
        ));
        f.push(format!("-I{}", self.root.join("sim/src/driver").display()));
        f
    }

    /// Lowers and translates a module (cached by content). Returns the build tree's directory:
    /// `<tree>/next_levels/chip_pipeline/...`.
    pub fn translate(&self, module: &str) -> Result<PathBuf, BuildError> {
        self.translate_with(module, "sim/src/kernels")
    }

    /// As [`Toolchain::translate`], with the user kernels' sources copied from `kernels_dir`
    /// (relative to the root) into the module's `kernels/` (the family's module uses
    /// `sim/src/family/kernels`). The tree key hashes their names and text, not the directory.
    pub fn translate_with(&self, module: &str, kernels_dir: &str) -> Result<PathBuf, BuildError> {
        let pld_opt = self.tool("pld-opt")?;
        let pld_translate = self.tool("pld-translate")?;
        let kernels = read_tree(&self.root.join(kernels_dir))?;
        let mut h = ContentHash::new("pld-sim tree v1");
        h.part(module.as_bytes())
            .part(identity(&pld_opt)?.as_bytes())
            .part(identity(&pld_translate)?.as_bytes())
            .part(template_override_identity()?.as_bytes());
        for (name, text) in &kernels {
            h.part(name.as_bytes()).part(text);
        }
        let key = h.hex();
        let dir = self.cache.join("trees").join(&key);
        let _lock = lock_key(&self.cache, &format!("tree-{key}"))?;
        if !dir.join("outcome").is_file() {
            fs::create_dir_all(self.cache.join("trees"))?;
            let tmp = temp_beside(&dir);
            let result = self.translate_into(&tmp, module, &kernels, &pld_opt, &pld_translate);
            if let Err(e) = result {
                let _ = fs::remove_dir_all(&tmp);
                return Err(e);
            }
            fs::rename(&tmp, &dir)?;
        }
        let outcome = fs::read_to_string(dir.join("outcome"))?;
        if let Some(code) = outcome.strip_prefix("compile_error ") {
            let message = fs::read_to_string(dir.join("diagnostics.txt"))?;
            return Err(BuildError::Compile {
                code: code.trim().parse().unwrap_or(1),
                message,
            });
        }
        Ok(dir.join("tree"))
    }

    /// pld-opt then pld-translate in `dir` (a fresh directory). A rejection is an outcome, not an
    /// error: it is cached as `outcome` = `compile_error <code>` with `diagnostics.txt`.
    fn translate_into(
        &self,
        dir: &Path,
        module: &str,
        kernels: &[(String, Vec<u8>)],
        pld_opt: &Path,
        pld_translate: &Path,
    ) -> Result<(), BuildError> {
        fs::create_dir_all(dir.join("kernels"))?;
        fs::write(dir.join("input.mlir"), module)?;
        for (name, text) in kernels {
            fs::write(dir.join("kernels").join(name), text)?;
        }
        let reject = |tool: &str, out: &Output| -> Result<(), BuildError> {
            let code = out.status.code().unwrap_or(-1) as i64;
            fs::write(
                dir.join("diagnostics.txt"),
                format!("{tool}: {}", output_text(out)),
            )?;
            fs::write(dir.join("outcome"), format!("compile_error {code}\n"))?;
            Ok(())
        };
        let out = Command::new(pld_opt)
            .current_dir(dir)
            .args([
                "--pld-lower-collectives",
                "input.mlir",
                "-o",
                "lowered.mlir",
            ])
            .output()
            .map_err(|e| internal(format!("cannot run {}: {e}", pld_opt.display())))?;
        if !out.status.success() {
            return reject("pld-opt --pld-lower-collectives", &out);
        }
        let out = Command::new(pld_translate)
            .current_dir(dir)
            .args([
                "--pld-to-ascend-build",
                "--output-dir",
                "tree",
                "lowered.mlir",
            ])
            .output()
            .map_err(|e| internal(format!("cannot run {}: {e}", pld_translate.display())))?;
        if !out.status.success() {
            return reject("pld-translate --pld-to-ascend-build", &out);
        }
        fs::write(dir.join("outcome"), "ok\n")?;
        Ok(())
    }

    /// Compiles (cached per object) and links the simulator for a translated tree.
    pub fn simulator(&self, tree: &Path) -> Result<Simulator, BuildError> {
        self.simulator_for(&[tree.to_path_buf()])
    }

    /// The simulator of a `domains` case: one translated tree per domain, linked into one binary.
    /// Tree i's `chip_pipeline` orchestration and its ChipEntry (the tree's `chip_entries.cpp`) are
    /// compiled with their symbols renamed to `pld_sim_pipeline_<i>[_entry|_config|...]` (entry i
    /// of the table's `pld_sim_pipelines`); the kernels are the union of the trees' (a kernel of one
    /// name must have the same source in every tree: the builtin is rendered per dtype only, the
    /// user kernels are sim/src/kernels/*). The table is written under `<cache>/multi/<key>/`.
    pub fn simulator_multi(&self, trees: &[PathBuf]) -> Result<Simulator, BuildError> {
        if trees.is_empty() {
            return Err(internal("no tree to link"));
        }
        self.simulator_for(trees)
    }

    fn simulator_for(&self, trees: &[PathBuf]) -> Result<Simulator, BuildError> {
        let single = trees.len() == 1;
        // Kernel name -> its source (the first tree holding it).
        let mut sources: std::collections::BTreeMap<String, PathBuf> =
            std::collections::BTreeMap::new();
        let mut orchs = Vec::new();
        for tree in trees {
            let sub = tree.join("next_levels").join(CHIP_FN);
            let orch = sub.join("orchestration").join(format!("{CHIP_FN}.cpp"));
            if !orch.is_file() {
                return Err(internal(format!(
                    "pld-translate wrote no {}",
                    orch.display()
                )));
            }
            orchs.push(orch);
            let config = fs::read_to_string(sub.join("kernel_config.py")).map_err(|e| {
                internal(format!("{}: {e}", sub.join("kernel_config.py").display()))
            })?;
            let aiv = sub.join("kernels").join("aiv");
            let mut names = Vec::new();
            for e in fs::read_dir(&aiv).map_err(|e| internal(format!("{}: {e}", aiv.display())))? {
                let p = e?.path();
                if p.extension().is_some_and(|x| x == "cpp")
                    && let Some(stem) = p.file_stem().and_then(|s| s.to_str())
                {
                    names.push(stem.to_string());
                }
            }
            names.sort();
            for k in names {
                if !config.contains(&format!("\"{k}\"")) && !config.contains(&format!("'{k}'")) {
                    return Err(internal(format!(
                        "kernel {k} of {} is not named in kernel_config.py",
                        aiv.display()
                    )));
                }
                if !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(internal(format!("kernel name {k:?} is not an identifier")));
                }
                let src = aiv.join(format!("{k}.cpp"));
                match sources.get(&k) {
                    Some(prev) => {
                        if fs::read(prev)? != fs::read(&src)? {
                            return Err(internal(format!(
                                "kernel {k} differs between {} and {}: the domains' pipelines cannot share one simulator",
                                prev.display(),
                                src.display()
                            )));
                        }
                    }
                    None => {
                        sources.insert(k, src);
                    }
                }
            }
        }
        let kernels: Vec<String> = sources.keys().cloned().collect();
        // The pipelines' symbols: tree i's ChipEntry `pld_chip_chip_pipeline` and its
        // orchestration's two entry points are renamed to `pld_sim_pipeline_<i>[_entry|_config]`
        // on the command line, so several trees link into one binary.
        let pipeline = |i: usize| format!("pld_sim_pipeline_{i}");
        let chip_entry = format!("pld_chip_{CHIP_FN}");

        // The kernel table: one entry per kernel, entry symbols renamed on the command line; and
        // the pipeline table.
        let symbol = |k: &str| format!("pld_sim_kernel_{k}");
        let mut table = String::from(
            "// Generated by pld-sim: the kernels of this tree.\n#include \"kernel_table.h\"\n",
        );
        for k in &kernels {
            let _ = writeln!(table, "extern \"C\" void {}(int64_t*);", symbol(k));
        }
        table.push_str("extern const PldSimKernel pld_sim_kernels[] = {\n");
        for k in &kernels {
            let _ = writeln!(table, "    {{\"{k}\", &{}}},", symbol(k));
        }
        if kernels.is_empty() {
            table.push_str("    {nullptr, nullptr},\n");
        }
        let _ = writeln!(
            table,
            "}};\nextern const int pld_sim_kernel_count = {};",
            kernels.len()
        );
        for i in 0..orchs.len() {
            let _ = writeln!(table, "extern const pld::rt::ChipEntry {};", pipeline(i));
        }
        table.push_str("extern const pld::rt::ChipEntry* const pld_sim_pipelines[] = {");
        for i in 0..orchs.len() {
            let _ = write!(table, "{}&{}", if i == 0 { "" } else { ", " }, pipeline(i));
        }
        let _ = writeln!(
            table,
            "}};\nextern const int pld_sim_pipeline_count = {};",
            orchs.len()
        );
        let table_dir = if single {
            trees[0].clone()
        } else {
            let mut h = ContentHash::new("pld-sim multi v1");
            for t in trees {
                h.part(t.to_string_lossy().as_bytes());
            }
            let dir = self.cache.join("multi").join(h.hex());
            fs::create_dir_all(&dir)?;
            dir
        };
        let table_path = table_dir.join("pld_sim_kernel_table.cpp");
        if fs::read_to_string(&table_path).ok().as_deref() != Some(table.as_str()) {
            let tmp = temp_beside(&table_path);
            fs::write(&tmp, &table)?;
            fs::rename(&tmp, &table_path)?;
        }

        let mut units: Vec<Unit> = RUNTIME_SOURCES
            .iter()
            .map(|src| Unit {
                what: "runtime".into(),
                source: self.root.join(src),
                flags: vec![],
            })
            .collect();
        units.extend([Unit {
            what: "driver".into(),
            source: self.root.join("sim/src/driver/driver.cpp"),
            flags: vec![],
        }]);
        for (i, (orch, tree)) in orchs.into_iter().zip(trees).enumerate() {
            let p = pipeline(i);
            units.push(Unit {
                what: format!("orchestration {i}"),
                source: orch,
                flags: vec![
                    format!("-Daicpu_orchestration_entry={p}_entry"),
                    format!("-Daicpu_orchestration_config={p}_config"),
                ],
            });
            units.push(Unit {
                what: format!("chip entries {i}"),
                source: tree.join("chip_entries.cpp"),
                flags: vec![
                    format!("-D{chip_entry}={p}"),
                    format!("-D{chip_entry}_entry={p}_entry"),
                    format!("-D{chip_entry}_config={p}_config"),
                    format!("-D{chip_entry}_kernels={p}_kernels"),
                    format!("-D{chip_entry}_collectives={p}_collectives"),
                ],
            });
        }
        units.push(Unit {
            what: "kernel table".into(),
            source: table_path,
            flags: vec![],
        });
        for (k, src) in &sources {
            units.push(Unit {
                what: format!("kernel {k}"),
                source: src.clone(),
                flags: vec![format!("-Dkernel_entry={}", symbol(k))],
            });
        }
        let objects = self.compile_all(&units)?;
        let binary = self.link(&objects)?;
        Ok(Simulator { binary, kernels })
    }

    /// Links objects into a simulator binary (cached by the compiler identity, the link flags
    /// and the object keys).
    pub(crate) fn link(&self, objects: &[PathBuf]) -> Result<PathBuf, BuildError> {
        let mut h = ContentHash::new("pld-sim bin v2");
        h.part(self.cxx_identity().as_bytes());
        for f in self.link_flags() {
            h.part(f.as_bytes());
        }
        for o in objects {
            h.part(o.to_string_lossy().as_bytes());
        }
        let key = h.hex();
        let binary = self.cache.join("bin").join(&key);
        if !binary.is_file() {
            fs::create_dir_all(self.cache.join("bin"))?;
            let _lock = lock_key(&self.cache, &format!("bin-{key}"))?;
            if !binary.is_file() {
                let tmp = temp_beside(&binary);
                let out = Command::new(&self.cxx)
                    .args(self.link_flags())
                    .args(objects)
                    .arg("-o")
                    .arg(&tmp)
                    .output()
                    .map_err(|e| internal(format!("cannot run {}: {e}", self.cxx)))?;
                if !out.status.success() {
                    let _ = fs::remove_file(&tmp);
                    return Err(internal(format!(
                        "linking the simulator failed:\n{}",
                        output_text(&out)
                    )));
                }
                fs::rename(&tmp, &binary)?;
            }
        }
        Ok(binary)
    }

    /// Compiles every unit not yet in the object cache, in parallel; returns the object paths
    /// in unit order.
    pub(crate) fn compile_all(&self, units: &[Unit]) -> Result<Vec<PathBuf>, BuildError> {
        let mut headers = ContentHash::new("pld-sim headers v1");
        for dir in ["runtime/include", "sim/src/driver"] {
            for (name, text) in read_tree(&self.root.join(dir))? {
                if name.ends_with(".h") || name.ends_with(".hpp") {
                    headers
                        .part(dir.as_bytes())
                        .part(name.as_bytes())
                        .part(&text);
                }
            }
        }
        fs::create_dir_all(self.cache.join("obj"))?;
        let mut objects = Vec::new();
        let mut pending: Vec<(String, PathBuf, PathBuf, KeyLock, Child)> = Vec::new();
        for u in units {
            let text = fs::read(&u.source)
                .map_err(|e| internal(format!("{}: {e}", u.source.display())))?;
            let mut flags = self.base_flags();
            flags.extend(u.flags.iter().cloned());
            let mut h = ContentHash::new("pld-sim obj v2");
            h.part(self.cxx_identity().as_bytes())
                .part(headers.hex().as_bytes())
                .part(&text);
            for f in &flags {
                h.part(f.as_bytes());
            }
            let key = h.hex();
            let obj = self.cache.join("obj").join(format!("{key}.o"));
            objects.push(obj.clone());
            if obj.is_file() {
                continue;
            }
            let lock = lock_key(&self.cache, &format!("obj-{key}"))?;
            if obj.is_file() {
                continue;
            }
            let tmp = temp_beside(&obj);
            let child = Command::new(&self.cxx)
                .args(&flags)
                .arg("-c")
                .arg(&u.source)
                .arg("-o")
                .arg(&tmp)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| internal(format!("cannot run {}: {e}", self.cxx)))?;
            pending.push((u.what.clone(), tmp, obj, lock, child));
        }
        let mut failures = Vec::new();
        for (what, tmp, obj, lock, child) in pending {
            let out = child.wait_with_output()?;
            if out.status.success() {
                fs::rename(&tmp, &obj)?;
            } else {
                let _ = fs::remove_file(&tmp);
                failures.push(format!(
                    "compiling the {what} failed:\n{}",
                    output_text(&out)
                ));
            }
            drop(lock);
        }
        if failures.is_empty() {
            Ok(objects)
        } else {
            Err(internal(failures.join("\n")))
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
