//! What a migration keeps in its out-root for the next one into the same
//! out-root: each group of files' results (`project`'s groups: files
//! connected by includes or sharing a directory, parsed, indexed and
//! rewritten together and apart from every other group), under a key that
//! hashes everything that group's migration reads — syclify's own sources
//! (`build.rs`'s hash), the options and rule files, the group's files (paths, texts,
//! defines, how each include resolves) and the project-wide facts the
//! rewrite reads (include directories, the macros the build files
//! configure). A group whose key is stored is not parsed, indexed or
//! rewritten again: its texts, counts, diagnostics and the facts the rest
//! of the migration reads of it come from the store, and the steps after
//! the groups (the includes of copied files, SYCL's includes first, the
//! build files, the reports, the emit) run as always, so the result is the
//! one a migration from scratch gives.
//!
//! The store is a directory under the out-root ([`DIR_REL`]), one JSON
//! file per group named by its key; each migration that writes the
//! out-root adds the groups it computed and removes those it did not use.
//! A file that cannot be read or does not hold its key is a miss.

use crate::diagnostics::{Code, Diagnostic, Fix, Severity};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The store's directory, under the out-root.
pub const DIR_REL: &str = ".syclify-cache";

/// A key's hasher: every value it takes is length-prefixed, so that two
/// sequences of values hash alike only when they are the same.
pub struct KeyHasher(xxhash_rust::xxh3::Xxh3);

impl KeyHasher {
    pub fn new(salt: u64) -> Self {
        let mut h = KeyHasher(xxhash_rust::xxh3::Xxh3::new());
        h.u64(salt);
        h
    }

    pub fn u64(&mut self, v: u64) {
        self.0.update(&v.to_le_bytes());
    }

    pub fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.0.update(b);
    }

    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    pub fn finish(&self) -> u64 {
        self.0.digest()
    }
}

/// One file of a group as its migration left it, before the steps that
/// read every group (SYCL's includes first in each translation unit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredFile {
    pub rel: String,
    /// The rewritten text; empty in a group computed by this migration
    /// where `output_is_final` (the text is then the migration's output
    /// for the file, not copied: [`StoredGroup::view`] takes it from there).
    pub output: String,
    /// Whether the text is the migration's output for the file (a group
    /// computed here, its file not changed by the steps after the groups).
    #[serde(skip)]
    pub output_is_final: bool,
    /// Rewrites per rule.
    pub counts: Vec<(String, usize)>,
    pub diagnostics: Vec<StoredDiagnostic>,
    /// Kernels and device functions it defines with external linkage, and
    /// the names it calls (whether device code calls across translation
    /// units, for the build files).
    pub defined: Vec<String>,
    pub callees: Vec<String>,
}

/// A [`Diagnostic`] as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredDiagnostic {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    pub range: (usize, usize),
    pub rule: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<StoredFix>,
}

/// A [`Fix`] as stored: its title and its edits (start, end, replacement).
pub type StoredFix = (String, Vec<(usize, usize, String)>);

impl StoredDiagnostic {
    pub fn of(d: &Diagnostic) -> Self {
        StoredDiagnostic {
            code: d.code.info().code.to_string(),
            severity: d.severity,
            message: d.message.clone(),
            range: (d.range.start, d.range.end),
            rule: d.rule.to_string(),
            fixes: d.fixes.iter().map(|f| (f.title.clone(), f.edits.iter().map(|(r, t)| (r.start, r.end, t.clone())).collect())).collect(),
        }
    }

    /// The diagnostic; None where its code is not one of this build's.
    pub fn to_diagnostic(&self) -> Option<Diagnostic> {
        let code = *Code::ALL.iter().find(|c| c.info().code == self.code)?;
        Some(Diagnostic {
            code,
            severity: self.severity,
            message: self.message.clone(),
            range: self.range.0..self.range.1,
            rule: intern(&self.rule),
            fixes: self
                .fixes
                .iter()
                .map(|(title, edits)| Fix { title: title.clone(), edits: edits.iter().map(|(s, e, t)| (*s..*e, t.clone())).collect() })
                .collect(),
        })
    }
}

/// The name of a rule as the `&'static str` diagnostics and counts carry:
/// each distinct name is allocated once for the process.
pub fn intern(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<BTreeSet<&'static str>> = std::sync::Mutex::new(BTreeSet::new());
    let mut names = NAMES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(n);
    n
}

/// One group's results, under its key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredGroup {
    /// The key, as hex: a file whose key is not its name's is not used.
    pub key: String,
    pub files: Vec<StoredFile>,
}

/// A group as written to the store: a [`StoredGroup`] whose files' texts
/// are borrowed (the same fields, so it reads back as one).
#[derive(Serialize)]
pub struct GroupView<'a> {
    key: &'a str,
    files: Vec<FileView<'a>>,
}

