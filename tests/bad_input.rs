//! The bad-input matrix: each kind of input a tree of code nobody has read
//! may hold, beside a good file. Each case checks one clear message naming
//! the file (where there is one to give), the good file still migrated, the
//! exit code, the inputs unchanged (their bytes hashed before and after) and
//! nothing written outside the out-root.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GOOD: &str = "__global__ void good(float *a) { a[threadIdx.x] = 1.0f; }\n";

/// A scratch directory holding `in/` (with `good.cu`), `out/` once
/// migrated, and whatever a case puts beside them (`outside/`).
struct Case {
    dir: tempfile::TempDir,
}

/// What a run did.
struct Run {
    code: Option<i32>,
    stderr: String,
}

impl Case {
    fn new() -> Case {
        let c = Case { dir: tempfile::tempdir().unwrap() };
        fs::create_dir_all(c.input()).unwrap();
        fs::write(c.input().join("good.cu"), GOOD).unwrap();
        c
    }
    fn root(&self) -> &Path {
        self.dir.path()
    }
    fn input(&self) -> PathBuf {
        self.root().join("in")
    }
    fn out(&self) -> PathBuf {
        self.root().join("out")
    }
    fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.input().join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, bytes).unwrap();
        p
    }
    /// Migrates `in/` into `out_root` (default `out/`), checking that the
    /// scratch directory outside the out-root is byte for byte as before.
    fn migrate_into(&self, out_root: &Path, extra: &[&str]) -> Run {
        let before = snapshot(self.root(), out_root);
        let mut args = vec!["migrate".to_string(), self.input().display().to_string(), "-o".into(), out_root.display().to_string()];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o: Output = Command::new(env!("CARGO_BIN_EXE_syclify")).args(&args).output().expect("syclify runs");
        let after = snapshot(self.root(), out_root);
        assert_eq!(before, after, "the inputs changed, or something was written outside the out-root");
        Run { code: o.status.code(), stderr: String::from_utf8_lossy(&o.stderr).into_owned() }
    }
    fn migrate(&self) -> Run {
        self.migrate_into(&self.out(), &[])
    }
    fn output(&self, rel: &str) -> Vec<u8> {
        fs::read(self.out().join(rel)).unwrap_or_else(|e| panic!("{rel} was not written: {e}"))
    }
    fn good_migrated(&self) {
        let out = String::from_utf8(self.output("good.dp.cpp")).unwrap();
        assert!(out.contains("void good(float *a, const sycl::nd_item<3> &item)"), "{out}");
    }
}

/// Every entry under `dir` but `skip` (not followed through links): its
/// path, kind, and the hash of its bytes (files) or target (links).
fn snapshot(dir: &Path, skip: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            out.push((d.display().to_string(), "unreadable directory".into()));
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.starts_with(skip) {
                continue;
            }
            let t = fs::symlink_metadata(&p).unwrap().file_type();
            let what = if t.is_symlink() {
                format!("link to {}", fs::read_link(&p).unwrap().display())
            } else if t.is_dir() {
                todo.push(p.clone());
                "directory".into()
            } else if t.is_file() {
                match fs::read(&p) {
                    Ok(b) => format!("file {}", syclify::emit::hash(&b)),
                    Err(_) => "unreadable file".into(),
                }
            } else {
                "special".into()
            };
            out.push((p.display().to_string(), what));
        }
    }
    out.sort();
    out
}

fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn other_encodings_are_migrated_with_their_bytes_kept() {
    let c = Case::new();
    c.write("latin1.cu", b"// r\xe9sum\xe9 \xa9\n__global__ void k() {}\n");
    // UTF-8 and Latin-1 in one file
    c.write("mixed.cu", b"// caf\xc3\xa9 and caf\xe9\n__global__ void m() {}\n");
    let r = c.migrate();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let latin1 = c.output("latin1.dp.cpp");
    assert!(latin1.starts_with(b"// r\xe9sum\xe9 \xa9\n"), "{}", String::from_utf8_lossy(&latin1));
    let mixed = c.output("mixed.dp.cpp");
    assert!(mixed.starts_with(b"// caf\xc3\xa9 and caf\xe9\n"), "{}", String::from_utf8_lossy(&mixed));
    assert!(String::from_utf8_lossy(&mixed).contains("void m(const sycl::nd_item<3> &item) {}"));
    c.good_migrated();
}

