//! The migration pipeline for a whole project:
//! load ─► parse ─► index ─► rewrite ─► emit ─► report.

use crate::diagnostics::{Code, Diagnostic};
use crate::edit::Conflict;
use crate::edit::EditSet;
use crate::index::{self, MacroTable, ProjectIndex};
use crate::mapping::Mappings;
use crate::parse::{self, Parsed};
use crate::rules::{self, FileCtx, ProjectCtx};
use crate::source::SourceFile;
use crate::syntax::NodeKind;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What to migrate and where.
#[derive(Debug, Clone)]
pub struct Options {
    pub inputs: Vec<PathBuf>,
    pub in_root: Option<PathBuf>,
    pub out_root: PathBuf,
    pub mappings: Mappings,
    /// Directories searched for quoted includes after the including file's
    /// own directory and the in-root (the compiler's `-I`).
    pub include_dirs: Vec<PathBuf>,
    /// Per translation unit (its path as given), the macros a compilation
    /// database defines or undefines for it: they choose the configuration
    /// of conditionals that no single parse can hold.
    pub unit_defines: BTreeMap<PathBuf, crate::parse::Defines>,
    /// Copy the files of the walk that are neither sources nor build files
    /// (input data, scripts, configuration) into the out-root, so that the
    /// migrated tree builds and runs where the original did.
    pub copy_others: bool,
}

/// A usage error (exit code 2): nothing was written.
#[derive(Debug)]
pub struct UsageError(pub String);

/// How a file is handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Migrated,
    Copied,
    Failed,
}

/// The result for one input file.
#[derive(Debug)]
pub struct FileResult {
    /// Input path relative to the in-root (`/`-separated).
    pub rel: String,
    /// Output path relative to the out-root, when one was written.
    pub out_rel: Option<String>,
    pub status: Status,
    pub counts: BTreeMap<&'static str, usize>,
    pub diagnostics: Vec<Diagnostic>,
    /// The source, for locating diagnostics (None when it could not be read).
    pub source: Option<SourceFile>,
    /// The migrated text (or the copied text).
    pub output: Option<String>,
    /// The input was not UTF-8: `output` holds its stray bytes as escape
    /// characters, written back as bytes (`source::encode_lossless`).
    pub escaped: bool,
}

#[derive(Debug)]
pub struct Migration {
    pub in_root: PathBuf,
    pub out_root: PathBuf,
    pub files: Vec<FileResult>,
    /// Files copied as they are (neither sources nor build files: data,
    /// scripts, configuration), in-root-relative, sorted; written by `emit`
    /// byte for byte from the in-root, never read into memory whole.
    pub others: Vec<String>,
    /// The groups of files found in the out-root's store and those
    /// computed ([`crate::reuse`]; empty without a store).
    pub reuse: crate::reuse::Outcome,
}

impl FileResult {
    /// A file rewritten into `out_rel` (load notes first, then its own diagnostics).
    fn migrated(s: SourceFile, out_rel: String, (output, counts, diagnostics): Rewritten) -> Self {
        FileResult {
            escaped: s.escaped.is_some(),
            diagnostics: load_notes(&s).into_iter().chain(diagnostics).collect(),
            out_rel: Some(out_rel),
            rel: s.rel.clone(),
            status: Status::Migrated,
            counts,
            output: Some(output),
            source: Some(s),
        }
    }

    /// A file written unchanged under its own name.
    fn copied(s: SourceFile) -> Self {
        FileResult {
            escaped: s.escaped.is_some(),
            out_rel: Some(s.rel.clone()),
            rel: s.rel.clone(),
            status: Status::Copied,
            counts: BTreeMap::new(),
            diagnostics: load_notes(&s),
            output: Some(s.text.clone()),
            source: Some(s),
        }
    }

    /// A file that could not be loaded.
    fn failed(rel: String, d: Diagnostic) -> Self {
        FileResult { rel, out_rel: None, status: Status::Failed, counts: BTreeMap::new(), diagnostics: vec![d], source: None, output: None, escaped: false }
    }
}

impl Migration {
    /// Exit code: 0 when every file was migrated or copied without an error diagnostic.
    pub fn exit_code(&self) -> i32 {
        let bad = self.files.iter().any(|f| f.status == Status::Failed || f.diagnostics.iter().any(|d| d.severity == crate::diagnostics::Severity::Error));
        if bad { 1 } else { 0 }
    }
}

const MIGRATE_EXT: &[&str] = &["cu", "cuh"];
// (`.c` too: nvcc compiles a `.c` file as C++, and programs call the
// runtime API from one; one without CUDA constructs is copied unchanged)
const MAYBE_EXT: &[&str] = &["h", "hpp", "hh", "hxx", "cpp", "cc", "cxx", "c", "inl", "inc"];

/// The output name of a migrated file: `x.cu` → `x.dp.cpp`, `x.cuh` → `x.dp.hpp`.
pub fn output_rel(rel: &str, migrated: bool) -> String {
    if migrated {
        if let Some(stem) = rel.strip_suffix(".cu") {
            return format!("{stem}.dp.cpp");
        }
        if let Some(stem) = rel.strip_suffix(".cuh") {
            return format!("{stem}.dp.hpp");
        }
    }
    rel.to_string()
}

/// Is this file name one syclify reads as C/C++ or CUDA source?
pub fn is_source_name(name: &str) -> bool {
    let ext = ext_of(name);
    MIGRATE_EXT.contains(&ext) || MAYBE_EXT.contains(&ext)
}

/// Is this a CUDA file name (`.cu`, `.cuh`: always migrated)?
pub fn is_cuda_name(name: &str) -> bool {
    MIGRATE_EXT.contains(&ext_of(name))
}

fn ext_of(p: &str) -> &str {
    p.rsplit_once('.').map(|(_, e)| e).unwrap_or("")
}

fn canonical_or_absolute(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    // not existing yet: canonicalise the longest existing ancestor
    let abs = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(p) };
    let mut existing = abs.clone();
    let mut tail = Vec::new();
    while !existing.exists() {
        match (existing.file_name(), existing.parent()) {
            (Some(n), Some(parent)) => {
                tail.push(n.to_os_string());
                existing = parent.to_path_buf();
            }
            _ => break,
        }
    }
    let mut out = existing.canonicalize().unwrap_or(existing);
    for n in tail.into_iter().rev() {
        out.push(n);
    }
    out
}

fn rel_str(p: &Path) -> String {
    p.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// Resolves roots and collects input files (sorted), or a usage error.
/// Directories the walk could not read come back as failed results.
/// The walk's result: the in-root, the out-root, the sources and build
/// files, the other files to copy (when `copy_others`), and the directories
/// the walk could not read.
pub type Collected = (PathBuf, PathBuf, Vec<PathBuf>, Vec<PathBuf>, Vec<FileResult>);

pub fn collect_inputs(opts: &Options) -> Result<Collected, UsageError> {
    if opts.inputs.is_empty() {
        return Err(UsageError("no input paths given".into()));
    }
    let mut inputs = Vec::new();
    for p in &opts.inputs {
        if std::fs::symlink_metadata(p).is_err() {
            return Err(UsageError(format!("{}: no such file or directory", p.display())));
        }
        // a file given that is a link stays where it is (see the walk below)
        let given = match (p.is_dir(), p.parent().filter(|d| !d.as_os_str().is_empty()), p.file_name()) {
            (false, Some(dir), Some(name)) => canonical_or_absolute(dir).join(name),
            (false, None, Some(name)) => canonical_or_absolute(Path::new(".")).join(name),
            _ => canonical_or_absolute(p),
        };
        inputs.push(given);
    }
    let in_root = match &opts.in_root {
        Some(r) => {
            if !r.is_dir() {
                return Err(UsageError(format!("--in-root {}: not a directory", r.display())));
            }
            canonical_or_absolute(r)
        }
        None => {
            let mut root = if inputs[0].is_dir() { inputs[0].clone() } else { inputs[0].parent().map(Path::to_path_buf).unwrap_or_default() };
            for p in &inputs[1..] {
                while !p.starts_with(&root) {
                    if !root.pop() {
                        break;
                    }
                }
            }
            root
        }
    };
    for p in &inputs {
        if !p.starts_with(&in_root) {
            return Err(UsageError(format!("{} is not inside the in-root {}", p.display(), in_root.display())));
        }
    }
    let out_root = canonical_or_absolute(&opts.out_root);
    if out_root == in_root {
        return Err(UsageError(format!(
            "the out-root {} is the in-root: syclify never writes into its input tree; choose another --out-root",
            out_root.display()
        )));
    }
    if in_root.starts_with(&out_root) {
        return Err(UsageError(format!(
            "the in-root {} is inside the out-root {}: migrated files could overwrite inputs; choose another --out-root",
            in_root.display(),
            out_root.display()
        )));
    }
    // Walk (the out-root is excluded when it lies inside the in-root).
    let mut files = BTreeSet::new();
    let mut others = BTreeSet::new();
    let mut problems = Vec::new();
    for p in &inputs {
        if p.starts_with(&out_root) {
            continue;
        }
        if !p.is_dir() {
            files.insert(p.clone());
            continue;
        }
        let excluded = out_root.clone();
        let walker = ignore::WalkBuilder::new(p).sort_by_file_name(|a, b| a.cmp(b)).filter_entry(move |e| !e.path().starts_with(&excluded)).build();
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    // an unreadable directory (or entry): reported, the walk goes on
                    let path = walk_error_path(&e).unwrap_or(p);
                    let rel = rel_str(path.strip_prefix(&in_root).unwrap_or(path));
                    let message = format!("cannot read {}: {}; not migrated", path.display(), walk_error_reason(&e));
                    problems.push(FileResult::failed(rel, Diagnostic::new(Code::UnreadableFile, 0..0, "load", message)));
                    continue;
                }
            };
            let is_file_like = entry.file_type().is_some_and(|t| !t.is_dir());
            if is_file_like {
                let path = entry.into_path();
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                // the directory made canonical, not the file: a file that
                // is a link keeps its place in the tree (its output is
                // written there, never where it points)
                let placed = || path.parent().map(|d| canonical_or_absolute(d).join(path.file_name().unwrap_or_default())).unwrap_or(path.clone());
                if is_source_name(name) || crate::build::is_build_file_name(name) {
                    files.insert(placed());
                } else if opts.copy_others && is_other_to_copy(&path, name) {
                    others.insert(placed());
                }
            }
        }
    }
    Ok((in_root, out_root, files.into_iter().collect(), others.into_iter().collect(), problems))
}

/// Is this file of the walk (neither a source nor a build file) one the
/// migrated tree needs beside its sources — input data, a script, a
/// configuration file — rather than a product of the CUDA build or of
/// syclify? Only regular files (a link is not copied); never object files,
/// libraries, GPU binaries or executables (an nvcc-built `prog` beside the
/// migrated sources would look up to date to `make`), nor syclify's reports.
fn is_other_to_copy(path: &Path, name: &str) -> bool {
    const BUILT: &[&str] = &["o", "obj", "a", "so", "dylib", "lib", "dll", "exe", "ptx", "cubin", "fatbin", "pch", "gch", "d"];
    if matches!(name, "syclify-report.json" | "syclify-report.md" | ".syclify-manifest.json") || BUILT.contains(&ext_of(name)) {
        return false;
    }
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.file_type().is_file() {
        return false;
    }
    // an executable: a script (text) is copied, a compiled program is not
    use std::os::unix::fs::PermissionsExt;
    if meta.permissions().mode() & 0o111 != 0 {
        let mut head = [0u8; 4];
        let n = std::fs::File::open(path).and_then(|mut f| std::io::Read::read(&mut f, &mut head)).unwrap_or(0);
        if n == 4 && (&head == b"\x7fELF" || head[..2] == *b"MZ" || head == [0xcf, 0xfa, 0xed, 0xfe]) {
            return false;
        }
    }
    true
}

/// The path a walk error is about, if it names one.
fn walk_error_path(e: &ignore::Error) -> Option<&Path> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => walk_error_path(err),
        _ => None,
    }
}

/// A walk error's cause, without the path it names.
fn walk_error_reason(e: &ignore::Error) -> String {
    match e {
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => walk_error_reason(err),
        e => e.to_string(),
    }
}

enum Loaded {
    Text(SourceFile),
    Failed(String, Diagnostic),
}

impl Loaded {
    /// A read file joins the sources; one that failed becomes a result.
    fn sort_into(self, sources: &mut Vec<SourceFile>, results: &mut Vec<FileResult>) {
        match self {
            Loaded::Text(s) => sources.push(s),
            Loaded::Failed(rel, d) => results.push(FileResult::failed(rel, d)),
        }
    }
}

