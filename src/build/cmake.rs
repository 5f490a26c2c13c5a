//! CMake migration: a CMakeLists.txt (or `*.cmake` script) that builds CUDA
//! becomes one that builds the migrated sources with a SYCL compiler, DPC++
//! or AdaptiveCpp, chosen by the cache variable `SYCL_IMPL`.
//!
//! What it does, command by command (the file is read with CMake's grammar,
//! [`super::cmake_lang`]; edits are made in place, so comments, layout and
//! every command that has nothing of CUDA stay byte-for-byte):
//! - `project(… LANGUAGES CUDA CXX)`, `enable_language(CUDA)`: CUDA goes
//!   (or becomes CXX where CXX is not there); after the first `project()`
//!   (else at the top), a block includes `syclify.cmake`, the module syclify
//!   writes next to its helper header, which picks the implementation
//!   (`SYCL_IMPL`: `dpcpp` for `-fsycl`, `acpp` for `find_package(AdaptiveCpp)`
//!   and `add_sycl_to_target`), the GPU (`SYCL_ARCH`, from the original's
//!   CUDA architectures) and defines `syclify_add_sycl(target)`;
//! - `add_executable`/`add_library` (and FindCUDA's `cuda_add_executable`/
//!   `cuda_add_library`, renamed) are followed by `syclify_add_sycl(target)`;
//! - `find_package(CUDA|CUDAToolkit)`, FindCUDA's other commands, CUDA's
//!   compiler variables: commented out, with why;
//! - variables and properties (`CMAKE_CUDA_FLAGS`, `CMAKE_CUDA_STANDARD`,
//!   `CUDA_ARCHITECTURES`, `CUDA_SEPARABLE_COMPILATION`, `LANGUAGE CUDA`…)
//!   follow `rules/cmake.yaml`; nvcc's flags wherever compile or link
//!   options are given follow `rules/nvcc_flags.yaml`;
//! - CUDA's runtime libraries leave `target_link_libraries`; a CUDA library
//!   (`CUDA::cublas`) leaves it with a warning;
//! - `.cu`/`.cuh` file names become `.dp.cpp`/`.dp.hpp`;
//! - what still names CUDA afterwards is reported (SY0804), and so is a
//!   command syclify does not know (SY0805, kept as written).
//!
//! Why: SYCLomatic migrates CMake scripts too; a migrated project must build
//! the way it was built.

use super::Migrated;
use super::cmake_lang::{self, Arg, ArgKind, Command};
use super::nvcc_flags::{self, Action};
use crate::diagnostics::{Code, Diagnostic};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::OnceLock;

pub const RULE: &str = "cmake";

/// The module the migrated scripts include, written under the out-root.
pub const MODULE: &str = include_str!("../../runtime-headers/syclify/syclify.cmake");
pub const MODULE_REL: &str = "include/syclify/syclify.cmake";

/// Is this file name a CMake script?
pub fn is_cmake_name(name: &str) -> bool {
    name == "CMakeLists.txt" || name.ends_with(".cmake")
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandEntry {
    #[serde(default)]
    rename: Option<String>,
    #[serde(default)]
    drop: Option<String>,
    #[serde(default)]
    library: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum VarKind {
    Arch,
    Std,
    Rdc,
    Flags,
    Flaglist,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct VarEntry {
    #[serde(default)]
    rename: Option<String>,
    #[serde(default)]
    drop: Option<String>,
    #[serde(default)]
    kind: Option<VarKind>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    commands: BTreeMap<String, CommandEntry>,
    variables: BTreeMap<String, VarEntry>,
    properties: BTreeMap<String, VarEntry>,
    runtime_libraries: BTreeSet<String>,
    cuda_libraries: BTreeSet<String>,
    builtin_commands: BTreeSet<String>,
}

const TABLE: &str = include_str!("../../rules/cmake.yaml");

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| serde_saphyr::from_str(TABLE).expect("rules/cmake.yaml is valid (tested)"))
}

/// What happened to a CMake script.
#[derive(Debug)]
pub enum Outcome {
    /// Nothing of CUDA: copied as is.
    Unchanged,
    Migrated(Migrated),
    /// Not CMake's language: copied as is, with this diagnostic.
    Unparsed(Diagnostic),
}

/// One word of a command's arguments: a whole argument, one element of a
/// `;`-list, one blank-separated word of a quoted argument, or the inside of
/// a `$<$<COMPILE_LANGUAGE:CUDA>:…>` expression.
#[derive(Debug, Clone)]
struct Word {
    range: Range<usize>,
    /// The word is its whole argument.
    whole: bool,
    /// The `$<…>` argument the word is inside of.
    genex: Option<Range<usize>>,
}

struct Migration<'a> {
    text: &'a str,
    edits: Vec<(Range<usize>, String)>,
    diagnostics: Vec<Diagnostic>,
    archs: Vec<String>,
    changes: usize,
    /// Something of CUDA changed (not only the SYCL setup of a target).
    cuda: bool,
    /// The commands and variables the file and the project define.
    own: ProjectFacts,
    /// The property command being migrated turned on separable compilation.
    link_device_code: bool,
    unknown_reported: BTreeSet<String>,
    /// A link of a CUDA math library became `syclify::math`.
    links_math: bool,
}

/// What the project's CMake scripts define, for every script: the
/// functions and macros (a call of one is not an unknown command) and the
/// variables they `set` (a project's own `CUDA_VARIANT_DIR` is not CUDA's).
#[derive(Debug, Default, Clone)]
pub struct ProjectFacts {
    pub commands: BTreeSet<String>,
    pub variables: BTreeSet<String>,
    /// The migrated sources call or launch a kernel or device function
    /// defined in another translation unit: CUDA's separable compilation is
    /// still needed, as syclify_link_device_code.
    pub device_code_across_units: bool,
    /// The CUDA math libraries the migrated sources call
    /// ([`super::math_libraries_used`]): the build links `syclify::math`
    /// where it linked them. (Makefiles use this too.)
    pub math_libraries: BTreeSet<&'static str>,
}

impl ProjectFacts {
    /// Adds what one script defines (nothing when it is not CMake).
    pub fn scan(&mut self, text: &str) {
        if let Ok(commands) = cmake_lang::parse(text) {
            self.add(&commands, text);
        }
    }

    /// Adds what the read commands of one script define.
    fn add(&mut self, commands: &[Command], text: &str) {
        for c in commands {
            let name = c.lower_name(text);
            let Some(first) = c.args.first() else { continue };
            let first = &text[first.content(text)];
            match name.as_str() {
                "function" | "macro" => {
                    self.commands.insert(first.to_ascii_lowercase());
                }
                "set" | "option" if !table().variables.contains_key(first) => {
                    self.variables.insert(first.to_string());
                }
                _ => {}
            }
        }
    }
}

/// Migrates a CMake script on its own (as [`migrate_in`] with no project).
pub fn migrate(text: &str, root_rel: &str) -> Outcome {
    migrate_in(text, root_rel, &ProjectFacts::default())
}

