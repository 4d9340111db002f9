//! Writing the tree: all of it into a temporary folder beside the output
//! directory, then renamed into place (an existing directory is moved aside
//! first and removed after), so a failed run never leaves a half-written tree.
//!
//! Only a tree pld-translate wrote itself is ever replaced: every tree holds
//! the marker file [`MARKER`], and an existing output directory without it
//! must be empty (else the run is refused and the directory left as it was:
//! `--output-dir` pointing at a source folder must not delete its files).
//! Files are created fresh inside the temporary folder (never through a
//! symlink), and the old tree is removed without following symlinks.

use super::Tree;
use std::{
    fs, io,
    path::{Path, PathBuf},
};

fn sibling(dir: &Path, tag: &str) -> io::Result<PathBuf> {
    let name = dir.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the output directory has no name",
        )
    })?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok(parent.join(format!(
        ".{}.{tag}-{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// The file that marks a directory as a tree pld-translate wrote.
pub const MARKER: &str = ".pld-translate-tree";

/// Why `dir` may not be replaced by a new tree, if it may not.
pub fn refuse_to_replace(dir: &Path) -> Option<String> {
    let meta = fs::symlink_metadata(dir).ok()?;
    if meta.file_type().is_symlink() {
        return Some("is a symbolic link; pass the directory it points to".into());
    }
    if !meta.is_dir() {
        return Some("exists and is not a directory".into());
    }
    if dir.join(MARKER).is_file() {
        return None;
    }
    match fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
        Ok(true) => None,
        Ok(false) => Some(format!(
            "exists, is not empty and was not written by pld-translate (no {MARKER}): refusing to replace it"
        )),
        Err(e) => Some(format!("cannot be read: {e}")),
    }
}

/// Writes `tree` as the whole content of `dir`.
pub fn write_tree(dir: &Path, tree: &Tree) -> io::Result<()> {
    if let Some(why) = refuse_to_replace(dir) {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("the output directory {why}"),
        ));
    }
    let tmp = sibling(dir, "tmp")?;
    if let Some(parent) = tmp.parent() {
        fs::create_dir_all(parent)?;
    }
    let _ = fs::remove_dir_all(&tmp);
    let result = (|| {
        fs::create_dir_all(&tmp)?;
        for (rel, bytes) in &tree.files {
            let path = tmp.join(rel);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::write(&path, bytes)?;
        }
        fs::write(
            tmp.join(MARKER),
            "written by pld-translate --pld-to-ascend-build; the whole directory is replaced on the next run\n",
        )?;
        replace(dir, &tmp)
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

fn replace(dir: &Path, tmp: &Path) -> io::Result<()> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => fs::rename(tmp, dir),
        Err(e) => Err(e),
        Ok(meta) if !meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "the output path exists and is not a directory",
        )),
        Ok(_) => {
            let old = sibling(dir, "old")?;
            let _ = fs::remove_dir_all(&old);
            fs::rename(dir, &old)?;
            if let Err(e) = fs::rename(tmp, dir) {
                let _ = fs::rename(&old, dir);
                return Err(e);
            }
            fs::remove_dir_all(&old)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Tree {
        let mut t = Tree::default();
        for (p, c) in files {
            t.files.insert(PathBuf::from(p), c.as_bytes().to_vec());
        }
        t
    }

    #[test]
    fn replaces_an_existing_tree_as_a_whole() {
        let base = std::env::temp_dir().join(format!("pld-write-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let dir = base.join("out");
        write_tree(&dir, &tree(&[("a/x.txt", "1"), ("b.txt", "2")])).unwrap();
        assert_eq!(fs::read_to_string(dir.join("a/x.txt")).unwrap(), "1");
        write_tree(&dir, &tree(&[("c.txt", "3")])).unwrap();
        assert!(!dir.join("a").exists() && !dir.join("b.txt").exists());
        assert_eq!(fs::read_to_string(dir.join("c.txt")).unwrap(), "3");
        // No temporary or old folder is left beside it.
        let names: Vec<_> = fs::read_dir(&base)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out")]);
        // A file in the way is an error and is left alone.
        let file = base.join("file");
        fs::write(&file, "keep").unwrap();
        assert!(write_tree(&file, &tree(&[("c.txt", "3")])).is_err());
        assert_eq!(fs::read_to_string(&file).unwrap(), "keep");
        fs::remove_dir_all(&base).unwrap();
    }
}
