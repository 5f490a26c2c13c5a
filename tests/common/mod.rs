//! Shared test helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use syclify::mapping::Mappings;
use syclify::project::{self, Migration, Options};

/// Every file under `dir`, recursively (links not followed into).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if std::fs::symlink_metadata(&p).unwrap().file_type().is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Migrates `inputs` in memory (nothing is written).
pub fn migrate(inputs: &[&Path]) -> Migration {
    let out = std::env::temp_dir().join("syclify-test-never-written");
    let opts = Options {
        inputs: inputs.iter().map(|p| p.to_path_buf()).collect(),
        in_root: None,
        out_root: out,
        mappings: Mappings::builtin(),
        include_dirs: vec![],
        unit_defines: Default::default(),
        copy_others: true,
    };
    project::migrate(&opts).expect("valid options")
}

/// Every output and the diagnostics, as one reviewable text. Build files
/// (Makefiles, CMake scripts) are left out: `tests/build_files.rs` pins them.
pub fn render(m: &Migration) -> String {
    let report = syclify::report::build(m);
    let is_build = |rel: &str| syclify::build::is_build_file_name(rel.rsplit('/').next().unwrap_or(""));
    let mut s = String::new();
    for f in &m.files {
        if f.status != project::Status::Migrated || is_build(&f.rel) {
            continue;
        }
        s.push_str(&format!("// ==== {} -> {} ====\n", f.rel, f.out_rel.as_deref().unwrap_or("-")));
        s.push_str(f.output.as_deref().unwrap_or(""));
        if !s.ends_with('\n') {
            s.push('\n');
        }
    }
    s.push_str("// ==== diagnostics ====\n");
    for f in report.files.iter().filter(|f| !is_build(&f.path)) {
        for d in &f.diagnostics {
            s.push_str(&format!("// {}\n", d.gcc()));
            for fix in &d.fixes {
                let edits: Vec<String> = fix.edits.iter().map(|e| format!("{}:{}-{}:{} {:?}", e.line, e.column, e.end_line, e.end_column, e.text)).collect();
                s.push_str(&format!("//   fix: {} [{}]\n", fix.title, edits.join(", ")));
            }
        }
    }
    s
}

/// Where Intel's SYCL headers are (fetched by scripts/fetch-sycl-headers.sh).
pub fn sycl_include() -> PathBuf {
    match std::env::var_os("SYCLIFY_SYCL_INCLUDE") {
        Some(p) => PathBuf::from(p),
        None => root().join("target/sycl-headers/include"),
    }
}

/// A directory whose `sycl/sycl.hpp` includes the real one and then defines
/// `SYCL_LANGUAGE_VERSION`, as a SYCL compiler's driver does (migrated
/// `#ifdef __CUDACC__` tests read it); defined before Intel's headers, it
/// would make a host compiler read them as the device compiler.
fn sycl_wrapper() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = root().join("target/sycl-wrapper");
        let file = dir.join("sycl/sycl.hpp");
        let text = "#include_next <sycl/sycl.hpp>\n#ifndef SYCL_LANGUAGE_VERSION\n#define SYCL_LANGUAGE_VERSION 202012\n#endif\n";
        if std::fs::read_to_string(&file).ok().as_deref() != Some(text) {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            // written whole, then renamed: test binaries run at once
            let tmp = tempfile::NamedTempFile::new_in(file.parent().unwrap()).unwrap();
            std::fs::write(tmp.path(), text).unwrap();
            tmp.persist(&file).unwrap();
        }
        dir
    })
    .clone()
}

/// The headers of the oneAPI libraries (oneDPL, oneMKL) fetched from PyPI
/// by scripts/fetch-library-headers.sh (or SYCLIFY_LIBRARY_INCLUDE).
pub fn library_include() -> PathBuf {
    std::env::var_os("SYCLIFY_LIBRARY_INCLUDE").map(PathBuf::from).unwrap_or_else(|| root().join("target/library-headers/include"))
}

/// The compiler for code that includes oneDPL: Clang (GCC 12 rejects one of
/// oneDPL's headers; the SYCL compilers are Clang too). SYCLIFY_LIBRARY_CXX,
/// else clang++-16 (scripts/test.sh installs it where it is missing).
pub fn library_cxx() -> String {
    std::env::var("SYCLIFY_LIBRARY_CXX").unwrap_or_else(|_| "clang++-16".into())
}