/// Migrates a CMake script. `root_rel` is the path from its directory to
/// the out-root (`.` or `../..`); `project` is what all the project's
/// scripts define.
pub fn migrate_in(text: &str, root_rel: &str, project: &ProjectFacts) -> Outcome {
    let commands = match cmake_lang::parse(text) {
        Ok(c) => c,
        Err(e) => {
            return Outcome::Unparsed(Diagnostic::new(
                Code::BuildFileUnparsed,
                e.offset..e.offset,
                RULE,
                format!("not read as CMake ({}): copied as is, not migrated", e.message),
            ));
        }
    };
    let mut m = Migration {
        text,
        edits: Vec::new(),
        diagnostics: Vec::new(),
        archs: Vec::new(),
        changes: 0,
        cuda: false,
        own: project.clone(),
        link_device_code: false,
        unknown_reported: BTreeSet::new(),
        links_math: false,
    };
    m.own.add(&commands, text);
    // after the first project(): at top level, else after the outermost
    // block (`if`, `foreach`, ...) that holds it, so that every path has it
    let mut block_at = None;
    let mut depth = 0usize;
    let mut pending = false;
    for c in &commands {
        let name = c.lower_name(text);
        match name.as_str() {
            "if" | "foreach" | "while" | "function" | "macro" | "block" => depth += 1,
            "endif" | "endforeach" | "endwhile" | "endfunction" | "endmacro" | "endblock" => depth = depth.saturating_sub(1),
            _ => {}
        }
        if name == "project" && block_at.is_none() && !pending {
            if depth == 0 {
                block_at = Some(c.range.end);
            } else {
                pending = true;
            }
        } else if pending && depth == 0 && block_at.is_none() {
            block_at = Some(c.range.end);
        }
        m.command(c, &name);
    }
    if !m.cuda {
        return Outcome::Unchanged;
    }
    // unknown commands matter only in a script that builds CUDA
    for c in &commands {
        let name = c.lower_name(text);
        let t = table();
        let known = t.builtin_commands.contains(&name) || t.commands.contains_key(&name) || m.own.commands.contains(&name) || name.starts_with("syclify_");
        if !known && m.unknown_reported.insert(name.clone()) {
            m.diagnostics.push(Diagnostic::new(
                Code::BuildUnknownCommand,
                c.name.clone(),
                RULE,
                format!(
                    "`{}` is not a CMake command syclify knows, nor defined in this file: kept as written (its .cu file names renamed)",
                    &text[c.name.clone()]
                ),
            ));
        }
    }
    let header = block(m.archs.first().map(String::as_str), root_rel, m.links_math);
    match block_at {
        Some(at) => {
            let line_end = text[at..].find('\n').map_or(text.len(), |p| at + p + 1);
            let sep = if line_end == text.len() && !text.ends_with('\n') { "\n" } else { "" };
            m.edits.push((line_end..line_end, format!("{sep}{header}")));
        }
        None => m.edits.push((0..0, header)),
    }
    m.edits.sort_by_key(|(r, _)| (r.start, r.end));
    let mut out = String::with_capacity(text.len() + 1024);
    let mut at = 0;
    for (r, new) in &m.edits {
        if r.start < at {
            continue; // never overlapping by construction; a second edit of one place is ignored
        }
        out.push_str(&text[at..r.start]);
        out.push_str(new);
        at = r.end;
    }
    out.push_str(&text[at..]);
    Outcome::Migrated(Migrated { text: out, diagnostics: m.diagnostics, changes: m.changes })
}