#[test]
fn binary_files_and_nul_bytes_are_refused_by_name() {
    let c = Case::new();
    c.write("binary.cu", b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe");
    c.write("nul.cu", b"__global__ void k() {}\n\x00\n");
    let r = c.migrate();
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("binary.cu:1:1: error: binary file (contains NUL bytes); not migrated [SY0003]"), "{}", r.stderr);
    assert!(r.stderr.contains("nul.cu:1:1: error: binary file"), "{}", r.stderr);
    assert!(!c.out().join("binary.dp.cpp").exists() && !c.out().join("nul.dp.cpp").exists());
    c.good_migrated();
}

#[test]
fn empty_files_bom_and_crlf() {
    let c = Case::new();
    c.write("empty.cu", "");
    c.write("bom.cu", b"\xef\xbb\xbf__global__ void b(int *a) { a[0] = 1; }\n");
    c.write("crlf.cu", "__global__ void w(int *a) {\r\n  a[threadIdx.x] = 2;\r\n}\r\n");
    let r = c.migrate();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(c.out().join("empty.dp.cpp").is_file());
    // the byte-order mark stays first, before the includes added
    let bom = c.output("bom.dp.cpp");
    assert!(bom.starts_with(b"\xef\xbb\xbf#include"), "{}", String::from_utf8_lossy(&bom));
    let crlf = String::from_utf8(c.output("crlf.dp.cpp")).unwrap();
    assert!(crlf.contains("  a[item.get_local_id(2)] = 2;\r\n}\r\n"), "{crlf:?}");
    c.good_migrated();
}

#[test]
fn a_10_mb_line_a_50_mb_file_and_100k_deep_nesting() {
    let c = Case::new();
    // one line of 10 MB: a generated table
    let mut line = String::from("__constant__ float table[] = {");
    while line.len() < 10 << 20 {
        line.push_str("0.25f, -1.5e-3f, 0x1F, ");
    }
    line.push_str("1};\n");
    c.write("line.cu", format!("{line}__global__ void k(float *o) {{ o[threadIdx.x] = table[threadIdx.x]; }}\n"));
    // 50 MB over many lines: code, then a data table of a million lines
    let mut big = String::from(GOOD.replace("good", "big").as_str());
    big.push_str("const double data[][4] = {\n");
    while big.len() < 50 << 20 {
        big.push_str("  {1.0, 2.0, 3.0, 4.0},\n");
    }
    big.push_str("};\n");
    c.write("big.cu", &big);
    c.write("deep_paren.cu", format!("__global__ void p(int *a) {{ a[0] = {}1{}; }}\n", "(".repeat(100_000), ")".repeat(100_000)));
    c.write("deep_brace.cu", format!("__global__ void q(int *a) {}a[threadIdx.x] = 1;{}\n", "{".repeat(100_000), "}".repeat(100_000)));
    let r = c.migrate();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let out = String::from_utf8(c.output("line.dp.cpp")).unwrap();
    // the table's bound comes from its items, all kept
    let items = line.matches(',').count() + 1;
    assert!(out.contains(&format!("syclify::symbol<float[{items}]> table(")), "{}", &out[..300]);
    assert!(out.contains(&line[line.find('{').unwrap()..line.len() - 3]), "the table was not kept as written");
    let big_out = String::from_utf8(c.output("big.dp.cpp")).unwrap();
    assert!(big_out.contains("void big(float *a, const sycl::nd_item<3> &item)") && big_out.ends_with("  {1.0, 2.0, 3.0, 4.0},\n};\n"));
    assert!(String::from_utf8(c.output("deep_paren.dp.cpp")).unwrap().contains(&format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000))));
    assert!(String::from_utf8(c.output("deep_brace.dp.cpp")).unwrap().contains("a[item.get_local_id(2)] = 1;"));
    c.good_migrated();
}

