//! Bytecode round trip over the whole lit suite: every `.mlir` under `test/`
//! (inputs under `Inputs/` too), split at `// -----` as `--split-input-file`
//! splits it. Each chunk `pld-opt` accepts is written as bytecode
//! (`pld-opt --emit-bytecode`), read back by `pld-opt`, and must print the
//! same text as the chunk itself. (Chunks `pld-opt` rejects, the invalid-IR
//! tests, are skipped; their `expected-*` comments are defused first so that
//! a valid chunk with an expected remark still counts.)

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{Mutex, atomic::AtomicUsize, atomic::Ordering},
    thread,
};

fn mlir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            mlir_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

/// The chunks of `text` as `--split-input-file` cuts them.
fn chunks(text: &str) -> Vec<String> {
    let mut chunks = vec![String::new()];
    for line in text.lines() {
        if line.trim_end() == "// -----" {
            chunks.push(String::new());
        } else {
            let chunk = chunks.last_mut().unwrap();
            chunk.push_str(line);
            chunk.push('\n');
        }
    }
    chunks
}

fn pld_opt(args: &[&Path], extra: &[&str]) -> Option<Vec<u8>> {
    let out = Command::new(env!("CARGO_BIN_EXE_pld-opt"))
        .args(args)
        .args(extra)
        .stderr(Stdio::piped())
        .output()
        .expect("pld-opt runs");
    out.status.success().then_some(out.stdout)
}

#[test]
fn bytecode_round_trip_of_the_lit_suite() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    mlir_files(&root.join("test"), &mut files);
    files.sort();
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bytecode");
    std::fs::create_dir_all(&work).unwrap();

    let mut jobs = Vec::new();
    for file in &files {
        // test/Driver/Inputs/binary.mlir is deliberately not text.
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for (index, chunk) in chunks(&text).into_iter().enumerate() {
            let name = file.strip_prefix(&root).unwrap().display().to_string();
            jobs.push((
                format!("{name} chunk {index}"),
                chunk.replace("expected-", "xpected-"),
            ));
        }
    }
    let total = jobs.len();
    let jobs = Mutex::new(jobs);
    let next = AtomicUsize::new(0);
    let accepted = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let workers = thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(4);
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let Some((name, chunk)) = jobs.lock().unwrap().pop() else {
                        return;
                    };
                    let id = next.fetch_add(1, Ordering::Relaxed);
                    let source = work.join(format!("{id}.mlir"));
                    let bytecode = work.join(format!("{id}.mlirbc"));
                    std::fs::write(&source, &chunk).unwrap();
                    let Some(text) = pld_opt(&[&source], &[]) else {
                        continue; // not a module pld-opt accepts
                    };
                    accepted.fetch_add(1, Ordering::Relaxed);
                    let written = Command::new(env!("CARGO_BIN_EXE_pld-opt"))
                        .arg(&source)
                        .arg("--emit-bytecode")
                        .arg("-o")
                        .arg(&bytecode)
                        .status()
                        .expect("pld-opt runs")
                        .success();
                    let read = if written {
                        pld_opt(&[&bytecode], &[])
                    } else {
                        None
                    };
                    let is_bytecode = std::fs::read(&bytecode)
                        .is_ok_and(|bytes| bytes.starts_with(b"ML\xefR"));
                    match read {
                        Some(back) if back == text && is_bytecode => {}
                        Some(back) => failures.lock().unwrap().push(format!(
                            "{name}: bytecode reads back differently\n--- text\n{}\n--- from bytecode\n{}",
                            String::from_utf8_lossy(&text),
                            String::from_utf8_lossy(&back)
                        )),
                        None => failures
                            .lock()
                            .unwrap()
                            .push(format!("{name}: --emit-bytecode or reading it back failed")),
                    }
                    let _ = std::fs::remove_file(&source);
                    let _ = std::fs::remove_file(&bytecode);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let accepted = accepted.into_inner();
    eprintln!(
        "{accepted} of {total} chunks of {} files round-tripped",
        files.len()
    );
    // The suite's valid IR is most of it: a broken split or driver would
    // skip everything and pass vacuously.
    assert!(
        accepted >= 200,
        "only {accepted} of {total} chunks accepted"
    );
}
