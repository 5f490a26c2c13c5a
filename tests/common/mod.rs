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

/// The compiler of the migrated units' host compiles: `CXX`, else
/// [`library_cxx`]'s Clang (scripts/test.sh finds or installs it). Clang
/// reads the helper header precompiled with its template instantiations
/// done once ([`helper_pch`]: about 0.5 s a unit where GCC, whose
/// precompiled header leaves them to every unit, takes 2.5 s); the SYCL
/// compilers are Clang too. `CXX=g++` compiles them with GCC.
pub fn host_cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| library_cxx())
}

/// Host-compiles `file` (-fsyntax-only) against the real SYCL headers, with
/// [`host_cxx`]; Err has the compiler output.
pub fn host_compile(file: &Path, include_dirs: &[&Path]) -> Result<(), String> {
    compile_with(&host_cxx(), file, include_dirs)
}

/// Where a unit (its text) reaches the helper header `syclify/syclify.hpp`: `Some(false)`
/// where its include is the unit's first line of code (after comments and
/// blank lines), `Some(true)` where only includes that read the same text
/// whatever is read before them come first — the C++ standard library's
/// headers (`#include <cstdio>`: the SYCL headers read those anyway),
/// `<sycl/sycl.hpp>` (the helper's own first include) and the other helper
/// headers that begin by including `syclify.hpp` ([`helper_reads_syclify_first`]:
/// `<syclify/blas.hpp>`) — so that the helper read first, precompiled, gives
/// the same unit — and nvcc's branch of an `#ifdef __CUDACC__` (or
/// `__NVCC__`) skipped to its `#else`, as a host compile reads it; `None`
/// otherwise.
fn helper_include_place(text: &str) -> Option<bool> {
    let mut rest = text;
    let mut after_others = false;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else if rest.starts_with("#include <syclify/syclify.hpp>") {
            return Some(after_others);
        } else {
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            if defines_what_the_helper_does_not_read(line) {
                after_others = true;
                rest = &rest[line.len()..];
                continue;
            }
            // nvcc's branch (`#ifdef __CUDACC__` ... `#else`): not read by a
            // host compile, which goes on in the `#else` branch
            if matches!(line.trim_end(), "#ifdef __CUDACC__" | "#ifdef __NVCC__") {
                rest = after_cuda_branch(&rest[line.len()..])?;
                after_others = true;
                continue;
            }
            let name = line.strip_prefix("#include <")?.strip_suffix('>')?;
            if name.strip_prefix("syclify/").is_some_and(helper_reads_syclify_first) {
                return Some(true);
            }
            if !is_standard_header(name) && name != "sycl/sycl.hpp" {
                return None;
            }
            after_others = true;
            rest = &rest[line.len()..];
        }
    }
}

/// The text after the `#else` that ends the branch `text` starts in (nested
/// conditionals skipped); None where the branch ends otherwise (`#elif`,
/// `#endif`: the host compile would not reach an `#else` branch there).
fn after_cuda_branch(text: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        at += line.len();
        let t = line.trim();
        if t.starts_with("#if") {
            depth += 1;
        } else if t.starts_with("#endif") {
            depth = depth.checked_sub(1)?;
        } else if depth == 0 && t.starts_with("#elif") {
            return None;
        } else if depth == 0 && t.starts_with("#else") {
            return Some(&text[at..]);
        }
    }
    None
}

/// Does our helper header `name` (`blas.hpp`) begin by including
/// `syclify.hpp`, with only `#pragma once` and `<sycl/sycl.hpp>` (which
/// `syclify.hpp` includes first itself) before it?
fn helper_reads_syclify_first(name: &str) -> bool {
    let Some(text) = helper_header(name) else { return false };
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")) {
        match line {
            "#pragma once" | "#include <sycl/sycl.hpp>" => {}
            "#include \"syclify.hpp\"" => return true,
            _ if defines_what_the_helper_does_not_read(line) => {}
            _ => return false,
        }
    }
    false
}

/// Is `line` a `#define` of a `SYCLIFY_` macro that the helper header's text
/// (`syclify.hpp` and the files it includes with `#include "..."`) never
/// names (`#define SYCLIFY_CUBLAS 1`, `#define SYCLIFY_WMMA_PORTABLE 1`), so
/// that the helper reads the same with it or without?
fn defines_what_the_helper_does_not_read(line: &str) -> bool {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let Some(name) = line.strip_prefix("#define ").map(|r| r.trim_start()) else { return false };
    let name = &name[..name.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(name.len())];
    if !name.starts_with("SYCLIFY_") {
        return false;
    }
    let text = TEXT.get_or_init(|| {
        let main = helper_header("syclify.hpp").unwrap();
        let mut all = main.to_string();
        for part in main.lines().filter_map(|l| l.trim().strip_prefix("#include \"")?.strip_suffix('"')) {
            all.push_str(helper_header(part).unwrap());
        }
        all
    });
    !text.contains(name)
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

/// Our helper headers, by name (`runtime-headers/syclify/*.hpp`), sorted.
fn helper_headers() -> &'static [(String, Vec<u8>)] {
    static HEADERS: std::sync::OnceLock<Vec<(String, Vec<u8>)>> = std::sync::OnceLock::new();
    HEADERS.get_or_init(|| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(root().join("runtime-headers/syclify"))
            .unwrap()
            .flatten()
            .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
            .collect();
        v.sort();
        v
    })
}