#[test]
fn thousands_of_regions_that_do_not_parse_are_counted_past_a_limit() {
    // mangled code: a `)` too many in every statement, in a small file
    // (migrated whole) and in one over the size migrated in parts
    let c = Case::new();
    let mangled = |n: usize| {
        let mut s = String::from("__global__ void k(int *p) {\n");
        for j in 0..n {
            s.push_str(&format!("  int a{j} = ) p[{j}];\n"));
        }
        s + "  p[threadIdx.x] = 1;\n}\n"
    };
    c.write("small.cu", mangled(500));
    c.write("large.cu", mangled(120_000));
    let r = c.migrate();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let report: serde_json::Value = serde_json::from_slice(&fs::read(c.out().join("syclify-report.json")).unwrap()).unwrap();
    for (name, n) in [("small.cu", 500), ("large.cu", 120_000)] {
        let file = report["files"].as_array().unwrap().iter().find(|f| f["path"] == name).unwrap();
        let errors: Vec<&serde_json::Value> = file["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "SY0001").collect();
        // the first 100, each at its line, then one that counts the rest
        assert_eq!(errors.len(), 101, "{name}");
        assert_eq!(errors[0]["line"], 2, "{name}");
        let last = errors.iter().find(|d| d["message"].as_str().unwrap().contains("more regions")).unwrap();
        assert_eq!(last["line"], 102, "{name}");
        assert!(last["message"].as_str().unwrap().starts_with(&format!("{} more regions of this file did not parse", n - 100)), "{name}: {last}");
        // the rest of the file still migrated
        assert!(String::from_utf8(c.output(&name.replace(".cu", ".dp.cpp"))).unwrap().contains("p[item.get_local_id(2)] = 1;"), "{name}");
    }
    c.good_migrated();
}

#[test]
fn unreadable_files_directories_named_like_sources_and_fifos() {
    let c = Case::new();
    let locked = c.write("locked.cu", GOOD.replace("good", "locked"));
    fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    // a directory named like a source is walked, never read as a file
    c.write("dir.cu/inner.cu", GOOD.replace("good", "inner"));
    let fifo = c.input().join("pipe.cu");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0, "mkfifo");
    let r = c.migrate();
    // root reads a file whatever its mode: then it is migrated
    let locked_readable = fs::read(&locked).is_ok();
    fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("pipe.cu:1:1: error:") && r.stderr.contains("pipe.cu is a FIFO, not a file; not read [SY0002]"), "{}", r.stderr);
    if locked_readable {
        assert!(running_as_root());
        assert!(c.out().join("locked.dp.cpp").is_file());
    } else {
        assert!(r.stderr.contains("locked.cu:1:1: error: cannot read") && r.stderr.contains("Permission denied"), "{}", r.stderr);
    }
    assert!(c.out().join("dir.cu/inner.dp.cpp").is_file());
    c.good_migrated();
}

