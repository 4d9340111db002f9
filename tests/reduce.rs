//! `pld-reduce` on docs/reducing.md's worked example: a 300-line module that
//! `--lower-l2-tensor-collectives` rejects (one of twelve layers feeds its
//! all_to_all_v a transposed view), reduced with the documented command
//! (`--reduction-tree='traversal-mode=0 test=interesting.sh'`, three rounds,
//! then `--opt-reduction-pass` with canonicalize and symbol-dce). The output
//! still fails the same way and is at most 40% of the input's lines.

use std::{path::PathBuf, process::Command};

const ERROR: &str =
    "error: 'pld.tensor.all_to_all_v' op operand 'input' is not provably contiguous";

fn lower(file: &std::path::Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pld-opt"))
        .arg("--lower-l2-tensor-collectives")
        .arg(file)
        .output()
        .expect("pld-opt runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn reduce_worked_example() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reduce");
    let input = dir.join("rejected.mlir");
    let script = dir.join("interesting.sh");
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reduce");
    std::fs::create_dir_all(&out_dir).unwrap();
    let output = out_dir.join("reduced.mlir");

    let (ok, errors) = lower(&input);
    assert!(!ok && errors.contains(ERROR), "the input fails: {errors}");

    let tree = format!(
        "--reduction-tree=traversal-mode=0 test={}",
        script.display()
    );
    let status = Command::new(env!("CARGO_BIN_EXE_pld-reduce"))
        .arg(&input)
        .args([&tree, &tree, &tree])
        .arg(format!(
            "--opt-reduction-pass=opt-pass=canonicalize,symbol-dce test={}",
            script.display()
        ))
        .arg("-o")
        .arg(&output)
        .env("PLD_OPT", env!("CARGO_BIN_EXE_pld-opt"))
        .stderr(std::process::Stdio::null()) // the rejected candidates' verifier errors
        .status()
        .expect("pld-reduce runs");
    assert!(status.success(), "pld-reduce: {status}");

    let reduced = std::fs::read_to_string(&output).unwrap();
    let (ok, errors) = lower(&output);
    assert!(
        !ok && errors.contains(ERROR),
        "the output fails the same way: {errors}\n{reduced}"
    );

    let lines = |text: &str| text.lines().filter(|l| !l.trim().is_empty()).count();
    let before = lines(&std::fs::read_to_string(&input).unwrap());
    let after = lines(&reduced);
    assert!(
        after * 10 <= before * 4,
        "{after} of {before} lines is more than 40%:\n{reduced}"
    );
    // What the pl/pld reduction patterns allow the tree to drop: the other
    // layers, the allreduce loop (its result replaced by its window), the
    // stage kernel (its results forwarded to the operands it returns).
    assert_eq!(reduced.matches("func.func @layer_").count(), 1, "{reduced}");
    assert!(reduced.contains("pl.tensor.transpose"), "{reduced}");
    for gone in ["pld.tensor.allreduce", "@stage_step"] {
        assert!(!reduced.contains(gone), "{gone} left:\n{reduced}");
    }
    eprintln!("reduced {before} lines to {after}");
}
