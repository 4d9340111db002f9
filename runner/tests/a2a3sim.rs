//! docs/spec/device.md, "Conformance" 2: the CHIP sub-builds pld-translate renders for
//! `examples/chip_pipeline.mlir`, `tp_layer.mlir` and `ep_moe.mlir` build with simpler's own
//! kernel and orchestration compilers and run on simpler@6ebaf77's a2a3sim through its
//! `Worker(level=3)` on 2 and 4 ranks (`tests/conformance/a2a3sim_chip.py`; the environment
//! `scripts/simpler-sim.sh` builds from the snapshot with PyPI packages), nothing between pld's
//! text and simpler. Each rank's `out` equals pld-run's on the same inputs and the example's
//! golden (`common::goldens`, the same references the examples' own tests use): chip_pipeline's
//! all_to_all_v rows, and for tp_layer and ep_moe the rows each rank stores (the rest of an OUT
//! tensor is undefined on simpler). Without `PLD_PTO_ISA_DIR` / `PLD_SIMPLER_DIR` (the extracted
//! snapshots; `.ci/run` sets both) the test says why in one line and passes.

use crate::common;
use crate::shared;

use common::goldens::{
    EP, EP_HIDDEN, EP_TOKENS, TP, TP_HIDDEN, TP_LAYERS, TP_TOKENS, ep_golden, tp_golden, tp_inputs,
};
use common::{inputs, pld_opt, read_npy_f32, root};
use shared::{render_tree, snapshots};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The simpler environment scripts/simpler-sim.sh builds (once per clone; scripts/test.sh starts
/// it early): its python and a PATH with the `g++-15` shim first.
fn simpler_sim(simpler: &Path) -> (String, String) {
    let built = Command::new("bash")
        .arg(root().join("scripts/simpler-sim.sh"))
        .env("PLD_SIMPLER_DIR", simpler)
        .output()
        .expect("cannot run scripts/simpler-sim.sh");
    assert!(
        built.status.success(),
        "scripts/simpler-sim.sh: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let python = String::from_utf8_lossy(&built.stdout).trim().to_string();
    let shims = Path::new(&python).ancestors().nth(3).unwrap().join("shims");
    let path = format!(
        "{}:{}",
        shims.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (python, path)
}

/// One run: a module, its CHIP function, the rank count, its tensor parameters' names in order
/// with their per-rank inputs (absent: zeros), its integer scalars.
struct SimCase<'a> {
    label: String,
    module: String,
    function: &'a str,
    ranks: usize,
    names: &'a [&'a str],
    inputs: Vec<(&'a str, Vec<Vec<f64>>)>,
    scalars: Vec<(&'a str, i64)>,
}

/// Runs `case` on a2a3sim and on pld-run with the same inputs; returns each rank's `out` from
/// both.
fn run_on_both(
    case: &SimCase,
    pto: &Path,
    sim: &(String, String),
    work: &Path,
) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
    let dir = work.join(&case.label);
    std::fs::create_dir_all(&dir).unwrap();
    let module_path = dir.join("module.mlir");
    std::fs::write(&module_path, &case.module).unwrap();
    let tree = dir.join("tree");
    render_tree(
        &pld_opt(),
        &module_path,
        &root().join("runtime/examples"),
        &tree,
    );

    // The tensor parameters as the manifest describes them; the CommContexts counted.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tree.join("manifest.json")).unwrap())
            .unwrap();
    let entry = manifest["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["symbol"] == case.function)
        .unwrap();
    let mut params = Vec::new();
    let mut shapes = std::collections::HashMap::new();
    let mut contexts = 0;
    let mut k = 0;
    for p in entry["parameters"].as_array().unwrap() {
        match p["kind"].as_str().unwrap() {
            "tensor" | "window" => {
                let name = case.names[k];
                k += 1;
                let values = case
                    .inputs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or(serde_json::Value::Null, |(_, v)| serde_json::json!(v));
                shapes.insert(name, (p["shape"].clone(), p["element_type"].clone()));
                params.push(serde_json::json!({
                    "name": name, "kind": p["kind"], "shape": p["shape"],
                    "dtype": p["element_type"], "direction": p["direction"], "values": values,
                }));
            }
            "comm" => contexts += 1,
            _ => {}
        }
    }
    let spec = serde_json::json!({
        "subbuild": tree.join("next_levels").join(case.function).display().to_string(),
        "ranks": case.ranks,
        "pto_isa": pto.display().to_string(),
        "scalars": case.scalars.iter().map(|(_, v)| *v).collect::<Vec<_>>(),
        "contexts": contexts,
        "outputs": dir.join("a2a3sim.json").display().to_string(),
        // Shared by the test's rank counts (a2a3sim_chip.py builds each kernel text once).
        "kernel_cache": work.join("kernel-cache").display().to_string(),
        "params": params,
    });
    std::fs::write(dir.join("case.json"), spec.to_string()).unwrap();
    let ran = Command::new(&sim.0)
        .env("PATH", &sim.1)
        .arg(root().join("tests/conformance/a2a3sim_chip.py"))
        .arg(dir.join("case.json"))
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "a2a3sim, {}: {}\n{}",
        case.label,
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr)
    );
    let on_sim: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("a2a3sim.json")).unwrap()).unwrap();
    let sim_out: Vec<Vec<f32>> = (0..case.ranks)
        .map(|r| {
            on_sim["out"][r]
                .as_array()
                .unwrap()
                .iter()
                // null: a non-finite value (in rows simpler leaves undefined).
                .map(|x| x.as_f64().map_or(f32::NAN, |v| v as f32))
                .collect()
        })
        .collect();

    // pld-run, the same inputs per rank.
    let mut cmd = Command::new(common::PLD_RUN);
    // Its build cache inside the target directory (as every test's), not the user's.
    cmd.env("XDG_CACHE_HOME", common::cache_home())
        .env("PLD_SIM_CXXFLAGS", common::TEST_CXXFLAGS)
        .env_remove("PLD_SIM_ROOT")
        .arg(format!("--ranks={}", case.ranks))
        .arg(format!("--function=@{}", case.function))
        .arg(format!(
            "--kernel-source-dir={}",
            root().join("runtime/examples").display()
        ))
        .arg("--print-limit=0")
        .arg(format!("--output-dir={}", dir.join("pld-run").display()));
    for (name, per_rank) in &case.inputs {
        let (shape, element) = &shapes[name];
        let dims: Vec<String> = shape
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.to_string())
            .collect();
        let ty = format!("{}x{}", dims.join("x"), element.as_str().unwrap());
        for (r, values) in per_rank.iter().enumerate() {
            let v: Vec<String> = values.iter().map(|x| x.to_string()).collect();
            cmd.arg(format!("--input={name}=rank:{r}:{ty}={}", v.join(",")));
        }
    }
    for (name, v) in &case.scalars {
        cmd.arg(format!("--input={name}={v}"));
    }
    let ran = cmd.arg(&module_path).output().unwrap();
    assert!(
        ran.status.success(),
        "pld-run, {}: {}{}",
        case.label,
        String::from_utf8_lossy(&ran.stdout),
        String::from_utf8_lossy(&ran.stderr)
    );
    let run_out = (0..case.ranks)
        .map(|r| read_npy_f32(&dir.join(format!("pld-run/out.rank{r}.npy"))))
        .collect();
    (sim_out, run_out)
}

