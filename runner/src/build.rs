//! From the user's module to a runner binary: `pld-opt --pld-lower-collectives` and
//! `pld-translate --pld-to-ascend-build` (cached per module), then g++ (cached per object and
//! per link), under `<root>/target/pld-sim-cache/run/` (the directory of pld-sim's cache,
//! [`Toolchain`]).
//!
//! ```text
//! run/index/<m>     m = hash(module file name and text, pld-opt and pld-translate identity,
//!                        the kernel directory): the kernel sources its tree copied (manifest.json)
//! run/trees/<key>/  key = hash(m, those kernel sources' contents)
//!   <name>.mlir, lowered.mlir, tree/ (with manifest.json), entry-<fn>.cpp
//! run/obj/<key>.o   key = hash(compiler identity, flags, source text, runtime/include/**)
//! run/obj/pch-<key>/ key = hash(compiler identity, shared flags, runtime/include/**, an include
//!                        block): prefix.h and its prefix.h.gch (generated units compile through it)
//! run/bin/<key>     key = hash(compiler identity, link flags, the object keys)
//! ```
//!
//! The cache primitives (temp-and-rename, per-key locks, tool identity) are `sim::toolchain`'s;
//! the compile-and-link step is pld-run's own (pld-sim's is tied to its fixed layout), keyed apart.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use crate::toolchain::{
    ContentHash, KeyLock, RUNTIME_SOURCES, Toolchain, identity, lock_key, temp_beside,
};

use crate::RunError;
use crate::manifest::Manifest;

/// A rendered build tree: where it is and its manifest.
pub struct Tree {
    /// The cache entry (`run/trees/<key>`).
    pub dir: PathBuf,
    /// What pld-translate wrote about it (`tree/manifest.json`).
    pub manifest: Manifest,
}

/// A tool's identity for a cache key.
fn tool_identity(path: &Path) -> Result<String, RunError> {
    identity(path).map_err(|e| RunError::Tool(e.to_string()))
}

fn output_text(out: &Output) -> String {
    let mut s = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !stdout.trim().is_empty() {
        s.push_str(&stdout);
    }
    s.trim_end().to_string()
}

fn run_dir(tc: &Toolchain) -> PathBuf {
    tc.cache.join("run")
}

/// A tree's key: the module's key and the content of every kernel source it copied (missing
/// ones count as missing), so an edited kernel is rendered again.
fn tree_key(module_key: &str, kernel_dir: &Path, sources: &[String]) -> String {
    let mut h = ContentHash::new("pld-run tree v2");
    h.part(module_key.as_bytes());
    for k in sources {
        h.part(k.as_bytes());
        match fs::read(kernel_dir.join(k)) {
            Ok(bytes) => h.part(b"present").part(&bytes),
            Err(_) => h.part(b"missing"),
        };
    }
    h.hex()
}