/// The text of our helper header `name` (`blas.hpp`), if there is one.
fn helper_header(name: &str) -> Option<&'static str> {
    let ours = helper_headers();
    let i = ours.binary_search_by(|(h, _)| h.as_str().cmp(name)).ok()?;
    std::str::from_utf8(&ours[i].1).ok()
}

/// A compiler's precompiled `syclify/syclify.hpp`: the directory to put first
/// on the include path (its `syclify/` holds our helper headers, the text the
/// precompiled header was made from) and the file to name with `-include-pch`
/// (Clang) or none (GCC finds `syclify.hpp.gch` beside the text).
struct HelperPch {
    dir: PathBuf,
    clang_pch: Option<PathBuf>,
}

impl HelperPch {
    /// The compile's arguments that read it (before the other include
    /// directories): `-include` where GCC must read it before the unit's
    /// first token (`forced`).
    fn add_to(&self, cmd: &mut std::process::Command, forced: bool) {
        cmd.arg(format!("-I{}", self.dir.display()));
        if let Some(p) = &self.clang_pch {
            cmd.arg("-include-pch").arg(p);
        } else if forced {
            cmd.args(["-include", "syclify/syclify.hpp"]);
        }
    }
}

/// The precompiled helper header for a compile by `cxx` of `file` whose
/// include directories hold our helper headers byte for byte (every file of
/// its `syclify/` copy is ours: the unit then reads the same text either
/// way), with whether the unit needs `-include` to read it first (GCC uses a
/// precompiled header only before the first token; Clang's `-include-pch`
/// always reads it first). Built once per compiler and headers, under
/// `target/helper-pch/`. None for a unit that does not reach the helper first
/// ([`helper_include_place`]), where a copy differs (its compile must see
/// that), for compilers other than GCC and Clang, with `SYCLIFY_TEST_NO_PCH`
/// set, or where the header does not build (the unit's compile then says why).
/// Clang precompiles with `-fpch-instantiate-templates`: the header's
/// template instantiations are made once, where GCC makes them in every unit.
fn helper_pch(cxx: &str, flags: &[&str], wrapper: bool, file: &Path, include_dirs: &[&Path]) -> Option<(HelperPch, bool)> {
    type Built = std::sync::Arc<std::sync::OnceLock<Option<(PathBuf, bool)>>>;
    static BUILT: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<String, Built>>> = std::sync::OnceLock::new();
    let name = Path::new(cxx).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let clang = name.starts_with("clang++") || name.ends_with("-clang++");
    let gcc = name == "g++" || name.starts_with("g++-") || name.ends_with("-g++");
    if !(clang || gcc) || std::env::var_os("SYCLIFY_TEST_NO_PCH").is_some() {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    let forced = helper_include_place(&text)?;
    let copy = include_dirs.iter().map(|d| d.join("syclify")).find(|d| d.join("syclify.hpp").is_file())?;
    let ours = helper_headers();
    for e in std::fs::read_dir(&copy).ok()?.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let i = ours.binary_search_by(|(h, _)| h.as_str().cmp(&n)).ok()?;
        if std::fs::read(e.path()).ok().as_deref() != Some(&ours[i].1[..]) {
            return None;
        }
    }
    // the directory before the unit's own copy holds every helper header:
    // each one the unit reads must be in its copy too (a copy that misses
    // one must fail the compile, as it would for a user)
    if !helper_includes_present(&text, &copy) {
        return None;
    }
    // keyed by the compiler, the SYCL headers' place and when they were
    // written there (Clang refuses a precompiled header whose headers'
    // times changed: fetched again, into the same place), and our headers
    let written =
        |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| d.as_nanos());
    let mut key = format!(
        "{cxx}\n{}\n{:?} {:?}\n{}\n{wrapper}\n",
        sycl_include().display(),
        written(&sycl_include()),
        written(&sycl_include().join("sycl/sycl.hpp")),
        flags.join(" ")
    );
    for (h, text) in ours {
        key.push_str(&format!("{h} {:016x}\n", xxhash_rust::xxh3::xxh3_64(text)));
    }
    let cell = BUILT.get_or_init(Default::default).lock().unwrap().entry(key.clone()).or_default().clone();
    let built = cell.get_or_init(|| {
        let dir = root().join(format!("target/helper-pch/{:016x}", xxhash_rust::xxh3::xxh3_64(key.as_bytes())));
        let text_dir = dir.join("syclify");
        std::fs::create_dir_all(&text_dir).ok()?;
        // the text first (Clang's precompiled header names the files it read
        // and checks them when loaded; GCC's records the header's digest, and
        // #pragma once then skips the unit's includes of these bytes)
        for (h, text) in ours {
            let to = text_dir.join(h);
            if std::fs::read(&to).ok().as_deref() != Some(&text[..]) {
                // written beside, then renamed: test binaries and threads run at once
                let tmp = tempfile::NamedTempFile::new_in(&text_dir).ok()?;
                std::fs::write(tmp.path(), text).ok()?;
                tmp.persist(&to).ok()?;
            }
        }
        let out = text_dir.join(if clang { "syclify.hpp.pch" } else { "syclify.hpp.gch" });
        if !out.is_file() {
            let tmp = tempfile::Builder::new().suffix(".tmp-pch").tempfile_in(&text_dir).ok()?;
            let mut cmd = std::process::Command::new(cxx);
            cmd.args(flags.iter().filter(|f| **f != "-fsyntax-only")).args(["-x", "c++-header"]);
            if clang {
                cmd.arg("-fpch-instantiate-templates");
            }
            if wrapper {
                cmd.arg(format!("-I{}", sycl_wrapper().display()));
            }
            let status = cmd.arg(format!("-I{}", sycl_include().display())).arg(text_dir.join("syclify.hpp")).arg("-o").arg(tmp.path()).output().ok()?;
            if !status.status.success() {
                return None;
            }
            tmp.persist(&out).ok()?;
        }
        Some((dir, clang))
    });
    let (dir, clang) = built.clone()?;
    let clang_pch = clang.then(|| dir.join("syclify/syclify.hpp.pch"));
    Some((HelperPch { dir, clang_pch }, forced))
}