#[derive(Serialize)]
struct FileView<'a> {
    rel: &'a str,
    output: &'a str,
    counts: &'a [(String, usize)],
    diagnostics: &'a [StoredDiagnostic],
    defined: &'a [String],
    callees: &'a [String],
}

impl StoredGroup {
    /// The group as the store is to keep it, each file's text its own or,
    /// where it is the migration's output, `final_output`'s (by path); None
    /// where one of those is missing.
    pub fn view<'a>(&'a self, final_output: &dyn Fn(&str) -> Option<&'a str>) -> Option<GroupView<'a>> {
        let files = self
            .files
            .iter()
            .map(|f| {
                Some(FileView {
                    rel: &f.rel,
                    output: if f.output_is_final { final_output(&f.rel)? } else { &f.output },
                    counts: &f.counts,
                    diagnostics: &f.diagnostics,
                    defined: &f.defined,
                    callees: &f.callees,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(GroupView { key: &self.key, files })
    }
}

/// The store of one out-root, read during a migration.
pub struct Store {
    dir: PathBuf,
    salt: u64,
}

/// What a migration did with the store: the groups it computed (to be
/// stored) and the keys of those it found.
#[derive(Debug, Default)]
pub struct Outcome {
    pub computed: Vec<StoredGroup>,
    pub found: BTreeSet<u64>,
    /// The files of the groups found.
    pub files_found: usize,
    /// The files of the groups migrated (not found).
    pub files_computed: usize,
}

/// A key as the store names it: 16 hex digits.
pub fn key_name(key: u64) -> String {
    format!("{key:016x}")
}

impl Store {
    /// The store under `out_root`, for a migration whose options (and rule
    /// files' texts) `fingerprint` describes; None where a panic is
    /// injected (`SYCLIFY_INJECT_PANIC`, the tests' way to a failing step,
    /// which a stored group would skip). The key of every group starts
    /// with the hash of syclify's sources, rule tables and helper headers
    /// and of its locked dependencies (made by `build.rs`: a build from
    /// other sources never takes what this one stored), and the variables
    /// that cut files in parts (`SYCLIFY_SEGMENT_BYTES`,
    /// `SYCLIFY_FUNCTION_PART_BYTES`).
    pub fn open(out_root: &Path, fingerprint: &str) -> Option<Store> {
        if std::env::var_os("SYCLIFY_INJECT_PANIC").is_some() {
            return None;
        }
        let mut h = KeyHasher::new(0);
        h.str(env!("SYCLIFY_SOURCE_HASH"));
        h.str(env!("CARGO_PKG_VERSION"));
        h.str(fingerprint);
        // (the tests' ways to cut files in parts, which some outputs say)
        for var in ["SYCLIFY_SEGMENT_BYTES", "SYCLIFY_FUNCTION_PART_BYTES"] {
            h.str(&std::env::var(var).unwrap_or_default());
        }
        Some(Store { dir: out_root.join(DIR_REL), salt: h.finish() })
    }

    /// What every key starts from.
    pub fn salt(&self) -> u64 {
        self.salt
    }

    /// The group stored under `key`, where one is and it reads whole.
    pub fn get(&self, key: u64) -> Option<StoredGroup> {
        let name = key_name(key);
        let text = std::fs::read(self.dir.join(format!("{name}.json"))).ok()?;
        let g: StoredGroup = serde_json::from_slice(&text).ok()?;
        (g.key == name).then_some(g)
    }
}

impl Outcome {
    /// The files of the store this migration keeps: the groups it found
    /// and those it computed (`emit::save_store` removes the others).
    pub fn kept_files(&self) -> BTreeSet<String> {
        let found = self.found.iter().map(|k| key_name(*k));
        found.chain(self.computed.iter().map(|g| g.key.clone())).map(|k| format!("{k}.json")).collect()
    }
}

/// Whether a file of the store's directory is one of its groups (16 hex
/// digits and `.json`): the only files a save removes.
pub fn is_group_file(name: &str) -> bool {
    name.strip_suffix(".json").is_some_and(|k| k.len() == 16 && k.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The files beside the groups: version control and backup tools skip the store.
pub const MARKERS: [(&str, &str); 2] =
    [("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "# written by syclify: what the last migration into this out-root kept for the next\n*\n")];

/// The Cache Directory Tagging Specification's tag: backup tools skip the directory.
const CACHEDIR_TAG: &str = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by syclify.\n# For information about cache directory tags see https://bford.info/cachedir/\n";

/// The counts of a stored file as the migration carries them.
pub fn counts_of(stored: &[(String, usize)]) -> BTreeMap<&'static str, usize> {
    stored.iter().map(|(rule, n)| (intern(rule), *n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_written_through_its_view_reads_back_as_it_was() {
        // (GroupView repeats StoredGroup's fields, borrowed: a field one has
        // and the other not would make every stored group a miss)
        let d = Diagnostic::new(Code::ALL[3], 4..9, "some-rule", "a message");
        let file = |rel: &str, output: &str, output_is_final: bool| StoredFile {
            rel: rel.into(),
            output: output.into(),
            output_is_final,
            counts: vec![("kernel-launch".into(), 2)],
            diagnostics: vec![StoredDiagnostic::of(&d)],
            defined: vec!["k".into()],
            callees: vec!["f".into()],
        };
        let group = StoredGroup { key: key_name(7), files: vec![file("a.cu", "", true), file("b.cuh", "kept text", false)] };
        let view = group.view(&|rel| (rel == "a.cu").then_some("final text")).expect("every output found");
        let back: StoredGroup = serde_json::from_slice(&serde_json::to_vec(&view).expect("written")).expect("read back");
        assert_eq!(back, StoredGroup { key: key_name(7), files: vec![file("a.cu", "final text", false), file("b.cuh", "kept text", false)] });
        // a file whose output the migration does not have: not stored
        assert!(group.view(&|_| None).is_none());
    }

    #[test]
    fn a_diagnostic_is_stored_and_read_back_as_it_was() {
        let mut d = Diagnostic::new(Code::ALL[3], 4..9, "some-rule", "a message");
        d.fixes.push(Fix { title: "do it".into(), edits: vec![(1..2, "x".into())] });
        let back = StoredDiagnostic::of(&d).to_diagnostic().expect("a known code");
        assert_eq!(back.code, d.code);
        assert_eq!(back.severity, d.severity);
        assert_eq!(back.range, d.range);
        assert_eq!(back.rule, d.rule);
        assert_eq!(back.fixes, d.fixes);
        assert_eq!(back.message, d.message);
    }

    #[test]
    fn an_unknown_code_is_no_diagnostic() {
        let mut s = StoredDiagnostic::of(&Diagnostic::new(Code::ALL[0], 0..1, "r", "m"));
        s.code = "SY9999".into();
        assert!(s.to_diagnostic().is_none());
    }

    #[test]
    fn keys_tell_sequences_apart() {
        let key = |parts: &[&str]| {
            let mut h = KeyHasher::new(7);
            parts.iter().for_each(|p| h.str(p));
            h.finish()
        };
        assert_ne!(key(&["ab", "c"]), key(&["a", "bc"]));
        assert_eq!(key(&["ab", "c"]), key(&["ab", "c"]));
        assert_ne!(KeyHasher::new(1).finish(), KeyHasher::new(2).finish());
    }

    #[test]
    fn saving_keeps_what_was_used_and_removes_the_rest() {
        let out = tempfile::tempdir().expect("a temporary directory");
        let group = |key: u64| StoredGroup { key: key_name(key), files: Vec::new() };
        let first = Outcome { computed: vec![group(1), group(2)], ..Default::default() };
        assert_eq!(crate::emit::save_store(&first, out.path(), &|_| None).expect("saved"), 2);
        let store = Store { dir: out.path().join(DIR_REL), salt: 0 };
        assert_eq!(store.get(1), Some(group(1)));
        std::fs::write(out.path().join(DIR_REL).join("notes.txt"), "mine").expect("written");
        let second = Outcome { computed: vec![group(3)], found: [2].into(), ..Default::default() };
        crate::emit::save_store(&second, out.path(), &|_| None).expect("saved");
        assert_eq!(store.get(1), None);
        assert_eq!(store.get(2), Some(group(2)));
        assert_eq!(store.get(3), Some(group(3)));
        // (not the store's own file: left)
        assert!(out.path().join(DIR_REL).join("notes.txt").exists());
        // a store that is a link (to a directory elsewhere) is not written through
        let elsewhere = tempfile::tempdir().expect("a temporary directory");
        let linked = tempfile::tempdir().expect("a temporary directory");
        std::os::unix::fs::symlink(elsewhere.path(), linked.path().join(DIR_REL)).expect("a link");
        assert!(crate::emit::save_store(&first, linked.path(), &|_| None).is_err());
        assert_eq!(std::fs::read_dir(elsewhere.path()).expect("listed").count(), 0);
        // a file whose content is another key's is a miss
        std::fs::copy(out.path().join(DIR_REL).join(format!("{}.json", key_name(2))), out.path().join(DIR_REL).join(format!("{}.json", key_name(4))))
            .expect("copied");
        assert_eq!(store.get(4), None);
    }
}