/// Lowers (with locations) and renders `text`, the module the user named `file_name`, with the
/// kernel sources under `kernel_dir`; cached by content. The module's key (its text, name, the
/// tools, the kernel directory) indexes the kernel sources its last rendering copied (from the
/// manifest); the tree's key adds their contents. A module pld-opt or pld-translate rejects is
/// not cached.
pub fn translate(
    tc: &Toolchain,
    file_name: &str,
    text: &str,
    kernel_dir: &Path,
) -> Result<Tree, RunError> {
    let pld_opt = tc.tool("pld-opt").map_err(RunError::from_build)?;
    let pld_translate = tc.tool("pld-translate").map_err(RunError::from_build)?;
    let mut h = ContentHash::new("pld-run module v2");
    h.part(file_name.as_bytes())
        .part(text.as_bytes())
        .part(tool_identity(&pld_opt)?.as_bytes())
        .part(tool_identity(&pld_translate)?.as_bytes())
        .part(
            crate::toolchain::template_override_identity()
                .map_err(RunError::from_build)?
                .as_bytes(),
        )
        .part(kernel_dir.to_string_lossy().as_bytes());
    let module_key = h.hex();
    let trees = run_dir(tc).join("trees");
    let index = run_dir(tc).join("index").join(&module_key);
    let known = |sources: &[String]| -> Option<Tree> {
        let dir = trees.join(tree_key(&module_key, kernel_dir, sources));
        let manifest = Manifest::read(&dir.join("tree")).ok()?;
        Some(Tree { dir, manifest })
    };
    let listed = |path: &Path| -> Option<Vec<String>> {
        let list = fs::read_to_string(path).ok()?;
        Some(list.lines().map(str::to_string).collect())
    };
    if let Some(tree) = listed(&index).and_then(|s| known(&s)) {
        return Ok(tree);
    }
    fs::create_dir_all(&trees)?;
    fs::create_dir_all(index.parent().unwrap_or(&trees))?;
    let _lock = lock_key(&run_dir(tc), &format!("module-{module_key}"))?;
    if let Some(tree) = listed(&index).and_then(|s| known(&s)) {
        return Ok(tree);
    }
    // A module pld-opt refused is refused again (pld-opt reads no kernel source; pld-translate's
    // refusals can depend on them and are not kept).
    let rejected = run_dir(tc).join("rejected").join(&module_key);
    if let Ok(text) = fs::read_to_string(&rejected)
        && let Some((code, message)) = text.split_once('\n')
    {
        return Err(RunError::Compile {
            code: code.parse().unwrap_or(1),
            message: message.to_string(),
        });
    }
    if tc.progress {
        eprintln!("pld-run: lowering and rendering {file_name}");
    }
    let tmp = temp_beside(&trees.join(&module_key));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp)?;
    let rendered = render_into(&tmp, file_name, text, kernel_dir, &pld_opt, &pld_translate)
        .and_then(|()| Manifest::read(&tmp.join("tree")));
    let manifest = match rendered {
        Ok(m) => m,
        Err(e) => {
            let _ = fs::remove_dir_all(&tmp);
            if let RunError::Compile { code, message } = &e
                && message.starts_with("pld-opt ")
            {
                fs::create_dir_all(run_dir(tc).join("rejected"))?;
                let t = temp_beside(&rejected);
                fs::write(&t, format!("{code}\n{message}"))?;
                fs::rename(&t, &rejected)?;
            }
            return Err(e);
        }
    };
    // The tree is keyed by the kernel sources' contents read now: a source saved while
    // pld-translate copied it would leave the old text under the new key, so the copies must be
    // what the sources hold.
    if let Some(changed) = manifest.kernel_copies().into_iter().find(|(source, copy)| {
        fs::read(kernel_dir.join(source)).ok() != fs::read(tmp.join("tree").join(copy)).ok()
    }) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(RunError::Tool(format!(
            "kernel source {} changed while pld-run was rendering it: run again",
            changed.0
        )));
    }
    let sources = manifest.kernel_sources();
    let dir = trees.join(tree_key(&module_key, kernel_dir, &sources));
    if dir.join("tree/manifest.json").is_file() {
        let _ = fs::remove_dir_all(&tmp);
    } else {
        let _ = fs::remove_dir_all(&dir);
        if let Err(e) = fs::rename(&tmp, &dir) {
            let _ = fs::remove_dir_all(&tmp);
            return Err(e.into());
        }
    }
    let list = temp_beside(&index);
    fs::write(&list, sources.join("\n"))?;
    fs::rename(&list, &index)?;
    Ok(Tree {
        manifest: Manifest::read(&dir.join("tree"))?,
        dir,
    })
}

fn render_into(
    dir: &Path,
    file_name: &str,
    text: &str,
    kernel_dir: &Path,
    pld_opt: &Path,
    pld_translate: &Path,
) -> Result<(), RunError> {
    fs::write(dir.join(file_name), text)?;
    let reject = |tool: &str, out: &Output| -> Result<(), RunError> {
        Err(RunError::Compile {
            code: out.status.code().unwrap_or(-1) as i64,
            message: format!("{tool}: {}", output_text(out)),
        })
    };
    let out = Command::new(pld_opt)
        .current_dir(dir)
        .args([
            "--pld-lower-collectives",
            "--mlir-print-debuginfo",
            file_name,
        ])
        .args(["-o", "lowered.mlir"])
        .output()
        .map_err(|e| RunError::Tool(format!("cannot run {}: {e}", pld_opt.display())))?;
    if !out.status.success() {
        return reject("pld-opt --pld-lower-collectives", &out);
    }
    let out = Command::new(pld_translate)
        .current_dir(dir)
        .args(["--pld-to-ascend-build", "--output-dir", "tree"])
        .arg("--kernel-source-dir")
        .arg(kernel_dir)
        .arg("lowered.mlir")
        .output()
        .map_err(|e| RunError::Tool(format!("cannot run {}: {e}", pld_translate.display())))?;
    if !out.status.success() {
        return reject("pld-translate --pld-to-ascend-build", &out);
    }
    Ok(())
}

