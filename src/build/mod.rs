//! Build files: a project's Makefiles and CMake scripts, migrated so that they build the
//! migrated sources with a SYCL compiler. Text in, text out; no parsing of
//! C++ (the source pipeline's renames are by suffix, `.cu` → `.dp.cpp`).

pub mod cmake;
pub mod cmake_lang;
pub mod makefile;
pub mod nvcc_flags;

use crate::diagnostics::Diagnostic;
use std::collections::BTreeSet;

/// Is this file name a build file syclify migrates?
pub fn is_build_file_name(name: &str) -> bool {
    makefile::is_makefile_name(name) || cmake::is_cmake_name(name)
}

/// A migrated build file.
#[derive(Debug)]
pub struct Migrated {
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    /// How many places changed.
    pub changes: usize,
}

/// The text with CUDA file names renamed as the migration renames them:
/// `x.cu` → `x.dp.cpp`, `x.cuh` → `x.dp.hpp` (also `%.cu`, `*.cu`,
/// `$(SRC:.cu=.o)`); None when there is none.
pub(crate) fn rename_cuda_files(s: &str) -> Option<String> {
    let re = cached_regex!(r"\.cuh?(?-u:\b)");
    if !re.is_match(s) {
        return None;
    }
    // `\b` also matches before `-`/`.`: only where no name character follows
    let mut out = String::with_capacity(s.len() + 8);
    let mut at = 0;
    let mut any = false;
    for m in re.find_iter(s) {
        let next = s[m.end()..].chars().next();
        if next.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            continue;
        }
        out.push_str(&s[at..m.start()]);
        out.push_str(if m.as_str() == ".cuh" { ".dp.hpp" } else { ".dp.cpp" });
        at = m.end();
        any = true;
    }
    out.push_str(&s[at..]);
    any.then_some(out)
}

/// The include directories a project's build files name (CMake's
/// `include_directories`/`target_include_directories`, `-I` in Makefiles),
/// in-root-relative, in order, each once: where the compiler finds quoted
/// includes that are not beside the including file. Only directories that
/// can be known without running the build count: relative paths and paths
/// under `${CMAKE_CURRENT_SOURCE_DIR}`, `${CMAKE_CURRENT_LIST_DIR}`,
/// `${PROJECT_SOURCE_DIR}`/`${CMAKE_SOURCE_DIR}` (the top-most
/// CMakeLists.txt's directory); `is_dir` says which exist.
pub fn include_dirs(files: &[(&str, &str)], is_dir: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for path in include_dir_paths(files) {
        if let Some(d) = normalized_inside(&path).filter(|d| !d.is_empty() && !out.contains(d) && is_dir(d)) {
            out.push(d);
        }
    }
    out
}

