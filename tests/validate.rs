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

/// A program that, like a GPU program run under the kernel timer, writes
/// kernel records to $SYCLIFY_KERNEL_TIMES at exit (only when the driver
/// would have loaded the timer: CUDA_INJECTION64_PATH is set).
fn timed_program(records: &[&str]) -> String {
    let body: String = records.iter().map(|r| format!("  fputs(\"{}\\n\", f);\n", r.replace('\t', "\\t"))).collect();
    format!(
        "#include <cstdio>\n#include <cstdlib>\nint main() {{\n  printf(\"PASS\\n\");\n  const char *lib = getenv(\"CUDA_INJECTION64_PATH\"), *p = getenv(\"SYCLIFY_KERNEL_TIMES\");\n  if (!lib || !p) return 0;\n  FILE *f = fopen(p, \"w\");\n{body}  fclose(f);\n  return 0;\n}}\n"
    )
}

#[test]
fn time_pairs_kernels_and_flags_the_slower_ones() {
    let cuda = timed_program(&[
        "1000\t3000\t64,1,1\t256,1,1\tvoid scale<float>(float*, int)",
        "4000\t5000\t8,8,1\t16,16,1\ttile(float const*, float*)",
        "6000\t8000\t64,1,1\t256,1,1\tvoid scale<float>(float*, int)",
    ]);
    let sycl = timed_program(&[
        "100\t200\t1,1,1\t1,1,1\tvoid __acpp_kernel<syclify::event_record(syclify::event_state*, sycl::queue*)::{lambda()#1}>()",
        "1000\t3100\t64,1,1\t256,1,1\tmain::{lambda(sycl::handler&)#1}",
        "4000\t6000\t8,8,1\t16,16,1\tmain::{lambda(sycl::handler&)#2}",
        "6000\t8100\t64,1,1\t256,1,1\tmain::{lambda(sycl::handler&)#1}",
        "9000\t9500\t2,1,1\t32,1,1\tsome_library_kernel",
    ]);
    let t = setup(&cuda, &sycl);
    let timer = t.path().join("fake-timer.so");
    fs::write(&timer, "").unwrap();
    let o = validate(t.path(), &["--time", "--kernel-timer", timer.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("summed over 3 paired launches"), "{out}");
    // tile: 1 µs on CUDA, 2 µs on SYCL: flagged; scale: 4.0 against 4.2 µs
    assert!(out.contains("tile  ") && out.contains("2.000  SLOWER"), "{out}");
    assert!(out.contains("scale<float>") && out.contains("1.050\n"), "{out}");
    assert!(out.contains("unpaired SYCL launches: 1 (0.5 µs; some_library_kernel)"), "{out}");
    assert!(out.contains("syclify runtime markers (event timestamps): 1 launches, 0.1 µs"), "{out}");
    assert!(out.contains("1 kernel(s) slower than 1.15x CUDA: tile"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(t.path().join("work/validate.json")).unwrap()).unwrap();
    assert_eq!(json["timing"]["status"], "done");
    assert_eq!(json["timing"]["detail"]["kernels"][0]["short_name"], "scale<float>");
    assert_eq!(json["timing"]["detail"]["kernels"][0]["launches"], 2);

    // the gate: the flagged kernel fails the verdict; a higher threshold passes
    let o = validate(t.path(), &["--time", "--kernel-timer", timer.to_str().unwrap(), "--fail-slower"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("verdict: FAILED"));
    let o = validate(t.path(), &["--time", "--kernel-timer", timer.to_str().unwrap(), "--fail-slower", "--slower-than", "2.5"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn time_without_a_timer_says_why_and_gates_as_not_validated() {
    let t = setup(PRINTS, PRINTS);
    // no kernel times file: the programs do not write one
    let timer = t.path().join("fake-timer.so");
    fs::write(&timer, "").unwrap();
    let o = validate(t.path(), &["--time", "--kernel-timer", timer.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("kernel times not taken: the CUDA program wrote no kernel times"), "{out}");
    // no nvcc to build the timer with
    let o = validate(t.path(), &["--time", "--nvcc", "/nonexistent/nvcc", "--fail-slower"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{out}");
    assert!(out.contains("kernel times not taken: no nvcc to build the kernel timer with"), "{out}");
    assert!(out.contains("verdict: NOT VALIDATED"), "{out}");
    // the options that need --time
    let o = validate(t.path(), &["--fail-slower"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The kernel timer that `--time` builds on the GPU machine compiles against
/// the CUDA 13 toolkit's CUPTI headers (from NVIDIA's PyPI wheels, fetched by
/// scripts/fetch-cuda-headers.sh; SYCLIFY_CUDA_INCLUDE overrides), with
/// warnings as errors. Loading it needs a GPU; `validate --time` on the lent
/// H100 is in docs/guide/validating.md.
#[test]
fn the_kernel_timer_compiles_against_cupti() {
    let inc = std::env::var_os("SYCLIFY_CUDA_INCLUDE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/cuda-headers/include"));
    assert!(
        inc.join("cupti_activity.h").is_file(),
        "CUPTI's headers are not at {} — run scripts/fetch-cuda-headers.sh (scripts/test.sh does) or set SYCLIFY_CUDA_INCLUDE",
        inc.display()
    );
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("kernel_timer.cpp");
    fs::write(&src, syclify::validate::timing::KERNEL_TIMER_SOURCE).unwrap();
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let o = Command::new(cxx)
        .args(["-std=c++14", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-fPIC"])
        .arg(format!("-I{}", inc.display()))
        .arg(&src)
        .output()
        .expect("the C++ compiler runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
