//! The orchestration codegen's op list and `--legalize-spmd-launches` cannot
//! drift: both read `pld::codegen::orch_ops::ORCHESTRATION_OPS` (the codegen
//! matches on it exhaustively). This test holds the two ends of that list:
//! every supported op is exercised by a program that is lowered, rendered,
//! compiled and run in `test/Codegen/orch-*.test`, and every refused op is
//! refused by legalize *and* by pld-translate (never silently emitted).
//! The same holds for the HOST codegen's list,
//! `pld::codegen::host_ops::HOST_OPS` plus the CHIP list's scalar ops
//! (`test/Codegen/host-*.test`).

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use pld::codegen::{
    host_ops::{HOST_OPS, HostOp},
    orch_ops::{ORCHESTRATION_OPS, OrchOp},
};

const PLD_OPT: &str = env!("CARGO_BIN_EXE_pld-opt");
const PLD_TRANSLATE: &str = env!("CARGO_BIN_EXE_pld-translate");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The MLIR programs of the executed orchestration tests.
fn executed_inputs() -> String {
    let dir = root().join("test/Codegen/Inputs/orch");
    let mut text = String::new();
    for entry in std::fs::read_dir(&dir).expect("test/Codegen/Inputs/orch") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mlir") {
            text.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
    text
}

#[test]
fn every_supported_op_is_run_by_a_codegen_test() {
    let text = executed_inputs();
    for (name, op) in ORCHESTRATION_OPS {
        // The custom form spells func.return as `return`.
        let spelled = if *op == OrchOp::Return {
            " return"
        } else {
            name
        };
        assert!(
            text.contains(spelled),
            "{name} is in ORCHESTRATION_OPS but no test/Codegen/Inputs/orch program uses it"
        );
    }
}

fn run(tool: &str, args: &[&str], input: &str) -> (bool, String) {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tool runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn refused_ops_are_refused_by_legalize_and_by_translate() {
    // (the op's name, a CHIP body holding it; %n: index, %f: f32 are in scope)
    let cases: &[(&str, &str)] = &[
        ("arith.ceildivsi", "%q = arith.ceildivsi %n, %n : index"),
        ("arith.floordivsi", "%q = arith.floordivsi %n, %n : index"),
        ("arith.addf", "%q = arith.addf %f, %f : f32"),
        ("scf.execute_region", "scf.execute_region { scf.yield }"),
        (
            "scf.index_switch",
            "scf.index_switch %n \n default { scf.yield }",
        ),
        ("test.opaque", "\"test.opaque\"() : () -> ()"),
    ];
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("orchestration_ops");
    for (name, body) in cases {
        assert!(OrchOp::from_name(name).is_none(), "{name} is supported");
        let module = format!(
            "func.func @chip(%n: index, %f: f32) attributes {{pl.func_kind = \"orchestration\"}} {{\n  {body}\n  return\n}}\n"
        );
        refused_by_both(name, &module, "CHIP orchestration body", &out_dir);
    }
}

/// The MLIR programs of the executed HOST tests (`test/Codegen/host-*.test`,
/// `run-*.test`).
fn executed_host_inputs() -> String {
    let mut text = String::new();
    for name in [
        "host-arith.mlir",
        "host-loop.mlir",
        "domains.mlir",
        "both-rails.mlir",
    ] {
        text.push_str(
            &std::fs::read_to_string(root().join("test/Codegen/Inputs").join(name)).unwrap(),
        );
    }
    text
}

#[test]
fn every_supported_host_op_is_run_by_a_codegen_test() {
    let text = executed_host_inputs();
    let scalar = ORCHESTRATION_OPS
        .iter()
        .filter(|(_, op)| op.is_scalar())
        .map(|(name, _)| *name);
    for name in HOST_OPS.iter().map(|(name, _)| *name).chain(scalar) {
        assert!(HostOp::from_name(name).is_some(), "{name}");
        let spelled = match name {
            "func.return" => " return",
            // The body of every scf.for (custom form: implicit).
            "scf.yield" => "scf.for",
            // Inserted by --lower-host-tensor-collectives (casts to the callable's
            // types) and --materialize-dist-tensor-ctx (a context per dispatch).
            "pl.cast" => "pld.tensor.all_to_all_v",
            "pld.host.device_ctx" => "pld.host.dispatch",
            other => other,
        };
        assert!(
            text.contains(spelled),
            "{name} is a HOST op but no executed HOST test program uses it"
        );
    }
}

#[test]
fn refused_host_ops_are_refused_by_legalize_and_by_translate() {
    // (the op's name, a HOST body holding it; %n: index, %b: i1 are in scope)
    let cases: &[(&str, &str)] = &[
        ("scf.if", "scf.if %b { }"),
        (
            "scf.while",
            "scf.while : () -> () { scf.condition(%b) } do { scf.yield }",
        ),
        ("func.call", "func.call @nop() : () -> ()"),
        ("arith.ceildivsi", "%q = arith.ceildivsi %n, %n : index"),
        (
            "arith.addf",
            "%f = arith.constant 1.0 : f32\n  %q = arith.addf %f, %f : f32",
        ),
        ("scf.execute_region", "scf.execute_region { scf.yield }"),
        (
            "pl.tensor.create",
            "%t = pl.tensor.create : !pl.tensor<4xf32>",
        ),
        ("test.opaque", "\"test.opaque\"() : () -> ()"),
    ];
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("host_ops");
    for (name, body) in cases {
        assert!(HostOp::from_name(name).is_none(), "{name} is supported");
        let module = format!(
            "func.func @nop() attributes {{pl.func_kind = \"orchestration\"}} {{\n  return\n}}\nfunc.func @host(%n: index, %b: i1) attributes {{pl.func_kind = \"orchestration\", pl.level = \"host\"}} {{\n  {body}\n  return\n}}\n"
        );
        refused_by_both(name, &module, "HOST orchestrator", &out_dir);
    }
}

/// `module` (holding op `name`) is refused by `--legalize-spmd-launches` at
/// the op ("'<name>' op is not supported in a <body>") and by pld-translate:
/// no program is accepted by pld-opt and refused later.
fn refused_by_both(name: &str, module: &str, body: &str, out_dir: &Path) {
    let (ok, err) = run(
        PLD_OPT,
        &["--allow-unregistered-dialect", "--legalize-spmd-launches"],
        module,
    );
    assert!(
        !ok && err.contains(&format!("'{name}' op is not supported in a {body}")),
        "legalize on {name}: {err}"
    );
    let (ok, err) = run(
        PLD_TRANSLATE,
        &[
            "--allow-unregistered-dialect",
            "--pld-to-ascend-build",
            "--output-dir",
            out_dir.to_str().unwrap(),
        ],
        module,
    );
    assert!(
        !ok && err.contains(&format!("'{name}'")),
        "pld-translate on {name}: {err}"
    );
}