fn load(path: &Path, rel: String) -> Loaded {
    // a FIFO, socket or device named like a source is never read (a FIFO
    // would block the run)
    if let Ok(m) = std::fs::metadata(path)
        && !m.is_file()
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        let kind = if t.is_fifo() {
            "a FIFO"
        } else if t.is_socket() {
            "a socket"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else if t.is_dir() {
            "a directory"
        } else {
            "not a regular file"
        };
        return Loaded::Failed(rel, Diagnostic::new(Code::UnreadableFile, 0..0, "load", format!("{} is {kind}, not a file; not read", path.display())));
    }
    match std::fs::read(path) {
        Err(e) => Loaded::Failed(rel, Diagnostic::new(Code::UnreadableFile, 0..0, "load", format!("cannot read {}: {e}", path.display()))),
        Ok(bytes) => decode(path.to_path_buf(), rel, bytes),
    }
}

/// A file's bytes as text: UTF-8, or Latin-1-like bytes kept losslessly;
/// NUL bytes make it binary (not migrated).
fn decode(path: PathBuf, rel: String, bytes: Vec<u8>) -> Loaded {
    if bytes.contains(&0) {
        return Loaded::Failed(rel, Diagnostic::new(Code::NotText, 0..0, "load", "binary file (contains NUL bytes); not migrated"));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Loaded::Text(SourceFile::new(path, rel, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
            match crate::source::decode_lossless(e.as_bytes()) {
                // Latin-1 comments and stray bytes: migrated, every byte kept
                Some((text, n)) => {
                    let mut s = SourceFile::new(path, rel, text);
                    s.escaped =
                        Some(format!("not UTF-8 (first at line {line}): {n} byte{} outside UTF-8 kept exactly as they are", if n == 1 { "" } else { "s" }));
                    Loaded::Text(s)
                }
                None => Loaded::Failed(
                    rel,
                    Diagnostic::new(
                        Code::NotText,
                        0..0,
                        "load",
                        format!("not UTF-8 text (invalid byte at line {line}, byte offset {at}) and not readable losslessly; not migrated"),
                    ),
                ),
            }
        }
    }
}

/// Where an include may point, relative to the in-root, in the compiler's
/// order: a quoted include next to the including file (in `dir`), then from
/// the in-root, then in each include directory (in-root-relative, in order);
/// an angle-bracket include in the include directories only (as `-I` serves
/// `<...>`: never beside the includer, so `<vector>` is never a project file
/// unless an include directory holds one).
pub fn include_candidates(dir: &str, inc: crate::source::IncludeName, include_dirs: &[String]) -> Vec<String> {
    let name = inc.name;
    let mut out = if inc.angle { Vec::new() } else { vec![normalize(&format!("{dir}/{name}")), normalize(name)] };
    out.extend(include_dirs.iter().map(|d| normalize(&format!("{d}/{name}"))));
    out
}

/// The includes of file `rel` (text `text`), each resolved to the first of
/// its [`include_candidates`] that `exists`; unresolved ones are left out.
pub fn resolved_includes(rel: &str, text: &str, include_dirs: &[String], mut exists: impl FnMut(&str) -> bool) -> Vec<String> {
    let dir = rel.rsplit_once('/').map(|(d, _)| d).unwrap_or_default();
    crate::source::includes(text).filter_map(|inc| include_candidates(dir, inc, include_dirs).into_iter().find(|c| exists(c))).collect()
}

/// A project header outside the in-root that an include reaches
/// ([`outside_includes`]): read to tell, never migrated or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsideInclude {
    /// Where it was found: in-root-relative (`../common/util.cuh`), or the
    /// absolute path where the include directory was given absolute.
    pub found: String,
    /// Its directory, as a path to give `syclify migrate` beside the
    /// program (in-root-relative or absolute, as `found`).
    pub dir: String,
    /// The nearest directory that holds both the in-root and that file:
    /// the `--in-root` to migrate them together with (as `found`).
    pub in_root: String,
}

/// Includes (quoted or angle-bracket) that name a file outside the in-root
/// holding CUDA code (a header shared by sibling programs): (including
/// file, name as written) → where it was found. Found beside the including
/// file (`"../common/util.cuh"`, quoted only) or, where no file of the
/// in-root answers the name, in one of `outside_dirs` (include directories
/// outside the in-root: `-I../common`, in-root-relative or absolute).
/// Headers the mapping tables replace (`<cuda_runtime.h>` found through
/// `-I/usr/local/cuda/include`; CUDA's include directory is never among
/// `outside_dirs`) are not the project's. Such files are read
/// here only to tell; they are never migrated or written.
fn outside_includes(
    sources: &[SourceFile],
    in_root: &Path,
    include_dirs: &[String],
    outside_dirs: &[String],
    is_cuda_header: impl Fn(&str) -> bool,
) -> BTreeMap<(String, String), OutsideInclude> {
    let root = canonical_or_absolute(in_root);
    let known: BTreeSet<&str> = sources.iter().map(|s| s.rel.as_str()).collect();
    let holds_cuda = |name: &str, path: &Path| {
        MIGRATE_EXT.contains(&ext_of(name)) || std::fs::read(path).is_ok_and(|b| crate::leftovers::has_cuda_constructs(&String::from_utf8_lossy(&b)))
    };
    // where the file lies, as the user would write it, and what to add
    let describe = |shown: String, path: &Path| {
        let abs = canonical_or_absolute(path);
        let dir_abs = abs.parent().map(Path::to_path_buf).unwrap_or_default();
        let common = root.ancestors().find(|a| dir_abs.starts_with(a)).map(Path::to_path_buf).unwrap_or_default();
        let relative = !Path::new(&shown).is_absolute();
        // in-root-relative: one `..` for each step up from the in-root
        let up = |to: &Path| -> String {
            let ups = root.components().count() - common.components().count();
            let rest = to.strip_prefix(&common).map(rel_str).unwrap_or_default();
            let mut parts: Vec<String> = vec!["..".to_string(); ups];
            if !rest.is_empty() {
                parts.push(rest);
            }
            if parts.is_empty() { ".".to_string() } else { parts.join("/") }
        };
        let (dir, in_root) = if relative { (up(&dir_abs), up(&common)) } else { (dir_abs.display().to_string(), common.display().to_string()) };
        OutsideInclude { found: shown, dir, in_root }
    };
    let mut out = BTreeMap::new();
    for s in sources {
        let dir = s.rel.rsplit_once('/').map(|(d, _)| d).unwrap_or_default();
        for inc in crate::source::includes(&s.text) {
            let name = inc.name;
            if inc.angle && is_cuda_header(name) {
                continue;
            }
            let beside = in_root.join(dir).join(name);
            if !inc.angle && name.contains("..") && beside.is_file() && !canonical_or_absolute(&beside).starts_with(&root) {
                if holds_cuda(name, &beside) {
                    let shown = crate::build::normalized_lexically(&format!("{dir}/{name}"));
                    out.insert((s.rel.clone(), name.to_string()), describe(shown, &beside));
                }
                continue;
            }
            if outside_dirs.is_empty() || include_candidates(dir, inc, include_dirs).iter().any(|c| known.contains(c.as_str()) || in_root.join(c).is_file()) {
                continue;
            }
            for d in outside_dirs {
                let path = in_root.join(d).join(name);
                if path.is_file() {
                    if holds_cuda(name, &path) {
                        let shown =
                            if Path::new(d).is_absolute() { path.display().to_string() } else { crate::build::normalized_lexically(&format!("{d}/{name}")) };
                        out.insert((s.rel.clone(), name.to_string()), describe(shown, &path));
                    }
                    break;
                }
            }
        }
    }
    out
}

/// Normalises `a/b/../c` → `a/c`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(p),
        }
    }
    parts.join("/")
}

/// Told how far a migration is: the number of steps (two per migrated
/// file: parse, rewrite), then each step done, from any thread.
pub trait Progress: Sync {
    fn start(&self, steps: usize);
    fn step(&self);
}

struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _: usize) {}
    fn step(&self) {}
}

/// Runs the whole migration in memory (nothing is written here).
pub fn migrate(opts: &Options) -> Result<Migration, UsageError> {
    migrate_with_progress(opts, &NoProgress)
}

/// [`migrate`], reporting its progress.
pub fn migrate_with_progress(opts: &Options, progress: &dyn Progress) -> Result<Migration, UsageError> {
    migrate_reusing(opts, progress, None)
}

/// [`migrate_with_progress`], taking the groups of files whose inputs did
/// not change since the last migration into the out-root from its `store`
/// ([`crate::reuse`]): the result is the one a migration from scratch
/// gives; `Migration::reuse` holds what to store for the next.
pub fn migrate_reusing(opts: &Options, progress: &dyn Progress, store: Option<&crate::reuse::Store>) -> Result<Migration, UsageError> {
    let clock = Clock::start();
    let inputs = load_project(opts, &clock)?;
    Ok(migrate_loaded(inputs, &opts.mappings, progress, &clock, None, store))
}

/// Migrates files given in memory (`(in-root-relative path, bytes)`), as
/// [`migrate`] would the same tree on disk: nothing is read or written, and
/// only the files given exist (includes that name others are unresolved).
/// Build files among them are read for their include directories and
/// migrated like on disk. The entry of the fuzz targets and property tests.
pub fn migrate_in_memory(files: Vec<(String, Vec<u8>)>, mappings: &Mappings) -> Migration {
    migrate_in_memory_with(files, mappings, &InMemory::default())
}

/// What a migration in memory is told besides its files (as `migrate`'s
/// `-I` and a compilation database's flags): include directories
/// (relative to the in-root, searched before those build files name) and
/// each unit's `-D`/`-U` (by relative path).
#[derive(Debug, Clone, Default)]
pub struct InMemory {
    pub include_dirs: Vec<String>,
    pub unit_defines: BTreeMap<String, parse::Defines>,
    /// Where set, only these files (by relative path) are rewritten and
    /// reported: the others are parsed and indexed as their context (a
    /// kernel defined beside them, a header's macros) and left out of the
    /// results. For a language server, which wants the diagnostics of the
    /// open documents: these are the same as a whole migration gives, and
    /// so is their text, except that a translation unit that reaches SYCL
    /// only through a file left out may miss SYCL's includes (see
    /// `sycl_first`).
    pub rewrite_only: Option<BTreeSet<String>>,
}

/// [`migrate_in_memory`] with include directories and defines.
pub fn migrate_in_memory_with(files: Vec<(String, Vec<u8>)>, mappings: &Mappings, extra: &InMemory) -> Migration {
    migrate_in_memory_cached(files, mappings, extra, None)
}

/// The parse and index facts of files migrated before, kept for a
/// migration of the same files again ([`migrate_in_memory_cached`]): a
/// file whose text, macros and defines are the same is not parsed again,
/// nor indexed again where its group's macro table is the same too (both
/// steps depend on nothing else, so the results are those of a migration
/// without the cache). Each migration drops the entries it did not use.
///
/// A file whose text changed (an editor's document) is parsed reusing its
/// earlier version's first parse ([`parse::parse_file_after`]). Where that
/// parse has errors its result may differ from a whole parse's: it is
/// used speculatively — the migration goes on with it while a whole parse
/// runs on another thread — and checked at the end of the migration
/// ([`Cache::settle`]); where the two differ the migration is made again
/// with the whole parse. Either way the results are those of a migration
/// without the cache.
#[derive(Default)]
pub struct Cache {
    entries: std::sync::Mutex<BTreeMap<String, CacheEntry>>,
    /// Migrations made again since the cache was made.
    again: std::sync::atomic::AtomicUsize,
    /// (tests: every speculative parse taken as different from its whole parse)
    always_differ: bool,
}

struct CacheEntry {
    text: String,
    qualifier: BTreeMap<String, crate::mask::QualifierMacro>,
    names: BTreeSet<String>,
    defines: parse::Defines,
    parsed: Parsed,
    first: parse::FirstParse,
    /// The whole parse that checks a speculative `parsed`, running: it
    /// answers the whole parse where the two differ.
    check: Option<WholeParseCheck>,
    /// How many of the next versions are to be parsed whole rather than
    /// from this one: set where the check was still running when the
    /// migration it checks had ended (the recovery is most of the file's
    /// time: the check then adds its comparison, and the incremental parse
    /// of a file with errors its own time, to the whole parse's); tried
    /// again after that many.
    skip_speculation: u8,
    /// The facts, with the macro table they were indexed under.
    facts: Option<(MacroTable, index::FileFacts)>,
    used: bool,
}

/// Parses with errors made whole after a speculation that did not pay
/// ([`CacheEntry::skip_speculation`]).
const SKIPPED_SPECULATIONS: u8 = 4;

