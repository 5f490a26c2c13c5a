//! Makefile migration: a Makefile that builds CUDA with nvcc becomes one that
//! builds the migrated sources with a SYCL compiler, chosen by one variable.
//!
//! What it does, line by line (GNU make's logical lines: backslash
//! continuations joined, the original layout kept):
//! - a block at the top defines `SYCLCXX` (default `icpx`), `SYCL_IMPL`
//!   (`dpcpp` or `acpp`, guessed from the compiler's name), `SYCL_ARCH`
//!   (from the Makefile's `-arch`/`-gencode`), `SYCL_TARGETS` and
//!   `SYCL_FLAGS` (the implementation's target flags and the helper header's
//!   include directory);
//! - `nvcc` (also `$(CUDA_HOME)/bin/nvcc`) in a variable's value or a recipe
//!   becomes `$(SYCLCXX) $(SYCL_FLAGS)`;
//! - nvcc's flags in variable values and recipes are mapped by the table in
//!   `rules/nvcc_flags.yaml` (see [`super::nvcc_flags`]); a dropped flag
//!   leaves a `# syclify:` comment line above its line and a diagnostic;
//! - a CUDA math library the migrated sources call (`-lcublas`, `-lcurand`
//!   for its host API, `-lcufft`, `-lcusparse`) becomes `$(SYCL_MATH_LIBS)`,
//!   which the block defines (oneMKL with icpx, else oneMath); the other
//!   CUDA libraries are dropped with a comment;
//! - file names follow the migration: `.cu` → `.dp.cpp`, `.cuh` → `.dp.hpp`
//!   (in names, patterns `%.cu`, wildcards and substitution references);
//! - every other line (rules, targets such as `run:` and `clean:`,
//!   conditionals, `define` blocks, comments) is kept as written.
//!
//! Why: after migration the user's build must build the migrated tree; the
//! Makefile is the build most CUDA projects (and HeCBench) have.

use super::nvcc_flags::{self, Action, RemarkKind};
use super::{Migrated, rename_cuda_files as renamed};
use crate::diagnostics::Diagnostic;
use std::collections::BTreeSet;
use std::ops::Range;

pub const RULE: &str = "makefile";

/// Is this file name a Makefile?
pub fn is_makefile_name(name: &str) -> bool {
    matches!(name, "Makefile" | "makefile" | "GNUmakefile") || name.ends_with(".mk") || name.starts_with("Makefile.")
}

