//! Emit: writes the migrated tree under the out-root (atomically, file by
//! file), the helper header, the CMake module where a CMake script was
//! migrated, and nothing else.

use crate::project::Migration;
use std::io::Write;
use std::path::Path;

/// The helper header shipped with migrated code.
pub const HELPER_HEADER: &str = include_str!("../runtime-headers/syclify/syclify.hpp");
pub const HELPER_HEADER_REL: &str = "include/syclify/syclify.hpp";

/// Writes `text` to `path` through a temporary file in the same directory.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    write_atomic_bytes(path, text.as_bytes())
}

/// Writes `bytes` to `path` through a temporary file in the same directory.
pub fn write_atomic_bytes(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes every output file; returns `(relative path, error)` for the ones that failed.
pub fn emit(m: &Migration) -> Vec<(String, String)> {
    use rayon::prelude::*;
    let mut failures: Vec<(String, String)> = m
        .files
        .par_iter()
        .filter_map(|f| {
            let (Some(out_rel), Some(text)) = (&f.out_rel, &f.output) else {
                return None;
            };
            let path = m.out_root.join(out_rel);
            debug_assert!(path.starts_with(&m.out_root));
            let written = if f.escaped { write_atomic_bytes(&path, &crate::source::encode_lossless(text)) } else { write_atomic(&path, text) };
            written.err().map(|e| (out_rel.clone(), e.to_string()))
        })
        .collect();
    if let Err(e) = write_atomic(&m.out_root.join(HELPER_HEADER_REL), HELPER_HEADER) {
        failures.push((HELPER_HEADER_REL.to_string(), e.to_string()));
    }
    // the CMake module, where a migrated CMake script includes it
    let cmake = crate::build::cmake::RULE;
    if m.files.iter().any(|f| f.counts.contains_key(cmake)) {
        let rel = crate::build::cmake::MODULE_REL;
        if let Err(e) = write_atomic(&m.out_root.join(rel), crate::build::cmake::MODULE) {
            failures.push((rel.to_string(), e.to_string()));
        }
    }
    failures
}