/// The lines that include syclify's module.
fn block(arch: Option<&str>, root_rel: &str, links_math: bool) -> String {
    let mut arch_line = match arch {
        Some(a) => format!("set(SYCLIFY_DEFAULT_ARCH {a})  # the original's CUDA architecture\n"),
        None => String::new(),
    };
    if links_math {
        arch_line.push_str("set(SYCLIFY_MATH_LIBRARY ON)  # syclify::math: oneMath or oneMKL, for the migrated cuBLAS/cuRAND/cuFFT/cuSPARSE calls\n");
    }
    let dir = if root_rel == "." { String::new() } else { format!("/{root_rel}") };
    format!(
        "# ---- syclify: migrated from CUDA to SYCL ----
# syclify.cmake picks the SYCL implementation (-DSYCL_IMPL=dpcpp for icpx or
# clang++ -fsycl, -DSYCL_IMPL=acpp for AdaptiveCpp) and the GPU (SYCL_ARCH);
# syclify_add_sycl(target) builds a target's sources as SYCL.
{arch_line}include(\"${{CMAKE_CURRENT_LIST_DIR}}{dir}/{MODULE_REL}\")
# ---- end of syclify's block ----
"
    )
}

impl<'a> Migration<'a> {
    fn arg_text(&self, a: &Arg) -> &'a str {
        &self.text[a.range.clone()]
    }

    fn command(&mut self, c: &Command, name: &str) {
        let t = table();
        if let Some(e) = t.commands.get(name) {
            if let Some(why) = &e.drop {
                let shown = &self.text[c.name.clone()];
                self.comment_out(c, Code::BuildFlagDropped, format!("`{shown}(…)` commented out: {why}"));
                return;
            }
            if let Some(lib) = &e.library {
                let shown = &self.text[c.name.clone()];
                // `cuda_add_cublas_to_target(t)`: t links the math library
                // instead where the migrated sources call cuBLAS
                match (c.args.first(), super::math_library_fate(shown, lib, &self.own.math_libraries, true, "syclify::math")) {
                    (Some(target), Some((Some(_), message))) => {
                        let new = format!("target_link_libraries({} syclify::math)", self.arg_text(target));
                        self.remark_above(c.range.start, Code::BuildCudaLibrary, c.name.clone(), message);
                        self.edit(c.range.clone(), new);
                        self.links_math = true;
                    }
                    (_, Some((None, _))) => self.comment_out(
                        c,
                        Code::BuildCudaLibrary,
                        format!("`{shown}(…)` commented out: {lib} is a CUDA library that no migrated source calls: nothing to link instead"),
                    ),
                    _ => self.comment_out(
                        c,
                        Code::BuildCudaLibrary,
                        format!("`{shown}(…)` commented out: {lib} is a CUDA library, {}", super::library_fate(lib)),
                    ),
                }
                return;
            }
            if let Some(new) = &e.rename {
                self.edit(c.name.clone(), new.clone());
            }
        }
        let name = t.commands.get(name).and_then(|e| e.rename.as_deref()).unwrap_or(name);
        match name {
            "project" | "enable_language" => self.languages(c, name),
            "find_package" => {
                let pkg = c.args.first().map(|a| self.arg_text(a)).unwrap_or("");
                if matches!(pkg, "CUDA" | "CUDAToolkit") {
                    self.comment_out(c, Code::BuildFlagDropped, format!("`find_package({pkg})` commented out: the migrated sources need no CUDA toolkit"));
                    return;
                }
                self.plain(c);
            }
            "check_language" if c.args.first().is_some_and(|a| self.arg_text(a) == "CUDA") => {
                self.comment_out(c, Code::BuildFlagDropped, "`check_language(CUDA)` commented out: the migrated sources need no CUDA compiler".into());
            }
            "set" | "unset" | "option" => self.set_variable(c, 0),
            "list" | "string" if c.args.len() >= 2 => {
                let op = self.arg_text(&c.args[0]).to_ascii_uppercase();
                if matches!(op.as_str(), "APPEND" | "PREPEND" | "INSERT" | "REMOVE_ITEM") {
                    self.set_variable(c, 1);
                } else {
                    self.plain(c);
                }
            }
            "set_target_properties" | "set_source_files_properties" | "set_directory_properties" | "set_tests_properties" => self.properties(c),
            "set_property" => self.set_property(c),
            "target_link_libraries" | "link_libraries" => self.link_libraries(c, name == "target_link_libraries"),
            "target_compile_options" | "add_compile_options" | "target_link_options" | "add_link_options" | "add_definitions" => {
                let words = self.flag_words(c, if name.starts_with("target_") { 1 } else { 0 });
                self.translate(c, &words, true);
            }
            "add_executable" | "add_library" => self.add_target(c),
            "add_custom_command" if self.driver_module(c) => {}
            "include_directories" => self.include_directories(c, 0),
            "target_include_directories" => self.include_directories(c, 1),
            // a project's own command (HeCBench's `add_hecbench_benchmark(…
            // COMPILE_OPTIONS -use_fast_math)`): nvcc's flags among its
            // arguments are mapped like compile options
            _ if !t.builtin_commands.contains(name) => {
                let args: Vec<Arg> = c.args.iter().filter(|a| a.kind == ArgKind::Unquoted).cloned().collect();
                let words: Vec<Word> = args.iter().map(|a| Word { range: a.range.clone(), whole: true, genex: None }).collect();
                self.translate(c, &words, false);
                for a in c.args.iter().filter(|a| a.kind == ArgKind::Quoted) {
                    self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
                }
            }
            _ => self.plain(c),
        }
    }

    /// `add_custom_command(OUTPUT f COMMAND ${CMAKE_CUDA_COMPILER} ... -fatbin
    /// src)`: a module for CUDA's driver API, compiled by nvcc into PTX, a
    /// cubin or a fatbin. It becomes `syclify_add_module(f src)`: the
    /// migrated source as a SYCL shared library written to `f`, which the
    /// migrated cuModuleLoad opens. False where the command is not one.
    fn driver_module(&mut self, c: &Command) -> bool {
        let args: Vec<&str> = c.args.iter().map(|a| self.arg_text(a)).collect();
        let Some(at) = args.iter().position(|a| *a == "COMMAND") else {
            return false;
        };
        const KEYWORDS: &[&str] = &[
            "OUTPUT",
            "COMMAND",
            "MAIN_DEPENDENCY",
            "DEPENDS",
            "BYPRODUCTS",
            "IMPLICIT_DEPENDS",
            "WORKING_DIRECTORY",
            "COMMENT",
            "DEPFILE",
            "JOB_POOL",
            "JOB_SERVER_AWARE",
            "VERBATIM",
            "APPEND",
            "USES_TERMINAL",
            "COMMAND_EXPAND_LISTS",
            "DEPENDS_EXPLICIT_ONLY",
            "CODEGEN",
        ];
        let words: Vec<&str> = args[at + 1..].iter().copied().take_while(|a| !KEYWORDS.contains(a)).collect();
        let compiler = words.first().is_some_and(|w| *w == "${CMAKE_CUDA_COMPILER}" || w.rsplit('/').next() == Some("nvcc"));
        let Some(kind) = words.iter().find_map(|w| match w.trim_start_matches('-') {
            "ptx" => Some("PTX"),
            "cubin" => Some("a cubin"),
            "fatbin" => Some("a fatbin"),
            _ => None,
        }) else {
            return false;
        };
        let value_after = |key: &str| args.iter().position(|a| *a == key).and_then(|i| args.get(i + 1)).filter(|v| !KEYWORDS.contains(v)).copied();
        let Some(output) = value_after("OUTPUT") else {
            return false;
        };
        // the source: what the command compiles that it also depends on, else its last word
        let source = ["MAIN_DEPENDENCY", "DEPENDS"]
            .iter()
            .filter_map(|k| value_after(k))
            .find(|d| words.contains(d))
            .or_else(|| words.last().copied().filter(|w| !w.starts_with('-')));
        let Some(source) = source.filter(|_| compiler) else {
            return false;
        };
        let message = format!(
            "nvcc compiled `{source}` into {kind} for CUDA's driver API: the migrated module is a SYCL shared library written to `{output}` (cuModuleLoad opens it)"
        );
        let source = renamed(source).unwrap_or_else(|| source.to_string());
        self.remark_above(c.range.start, Code::BuildDriverModule, c.name.clone(), message);
        self.edit(c.range.clone(), format!("syclify_add_module({output} {source})"));
        true
    }

    /// Renames in every argument: file names, variable references, the
    /// CUDA generator-expression language.
    fn plain(&mut self, c: &Command) {
        for a in &c.args {
            if a.kind == ArgKind::Paren || a.kind == ArgKind::Bracket {
                continue;
            }
            self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
        }
    }

    /// A kept word: renamed where it names migrated files or CUDA variables;
    /// what still names CUDA is reported.
    fn keep_word(&mut self, w: &Word) {
        let raw = &self.text[w.range.clone()];
        let new = renamed(raw);
        if let Some(new) = &new {
            self.edit(w.range.clone(), new.clone());
        }
        let final_text = new.as_deref().unwrap_or(raw);
        if let Some(left) = cuda_left(final_text).filter(|l| !self.own.variables.contains(*l)) {
            self.diagnostics.push(Diagnostic::new(
                Code::BuildCudaLeft,
                w.range.clone(),
                RULE,
                format!("`{left}` names CUDA and was kept as written: it has no meaning in the SYCL build (a CUDA variable is empty there)"),
            ));
        }
    }

    fn edit(&mut self, range: Range<usize>, new: String) {
        if self.text[range.clone()] != new {
            self.edits.push((range, new));
            self.changes += 1;
            self.cuda = true;
        }
    }

    /// A `# syclify:` comment line above the line of `at`.
    fn remark_above(&mut self, at: usize, code: Code, range: Range<usize>, message: String) {
        let line_start = self.text[..at].rfind('\n').map_or(0, |p| p + 1);
        self.edits.push((line_start..line_start, format!("# syclify: {message} [{}]\n", code.code())));
        self.diagnostics.push(Diagnostic::new(code, range, RULE, message));
    }

    /// Comments a whole command out, with why above it; edits made inside it
    /// so far are dropped (not the comment lines inserted before it).
    fn comment_out(&mut self, c: &Command, code: Code, message: String) {
        self.edits.retain(|(r, _)| !(c.range.start <= r.start && r.end <= c.range.end && r.start != r.end));
        let text = self.text;
        let line_start = text[..c.range.start].rfind('\n').map_or(0, |p| p + 1);
        let line_end = text[c.range.end..].find('\n').map_or(text.len(), |p| c.range.end + p);
        let alone = text[line_start..c.range.start].trim().is_empty() && text[c.range.end..line_end].trim().is_empty();
        let body = &text[c.range.clone()];
        let commented = if alone {
            // `# ` before each of its lines
            body.replace('\n', "\n# ").replace("\n# \n", "\n#\n")
        } else {
            // inline: a bracket comment that its own text cannot close
            let mut eq = 0;
            while body.contains(&format!("]{}]", "=".repeat(eq))) {
                eq += 1;
            }
            let e = "=".repeat(eq);
            format!("#[{e}[ {body} ]{e}]")
        };
        let commented = if alone { format!("# {commented}") } else { commented };
        self.edits.push((c.range.clone(), commented));
        self.remark_above(c.range.start, code, c.name.clone(), message);
        self.changes += 1;
        self.cuda = true;
    }

    /// `project()`/`enable_language()`: CUDA leaves the languages, or
    /// becomes CXX where CXX is not among them.
    fn languages(&mut self, c: &Command, name: &str) {
        let args: Vec<&Arg> = c.args.iter().collect();
        let langs: Vec<&Arg> = if name == "enable_language" {
            args.clone()
        } else if let Some(p) = args.iter().position(|a| self.arg_text(a) == "LANGUAGES") {
            args[p + 1..].iter().take_while(|a| !matches!(self.arg_text(a), "VERSION" | "DESCRIPTION" | "HOMEPAGE_URL")).copied().collect()
        } else {
            // project(name [lang…]) with no keyword
            args.iter().skip(1).take_while(|a| !matches!(self.arg_text(a), "VERSION" | "DESCRIPTION" | "HOMEPAGE_URL")).copied().collect()
        };
        let has_cxx = langs.iter().any(|a| self.arg_text(a) == "CXX");
        for a in &langs {
            if self.arg_text(a) != "CUDA" {
                continue;
            }
            if has_cxx && langs.len() > 1 {
                self.drop_word(&Word { range: a.range.clone(), whole: true, genex: None });
            } else {
                self.edit(a.range.clone(), "CXX".into());
            }
        }
        let skip: BTreeSet<usize> = langs.iter().map(|a| a.range.start).collect();
        for a in c.args.iter().filter(|a| !skip.contains(&a.range.start) && a.kind != ArgKind::Paren) {
            self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
        }
    }

    /// `set(VAR …)`, `list(APPEND VAR …)`, `string(APPEND VAR …)`: the
    /// variable is at argument `at`.
    fn set_variable(&mut self, c: &Command, at: usize) {
        let Some(var_arg) = c.args.get(at) else {
            return self.plain(c);
        };
        let var = self.arg_text(var_arg).to_string();
        let Some(e) = table().variables.get(&var) else {
            return self.plain(c);
        };
        let values: Vec<Arg> = c.args[at + 1..].iter().filter(|a| !is_set_keyword(self.arg_text(a))).cloned().collect();
        if let Some(why) = &e.drop {
            return self.comment_out(c, Code::BuildFlagDropped, format!("`{var}` commented out: {why}"));
        }
        match e.kind {
            Some(VarKind::Arch) => {
                let archs: Vec<String> = values.iter().flat_map(|a| cmake_archs(&self.text[a.content(self.text)])).collect();
                let message = match archs.first() {
                    Some(a) => format!("`{var}` commented out: the GPU architecture is SYCL_ARCH ({a}) now"),
                    None => format!("`{var}` commented out: SYCL_ARCH names the GPU architecture"),
                };
                self.archs.extend(archs);
                return self.comment_out(c, Code::BuildFlagDropped, message);
            }
            Some(VarKind::Rdc) if !self.own.device_code_across_units => {
                return self.comment_out(c, Code::BuildFlagDropped, format!("`{var}` commented out: {NO_CROSS_UNIT_DEVICE_CODE}"));
            }
            Some(VarKind::Rdc) => {
                // the same switch for syclify_add_sycl: such targets are built
                // as one translation unit where the implementation cannot link
                // device code across units
                self.edit(var_arg.range.clone(), "SYCLIFY_LINK_DEVICE_CODE".into());
                if !values.iter().all(|v| is_false(self.arg_text(v))) {
                    self.remark_above(
                        c.range.start,
                        Code::BuildRelocatableDeviceCode,
                        var_arg.range.clone(),
                        format!("`{var}` became SYCLIFY_LINK_DEVICE_CODE: {}", rdc_why()),
                    );
                }
                return;
            }
            _ => {}
        }
        if let Some(new) = &e.rename {
            self.edit(var_arg.range.clone(), new.clone());
        }
        match e.kind {
            Some(VarKind::Std) => {
                for a in &values {
                    self.raise_std(a);
                }
            }
            Some(VarKind::Flags | VarKind::Flaglist) => {
                let words = self.flag_words_of(&values);
                self.translate(c, &words, false);
            }
            _ => {
                for a in &values {
                    self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
                }
            }
        }
    }

    /// A language standard value below 17 becomes 17.
    fn raise_std(&mut self, a: &Arg) {
        let v = self.arg_text(a);
        match v.parse::<u32>() {
            Ok(n) if n < 17 || n == 98 => {
                self.edit(a.range.clone(), "17".into());
                self.remark_above(a.range.start, Code::BuildFlagDropped, a.range.clone(), format!("C++ standard {v} raised to 17: SYCL 2020 needs C++17"));
            }
            _ => self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None }),
        }
    }

    /// `set_target_properties(t… PROPERTIES name value …)` and its kin.
    fn properties(&mut self, c: &Command) {
        let Some(p) = c.args.iter().position(|a| self.arg_text(a) == "PROPERTIES") else {
            return self.plain(c);
        };
        for a in &c.args[..p] {
            self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
        }
        let pairs: Vec<(&Arg, Option<&Arg>)> = c.args[p + 1..].chunks(2).map(|ch| (&ch[0], ch.get(1))).collect();
        let mut kept = 0;
        for (name, value) in &pairs {
            let values: Vec<&Arg> = value.iter().copied().collect();
            if self.property(c, name, &values) {
                kept += 1;
            }
        }
        if kept == 0 && !pairs.is_empty() {
            // every property went: the command goes too
            self.comment_out(c, Code::BuildFlagDropped, "commented out: it sets only CUDA properties".into());
        }
        let targets: Vec<String> = c.args[..p].iter().map(|a| self.arg_text(a).to_string()).collect();
        self.link_after(c, &targets);
    }

    /// After a command that turned on separable compilation for `targets`:
    /// `syclify_link_device_code(targets)` on the next line.
    fn link_after(&mut self, c: &Command, targets: &[String]) {
        if !std::mem::take(&mut self.link_device_code) || targets.is_empty() {
            return;
        }
        let text = self.text;
        let line_start = text[..c.range.start].rfind('\n').map_or(0, |p| p + 1);
        let indent: String = text[line_start..c.range.start].chars().take_while(|ch| ch.is_whitespace()).collect();
        let (at, lead) = match text[c.range.end..].find('\n') {
            Some(p) => (c.range.end + p + 1, ""),
            None => (text.len(), "\n"),
        };
        self.edits.push((at..at, format!("{lead}{indent}syclify_link_device_code({})\n", targets.join(" "))));
        self.changes += 1;
    }

    /// `set_property(TARGET|SOURCE … [APPEND] PROPERTY name values…)`.
    fn set_property(&mut self, c: &Command) {
        let Some(p) = c.args.iter().position(|a| self.arg_text(a) == "PROPERTY") else {
            return self.plain(c);
        };
        for a in &c.args[..p] {
            self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
        }
        let Some(name) = c.args.get(p + 1) else { return };
        let values: Vec<&Arg> = c.args[p + 2..].iter().collect();
        if !self.property(c, name, &values) {
            self.comment_out(c, Code::BuildFlagDropped, format!("commented out: it sets only the CUDA property {}", self.arg_text(name)));
        }
        let targets: Vec<String> = if c.args.first().is_some_and(|a| self.arg_text(a) == "TARGET") {
            c.args[1..p].iter().map(|a| self.arg_text(a).to_string()).filter(|t| !matches!(t.as_str(), "APPEND" | "APPEND_STRING")).collect()
        } else {
            Vec::new()
        };
        self.link_after(c, &targets);
    }

    /// One property and its values; false when it was removed.
    fn property(&mut self, c: &Command, name: &Arg, values: &[&Arg]) -> bool {
        let prop = self.arg_text(name).to_string();
        if prop == "LANGUAGE" {
            for v in values {
                if self.arg_text(v) == "CUDA" {
                    self.edit(v.range.clone(), "CXX".into());
                }
            }
            return true;
        }
        let Some(e) = table().properties.get(&prop) else {
            for a in std::iter::once(name).chain(values.iter().copied()) {
                self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
            }
            return true;
        };
        let (code, message) = match (e.kind, &e.drop) {
            (_, Some(why)) => (Code::BuildFlagDropped, format!("property `{prop}` removed: {why}")),
            (Some(VarKind::Arch), _) => {
                let archs: Vec<String> = values.iter().flat_map(|a| cmake_archs(&self.text[a.content(self.text)])).collect();
                let m = match archs.first() {
                    Some(a) => format!("property `{prop}` removed: the GPU architecture is SYCL_ARCH ({a}) now"),
                    None => format!("property `{prop}` removed: SYCL_ARCH names the GPU architecture"),
                };
                self.archs.extend(archs);
                (Code::BuildFlagDropped, m)
            }
            (Some(VarKind::Rdc), _) if values.iter().all(|v| is_false(self.arg_text(v))) => (
                Code::BuildFlagDropped,
                format!("property `{prop}` removed: it was off, and a SYCL build keeps device code in its translation unit unless told otherwise"),
            ),
            (Some(VarKind::Rdc), _) if prop == "CUDA_SEPARABLE_COMPILATION" && !self.own.device_code_across_units => {
                (Code::BuildFlagDropped, format!("property `{prop}` removed: {NO_CROSS_UNIT_DEVICE_CODE}"))
            }
            (Some(VarKind::Rdc), _) if prop == "CUDA_SEPARABLE_COMPILATION" => {
                self.link_device_code = true;
                (Code::BuildRelocatableDeviceCode, format!("property `{prop}` became syclify_link_device_code(): {}", rdc_why()))
            }
            (Some(VarKind::Rdc), _) => {
                (Code::BuildFlagDropped, format!("property `{prop}` removed: a SYCL build links device code when the implementation can"))
            }
            _ => {
                if let Some(new) = &e.rename {
                    self.edit(name.range.clone(), new.clone());
                }
                if e.kind == Some(VarKind::Std) {
                    for v in values {
                        self.raise_std(v);
                    }
                }
                return true;
            }
        };
        self.drop_word(&Word { range: name.range.clone(), whole: true, genex: None });
        for v in values {
            self.drop_word(&Word { range: v.range.clone(), whole: true, genex: None });
        }
        self.remark_above(c.range.start, code, name.range.clone(), message);
        false
    }

    /// `target_link_libraries`: CUDA's runtime goes, a CUDA library goes
    /// with a warning.
    fn link_libraries(&mut self, c: &Command, has_target: bool) {
        let t = table();
        let mut removed = 0;
        let mut libs = 0;
        let mut first_math = true;
        for (i, a) in c.args.iter().enumerate() {
            let v = self.arg_text(a);
            if (has_target && i == 0) || matches!(v, "PRIVATE" | "PUBLIC" | "INTERFACE" | "LINK_PRIVATE" | "LINK_PUBLIC" | "LINK_INTERFACE_LIBRARIES") {
                self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
                continue;
            }
            libs += 1;
            if t.runtime_libraries.contains(v) || v.starts_with("-lcudart") {
                self.drop_word(&Word { range: a.range.clone(), whole: true, genex: None });
                self.remark_above(
                    c.range.start,
                    Code::BuildFlagDropped,
                    a.range.clone(),
                    format!("`{v}` removed: CUDA's runtime, replaced by the SYCL runtime"),
                );
                removed += 1;
            } else if let Some((replacement, message)) =
                cuda_library(v).and_then(|lib| super::math_library_fate(v, &lib, &self.own.math_libraries, first_math, "syclify::math"))
            {
                // a math library the migrated sources call: the first becomes syclify::math
                match replacement {
                    Some(new) => {
                        if new == "syclify::math" {
                            first_math = false;
                            self.links_math = true;
                        }
                        self.edit(a.range.clone(), new);
                    }
                    None => {
                        self.drop_word(&Word { range: a.range.clone(), whole: true, genex: None });
                        removed += 1;
                    }
                }
                self.remark_above(c.range.start, Code::BuildCudaLibrary, a.range.clone(), message);
            } else if let Some(lib) = cuda_library(v) {
                self.drop_word(&Word { range: a.range.clone(), whole: true, genex: None });
                self.remark_above(
                    c.range.start,
                    Code::BuildCudaLibrary,
                    a.range.clone(),
                    format!("`{v}` removed: {lib} is a CUDA library, {}", super::library_fate(&lib)),
                );
                removed += 1;
            } else {
                self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
            }
        }
        if removed > 0 && removed == libs {
            self.comment_out(c, Code::BuildFlagDropped, "commented out: it links only CUDA libraries".into());
        }
    }

    /// `add_executable`/`add_library` (also renamed from FindCUDA's): the
    /// target builds with SYCL; `OPTIONS` (FindCUDA's nvcc flags) become its
    /// compile options.
    fn add_target(&mut self, c: &Command) {
        let Some(target) = c.args.first() else {
            return self.plain(c);
        };
        let second = c.args.get(1).map(|a| self.arg_text(a)).unwrap_or("");
        if matches!(second, "IMPORTED" | "ALIAS" | "INTERFACE") {
            return self.plain(c);
        }
        let options_at = c.args.iter().position(|a| self.arg_text(a) == "OPTIONS");
        let sources = &c.args[..options_at.unwrap_or(c.args.len())];
        for a in sources {
            self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
        }
        let target_text = self.arg_text(target).to_string();
        let indent: String = {
            let line_start = self.text[..c.range.start].rfind('\n').map_or(0, |p| p + 1);
            self.text[line_start..c.range.start].chars().take_while(|ch| ch.is_whitespace()).collect()
        };
        let mut after = format!("\n{indent}syclify_add_sycl({target_text})");
        if let Some(p) = options_at {
            // OPTIONS flags… [RELEASE|DEBUG flags…]
            let opts: Vec<Arg> =
                c.args[p + 1..].iter().filter(|a| !matches!(self.arg_text(a), "RELEASE" | "DEBUG" | "RELWITHDEBINFO" | "MINSIZEREL")).cloned().collect();
            let words: Vec<String> = opts.iter().map(|a| self.text[a.content(self.text)].to_string()).collect();
            let refs: Vec<&str> = words.iter().map(String::as_str).collect();
            let tr = nvcc_flags::translate(&refs);
            let mut kept = Vec::new();
            for (w, act) in words.iter().zip(&tr.actions) {
                match act {
                    Action::Keep => kept.push(w.clone()),
                    Action::Replace(r) => kept.push(r.clone()),
                    Action::Drop => {}
                }
            }
            self.archs.extend(tr.archs.iter().cloned());
            for r in &tr.remarks {
                let range = opts.get(r.word).map_or(c.range.start..c.range.start, |a| a.range.clone());
                self.remark_above(c.range.start, r.kind.code(), range, r.message.clone());
            }
            // the OPTIONS part leaves the command
            let from = self.text[..c.args[p].range.start].trim_end().len();
            let to = c.args.last().map_or(c.range.end - 1, |a| a.range.end);
            self.edits.push((from..to, String::new()));
            self.changes += 1;
            self.cuda = true;
            if !kept.is_empty() {
                after.push_str(&format!("\n{indent}target_compile_options({target_text} PRIVATE {})", kept.join(" ")));
            }
        }
        self.edits.push((c.range.end..c.range.end, after));
        self.changes += 1;
    }

    /// The flag words of a command's arguments from argument `from` on (the
    /// scope keywords `PRIVATE`/`PUBLIC`/`INTERFACE`/`BEFORE` excluded).
    fn flag_words(&mut self, c: &Command, from: usize) -> Vec<Word> {
        for a in &c.args[..from.min(c.args.len())] {
            self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
        }
        let args: Vec<Arg> = c.args.iter().skip(from).filter(|a| !matches!(self.arg_text(a), "PRIVATE" | "PUBLIC" | "INTERFACE" | "BEFORE")).cloned().collect();
        self.flag_words_of(&args)
    }

    fn flag_words_of(&mut self, args: &[Arg]) -> Vec<Word> {
        let mut out = Vec::new();
        for a in args {
            if matches!(a.kind, ArgKind::Paren | ArgKind::Bracket) {
                continue;
            }
            let content = a.content(self.text);
            let raw = &self.text[content.clone()];
            // $<$<COMPILE_LANGUAGE:CUDA>:flags>, quoted or not: flags of a `;`-list
            let genex = cached_regex!(r"^\$<\$<COMPILE_LANGUAGE:CUDA>:(.*)>$");
            if let Some(caps) = genex.captures(raw) {
                let inner = caps.get(1).map_or(0..0, |m| m.range());
                let lang = raw.find("CUDA").unwrap_or(0);
                self.edit(content.start + lang..content.start + lang + 4, "CXX".into());
                let mut at = content.start + inner.start;
                for part in raw[inner.clone()].split([';', ',']) {
                    if !part.is_empty() {
                        out.push(Word { range: at..at + part.len(), whole: false, genex: Some(a.range.clone()) });
                    }
                    at += part.len() + 1;
                }
            } else if a.kind == ArgKind::Quoted {
                // blank-separated flags in one string
                for (r, space) in super::makefile::words(raw, content.start) {
                    if !space {
                        out.push(Word { range: r, whole: false, genex: None });
                    }
                }
            } else if raw.contains(';') && !raw.contains("$<") {
                let mut at = content.start;
                for part in raw.split(';') {
                    if !part.is_empty() {
                        out.push(Word { range: at..at + part.len(), whole: false, genex: None });
                    }
                    at += part.len() + 1;
                }
            } else {
                out.push(Word { range: a.range.clone(), whole: true, genex: None });
            }
        }
        out
    }

    /// Translates nvcc flags among `words`, in place. A `$<…:flags>` whose
    /// every flag goes goes too; with `comment_if_empty`, a command whose
    /// every flag goes is commented out.
    fn translate(&mut self, c: &Command, words: &[Word], comment_if_empty: bool) {
        let texts: Vec<&str> = words.iter().map(|w| &self.text[w.range.clone()]).collect();
        let tr = nvcc_flags::translate(&texts);
        if comment_if_empty && !words.is_empty() && tr.actions.iter().all(|a| *a == Action::Drop) {
            for r in &tr.remarks {
                let range = words.get(r.word).map_or(c.range.clone(), |w| w.range.clone());
                self.remark_above(c.range.start, r.kind.code(), range, r.message.clone());
            }
            return self.comment_out(c, Code::BuildFlagDropped, "commented out: every flag it gives is nvcc's alone".into());
        }
        self.archs.extend(tr.archs.iter().cloned());
        let mut emptied: BTreeSet<usize> = BTreeSet::new();
        for (w, _) in words.iter().zip(&tr.actions) {
            if let Some(g) = &w.genex {
                let all_dropped = words.iter().zip(&tr.actions).filter(|(x, _)| x.genex.as_ref() == Some(g)).all(|(_, a)| *a == Action::Drop);
                if all_dropped && emptied.insert(g.start) {
                    self.edits.retain(|(r, _)| !(g.start <= r.start && r.end <= g.end));
                    self.drop_word(&Word { range: g.clone(), whole: true, genex: None });
                }
            }
        }
        for (w, act) in words.iter().zip(&tr.actions) {
            if w.genex.as_ref().is_some_and(|g| emptied.contains(&g.start)) {
                continue;
            }
            match act {
                Action::Keep => self.keep_word(w),
                Action::Replace(r) => self.edit(w.range.clone(), r.clone()),
                Action::Drop => self.drop_word(w),
            }
        }
        for r in &tr.remarks {
            let range = words.get(r.word).map_or(c.range.clone(), |w| w.range.clone());
            self.remark_above(c.range.start, r.kind.code(), range, r.message.clone());
        }
    }

    /// `include_directories`/`target_include_directories`: the CUDA
    /// toolkit's directories go.
    fn include_directories(&mut self, c: &Command, skip: usize) {
        let mut dirs = 0;
        let mut dropped = 0;
        for (i, a) in c.args.iter().enumerate() {
            let v = self.arg_text(a);
            if i < skip || matches!(v, "SYSTEM" | "BEFORE" | "AFTER" | "PRIVATE" | "PUBLIC" | "INTERFACE") {
                self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
                continue;
            }
            dirs += 1;
            if cached_regex!(r"^\$\{(?:CUDA_INCLUDE_DIRS|CUDAToolkit_INCLUDE_DIRS|CUDA_TOOLKIT_INCLUDE)\}$|\$\{(?:CUDA_TOOLKIT_ROOT_DIR|CUDAToolkit_ROOT|CUDA_HOME|CUDA_PATH)\}").is_match(v) {
                let shown = v.to_string();
                self.drop_word(&Word { range: a.range.clone(), whole: true, genex: None });
                self.remark_above(c.range.start, Code::BuildFlagDropped, a.range.clone(), format!("`{shown}` removed: a directory of the CUDA toolkit, not needed by the SYCL build"));
                dropped += 1;
            } else {
                self.keep_word(&Word { range: a.range.clone(), whole: true, genex: None });
            }
        }
        if dirs > 0 && dropped == dirs {
            self.comment_out(c, Code::BuildFlagDropped, "commented out: it names only the CUDA toolkit's directories".into());
        }
    }

    /// Removes a word and one separator beside it.
    fn drop_word(&mut self, w: &Word) {
        let b = self.text.as_bytes();
        let mut start = w.range.start;
        let mut end = w.range.end;
        if w.whole {
            // back to the end of what comes before (blanks and newlines);
            // right after `(`, on to what comes after
            while start > 0 && matches!(b[start - 1], b' ' | b'\t' | b'\n' | b'\r') {
                start -= 1;
            }
            if start == w.range.start {
                while end < b.len() && matches!(b[end], b' ' | b'\t' | b'\n' | b'\r') {
                    end += 1;
                }
            }
        } else if start > 0 && matches!(b[start - 1], b' ' | b'\t' | b';' | b',') {
            start -= 1;
        } else if matches!(b.get(end), Some(b' ' | b'\t' | b';' | b',')) {
            end += 1;
        }
        self.edits.push((start..end, String::new()));
        self.changes += 1;
        self.cuda = true;
    }
}

