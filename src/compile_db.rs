//! A compilation database (`compile_commands.json`, as CMake's
//! `CMAKE_EXPORT_COMPILE_COMMANDS` and Bear write it): which translation
//! units to migrate, and each one's `-I`, `-D`, `-U`, `-include` and `-std`.
//!
//! Each entry has `directory`, `file` and either `arguments` (a list) or
//! `command` (one shell-quoted string). Relative paths are relative to the
//! entry's directory. A database that cannot be read, is not JSON, or has an
//! entry of the wrong shape is an error that names the file and the line.

use crate::parse::Defines;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    directory: String,
    file: String,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    output: Option<String>,
}

/// What one translation unit is compiled with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UnitFlags {
    /// `-D`/`-U` in order, the last word on a name winning; `-std=c++NN`
    /// as `__cplusplus`.
    pub defines: Defines,
    /// `-include FILE`, absolute.
    pub forced_includes: Vec<PathBuf>,
}

/// A read database.
#[derive(Debug, Default)]
pub struct Database {
    /// The translation units, absolute, in the database's order, each once.
    pub files: Vec<PathBuf>,
    /// Every `-I`/`-iquote`/`-isystem` directory of any entry, absolute, in
    /// order, each once.
    pub include_dirs: Vec<PathBuf>,
    /// Per translation unit (absolute path).
    pub flags: BTreeMap<PathBuf, UnitFlags>,
}

fn absolute(dir: &Path, p: &str) -> PathBuf {
    let p = Path::new(p);
    let joined = if p.is_absolute() { p.to_path_buf() } else { dir.join(p) };
    // lexical normalisation (`a/./b/../c`), so equal files compare equal
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// `__cplusplus` for a `-std=` value.
fn cplusplus(std: &str) -> Option<&'static str> {
    let v = std.trim_start_matches("gnu++").trim_start_matches("c++");
    Some(match v {
        "98" | "03" => "199711L",
        "11" | "0x" => "201103L",
        "14" | "1y" => "201402L",
        "17" | "1z" => "201703L",
        "20" | "2a" => "202002L",
        "23" | "2b" => "202302L",
        _ => return None,
    })
}

/// Reads a database file.
pub fn load(path: &Path) -> Result<Database, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read the compilation database: {e}", path.display()))?;
    let entries: Vec<Entry> =
        serde_json::from_str(&text).map_err(|e| format!("{}:{}:{}: not a compilation database: {e}", path.display(), e.line(), e.column()))?;
    let mut db = Database::default();
    for (i, e) in entries.iter().enumerate() {
        let dir = PathBuf::from(&e.directory);
        let words: Vec<String> = match (&e.arguments, &e.command) {
            (Some(a), _) => a.clone(),
            (None, Some(c)) => {
                shlex::split(c).ok_or_else(|| format!("{}: entry {} (`{}`): its command is not a valid shell command line", path.display(), i + 1, e.file))?
            }
            (None, None) => return Err(format!("{}: entry {} (`{}`) has neither `arguments` nor `command`", path.display(), i + 1, e.file)),
        };
        let file = absolute(&dir, &e.file);
        let mut flags = UnitFlags::default();
        let mut it = words.iter().skip(1).peekable();
        while let Some(w) = it.next() {
            // `-Ifoo` or `-I foo` (and the same for the others)
            let mut take = |flag: &str| -> Option<String> {
                let rest = w.strip_prefix(flag)?;
                if rest.is_empty() { it.next().cloned() } else { Some(rest.to_string()) }
            };
            if let Some(d) = take("-I").or_else(|| take("-iquote")).or_else(|| take("-isystem")) {
                let d = absolute(&dir, &d);
                if !db.include_dirs.contains(&d) {
                    db.include_dirs.push(d);
                }
            } else if let Some(d) = take("-D") {
                let (name, value) = d.split_once('=').map_or((d.as_str(), "1"), |(n, v)| (n, v));
                flags.defines.insert(name.to_string(), Some(value.to_string()));
            } else if let Some(u) = take("-U") {
                flags.defines.insert(u, None);
            } else if let Some(f) = take("-include") {
                flags.forced_includes.push(absolute(&dir, &f));
            } else if let Some(v) = w.strip_prefix("-std=").or_else(|| w.strip_prefix("--std=")).and_then(cplusplus) {
                flags.defines.insert("__cplusplus".into(), Some(v.into()));
            }
        }
        if !db.files.contains(&file) {
            db.files.push(file.clone());
        }
        db.flags.insert(file, flags);
    }
    Ok(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_text(text: &str) -> Result<Database, String> {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("compile_commands.json");
        std::fs::write(&p, text).unwrap();
        load(&p).map_err(|e| e.replace(&p.display().to_string(), "DB"))
    }

    #[test]
    fn commands_and_arguments() {
        let db = load_text(
            r#"[
  {"directory": "/p/build", "file": "../src/a.cu", "command": "nvcc -I../include -isystem /opt/x -DFAST -DN=4 -UDEBUG -include ../src/pre.h -std=c++14 -c ../src/a.cu"},
  {"directory": "/p", "file": "src/b.cu", "arguments": ["nvcc", "-I", "include", "-D", "MODE=\"x y\"", "-c", "src/b.cu"]}
]"#,
        )
        .unwrap();
        assert_eq!(db.files, vec![PathBuf::from("/p/src/a.cu"), PathBuf::from("/p/src/b.cu")]);
        assert_eq!(db.include_dirs, vec![PathBuf::from("/p/include"), PathBuf::from("/opt/x")]);
        let a = &db.flags[&PathBuf::from("/p/src/a.cu")];
        assert_eq!(a.defines.get("FAST"), Some(&Some("1".to_string())));
        assert_eq!(a.defines.get("N"), Some(&Some("4".to_string())));
        assert_eq!(a.defines.get("DEBUG"), Some(&None));
        assert_eq!(a.defines.get("__cplusplus"), Some(&Some("201402L".to_string())));
        assert_eq!(a.forced_includes, vec![PathBuf::from("/p/src/pre.h")]);
        assert_eq!(db.flags[&PathBuf::from("/p/src/b.cu")].defines.get("MODE"), Some(&Some("\"x y\"".to_string())));
    }

    #[test]
    fn errors_name_the_file_and_line() {
        assert_eq!(load_text("[\n  {\"directory\": \"/p\",\n   \"file\": 3}\n]").unwrap_err().split(": not").next().unwrap(), "DB:3:12");
        assert!(load_text("[\n{\"directory\": \"/p\", \"file\": \"a.cu\"}\n]").unwrap_err().contains("neither `arguments` nor `command`"));
        assert!(load_text("{").unwrap_err().starts_with("DB:1:"), "{}", load_text("{").unwrap_err());
        assert!(load(Path::new("/nonexistent/compile_commands.json")).unwrap_err().contains("cannot read the compilation database"));
    }
}