/// Migrates a Makefile's text. `root_rel` is the path from the Makefile's
/// directory to the out-root (`.` or `../..`), where the helper header's
/// `include/` lies. None when the Makefile builds no CUDA (copied as is).
pub fn migrate(text: &str, root_rel: &str, math_used: &BTreeSet<&str>) -> Option<Migrated> {
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut links_math = false;
    let mut diagnostics = Vec::new();
    let mut archs: Vec<String> = Vec::new();
    let mut changes = 0;
    let mut in_recipe = false;
    let mut in_define = false;
    for line in logical_lines(text) {
        let s = &text[line.clone()];
        let trimmed = s.trim_start();
        if in_define {
            if first_word(trimmed) == "endef" {
                in_define = false;
            }
            continue;
        }
        // a recipe line; also a tab-indented nvcc command where make sees no
        // rule (a broken Makefile: its command is migrated all the same)
        let segment = if s.starts_with('\t') && (in_recipe || is_nvcc(first_word(trimmed))) {
            Some((line.start + 1, line.end))
        } else if trimmed.is_empty() || trimmed.starts_with('#') {
            None
        } else {
            let word = first_word(trimmed);
            let directive = matches!(word, "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else" | "endif");
            if matches!(word, "define") || (matches!(word, "override" | "export") && first_word(trimmed[word.len()..].trim_start()) == "define") {
                in_define = true;
                continue;
            }
            if directive {
                None
            } else if matches!(word, "include" | "-include" | "sinclude" | "vpath" | "unexport") {
                in_recipe = false;
                None
            } else if let Some(value_at) = assignment_value(s) {
                in_recipe = false;
                Some((line.start + value_at, line.start + comment_start(s, value_at)))
            } else if let Some(colon) = rule_colon(s) {
                in_recipe = true;
                // targets and prerequisites: file names only; a recipe after `;`
                let (start, end) = (line.start, line.start + comment_start(s, 0));
                let semi = text[line.start + colon..end].find(';').map(|p| line.start + colon + p);
                let names_end = semi.unwrap_or(end);
                if let Some(new) = renamed(&text[start..names_end]) {
                    edits.push((start..names_end, new));
                    changes += 1;
                }
                semi.map(|p| (p + 1, line.end))
            } else {
                in_recipe = false;
                None
            }
        };
        let Some((from, to)) = segment else { continue };
        let tokens = tokenize(&text[from..to], from);
        let words: Vec<&str> = tokens.iter().filter(|t| !t.space).map(|t| &text[t.range.clone()]).collect();
        let mut translation = nvcc_flags::translate(&words);
        archs.extend(translation.archs.iter().cloned());
        // a math library the migrated sources call: the first on the line
        // becomes $(SYCL_MATH_LIBS), the others go
        let mut first_math = true;
        for r in translation.remarks.iter_mut().filter(|r| r.kind == RemarkKind::CudaLibrary) {
            if let Some((replacement, message)) =
                super::math_library_fate(words[r.word], super::library_base(words[r.word]), math_used, first_math, "$(SYCL_MATH_LIBS)")
            {
                if let Some(new) = replacement {
                    if new == "$(SYCL_MATH_LIBS)" {
                        first_math = false;
                        links_math = true;
                    }
                    translation.actions[r.word] = Action::Replace(new);
                }
                r.message = message;
            }
        }
        // each token's new text (None: a dropped word)
        let mut pieces: Vec<(Option<String>, bool)> = Vec::with_capacity(tokens.len());
        let mut changed = false;
        let mut word_index = 0;
        for t in &tokens {
            let raw = &text[t.range.clone()];
            if t.space {
                pieces.push((Some(raw.to_string()), true));
                continue;
            }
            let action = &translation.actions[word_index];
            word_index += 1;
            let new = if is_nvcc(raw) {
                // a recipe's `@`/`-`/`+` prefix stays
                let prefix = &raw[..raw.len() - raw.trim_start_matches(['@', '-', '+']).len()];
                Some(format!("{prefix}$(SYCLCXX) $(SYCL_FLAGS)"))
            } else {
                match action {
                    Action::Keep => Some(renamed(raw).unwrap_or_else(|| raw.to_string())),
                    Action::Replace(r) => Some(r.clone()),
                    Action::Drop => None,
                }
            };
            changed |= new.as_deref() != Some(raw);
            pieces.push((new, false));
        }
        // a dropped word takes one blank beside it (the one before, else the
        // one after), never one that holds a line continuation
        for i in 0..pieces.len() {
            if pieces[i].0.is_some() || pieces[i].1 {
                continue;
            }
            let plain = |p: &(Option<String>, bool)| p.1 && p.0.as_deref().is_some_and(|s| !s.contains('\n'));
            if i > 0 && plain(&pieces[i - 1]) && i + 1 < pieces.len() {
                pieces[i - 1].0 = None;
            } else if i + 1 < pieces.len() && plain(&pieces[i + 1]) && i > 0 && pieces[i - 1].1 {
                pieces[i + 1].0 = None;
            } else if i > 0 && plain(&pieces[i - 1]) && i + 1 == pieces.len() {
                pieces[i - 1].0 = None;
            }
        }
        // a value whose every word went (`GENCODE = -gencode ... \ -gencode ...`) is empty
        let out: String =
            if pieces.iter().any(|(p, space)| !space && p.is_some()) { pieces.into_iter().filter_map(|(p, _)| p).collect() } else { String::new() };
        if changed {
            changes += 1;
            edits.push((from..to, out));
        }
        if !translation.remarks.is_empty() {
            let line_start = text[..line.start].rfind('\n').map_or(0, |p| p + 1);
            let mut comment = String::new();
            for r in &translation.remarks {
                let code = r.kind.code();
                let word_range = tokens.iter().filter(|t| !t.space).nth(r.word).map_or(from..from, |t| t.range.clone());
                comment.push_str(&format!("# syclify: {} [{}]\n", r.message, code.code()));
                diagnostics.push(Diagnostic::new(code, word_range, RULE, r.message.clone()));
            }
            edits.push((line_start..line_start, comment));
        }
    }
    if changes == 0 {
        return None;
    }
    let arch = archs.first().cloned();
    // first of the edits at offset 0 (the sort below is stable): the block
    // stays above a remark about the Makefile's first line
    edits.insert(0, (0..0, header(arch.as_deref(), root_rel, links_math)));
    edits.sort_by_key(|(r, _)| (r.start, r.end));
    let mut out = String::with_capacity(text.len() + 2048);
    let mut at = 0;
    for (r, new) in edits {
        out.push_str(&text[at..r.start]);
        out.push_str(&new);
        at = r.end;
    }
    out.push_str(&text[at..]);
    Some(Migrated { text: out, diagnostics, changes })
}

