//! `syclify validate` end to end, on a machine without nvcc, a SYCL compiler or
//! a GPU: both sides are built by the host compiler through --cuda-build /
//! --sycl-build templates, so the process, timeout and comparison machinery
//! run for real on ordinary C++ programs.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn syclify(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_syclify")).args(args).output().expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A CUDA "project" whose main.cu is plain C++, and a hand-made migrated tree.
fn setup(original: &str, migrated: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    fs::create_dir_all(t.path().join("cuda")).unwrap();
    fs::create_dir_all(t.path().join("sycl")).unwrap();
    fs::write(t.path().join("cuda/main.cu"), original).unwrap();
    fs::write(t.path().join("sycl/main.dp.cpp"), migrated).unwrap();
    t
}

const PRINTS: &str = "#include <cstdio>\nint main(int argc, char **argv) { printf(\"args %d\\nsum = 1000.0\\nPASS\\n\", argc); return 0; }\n";

fn validate(t: &Path, extra: &[&str]) -> Output {
    let (cuda, sycl, work) = (t.join("cuda"), t.join("sycl"), t.join("work"));
    let mut args = vec![
        "validate",
        cuda.to_str().unwrap(),
        "--migrated",
        sycl.to_str().unwrap(),
        "--cuda-build",
        "g++ -x c++ {sources} -o {exe}",
        "--sycl-build",
        "g++ {sources} -o {exe}",
        "--work-dir",
        work.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    syclify(&args)
}

#[test]
fn matching_programs_pass() {
    let t = setup(PRINTS, PRINTS);
    let o = validate(t.path(), &["--run", "one two"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("comparison  exit codes and output match"), "{out}");
    assert!(out.contains("verdict: PASSED"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(t.path().join("work/validate.json")).unwrap()).unwrap();
    assert_eq!(json["verdict"], "passed");
    assert!(json["cuda"]["run"]["detail"]["stdout"].as_str().unwrap().contains("args 3"));
}

#[test]
fn different_output_fails_and_shows_the_lines() {
    let t = setup(PRINTS, &PRINTS.replace("1000.0", "1002.0"));
    let o = validate(t.path(), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("1 output line(s) differ"), "{out}");
    assert!(out.contains("line 2: expected \"sum = 1000.0\", got \"sum = 1002.0\""), "{out}");
    assert!(out.contains("verdict: FAILED"));
}

#[test]
fn numeric_tolerance_and_ignored_lines() {
    let t = setup(
        "#include <cstdio>\nint main() { printf(\"time 13 ms\\nsum = 1000.0\\n\"); }\n",
        "#include <cstdio>\nint main() { printf(\"time 97 ms\\nsum = 1000.4\\n\"); }\n",
    );
    let o = validate(t.path(), &["--ignore-lines", "^time ", "--rtol", "1e-3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = validate(t.path(), &["--ignore-lines", "^time "]);
    assert_eq!(o.status.code(), Some(1), "without a tolerance the sums differ: {}", stdout(&o));
}

#[test]
fn a_crash_fails() {
    let t = setup(PRINTS, "#include <cstdlib>\nint main() { abort(); }\n");
    let o = validate(t.path(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("SYCL run    crashed (signal 6)"), "{out}");
    assert!(out.contains("a run crashed"), "{out}");
}

#[test]
fn a_timeout_fails_and_the_program_is_killed() {
    let t = setup(PRINTS, "#include <unistd.h>\nint main() { sleep(30); return 0; }\n");
    let start = std::time::Instant::now();
    let o = validate(t.path(), &["--timeout", "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("SYCL run    timed out after 1 s"), "{}", stdout(&o));
    assert!(start.elapsed().as_secs() < 25, "the timed-out program was not killed");
}

#[test]
fn a_failing_build_fails_with_its_messages() {
    let t = setup(PRINTS, "int main( { }\n");
    let o = validate(t.path(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("SYCL build  exit 1"), "{out}");
    assert!(out.contains("SYCL run    skipped: the build failed"), "{out}");
    assert!(out.contains("SYCL build said:"), "{out}");
}

#[test]
fn missing_compilers_mean_not_validated_never_passed() {
    let t = setup(PRINTS, PRINTS);
    let (cuda, work) = (t.path().join("cuda"), t.path().join("work"));
    let o =
        syclify(&["validate", cuda.to_str().unwrap(), "--nvcc", "/nonexistent/nvcc", "--sycl-cxx", "/nonexistent/icpx", "--work-dir", work.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("verdict: NOT VALIDATED"), "{out}");
    assert!(out.contains("not checked: the CUDA side was not built: no nvcc found"), "{out}");
    assert!(out.contains("not checked: the SYCL side was not built: no SYCL compiler found (looked for icpx, acpp, syclcc, clang++"), "{out}");
}

#[test]
fn without_migrated_the_project_is_migrated_first() {
    let t = setup(PRINTS, PRINTS);
    let (cuda, work) = (t.path().join("cuda"), t.path().join("work"));
    let o = syclify(&["validate", cuda.to_str().unwrap(), "--build", "g++ -x c++ {sources} -o {exe}", "--work-dir", work.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(work.join("migrated/main.dp.cpp").is_file());
    assert!(!cuda.join("main.dp.cpp").exists(), "the project must not be written to");
}