/// One translation unit of the runner.
struct Unit {
    what: String,
    source: PathBuf,
    flags: Vec<String>,
    /// A generated unit: its include block is shared with other units (worth precompiling).
    generated: bool,
}

fn sorted_files(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, RunError> {
    let mut out = Vec::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries {
            let p = e?.path();
            if p.is_file() && p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn link_flags(tc: &Toolchain) -> Vec<String> {
    let mut f: Vec<String> = vec!["-std=c++17".into(), "-O2".into(), "-pthread".into()];
    f.extend(tc.extra_flags.iter().cloned());
    f
}

/// Compiles and links the runner of `tree` for the entries `functions` (`host`: one HOST
/// orchestrator, else CHIP orchestration functions, entry i of the engine's
/// `pld_run_chip_entries`). Returns the executable.
pub fn runner(
    tc: &Toolchain,
    tree: &Tree,
    functions: &[&str],
    host: bool,
) -> Result<PathBuf, RunError> {
    let out = tree.dir.join("tree");
    let entry = tree.dir.join(format!("entry-{}.cpp", functions.join("-")));
    let mut text = String::from(
        "// Generated by pld-run: the entries the engine calls.\n#include \"pld_runtime/host_entry.h\"\n",
    );
    let mut symbols = Vec::new();
    for function in functions {
        symbols.push(
            tree.manifest
                .c_symbol(function)
                .ok_or_else(|| RunError::Tool(format!("the manifest has no entry @{function}")))?,
        );
    }
    if host {
        let [c_symbol] = &symbols[..] else {
            return Err(RunError::Tool("a HOST runner has exactly one entry".into()));
        };
        let _ = writeln!(
            text,
            "extern \"C\" int {c_symbol}(pld::host::Host* host, const pld::host::HostArgs* args);\n\
             extern const pld::host::HostEntryFn pld_run_host_entry = &{c_symbol};\n\
             extern const pld::rt::ChipEntry* const pld_run_chip_entries[] = {{nullptr}};\n\
             extern const int pld_run_chip_entry_count = 0;"
        );
    } else {
        for c_symbol in &symbols {
            let _ = writeln!(
                text,
                "extern const pld::rt::ChipEntry pld_chip_{c_symbol};  // chip_entries.cpp"
            );
        }
        let list: Vec<String> = symbols.iter().map(|c| format!("&pld_chip_{c}")).collect();
        let _ = writeln!(
            text,
            "extern const pld::host::HostEntryFn pld_run_host_entry = nullptr;\n\
             extern const pld::rt::ChipEntry* const pld_run_chip_entries[] = {{{}}};\n\
             extern const int pld_run_chip_entry_count = {};",
            list.join(", "),
            symbols.len()
        );
    }
    if fs::read_to_string(&entry).ok().as_deref() != Some(text.as_str()) {
        let tmp = temp_beside(&entry);
        fs::write(&tmp, &text)?;
        fs::rename(&tmp, &entry)?;
    }
    let mut units: Vec<Unit> = RUNTIME_SOURCES
        .iter()
        .map(|src| Unit {
            what: "runtime".into(),
            source: tc.root.join(src),
            flags: vec![],
            generated: false,
        })
        .collect();
    units.extend([
        Unit {
            what: "driver".into(),
            source: tc.root.join("runner/driver/driver.cpp"),
            flags: vec![],
            generated: false,
        },
        Unit {
            what: "entry".into(),
            source: entry,
            flags: vec![],
            generated: true,
        },
    ]);
    if out.join("chip_entries.cpp").is_file() {
        units.push(Unit {
            what: "chip_entries.cpp".into(),
            source: out.join("chip_entries.cpp"),
            flags: vec![],
            generated: true,
        });
    }
    for h in sorted_files(&out.join("host"), "cpp")? {
        units.push(Unit {
            what: format!("HOST orchestrator {}", h.display()),
            source: h,
            flags: vec![],
            generated: true,
        });
    }
    let mut levels: Vec<PathBuf> = match fs::read_dir(out.join("next_levels")) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(_) => Vec::new(),
    };
    levels.sort();
    let mut kernels: std::collections::BTreeMap<String, PathBuf> = Default::default();
    for level in &levels {
        let level_name = level
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let renames = pld::orchestration_rename_flags(&level_name).to_vec();
        for o in sorted_files(&level.join("orchestration"), "cpp")? {
            units.push(Unit {
                what: format!("orchestration {}", o.display()),
                source: o,
                flags: renames.clone(),
                generated: true,
            });
        }
        for k in sorted_files(&level.join("kernels/aiv"), "cpp")? {
            let name = k
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_string();
            if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(RunError::Tool(format!(
                    "kernel name {name:?} is not an identifier"
                )));
            }
            // One name, one kernel: both rails and every sub-tree render a kernel's text alike.
            match kernels.get(&name) {
                Some(prev) if fs::read(prev)? != fs::read(&k)? => {
                    return Err(RunError::Tool(format!(
                        "kernel {name} differs between {} and {}: one runner registers one kernel per name",
                        prev.display(),
                        k.display()
                    )));
                }
                Some(_) => {}
                None => {
                    kernels.insert(name, k);
                }
            }
        }
    }
    // The kernel table: every kernel registered by its name (a device kernel has no registration
    // hook of its own; the entry symbol is renamed on the command line).
    let mut table = String::from(
        "// Generated by pld-run: the kernels of this tree, registered by name.\n#include <cstdint>\n\
         extern \"C\" int pld_rt_register_kernel(const char* name, void (*fn)(int64_t*));\n",
    );
    for name in kernels.keys() {
        let _ = writeln!(table, "extern \"C\" void pld_run_kernel_{name}(int64_t*);");
    }
    table.push_str("namespace {\nconst int pld_run_kernels_registered = [] {\n");
    for name in kernels.keys() {
        let _ = writeln!(
            table,
            "  pld_rt_register_kernel(\"{name}\", &pld_run_kernel_{name});"
        );
    }
    table.push_str("  return 0;\n}();\n}  // namespace\n");
    let table_path = tree.dir.join("kernels.cpp");
    if fs::read_to_string(&table_path).ok().as_deref() != Some(table.as_str()) {
        let tmp = temp_beside(&table_path);
        fs::write(&tmp, &table)?;
        fs::rename(&tmp, &table_path)?;
    }
    units.push(Unit {
        what: "kernel table".into(),
        source: table_path,
        flags: vec![],
        generated: true,
    });
    for (name, source) in kernels {
        units.push(Unit {
            what: format!("kernel {name}"),
            flags: vec![format!("-Dkernel_entry=pld_run_kernel_{name}")],
            source,
            generated: true,
        });
    }
    let objects = compile_all(tc, &units)?;

    let mut h = ContentHash::new("pld-run bin v1");
    h.part(tc.cxx_identity().as_bytes());
    for f in link_flags(tc) {
        h.part(f.as_bytes());
    }
    for o in &objects {
        h.part(o.to_string_lossy().as_bytes());
    }
    let key = h.hex();
    let bin_dir = run_dir(tc).join("bin");
    let binary = bin_dir.join(&key);
    if !binary.is_file() {
        fs::create_dir_all(&bin_dir)?;
        let _lock = lock_key(&run_dir(tc), &format!("bin-{key}"))?;
        if !binary.is_file() {
            if tc.progress {
                eprintln!("pld-run: linking");
            }
            let tmp = temp_beside(&binary);
            let out = Command::new(&tc.cxx)
                .args(link_flags(tc))
                .args(&objects)
                .arg("-o")
                .arg(&tmp)
                .output()
                .map_err(|e| RunError::Tool(format!("cannot run {}: {e}", tc.cxx)))?;
            if !out.status.success() {
                let _ = fs::remove_file(&tmp);
                return Err(RunError::Tool(format!(
                    "linking the runner failed:\n{}",
                    output_text(&out)
                )));
            }
            fs::rename(&tmp, &binary)?;
        }
    }
    Ok(binary)
}

/// The headers' hash: every `.h` and `.hpp` under runtime/include.
fn headers_hash(tc: &Toolchain) -> Result<String, RunError> {
    fn walk(base: &Path, dir: &Path, h: &mut ContentHash) -> Result<(), RunError> {
        let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, h)?;
            } else if p.extension().is_some_and(|x| x == "h" || x == "hpp") {
                let rel = p
                    .strip_prefix(base)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                h.part(rel.as_bytes()).part(&fs::read(&p)?);
            }
        }
        Ok(())
    }
    let mut h = ContentHash::new("pld-run headers v1");
    let inc = tc.root.join("runtime/include");
    walk(&inc, &inc, &mut h)?;
    Ok(h.hex())
}