/// Why separable compilation goes where nothing needs it.
const NO_CROSS_UNIT_DEVICE_CODE: &str =
    "no kernel or device function of the migrated sources is called from another translation unit, so no device code needs linking across units";

fn rdc_why() -> &'static str {
    "device code linked across translation units; DPC++ and AdaptiveCpp's generic target (--acpp-targets=generic) do this themselves, and for AdaptiveCpp's CUDA multipass target syclify.cmake builds such a target as one translation unit (UNITY_BUILD)"
}

/// CMake's false constants.
fn is_false(s: &str) -> bool {
    let u = s.trim_matches('"').to_ascii_uppercase();
    matches!(u.as_str(), "OFF" | "FALSE" | "0" | "NO" | "N" | "IGNORE" | "NOTFOUND" | "") || u.ends_with("-NOTFOUND")
}

fn is_set_keyword(s: &str) -> bool {
    matches!(s, "CACHE" | "PARENT_SCOPE" | "FORCE" | "STRING" | "BOOL" | "INTERNAL" | "PATH" | "FILEPATH")
}

/// The CUDA library a link item names (`CUDA::cublas`, `cublas`,
/// `${CUDA_cublas_LIBRARY}`, `${CUDA_CUBLAS_LIBRARIES}`, `-lcublas`).
fn cuda_library(v: &str) -> Option<String> {
    let libs = &table().cuda_libraries;
    let find = |name: &str| libs.iter().find(|l| l.eq_ignore_ascii_case(name)).cloned();
    if let Some(n) = v.strip_prefix("CUDA::") {
        return find(n.trim_end_matches("_static")).or_else(|| Some(n.to_string()));
    }
    if let Some(caps) = cached_regex!(r"^\$\{CUDA_(\w+?)_(?:LIBRARY|LIBRARIES)\}$").captures(v) {
        return find(&caps[1]);
    }
    find(v.strip_prefix("-l").unwrap_or(v))
}

