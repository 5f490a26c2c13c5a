//! The commit syclify is built from, for `--version`: `git rev-parse` where
//! the source is a git checkout, else SYCLIFY_COMMIT from the environment
//! (a wheel or tarball build), else "unknown commit".

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
}