/// Does the migrated text use a oneAPI library (oneDPL through the Thrust helper, oneMKL)?
pub fn uses_libraries(text: &str) -> bool {
    text.contains("<syclify/thrust.hpp>")
        || text.contains("<syclify/blas.hpp>")
        || text.contains("<syclify/rand.hpp>")
        || text.contains("<syclify/sparse.hpp>")
        || text.contains("<syclify/fft.hpp>")
        || text.contains("<syclify/solver.hpp>")
        || text.contains("<syclify/ccl.hpp>")
        || text.contains("<oneapi/")
}

/// [`host_compile`] with the library headers, by [`library_cxx`].
pub fn library_host_compile(file: &Path, include_dirs: &[&Path]) -> Result<(), String> {
    let lib = library_include();
    assert!(
        lib.join("oneapi/dpl/algorithm").is_file(),
        "oneDPL's headers are not at {} — run scripts/fetch-library-headers.sh (scripts/test.sh does) or set SYCLIFY_LIBRARY_INCLUDE",
        lib.display()
    );
    let mut dirs: Vec<&Path> = include_dirs.to_vec();
    dirs.push(&lib);
    compile_with(&library_cxx(), file, &dirs)
}

/// A migrated unit's host compile: with the library headers when its program
/// uses oneDPL or oneMKL ([`uses_libraries`] of any of its outputs).
pub fn host_compile_unit(file: &Path, include_dirs: &[&Path], libraries: bool) -> Result<(), String> {
    if libraries { library_host_compile(file, include_dirs) } else { host_compile(file, include_dirs) }
}

/// Host-compiles `file` (-fsyntax-only) against the real SYCL headers; Err has the compiler output.
pub fn host_compile(file: &Path, include_dirs: &[&Path]) -> Result<(), String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    compile_with(&cxx, file, include_dirs)
}

/// Where a unit includes the helper header: `Some(false)` where that include
/// is its first line of code (after comments and blank lines), `Some(true)`
/// where only includes of the C++ standard library's headers come before it
/// (`#include <cstdio>`: the SYCL headers read those anyway, and a standard
/// header reads the same whatever came before, so the helper read first,
/// with `-include`, gives the same unit), `None` otherwise.
fn helper_include_place(file: &Path) -> Option<bool> {
    let text = std::fs::read_to_string(file).ok()?;
    let mut rest = text.as_str();
    let mut after_standard = false;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else if rest.starts_with("#include <syclify/syclify.hpp>") {
            return Some(after_standard);
        } else {
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            let name = line.strip_prefix("#include <")?.strip_suffix('>')?;
            if !is_standard_header(name) {
                return None;
            }
            after_standard = true;
            rest = &rest[line.len()..];
        }
    }
}

/// A header of the C++ standard library (`vector`, `cstdio`) or one of the
/// C headers it keeps (`stdio.h`).
fn is_standard_header(name: &str) -> bool {
    const C: &[&str] =
        &["assert.h", "ctype.h", "errno.h", "float.h", "limits.h", "math.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h"];
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')) || C.contains(&name)
}

/// The host compile's flags (before the include directories).
const COMPILE_FLAGS: &[&str] =
    &["-std=c++17", "-fsyntax-only", "-Werror=return-type", "-DSYCL_DISABLE_FSYCL_SYCLHPP_WARNING", "-Wno-deprecated-declarations", "-Wno-attributes"];

/// The helper headers `syclify/syclify.hpp` reads into itself.
const HELPER_PARTS: &[&str] = &["syclify.hpp", "texture.hpp", "graph.hpp", "driver.hpp"];