/// GPU architectures in a CMake value: `70`, `80-real`, `sm_86`, `70;80`.
fn cmake_archs(v: &str) -> Vec<String> {
    v.split([';', ' ', ','])
        .filter_map(|p| {
            let p = p.trim().trim_end_matches("-real").trim_end_matches("-virtual");
            let digits = p.trim_start_matches("sm_").trim_start_matches("compute_");
            (!digits.is_empty() && digits.chars().next().is_some_and(|c| c.is_ascii_digit()) && digits.chars().all(|c| c.is_ascii_alphanumeric()))
                .then(|| format!("sm_{digits}"))
        })
        .collect()
}

/// A word's text with migrated names: `.cu`/`.cuh` files, renamed CUDA
/// variables in `${…}` references, `$<COMPILE_LANGUAGE:CUDA>`.
fn renamed(raw: &str) -> Option<String> {
    let mut s = raw.to_string();
    if let Some(r) = super::rename_cuda_files(&s) {
        s = r;
    }
    if s.contains("${") {
        let vars = &table().variables;
        let re = cached_regex!(r"\$\{(\w+)\}");
        s = re
            .replace_all(&s, |c: &regex::Captures| match vars.get(&c[1]).and_then(|e| e.rename.as_ref()) {
                Some(new) => format!("${{{new}}}"),
                None => c[0].to_string(),
            })
            .into_owned();
    }
    if s.contains("COMPILE_LANGUAGE:CUDA") {
        s = s.replace("COMPILE_LANGUAGE:CUDA", "COMPILE_LANGUAGE:CXX");
    }
    (s != raw).then_some(s)
}