/// The include block `text` opens with ([`pld::include_block`]), when a precompiled header of
/// it is the same translation unit for `source`: each quoted include names no file beside the
/// source (there, the source would find it first, the header in the cache would not).
fn shareable_block(source: &Path, text: &[u8]) -> Option<String> {
    let block = pld::include_block(std::str::from_utf8(text).ok()?)?;
    let dir = source.parent()?;
    let local = block.lines().any(|line| {
        line.split('"')
            .nth(1)
            .is_some_and(|name| dir.join(name).exists())
    });
    (!local).then_some(block)
}

/// Whether the compiler is GCC: only g++ checks a `.gch` against the macros a unit's command line
/// defines and compiles the header itself when one does not fit (clang would take it as is).
fn precompiles_safely(tc: &Toolchain) -> bool {
    let id = tc.cxx_identity();
    id.contains("Free Software Foundation") && !id.contains("clang")
}

/// The precompiled header of `block` for `flags` (`run/obj/pch-<key>/prefix.h`, its
/// `prefix.h.gch` beside it): g++ takes it for `-include prefix.h`, and compiles the header
/// itself instead when the `.gch` does not fit (an identifier the header uses defined as a
/// macro on the unit's command line), so using one never changes an object, only its cost:
/// the runtime's headers are most of a generated unit's compile (0.3 of 0.4 CPU-s for an
/// orchestration). None when it cannot be had: the units then compile without it (a header the
/// compiler refuses is remembered as `failed`; a kill or an I/O error is tried again next time).
fn precompiled_header(
    tc: &Toolchain,
    headers: &str,
    flags: &[String],
    block: &str,
) -> Option<PathBuf> {
    let mut h = ContentHash::new("pld-run pch v1");
    h.part(tc.cxx_identity().as_bytes())
        .part(headers.as_bytes())
        .part(block.as_bytes());
    for f in flags {
        h.part(f.as_bytes());
    }
    let key = h.hex();
    let dir = run_dir(tc).join("obj").join(format!("pch-{key}"));
    let (header, gch, failed) = (
        dir.join("prefix.h"),
        dir.join("prefix.h.gch"),
        dir.join("failed"),
    );
    if !gch.is_file() && !failed.is_file() {
        fs::create_dir_all(&dir).ok()?;
        let _lock = lock_key(&run_dir(tc), &format!("pch-{key}")).ok()?;
        if !gch.is_file() && !failed.is_file() {
            fs::write(&header, block).ok()?;
            // What built it, for whoever reads the cache.
            fs::write(dir.join("flags"), flags.join("\n") + "\n").ok()?;
            let tmp = temp_beside(&gch);
            let out = Command::new(&tc.cxx)
                .args(flags)
                .args(["-x", "c++-header"])
                .arg(&header)
                .arg("-o")
                .arg(&tmp)
                .output();
            let built =
                out.as_ref().is_ok_and(|o| o.status.success()) && fs::rename(&tmp, &gch).is_ok();
            if !built {
                let _ = fs::remove_file(&tmp);
                // The compiler's refusal (an exit status, not a signal) is remembered.
                if let Ok(o) = &out
                    && o.status.code().is_some_and(|c| c != 0)
                {
                    let _ = fs::write(&failed, output_text(o));
                }
            }
        }
    }
    gch.is_file().then_some(header)
}

