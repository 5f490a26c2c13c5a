//! Emit: writes the migrated tree under the out-root (atomically, file by
//! file), the helper header, the CMake module where a CMake script was
//! migrated, and nothing else.

use crate::project::Migration;
use std::io::Write;
use std::path::Path;

pub use crate::helpers::{CORE_HEADERS, HELPER_HEADER, HELPER_HEADER_REL, LIBRARY_HEADERS};

/// Writes `text` to `path` through a temporary file in the same directory.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    write_atomic_bytes(path, text.as_bytes())
}

/// An out-root being written: its path as given and as resolved (made
/// once per emit: `emit` is also called without the CLI's
/// `prepare_out_root`, by `validate`, so a missing one is made here).
struct OutRoot<'m> {
    path: &'m Path,
    resolved: std::path::PathBuf,
}

impl<'m> OutRoot<'m> {
    fn open(path: &'m Path) -> std::io::Result<Self> {
        if !path.is_dir() {
            std::fs::create_dir_all(path)?;
        }
        Ok(OutRoot { path, resolved: path.canonicalize()? })
    }

    /// Where output `rel` lies, or why it may not be written: `rel` must be
    /// a plain relative path (no `..`, not absolute), and the directory it
    /// lands in must be inside the out-root, checked before any directory
    /// is made for it (a link in the out-root to a directory elsewhere is
    /// not followed).
    fn path_for(&self, rel: &str) -> std::io::Result<std::path::PathBuf> {
        let plain = Path::new(rel).components().all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain || rel.is_empty() {
            return Err(std::io::Error::other(format!("refused: `{rel}` is not a path inside the out-root")));
        }
        let path = self.path.join(rel);
        let dir = path.parent().unwrap_or(self.path);
        let inside = |d: &Path| -> std::io::Result<()> {
            if d.canonicalize()?.starts_with(&self.resolved) {
                Ok(())
            } else {
                Err(std::io::Error::other(format!("refused: {} leads outside the out-root (a link)", d.display())))
            }
        };
        if !dir.is_dir() {
            // the deepest directory that exists first, then the ones made
            let mut existing = dir;
            while !existing.exists() {
                existing = existing.parent().unwrap_or(self.path);
            }
            inside(existing)?;
            std::fs::create_dir_all(dir)?;
        }
        inside(dir)?;
        Ok(path)
    }
}

/// The name every temporary file syclify makes starts with: a run killed
/// while it writes leaves such files behind, and the next run removes them
/// ([`remove_leftovers`]).
pub const TEMP_PREFIX: &str = ".syclify-tmp-";

fn temp_file_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new().prefix(TEMP_PREFIX).tempfile_in(dir)
}

/// Removes the temporary files a killed run left under `out_root` (named
/// [`TEMP_PREFIX`]…; links are not followed); returns how many. Called by a
/// run that holds the out-root's lock, after one that did not finish.
pub fn remove_leftovers(out_root: &Path) -> usize {
    let mut removed = 0;
    let mut dirs = vec![out_root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                dirs.push(e.path());
            } else if kind.is_file() && e.file_name().to_str().is_some_and(|n| n.starts_with(TEMP_PREFIX)) && std::fs::remove_file(e.path()).is_ok() {
                removed += 1;
            }
        }
    }
    removed
}

/// Writes `bytes` to `path` through a temporary file in the same directory.
pub fn write_atomic_bytes(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |file| file.write_all(bytes))
}