/// A CUDA name left in a kept word: `CUDA::x`, `CMAKE_CUDA_*`, `CUDA_*`,
/// `CUDAToolkit_*`, `nvcc`, the language `CUDA`.
fn cuda_left(s: &str) -> Option<&str> {
    let re = cached_regex!(r"(?-u:\b)CUDA::\w+|(?-u:\b)CMAKE_CUDA_\w+|(?-u:\b)CUDA(?:Toolkit)?_\w+|(?-u:\b)nvcc(?-u:\b)|^CUDA$");
    re.find(s).map(|m| m.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> String {
        match migrate(text, ".") {
            Outcome::Migrated(m) => {
                let t = m.text;
                let start = t.find("# ---- syclify").unwrap();
                let end = t.find("# ---- end of syclify's block ----\n").unwrap() + "# ---- end of syclify's block ----\n".len();
                format!("{}{}", &t[..start], &t[end..])
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn findcuda_library_commands_link_the_math_library_where_it_is_called() {
        let text = "project(p CXX CUDA)\ncuda_add_executable(app main.cu)\ncuda_add_cublas_to_target(app)\n";
        let used = ProjectFacts { math_libraries: BTreeSet::from(["cublas"]), ..Default::default() };
        let Outcome::Migrated(m) = migrate_in(text, ".", &used) else { panic!() };
        assert!(m.text.contains("\ntarget_link_libraries(app syclify::math)\n"), "{}", m.text);
        assert!(m.text.contains("set(SYCLIFY_MATH_LIBRARY ON)"), "{}", m.text);
        let Outcome::Migrated(m) = migrate_in(text, ".", &ProjectFacts::default()) else { panic!() };
        assert!(m.text.contains("# cuda_add_cublas_to_target(app)"), "{}", m.text);
        assert!(m.text.contains("no migrated source calls"), "{}", m.text);
        assert!(!m.text.contains("SYCLIFY_MATH_LIBRARY"), "{}", m.text);
    }

    #[test]
    fn the_table_loads() {
        assert!(table().commands.contains_key("cuda_add_executable"));
        assert!(table().builtin_commands.contains("add_executable"));
    }

    #[test]
    fn a_script_without_cuda_is_left_alone() {
        assert!(matches!(migrate("project(x CXX)\nadd_library(a a.cpp)\n", "."), Outcome::Unchanged));
    }

    #[test]
    fn modern_cuda_project() {
        let text = "cmake_minimum_required(VERSION 3.18)\nproject(demo LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80)\nset(CMAKE_CUDA_STANDARD 14)\nset(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} --use_fast_math -lineinfo\")\nfind_package(CUDAToolkit REQUIRED)\nadd_executable(demo main.cu util.cpp)\ntarget_link_libraries(demo PRIVATE CUDA::cudart m)\n";
        let out = body(text);
        assert_eq!(
            out,
            "cmake_minimum_required(VERSION 3.18)\nproject(demo LANGUAGES CXX)\n# syclify: `CMAKE_CUDA_ARCHITECTURES` commented out: the GPU architecture is SYCL_ARCH (sm_80) now [SY0801]\n# set(CMAKE_CUDA_ARCHITECTURES 80)\n# syclify: C++ standard 14 raised to 17: SYCL 2020 needs C++17 [SY0801]\nset(CMAKE_CXX_STANDARD 17)\n# syclify: `-lineinfo` dropped: line information for profilers of device code; -g keeps it for a SYCL compiler [SY0801]\nset(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -ffast-math\")\n# syclify: `find_package(CUDAToolkit)` commented out: the migrated sources need no CUDA toolkit [SY0801]\n# find_package(CUDAToolkit REQUIRED)\nadd_executable(demo main.dp.cpp util.cpp)\nsyclify_add_sycl(demo)\n# syclify: `CUDA::cudart` removed: CUDA's runtime, replaced by the SYCL runtime [SY0801]\ntarget_link_libraries(demo PRIVATE m)\n"
        );
        let Outcome::Migrated(m) = migrate(text, "../..") else { panic!() };
        assert!(m.text.contains("set(SYCLIFY_DEFAULT_ARCH sm_80)"));
        assert!(m.text.contains("include(\"${CMAKE_CURRENT_LIST_DIR}/../../include/syclify/syclify.cmake\")"));
        assert!(m.text.find("project(").unwrap() < m.text.find("include(").unwrap());
    }

    #[test]
    fn find_cuda_era_project() {
        let text = "project(old)\nfind_package(CUDA REQUIRED)\nlist(APPEND CUDA_NVCC_FLAGS -arch=sm_70 -Xcompiler -fopenmp)\ncuda_add_executable(app main.cu kernels.cu OPTIONS -G)\nCUDA_ADD_CUBLAS_TO_TARGET(app)\n";
        let out = body(text);
        assert!(out.contains("list(APPEND SYCLIFY_NVCC_FLAGS -fopenmp)"), "{out}");
        assert!(out.contains("add_executable(app main.dp.cpp kernels.dp.cpp)\nsyclify_add_sycl(app)\ntarget_compile_options(app PRIVATE -g)"), "{out}");
        assert!(out.contains("# CUDA_ADD_CUBLAS_TO_TARGET(app)"), "{out}");
        assert!(out.contains("# find_package(CUDA REQUIRED)"), "{out}");
    }

    #[test]
    fn properties_and_generator_expressions() {
        let text = "project(p CUDA)\nadd_library(k STATIC k.cu)\nset_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON POSITION_INDEPENDENT_CODE ON)\nset_property(TARGET k PROPERTY CUDA_ARCHITECTURES 70 80)\nset_source_files_properties(x.cpp PROPERTIES LANGUAGE CUDA)\ntarget_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)\n";
        let out = body(text);
        assert!(out.starts_with("project(p CXX)\n"), "{out}");
        assert!(out.contains("set_target_properties(k PROPERTIES POSITION_INDEPENDENT_CODE ON)"), "{out}");
        assert!(out.contains("# set_property(TARGET k PROPERTY CUDA_ARCHITECTURES 70 80)"), "{out}");
        assert!(out.contains("set_source_files_properties(x.cpp PROPERTIES LANGUAGE CXX)"), "{out}");
        assert!(out.contains("target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-ffast-math>)"), "{out}");
        let out = body("add_library(k k.cu)\ntarget_compile_options(k PRIVATE \"$<$<COMPILE_LANGUAGE:CUDA>:-O3;--use_fast_math;-lineinfo>\" -G;-O1)\n");
        assert!(out.contains("target_compile_options(k PRIVATE \"$<$<COMPILE_LANGUAGE:CXX>:-O3;-ffast-math>\" -g;-O1)"), "{out}");
    }

    #[test]
    fn libraries_unknown_commands_and_leftovers() {
        let text = "add_executable(a a.cu)\ntarget_link_libraries(a CUDA::cublas ${CUDA_LIBRARIES})\nmy_helper(a)\nif(CMAKE_CUDA_COMPILER)\nendif()\n";
        let Outcome::Migrated(m) = migrate(text, ".") else { panic!() };
        assert!(m.text.contains("# target_link_libraries(a CUDA::cublas ${CUDA_LIBRARIES})"), "{}", m.text);
        let codes: Vec<&str> = m.diagnostics.iter().map(|d| d.code.code()).collect();
        assert!(codes.contains(&"SY0802") && codes.contains(&"SY0804") && codes.contains(&"SY0805"), "{codes:?}");
    }

    #[test]
    fn inline_commands_are_commented_inline() {
        let out = body("if(X) find_package(CUDA) endif()\nadd_executable(a a.cu)\n");
        assert!(out.contains("if(X) #[[ find_package(CUDA) ]] endif()"), "{out}");
    }

    #[test]
    fn bad_syntax_is_reported_not_migrated() {
        let Outcome::Unparsed(d) = migrate("project(x CUDA\nadd_executable(a a.cu)\n", ".") else { panic!() };
        assert_eq!(d.code, Code::BuildFileUnparsed);
    }

    #[test]
    fn emptied_options_and_toolkit_directories_go() {
        let out = body(
            "add_library(k k.cu)\ntarget_compile_options(k PRIVATE -O2 $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo;-Xptxas=-v>)\ntarget_compile_options(k PRIVATE -lineinfo)\ninclude_directories(${CUDA_INCLUDE_DIRS} inc)\ntarget_include_directories(k PRIVATE ${CUDAToolkit_INCLUDE_DIRS})\n",
        );
        assert!(out.contains("target_compile_options(k PRIVATE -O2)\n"), "{out}");
        assert!(out.contains("# target_compile_options(k PRIVATE -lineinfo)\n"), "{out}");
        assert!(out.contains("include_directories(inc)\n"), "{out}");
        assert!(out.contains("# target_include_directories(k PRIVATE ${CUDAToolkit_INCLUDE_DIRS})\n"), "{out}");
    }

    #[test]
    fn a_project_that_enables_cuda_in_a_branch() {
        let text = "if(HIP)\n  project(p LANGUAGES CXX HIP)\nelse()\n  project(p LANGUAGES CXX)\nendif()\nset(CUDA_VARIANT_DIR x)\nenable_language(CUDA)\nadd_bench(NAME a)\n";
        let project = {
            let mut f = ProjectFacts::default();
            f.scan("function(add_bench)\nendfunction()\n");
            f
        };
        let Outcome::Migrated(m) = migrate_in(text, ".", &project) else { panic!() };
        // the block comes after the `if` that holds project(), on every path
        assert!(m.text.starts_with("if(HIP)\n  project(p LANGUAGES CXX HIP)\nelse()\n  project(p LANGUAGES CXX)\nendif()\n# ---- syclify"), "{}", m.text);
        // a project's own CUDA_-named variable and command are neither CUDA left nor unknown
        let codes: Vec<&str> = m.diagnostics.iter().map(|d| d.code.code()).collect();
        assert!(!codes.contains(&"SY0804") && !codes.contains(&"SY0805"), "{:?}", m.diagnostics);
    }

    #[test]
    fn nvcc_flags_in_a_projects_own_command() {
        let out = body("add_bench(NAME a SOURCES main.cu COMPILE_OPTIONS -use_fast_math -lineinfo -O3)\n");
        assert!(out.contains("add_bench(NAME a SOURCES main.dp.cpp COMPILE_OPTIONS -ffast-math -O3)\n"), "{out}");
    }

    #[test]
    fn separable_compilation_becomes_device_code_linking() {
        let text = "add_executable(a a.cu b.cu)\nset_target_properties(a PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\nset(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n";
        let facts = ProjectFacts { device_code_across_units: true, ..Default::default() };
        let Outcome::Migrated(m) = migrate_in(text, ".", &facts) else { panic!() };
        assert!(m.text.contains("# set_target_properties(a PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\nsyclify_link_device_code(a)\n"), "{}", m.text);
        assert!(m.text.contains("set(SYCLIFY_LINK_DEVICE_CODE ON)\n"), "{}", m.text);
        // where no device code crosses units (HeCBench turns it on for every
        // program), it simply goes: one unit per source stays
        let out = body(text);
        assert!(!out.contains("syclify_link_device_code") && !out.contains("SYCLIFY_LINK_DEVICE_CODE"), "{out}");
        assert!(out.contains("# set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n"), "{out}");
    }

    #[test]
    fn archs() {
        assert_eq!(cmake_archs("70;80-real sm_86 native"), vec!["sm_70", "sm_80", "sm_86"]);
    }
}