/// The include directories of [`include_dirs`]' kind that lie outside the
/// in-root (`-I../common`): in-root-relative with their leading `..`, each
/// once. Headers found there are read to tell that they are not migrated.
pub fn outside_include_dirs(files: &[(&str, &str)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for path in include_dir_paths(files) {
        if normalized_inside(&path).is_some() {
            continue;
        }
        let d = normalized_lexically(&path);
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// Every include directory the build files name, in-root-relative and not
/// normalised (`app/../include`), in order.
fn include_dir_paths(files: &[(&str, &str)]) -> Vec<String> {
    let dir_of = |rel: &str| rel.rsplit_once('/').map_or(String::new(), |(d, _)| d.to_string());
    let top = files
        .iter()
        .filter(|(rel, _)| rel.rsplit('/').next() == Some("CMakeLists.txt"))
        .map(|(rel, _)| dir_of(rel))
        .min_by_key(|d| (d.matches('/').count() + usize::from(!d.is_empty()), d.clone()));
    let mut out: Vec<String> = Vec::new();
    for (rel, text) in files {
        let dir = dir_of(rel);
        let mut candidates: Vec<String> = Vec::new();
        let name = rel.rsplit('/').next().unwrap_or("");
        if cmake::is_cmake_name(name) {
            let Ok(commands) = cmake_lang::parse(text) else { continue };
            for c in &commands {
                let cmd = c.lower_name(text);
                let skip = match cmd.as_str() {
                    "include_directories" | "cuda_include_directories" => 0,
                    "target_include_directories" => 1,
                    _ => continue,
                };
                for a in c.args.iter().skip(skip) {
                    let v = &text[a.content(text)];
                    if matches!(v, "SYSTEM" | "BEFORE" | "AFTER" | "PRIVATE" | "PUBLIC" | "INTERFACE") {
                        continue;
                    }
                    let mut v = v.replace("${CMAKE_CURRENT_SOURCE_DIR}", "@here").replace("${CMAKE_CURRENT_LIST_DIR}", "@here");
                    if let Some(t) = &top {
                        for var in ["${PROJECT_SOURCE_DIR}", "${CMAKE_SOURCE_DIR}", "${CMAKE_HOME_DIRECTORY}"] {
                            v = v.replace(var, &format!("@top{t}"));
                        }
                    }
                    candidates.push(v);
                }
            }
        } else {
            let re = cached_regex!(r"(?:^|\s)-I[ \t]*([^\s\\]+)");
            candidates.extend(re.captures_iter(text).map(|c| c[1].to_string()));
        }
        for v in candidates {
            if v.contains('$') || v.starts_with('/') || v.contains('<') {
                continue;
            }
            let path = if let Some(rest) = v.strip_prefix("@here") {
                format!("{dir}{rest}")
            } else if let Some(rest) = v.strip_prefix("@top") {
                rest.to_string()
            } else if dir.is_empty() {
                v
            } else {
                format!("{dir}/{v}")
            };
            out.push(path);
        }
    }
    out
}

/// `a/./b/../c` → `a/c`, `a/../../x` → `../x`.
pub fn normalized_lexically(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            _ => parts.push(p),
        }
    }
    parts.join("/")
}

/// `a/./b/../c` → `a/c`; None when it leaves the root.
fn normalized_inside(path: &str) -> Option<String> {
    let n = normalized_lexically(path);
    (n != ".." && !n.starts_with("../")).then_some(n)
}

/// A CUDA library's name as a build file spells it, without decoration:
/// `-lcublas`, `CUDA::cublas_static` → `cublas`.
pub fn library_base(lib: &str) -> &str {
    lib.trim_start_matches("CUDA::").trim_start_matches("-l").trim_end_matches("_static")
}

/// The CUDA libraries whose migrated calls need a math library at link time
/// (oneMKL, or the open-source oneMath): each with the helper header that
/// migrated sources include when they call it, and what its calls became.
pub const MATH_LIBRARIES: &[(&str, &str, &str)] = &[
    ("cublas", "syclify/blas.hpp", "its calls are migrated to oneMKL's BLAS (syclify/blas.hpp)"),
    ("curand", "syclify/rand.hpp", "its host API calls are migrated to oneMKL's RNG (syclify/rand.hpp)"),
    ("cufft", "syclify/fft.hpp", "its calls are migrated to oneMKL's DFT (syclify/fft.hpp)"),
    ("cusparse", "syclify/sparse.hpp", "its calls are migrated to oneMKL's sparse BLAS (syclify/sparse.hpp)"),
    ("cusolver", "syclify/solver.hpp", "its dense calls are migrated to oneMKL's LAPACK (syclify/solver.hpp)"),
    ("nccl", "syclify/ccl.hpp", "its calls are migrated to oneCCL (syclify/ccl.hpp)"),
];

/// Of [`MATH_LIBRARIES`], those linked as a library of their own rather than
/// through the math library: (CUDA library, Makefile word, CMake name).
const OWN_LIBRARIES: &[(&str, &str, &str)] = &[("nccl", "-lccl", "ccl")];

/// What stands for `base` in a link line where the math library is
/// `instead` (`$(SYCL_MATH_LIBS)` in a Makefile, `syclify::math` in CMake).
fn replacement_of(base: &str, instead: &str) -> String {
    match OWN_LIBRARIES.iter().find(|(lib, _, _)| *lib == base) {
        Some((_, make, cmake)) => (if instead.starts_with("$(") { make } else { cmake }).to_string(),
        None => instead.to_string(),
    }
}

/// Which of [`MATH_LIBRARIES`] the migrated sources call (by the helper
/// headers their outputs include): a build file links the math library in
/// place of these (Makefiles: `$(SYCL_MATH_LIBS)`; CMake: `syclify::math`)
/// and drops the others (cuRAND used through its device API only needs no
/// library).
pub fn math_libraries_used<'a>(outputs: impl Iterator<Item = &'a str>) -> BTreeSet<&'static str> {
    let mut used = BTreeSet::new();
    for text in outputs {
        for inc in crate::source::includes(text) {
            if let Some((lib, _, _)) = MATH_LIBRARIES.iter().find(|(_, header, _)| *header == inc.name) {
                used.insert(*lib);
            }
        }
    }
    used
}