/// The block that selects the SYCL compiler and its flags.
fn header(arch: Option<&str>, root_rel: &str, links_math: bool) -> String {
    let arch_line = match arch {
        Some(a) => format!("SYCL_ARCH ?= {a}\n"),
        None => "# no -arch in the original: set SYCL_ARCH to your GPU's architecture\nSYCL_ARCH ?= sm_80\n".to_string(),
    };
    let root = if root_rel == "." { String::new() } else { format!("/{root_rel}") };
    format!(
        "# ---- syclify: this Makefile was migrated from nvcc to a SYCL compiler ----
# SYCLCXX is the SYCL compiler: icpx or clang++ (DPC++), or acpp
# (AdaptiveCpp); SYCL_IMPL (dpcpp or acpp) is guessed from its name.
# SYCL_ARCH is the NVIDIA GPU architecture (from the original -arch);
# SYCL_TARGETS replaces the target selection (e.g. spir64 for DPC++ on
# Intel GPUs, generic for AdaptiveCpp's single-pass compiler).
SYCLCXX ?= icpx
{arch_line}ifeq ($(SYCL_IMPL),)
  ifneq ($(findstring acpp,$(notdir $(SYCLCXX)))$(findstring syclcc,$(notdir $(SYCLCXX))),)
    SYCL_IMPL := acpp
  else
    SYCL_IMPL := dpcpp
  endif
endif
ifeq ($(SYCL_IMPL),acpp)
  SYCL_TARGETS ?= cuda:$(SYCL_ARCH)
  SYCL_TARGET_FLAGS = --acpp-targets=$(SYCL_TARGETS)
else
  SYCL_TARGETS ?= nvptx64-nvidia-cuda
  SYCL_TARGET_FLAGS = -fsycl -fsycl-targets=$(SYCL_TARGETS) $(if $(findstring nvptx,$(SYCL_TARGETS)),-Xsycl-target-backend --cuda-gpu-arch=$(SYCL_ARCH))
endif
# the helper header syclify wrote: <out-root>/include/syclify/syclify.hpp
SYCLIFY_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))){root})
# -fno-math-errno: nvcc's host compiler (GCC) evaluates C math calls on
# constants at compile time; the SYCL compilers (Clang) do so only without
# errno (libstdc++'s <random> distributions run ten times slower otherwise)
SYCL_FLAGS = $(SYCL_TARGET_FLAGS) -fno-math-errno -I$(SYCLIFY_ROOT)/include
{math}# ---- end of syclify's block ----

",
        math = if links_math { MATH_BLOCK } else { "" }
    )
}

/// The part of the block that defines `SYCL_MATH_LIBS`, where a CUDA math
/// library the migrated sources call was linked.
const MATH_BLOCK: &str = "# SYCL_MATH_LIBS links the math library that the migrated cuBLAS, cuRAND,
# cuFFT and cuSPARSE calls need (syclify/blas.hpp, rand.hpp, fft.hpp,
# sparse.hpp): oneMKL's SYCL libraries with icpx (-qmkl), else the
# open-source oneMath (-lonemath; set ONEMATH_ROOT to where it is installed
# when that is not on the compiler's search paths).
ifneq ($(ONEMATH_ROOT),)
  SYCL_FLAGS += -I$(ONEMATH_ROOT)/include
  SYCLIFY_ONEMATH_LINK = -L$(ONEMATH_ROOT)/lib -Wl,-rpath,$(ONEMATH_ROOT)/lib
endif
ifneq ($(findstring icpx,$(notdir $(SYCLCXX))),)
  SYCL_MATH_LIBS ?= -qmkl
else
  SYCL_MATH_LIBS ?= $(SYCLIFY_ONEMATH_LINK) -lonemath
endif
";

/// Logical lines: byte ranges (without the final newline), a line ending in
/// an unescaped backslash joined with the next.
fn logical_lines(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut pos = 0;
    let b = text.as_bytes();
    while pos < b.len() {
        let end = text[pos..].find('\n').map_or(b.len(), |p| pos + p);
        let body = text[pos..end].trim_end_matches('\r');
        let backslashes = body.len() - body.trim_end_matches('\\').len();
        if backslashes % 2 == 1 && end < b.len() {
            pos = end + 1;
            continue;
        }
        out.push(start..end);
        pos = end + 1;
        start = pos;
    }
    out
}

fn first_word(s: &str) -> &str {
    s.split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("")
}