/// [`write_atomic_bytes`] with the bytes written by `write` as it makes
/// them (the store's JSON: serialised into the file, never whole in
/// memory).
pub fn write_atomic_with(path: &Path, write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    // a stat first: most outputs share their directory with others, and
    // create_dir_all always tries mkdir (slow on some file systems: ~0.4 ms)
    if !dir.is_dir() {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = temp_file_in(dir)?;
    // the file itself: its errors are the system's, naming no temporary path
    write(tmp.as_file_mut())?;
    // a file written over keeps its mode; a new one is readable by all, as
    // a compiler's or an editor's output is (the temporary file is 0600)
    let mode = std::fs::metadata(path).map(|m| m.permissions()).unwrap_or_else(|_| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::Permissions::from_mode(0o644)
    });
    tmp.as_file().set_permissions(mode)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Copies file `src` to `path` atomically (a temporary file beside it,
/// renamed), streaming: a data file is never read into memory whole.
pub fn copy_atomic(src: &Path, path: &Path) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    if !dir.is_dir() {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = temp_file_in(dir)?;
    let mut from = std::fs::File::open(src)?;
    std::io::copy(&mut from, tmp.as_file_mut())?;
    // the source's permissions: a script stays executable
    tmp.as_file().set_permissions(from.metadata()?.permissions())?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A file's content hash ([`hash`]), read in blocks.
pub fn hash_file(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(format!("{:016x}", h.digest()))
}

/// Every file a migration writes under its out-root, with its bytes: the
/// outputs (non-UTF-8 inputs' stray bytes restored), the helper header, and
/// the CMake module where a migrated CMake script includes it.
pub fn outputs(m: &Migration) -> Vec<(String, std::borrow::Cow<'_, [u8]>)> {
    let mut out: Vec<(String, std::borrow::Cow<[u8]>)> = Vec::new();
    for f in &m.files {
        if let (Some(out_rel), Some(text)) = (&f.out_rel, &f.output) {
            let bytes: std::borrow::Cow<[u8]> = if f.escaped { crate::source::encode_lossless(text).into() } else { text.as_bytes().into() };
            out.push((out_rel.clone(), bytes));
        }
    }
    out.push((HELPER_HEADER_REL.to_string(), HELPER_HEADER.as_bytes().into()));
    for (rel, text) in CORE_HEADERS {
        out.push((rel.to_string(), text.as_bytes().into()));
    }
    // the library helper headers a migrated file includes, and those they
    // include (`blas.hpp` includes `"blas_types.hpp"`)
    let included: std::collections::BTreeSet<&str> = {
        use rayon::prelude::*;
        m.files
            .par_iter()
            .filter_map(|f| f.output.as_deref())
            .flat_map_iter(|o| crate::source::includes(o).map(|i| i.name).filter(|n| n.starts_with("syclify/")))
            .collect()
    };
    let mut chosen = vec![false; LIBRARY_HEADERS.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, (rel, _)) in LIBRARY_HEADERS.iter().enumerate() {
            let include = &rel["include/".len()..];
            let file = &include["syclify/".len()..];
            let needed =
                included.contains(include) || LIBRARY_HEADERS.iter().zip(&chosen).any(|((_, text), c)| *c && text.contains(&format!("#include \"{file}\"")));
            if needed && !chosen[i] {
                chosen[i] = true;
                changed = true;
            }
        }
    }
    for ((rel, text), c) in LIBRARY_HEADERS.iter().zip(&chosen) {
        if *c {
            out.push((rel.to_string(), text.as_bytes().into()));
        }
    }
    if m.files.iter().any(|f| f.counts.contains_key(crate::build::cmake::RULE)) {
        out.push((crate::build::cmake::MODULE_REL.to_string(), crate::build::cmake::MODULE.as_bytes().into()));
    }
    out
}

/// Makes the out-root (and its parents); the error says why it cannot be.
/// Whether it can be written is learnt from the first file made there, the
/// lock ([`lock_out_root`]).
pub fn prepare_out_root(out_root: &Path) -> std::io::Result<()> {
    if out_root.exists() && !out_root.is_dir() {
        return Err(std::io::Error::other("it is a file, not a directory"));
    }
    std::fs::create_dir_all(out_root)
}

/// Where a run's lock lies, under the out-root, while it writes there.
pub const LOCK_REL: &str = ".syclify.lock";

/// A run's hold on its out-root (see [`lock_out_root`]): the lock file is
/// removed when the run ends, then the lock released (the file closed).
#[derive(Debug)]
pub struct OutRootLock {
    path: std::path::PathBuf,
    _file: std::fs::File,
    /// The lock file was there before this run made it: the last run into
    /// this out-root did not end (it was killed, or the machine stopped).
    pub unfinished_before: bool,
}

impl Drop for OutRootLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Takes the out-root for this run: an exclusive `flock` on
/// `OUT/.syclify.lock`, which a second run on the same out-root cannot take
/// (it is refused, `ErrorKind::WouldBlock`, before it writes anything). The
/// kernel releases the lock of a run that dies, however it dies: a lock
/// file left behind by a killed run is taken again by the next, which
/// learns so ([`OutRootLock::unfinished_before`]).
pub fn lock_out_root(out_root: &Path) -> std::io::Result<OutRootLock> {
    let path = out_root.join(LOCK_REL);
    loop {
        let unfinished_before = path.exists();
        let file = std::fs::OpenOptions::new().create(true).write(true).truncate(false).open(&path)?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            use std::os::unix::fs::MetadataExt;
            // SAFETY: flock on a descriptor this function owns, open for its lifetime
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let e = std::io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                    return Err(std::io::Error::new(std::io::ErrorKind::WouldBlock, "another syclify run is writing into it"));
                }
                return Err(e);
            }
            // the run that held it may have removed the file between our
            // open and our lock: then the lock is on a file no one else
            // sees, and a third run could take a new one; take it again
            let held = file.metadata()?;
            match std::fs::metadata(&path) {
                Ok(now) if now.ino() == held.ino() && now.dev() == held.dev() => {}
                _ => continue,
            }
        }
        return Ok(OutRootLock { path, _file: file, unfinished_before });
    }
}