#[test]
fn an_unreadable_directory_is_reported_and_the_walk_goes_on() {
    let c = Case::new();
    c.write("private/secret.cu", GOOD.replace("good", "secret"));
    let private = c.input().join("private");
    fs::set_permissions(&private, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    let readable = fs::read_dir(&private).is_ok();
    let r = c.migrate();
    fs::set_permissions(&private, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    if readable {
        // root reads any directory
        assert!(running_as_root());
        assert_eq!(r.code, Some(0), "{}", r.stderr);
    } else {
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        assert!(r.stderr.contains("private:1:1: error: cannot read") && r.stderr.contains("Permission denied"), "{}", r.stderr);
    }
    c.good_migrated();
}

#[test]
fn include_cycles_and_symlink_loops() {
    let c = Case::new();
    c.write("a.cuh", "#pragma once\n#include \"b.cuh\"\n__device__ int fa() { return 1; }\n");
    c.write("b.cuh", "#pragma once\n#include \"a.cuh\"\n__device__ int fb() { return 2; }\n");
    c.write("main.cu", "#include \"a.cuh\"\n__global__ void k(int *o) { o[0] = fa() + fb(); }\n");
    symlink("self.cu", c.input().join("self.cu")).unwrap();
    symlink("..", c.input().join("up")).unwrap();
    let r = c.migrate();
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("self.cu:1:1: error: cannot read") && r.stderr.contains("symbolic links"), "{}", r.stderr);
    assert!(String::from_utf8(c.output("a.dp.hpp")).unwrap().contains("#include \"b.dp.hpp\""));
    assert!(String::from_utf8(c.output("b.dp.hpp")).unwrap().contains("#include \"a.dp.hpp\""));
    assert!(c.out().join("main.dp.cpp").is_file());
    // the directory link is not walked (no `up/in/...` copies)
    assert!(!c.out().join("up").exists());
    c.good_migrated();
}

#[test]
fn links_and_includes_pointing_outside_the_in_root_are_never_written() {
    let c = Case::new();
    let outside = c.root().join("outside");
    fs::create_dir_all(&outside).unwrap();
    fs::write(outside.join("shared.cuh"), "__device__ float twice(float x) { return 2 * x; }\n").unwrap();
    fs::write(outside.join("linked.cu"), GOOD.replace("good", "linked")).unwrap();
    symlink(outside.join("linked.cu"), c.input().join("linked.cu")).unwrap();
    symlink(&outside, c.input().join("outside_dir")).unwrap();
    c.write("sub/user.cu", "#include \"../../outside/shared.cuh\"\n__global__ void u(float *a) { a[0] = twice(a[0]); }\n");
    let r = c.migrate();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // the linked file is read and its output written in the out-root, not through the link
    let linked = c.out().join("linked.dp.cpp");
    assert!(fs::symlink_metadata(&linked).unwrap().file_type().is_file());
    // the shared header is told of, not migrated: the include keeps its name
    let user = String::from_utf8(c.output("sub/user.dp.cpp")).unwrap();
    assert!(user.contains("#include \"../../outside/shared.cuh\""), "{user}");
    assert!(r.stderr.contains("shared.cuh") || fs::read_to_string(c.out().join("syclify-report.md")).unwrap().contains("shared.cuh"));
    assert!(!c.out().join("outside_dir").exists());
    c.good_migrated();
}

#[test]
fn out_roots_that_cannot_be_used() {
    let c = Case::new();
    // equal to the in-root, containing it: refused before anything is written
    let r = c.migrate_into(&c.input(), &[]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("is the in-root"), "{}", r.stderr);
    let r = c.migrate_into(c.root(), &[]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("is inside the out-root"), "{}", r.stderr);
    // a file, or under a file: one message, nothing written
    let file = c.root().join("a-file");
    fs::write(&file, "x").unwrap();
    for out in [file.clone(), file.join("out")] {
        let r = c.migrate_into(&out, &[]);
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(&format!("cannot write into the out-root {}", out.display())) && r.stderr.contains("nothing was written"), "{}", r.stderr);
    }
    assert_eq!(fs::read(&file).unwrap(), b"x");
}

#[test]
fn a_link_in_the_out_root_to_a_directory_elsewhere_is_not_followed() {
    let c = Case::new();
    c.write("sub/deeper/k.cu", GOOD.replace("good", "k"));
    let elsewhere = c.root().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::create_dir_all(c.out()).unwrap();
    symlink(&elsewhere, c.out().join("sub")).unwrap();
    let r = c.migrate();
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("cannot write") && r.stderr.contains("sub/deeper/k.dp.cpp") && r.stderr.contains("leads outside the out-root"), "{}", r.stderr);
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0, "something was made through the link");
    c.good_migrated();
}

#[test]
fn an_out_root_inside_the_in_root_is_not_read_back() {
    let c = Case::new();
    let out = c.input().join("migrated");
    let r = c.migrate_into(&out, &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = c.migrate_into(&out, &[]);
    assert!(r.stderr.contains("1 migrated, 0 copied unchanged, 0 failed"), "{}", r.stderr);
}

#[test]
fn stale_files_in_the_out_root_are_left_alone() {
    let c = Case::new();
    fs::create_dir_all(c.out()).unwrap();
    fs::write(c.out().join("old.dp.cpp"), "// from another tool\n").unwrap();
    fs::write(c.out().join("notes.txt"), "mine\n").unwrap();
    let r = c.migrate();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(c.output("old.dp.cpp"), b"// from another tool\n");
    assert_eq!(c.output("notes.txt"), b"mine\n");
    c.good_migrated();
}

#[test]
fn a_malformed_rule_file_is_a_usage_error_naming_its_line() {
    let c = Case::new();
    let rules = c.root().join("rules.yaml");
    fs::write(&rules, "functions:\n  - cuda: cudaFoo\n    sycl: [unclosed\n").unwrap();
    let r = c.migrate_into(&c.out(), &["--rule-file", rules.to_str().unwrap()]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("rules.yaml: error: line 3"), "{}", r.stderr);
    assert!(!c.out().exists(), "a usage error wrote the out-root");
}
