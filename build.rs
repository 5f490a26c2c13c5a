//! The commit syclify is built from, for `--version`: `git rev-parse` where
//! the source is a git checkout, else SYCLIFY_COMMIT from the environment
//! (a wheel or tarball build), else "unknown commit". And SYCLIFY_SOURCE_HASH,
//! a hash of every source, rule table and helper header and of the locked
//! dependencies: what a migration's output depends on besides its inputs
//! (the key of what `reuse` keeps in an out-root for the next run).

use std::process::Command;

fn main() {
    let commit = std::env::var("SYCLIFY_COMMIT").ok().filter(|c| !c.is_empty()).or_else(|| {
        let out = Command::new("git").args(["rev-parse", "--short=10", "HEAD"]).output().ok()?;
        let hash = String::from_utf8(out.stdout).ok()?.trim().to_string();
        if !out.status.success() || hash.is_empty() {
            return None;
        }
        // uncommitted changes to tracked files
        let dirty = Command::new("git").args(["diff", "--quiet", "HEAD"]).status().is_ok_and(|s| s.code() == Some(1));
        Some(format!("commit {hash}{}", if dirty { ", modified" } else { "" }))
    });
    println!("cargo:rustc-env=SYCLIFY_COMMIT={}", commit.unwrap_or_else(|| "unknown commit".to_string()));
    println!("cargo:rerun-if-env-changed=SYCLIFY_COMMIT");
    // a new commit moves HEAD or the branch it names
    println!("cargo:rerun-if-changed=.git/HEAD");
    if let Ok(head) = std::fs::read_to_string(".git/HEAD")
        && let Some(r) = head.strip_prefix("ref: ")
    {
        println!("cargo:rerun-if-changed=.git/{}", r.trim());
    }
    println!("cargo:rerun-if-changed=.git/packed-refs");
    let mut h = std::hash::DefaultHasher::new();
    for root in ["src", "rules", "runtime-headers", "Cargo.toml", "Cargo.lock"] {
        hash_tree(std::path::Path::new(root), &mut h);
        println!("cargo:rerun-if-changed={root}");
    }
    println!("cargo:rustc-env=SYCLIFY_SOURCE_HASH={:016x}", std::hash::Hasher::finish(&h));
}

/// Hashes the files under `path` (or the file itself), in name order, with their paths.
fn hash_tree(path: &std::path::Path, h: &mut std::hash::DefaultHasher) {
    use std::hash::Hash;
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path).into_iter().flatten().flatten().map(|e| e.path()).collect();
        entries.sort();
        for e in entries {
            hash_tree(&e, h);
        }
    } else if let Ok(bytes) = std::fs::read(path) {
        path.to_string_lossy().hash(h);
        bytes.hash(h);
    }
}