/// Writes every output file; returns `(relative path, error)` for the ones that failed.
pub fn emit(m: &Migration) -> Vec<(String, String)> {
    use rayon::prelude::*;
    let root = match OutRoot::open(&m.out_root) {
        Ok(root) => root,
        Err(e) => return outputs(m).into_iter().map(|(rel, _)| (rel, e.to_string())).collect(),
    };
    let mut failed: Vec<(String, String)> = outputs(m)
        .par_iter()
        .filter_map(|(rel, bytes)| root.path_for(rel).and_then(|path| write_atomic_bytes(&path, bytes)).err().map(|e| (rel.clone(), e.to_string())))
        .collect();
    // the other files (data, scripts), copied as they are
    let copy_failed: Vec<(String, String)> = m
        .others
        .par_iter()
        .filter_map(|rel| root.path_for(rel).and_then(|path| copy_atomic(&m.in_root.join(rel), &path)).err().map(|e| (rel.clone(), e.to_string())))
        .collect();
    failed.extend(copy_failed);
    failed
}

/// Writes the groups a migration computed into the out-root's store
/// ([`crate::reuse`], `<out-root>/.syclify-cache`), each as an output is
/// written (a plain path whose directory lies inside the out-root, a
/// temporary file renamed over it), and removes the stored groups that
/// migration neither found nor computed. Returns how many were written.
pub fn save_store<'o>(outcome: &crate::reuse::Outcome, out_root: &Path, final_output: &(dyn Fn(&str) -> Option<&'o str> + Sync)) -> std::io::Result<usize> {
    use crate::reuse::{DIR_REL, MARKERS};
    use rayon::prelude::*;
    let root = OutRoot::open(out_root)?;
    for (name, text) in MARKERS {
        let path = root.path_for(&format!("{DIR_REL}/{name}"))?;
        let plain = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
        if !plain || std::fs::read(&path).ok().as_deref() != Some(text.as_bytes()) {
            write_atomic(&path, text)?;
        }
    }
    // (a group computed was not found: its file is absent, or did not read)
    // (a group whose output is missing from the migration is not stored:
    // the next run computes it again)
    outcome.computed.par_iter().try_for_each(|g| {
        let Some(view) = g.view(&|rel| final_output(rel)) else { return Ok(()) };
        let path = root.path_for(&format!("{DIR_REL}/{}.json", g.key))?;
        write_atomic_with(&path, |file| {
            let mut w = std::io::BufWriter::new(file);
            serde_json::to_writer(&mut w, &view).map_err(std::io::Error::other)?;
            w.flush()
        })
    })?;
    let keep = outcome.kept_files();
    for entry in std::fs::read_dir(out_root.join(DIR_REL))?.flatten() {
        let name = entry.file_name();
        if name.to_str().is_some_and(|n| crate::reuse::is_group_file(n) && !keep.contains(n)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(outcome.computed.len())
}

/// Where the manifest of the last migration lies, under the out-root.
pub const MANIFEST_REL: &str = ".syclify-manifest.json";

/// What the last migration into an out-root wrote: the tool's version, a
/// fingerprint of its options, each input's and each output's content hash.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Manifest {
    pub version: String,
    pub options: String,
    pub inputs: std::collections::BTreeMap<String, String>,
    pub outputs: std::collections::BTreeMap<String, String>,
    /// The run that wrote it stopped before it had written every output
    /// (interrupted, or a write failed): the outputs it names are those on
    /// disk, some of the last migration's, some of this one's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unfinished: bool,
    /// The outputs a run was about to write when it wrote this manifest
    /// (path → the new content's hash), written before its first output:
    /// a run killed then leaves them named here, so the next run takes a
    /// file whose bytes hash to its entry for syclify's own (see
    /// [`Manifest::prior`]), not for a hand edit. Empty once a run ends.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub pending: std::collections::BTreeMap<String, String>,
}

impl Manifest {
    /// What the runs before wrote into the out-root, as far as it is still
    /// there: the outputs the manifest names, and over them each pending
    /// output whose file under `out_root` holds exactly the pending bytes
    /// (a killed run wrote it). Reads only the pending files: none after a
    /// run that ended.
    pub fn prior(&self, out_root: &Path) -> std::collections::BTreeMap<String, String> {
        use rayon::prelude::*;
        let landed: Vec<(String, String)> = self
            .pending
            .par_iter()
            .filter(|(rel, h)| hash_file(&out_root.join(rel)).is_ok_and(|on_disk| &on_disk == *h))
            .map(|(rel, h)| (rel.clone(), h.clone()))
            .collect();
        let mut prior = self.outputs.clone();
        prior.extend(landed);
        prior
    }
}

/// A content hash (xxh3, 64 bits, hex).
pub fn hash(bytes: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes))
}