/// A directory holding `syclify/syclify.hpp.gch`, GCC's precompiled
/// `runtime-headers/syclify/syclify.hpp` against the SYCL headers (built
/// once, under target/), for a compile whose include directories hold our
/// helper headers byte for byte: the unit then reads the same text either
/// way, some 1.5 s sooner. None for other compilers, for a unit whose first
/// line of code is not `#include <syclify/syclify.hpp>` or a standard
/// header's include ([`helper_include_place`]: GCC would read the text
/// beside the .gch, and then the unit's copy as another file), or where a
/// unit's helper copy differs or is missing (its compile must see that).
/// With the directory, whether the unit needs `-include` to read the
/// header first (GCC uses a precompiled header only before the first token).
fn helper_pch(cxx: &str, file: &Path, include_dirs: &[&Path]) -> Option<(PathBuf, bool)> {
    static PCH: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let gcc = Path::new(cxx).file_name().map(|n| n.to_string_lossy().into_owned()).is_some_and(|n| n == "g++" || n.starts_with("g++-") || n.ends_with("-g++"));
    if !gcc || std::env::var_os("SYCLIFY_TEST_NO_PCH").is_some() {
        return None;
    }
    let forced = helper_include_place(file)?;
    let ours = root().join("runtime-headers/syclify");
    let copy = include_dirs.iter().map(|d| d.join("syclify")).find(|d| d.join("syclify.hpp").is_file())?;
    if !HELPER_PARTS.iter().all(|h| std::fs::read(copy.join(h)).ok() == std::fs::read(ours.join(h)).ok()) {
        return None;
    }
    PCH.get_or_init(|| {
        // keyed by the headers, the SYCL headers' place and the compiler
        let mut key = format!("{cxx}\n{}\n", sycl_include().display());
        for h in HELPER_PARTS {
            key.push_str(&std::fs::read_to_string(ours.join(h)).ok()?);
        }
        let dir = root().join(format!("target/helper-pch/{:016x}", xxhash_rust::xxh3::xxh3_64(key.as_bytes())));
        let gch = dir.join("syclify/syclify.hpp.gch");
        if !gch.is_file() {
            std::fs::create_dir_all(gch.parent()?).ok()?;
            // built beside, then renamed: test binaries and threads run at once
            let tmp = tempfile::Builder::new().suffix(".gch").tempfile_in(gch.parent()?).ok()?;
            let out = std::process::Command::new(cxx)
                .args(COMPILE_FLAGS.iter().filter(|f| **f != "-fsyntax-only"))
                .args(["-x", "c++-header"])
                .arg(format!("-I{}", sycl_wrapper().display()))
                .arg(format!("-I{}", sycl_include().display()))
                .arg(ours.join("syclify.hpp"))
                .arg("-o")
                .arg(tmp.path())
                .output()
                .ok()?;
            if !out.status.success() {
                return None;
            }
            tmp.persist(&gch).ok()?;
        }
        // and the text, which GCC reads from beside the .gch where the unit
        // includes the header again (#pragma once then skips it: the
        // precompiled header records its digest; the unit's copies are these
        // bytes)
        for h in HELPER_PARTS {
            let to = dir.join("syclify").join(h);
            if std::fs::read(&to).ok() != std::fs::read(ours.join(h)).ok() {
                let tmp = tempfile::NamedTempFile::new_in(to.parent()?).ok()?;
                std::fs::copy(ours.join(h), tmp.path()).ok()?;
                tmp.persist(&to).ok()?;
            }
        }
        Some(dir)
    })
    .clone()
    .map(|dir| (dir, forced))
}

fn compile_with(cxx: &str, file: &Path, include_dirs: &[&Path]) -> Result<(), String> {
    let inc = sycl_include();
    assert!(
        inc.join("sycl/sycl.hpp").is_file(),
        "Intel's SYCL headers are not at {} — run scripts/fetch-sycl-headers.sh (scripts/test.sh does) or set SYCLIFY_SYCL_INCLUDE",
        inc.display()
    );
    let mut cmd = std::process::Command::new(cxx);
    cmd.args(COMPILE_FLAGS);
    // GCC reads the helper header precompiled where the unit starts with it
    // and its copy of it is ours, unchanged
    if let Some((pch, forced)) = helper_pch(cxx, file, include_dirs) {
        cmd.arg(format!("-I{}", pch.display()));
        if forced {
            cmd.args(["-include", "syclify/syclify.hpp"]);
        }
    }
    cmd.arg(format!("-I{}", sycl_wrapper().display()));
    cmd.arg(format!("-I{}", inc.display()));
    for d in include_dirs {
        cmd.arg(format!("-I{}", d.display()));
    }
    cmd.arg(file);
    let out = cmd.output().map_err(|e| format!("cannot run {cxx}: {e}"))?;
    if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
}