/// Each rank's own rows of `out` (`chunk` elements at r * chunk) on a2a3sim, on pld-run and in
/// the golden agree; pld-run writes nothing else (simpler's rest is undefined).
fn check_own_rows(
    label: &str,
    on_sim: &[Vec<f32>],
    on_run: &[Vec<f32>],
    golden: &[f32],
    chunk: usize,
) {
    for (r, (sim, run)) in on_sim.iter().zip(on_run).enumerate() {
        let own = r * chunk..(r + 1) * chunk;
        assert_eq!(
            run[own.clone()],
            golden[own.clone()],
            "pld-run, {label}, rank {r}: not the golden"
        );
        assert_eq!(
            sim[own.clone()],
            golden[own.clone()],
            "a2a3sim, {label}, rank {r}: not the golden"
        );
        assert!(
            run.iter()
                .enumerate()
                .all(|(i, x)| own.contains(&i) || *x == 0.0),
            "pld-run, {label}, rank {r}: wrote outside the rank's rows"
        );
    }
    assert!(
        golden.iter().any(|x| *x != 0.0),
        "{label}: a trivial golden"
    );
}

/// What every run needs: the snapshots, simpler's environment and a scratch folder (None: the
/// snapshots are not given, and the test says so).
fn setup(name: &str) -> Option<(PathBuf, (String, String), PathBuf)> {
    let (pto, simpler) = snapshots()?;
    let sim = simpler_sim(&simpler);
    let work = std::env::temp_dir().join(format!("pld-a2a3sim-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    Some((pto, sim, work))
}

/// chip_pipeline (the seed) on 2 and 4 ranks: rank dst receives rows k < counts[src][dst] of
/// src's chunk for dst at src's chunk of its own target, zeros after.
#[test]
fn chip_pipeline_runs_on_a2a3sim_as_on_pld_run_and_the_golden() {
    let Some((pto, sim, work)) = setup("chip_pipeline") else {
        return;
    };
    const MAX_RECV: usize = 8;
    let pipeline = std::fs::read_to_string(root().join("examples/chip_pipeline.mlir")).unwrap();
    for ranks in [2usize, 4] {
        let rows = ranks * MAX_RECV;
        let inp: Vec<Vec<f64>> = (0..ranks)
            .map(|r| (0..rows * 4).map(|i| (1000 * r + i) as f64).collect())
            .collect();
        let counts: Vec<Vec<f64>> = (0..ranks)
            .map(|r| {
                (0..ranks)
                    .map(|d| ((3 * r + d + 1) % (MAX_RECV + 1)) as f64)
                    .collect()
            })
            .collect();
        let case = SimCase {
            label: format!("chip_pipeline_p{ranks}"),
            module: pipeline
                .replace("16x4xf32", &format!("{rows}x4xf32"))
                .replace("<2x8xi32>", &format!("<{ranks}x8xi32>"))
                .replace("<2xi32>", &format!("<{ranks}xi32>")),
            function: "chip_pipeline",
            ranks,
            names: &["inp", "out", "stage", "data", "signal", "counts", "recv"],
            inputs: vec![("inp", inp.clone()), ("counts", counts.clone())],
            scalars: vec![],
        };
        let (on_sim, on_run) = run_on_both(&case, &pto, &sim, &work);
        for dst in 0..ranks {
            let mut golden = vec![0f32; rows * 4];
            for src in 0..ranks {
                for row in 0..counts[src][dst] as usize {
                    for e in 0..4 {
                        golden[(src * MAX_RECV + row) * 4 + e] =
                            inp[src][(dst * MAX_RECV + row) * 4 + e] as f32;
                    }
                }
            }
            assert_eq!(on_sim[dst], golden, "a2a3sim, {}, rank {dst}", case.label);
            assert_eq!(on_run[dst], golden, "pld-run, {}, rank {dst}", case.label);
        }
        eprintln!("{}: a2a3sim = pld-run = golden", case.label);
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// tp_layer on 2 and 4 ranks: every rank holds x + relu(x @ W1) @ W2 (integer-valued, so exact
/// in f32); rank r stores rows [r*T, (r+1)*T) of out.
#[test]
fn tp_layer_runs_on_a2a3sim_as_on_pld_run_and_the_golden() {
    let Some((pto, sim, work)) = setup("tp_layer") else {
        return;
    };
    for p in [2usize, 4] {
        let dir = work.join(format!("inputs-p{p}"));
        std::fs::create_dir_all(&dir).unwrap();
        let (x, w1, w2) = tp_inputs(&dir, p, 7 + p as u64);
        let (want, _) = tp_golden(p, TP_LAYERS, &x, &w1, &w2);
        let every = |v: &[i64]| -> Vec<Vec<f64>> {
            (0..p)
                .map(|_| v.iter().map(|x| *x as f64).collect())
                .collect()
        };
        let tp = SimCase {
            label: format!("tp_layer_p{p}"),
            module: std::fs::read_to_string(TP.module_for(p, &dir)).unwrap(),
            function: "tp_layer",
            ranks: p,
            names: &["inp", "w1", "w2", "out", "act_a", "act_b", "signal"],
            inputs: vec![("inp", every(&x)), ("w1", every(&w1)), ("w2", every(&w2))],
            scalars: vec![],
        };
        let (on_sim, on_run) = run_on_both(&tp, &pto, &sim, &work);
        let golden: Vec<f32> = (0..p).flat_map(|_| want.iter().copied()).collect();
        check_own_rows(&tp.label, &on_sim, &on_run, &golden, TP_TOKENS * TP_HIDDEN);
        eprintln!("{}: a2a3sim = pld-run = golden", tp.label);
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// ep_moe on 2 and 4 ranks: every rank routes its tokens through the experts for 3 layers; rank
/// r stores rows [r*T, (r+1)*T) of out.
#[test]
fn ep_moe_runs_on_a2a3sim_as_on_pld_run_and_the_golden() {
    let Some((pto, sim, work)) = setup("ep_moe") else {
        return;
    };
    for p in [2usize, 4] {
        let dir = work.join(format!("inputs-p{p}"));
        std::fs::create_dir_all(&dir).unwrap();
        let inp = inputs(p * EP_TOKENS * EP_HIDDEN, 11 + p as u64);
        let (want, _) = ep_golden(p, 3, &inp);
        let ep = SimCase {
            label: format!("ep_moe_p{p}"),
            module: std::fs::read_to_string(EP.module_for(p, &dir)).unwrap(),
            function: "ep_moe",
            ranks: p,
            names: &[
                "inp", "out", "act_a", "act_b", "table", "recv", "combined", "signal",
            ],
            inputs: vec![(
                "inp",
                (0..p)
                    .map(|_| inp.iter().map(|x| *x as f64).collect())
                    .collect(),
            )],
            scalars: vec![("num_layers", 3)],
        };
        let (on_sim, on_run) = run_on_both(&ep, &pto, &sim, &work);
        check_own_rows(&ep.label, &on_sim, &on_run, &want, EP_TOKENS * EP_HIDDEN);
        eprintln!("{}: a2a3sim = pld-run = golden", ep.label);
    }
    let _ = std::fs::remove_dir_all(&work);
}