/// A whole parse checking a speculative one, on its thread: the whole
/// parse where the two differ, an error where it panicked.
type WholeParseCheck = std::thread::JoinHandle<Result<Option<(Parsed, parse::FirstParse)>, String>>;

impl Cache {
    /// A cache that takes every speculative parse as different from its
    /// whole parse, so that each migration that used one is made again (the
    /// tests' way to that path, which tree-sitter takes rarely).
    #[doc(hidden)]
    pub fn always_differing() -> Self {
        Cache { always_differ: true, ..Cache::default() }
    }

    /// How many migrations were made again, a speculative parse having
    /// differed from its whole parse.
    pub fn made_again(&self) -> usize {
        self.again.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, CacheEntry>> {
        // a panic while it was held (caught per file) leaves it usable
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `rel`'s parse, from the cache where its inputs are the same.
    fn parsed(&self, rel: &str, text: &str, macros: &MacroTable, defines: &parse::Defines) -> Parsed {
        let before = {
            let mut entries = self.lock();
            match entries.get_mut(rel) {
                Some(e) if e.qualifier == macros.qualifier && e.names == macros.names && e.defines == *defines => {
                    if e.text == text {
                        e.used = true;
                        return e.parsed.clone();
                    }
                    // an earlier version of the file (a document changed)
                    Some((e.first.clone(), e.skip_speculation))
                }
                _ => None,
            }
        };
        let mut check = None;
        let mut skip_speculation = 0;
        // (a file whose last check ended after its migration is parsed
        // whole, without trying the incremental parse, a few times)
        let before = match before {
            Some((_, skip)) if skip > 0 && !self.always_differ => {
                skip_speculation = skip - 1;
                None
            }
            b => b.map(|(before, _)| before),
        };
        // (a speculative parse that panics leaves the file to the whole
        // parse, which reports the panic if it has it too)
        let speculated = before.and_then(|before| {
            crate::guard::catch(|| {
                // (the speculative parse goes to the check once recovered)
                let (to_check, speculative) = std::sync::mpsc::channel::<Parsed>();
                let whole_parse = || {
                    let (text, qualifier, names, defines) = (text.to_string(), macros.qualifier.clone(), macros.names.clone(), defines.clone());
                    let differ = self.always_differ;
                    check = Some(std::thread::spawn(move || {
                        crate::guard::catch(|| {
                            let (whole, first) = parse::parse_file_first(&text, &qualifier, &names, &defines);
                            let same = speculative.recv().is_ok_and(|p| parse::same_parse(&p, &whole)) && !differ;
                            (!same).then_some((whole, first))
                        })
                    }));
                };
                let (parsed, first, exact) = parse::parse_file_after(text, &macros.qualifier, &macros.names, defines, &before, whole_parse);
                if !exact {
                    let _ = to_check.send(parsed.clone());
                }
                (parsed, first)
            })
            .ok()
        });
        let (parsed, first) = match speculated {
            Some(p) => p,
            None => {
                check = None;
                parse::parse_file_first(text, &macros.qualifier, &macros.names, defines)
            }
        };
        let entry = CacheEntry {
            text: text.to_string(),
            qualifier: macros.qualifier.clone(),
            names: macros.names.clone(),
            defines: defines.clone(),
            parsed: parsed.clone(),
            first,
            check,
            skip_speculation,
            facts: None,
            used: true,
        };
        self.lock().insert(rel.to_string(), entry);
        parsed
    }

    /// Waits for the whole parses that check speculative ones and keeps
    /// them; whether every speculative parse was the same as its whole
    /// parse (else the migration that used it is to be made again: the
    /// entry now holds the whole parse, and no facts).
    fn settle(&self) -> bool {
        let mut entries = self.lock();
        let mut same = true;
        entries.retain(|_, e| {
            let Some(check) = e.check.take() else { return true };
            if !check.is_finished() {
                e.skip_speculation = SKIPPED_SPECULATIONS;
            }
            match check.join() {
                Ok(Ok(None)) => true,
                Ok(Ok(Some((parsed, first)))) => {
                    same = false;
                    e.parsed = parsed;
                    e.first = first;
                    e.facts = None;
                    true
                }
                // (the whole parse panicked: the migration made again
                // parses the file itself, and reports it)
                _ => {
                    same = false;
                    false
                }
            }
        });
        same
    }

    /// `rel`'s index facts, where it was indexed under `macros` with the
    /// text it has now (its parse is then the one cached).
    fn facts(&self, rel: &str, text: &str, macros: &MacroTable) -> Option<index::FileFacts> {
        let entries = self.lock();
        let e = entries.get(rel).filter(|e| e.text == text)?;
        e.facts.as_ref().filter(|(m, _)| m == macros).map(|(_, f)| f.clone())
    }

    fn keep_facts(&self, rel: &str, text: &str, macros: &MacroTable, facts: &index::FileFacts) {
        if let Some(e) = self.lock().get_mut(rel).filter(|e| e.text == text) {
            e.facts = Some((macros.clone(), facts.clone()));
        }
    }

    /// Drops the entries the migration that ends did not use.
    fn sweep(&self) {
        let mut entries = self.lock();
        entries.retain(|_, e| std::mem::take(&mut e.used));
    }
}

/// [`migrate_in_memory_with`], keeping parses and index facts in `cache`
/// for the next migration of the same files (a language server's).
pub fn migrate_in_memory_cached(files: Vec<(String, Vec<u8>)>, mappings: &Mappings, extra: &InMemory, cache: Option<&Cache>) -> Migration {
    let Some(c) = cache else { return migrate_in_memory_once(files, mappings, extra, None) };
    // (for a migration made again where a speculative parse was not the whole parse)
    let again = files.clone();
    let mut m = migrate_in_memory_once(files, mappings, extra, cache);
    if !c.settle() {
        // (every parse is now the cache's, whole: nothing more to settle)
        c.again.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        m = migrate_in_memory_once(again, mappings, extra, cache);
    }
    c.sweep();
    m
}

/// One migration of [`migrate_in_memory_cached`].
fn migrate_in_memory_once(files: Vec<(String, Vec<u8>)>, mappings: &Mappings, extra: &InMemory, cache: Option<&Cache>) -> Migration {
    let clock = Clock::start();
    let mut sources = Vec::new();
    let mut results = Vec::new();
    let mut build_files = Vec::new();
    for (rel, bytes) in files {
        match decode(PathBuf::from(&rel), rel, bytes) {
            Loaded::Text(s) if crate::build::is_build_file_name(s.rel.rsplit('/').next().unwrap_or("")) => build_files.push(s),
            l => l.sort_into(&mut sources, &mut results),
        }
    }
    let known: BTreeSet<String> = sources.iter().map(|s| s.rel.clone()).collect();
    let is_dir = |d: &str| known.iter().any(|k| k.starts_with(d) && k[d.len()..].starts_with('/'));
    let build_texts: Vec<(&str, &str)> = build_files.iter().map(|s| (s.rel.as_str(), s.text.as_str())).collect();
    let mut include_dirs = extra.include_dirs.clone();
    for d in crate::build::include_dirs(&build_texts, |d| is_dir(d)) {
        if !include_dirs.contains(&d) {
            include_dirs.push(d);
        }
    }
    let inputs = Inputs {
        in_root: PathBuf::new(),
        out_root: PathBuf::new(),
        sources,
        results,
        build_files,
        include_dirs,
        outside: BTreeMap::new(),
        unit_defines: extra.unit_defines.clone(),
        rewrite_only: extra.rewrite_only.clone(),
        others: Vec::new(),
    };
    migrate_loaded(inputs, mappings, &NoProgress, &clock, cache, None)
}

/// The time since a migration began, printed per phase with the memory in
/// use when `SYCLIFY_TIMING` is set (the CLI's steps after the migration
/// print theirs with one too).
pub struct Clock {
    t0: std::time::Instant,
    timing: bool,
}

impl Clock {
    pub fn start() -> Self {
        Clock { t0: std::time::Instant::now(), timing: std::env::var_os("SYCLIFY_TIMING").is_some() }
    }

    pub fn phase(&self, name: &str) {
        if self.timing {
            // the resident memory now and at most so far (Linux)
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            let kib = |key: &str| status.lines().find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
            let memory = match (kib("VmRSS:"), kib("VmHWM:")) {
                (Some(rss), Some(peak)) => format!(" (resident {} MiB, peak {} MiB)", rss / 1024, peak / 1024),
                _ => String::new(),
            };
            eprintln!("[timing] {name}: {:.3} s{memory}", self.t0.elapsed().as_secs_f64());
        }
    }
}

/// A project read into memory, before parsing: what the rest of the
/// pipeline works on, from disk ([`load_project`]) or memory
/// ([`migrate_in_memory`]).
struct Inputs {
    in_root: PathBuf,
    out_root: PathBuf,
    /// The C/C++/CUDA files read, in path order then included ones.
    sources: Vec<SourceFile>,
    /// Files that could not be read (failed results).
    results: Vec<FileResult>,
    build_files: Vec<SourceFile>,
    /// Include directories inside the in-root (in-root-relative), given then from build files.
    include_dirs: Vec<String>,
    /// Includes of CUDA files outside the in-root ([`outside_includes`]).
    outside: BTreeMap<(String, String), OutsideInclude>,
    /// A compilation database's -D/-U per unit, by in-root-relative path.
    unit_defines: BTreeMap<String, parse::Defines>,
    /// [`InMemory::rewrite_only`].
    rewrite_only: Option<BTreeSet<String>>,
    /// [`Migration::others`].
    others: Vec<String>,
}

/// The disk part of a migration: the roots, the files, the include
/// directories, and the files outside the in-root that includes reach.
fn load_project(opts: &Options, clock: &Clock) -> Result<Inputs, UsageError> {
    let (in_root, out_root, paths, other_paths, unreadable) = collect_inputs(opts)?;
    let others: Vec<String> = other_paths.iter().map(|p| rel_str(p.strip_prefix(&in_root).unwrap_or(p))).collect();
    // include directories inside the in-root, in-root-relative (files outside it are never migrated)
    let include_dirs: Vec<String> = opts.include_dirs.iter().filter_map(|d| canonical_or_absolute(d).strip_prefix(&in_root).ok().map(rel_str)).collect();
    clock.phase("collect");
    let loaded: Vec<Loaded> = paths
        .par_iter()
        .map(|p| {
            let rel = rel_str(p.strip_prefix(&in_root).unwrap_or(p));
            load(p, rel)
        })
        .collect();
    let mut sources = Vec::new();
    let mut results = unreadable;
    let mut build_files = Vec::new();
    for l in loaded {
        match l {
            Loaded::Text(s) if crate::build::is_build_file_name(s.rel.rsplit('/').next().unwrap_or("")) => build_files.push(s),
            l => l.sort_into(&mut sources, &mut results),
        }
    }
    // the include directories the build files name, after those given
    let mut include_dirs = include_dirs;
    let build_texts: Vec<(&str, &str)> = build_files.iter().map(|s| (s.rel.as_str(), s.text.as_str())).collect();
    // and those outside the in-root (absolute, or in-root-relative with `..`)
    let mut outside_dirs: Vec<String> = opts
        .include_dirs
        .iter()
        .map(|d| canonical_or_absolute(d))
        .filter(|d| !d.starts_with(&in_root) && d.is_dir())
        .map(|d| d.display().to_string())
        .collect();
    outside_dirs.extend(crate::build::outside_include_dirs(&build_texts).into_iter().filter(|d| in_root.join(d).is_dir()));
    for d in crate::build::include_dirs(&build_texts, |d| in_root.join(d).is_dir()) {
        if !include_dirs.contains(&d) {
            include_dirs.push(d);
        }
    }
    // Files included with another extension (`#include "table.c"`, `"x.def"`)
    // are part of the program too: load them, so they are migrated or copied.
    let mut known: BTreeSet<String> = sources.iter().map(|s| s.rel.clone()).chain(results.iter().map(|r| r.rel.clone())).collect();
    let mut next = 0;
    while next < sources.len() {
        let found = resolved_includes(&sources[next].rel, &sources[next].text, &include_dirs, |cand| {
            let path = in_root.join(cand);
            known.contains(cand) || (path.is_file() && !path.starts_with(&out_root) && canonical_or_absolute(&path).starts_with(&in_root))
        });
        for rel in found {
            if known.insert(rel.clone()) {
                load(&in_root.join(&rel), rel).sort_into(&mut sources, &mut results);
            }
        }
        next += 1;
    }
    // (CUDA's own include directory, `-I/usr/local/cuda/include`, holds no project file)
    outside_dirs.retain(|d| !in_root.join(d).join("cuda_runtime_api.h").is_file());
    let outside = outside_includes(&sources, &in_root, &include_dirs, &outside_dirs, |name| opts.mappings.header(name).is_some());
    // a file the sources include (`#include "table.c"`) is one of them: migrated or copied as a source, not as data
    let others: Vec<String> = others.into_iter().filter(|r| !known.contains(r)).collect();
    let unit_defines =
        opts.unit_defines.iter().filter_map(|(p, d)| canonical_or_absolute(p).strip_prefix(&in_root).ok().map(|r| (rel_str(r), d.clone()))).collect();
    Ok(Inputs { in_root, out_root, sources, results, build_files, include_dirs, outside, unit_defines, rewrite_only: None, others })
}

/// The rest of a migration, in memory: which files are migrated, then
/// parse, index, rewrite, and the build files.
fn migrate_loaded(
    inputs: Inputs,
    mappings: &Mappings,
    progress: &dyn Progress,
    clock: &Clock,
    cache: Option<&Cache>,
    store: Option<&crate::reuse::Store>,
) -> Migration {
    let Inputs { in_root, out_root, sources, mut results, build_files, include_dirs, outside, unit_defines, rewrite_only, others } = inputs;
    let rewritten: Vec<bool> = sources.iter().map(|s| rewrite_only.as_ref().is_none_or(|w| w.contains(&s.rel))).collect();
    let rewritten_here = |i: usize| rewritten[i];
    let timing = clock.timing;
    // Which files are migrated: .cu/.cuh, files with CUDA constructs, and files they include.
    let by_rel: BTreeMap<String, usize> = sources.iter().enumerate().map(|(i, s)| (s.rel.clone(), i)).collect();
    // every loaded file's includes of loaded files (by index)
    let includes: Vec<Vec<usize>> =
        sources.iter().map(|s| resolved_includes(&s.rel, &s.text, &include_dirs, |c| by_rel.contains_key(c)).iter().map(|r| by_rel[r]).collect()).collect();
    // (syclify's own helper headers, in an out-root migrated again, are
    // copied unchanged: emit writes this version's over them)
    let helper: Vec<bool> = sources.iter().map(|s| crate::helpers::is_shipped_helper(&s.rel, &s.text)).collect();
    let mut migrate: BTreeSet<usize> = sources
        .iter()
        .enumerate()
        .filter(|&(i, s)| !helper[i] && (MIGRATE_EXT.contains(&ext_of(&s.rel)) || crate::leftovers::has_cuda_constructs(&s.text)))
        .map(|(i, _)| i)
        .collect();
    let mut work: Vec<usize> = migrate.iter().copied().collect();
    let mut include_edges: Vec<(usize, usize)> = Vec::new();
    while let Some(i) = work.pop() {
        for &j in &includes[i] {
            include_edges.push((i, j));
            if !helper[j] && migrate.insert(j) {
                work.push(j);
            }
        }
    }
    clock.phase("load");
    let renames: BTreeMap<String, String> = migrate.iter().map(|&i| (sources[i].rel.clone(), output_rel(&sources[i].rel, true))).collect();
    // the macros the build may define: every name its files mention, and a
    // compilation database's -D/-U
    let configured: BTreeSet<String> = build_files
        .iter()
        .flat_map(|b| crate::syntax::identifiers(&b.text).into_iter().map(|(_, w)| w))
        // (`-DUSE_MPI` reads as the word `DUSE_MPI`: both count)
        .flat_map(|w| [Some(w), w.strip_prefix(['D', 'U']).filter(|r| !r.is_empty())].into_iter().flatten().map(str::to_string))
        .chain(unit_defines.values().flat_map(|d| d.keys().cloned()))
        .collect();

    // Files connected by includes form one program part whose functions may
    // call each other, and so do files of one directory that one links
    // against the other (a kernel or device function declared in one, as
    // CUDA's relocatable device code has, and defined, not `static`, in the
    // other); unrelated programs in one tree keep their own index, so two
    // programs' same-named functions do not mix. A group of files connected
    // by includes or sharing a directory holds whole program parts: each
    // group is parsed, indexed and rewritten on its own and its trees are
    // dropped, so memory holds the trees of the groups in progress, not of
    // the whole tree.
    let mut group_edges = include_edges.clone();
    let mut last_in_dir: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in &migrate {
        let dir = sources[i].rel.rsplit_once('/').map_or("", |(d, _)| d);
        if let Some(j) = last_in_dir.insert(dir, i) {
            group_edges.push((j, i));
        }
    }
    let group = clusters(sources.len(), &group_edges);
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &i in &migrate {
        groups.entry(group[i]).or_default().push(i);
    }
    // a compilation database's -D/-U per unit, by in-root-relative path
    // over the macros whose values syclify knows (`known_defines`)
    let no_defines = known_defines(mappings);
    let unit_defines: BTreeMap<String, parse::Defines> = unit_defines
        .into_iter()
        .map(|(rel, d)| {
            let mut all = no_defines.clone();
            all.extend(d);
            (rel, all)
        })
        .collect();
    // Groups whose inputs are those of a group the last migration into the
    // out-root stored (`reuse`) are not migrated again: taken as stored.
    let keys: BTreeMap<usize, u64> = match store {
        Some(store) => {
            let context = KeyContext {
                sources: &sources,
                includes: &includes,
                by_rel: &by_rel,
                renames: &renames,
                include_dirs: &include_dirs,
                unit_defines: &unit_defines,
                outside: &outside,
                configured: &configured,
            };
            let salt = context.salt(store.salt());
            groups.par_iter().map(|(g, files)| (*g, context.key(salt, files))).collect::<Vec<_>>().into_iter().collect()
        }
        None => BTreeMap::new(),
    };
    let found: BTreeMap<usize, GroupDone> = keys
        .par_iter()
        .filter_map(|(g, key)| Some((*g, GroupDone::stored(store?.get(*key)?, &groups[g], &sources)?)))
        .collect::<Vec<_>>()
        .into_iter()
        .collect();
    let to_migrate = |i: &usize| !found.contains_key(&group[*i]);
    if store.is_some() {
        clock.phase("groups found in the store");
    }

    // Pre-scan macros, parse, index. A program's macros are its own: each
    // group of files connected by includes has its table (one program's
    // `#define min(a, b)` must not change how another is migrated).
    let include_group = clusters(sources.len(), &include_edges);
    let file_macros: BTreeMap<usize, MacroTable> = migrate
        .par_iter()
        .filter(|i| to_migrate(i))
        .map(|&i| {
            let mut t = MacroTable::default();
            t.scan(&sources[i].text);
            (i, t)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect();
    let mut macro_tables: BTreeMap<usize, MacroTable> = BTreeMap::new();
    for (i, t) in &file_macros {
        macro_tables.entry(include_group[*i]).or_default().merge(t);
    }
    progress.start(2 * migrate.iter().filter(|i| to_migrate(i)).count());
    let mut group_include_edges: BTreeMap<usize, Vec<(usize, usize)>> = BTreeMap::new();
    for &(a, b) in &include_edges {
        group_include_edges.entry(group[a]).or_default().push((a, b));
    }
    let thread_time = |phase: &std::sync::atomic::AtomicU64, started: std::time::Instant| {
        phase.fetch_add(started.elapsed().as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
    };
    // the bytes of source text a group may hold the trees of (some 50-130
    // bytes of memory per byte); `SYCLIFY_TREE_BUDGET` sets another (tests)
    let tree_budget: usize = std::env::var("SYCLIFY_TREE_BUDGET").ok().and_then(|v| v.parse().ok()).unwrap_or(TREE_BUDGET);
    // each step's time summed over the threads (the steps of groups overlap)
    let [parse_time, index_time, rewrite_time] = [(); 3].map(|_| std::sync::atomic::AtomicU64::new(0));
    let done: Vec<GroupDone> = groups
        .par_iter()
        .filter(|(g, _)| !found.contains_key(g))
        .map(|(g, files)| {
            let mut started = std::time::Instant::now();
            let parse_one = |i: usize| -> Result<Parsed, String> {
                let defines = unit_defines.get(&sources[i].rel).unwrap_or(&no_defines);
                let macros = &macro_tables[&include_group[i]];
                let started = std::time::Instant::now();
                let p = crate::guard::catch(|| {
                    crate::guard::injected_panic("parse", &sources[i].rel);
                    match cache {
                        Some(c) => c.parsed(&sources[i].rel, &sources[i].text, macros, defines),
                        None => parse::parse_file_with(&sources[i].text, &macros.qualifier, &macros.names, defines),
                    }
                });
                let secs = started.elapsed().as_secs_f64();
                if timing && secs > 0.5 {
                    eprintln!("[timing] slow parse: {} ({secs:.2} s, {} bytes)", sources[i].rel, sources[i].text.len());
                }
                p
            };
            // its facts, kept in the cache (the editor's) where there is one
            let keep_facts = |i: usize, f: &index::FileFacts| {
                if let Some(c) = cache {
                    c.keep_facts(&sources[i].rel, &sources[i].text, &macro_tables[&include_group[i]], f);
                }
            };
            // A group whose texts are larger than the budget does not keep
            // its trees: each file is parsed and indexed, its tree dropped,
            // and parsed again to be rewritten once the index is built (a
            // parse is deterministic), so memory holds the trees of the
            // files in progress, not of the group (twice the parse time).
            // (one file's tree is whole either way: a group of one keeps it)
            let bounded = cache.is_none() && files.len() > 1 && files.iter().map(|&i| sources[i].text.len()).sum::<usize>() > tree_budget;
            // A large file is migrated in parts ([`crate::segment`]): each
            // part parsed, indexed and its tree dropped, then parsed again to
            // be rewritten once the index is built (the editor's files whole)
            let parts: BTreeMap<usize, Vec<crate::segment::Segment>> =
                files.par_iter().filter(|_| cache.is_none()).filter_map(|&i| Some((i, crate::segment::parts_of(&sources[i].text)?))).collect();
            if std::env::var_os("SYCLIFY_TIMING").is_some() {
                for &i in files.iter().filter(|&&i| !parts.contains_key(&i) && sources[i].text.len() > crate::segment::SEGMENT_THRESHOLD) {
                    if let Some(why) = crate::segment::not_cut(&sources[i].text) {
                        let line = sources[i].text[..why.at].matches('\n').count() + 1;
                        eprintln!("[timing] {}: migrated whole, not cut in parts: {} (line {line})", sources[i].rel, why.why);
                    }
                }
            }
            let parse_part = |i: usize| {
                let defines = unit_defines.get(&sources[i].rel).unwrap_or(&no_defines);
                let macros = &macro_tables[&include_group[i]];
                move |text: &str| parse::parse_file_with(text, &macros.qualifier, &macros.names, defines)
            };
            // each part's masked text and masks after error recovery, from
            // the index step: the rewrite parses that text once, without
            // recovering again (some bytes a byte of the file, not a tree)
            let recovered: std::sync::Mutex<BTreeMap<usize, Vec<RecoveredPart>>> = Default::default();
            let parse_again = |i: usize| {
                let parse = parse_part(i);
                let kept = recovered.lock().unwrap_or_else(|e| e.into_inner()).remove(&i);
                move |k: usize, text: &str| match kept.as_ref().and_then(|v| v.get(k)) {
                    Some((masked, masks)) if masked.as_ref().is_none_or(|m| m.len() == text.len()) => {
                        let masked = masked.clone().unwrap_or_else(|| text.to_string());
                        Parsed { tree: parse::parse_text(&masked), masked, masks: masks.clone() }
                    }
                    _ => parse(text),
                }
            };
            let index_parted = |i: usize| -> Result<index::FileFacts, String> {
                let f = crate::guard::catch(|| {
                    crate::guard::injected_panic("index", &sources[i].rel);
                    let parse = parse_part(i);
                    let mut all = index::FileFacts::default();
                    let mut kept = Vec::new();
                    for seg in &parts[&i] {
                        let c = crate::segment::Compact::of(&sources[i].text, seg);
                        let p = parse(&c.text);
                        // (the masked text only where masks changed it)
                        kept.push(((p.masked != c.text).then(|| p.masked.clone()), p.masks.clone()));
                        let nodes = crate::syntax::Preorder::of(p.tree.root_node());
                        let names = crate::syntax::FileNames::default();
                        all.merge(index::index_part(&nodes, &names, &c.text, &sources[i].rel, &p.masks, &macro_tables[&include_group[i]], &c.body));
                        drop(nodes);
                        drop(p);
                        release_free_memory();
                    }
                    recovered.lock().unwrap_or_else(|e| e.into_inner()).insert(i, kept);
                    all
                });
                progress.step();
                f
            };
            let mut failed: Vec<(usize, String)> = Vec::new();
            let parsed: Vec<(usize, Parsed)> = if bounded {
                Vec::new()
            } else {
                let parsed: Vec<(usize, Result<Parsed, String>)> = files
                    .par_iter()
                    .filter(|i| !parts.contains_key(i))
                    .map(|&i| {
                        let p = parse_one(i);
                        progress.step();
                        (i, p)
                    })
                    .collect();
                // a file whose step panicked is reported and left out of the
                // rest of its group's migration (the others go on)
                let parsed = without_failed(parsed, "parse", &mut failed);
                thread_time(&parse_time, started);
                started = std::time::Instant::now();
                parsed
            };
            // facts kept from a migration before (the same text and macros)
            let kept: Vec<Option<index::FileFacts>> =
                parsed.iter().map(|(i, _)| cache.and_then(|c| c.facts(&sources[*i].rel, &sources[*i].text, &macro_tables[&include_group[*i]]))).collect();
            // each tree walked once, for the index and then the rewrite (a
            // file with kept facts and not rewritten here needs neither)
            let walks: Vec<Option<crate::syntax::Preorder>> = parsed
                .par_iter()
                .zip(&kept)
                .map(|((i, p), kept)| (kept.is_none() || rewritten_here(*i)).then(|| crate::syntax::Preorder::of(p.tree.root_node())))
                .collect();
            // what both steps read of each walked file's declarations
            let names: Vec<crate::syntax::FileNames> = walks.iter().map(|_| crate::syntax::FileNames::default()).collect();
            let facts: Vec<(usize, Result<index::FileFacts, String>)> = if bounded {
                // (a parse that failed: the outer error; an index that failed: the inner one)
                type Indexed = Result<index::FileFacts, String>;
                let parsed_and_indexed: Vec<(usize, Result<Indexed, String>)> = files
                    .par_iter()
                    .map(|&i| {
                        if parts.contains_key(&i) {
                            // (the index's time: the group's steps after it are timed from their start)
                            let t = std::time::Instant::now();
                            let f = index_parted(i);
                            thread_time(&index_time, t);
                            return (i, Ok(f));
                        }
                        let t = std::time::Instant::now();
                        let p = parse_one(i);
                        progress.step();
                        thread_time(&parse_time, t);
                        let f = p.map(|p| {
                            let t = std::time::Instant::now();
                            let f = crate::guard::catch(|| {
                                crate::guard::injected_panic("index", &sources[i].rel);
                                let nodes = crate::syntax::Preorder::of(p.tree.root_node());
                                let names = crate::syntax::FileNames::default();
                                index::index_file(&nodes, &names, &sources[i].text, &sources[i].rel, &p.masks, &macro_tables[&include_group[i]])
                            });
                            thread_time(&index_time, t);
                            f
                        });
                        (i, f)
                    })
                    .collect();
                without_failed(parsed_and_indexed, "parse", &mut failed)
            } else {
                parsed
                    .par_iter()
                    .zip(&walks)
                    .zip(&names)
                    .zip(kept)
                    .map(|((((i, p), nodes), names), kept)| {
                        let f = match kept {
                            Some(f) => Ok(f),
                            None => crate::guard::catch(|| {
                                crate::guard::injected_panic("index", &sources[*i].rel);
                                let nodes = nodes.as_ref().expect("walked: its facts are not kept");
                                let f = index::index_file(nodes, names, &sources[*i].text, &sources[*i].rel, &p.masks, &macro_tables[&include_group[*i]]);
                                keep_facts(*i, &f);
                                f
                            }),
                        };
                        (*i, f)
                    })
                    .chain(parts.par_iter().map(|(&i, _)| (i, index_parted(i))))
                    .collect()
            };
            if bounded {
                started = std::time::Instant::now();
            }
            let facts = without_failed(facts, "index", &mut failed);
            let units = facts.iter().map(|(i, f)| (*i, UnitFunctions::of(f))).collect();
            let mut edges = group_include_edges.get(g).cloned().unwrap_or_default();
            edges.extend(link_edges(&sources, &facts));
            let cluster = components(files, &edges);
            let mut by_cluster: BTreeMap<usize, Vec<index::FileFacts>> = BTreeMap::new();
            for (i, f) in facts {
                by_cluster.entry(cluster[&i]).or_default().push(f);
            }
            // files linked across directories' units join their macro tables too
            let mut cluster_macros: BTreeMap<usize, MacroTable> = BTreeMap::new();
            for &i in files {
                cluster_macros.entry(cluster[&i]).or_default().merge(&file_macros[&i]);
            }
            let mut indexes: BTreeMap<usize, ProjectIndex> = BTreeMap::new();
            for (c, facts) in by_cluster {
                let macros = std::sync::Arc::new(cluster_macros.remove(&c).unwrap_or_default());
                match crate::guard::catch(|| ProjectIndex::build(facts, macros, mappings)) {
                    Ok(index) => {
                        indexes.insert(c, index);
                    }
                    // every file of the cluster shares the index
                    Err(e) => {
                        let members: Vec<usize> = files.iter().copied().filter(|i| cluster[i] == c && !failed.iter().any(|(f, _)| f == i)).collect();
                        failed.extend(members.into_iter().map(|i| (i, format!("index: {e}"))));
                    }
                }
            }
            let mut texts_of: BTreeMap<usize, Vec<(&str, &str)>> = BTreeMap::new();
            for &i in files {
                texts_of.entry(cluster[&i]).or_default().push((sources[i].rel.as_str(), sources[i].text.as_str()));
            }
            let projects: BTreeMap<usize, ProjectCtx> = indexes
                .iter()
                .map(|(c, index)| {
                    let cluster_sources = texts_of.remove(c).unwrap_or_default();
                    let ctx = ProjectCtx {
                        index,
                        mappings,
                        renames: &renames,
                        outside_includes: &outside,
                        include_dirs: &include_dirs,
                        configured: &configured,
                        cluster_sources,
                        cluster_declared: std::sync::OnceLock::new(),
                    };
                    (*c, ctx)
                })
                .collect();
            thread_time(&index_time, started);
            let started = std::time::Instant::now();
            let rewritten: Vec<(usize, Result<Rewritten, String>)> = if bounded {
                // parsed again, one file at a time per thread
                files
                    .par_iter()
                    .filter(|i| rewritten_here(**i) && !failed.iter().any(|(f, _)| f == *i))
                    .map(|&i| {
                        if parts.contains_key(&i) {
                            let r = crate::guard::catch(|| {
                                crate::guard::injected_panic("rewrite", &sources[i].rel);
                                rewrite_in_parts(&sources[i], &parts[&i], &parse_again(i), &projects[&cluster[&i]])
                            });
                            progress.step();
                            return (i, r);
                        }
                        let r = parse_one(i).and_then(|p| {
                            crate::guard::catch(|| {
                                crate::guard::injected_panic("rewrite", &sources[i].rel);
                                let main = crate::syntax::Preorder::of(p.tree.root_node());
                                let names = crate::syntax::FileNames::default();
                                rewrite_file(&sources[i], &p, main, &names, &projects[&cluster[&i]])
                            })
                        });
                        progress.step();
                        (i, r)
                    })
                    .collect()
            } else {
                parsed
                    .par_iter()
                    .zip(walks)
                    .zip(&names)
                    .filter(|(((i, _), _), _)| rewritten_here(*i) && !failed.iter().any(|(f, _)| f == i))
                    .filter_map(|((p, main), names)| Some((p, main?, names)))
                    .map(|((i, p), main, names)| {
                        let r = crate::guard::catch(|| {
                            crate::guard::injected_panic("rewrite", &sources[*i].rel);
                            rewrite_file(&sources[*i], p, main, names, &projects[&cluster[i]])
                        });
                        progress.step();
                        (*i, r)
                    })
                    .chain(parts.par_iter().filter(|(i, _)| rewritten_here(**i) && !failed.iter().any(|(f, _)| f == *i)).map(|(&i, parts_of)| {
                        let r = crate::guard::catch(|| {
                            crate::guard::injected_panic("rewrite", &sources[i].rel);
                            rewrite_in_parts(&sources[i], parts_of, &parse_again(i), &projects[&cluster[&i]])
                        });
                        progress.step();
                        (i, r)
                    }))
                    .collect()
            };
            let outputs = without_failed(rewritten, "rewrite", &mut failed);
            thread_time(&rewrite_time, started);
            let mut done = GroupDone { outputs, units, failed, stored: None };
            if let Some(key) = keys.get(g) {
                done.stored = done.to_store(*key, files, &sources);
            }
            done
        })
        .collect();
    let mut reuse = crate::reuse::Outcome::default();
    for g in found.keys() {
        reuse.found.insert(keys[g]);
        reuse.files_found += groups[g].len();
    }
    let done: Vec<GroupDone> = found.into_values().chain(done).collect();
    let mut outputs: BTreeMap<usize, Rewritten> = BTreeMap::new();
    let mut units: Vec<(usize, UnitFunctions)> = Vec::new();
    let mut failed: BTreeMap<usize, String> = BTreeMap::new();
    for d in done {
        outputs.extend(d.outputs);
        units.extend(d.units);
        failed.extend(d.failed);
        reuse.computed.extend(d.stored);
    }
    reuse.computed.sort_by(|a, b| a.key.cmp(&b.key));
    reuse.files_computed = migrate.len() - reuse.files_found;
    units.sort_by_key(|(i, _)| *i);
    let device_code_across_units = device_calls_across_units(&sources, &units, &includes);
    if timing {
        let secs = |t: &std::sync::atomic::AtomicU64| t.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1e9;
        eprintln!(
            "[timing] thread time by step: parse {:.3} s, index {:.3} s, rewrite {:.3} s ({} groups of files)",
            secs(&parse_time),
            secs(&index_time),
            secs(&rewrite_time),
            groups.len()
        );
    }
    clock.phase("parse, index, rewrite");
    copied_includers(&sources, &mut outputs, &renames, &include_dirs, |i| failed.contains_key(&i) || !rewritten_here(i));
    let mut before_sycl_first = sycl_first(&sources, &mut outputs, &renames, &include_dirs);
    // a stored file's text is its rewrite's: where the step above changed
    // the output, the store keeps the text from before
    for f in reuse.computed.iter_mut().flat_map(|g| g.files.iter_mut()) {
        if let Some(text) = before_sycl_first.remove(f.rel.as_str()) {
            f.output = text;
            f.output_is_final = false;
        }
    }
    for (i, s) in sources.into_iter().enumerate() {
        if !rewritten_here(i) {
            continue;
        }
        if let Some(e) = failed.remove(&i) {
            let msg = format!("syclify failed on this file ({e}); it was not migrated — please report this, with the file if you can");
            results.push(FileResult::failed(s.rel, Diagnostic::new(Code::InternalError, 0..0, "migrate", msg)));
            continue;
        }
        results.push(match outputs.remove(&i) {
            Some(rewritten) => {
                let out_rel = output_rel(&s.rel, true);
                FileResult::migrated(s, out_rel, rewritten)
            }
            None => FileResult::copied(s),
        });
    }
    let math_libraries = crate::build::math_libraries_used(results.iter().filter_map(|f| f.output.as_deref()));
    let mut cmake_facts = crate::build::cmake::ProjectFacts { device_code_across_units, math_libraries, ..Default::default() };
    for b in build_files.iter().filter(|b| crate::build::cmake::is_cmake_name(b.rel.rsplit('/').next().unwrap_or(""))) {
        cmake_facts.scan(&b.text);
    }
    results.extend(build_files.into_iter().map(|b| migrate_build_file(b, &cmake_facts)));
    if let Some(wanted) = &rewrite_only {
        results.retain(|f| wanted.contains(&f.rel));
    }
    results.sort_by(|a, b| a.rel.cmp(&b.rel));
    clock.phase("includes, build files");
    Migration { in_root, out_root, files: results, others, reuse }
}

/// A part's masked text and masks after error recovery ([`crate::segment`]).
/// A part's masked text after error recovery (None: the part's text as
/// it is) and its masks.
type RecoveredPart = (Option<String>, Vec<crate::mask::Mask>);

/// Hands the allocator's free pages back to the system. glibc keeps them,
/// and between a large file's parts, whose trees are freed one after
/// another among the edits that stay, the free pages are scattered: the
/// resident memory of a 4 MB file was 40% above its heap's peak.
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's own heaps
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A group of files with more source text than this is migrated without
/// keeping its trees between the index and the rewrite (each file parsed
/// twice): 16 MB of text, whose trees would take 1-2 GB. A group of one
/// file keeps its tree (dropping it would save nothing).
pub const TREE_BUDGET: usize = 16 << 20;

/// A file that is not migrated but includes one that is renamed
/// (`main.cpp` including `kernels.cuh`, now `kernels.dp.hpp`) gets the new
/// name in its include, and so becomes a migrated file (keeping its name):
/// else its include would name a file the out-root does not have.
fn copied_includers(
    sources: &[SourceFile],
    outputs: &mut BTreeMap<usize, Rewritten>,
    renames: &BTreeMap<String, String>,
    include_dirs: &[String],
    skip: impl Fn(usize) -> bool,
) {
    let loaded: BTreeSet<&str> = sources.iter().map(|s| s.rel.as_str()).collect();
    for (i, s) in sources.iter().enumerate() {
        if outputs.contains_key(&i) || skip(i) {
            continue;
        }
        let dir = s.rel.rsplit_once('/').map(|(d, _)| d).unwrap_or_default();
        let mut text = String::with_capacity(s.text.len());
        let mut changed = 0;
        for line in s.text.split_inclusive('\n') {
            let renamed = (|| {
                let inc = crate::source::include_directive(line)?;
                let name = inc.name;
                let target = include_candidates(dir, inc, include_dirs).into_iter().find(|c| loaded.contains(c.as_str()))?;
                let new_rel = renames.get(&target).filter(|n| **n != target)?;
                let new_file = new_rel.rsplit('/').next()?;
                let new_name = match name.rsplit_once('/') {
                    Some((d, _)) => format!("{d}/{new_file}"),
                    None => new_file.to_string(),
                };
                let (open, close) = if inc.angle { ('<', '>') } else { ('"', '"') };
                Some(line.replacen(&format!("{open}{name}{close}"), &format!("{open}{new_name}{close}"), 1))
            })();
            match renamed {
                Some(l) => {
                    text.push_str(&l);
                    changed += 1;
                }
                None => text.push_str(line),
            }
        }
        if changed > 0 {
            outputs.insert(i, (text, BTreeMap::from([(crate::rules::includes::RULE, changed)]), Vec::new()));
        }
    }
}

/// A rewritten file: its text, rewrite counts per rule, diagnostics.
type Rewritten = (String, BTreeMap<&'static str, usize>, Vec<Diagnostic>);

/// A translation unit that reaches SYCL only through its includes (a host
/// `.cpp` including a migrated header) gets SYCL's includes too, before its
/// first directive: else a macro of its own (`#define T double`, before the
/// include that reaches SYCL) would rewrite names inside SYCL's headers.
/// Copied files so changed become migrated ones (keeping their name).
///
/// What includes what is read from the texts being written (under the names
/// they are written as), as a second migration reads them: a source's include
/// may become a directive only once a rule has rewritten its line
/// (`__device__#include "k.cuh"`).
fn sycl_first<'s>(
    sources: &'s [SourceFile],
    outputs: &mut BTreeMap<usize, Rewritten>,
    renames: &BTreeMap<String, String>,
    include_dirs: &[String],
) -> BTreeMap<&'s str, String> {
    // the outputs changed here, as they were before, by path (for the store)
    let mut before = BTreeMap::new();
    const TU_EXT: &[&str] = &["cu", "cpp", "cc", "cxx", "C", "c"];
    let out_rel: Vec<&str> = sources.iter().map(|s| renames.get(&s.rel).unwrap_or(&s.rel).as_str()).collect();
    let by_out: BTreeMap<&str, usize> = out_rel.iter().enumerate().map(|(i, r)| (*r, i)).collect();
    // (a file not rewritten in this run still names its includes' sources)
    let by_rel: BTreeMap<&str, usize> = sources.iter().enumerate().map(|(i, s)| (s.rel.as_str(), i)).collect();
    let includes: Vec<Vec<usize>> = (0..sources.len())
        .map(|i| {
            let text = outputs.get(&i).map_or(sources[i].text.as_str(), |(out, _, _)| out.as_str());
            resolved_includes(out_rel[i], text, include_dirs, |c| by_out.contains_key(c) || by_rel.contains_key(c))
                .iter()
                .filter_map(|r| by_out.get(r.as_str()).or(by_rel.get(r.as_str())).copied())
                .collect()
        })
        .collect();
    // (a file copied unchanged may include SYCL already: migrated code
    // migrated again)
    let has_sycl: Vec<bool> =
        (0..sources.len()).map(|i| outputs.get(&i).map_or(sources[i].text.as_str(), |(out, _, _)| out.as_str()).contains("#include <sycl/sycl.hpp>")).collect();
    let mut reaches = has_sycl.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..sources.len() {
            if !reaches[i] && includes[i].iter().any(|&j| reaches[j]) {
                reaches[i] = true;
                changed = true;
            }
        }
    }
    for (i, s) in sources.iter().enumerate() {
        if !reaches[i] || has_sycl[i] || !TU_EXT.contains(&ext_of(&s.rel)) {
            continue;
        }
        let entry = outputs.entry(i).or_insert_with(|| (s.text.clone(), BTreeMap::new(), Vec::new()));
        before.insert(s.rel.as_str(), entry.0.clone());
        let at = crate::rules::includes::sycl_first_anchor(&entry.0);
        entry.0.insert_str(at, &format!("// SYCL's headers first: this file reaches them through its includes\n{}", crate::rules::includes::SYCL_INCLUDES));
        *entry.1.entry(crate::rules::includes::RULE).or_default() += 1;
    }
    before
}

/// A build file: migrated when it builds CUDA (a Makefile calling nvcc, a
/// CMake script with CUDA), else copied as is.
fn migrate_build_file(s: SourceFile, cmake_facts: &crate::build::cmake::ProjectFacts) -> FileResult {
    use crate::build::{cmake, makefile};
    let depth = s.rel.matches('/').count();
    let root_rel = if depth == 0 { ".".to_string() } else { vec![".."; depth].join("/") };
    let name = s.rel.rsplit('/').next().unwrap_or("");
    let (rule, migrated) = if cmake::is_cmake_name(name) {
        match cmake::migrate_in(&s.text, &root_rel, cmake_facts) {
            cmake::Outcome::Migrated(m) => (cmake::RULE, Some(m)),
            cmake::Outcome::Unchanged => (cmake::RULE, None),
            cmake::Outcome::Unparsed(d) => {
                let mut r = FileResult::copied(s);
                r.diagnostics.push(d);
                return r;
            }
        }
    } else {
        (makefile::RULE, makefile::migrate(&s.text, &root_rel, &cmake_facts.math_libraries))
    };
    match migrated {
        Some(m) => {
            let out_rel = s.rel.clone();
            FileResult::migrated(s, out_rel, (m.text, BTreeMap::from([(rule, m.changes)]), m.diagnostics))
        }
        None => FileResult::copied(s),
    }
}

/// What loading found worth reporting about a file that was read (a non-UTF-8 input).
fn load_notes(s: &SourceFile) -> Vec<Diagnostic> {
    s.escaped.iter().map(|m| Diagnostic::new(Code::NotUtf8, 0..0, "load", m.clone())).collect()
}

/// Does a function of one file call or launch a kernel or device function
/// defined in another translation unit (a `.cu`/`.cpp` file that no other
/// file includes)? Then the program needs device code linked across units,
/// as CUDA's separable compilation did. (A device function declared in a
/// header but defined and called in one unit does not count, nor a `.cu`
/// file `#include`d into another.)
fn device_calls_across_units(sources: &[SourceFile], units: &[(usize, UnitFunctions)], includes: &[Vec<usize>]) -> bool {
    const TU_EXT: &[&str] = &["cu", "cpp", "cc", "cxx", "C", "c"];
    let included: BTreeSet<usize> = includes.iter().flatten().copied().collect();
    let mut defined_in: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for (i, u) in units {
        if !TU_EXT.contains(&ext_of(&sources[*i].rel)) || included.contains(i) {
            continue;
        }
        for name in &u.defined {
            defined_in.entry(name.as_str()).or_default().insert(*i);
        }
    }
    units.iter().any(|(i, u)| u.callees.iter().any(|c| defined_in.get(c.as_str()).is_some_and(|files| !files.contains(i))))
}

/// What [`device_calls_across_units`] reads of a file's facts, kept when
/// its group of files is done.
struct UnitFunctions {
    /// Kernels and device functions defined with external linkage, not templates.
    defined: Vec<String>,
    /// The names its functions call.
    callees: Vec<String>,
}

impl UnitFunctions {
    fn of(f: &index::FileFacts) -> Self {
        UnitFunctions {
            defined: f
                .functions
                .iter()
                .filter(|x| x.has_definition && !x.is_internal && (x.is_kernel || x.is_device) && x.template_params.is_empty())
                .map(|x| x.name.clone())
                .collect(),
            callees: f.functions.iter().flat_map(|func| func.callees.iter().cloned()).collect(),
        }
    }
}

/// One group of files parsed, indexed and rewritten.
/// The files whose `step` succeeded; the others join `failed` with the
/// step's name and the panic's message.
fn without_failed<T>(results: Vec<(usize, Result<T, String>)>, step: &str, failed: &mut Vec<(usize, String)>) -> Vec<(usize, T)> {
    let mut ok = Vec::with_capacity(results.len());
    for (i, r) in results {
        match r {
            Ok(v) => ok.push((i, v)),
            Err(e) => failed.push((i, format!("{step}: {e}"))),
        }
    }
    ok
}

struct GroupDone {
    outputs: Vec<(usize, Rewritten)>,
    units: Vec<(usize, UnitFunctions)>,
    /// Files whose parse, index facts or rewrite panicked, with the message.
    failed: Vec<(usize, String)>,
    /// What the out-root's store is to keep of it (computed here, with a
    /// store, and no step failed).
    stored: Option<crate::reuse::StoredGroup>,
}

impl GroupDone {
    /// A group as the store kept it; None where its files are not the
    /// group's `files` (by path, in order) or a diagnostic's code is not
    /// this build's.
    fn stored(g: crate::reuse::StoredGroup, files: &[usize], sources: &[SourceFile]) -> Option<GroupDone> {
        if g.files.len() != files.len() || g.files.iter().zip(files).any(|(f, &i)| f.rel != sources[i].rel) {
            return None;
        }
        let mut done = GroupDone { outputs: Vec::with_capacity(files.len()), units: Vec::with_capacity(files.len()), failed: Vec::new(), stored: None };
        for (f, &i) in g.files.into_iter().zip(files) {
            let diagnostics = f.diagnostics.iter().map(crate::reuse::StoredDiagnostic::to_diagnostic).collect::<Option<Vec<_>>>()?;
            done.outputs.push((i, (f.output, crate::reuse::counts_of(&f.counts), diagnostics)));
            done.units.push((i, UnitFunctions { defined: f.defined, callees: f.callees }));
        }
        Some(done)
    }

    /// What the store keeps of a group computed: None where a step failed
    /// on one of its files (the next migration tries it again).
    fn to_store(&self, key: u64, files: &[usize], sources: &[SourceFile]) -> Option<crate::reuse::StoredGroup> {
        if !self.failed.is_empty() {
            return None;
        }
        let outputs: BTreeMap<usize, &Rewritten> = self.outputs.iter().map(|(i, r)| (*i, r)).collect();
        let units: BTreeMap<usize, &UnitFunctions> = self.units.iter().map(|(i, u)| (*i, u)).collect();
        let files = files
            .iter()
            .map(|i| {
                let (_, counts, diagnostics) = outputs.get(i)?;
                let unit = units.get(i)?;
                // (the text itself is the migration's output, taken when the
                // store is written: a copy here would double the outputs'
                // memory; `sycl_first` keeps the text of a file it changes)
                Some(crate::reuse::StoredFile {
                    rel: sources[*i].rel.clone(),
                    output: String::new(),
                    output_is_final: true,
                    counts: counts.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
                    diagnostics: diagnostics.iter().map(crate::reuse::StoredDiagnostic::of).collect(),
                    defined: unit.defined.clone(),
                    callees: unit.callees.clone(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(crate::reuse::StoredGroup { key: crate::reuse::key_name(key), files })
    }
}

/// What a group's key hashes besides its files' paths and texts: the
/// project-wide facts its migration reads ([`crate::reuse`]).
struct KeyContext<'a> {
    sources: &'a [SourceFile],
    includes: &'a [Vec<usize>],
    by_rel: &'a BTreeMap<String, usize>,
    renames: &'a BTreeMap<String, String>,
    include_dirs: &'a [String],
    unit_defines: &'a BTreeMap<String, parse::Defines>,
    outside: &'a BTreeMap<(String, String), OutsideInclude>,
    configured: &'a BTreeSet<String>,
}

impl KeyContext<'_> {
    /// The store's salt with what every group reads: the include
    /// directories and the macros the build configures.
    fn salt(&self, store_salt: u64) -> u64 {
        let mut h = crate::reuse::KeyHasher::new(store_salt);
        h.u64(self.include_dirs.len() as u64);
        self.include_dirs.iter().for_each(|d| h.str(d));
        h.u64(self.configured.len() as u64);
        self.configured.iter().for_each(|c| h.str(c));
        h.finish()
    }

    /// The key of the group of `files`: for each, its path and text, its
    /// defines, the files its includes resolve to, and for each include
    /// every place the compiler would look (whether a file of the project
    /// is there, and whether it is migrated, hence renamed), and what an
    /// include outside the in-root found.
    fn key(&self, salt: u64, files: &[usize]) -> u64 {
        let mut h = crate::reuse::KeyHasher::new(salt);
        h.u64(files.len() as u64);
        for &i in files {
            let s = &self.sources[i];
            h.str(&s.rel);
            h.str(&s.text);
            match self.unit_defines.get(&s.rel) {
                Some(d) => {
                    h.u64(d.len() as u64 + 1);
                    for (name, value) in d {
                        h.str(name);
                        h.str(value.as_deref().unwrap_or("\0undefined"));
                    }
                }
                None => h.u64(0),
            }
            h.u64(self.includes[i].len() as u64);
            self.includes[i].iter().for_each(|&j| h.str(&self.sources[j].rel));
            let dir = s.rel.rsplit_once('/').map_or("", |(d, _)| d);
            for inc in crate::source::includes(&s.text) {
                h.str(inc.name);
                h.u64(inc.angle as u64);
                for c in include_candidates(dir, inc, self.include_dirs) {
                    h.str(&c);
                    h.u64(self.by_rel.contains_key(&c) as u64 | (self.renames.contains_key(&c) as u64) << 1);
                }
            }
            for ((_, name), o) in self.outside.range((s.rel.clone(), String::new())..).take_while(|((r, _), _)| *r == s.rel) {
                h.str(name);
                h.str(&o.found);
                h.str(&o.dir);
                h.str(&o.in_root);
            }
        }
        h.finish()
    }
}

/// Pairs of files in one directory where one declares (without a body) a
/// kernel or device function that the other defines with external linkage.
fn link_edges(sources: &[SourceFile], facts: &[(usize, index::FileFacts)]) -> Vec<(usize, usize)> {
    let dir = |i: usize| sources[i].rel.rsplit_once('/').map_or("", |(d, _)| d);
    let mut defined: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (i, f) in facts {
        for func in f.functions.iter().filter(|x| x.has_definition && !x.is_internal && (x.is_kernel || x.is_device)) {
            defined.entry((dir(*i), func.name.as_str())).or_default().push(*i);
        }
    }
    let mut out = Vec::new();
    for (i, f) in facts {
        for func in f.functions.iter().filter(|x| x.has_prototype() && !x.has_definition && (x.is_kernel || x.is_device)) {
            for &j in defined.get(&(dir(*i), func.name.as_str())).into_iter().flatten() {
                if j != *i {
                    out.push((*i, j));
                }
            }
        }
    }
    out
}

/// Connected components of `nodes` (file indices) joined by `edges` (among
/// them): each node's component, named by its smallest node, as
/// [`clusters`] names them.
fn components(nodes: &[usize], edges: &[(usize, usize)]) -> BTreeMap<usize, usize> {
    let local: BTreeMap<usize, usize> = nodes.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let local_edges: Vec<(usize, usize)> = edges.iter().filter_map(|(a, b)| Some((*local.get(a)?, *local.get(b)?))).collect();
    let c = clusters(nodes.len(), &local_edges);
    // `nodes` is sorted: the smallest local index is the smallest node
    nodes.iter().enumerate().map(|(k, &i)| (i, nodes[c[k]])).collect()
}

/// Connected components of the include graph: `cluster[i]` is the smallest
/// file index of file i's component.
fn clusters(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for &(a, b) in edges {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            parent[hi] = lo;
        }
    }
    (0..n).map(|i| find(&mut parent, i)).collect()
}

/// Rewrites one parsed file: rules, syntax diagnostics, comments for humans.
/// `main`: `p`'s tree walked in preorder.
pub fn rewrite_file<'a>(
    s: &'a SourceFile,
    p: &'a Parsed,
    main: crate::syntax::Preorder<'a>,
    names: &'a crate::syntax::FileNames<'a>,
    project: &'a ProjectCtx<'a>,
) -> Rewritten {
    let macro_trees = rules::parse_macro_bodies(&s.text, p, &main, &(0..s.text.len()), project.mappings, &|w| project.index.needs_of(w).is_some());
    let names = names.read(&main, &s.text);
    let file = rules::WholeFile::new(&s.text);
    let mut ctx = FileCtx::new(&s.text, &s.rel, p, main, names, &macro_trees, project, &file);
    ctx.diags.extend(parse::syntax_diagnostics(&p.tree, &s.text));
    ctx.diags.extend(parse::inactive_branch_diagnostics(&p.masks, &s.text));
    run_rules(&mut ctx);
    let mut errors = SyntaxErrors::default();
    let mut diags: Vec<Diagnostic> = std::mem::take(&mut ctx.diags).into_iter().filter(|d| errors.keep(d)).collect();
    errors.finish(&mut diags);
    let root = ctx.root();
    let tree_anchor = |at: usize| directive_around(root, at);
    finish_file(s, project, ctx.edits, diags, ctx.counts, &ctx.inactive, &tree_anchor)
}

/// The rules over a file or a part, then the edits that would drop what
/// the parse did not read taken back (diagnostics instead).
fn run_rules(ctx: &mut FileCtx) {
    rules::run_all(ctx);
    for e in ctx.take_edits_dropping_unparsed() {
        let msg = format!("not rewritten by rule `{}`: the rewrite would drop code that did not parse; left as is", e.rule);
        ctx.diags.push(Diagnostic::new(Code::SyntaxError, e.range.clone(), "edit", msg));
    }
    for e in ctx.take_edits_dropping_hidden() {
        let msg = format!(
            "not rewritten by rule `{}`: the rewrite would drop a conditional branch or directive that the parse did not read (SY0005); left as is",
            e.rule
        );
        ctx.diags.push(Diagnostic::new(Code::SyntaxError, e.range.clone(), "edit", msg));
    }
}

/// The start of the `#define` (or other directive) whose tree holds
/// `at`, if one does: where a comment about it goes.
fn directive_around(root: tree_sitter::Node, at: usize) -> Option<usize> {
    let n = root.descendant_for_byte_range(at, at)?;
    let dir = crate::syntax::ancestor_of_kind(n, &["preproc_def", "preproc_function_def", "preproc_call"])
        .or(Some(n).filter(|n| n.kind_str().starts_with("preproc_def") || n.kind_str() == "preproc_function_def"))?;
    Some(dir.start_byte())
}

/// A large file migrated in parts ([`crate::segment`]): each part parsed
/// (`parse`, with the part's number), its rules run over its own
/// declarations, its edits and diagnostics brought to the file's offsets;
/// then the SYCL includes, from the first part (kept) and what every part
/// needs; then the file's comments, edits, conflicts and leftovers as for
/// a whole file. Memory holds one part's tree at a time (and the first's).
pub fn rewrite_in_parts(s: &SourceFile, parts: &[crate::segment::Segment], parse: &dyn Fn(usize, &str) -> Parsed, project: &ProjectCtx) -> Rewritten {
    let mut edits = EditSet::new();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut needs_sycl = false;
    let mut using_helpers: BTreeSet<String> = BTreeSet::new();
    let mut inactive: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    // where a comment about a diagnostic inside a directive goes (read from
    // each part's tree, which is dropped before the comments are laid out)
    let mut anchors: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let file = rules::WholeFile::new(&s.text);
    let mut errors = SyntaxErrors::default();
    let timing = std::env::var_os("SYCLIFY_TIMING").is_some();
    if timing {
        eprintln!("[timing] {}: migrated in {} parts", s.rel, parts.len());
    }
    // the first part's text and parse, kept for the SYCL includes (added
    // once every part said whether it needs SYCL)
    let mut head: Option<(crate::segment::Compact, Parsed)> = None;
    for (k, part) in parts.iter().enumerate() {
        let c = crate::segment::Compact::of(&s.text, part);
        let t = std::time::Instant::now();
        let p = parse(k, &c.text);
        if timing {
            eprintln!("[timing] {} part {k}: {} bytes ({} its own), parsed in {:.2} s", s.rel, c.text.len(), c.body.len(), t.elapsed().as_secs_f64());
            if let Some(d) = std::env::var_os("SYCLIFY_DEBUG_PARTS") {
                std::fs::write(std::path::Path::new(&d).join(format!("part{k}.cu")), &c.text).ok();
            }
        }
        let main = crate::syntax::Preorder::of(p.tree.root_node());
        let macro_trees = rules::parse_macro_bodies(&c.text, &p, &main, &c.body, project.mappings, &|w| project.index.needs_of(w).is_some());
        let names = crate::syntax::FileNames::default();
        let names = names.read(&main, &c.text);
        let mut ctx = FileCtx::new_part(&c.text, &s.rel, &p, main, names, &macro_trees, project, &file, c.body.clone());
        let own = |d: &Diagnostic| c.body.contains(&d.range.start);
        ctx.diags.extend(parse::syntax_diagnostics(&p.tree, &c.text).into_iter().filter(own));
        ctx.diags.extend(parse::inactive_branch_diagnostics(&p.masks, &c.text).into_iter().filter(own));
        run_rules(&mut ctx);
        let root = ctx.root();
        let at_body = c.to_file(&(c.body.start..c.body.start)).unwrap_or(0..0);
        for mut d in std::mem::take(&mut ctx.diags) {
            let anchor = d.needs_human().then(|| directive_around(root, d.range.start)).flatten();
            let range = c.to_file(&d.range);
            d.fixes.retain_mut(|f| f.edits.iter_mut().all(|(r, _)| c.to_file(r).map(|m| *r = m).is_some()));
            // (a range across the part's pieces, a conditional group that
            // holds other parts: from its start to its end in the file)
            d.range = range.or_else(|| c.span_to_file(&d.range)).unwrap_or(at_body.clone());
            if !errors.keep(&d) {
                continue;
            }
            if let Some(a) = anchor.and_then(|a| c.to_file(&(a..a))) {
                anchors.insert(d.range.start, a.start);
            }
            diags.push(d);
        }
        bring_edits(&c, &ctx.edits, &mut edits, &mut diags, part.body.len());
        for (r, what) in &ctx.inactive {
            // (a conditional group's range reaches through the parts it holds)
            if let Some(r) = c.span_to_file(r)
                && !inactive.iter().any(|(x, _)| *x == r)
            {
                inactive.push((r, what.clone()));
            }
        }
        for (rule, n) in &ctx.counts {
            *counts.entry(rule).or_default() += n;
        }
        needs_sycl |= ctx.needs_sycl;
        using_helpers.extend(std::mem::take(&mut ctx.using_helpers));
        drop(ctx);
        if k == 0 {
            head = Some((c, p));
        } else {
            drop((c, p));
            release_free_memory();
        }
    }
    // the SYCL includes, placed by the first part's includes (the file's
    // head, [`crate::segment`]), for what every part needs
    if let Some((c, p)) = &head {
        let main = crate::syntax::Preorder::of(p.tree.root_node());
        let names = crate::syntax::FileNames::default();
        let names = names.read(&main, &c.text);
        let mut ctx = FileCtx::new_part(&c.text, &s.rel, p, main, names, &[], project, &file, c.body.clone());
        ctx.needs_sycl = needs_sycl;
        ctx.using_helpers = using_helpers;
        let found = rules::includes::includes(&mut ctx, false);
        rules::includes::add_sycl_includes(&mut ctx, &found);
        bring_edits(c, &ctx.edits, &mut edits, &mut diags, c.body.len());
    }
    drop(head);
    errors.finish(&mut diags);
    // an insertion several parts make (a file-level `#define`): once (a
    // part may insert into an earlier part's body, which its prelude holds)
    edits.dedup_insertions();
    inactive.sort_by_key(|(r, _)| (r.start, r.end));
    let tree_anchor = |at: usize| anchors.get(&at).copied();
    finish_file(s, project, edits, diags, counts, &inactive, &tree_anchor)
}

/// How many regions that did not parse a file's diagnostics name, at
/// most (as compilers stop at an error limit): a file of mangled or
/// generated code may hold one every few bytes, and hundreds of thousands
/// of warnings (and a report many times the file's size, held in memory)
/// help no one. The others are counted in one more warning.
pub const SYNTAX_ERRORS_SHOWN: usize = 100;

/// The regions that did not parse (SY0001 of the parse) of one file so far:
/// [`SYNTAX_ERRORS_SHOWN`] kept, then counted, the first of those kept for
/// the warning that counts them.
#[derive(Default)]
struct SyntaxErrors {
    shown: usize,
    more: usize,
    first_more: Option<std::ops::Range<usize>>,
}

impl SyntaxErrors {
    /// Whether `d` is kept (a region that did not parse beyond the limit is
    /// counted instead; in file order).
    fn keep(&mut self, d: &Diagnostic) -> bool {
        if d.code != Code::SyntaxError || d.rule != "parse" {
            return true;
        }
        if self.shown < SYNTAX_ERRORS_SHOWN {
            self.shown += 1;
            return true;
        }
        self.more += 1;
        self.first_more.get_or_insert(d.range.clone());
        false
    }
    fn finish(self, diags: &mut Vec<Diagnostic>) {
        if let Some(first) = self.first_more {
            let msg = format!(
                "{} more regions of this file did not parse, from here on (the first {SYNTAX_ERRORS_SHOWN} are reported); each was left as is",
                self.more
            );
            diags.push(Diagnostic::new(Code::SyntaxError, first, "parse", msg));
        }
    }
}

/// A part's edits ([`rewrite_in_parts`]) at the file's offsets, into
/// `edits`; one whose range or pieces span the part's pieces cannot be
/// (it would hold other parts' text): a diagnostic instead.
fn bring_edits(c: &crate::segment::Compact, from: &EditSet, edits: &mut EditSet, diags: &mut Vec<Diagnostic>, part_len: usize) {
    use crate::edit::PieceRef;
    let at_body = c.to_file(&(c.body.start..c.body.start)).unwrap_or(0..0);
    let mut pieces: Vec<PieceRef> = Vec::new();
    for e in from.iter() {
        let range = c.to_file(&e.range());
        pieces.clear();
        let mut all = true;
        for p in e.pieces() {
            let moved = match p {
                PieceRef::Text(t) => Some(PieceRef::Text(t)),
                PieceRef::Source(r) => c.to_file(&r).map(PieceRef::Source),
                PieceRef::Discard(r) => c.to_file(&r).map(PieceRef::Discard),
            };
            match moved {
                Some(p) => pieces.push(p),
                None => {
                    all = false;
                    break;
                }
            }
        }
        let Some(range) = range.filter(|_| all) else {
            let at = c.to_file(&(e.range().start..e.range().start)).unwrap_or(at_body.clone());
            let msg = format!(
                "not rewritten by rule `{}`: the rewrite spans declarations this large file's parts do not share (it is migrated in parts of some {} KB); left as is",
                e.rule(),
                part_len.div_ceil(1024)
            );
            diags.push(Diagnostic::new(Code::SyntaxError, at, "edit", msg));
            continue;
        };
        edits.push_pieces(e.rule(), range, e.priority(), pieces.drain(..));
    }
}

/// A file's rewrite after its rules: the comments for humans, the edits
/// applied, conflicts and CUDA left over reported (and the comments laid
/// out again when those need a human).
fn finish_file(
    s: &SourceFile,
    project: &ProjectCtx,
    mut edits: EditSet,
    mut diags: Vec<Diagnostic>,
    counts: BTreeMap<&'static str, usize>,
    inactive: &[(std::ops::Range<usize>, String)],
    tree_anchor: &dyn Fn(usize) -> Option<usize>,
) -> Rewritten {
    if std::env::var_os("SYCLIFY_DEBUG_EDITS").is_some() {
        for e in edits.iter() {
            eprintln!("edit {e:?}");
        }
    }
    // comments for humans, then the edits; conflicts and CUDA left over are
    // only known after applying them: when they add diagnostics that need a
    // human, the comments are laid out again and the edits applied again
    diags.sort_by(|a, b| a.range.start.cmp(&b.range.start).then(a.code.cmp(&b.code)));
    add_comments(&mut edits, s, &diags, tree_anchor);
    let (mut out, conflicts) = edits.apply(&s.text);
    let before = diags.len();
    diags.extend(conflicts.into_iter().map(|c: Conflict| {
        Diagnostic::new(
            Code::EditConflict,
            c.dropped.0.clone(),
            "edit",
            format!("edit of rule `{}` overlaps edit of rule `{}` and was not applied", c.dropped.1, c.kept.1),
        )
    }));
    report_leftovers(&out, s, project, &edits, inactive, &mut diags);
    let late_needs_human = diags[before..].iter().any(Diagnostic::needs_human);
    diags.sort_by(|a, b| a.range.start.cmp(&b.range.start).then(a.code.cmp(&b.code)));
    if late_needs_human {
        edits.remove_rule(COMMENT_RULE);
        add_comments(&mut edits, s, &diags, tree_anchor);
        // (the first output is not held while the second is made)
        drop(std::mem::take(&mut out));
        out = edits.apply(&s.text).0;
    }
    (out, counts, diags)
}

/// CUDA left in the output that no rule reported becomes `SY0010`, one per
/// name, at the first source occurrence that reaches the output; names inside
/// the range of a diagnostic that already needs a human (a region that did
/// not parse, a declaration left as is) are not reported again.
/// A name whose every occurrence that reaches the output lies in a branch no
/// build compiles (`inactive`, from `rules/inactive_branches.rs`) is named in
/// that branch's one warning SY0112 instead.
fn report_leftovers(
    out: &str,
    s: &SourceFile,
    project: &ProjectCtx,
    edits: &EditSet,
    inactive: &[(std::ops::Range<usize>, String)],
    diags: &mut Vec<Diagnostic>,
) {
    let index = project.index;
    let indexed = |w: &str| index.macros.names.contains(w) || index.functions.contains_key(w);
    let mut left = crate::leftovers::cuda_left(out, &indexed);
    if left.is_empty() {
        return;
    }
    // the project's own names by their shape (variables it names like CUDA's
    // builtins, types it defines), read only when something is left
    let declared = crate::leftovers::defined_names(out);
    left.retain(|(_, w)| !declared.contains(w));
    if left.is_empty() {
        return;
    }
    // names the other files of the program part define (a header's
    // `cublasHandle_t cublas_handle;`)
    let elsewhere = |w: &str| project.declared_elsewhere(&s.rel, w);
    left.retain(|(_, w)| !elsewhere(w));
    if left.is_empty() {
        return;
    }
    let own = |w: &str| indexed(w) || declared.contains(w) || elsewhere(w);
    // what a diagnostic that needs a human already covers (a region that did
    // not parse, a declaration left as is) is not reported again
    let covered: Vec<std::ops::Range<usize>> = diags.iter().filter(|d| d.needs_human()).map(|d| d.range.clone()).collect();
    // a source occurrence that reaches the output: not rewritten by an edit
    // (or kept inside one of its source pieces)
    let spans = edits.spans();
    let kept = |r: &std::ops::Range<usize>| {
        spans.holding(r).all(|i| edits.get(i).pieces().any(|p| matches!(p, crate::edit::PieceRef::Source(x) if x.start <= r.start && r.end <= x.end)))
    };
    let in_source = crate::leftovers::cuda_left(&s.text, &own);
    let mut in_branches: Vec<Vec<&str>> = vec![Vec::new(); inactive.len()];
    for name in crate::leftovers::distinct(&left) {
        let quoted = format!("`{name}`");
        // (a diagnostic that needs a human names it already; a note about
        // a use that was migrated does not cover one that was not)
        if diags.iter().any(|d| d.needs_human() && d.message.contains(&quoted)) {
            continue;
        }
        let uses = left.iter().filter(|(_, w)| w == name).count();
        let occurrences: Vec<&std::ops::Range<usize>> = in_source.iter().filter(|(_, w)| w == name).map(|(r, _)| r).collect();
        let first = occurrences.iter().find(|r| kept(r)).or(occurrences.first()).map(|r| (*r).clone());
        if first.as_ref().is_some_and(|r| covered.iter().any(|u| u.start <= r.start && r.end <= u.end)) {
            continue;
        }
        // left only in branches no build compiles: named in their warning
        let kept_at: Vec<&std::ops::Range<usize>> = occurrences.iter().copied().filter(|r| kept(r)).collect();
        let branch_of = |r: &std::ops::Range<usize>| inactive.iter().position(|(b, _)| b.start <= r.start && r.end <= b.end);
        if !kept_at.is_empty() && kept_at.iter().all(|r| branch_of(r).is_some()) {
            for r in kept_at {
                let b = branch_of(r).unwrap_or_default();
                if !in_branches[b].contains(&name) {
                    in_branches[b].push(name);
                }
            }
            continue;
        }
        let what = if name == "<<<" { "a kernel launch `<<<` is".to_string() } else { format!("{quoted} is") };
        let m = project.mappings;
        // a name the tables map, left where its rule could not rewrite it
        // (inside a macro use whose arguments did not parse)
        let why = if m.functions.contains_key(name) || m.types.contains_key(name) || m.enums.contains_key(name) {
            "syclify maps it, but could not rewrite this use (look for code near it that does not parse)"
        } else {
            "syclify does not migrate it"
        };
        diags.push(Diagnostic::new(
            Code::CudaLeft,
            first.unwrap_or(0..0),
            "leftovers",
            format!("{what} left in the migrated code ({uses} use{}): {why}", if uses == 1 { "" } else { "s" }),
        ));
    }
    for ((range, said), names) in inactive.iter().zip(in_branches) {
        if names.is_empty() {
            continue;
        }
        let shown: Vec<String> = names.iter().map(|w| format!("`{w}`")).collect();
        diags.push(Diagnostic::new(
            Code::InactiveBranchCuda,
            range.clone(),
            crate::rules::inactive_branches::RULE,
            format!("{said}: its CUDA ({}) is kept as written, not migrated", shown.join(", ")),
        ));
    }
}

const COMMENT_RULE: &str = "diagnostic-comment";

/// Leaves a `// syclify: ...` comment above each diagnostic that needs a human.
fn add_comments(edits: &mut EditSet, s: &SourceFile, diags: &[Diagnostic], tree_anchor: &dyn Fn(usize) -> Option<usize>) {
    let mut seen = BTreeSet::new();
    // the edits around a point: a binary search (the comments inserted
    // below hold nothing)
    let spans = edits.spans();
    // (read once, for a long line's thousands of diagnostics)
    let mut directives = None;
    for d in diags.iter().filter(|d| d.needs_human()) {
        let mut anchor = s.line_start(d.range.start);
        // inside a preprocessor directive: above the directive (a comment
        // between continuation lines would end a macro's body)
        if let Some(start) = directives.get_or_insert_with(|| crate::mask::Directives::new(&s.text)).start_of(d.range.start.min(s.text.len())) {
            anchor = start;
        } else if let Some(dir) = tree_anchor(d.range.start) {
            anchor = s.line_start(dir);
        }
        // inside a replaced range: above the replacement
        while let Some(st) = spans.outermost_around(anchor) {
            anchor = s.line_start(st);
        }
        let text = format!("{}// syclify: {} {}: {}\n", s.indent_at(anchor), d.severity.as_str(), d.code.code(), d.message.replace('\n', " "));
        if seen.insert((anchor, text.clone())) && !already_commented(&s.text, anchor, &text) {
            edits.insert(COMMENT_RULE, anchor, text);
        }
    }
}

/// The macros whose values syclify knows for every file, where a compilation
/// database's `-D`/`-U` do not say otherwise: the versions of the CUDA API
/// syclify migrates from (`rules/cuda_macros.yaml`'s `value`s:
/// `CUDART_VERSION` 12080), the CUDA compiler's own macros (`__CUDACC__`,
/// `__NVCC__`: the CUDA build a program was written for defines them), and
/// the platform: Linux, so Windows' and macOS's macros are undefined. Error
/// recovery parses a conditional group inside a declaration or an argument
/// list in the configuration these select (`parse::condition_value`); the
/// other branches are kept as written (SY0005).
pub fn known_defines(mappings: &Mappings) -> parse::Defines {
    let mut d = parse::Defines::new();
    for m in mappings.macros.values() {
        if let Some(v) = m.value {
            d.insert(m.cuda.clone(), Some(v.to_string()));
        }
    }
    for name in ["__CUDACC__", "__NVCC__", "__linux__", "__unix__"] {
        d.insert(name.to_string(), Some("1".to_string()));
    }
    // (a SYCL compiler's own macros: nvcc defined neither, see rules/cuda_arch_macro.rs)
    for name in ["_WIN32", "_WIN64", "WIN32", "_MSC_VER", "__MINGW32__", "__APPLE__", "__CYGWIN__", "SYCL_LANGUAGE_VERSION", "__SYCL_DEVICE_ONLY__"] {
        d.insert(name.to_string(), None);
    }
    d
}

/// The lines just above `anchor` are syclify comments, one of them `comment`:
/// the file was migrated before (a second migration adds no second copy).
fn already_commented(src: &str, anchor: usize, comment: &str) -> bool {
    let wanted = comment.trim();
    src[..anchor].lines().rev().map(str::trim).take_while(|l| l.starts_with("// syclify: ")).any(|l| l == wanted)
}