/// What becomes of a math library (one of [`MATH_LIBRARIES`]) that a build
/// file links, for the SY0802 message, or None for another library.
/// `shown`: as the build file spells it; `base`: its plain name (`cublas`);
/// `used`: the migrated sources call it; `first`: no earlier one in the same
/// list already stands for the math library; `instead`: what stands there
/// (`$(SYCL_MATH_LIBS)`, `syclify::math`). A library linked on its own
/// (NCCL → oneCCL: `-lccl`, `ccl`) is replaced by it wherever it stands. The
/// action: Some(replacement) or None to drop it.
pub fn math_library_fate(shown: &str, base: &str, used: &BTreeSet<&str>, first: bool, instead: &str) -> Option<(Option<String>, String)> {
    let (_, _, what) = MATH_LIBRARIES.iter().find(|(lib, _, _)| *lib == base)?;
    let own = OWN_LIBRARIES.iter().any(|(lib, _, _)| *lib == base);
    Some(if !used.contains(base) {
        let why = if base == "curand" { "no migrated source calls cuRAND's host API (its device API needs no library)" } else { "no migrated source calls it" };
        (None, format!("`{shown}` dropped: a CUDA library, and {why}: nothing to link instead"))
    } else if own {
        let new = replacement_of(base, instead);
        (Some(new.clone()), format!("`{shown}` → `{new}`: {what}"))
    } else if first {
        (
            Some(instead.to_string()),
            format!(
                "`{shown}` → `{instead}`: {what}; `{instead}` links oneMKL's SYCL libraries with icpx, else the open-source oneMath ({})",
                if instead.starts_with("$(") { "syclify's block" } else { "syclify.cmake" }
            ),
        )
    } else {
        (None, format!("`{shown}` dropped: {what}; `{instead}`, earlier on this line, links the math library"))
    })
}

/// What becomes of a CUDA library that a build file links (`cublas`,
/// `CUDA::cufft`), for the SY0802 message: the libraries whose calls syclify
/// migrates name what to link instead.
pub fn library_fate(lib: &str) -> &'static str {
    match library_base(lib) {
        "cublas" => "its calls are migrated to oneMKL (syclify/blas.hpp): link oneMKL's SYCL BLAS instead (icpx: -qmkl; oneMath: -lonemath)",
        "curand" => {
            "its host API calls are migrated to oneMKL's RNG (syclify/rand.hpp): link oneMKL's SYCL RNG instead (icpx: -qmkl; oneMath: -lonemath); its device API needs no library (syclify/rand_kernel.hpp)"
        }
        "cublasLt" => "its calls are migrated to syclify/blaslt.hpp (plain SYCL): nothing to link instead",
        "cufft" => "its calls are migrated to oneMKL's DFT (syclify/fft.hpp): link oneMKL's SYCL DFT instead (icpx: -qmkl; oneMath: -lonemath)",
        "cusparse" => "its calls are migrated to oneMKL's sparse BLAS (syclify/sparse.hpp): link oneMKL's SYCL sparse BLAS instead (icpx: -qmkl)",
        "cusolver" => "its dense calls are migrated to oneMKL's LAPACK (syclify/solver.hpp): link oneMKL's SYCL LAPACK instead (icpx: -qmkl)",
        _ => "not migrated yet; its calls are reported in the sources",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_dirs_from_cmake_and_makefiles() {
        let files = [
            ("CMakeLists.txt", "include_directories(${CUDA_INCLUDE_DIRS} ${CMAKE_CURRENT_SOURCE_DIR}/include)\n"),
            ("lib/CMakeLists.txt", "target_include_directories(k PUBLIC ${PROJECT_SOURCE_DIR}/common \"detail\" /usr/include)\n"),
            ("app/Makefile", "CFLAGS = -I../include -I $(CUDA)/include -I../../outside -Ilocal\n"),
        ];
        let dirs = include_dirs(&files, |d| d != "app/local");
        assert_eq!(dirs, vec!["include", "common", "lib/detail"]);
        assert_eq!(outside_include_dirs(&files), vec!["../outside"]);
    }
}