/// What an incremental emit did.
#[derive(Debug, Default)]
pub struct EmitStats {
    /// Outputs written (new or changed), in-out-root paths.
    pub written: Vec<String>,
    /// Outputs whose bytes were already there.
    pub unchanged: usize,
    /// Outputs edited by hand since the last migration whose new text is
    /// what that migration wrote: the edit is kept.
    pub kept_edited: Vec<String>,
    /// Outputs edited by hand since the last migration that had to change:
    /// the edit is overwritten.
    pub overwritten_edits: Vec<String>,
    /// Outputs of the last migration that this one does not produce (their
    /// input is gone): reported, not deleted.
    pub stale: Vec<String>,
    /// The manifest was absent or unreadable (a first migration).
    pub first_run: bool,
    /// The tool's version or the options differ from the last migration's.
    pub options_changed: bool,
    /// Outputs that could not be written (the disk is full, the file or its
    /// directory is read-only): the first such failure stops the emit.
    pub failures: Vec<(String, String)>,
    /// Outputs refused (their path leads outside the out-root): the others
    /// are written.
    pub refused: Vec<(String, String)>,
    /// Outputs not written because the emit stopped (a write failed, or the
    /// run was interrupted); they keep what the last migration wrote.
    pub not_written: usize,
    /// The last migration into this out-root had not finished (its
    /// manifest says so); this one completes it when it is not stopped.
    pub last_unfinished: bool,
    /// This emit was stopped before it had written every output (its
    /// manifest says `"unfinished"`).
    pub stopped: bool,
}

/// The error of a write not tried because the emit was stopped.
#[derive(Debug, thiserror::Error)]
#[error("not written: the run stopped")]
struct Stopped;

/// What an incremental emit did with one file.
enum Done {
    Written,
    Unchanged,
    KeptEdit,
    OverwroteEdit,
    Failed(String),
    Refused(String),
    NotWritten,
}

/// What an incremental emit is to do with one file, by content hashes: the
/// new bytes' hash `new`, the out-root's file's (`on_disk`, none when
/// absent) and the one the runs before wrote there (`before`, from
/// [`Manifest::prior`]): nothing where the bytes are already there; a hand
/// edit kept where the new bytes are what the last migration wrote; else a
/// write, which overwrites an edit where the file is neither.
enum Plan {
    Unchanged,
    KeptEdit,
    Write { edited: bool },
}