/// Compiles every unit not yet in the object cache, in parallel, with a progress line. Units
/// that open with the same include block share its precompiled header.
fn compile_all(tc: &Toolchain, units: &[Unit]) -> Result<Vec<PathBuf>, RunError> {
    let headers = headers_hash(tc)?;
    let obj_dir = run_dir(tc).join("obj");
    fs::create_dir_all(&obj_dir)?;
    let mut common = link_flags(tc);
    common.push(format!("-I{}", tc.root.join("runtime/include").display()));
    common.push(format!(
        "-I{}",
        tc.root.join("runtime/include/device").display()
    ));
    let mut objects = Vec::new();
    let mut todo = Vec::new();
    let mut blocks = Vec::new();
    for u in units {
        let text = fs::read(&u.source)
            .map_err(|e| RunError::Tool(format!("{}: {e}", u.source.display())))?;
        let mut flags = common.clone();
        flags.extend(u.flags.iter().cloned());
        // The key leaves the precompiled header out: with or without it, one object.
        let mut h = ContentHash::new("pld-run obj v1");
        h.part(tc.cxx_identity().as_bytes())
            .part(headers.as_bytes())
            .part(&text);
        for f in &flags {
            h.part(f.as_bytes());
        }
        let key = h.hex();
        let obj = obj_dir.join(format!("{key}.o"));
        objects.push(obj.clone());
        if !obj.is_file() {
            blocks.push(shareable_block(&u.source, &text).filter(|_| u.generated));
            todo.push((u, key, obj, flags));
        }
    }
    // The precompiled headers those units need, built side by side before them.
    let mut distinct: Vec<&String> = blocks.iter().flatten().collect();
    distinct.sort();
    distinct.dedup();
    if !precompiles_safely(tc) {
        distinct.clear();
    }
    let pchs: std::collections::HashMap<&String, Option<PathBuf>> = std::thread::scope(|s| {
        let builds: Vec<_> = distinct
            .into_iter()
            .map(|b| (b, s.spawn(|| precompiled_header(tc, &headers, &common, b))))
            .collect();
        builds
            .into_iter()
            .map(|(b, build)| (b, build.join().ok().flatten()))
            .collect()
    });
    for ((_, _, _, flags), block) in todo.iter_mut().zip(&blocks) {
        if let Some(header) = block.as_ref().and_then(|b| pchs.get(b)?.as_ref()) {
            flags.splice(
                common.len()..common.len(),
                ["-include".into(), header.display().to_string()],
            );
        }
    }
    if !todo.is_empty() && tc.progress {
        eprintln!(
            "pld-run: compiling {} of {} C++ units (cached for the next run)",
            todo.len(),
            units.len()
        );
    }
    let mut pending: Vec<(String, PathBuf, PathBuf, KeyLock, Child)> = Vec::new();
    for (u, key, obj, flags) in todo {
        let lock = lock_key(&run_dir(tc), &format!("obj-{key}"))?;
        if obj.is_file() {
            continue;
        }
        let tmp = temp_beside(&obj);
        let child = Command::new(&tc.cxx)
            .args(&flags)
            .arg("-c")
            .arg(&u.source)
            .arg("-o")
            .arg(&tmp)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| RunError::Tool(format!("cannot run {}: {e}", tc.cxx)))?;
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
        Err(RunError::Tool(failures.join("\n")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_shared_unless_a_quoted_include_names_a_file_beside_the_source() {
        let dir = std::env::temp_dir().join(format!("pld-run-block-{}", std::process::id()));
        fs::create_dir_all(dir.join("sub")).unwrap();
        let source = dir.join("k.cpp");
        let text = b"// k\n#include <cstdint>\n#include \"sub/local.h\"\nint x;\n";
        let block = "#include <cstdint>\n#include \"sub/local.h\"\n";
        assert_eq!(shareable_block(&source, text).as_deref(), Some(block));
        // There, the source would include its own sub/local.h, the cache's prefix.h would not.
        fs::write(dir.join("sub/local.h"), "").unwrap();
        assert_eq!(shareable_block(&source, text), None);
        assert_eq!(shareable_block(&source, b"int x;\n"), None);
        let _ = fs::remove_dir_all(&dir);
    }
}