/// Where a variable assignment's value starts (`NAME = value`, `NAME :=`,
/// `+=`, `?=`, `!=`, `::=`, with `export`/`override`), else None.
fn assignment_value(line: &str) -> Option<usize> {
    let re = cached_regex!(r"^[ \t]*(?:(?:export|override)[ \t]+)*[A-Za-z_.][A-Za-z0-9_.\-]*[ \t]*(?:::=|:::=|:=|\+=|\?=|!=|=)");
    re.find(line).map(|m| m.end())
}

/// The offset of a rule's `:` (outside variable references), else None.
fn rule_colon(line: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in line.char_indices() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            '#' if depth == 0 => return None,
            ':' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// Where a make comment starts in `line` at or after `from` (an unescaped
/// `#` outside variable references), else the line's end.
fn comment_start(line: &str, from: usize) -> usize {
    let b = line.as_bytes();
    let mut depth = 0i32;
    for i in from..b.len() {
        match b[i] {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            b'#' if depth <= 0 && (i == 0 || b[i - 1] != b'\\') => return i,
            _ => {}
        }
    }
    b.len()
}

/// The words and blanks of `s` (offsets from `offset`): `(range, blank)`;
/// a `$(…)`/`${…}` reference is part of its word.
pub(crate) fn words(s: &str, offset: usize) -> Vec<(Range<usize>, bool)> {
    tokenize(s, offset).into_iter().map(|t| (t.range, t.space)).collect()
}

struct Token {
    range: Range<usize>,
    space: bool,
}

/// Words and the blanks between them (a backslash-newline is a blank); a
/// variable reference `$(...)` is part of its word, spaces inside included.
fn tokenize(s: &str, offset: usize) -> Vec<Token> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let blank =
            |i: usize| b[i] == b' ' || b[i] == b'\t' || b[i] == b'\n' || b[i] == b'\r' || (b[i] == b'\\' && matches!(b.get(i + 1), Some(b'\n' | b'\r')));
        if blank(i) {
            while i < b.len() && blank(i) {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            out.push(Token { range: offset + start..offset + i.min(b.len()), space: true });
            continue;
        }
        let mut depth = 0i32;
        while i < b.len() && (depth > 0 || !blank(i)) {
            match b[i] {
                b'$' if matches!(b.get(i + 1), Some(b'(' | b'{')) => {
                    depth += 1;
                    i += 1;
                }
                b'(' | b'{' if depth > 0 => depth += 1,
                b')' | b'}' if depth > 0 => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        out.push(Token { range: offset + start..offset + i.min(b.len()), space: false });
    }
    out
}

/// `nvcc`, or a path to it (`$(CUDA_HOME)/bin/nvcc`), as a command word.
fn is_nvcc(word: &str) -> bool {
    let word = word.trim_start_matches(['@', '-', '+']);
    word == "nvcc" || word.ends_with("/nvcc")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> String {
        migrate(text, ".", &BTreeSet::new()).map(|m| m.text).unwrap_or_default()
    }

    fn body(text: &str) -> String {
        let out = run(text);
        out.split("# ---- end of syclify's block ----\n\n").nth(1).unwrap_or("").to_string()
    }

    #[test]
    fn math_libraries_the_sources_call_become_one_variable() {
        let used = BTreeSet::from(["cublas", "curand"]);
        let out = migrate("LIBS = -lcublas -lcurand -lcufft -lm\n", ".", &used).unwrap().text;
        assert!(out.contains("SYCL_MATH_LIBS ?= -qmkl"), "{out}");
        assert!(out.contains("\nLIBS = $(SYCL_MATH_LIBS) -lm\n"), "{out}");
        assert!(
            out.contains("`-lcurand` dropped: its host API calls are migrated to oneMKL's RNG (syclify/rand.hpp); `$(SYCL_MATH_LIBS)`, earlier on this line"),
            "{out}"
        );
        assert!(out.contains("`-lcufft` dropped: a CUDA library, and no migrated source calls it"), "{out}");
        // no math library called: no block, the library dropped
        let out = migrate("LIBS = -lcublas\n", ".", &BTreeSet::new()).unwrap().text;
        assert!(!out.contains("SYCL_MATH_LIBS"), "{out}");
        assert!(out.contains("\nLIBS =\n"), "{out}");
    }

    #[test]
    fn a_makefile_without_cuda_is_left_alone() {
        assert!(migrate("CC = gcc\nall: main.o\n\t$(CC) -o main main.o\n", ".", &BTreeSet::new()).is_none());
    }

    #[test]
    fn compiler_flags_and_names() {
        let out = body(
            "CC = nvcc\nARCH = sm_60\nCFLAGS := -std=c++14 -Xcompiler -Wall -arch=$(ARCH)\n\nmain: main.o\n\t$(CC) $(CFLAGS) main.o -o $@\n\n%.o: %.cu k.cuh\n\t$(CC) $(CFLAGS) -c $< -o $@\n",
        );
        assert_eq!(
            out,
            "CC = $(SYCLCXX) $(SYCL_FLAGS)\nARCH = sm_60\n# syclify: `-std=c++14` raised to -std=c++17: SYCL 2020 needs C++17 [SY0801]\n# syclify: `-arch=$(ARCH)`: the GPU architecture is SYCL_ARCH ($(ARCH)) now, set once for the whole build [SY0801]\nCFLAGS := -std=c++17 -Wall\n\nmain: main.o\n\t$(CC) $(CFLAGS) main.o -o $@\n\n%.o: %.dp.cpp k.dp.hpp\n\t$(CC) $(CFLAGS) -c $< -o $@\n"
        );
        assert!(run("CC = nvcc\nX = -arch=$(ARCH)\n").contains("SYCL_ARCH ?= $(ARCH)\n"));
    }

    #[test]
    fn continuations_comments_and_recipes_keep_their_layout() {
        let out = body("NVCC = /usr/local/cuda/bin/nvcc # the compiler\nOBJ = a.o \\\n      b.o\nall:\n\tnvcc -O3 -lineinfo \\\n\t  main.cu -o main\n");
        assert_eq!(
            out,
            "NVCC = $(SYCLCXX) $(SYCL_FLAGS) # the compiler\nOBJ = a.o \\\n      b.o\nall:\n# syclify: `-lineinfo` dropped: line information for profilers of device code; -g keeps it for a SYCL compiler [SY0801]\n\t$(SYCLCXX) $(SYCL_FLAGS) -O3 \\\n\t  main.dp.cpp -o main\n"
        );
    }

    #[test]
    fn define_blocks_and_conditionals_are_kept() {
        let text = "CC = nvcc\ndefine RUN\nnvcc -arch=sm_70 x.cu\nendef\nifeq ($(DEBUG),yes)\n  CFLAGS += -G\nendif\n";
        assert_eq!(body(text), "CC = $(SYCLCXX) $(SYCL_FLAGS)\ndefine RUN\nnvcc -arch=sm_70 x.cu\nendef\nifeq ($(DEBUG),yes)\n  CFLAGS += -g\nendif\n");
    }

    #[test]
    fn a_silenced_recipe_stays_silent() {
        assert_eq!(
            body("all:\n\t@nvcc -O2 main.cu -o main\n\t-@nvcc x.cu\n"),
            "all:\n\t@$(SYCLCXX) $(SYCL_FLAGS) -O2 main.dp.cpp -o main\n\t-@$(SYCLCXX) $(SYCL_FLAGS) x.dp.cpp\n"
        );
    }

    #[test]
    fn renames_only_cuda_suffixes() {
        assert_eq!(renamed("main.cu kernel.cuh $(SRC:.cu=.o) %.cu"), Some("main.dp.cpp kernel.dp.hpp $(SRC:.dp.cpp=.o) %.dp.cpp".into()));
        assert_eq!(renamed("a.cuda b.cu-x c.cu_y"), None);
    }

    /// Text make itself would reject is kept line for line, never lost; the
    /// nvcc lines around it are still migrated.
    #[test]
    fn broken_makefile_syntax_loses_nothing() {
        let text = "all\n\tnvcc -O2 a.cu -o a\nX = $(unclosed\nY := nvcc -arch=sm_70\ndefine NEVER_ENDED\nnvcc b.cu\n\\\n";
        let out = body(text);
        assert!(out.starts_with("all\n\t$(SYCLCXX) $(SYCL_FLAGS) -O2 a.dp.cpp -o a\nX = $(unclosed\n"), "{out}");
        assert!(out.contains("Y := $(SYCLCXX) $(SYCL_FLAGS)\n"), "{out}");
        // the unterminated define's body is kept as written
        assert!(out.ends_with("define NEVER_ENDED\nnvcc b.cu\n\\\n"), "{out}");
        assert!(migrate("\t\t\n\\", ".", &BTreeSet::new()).is_none());
    }

    #[test]
    fn the_header_points_at_the_out_root() {
        assert!(
            migrate("CC = nvcc\n", "../..", &BTreeSet::new()).unwrap().text.contains("SYCLIFY_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../..)")
        );
    }
}
