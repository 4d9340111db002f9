//! The committed documentation generated from ODS (`docs/dialects/pl.md`,
//! `docs/dialects/pld.md`, `docs/passes.md`) is what this build's TableGen
//! writes: a change to `PlOps.td` / `PldOps.td` / `Passes.td` without its
//! docs fails here. The build writes nothing into the source tree; refresh the
//! docs with `PLD_UPDATE_DOCS=1 cargo test --test integration generated_docs::`.

use std::path::{Path, PathBuf};

const DOCS: [(&str, &str); 3] = [
    ("pl.md", "docs/dialects/pl.md"),
    ("pld.md", "docs/dialects/pld.md"),
    ("passes.md", "docs/passes.md"),
];

#[test]
fn the_committed_docs_are_the_generated_ones() {
    let generated = Path::new(env!("PLD_GENERATED_DOCS"));
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("PLD_UPDATE_DOCS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, committed) in DOCS {
        let want = std::fs::read_to_string(generated.join(name))
            .unwrap_or_else(|e| panic!("{}: {e}", generated.join(name).display()));
        let path = root.join(committed);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(want.as_str()) {
            continue;
        }
        if update {
            std::fs::write(&path, want).unwrap();
        } else {
            stale.push(committed);
        }
    }
    assert!(
        stale.is_empty(),
        "generated docs are stale: {stale:?} (run PLD_UPDATE_DOCS=1 cargo test --test integration generated_docs::)"
    );
}
