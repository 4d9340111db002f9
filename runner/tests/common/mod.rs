//! What the pld-run tests share (`runner/tests/run.rs`, `runner/tests/examples.rs`): running pld-run,
//! scratch folders, `.npy` / `.npz` files, deterministic inputs, and [`goldens`], the examples'
//! references (once, for any rank count).

pub mod goldens;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use npyz::WriterBuilder;

pub const PLD_RUN: &str = env!("CARGO_BIN_EXE_pld-run");

/// pld-opt, from the root package: next to pld-run in the shared target directory, where pld-run
/// itself finds it (`cargo test` at the repository root builds both packages).
pub fn pld_opt() -> PathBuf {
    Path::new(PLD_RUN).with_file_name("pld-opt")
}

/// The repository root (examples/, runtime/).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// `CARGO_TARGET_TMPDIR/run/<name>-<pid>`, removed when the test passes.
pub struct Scratch(pub PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

pub fn scratch(name: &str) -> Scratch {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("run")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The generated C++'s flags in every test suite (lit's, test/lit.cfg.py): the generated code
/// stays warning-free, and the suites share one cache entry per unit.
pub const TEST_CXXFLAGS: &str = "-Wall -Wextra -Werror";

/// `XDG_CACHE_HOME` for pld-run in the tests: its per-user cache, `<this>/pld-run`, is a link to
/// the checkout's test cache (`target/pld-sim-cache`, lit's and pld-sim's), so every suite
/// compiles a unit once. (`the_build_cache_is_per_user_not_in_the_checkout` checks the real
/// per-user location with a home of its own.)
pub fn cache_home() -> PathBuf {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run-cache");
    let link = home.join("pld-run");
    let shared = root().join("target/pld-sim-cache");
    let linked = || std::fs::read_link(&link).is_ok_and(|to| to == shared);
    if !linked() {
        std::fs::create_dir_all(&shared).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        // An older layout's own folder goes; a link elsewhere (a moved target/) is replaced by
        // a rename, atomic for the tests that race to make it.
        if link.is_dir() && !link.is_symlink() {
            let _ = std::fs::remove_dir_all(&link);
        }
        let tmp = home.join(format!(
            "pld-run.{}.{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink(&shared, &tmp).unwrap();
        if let Err(e) = std::fs::rename(&tmp, &link) {
            let _ = std::fs::remove_file(&tmp);
            assert!(linked(), "{}: {e}", link.display());
        }
    }
    home
}

pub fn pld_run(args: &[String]) -> Out {
    let t0 = Instant::now();
    let out = Command::new(PLD_RUN)
        .args(args)
        .env("XDG_CACHE_HOME", cache_home())
        .env("PLD_SIM_CXXFLAGS", TEST_CXXFLAGS)
        .env_remove("PLD_SIM_ROOT")
        .output()
        .unwrap();
    let o = Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    eprintln!(
        "pld-run {} -> {} in {:.1?}",
        args.join(" "),
        o.code,
        t0.elapsed()
    );
    assert!(
        !o.stderr.contains("panicked"),
        "pld-run panicked:\n{}",
        o.stderr
    );
    o
}

pub fn expect_ok(o: &Out) {
    assert_eq!(o.code, 0, "stdout:\n{}\nstderr:\n{}", o.stdout, o.stderr);
}

pub fn example(name: &str) -> String {
    root()
        .join(format!("examples/{name}.mlir"))
        .display()
        .to_string()
}

pub fn kernels() -> String {
    format!(
        "--kernel-source-dir={}",
        root().join("runtime/examples").display()
    )
}

pub fn s(x: impl AsRef<str>) -> String {
    x.as_ref().to_string()
}

pub fn write_npy_f32(path: &Path, shape: &[u64], v: &[f32]) {
    let f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(f)
        .begin_nd()
        .unwrap();
    w.extend(v.iter().copied()).unwrap();
    w.finish().unwrap();
}

pub fn write_npz_f32(path: &Path, shape: &[u64], arrays: &[Vec<f32>]) {
    let mut npz = npyz::npz::NpzWriter::create(path).unwrap();
    for (i, a) in arrays.iter().enumerate() {
        let mut w = npz
            .array::<f32>(&format!("arr_{i}"), Default::default())
            .unwrap()
            .default_dtype()
            .shape(shape)
            .begin_nd()
            .unwrap();
        w.extend(a.iter().copied()).unwrap();
        w.finish().unwrap();
    }
}

pub fn read_npy_f32(path: &Path) -> Vec<f32> {
    read_npy(path)
}

/// A `.npy` file's elements, row-major.
pub fn read_npy<T: npyz::Deserialize>(path: &Path) -> Vec<T> {
    let f = std::fs::File::open(path).unwrap();
    npyz::NpyFile::new(std::io::BufReader::new(f))
        .unwrap()
        .into_vec()
        .unwrap()
}

/// Deterministic integer-valued inputs in [0, 30) (as tests/examples.rs).
pub fn inputs(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % 30) as f32
        })
        .collect()
}
pub fn read_npy_i32(path: &Path) -> Vec<i32> {
    read_npy(path)
}