fn plan(new: &str, on_disk: Option<&str>, before: Option<&str>) -> Plan {
    if on_disk == Some(new) {
        return Plan::Unchanged;
    }
    if on_disk.is_some() && before == Some(new) {
        return Plan::KeptEdit;
    }
    Plan::Write { edited: on_disk.is_some() && before.is_some() && on_disk != before }
}

/// Writes the migration into its out-root, touching only what changed
/// since the last migration there (by the manifest at [`MANIFEST_REL`]):
/// every output (`extra` adds the reports), the helper header, the CMake
/// module. A file whose bytes are already on disk is not written; one that
/// was edited by hand since the last migration keeps the edit when its new
/// text is what that migration wrote. Outputs of the last migration that
/// this one lacks are listed as stale, never deleted.
///
/// Every file is written whole or not at all (a temporary file renamed over
/// it), so a run killed at any point leaves each output as the last
/// migration or this one wrote it; before its first write, the manifest
/// names what the run is about to write ([`Manifest::pending`]), so the
/// next run knows those files for syclify's own, whatever its input.
/// `stop` ends the emit early: the caller sets it on SIGINT/SIGTERM, and
/// the emit sets it when a write fails (a full disk, a read-only file); the
/// files not yet written are left as they were, and the manifest, marked
/// unfinished, names what is on disk.
pub fn emit_incremental(m: &Migration, options: &str, extra: &[(String, String)], stop: &std::sync::atomic::AtomicBool) -> EmitStats {
    use rayon::prelude::*;
    use std::sync::atomic::Ordering;
    let manifest_path = m.out_root.join(MANIFEST_REL);
    let old: Option<Manifest> = std::fs::read_to_string(&manifest_path).ok().and_then(|t| serde_json::from_str(&t).ok());
    let mut stats = EmitStats { first_run: old.is_none(), ..Default::default() };
    let old = old.unwrap_or_default();
    stats.last_unfinished = old.unfinished;
    // what the runs before wrote, a killed run's files included
    let prior = old.prior(&m.out_root);
    stats.options_changed = !stats.first_run && (old.version != env!("CARGO_PKG_VERSION") || old.options != options);
    let mut outputs = outputs(m);
    for (rel, text) in extra {
        outputs.push((rel.clone(), text.as_bytes().into()));
    }
    let root = OutRoot::open(&m.out_root);
    let path_for = |rel: &str| root.as_ref().map_err(|e| e.to_string()).and_then(|r| r.path_for(rel).map_err(|e| e.to_string()));
    // first what each file needs, by hashes (nothing written yet)
    let mut steps: Vec<Step> = outputs
        .par_iter()
        .map(|(rel, bytes)| {
            let new = hash(bytes);
            let to = path_for(rel).map(|path| {
                let on_disk = std::fs::read(&path).ok().map(|b| hash(&b));
                let plan = plan(&new, on_disk.as_deref(), prior.get(rel).map(String::as_str));
                (path, plan)
            });
            Step { rel: rel.clone(), new, from: Content::Bytes(bytes), to }
        })
        .collect();
    // the other files (data, scripts): copied where the out-root's copy
    // differs, by the same rules as outputs (a hand edit of a copy is kept
    // while the input is what the last migration copied)
    steps.par_extend(m.others.par_iter().map(|rel| {
        let src = m.in_root.join(rel);
        let (new, to) = match hash_file(&src) {
            Ok(new) => {
                let to = path_for(rel).map(|path| {
                    let plan = plan(&new, hash_file(&path).ok().as_deref(), prior.get(rel).map(String::as_str));
                    (path, plan)
                });
                (new, to)
            }
            Err(e) => (String::new(), Err(format!("cannot read {}: {e}", src.display()))),
        };
        Step { rel: rel.clone(), new, from: Content::Copy(src), to }
    }));
    // then the manifest names the writes to come, before the first of them
    let pending: std::collections::BTreeMap<String, String> =
        steps.iter().filter(|s| matches!(s.to, Ok((_, Plan::Write { .. })))).map(|s| (s.rel.clone(), s.new.clone())).collect();
    if !pending.is_empty() {
        let before = Manifest {
            version: old.version.clone(),
            options: old.options.clone(),
            inputs: old.inputs.clone(),
            outputs: prior.clone(),
            unfinished: true,
            pending,
        };
        let text = serde_json::to_string_pretty(&before).expect("the manifest serialises") + "\n";
        if let Err(e) = write_atomic(&manifest_path, &text) {
            // (nothing is written that the manifest would not name)
            stop.store(true, Ordering::Relaxed);
            stats.failures.push((MANIFEST_REL.to_string(), e.to_string()));
        }
    }
    // then the writes; one that fails stops the others: on a full disk, one error
    let write_or_stop = |write: &dyn Fn() -> std::io::Result<()>| -> std::io::Result<()> {
        if stop.load(Ordering::Relaxed) {
            return Err(std::io::Error::other(Stopped));
        }
        let r = write();
        if r.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        r
    };
    let done: Vec<(String, String, Done)> = steps
        .into_par_iter()
        .map(|Step { rel, new, from, to }| {
            let outcome = match to {
                Err(e) => Done::Refused(e),
                Ok((_, Plan::Unchanged)) => Done::Unchanged,
                Ok((_, Plan::KeptEdit)) => Done::KeptEdit,
                Ok((path, Plan::Write { edited })) => match write_or_stop(&|| match &from {
                    Content::Bytes(bytes) => write_atomic_bytes(&path, bytes),
                    Content::Copy(src) => copy_atomic(src, &path),
                }) {
                    Ok(()) if edited => Done::OverwroteEdit,
                    Ok(()) => Done::Written,
                    Err(e) if e.get_ref().is_some_and(|e| e.is::<Stopped>()) => Done::NotWritten,
                    Err(e) => Done::Failed(e.to_string()),
                },
            };
            (rel, new, outcome)
        })
        .collect();
    let mut manifest = Manifest { version: env!("CARGO_PKG_VERSION").to_string(), options: options.to_string(), ..Default::default() };
    for f in &m.files {
        if let Some(s) = &f.source {
            manifest.inputs.insert(f.rel.clone(), hash(s.text.as_bytes()));
        }
    }
    for (rel, new, outcome) in done {
        match outcome {
            Done::Written => stats.written.push(rel.clone()),
            Done::Unchanged => stats.unchanged += 1,
            Done::KeptEdit => stats.kept_edited.push(rel.clone()),
            Done::OverwroteEdit => {
                stats.written.push(rel.clone());
                stats.overwritten_edits.push(rel.clone());
            }
            // what the out-root holds is still what the runs before wrote
            Done::Failed(_) | Done::Refused(_) | Done::NotWritten => {
                match outcome {
                    Done::Failed(e) => stats.failures.push((rel.clone(), e)),
                    Done::Refused(e) => stats.refused.push((rel.clone(), e)),
                    _ => stats.not_written += 1,
                }
                if let Some(h) = prior.get(&rel) {
                    manifest.outputs.insert(rel, h.clone());
                }
                continue;
            }
        }
        manifest.outputs.insert(rel, new);
    }
    manifest.unfinished = stop.load(Ordering::Relaxed);
    stats.stopped = manifest.unfinished;
    stats.stale = prior.keys().filter(|r| !manifest.outputs.contains_key(*r) && m.out_root.join(r).exists()).cloned().collect();
    // the manifest keeps naming stale outputs, so later runs still report them
    for r in &stats.stale {
        manifest.outputs.insert(r.clone(), prior[r].clone());
    }
    let text = serde_json::to_string_pretty(&manifest).expect("the manifest serialises") + "\n";
    let unchanged = std::fs::read_to_string(&manifest_path).ok().as_deref() == Some(text.as_str());
    if let Err(e) = if unchanged { Ok(()) } else { write_atomic(&manifest_path, &text) } {
        stats.failures.push((MANIFEST_REL.to_string(), e.to_string()));
    }
    stats
}

/// One file of an incremental emit: its path in the out-root, its new
/// content's hash, where its bytes come from, and where it goes with what
/// to do there (or why it is refused).
struct Step<'a> {
    rel: String,
    new: String,
    from: Content<'a>,
    to: Result<(std::path::PathBuf, Plan), String>,
}

/// Where an output's bytes come from: the migration, or a file of the
/// input tree copied as it is (streamed, never read whole).
enum Content<'a> {
    Bytes(&'a [u8]),
    Copy(std::path::PathBuf),
}