/// Whether every helper header `text` includes (`#include <syclify/X>`), and
/// those they include in turn (`#include "Y"`), is in the unit's copy `copy`.
fn helper_includes_present(text: &str, copy: &Path) -> bool {
    fn named(text: &str) -> Vec<String> {
        text.lines()
            .filter_map(|l| {
                let l = l.trim_start().strip_prefix('#')?.trim_start().strip_prefix("include")?.trim();
                let name = l.strip_prefix("<syclify/").and_then(|r| r.split_once('>')).or_else(|| l.strip_prefix('"').and_then(|r| r.split_once('"')))?.0;
                Some(name.strip_prefix("syclify/").unwrap_or(name).to_string())
            })
            .collect()
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut work = named(text);
    while let Some(name) = work.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        // (a quoted include that is not a helper is the unit's own)
        let Some(helper) = helper_header(&name) else { continue };
        if !copy.join(&name).is_file() {
            return false;
        }
        work.extend(named(helper));
    }
    true
}

/// Whether [`host_compile`] of `file` reads the helper header precompiled.
pub fn reads_helper_precompiled(file: &Path, include_dirs: &[&Path]) -> bool {
    helper_pch(&host_cxx(), COMPILE_FLAGS, true, file, include_dirs).is_some()
}

/// The flags of a helper program built to run on the host ([`build_helper_program`]).
const PROGRAM_FLAGS: &[&str] = &["-std=c++17", "-O1", "-w", "-DSYCL_DISABLE_FSYCL_SYCLHPP_WARNING"];

/// Builds `src` (a program of `tests/helper-header/` that includes our helper
/// headers) into the executable `exe` with [`host_cxx`] against Intel's SYCL
/// headers, reading the helper header precompiled where it can (as
/// [`host_compile`] does, with these flags).
pub fn build_helper_program(src: &Path, exe: &Path) -> std::process::Output {
    let cxx = host_cxx();
    let ours = root().join("runtime-headers");
    let mut cmd = std::process::Command::new(&cxx);
    cmd.args(PROGRAM_FLAGS);
    if let Some((pch, forced)) = helper_pch(&cxx, PROGRAM_FLAGS, false, src, &[&ours]) {
        pch.add_to(&mut cmd, forced);
    }
    cmd.arg(format!("-I{}", sycl_include().display())).arg(format!("-I{}", ours.display())).arg(src).arg("-o").arg(exe);
    cmd.output().unwrap_or_else(|e| panic!("cannot run {cxx}: {e}"))
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
    // the helper header read precompiled where the unit reaches it first and
    // its copy of it is ours, unchanged
    if let Some((pch, forced)) = helper_pch(cxx, COMPILE_FLAGS, true, file, include_dirs) {
        pch.add_to(&mut cmd, forced);
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
