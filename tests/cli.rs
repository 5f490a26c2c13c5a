//! The command line, end to end: exit codes, bad input, what is (never) written.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn syclify(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_syclify")).args(args).output().expect("binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const KERNEL: &str = "#include <cuda_runtime.h>\n__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }\nint main() { float *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); cudaDeviceSynchronize(); cudaFree(d); return 0; }\n";

fn tree_snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v = Vec::new();
    for e in common::files_under(dir) {
        v.push((e.strip_prefix(dir).unwrap().display().to_string(), fs::read(&e).unwrap_or_default()));
    }
    v.sort();
    v
}

#[test]
fn migrates_a_tree_and_mirrors_it() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    fs::create_dir_all(src.join("sub")).unwrap();
    fs::write(src.join("main.cu"), "#include \"sub/k.cuh\"\nint main() { float *d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); return 0; }\n").unwrap();
    fs::write(src.join("sub/k.cuh"), "#pragma once\n#include \"plain.h\"\n__global__ void k(float *a) { a[0] = PLAIN; }\n").unwrap();
    fs::write(src.join("sub/plain.h"), "#define PLAIN 1.0f\n").unwrap();
    fs::write(src.join("other.cpp"), "int untouched() { return 1; }\n").unwrap();
    fs::write(src.join("notes.txt"), "not a source\n").unwrap();
    let out = t.path().join("out");
    let o = syclify(&["migrate", src.to_str().unwrap(), "--out-root", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let main = fs::read_to_string(out.join("main.dp.cpp")).unwrap();
    assert!(main.contains("#include \"sub/k.dp.hpp\""), "{main}");
    assert!(main.contains("#include <sycl/sycl.hpp>"));
    assert!(fs::read_to_string(out.join("sub/k.dp.hpp")).unwrap().contains("void k(float *a, const sycl::nd_item<3> &item)"));
    // included by a migrated file: migrated, keeps its name (nothing to change here)
    assert_eq!(fs::read_to_string(out.join("sub/plain.h")).unwrap(), "#define PLAIN 1.0f\n");
    // no CUDA: copied unchanged
    assert_eq!(fs::read_to_string(out.join("other.cpp")).unwrap(), "int untouched() { return 1; }\n");
    // neither a source nor a build file: copied as it is (the program's data, scripts)
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "not a source\n");
    assert!(out.join("include/syclify/syclify.hpp").is_file());
    let report: serde_json::Value = serde_json::from_str(&fs::read_to_string(out.join("syclify-report.json")).unwrap()).unwrap();
    assert_eq!(report["totals"]["files_migrated"], 3);
    assert_eq!(report["totals"]["files_copied"], 1);
    assert_eq!(report["totals"]["other_files_copied"], 1);
    // the real roots, every path in the report relative to them
    assert_eq!(report["in_root"].as_str(), Some(src.canonicalize().unwrap().to_str().unwrap()));
    assert_eq!(report["out_root"].as_str(), Some(out.canonicalize().unwrap().to_str().unwrap()));
    assert!(report["totals"]["rules"]["kernel-launch"].as_u64() == Some(1));
    assert!(fs::read_to_string(out.join("syclify-report.md")).unwrap().contains("| `main.cu` | `main.dp.cpp` | migrated |"));
    assert!(stderr(&o).contains("3 migrated, 1 copied unchanged (and 1 other file: data, scripts), 0 failed"), "{}", stderr(&o));
}

/// An out-root migrated again (a user who migrates in steps): syclify's own
/// helper headers in it are copied, not migrated as CUDA, and the migrated
/// code is left as it is.
#[test]
fn an_out_root_migrated_again_keeps_the_helper_headers() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    fs::create_dir_all(&src).unwrap();
    fs::write(
        src.join("main.cu"),
        "#include <cub/cub.cuh>\n__global__ void k(float *a) { a[threadIdx.x] = 0; }\nint main() { float *d; cudaMalloc(&d, 4); k<<<1, 32>>>(d); return 0; }\n",
    )
    .unwrap();
    let (first, second) = (t.path().join("first"), t.path().join("second"));
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", first.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(first.join("include/syclify/cub.hpp").is_file());
    let o = syclify(&["migrate", first.to_str().unwrap(), "-o", second.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&fs::read_to_string(second.join("syclify-report.json")).unwrap()).unwrap();
    assert_eq!(report["totals"]["errors"], 0, "{report}");
    assert_eq!(report["totals"]["files_migrated"], 0, "{report}");
    for h in ["include/syclify/syclify.hpp", "include/syclify/cub.hpp"] {
        assert_eq!(fs::read(first.join(h)).unwrap(), fs::read(second.join(h)).unwrap(), "{h}");
        assert!(fs::read_to_string(second.join("syclify-report.md")).unwrap().contains(&format!("| `{h}` | `{h}` | copied |")), "{h}");
    }
}

#[test]
fn bad_files_are_reported_and_the_rest_is_written() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    fs::create_dir_all(&src).unwrap();
    fs::write(src.join("good.cu"), KERNEL).unwrap();
    fs::write(src.join("latin1.cu"), b"// caf\xe9 \xa9 M\xfcller\n__global__ void k() {}\n").unwrap();
    fs::write(src.join("binary.cu"), b"\x7fELF\x00\x01\x02").unwrap();
    std::os::unix::fs::symlink(src.join("missing-target.cu"), src.join("dangling.cu")).unwrap();
    let before = tree_snapshot(&src);
    let out = t.path().join("out");
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("2 migrated, 0 copied unchanged, 2 failed"), "{err}");
    assert!(err.contains("binary.cu:1:1: error: binary file"), "{err}");
    assert!(err.contains("dangling.cu:1:1: error: cannot read"), "{err}");
    assert!(out.join("good.dp.cpp").is_file());
    // Latin-1 is migrated and its bytes outside the rewrite are kept exactly
    let latin1 = fs::read(out.join("latin1.dp.cpp")).unwrap();
    assert!(latin1.starts_with(b"// caf\xe9 \xa9 M\xfcller\n#include <syclify/syclify.hpp>"), "{}", String::from_utf8_lossy(&latin1));
    assert!(String::from_utf8_lossy(&latin1).contains("void k(const sycl::nd_item<3> &item) {}"));
    let report = fs::read_to_string(out.join("syclify-report.json")).unwrap();
    assert!(report.contains("SY0004") && report.contains("3 bytes outside UTF-8 kept"), "{report}");
    assert_eq!(before, tree_snapshot(&src), "the input tree was modified");
}

#[test]
fn a_panic_on_one_file_fails_that_file_and_the_rest_is_migrated() {
    // SYCLIFY_INJECT_PANIC makes one step panic on one file, as a bug in a
    // rule would (src/guard.rs)
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    fs::create_dir_all(&src).unwrap();
    fs::write(src.join("a.cu"), KERNEL).unwrap();
    fs::write(src.join("b.cu"), KERNEL).unwrap();
    let before = tree_snapshot(&src);
    // (a tree budget of 0: the trees are not kept between the steps, each
    // file parsed again to be rewritten; the default keeps them)
    for (step, budget) in ["parse", "index", "rewrite"].into_iter().flat_map(|s| [(s, "0"), (s, "")]) {
        let out = t.path().join(format!("out-{step}-{budget}"));
        let o = Command::new(env!("CARGO_BIN_EXE_syclify"))
            .args(["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .env("SYCLIFY_INJECT_PANIC", format!("{step}:b.cu"))
            .env("SYCLIFY_TREE_BUDGET", budget)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("1 migrated, 0 copied unchanged, 1 failed"), "{err}");
        assert!(err.contains(&format!("b.cu:1:1: error: syclify failed on this file ({step}: injected panic")), "{err}");
        assert!(err.contains("please report this") && err.contains("[SY0006]"), "{err}");
        // Rust's own panic message is not printed besides the report's
        assert!(!err.contains("panicked at"), "{err}");
        assert!(out.join("a.dp.cpp").is_file());
        assert!(!out.join("b.dp.cpp").exists());
        let report = fs::read_to_string(out.join("syclify-report.json")).unwrap();
        assert!(report.contains("SY0006"), "{report}");
    }
    assert_eq!(before, tree_snapshot(&src), "the input tree was modified");
}

#[test]
fn out_root_equal_to_in_root_is_refused() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("a.cu"), KERNEL).unwrap();
    let before = tree_snapshot(t.path());
    let o = syclify(&["migrate", t.path().to_str().unwrap(), "-o", t.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is the in-root"), "{}", stderr(&o));
    assert_eq!(before, tree_snapshot(t.path()));
}

#[test]
fn in_root_inside_out_root_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    fs::create_dir_all(&src).unwrap();
    fs::write(src.join("a.cu"), KERNEL).unwrap();
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", t.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is inside the out-root"), "{}", stderr(&o));
    assert!(!t.path().join("a.dp.cpp").exists());
}

#[test]
fn out_root_inside_in_root_is_excluded_from_the_walk() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("a.cu"), KERNEL).unwrap();
    let out = t.path().join("migrated");
    for _ in 0..2 {
        let o = syclify(&["migrate", t.path().to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        // the second run must not pick up migrated/a.dp.cpp or the report as input
        assert!(stderr(&o).contains("1 migrated, 0 copied unchanged, 0 failed"), "{}", stderr(&o));
    }
    assert!(!out.join("migrated").exists());
    assert_eq!(fs::read_to_string(t.path().join("a.cu")).unwrap(), KERNEL);
}

#[test]
fn usage_errors_exit_2() {
    let t = tempfile::tempdir().unwrap();
    let o = syclify(&["migrate", t.path().join("nope").to_str().unwrap(), "-o", t.path().join("o").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no such file or directory"));
    let o = syclify(&["migrate", t.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "missing --out-root");
    assert!(!t.path().join("o").exists());
}

#[test]
fn output_is_identical_whatever_the_thread_count() {
    let programs = common::root().join("fixtures/programs");
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    for (dir, jobs) in [(&a, "1"), (&b, "4")] {
        let o = syclify(&["migrate", programs.to_str().unwrap(), "-o", dir.to_str().unwrap(), "-j", jobs]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    // (the JSON report names its out-root, and the manifest the report's
    // hash: the one difference allowed)
    let roots_named = |dir: &std::path::Path| {
        let name = dir.canonicalize().unwrap().display().to_string();
        let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
        tree_snapshot(dir)
            .into_iter()
            .map(|(f, bytes)| match f.as_str() {
                "syclify-report.json" => (f, text(bytes).replace(&name, "<out-root>").into_bytes()),
                ".syclify-manifest.json" => {
                    (f, text(bytes).lines().filter(|l| !l.contains("\"syclify-report.json\"")).collect::<Vec<_>>().join("\n").into_bytes())
                }
                _ => (f, bytes),
            })
            .collect::<Vec<_>>()
    };
    let (sa, sb) = (roots_named(&a), roots_named(&b));
    assert!(sa.len() > 10);
    assert_eq!(sa, sb);
}

#[test]
fn gcc_diagnostics_and_comments_for_humans() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("a.cu"), "int main() {\n  cudaGraph_t g;\n  cudaIpcGetEventHandle(&n, g, 0, 0);\n}\n").unwrap();
    let out = t.path().join("out");
    let o = syclify(&["migrate", t.path().join("a.cu").to_str().unwrap(), "-o", out.to_str().unwrap(), "--diagnostics", "gcc"]);
    assert_eq!(o.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("a.cu:3:3: warning: `cudaIpcGetEventHandle` is not migrated: IPC handles share device memory and events between processes, and SYCL 2020 has no inter-process handles; the call was left as is [SY0401]"), "{stdout}");
    let migrated = fs::read_to_string(out.join("a.dp.cpp")).unwrap();
    assert!(
        migrated
            .contains("  // syclify: warning SY0401: `cudaIpcGetEventHandle` is not migrated: IPC handles share device memory and events between processes, and SYCL 2020 has no inter-process handles; the call was left as is\n  cudaIpcGetEventHandle(&n, g, 0, 0);"),
        "{migrated}"
    );
}

#[test]
fn github_annotations() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("a.cu"), "int main() {\n  cudaGraph_t g;\n  cudaIpcGetEventHandle(&n, g, 0, 0);\n}\n").unwrap();
    let out = t.path().join("out");
    let o = syclify(&["migrate", t.path().join("a.cu").to_str().unwrap(), "-o", out.to_str().unwrap(), "--diagnostics", "github"]);
    assert_eq!(o.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.lines().any(|l| l
            == "::warning file=a.cu,line=3,col=3,endLine=3,endColumn=37,title=SY0401 unsupported-api::`cudaIpcGetEventHandle` is not migrated: IPC handles share device memory and events between processes, and SYCL 2020 has no inter-process handles; the call was left as is [SY0401]"),
        "{stdout}"
    );
    assert!(stdout.lines().all(|l| l.starts_with("::notice ") || l.starts_with("::warning ") || l.starts_with("::error ")), "{stdout}");
}

#[test]
fn query_known_and_unknown_names() {
    let o = syclify(&["query", "__syncthreads"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("src/rules/syncthreads.rs") && out.contains("sycl::group_barrier(item.get_group())"), "{out}");
    let o = syclify(&["query", "cudaMemcpy"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("as a statement:") && out.contains(".memcpy(a0, a1, a2).wait()"), "{out}");
    let o = syclify(&["query", "__syncthread"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("closest known: __syncthreads"), "{err}");
}

#[test]
fn explain_prints_codes() {
    let o = syclify(&["explain", "SY0202"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("local-memory-unresolved"));
    let o = syclify(&["explain"]);
    let listed: Vec<String> = String::from_utf8_lossy(&o.stdout).lines().map(|l| l.split_whitespace().next().unwrap_or("").to_string()).collect();
    assert!(listed.len() >= 15);
    // in the order of their numbers
    assert!(listed.windows(2).all(|w| w[0] < w[1]), "{listed:?}");
    assert_eq!(syclify(&["explain", "SY9999"]).status.code(), Some(2));
}

#[test]
fn malformed_rule_file_points_at_the_line() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("a.cu"), KERNEL).unwrap();
    let rules = t.path().join("bad.yaml");
    fs::write(&rules, "functions:\n  - cuda: cudaFoo\n    statment: \"x\"\n").unwrap();
    let o = syclify(&["migrate", t.path().join("a.cu").to_str().unwrap(), "-o", t.path().join("o").to_str().unwrap(), "--rule-file", rules.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("bad.yaml") && err.contains("line 3"), "{err}");
}

#[test]
fn rule_file_adds_a_mapping() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("a.cu"), "int main() { cudaProfilerStart(); }\n").unwrap();
    let rules = t.path().join("mine.yaml");
    fs::write(&rules, "functions:\n  - cuda: cudaProfilerStart\n    statement: \"(void)0\"\n").unwrap();
    let out = t.path().join("o");
    let o = syclify(&["migrate", t.path().join("a.cu").to_str().unwrap(), "-o", out.to_str().unwrap(), "--rule-file", rules.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(out.join("a.dp.cpp")).unwrap().contains("int main() { (void)0; }"));
}

/// A rule file's mapping of a call that a structural rule migrates
/// (`cudaLaunchKernel`, by the kernel-launch rule) wins over it.
#[test]
fn rule_file_overrides_a_structural_rule() {
    let t = tempfile::tempdir().unwrap();
    let src = "__global__ void k(int *p) { p[threadIdx.x] = 1; }\nvoid f(void **args) { cudaLaunchKernel((void *)k, 1, 32, args, 0, 0); }\n";
    fs::write(t.path().join("a.cu"), src).unwrap();
    let out = t.path().join("o");
    let o = syclify(&["migrate", t.path().join("a.cu").to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(out.join("a.dp.cpp")).unwrap().contains("syclify::unpack_args<1>(&k, args)"));
    let rules = t.path().join("mine.yaml");
    fs::write(&rules, "functions:\n  - cuda: cudaLaunchKernel\n    statement: \"my_launch({0}, {3})\"\n").unwrap();
    let out = t.path().join("o2");
    let o = syclify(&["migrate", t.path().join("a.cu").to_str().unwrap(), "-o", out.to_str().unwrap(), "--rule-file", rules.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = fs::read_to_string(out.join("a.dp.cpp")).unwrap();
    assert!(text.contains("my_launch((void *)k, args);") && !text.contains("unpack_args"), "{text}");
}

/// A header shared by several programs, reached through `-I ../common` or
/// `#include "../common/x.cuh"`: with the program alone it is reported
/// (SY0107, never written); given with `-I` and an in-root holding both, it
/// is migrated and the include follows its new name.
#[test]
fn shared_headers_outside_the_program() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("src");
    fs::create_dir_all(root.join("app")).unwrap();
    fs::create_dir_all(root.join("common")).unwrap();
    fs::write(root.join("common/vec.cuh"), "__device__ inline float twice(float x) { return 2.0f * x; }\n").unwrap();
    fs::write(root.join("common/pixel.h"), "typedef uchar4 pixel;\n").unwrap();
    fs::write(
        root.join("app/main.cu"),
        "#include \"vec.cuh\"\n#include \"pixel.h\"\n#include \"../common/vec.cuh\"\n__global__ void k(float *a, pixel *p) { a[0] = twice(a[0]); }\n",
    )
    .unwrap();
    fs::write(root.join("app/Makefile"), "main: main.cu\n\tnvcc -I../common -o main main.cu\n").unwrap();
    let before = tree_snapshot(&root);

    // the program alone: the relative include and those its Makefile's
    // `-I../common` finds are reported, nothing outside is written
    let out1 = tmp.path().join("out1");
    let o = syclify(&["migrate", root.join("app").to_str().unwrap(), "-o", out1.to_str().unwrap(), "--diagnostics", "gcc"]);
    let text = String::from_utf8_lossy(&o.stdout);
    let reported: Vec<&str> = text.lines().filter(|l| l.contains("[SY0107]")).collect();
    assert_eq!(reported.len(), 3, "{text}");
    assert!(reported[0].contains("main.cu:1:") && reported[0].contains("`vec.cuh` (`../common/vec.cuh`)"), "{text}");
    assert!(reported[1].contains("main.cu:2:") && reported[1].contains("`pixel.h` (`../common/pixel.h`)"), "{text}");
    assert!(reported[2].contains("main.cu:3:") && reported[2].contains("`../common/vec.cuh` is outside"), "{text}");
    assert!(!out1.join("common").exists() && !tmp.path().join("common").exists());
    // the same through `-I` on the command line (a directory outside the in-root)
    let out3 = tmp.path().join("out3");
    fs::remove_file(root.join("app/Makefile")).unwrap();
    let o = syclify(&[
        "migrate",
        root.join("app").to_str().unwrap(),
        "-I",
        root.join("common").to_str().unwrap(),
        "-o",
        out3.to_str().unwrap(),
        "--diagnostics",
        "gcc",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.lines().filter(|l| l.contains("[SY0107]")).count(), 3, "{text}");
    assert!(text.contains("common/pixel.h`) is outside"), "{text}");
    fs::write(root.join("app/Makefile"), "main: main.cu\n\tnvcc -I../common -o main main.cu\n").unwrap();

    // with the shared directory and -I: migrated, includes renamed
    let out2 = tmp.path().join("out2");
    let o = syclify(&[
        "migrate",
        root.join("app").to_str().unwrap(),
        root.join("common").to_str().unwrap(),
        "-I",
        root.join("common").to_str().unwrap(),
        "--in-root",
        root.to_str().unwrap(),
        "-o",
        out2.to_str().unwrap(),
        "--diagnostics",
        "gcc",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let main = fs::read_to_string(out2.join("app/main.dp.cpp")).unwrap();
    assert!(main.contains("#include \"vec.dp.hpp\"") && main.contains("#include \"../common/vec.dp.hpp\""), "{main}");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("SY0107"));
    // a header that only uses CUDA's vector types is migrated too
    let pixel = fs::read_to_string(out2.join("common/pixel.h")).unwrap();
    assert!(pixel.contains("syclify::uchar4"), "{pixel}");
    assert!(out2.join("common/vec.dp.hpp").is_file());
    assert_eq!(tree_snapshot(&root), before, "inputs unchanged");
}

/// The out-root is a complete project: the files a build or a run needs
/// besides sources and build files (input data, a script, configuration)
/// are copied byte for byte, a script keeps its executable bit; products of
/// the CUDA build (objects, an executable) are not; `--no-copy-others`
/// copies none. A second run copies nothing again.
#[test]
fn other_files_are_copied_into_the_out_root() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("app");
    fs::create_dir_all(src.join("data")).unwrap();
    fs::write(src.join("main.cu"), KERNEL).unwrap();
    let data: Vec<u8> = (0..=255u8).cycle().take(200_000).collect();
    fs::write(src.join("data/input.bin"), &data).unwrap();
    fs::write(src.join("run.sh"), "#!/bin/sh\n./prog data/input.bin\n").unwrap();
    fs::write(src.join("config.json"), "{\"n\": 4}\n").unwrap();
    fs::write(src.join("main.o"), "object").unwrap();
    // a `.c` file a source includes is a source: migrated, not copied as data
    fs::write(src.join("table.c"), "static float4 table[2];\n").unwrap();
    fs::write(src.join("use_table.cu"), "#include \"table.c\"\n__global__ void t(float *p) { p[0] = table[0].x; }\n").unwrap();
    let mut elf = b"\x7fELF".to_vec();
    elf.extend_from_slice(&[0; 60]);
    fs::write(src.join("prog"), &elf).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        for f in ["run.sh", "prog"] {
            fs::set_permissions(src.join(f), fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    let before = tree_snapshot(&src);
    let out = t.path().join("out");
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("(and 3 other files: data, scripts)"), "{}", stderr(&o));
    assert_eq!(fs::read(out.join("data/input.bin")).unwrap(), data);
    assert_eq!(fs::read_to_string(out.join("config.json")).unwrap(), "{\"n\": 4}\n");
    {
        use std::os::unix::fs::PermissionsExt;
        assert!(fs::metadata(out.join("run.sh")).unwrap().permissions().mode() & 0o111 != 0, "the script stays executable");
        // a migrated output is readable by all, as a compiler's output is
        assert_eq!(fs::metadata(out.join("main.dp.cpp")).unwrap().permissions().mode() & 0o777, 0o644);
    }
    assert!(!out.join("main.o").exists() && !out.join("prog").exists(), "products of the CUDA build are not copied");
    let table = fs::read_to_string(out.join("table.c")).unwrap();
    assert!(table.contains("syclify::float4"), "{table}");
    // again: nothing to copy
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(stderr(&o).contains("nothing changed"), "{}", stderr(&o));
    // turned off
    let bare = t.path().join("bare");
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", bare.to_str().unwrap(), "--no-copy-others"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(bare.join("main.dp.cpp").is_file() && !bare.join("run.sh").exists() && !bare.join("data").exists());
    assert_eq!(tree_snapshot(&src), before, "inputs unchanged");
}

/// A shared helper header included with angle brackets (`#include
/// <helper_k.cuh>`) is found as the compiler finds it, in the `-I`
/// directories only: outside the in-root it is reported with the path to
/// add and the in-root to use; inside, it is migrated and the include
/// follows its new name, brackets kept. System headers are not the project's.
#[test]
fn angle_includes_found_through_include_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("src");
    fs::create_dir_all(root.join("app")).unwrap();
    fs::create_dir_all(root.join("common")).unwrap();
    fs::write(root.join("common/helper_k.cuh"), "__device__ inline float twice(float x) { return 2.0f * x; }\n").unwrap();
    // (a file named like a system header beside the program is no `<vector>`)
    fs::write(root.join("app/vector"), "__global__ void not_this_one() {}\n").unwrap();
    fs::write(root.join("app/main.cu"), "#include <helper_k.cuh>\n#include <vector>\n__global__ void k(float *a) { a[0] = twice(a[0]); }\n").unwrap();
    let before = tree_snapshot(&root);

    let out1 = tmp.path().join("out1");
    let common = root.join("common");
    let o =
        syclify(&["migrate", root.join("app/main.cu").to_str().unwrap(), "-I", common.to_str().unwrap(), "-o", out1.to_str().unwrap(), "--diagnostics", "gcc"]);
    let text = String::from_utf8_lossy(&o.stdout);
    let reported: Vec<&str> = text.lines().filter(|l| l.contains("[SY0107]")).collect();
    assert_eq!(reported.len(), 1, "{text}");
    let canon_common = common.canonicalize().unwrap();
    let canon_root = root.canonicalize().unwrap();
    assert!(reported[0].contains("main.cu:1:") && reported[0].contains("`helper_k.cuh`"), "{text}");
    assert!(reported[0].contains(&format!("add `{}` to the paths and `--in-root {}`", canon_common.display(), canon_root.display())), "{text}");
    let main = fs::read_to_string(out1.join("main.dp.cpp")).unwrap();
    assert!(main.contains("#include <helper_k.cuh>") && main.contains("#include <vector>"), "{main}");

    let out2 = tmp.path().join("out2");
    let o = syclify(&[
        "migrate",
        root.join("app/main.cu").to_str().unwrap(),
        "-I",
        common.to_str().unwrap(),
        "--in-root",
        root.to_str().unwrap(),
        "-o",
        out2.to_str().unwrap(),
        "--diagnostics",
        "gcc",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stderr(&o), String::from_utf8_lossy(&o.stdout));
    let main = fs::read_to_string(out2.join("app/main.dp.cpp")).unwrap();
    assert!(main.contains("#include <helper_k.dp.hpp>") && main.contains("#include <vector>"), "{main}");
    let helper = fs::read_to_string(out2.join("common/helper_k.dp.hpp")).unwrap();
    assert!(!helper.contains("__device__"), "{helper}");
    assert!(!out2.join("app/vector").exists(), "a file named like a system header is not included");
    assert_eq!(tree_snapshot(&root), before, "inputs unchanged");
}

/// The official SARIF 2.1.0 schema, as shipped in the serde-sarif crate's
/// package (a dev-dependency for a platform that never matches: cargo
/// resolves and downloads it from crates.io like every crate, and never
/// builds it).
fn sarif_schema() -> serde_json::Value {
    // every platform's packages (the crate's is none), downloaded where a
    // build has not fetched them yet
    let meta = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(meta.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&meta.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&meta.stdout).expect("cargo metadata prints JSON");
    let pkg = meta["packages"].as_array().unwrap().iter().find(|p| p["name"] == "serde-sarif").expect("serde-sarif is a dev-dependency");
    let dir = std::path::Path::new(pkg["manifest_path"].as_str().unwrap()).parent().unwrap().to_path_buf();
    let schema: serde_json::Value = serde_json::from_str(&fs::read_to_string(dir.join("src/schema.json")).unwrap()).unwrap();
    assert_eq!(schema["$id"], "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json");
    // The published schema's patterns for `language` have a stray `]`
    // (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`), which is not a valid
    // regular expression once formats are checked: put in the one meant.
    fn fix(v: &mut serde_json::Value, fixed: &mut usize) {
        match v {
            serde_json::Value::String(s) if s == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" => {
                *s = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".to_string();
                *fixed += 1;
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| fix(x, fixed)),
            serde_json::Value::Object(o) => o.values_mut().for_each(|x| fix(x, fixed)),
            _ => {}
        }
    }
    let mut schema = schema;
    let mut fixed = 0;
    fix(&mut schema, &mut fixed);
    assert!(fixed >= 1);
    schema
}

/// The errors of `instance` against the JSON schema `schema` (the draft it
/// names, formats checked, URIs among them), from Python's jsonschema
/// package with its format checkers (`jsonschema[format-nongpl]`:
/// scripts/test.sh installs it where missing and names its directory in
/// `SYCLIFY_JSONSCHEMA_PATH`).
fn schema_errors(schema: &serde_json::Value, instance: &serde_json::Value) -> Vec<String> {
    const CHECK: &str = r#"
import json, sys
from jsonschema import validators
schema, doc = (json.load(open(p)) for p in sys.argv[1:3])
cls = validators.validator_for(schema)
checker = cls.FORMAT_CHECKER
missing = [f for f in ("uri", "uri-reference") if f not in checker.checkers]
if missing:
    sys.exit("jsonschema cannot check the formats " + ", ".join(missing) + ": install jsonschema[format-nongpl]")
cls.check_schema(schema)
for e in cls(schema, format_checker=checker).iter_errors(doc):
    print(e.message.replace("\n", " ") + " at /" + "/".join(map(str, e.absolute_path)))
"#;
    let t = tempfile::tempdir().unwrap();
    let (schema_file, doc_file) = (t.path().join("schema.json"), t.path().join("doc.json"));
    fs::write(&schema_file, serde_json::to_vec(schema).unwrap()).unwrap();
    fs::write(&doc_file, serde_json::to_vec(instance).unwrap()).unwrap();
    let mut python_path = std::env::var_os("SYCLIFY_JSONSCHEMA_PATH").map(std::path::PathBuf::from).into_iter().collect::<Vec<_>>();
    python_path.extend(std::env::var_os("PYTHONPATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>()).unwrap_or_default());
    let o = Command::new("python3")
        .args(["-c", CHECK])
        .arg(&schema_file)
        .arg(&doc_file)
        .env("PYTHONPATH", std::env::join_paths(python_path).unwrap())
        .output()
        .expect("python3 runs (the SARIF schema check uses Python's jsonschema)");
    assert!(
        o.status.success(),
        "the schema check did not run: {} (scripts/test.sh installs jsonschema[format-nongpl] and sets SYCLIFY_JSONSCHEMA_PATH)",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).lines().map(str::to_string).collect()
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("dir with space");
    fs::create_dir_all(&src).unwrap();
    // a warning, an error and notes, one file name that needs percent-encoding
    // (and a warning with a fix: `blockDim` as a whole value)
    fs::write(src.join("a b.cu"), "__global__ void __launch_bounds__(64) k(float *p) { p[threadIdx.x] = 1; dim3 b = blockDim; }\nint main() {\n  cudaGraph_t g;\n  cudaIpcGetEventHandle(&n, g, 0, 0);\n  k<<<1, 64>>>(0);\n}\n").unwrap();
    fs::write(src.join("Makefile"), "all:\n\tnvcc -lineinfo -o a 'a b.cu'\n").unwrap();
    let out = t.path().join("out");
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap(), "--diagnostics", "sarif"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let log: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is one JSON document");
    let schema = sarif_schema();
    let errors = schema_errors(&schema, &log);
    assert!(errors.is_empty(), "not valid SARIF 2.1.0:\n{}", errors.join("\n"));
    // (the check can fail: no version, and a URI with a space)
    let mut bad = log.clone();
    bad.as_object_mut().unwrap().remove("version");
    bad["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"] = "file:///dir with space/".into();
    let errors = schema_errors(&schema, &bad);
    assert!(errors.iter().any(|e| e.contains("'version' is a required property")), "{errors:?}");
    assert!(errors.iter().any(|e| e.contains("is not a 'uri-reference'")), "{errors:?}");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "syclify");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert!(results.len() >= 3, "{results:?}");
    for r in results {
        // each result names its rule, which carries the explanation as help
        let rule = &rules[r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], r["ruleId"]);
        assert!(!rule["help"]["text"].as_str().unwrap().is_empty());
        assert!(r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64().unwrap() >= 1);
    }
    let unsupported = results.iter().find(|r| r["ruleId"] == "SY0401").expect("the unsupported call is reported");
    let loc = &unsupported["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "a%20b.cu");
    assert_eq!(loc["region"]["startLine"], 4);
    assert!(run["originalUriBaseIds"]["SRCROOT"]["uri"].as_str().unwrap().ends_with("/dir%20with%20space/"));
    assert!(results.iter().any(|r| r["level"] == "note" && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "Makefile"));
    // a fix: its replacement in the original file
    let fixed = results.iter().find(|r| r["ruleId"] == "SY0301").expect("the whole builtin is reported");
    let change = &fixed["fixes"][0]["artifactChanges"][0];
    assert_eq!(change["artifactLocation"]["uri"], "a%20b.cu");
    assert_eq!(change["replacements"][0]["insertedContent"]["text"], "dim3(blockDim.x, blockDim.y, blockDim.z)");
    assert_eq!(change["replacements"][0]["deletedRegion"]["startLine"], 1);
}

/// The progress bar is drawn on a terminal only (here after 0 ms instead of
/// a second); a pipe, as in CI, gets the summary and nothing else.
#[test]
fn progress_bar_only_on_a_terminal() {
    let root = env!("CARGO_MANIFEST_DIR");
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out");
    let piped = Command::new(env!("CARGO_BIN_EXE_syclify"))
        .args(["migrate", &format!("{root}/fixtures/programs"), "-o", out.to_str().unwrap()])
        .env("SYCLIFY_PROGRESS_AFTER_MS", "0")
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    let err = stderr(&piped);
    assert!(!err.contains("migrating [") && !err.contains('\r'), "{err}");
    // `script` (util-linux) runs the command on a pseudo-terminal
    let command = format!("{} migrate {root}/fixtures/programs -o {}", env!("CARGO_BIN_EXE_syclify"), t.path().join("out2").display());
    let tty = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("SYCLIFY_PROGRESS_AFTER_MS", "0")
        .output()
        .expect("`script` (util-linux) is installed");
    assert_eq!(tty.status.code(), Some(0));
    let shown = String::from_utf8_lossy(&tty.stdout);
    assert!(shown.contains("migrating [") && shown.contains(" steps"), "{shown}");
}

#[test]
fn check_counts_constructs_writes_nothing_and_gates() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("app");
    fs::create_dir_all(&src).unwrap();
    fs::write(src.join("ok.cu"), KERNEL).unwrap();
    let before = tree_snapshot(t.path());
    let o = syclify(&["check", src.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stderr(&o);
    assert!(table.contains("migrate automatically (100.0 %)") && table.contains("nothing unsupported"), "{table}");
    assert!(table.lines().any(|l| l.starts_with("threadIdx") && l.split_whitespace().collect::<Vec<_>>() == ["threadIdx", "1", "1", "0", "0"]), "{table}");
    // an API left for review (SY0401, a warning) and a multi-device grid sync (SY0701, an error)
    fs::write(
        src.join("grid.cu"),
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int *p) { cg::this_multi_grid().sync(); p[threadIdx.x] = 0; }\nvoid run(int *p) { cudaIpcGetEventHandle(0, 0, 0, 0); k<<<1, 1>>>(p); }\n",
    )
    .unwrap();
    let o = syclify(&["check", src.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = &v["check"];
    assert!(c["errors"].as_u64().unwrap() >= 1, "{c}");
    assert_eq!(c["by_name"]["cudaIpcGetEventHandle"]["review"], 1, "{c}");
    assert!(c["totals"]["automatic"].as_u64().unwrap() >= 5);
    assert!(c["estimated_hours"].as_f64().unwrap() > 0.0);
    assert!(v["diagnostics"].as_array().unwrap().iter().any(|d| d["code"] == "SY0701"), "{v}");
    // nothing was written anywhere: the tree holds what it held (and the new input)
    let after = tree_snapshot(t.path());
    assert_eq!(after.len(), before.len() + 1, "check wrote files");
}

/// A second migration into the same out-root writes only what changed.
#[test]
fn incremental_migration_writes_only_what_changed() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("app");
    fs::create_dir_all(&src).unwrap();
    fs::write(src.join("a.cu"), KERNEL).unwrap();
    fs::write(src.join("b.cu"), "__global__ void b(int *p) { p[threadIdx.x] = 2; }\n").unwrap();
    let out = t.path().join("out");
    let run = || {
        let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0));
        stderr(&o)
    };
    let first = run();
    assert!(!first.contains("incremental:"), "{first}");
    assert!(out.join(".syclify-manifest.json").is_file());
    let mtimes = |names: &[&str]| -> Vec<std::time::SystemTime> { names.iter().map(|n| fs::metadata(out.join(n)).unwrap().modified().unwrap()).collect() };
    let all = ["a.dp.cpp", "b.dp.cpp", "include/syclify/syclify.hpp", "syclify-report.json", "syclify-report.md", ".syclify-manifest.json"];
    let before = mtimes(&all);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let second = run();
    assert!(second.contains("incremental: nothing changed since the last migration; no file written"), "{second}");
    assert_eq!(mtimes(&all), before, "an unchanged project rewrote files");
    // one input changes: its output is rewritten, the other is not
    fs::write(src.join("b.cu"), "__global__ void b(int *p) { p[threadIdx.x] = 3; }\n").unwrap();
    let third = run();
    assert!(third.contains("incremental:") && third.contains(" written"), "{third}");
    assert!(fs::read_to_string(out.join("b.dp.cpp")).unwrap().contains("= 3;"));
    assert_eq!(mtimes(&["a.dp.cpp"]), before[..1].to_vec());
    // an output edited by hand whose input did not change is kept
    let edited = fs::read_to_string(out.join("a.dp.cpp")).unwrap() + "// tuned by hand\n";
    fs::write(out.join("a.dp.cpp"), &edited).unwrap();
    let fourth = run();
    assert!(fourth.contains("kept: a.dp.cpp was edited by hand"), "{fourth}");
    assert_eq!(fs::read_to_string(out.join("a.dp.cpp")).unwrap(), edited);
    // an input that is gone: its output is reported stale, not deleted
    fs::remove_file(src.join("b.cu")).unwrap();
    let fifth = run();
    assert!(fifth.contains("stale: b.dp.cpp comes from an input that is gone; not deleted"), "{fifth}");
    assert!(out.join("b.dp.cpp").is_file());
}

/// `-p compile_commands.json`: exactly the listed units and the headers they
/// include (found through the database's -I), each parsed in the
/// configuration its -D selects; a malformed database is an error naming the
/// file and the line.
#[test]
fn compile_commands_choose_units_include_dirs_and_configurations() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("proj");
    for d in ["src", "include", "build"] {
        fs::create_dir_all(p.join(d)).unwrap();
    }
    fs::write(p.join("include/k.cuh"), "__device__ inline float twice(float x) { return 2 * x; }\n").unwrap();
    let split = "#include \"k.cuh\"\n__global__ void scale(float *v, int n) {\n#ifdef FAST\n  for (int i = threadIdx.x; i < n; i += blockDim.x) {\n#else\n  for (int i = 0; i < n; i++) {\n#endif\n    v[i] = twice(v[i]);\n  }\n}\n";
    fs::write(p.join("src/a.cu"), split).unwrap();
    fs::write(p.join("src/unlisted.cu"), KERNEL).unwrap();
    let db = p.join("build/compile_commands.json");
    fs::write(
        &db,
        format!(r#"[{{"directory": "{}", "file": "../src/a.cu", "command": "nvcc -I../include -DFAST -c ../src/a.cu -o a.o"}}]"#, p.join("build").display()),
    )
    .unwrap();
    let out = t.path().join("out");
    let o = syclify(&["migrate", "-p", db.to_str().unwrap(), "--in-root", p.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let a = fs::read_to_string(out.join("src/a.dp.cpp")).unwrap();
    assert!(a.contains("for (int i = item.get_local_id(2); i < n; i += item.get_local_range(2)) {"), "{a}");
    assert!(a.contains("#include \"k.dp.hpp\""), "{a}");
    assert!(out.join("include/k.dp.hpp").is_file(), "the header the unit includes through -I is migrated");
    assert!(!out.join("src/unlisted.dp.cpp").exists(), "a unit the database does not list is not migrated");
    // without -DFAST the other configuration is parsed (and the FAST one kept as written)
    fs::write(
        &db,
        format!(
            r#"[{{"directory": "{}", "file": "../src/a.cu", "arguments": ["nvcc", "-I../include", "-UFAST", "-c", "../src/a.cu"]}}]"#,
            p.join("build").display()
        ),
    )
    .unwrap();
    let out2 = t.path().join("out2");
    let o = syclify(&["migrate", "-p", db.to_str().unwrap(), "--in-root", p.to_str().unwrap(), "-o", out2.to_str().unwrap()]);
    let a = fs::read_to_string(out2.join("src/a.dp.cpp")).unwrap();
    assert!(a.contains("  for (int i = threadIdx.x; i < n; i += blockDim.x) {"), "{a}");
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("src/a.cu:4:1: warning: this conditional branch (1 line) was kept as written"), "{}", stderr(&o));
    // a malformed database: file and line, exit 2, nothing written
    fs::write(&db, "[\n  {\"directory\": \"/x\",\n   \"file\": 42}\n]\n").unwrap();
    let out3 = t.path().join("out3");
    let o = syclify(&["migrate", "-p", db.to_str().unwrap(), "-o", out3.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(&format!("{}:3:", db.display())), "{}", stderr(&o));
    assert!(!out3.exists());
    let o = syclify(&["migrate", "-p", t.path().join("missing.json").to_str().unwrap(), "-o", out3.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read the compilation database"), "{}", stderr(&o));
}

/// A build script that is not CMake is copied as is with a warning naming
/// the place; the sources are migrated all the same. An unknown command in
/// a readable script is kept, with a note.
#[test]
fn broken_and_unknown_cmake_input() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("app");
    fs::create_dir_all(src.join("sub")).unwrap();
    fs::write(src.join("main.cu"), KERNEL).unwrap();
    let broken = "project(app LANGUAGES CUDA\nadd_executable(app main.cu)\n";
    fs::write(src.join("CMakeLists.txt"), broken).unwrap();
    fs::write(src.join("sub/CMakeLists.txt"), "add_library(k k.cu)\nmy_company_wrapper(k FAST)\n").unwrap();
    let out = t.path().join("out");
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap(), "--diagnostics", "gcc"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let diags = String::from_utf8_lossy(&o.stdout);
    assert!(diags.contains("CMakeLists.txt:1:8: warning: not read as CMake (this `(` is never closed): copied as is, not migrated [SY0806]"), "{diags}");
    assert_eq!(fs::read_to_string(out.join("CMakeLists.txt")).unwrap(), broken);
    assert!(out.join("main.dp.cpp").is_file());
    assert!(diags.contains("sub/CMakeLists.txt:2:1: note: `my_company_wrapper` is not a CMake command syclify knows"), "{diags}");
    assert!(fs::read_to_string(out.join("sub/CMakeLists.txt")).unwrap().contains("my_company_wrapper(k FAST)\n"));
}

/// CUDA_SEPARABLE_COMPILATION stays (as syclify_link_device_code) only where
/// the sources launch or call device code of another unit; a `.cu` that is
/// `#include`d into the unit that uses it is no other unit.
#[test]
fn separable_compilation_follows_the_sources() {
    let run = |main: &str| -> String {
        let t = tempfile::tempdir().unwrap();
        let src = t.path().join("app");
        fs::create_dir_all(&src).unwrap();
        fs::write(
            src.join("CMakeLists.txt"),
            "project(p LANGUAGES CXX CUDA)\nadd_executable(p main.cu k.cu)\nset_target_properties(p PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n",
        )
        .unwrap();
        fs::write(src.join("k.cuh"), "__global__ void fill(int *v);\n").unwrap();
        fs::write(src.join("k.cu"), "#include \"k.cuh\"\n__global__ void fill(int *v) { v[threadIdx.x] = 1; }\n").unwrap();
        fs::write(src.join("main.cu"), main).unwrap();
        let out = t.path().join("out");
        let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        fs::read_to_string(out.join("CMakeLists.txt")).unwrap()
    };
    let across = run("#include \"k.cuh\"\nint main() { int *v = 0; fill<<<1, 32>>>(v); }\n");
    assert!(across.contains("syclify_link_device_code(p)"), "{across}");
    let one_unit = run("#include \"k.cu\"\nint main() { int *v = 0; fill<<<1, 32>>>(v); }\n");
    assert!(!one_unit.contains("syclify_link_device_code"), "{one_unit}");
    assert!(one_unit.contains("no kernel or device function of the migrated sources is called from another translation unit"), "{one_unit}");
}

/// Two runs on one out-root: the second is refused (exit 2, one message
/// naming the lock) before it writes anything; once the first ends, a run
/// goes through and leaves no lock file behind.
#[test]
fn a_second_run_on_an_out_root_in_use_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    fs::create_dir_all(&src).unwrap();
    fs::write(src.join("a.cu"), KERNEL).unwrap();
    let out = t.path().join("out");
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!out.join(syclify::emit::LOCK_REL).exists(), "the lock file is removed at the end of a run");
    // the input changes, so a run would write: held, nothing is written
    fs::write(src.join("a.cu"), KERNEL.replace("1.0f", "2.0f")).unwrap();
    let before = tree_snapshot(&out);
    let held = syclify::emit::lock_out_root(&out).unwrap();
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is in use") && stderr(&o).contains(".syclify.lock"), "{}", stderr(&o));
    let mut after = tree_snapshot(&out);
    after.retain(|(rel, _)| rel != syclify::emit::LOCK_REL);
    assert_eq!(before, after, "nothing written while the out-root is held");
    drop(held);
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(fs::read_to_string(out.join("a.dp.cpp")).unwrap().contains("2.0f"));
    assert!(!out.join(syclify::emit::LOCK_REL).exists());
}

/// A project of `n` files (a kernel each, a data file beside every tenth)
/// whose constants say `version`.
fn write_project(src: &Path, n: usize, version: u32) {
    for i in 0..n {
        let dir = src.join(format!("d{}", i % 7));
        fs::create_dir_all(&dir).unwrap();
        let text = KERNEL.replace("k(", &format!("k{i}(")).replace("k<<<", &format!("k{i}<<<")).replace("1.0f", &format!("{version}.{i}f"));
        fs::write(dir.join(format!("f{i}.cu")), text).unwrap();
        if i % 10 == 0 {
            fs::write(dir.join(format!("data{i}.txt")), format!("{version} {i}\n").repeat(200)).unwrap();
        }
    }
}

/// The files under `dir` by relative path, without the lock and the
/// manifest; the reports' mentions of their out-root read `OUT`.
fn outputs_of(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    outputs_written_as(dir, dir)
}

/// [`outputs_of`] a copy, at `dir`, of the out-root `root`.
fn outputs_written_as(dir: &Path, root: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let root = root.display().to_string();
    tree_snapshot(dir)
        .into_iter()
        // (the store holds outputs of groups under keys: compared through the outputs)
        .filter(|(rel, _)| rel != syclify::emit::LOCK_REL && rel != syclify::emit::MANIFEST_REL && !rel.starts_with(syclify::reuse::DIR_REL))
        .map(
            |(rel, bytes)| {
                if rel.starts_with("syclify-report.") { (rel, String::from_utf8(bytes).unwrap().replace(&root, "OUT").into_bytes()) } else { (rel, bytes) }
            },
        )
        .collect()
}

fn temp_files(dir: &Path) -> Vec<String> {
    tree_snapshot(dir).into_iter().map(|(rel, _)| rel).filter(|rel| rel.rsplit('/').next().unwrap().starts_with(syclify::emit::TEMP_PREFIX)).collect()
}

/// Every file under `out` (a copy of the out-root `root`) is whole: byte for
/// byte one of the two complete migrations' (`a`, `b`) version of it; the
/// manifest reads as one.
fn assert_each_file_is_whole(
    out: &Path,
    root: &Path,
    a: &std::collections::BTreeMap<String, Vec<u8>>,
    b: &std::collections::BTreeMap<String, Vec<u8>>,
    what: &str,
) {
    for (rel, bytes) in outputs_written_as(out, root) {
        if rel.rsplit('/').next().unwrap().starts_with(syclify::emit::TEMP_PREFIX) {
            continue;
        }
        assert!(a.get(&rel) == Some(&bytes) || b.get(&rel) == Some(&bytes), "{what}: {rel} is neither version (half-written?)");
    }
    if let Ok(text) = fs::read_to_string(out.join(syclify::emit::MANIFEST_REL)) {
        serde_json::from_str::<syclify::emit::Manifest>(&text).unwrap_or_else(|e| panic!("{what}: the manifest does not read: {e}"));
    }
}

// (the longest test of this file, 35 s alone, named to sort among the
// first: libtest starts the tests in the order of their names, and the
// others then run beside it instead of before it)
#[test]
fn a_run_killed_at_random_points_leaves_every_file_whole_and_the_next_run_completes_it() {
    let t = tempfile::tempdir().unwrap();
    let (src, out) = (t.path().join("src"), t.path().join("out"));
    let n = 1500;
    // the two complete migrations, as references
    let mut reference = Vec::new();
    for version in [1, 2] {
        write_project(&src, n, version);
        let dir = t.path().join(format!("ref{version}"));
        let started = std::time::Instant::now();
        // (--fresh, as the runs killed below: a run that also stores its
        // groups takes longer, and the kill points follow this run's time)
        let o = syclify(&["migrate", src.to_str().unwrap(), "-o", dir.to_str().unwrap(), "--fresh"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        reference.push((outputs_of(&dir), started.elapsed()));
    }
    let (a, b) = (&reference[0].0, &reference[1].0);
    assert!(a.len() > n && a.len() == b.len());
    let mut whole_run = reference[1].1;
    write_project(&src, n, 1);
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap(), "--fresh"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // the out-root's files that are `v`'s version, where the versions differ
    let of_version = |now: &std::collections::BTreeMap<String, Vec<u8>>, v: &std::collections::BTreeMap<String, Vec<u8>>| {
        now.iter().filter(|(rel, bytes)| v.get(*rel) == Some(*bytes) && a.get(*rel) != b.get(*rel)).count()
    };
    let mut now = outputs_of(&out);
    // kill points from a fixed seed, over the time of a whole run; each run
    // migrates the version the out-root holds less of, so it has files to write
    let mut seed: u64 = 0x5eed_1e55;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed >> 33
    };
    let (mut mixed, mut interrupted) = (0, 0);
    // each round's signal, delay and outcome, for the message of a failure
    let mut rounds = Vec::new();
    // 16 rounds, and more (up to 48) until kills landed both ways: a run's
    // time varies with the machine's load (other tests beside it)
    for round in 0..48 {
        if round >= 16 && mixed > 0 && interrupted > 0 {
            break;
        }
        let (in_a, in_b) = (of_version(&now, a), of_version(&now, b));
        let (version, target, written_before) = if in_a >= in_b { (2, b, in_b) } else { (1, a, in_a) };
        write_project(&src, n, version);
        let signal = [libc::SIGKILL, libc::SIGINT, libc::SIGTERM][(next() % 3) as usize];
        // (after 16 rounds without a kill during the writes, the later part
        // of a run, where its writes are: 60-100 % of its time)
        let spread = if round >= 16 && mixed == 0 { (600 + next() % 400) as f64 / 1000.0 } else { (next() % 1000) as f64 / 1000.0 * 1.1 };
        let delay = whole_run.mul_f64(spread);
        let started = std::time::Instant::now();
        // (--fresh: every run migrates every file, so its writes come when
        // the run's time says; a run that took the project from the store
        // would write at once)
        // (its stderr into a file: a pipe nobody reads while the test waits
        // would stop a run that says much, e.g. a line per kept file)
        let err_path = t.path().join("stderr.txt");
        let mut child = Command::new(env!("CARGO_BIN_EXE_syclify"))
            .args(["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap(), "--fresh"])
            .stdout(std::process::Stdio::null())
            .stderr(fs::File::create(&err_path).unwrap())
            .spawn()
            .unwrap();
        // the signal at `delay`, unless the run ends first: then the next
        // delays follow its own time (which follows the machine's load), not
        // the delay it beat (that would let the delays grow without end
        // once runs finish before their signals)
        let mut finished_in = None;
        while finished_in.is_none() && started.elapsed() < delay {
            if child.try_wait().unwrap().is_some() {
                finished_in = Some(started.elapsed());
            } else {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        if finished_in.is_none() {
            // SAFETY: a signal to our own child, which has not been reaped
            // (try_wait saw it running)
            unsafe { libc::kill(child.id() as i32, signal) };
        }
        let status = child.wait().unwrap();
        let o = std::process::Output { status, stdout: Vec::new(), stderr: fs::read(&err_path).unwrap() };
        let what = format!("round {round}: signal {signal} after {delay:?}");
        match o.status.code() {
            // finished before the signal came (the next delays from this
            // run's time, which follows the machine's load), or stopped by
            // it between files
            Some(0) => {
                if let Some(t) = finished_in {
                    whole_run = t;
                }
            }
            Some(130) | Some(143) => {
                interrupted += 1;
                assert!(stderr(&o).contains("interrupted:") && stderr(&o).contains("run again to finish"), "{what}: {}", stderr(&o));
            }
            // killed (SIGINT/SIGTERM before the run handles them: before it writes)
            None => {}
            other => panic!("{what}: exit {other:?}: {}", stderr(&o)),
        }
        assert_each_file_is_whole(&out, &out, a, b, &what);
        // nobody edits by hand here: a file a killed run wrote is syclify's
        // own to the next run, whichever input it has
        assert!(!stderr(&o).contains("kept:"), "{what}: a file of a run before taken for a hand edit: {}", stderr(&o));
        if o.status.code().is_some() {
            // a run that ended by itself (a handled signal, or none): no
            // temporary file left, its own or a killed run's, the lock released
            assert!(temp_files(&out).is_empty(), "{what}: {:?}", temp_files(&out));
            assert!(!out.join(syclify::emit::LOCK_REL).exists(), "{what}");
        }
        now = outputs_of(&out);
        if finished_in.is_none() && of_version(&now, target) == written_before {
            // the signal came before the run wrote anything: its writes (the
            // last 40 % or so of a run) start later than the delay, so the
            // run takes longer than `whole_run` says (the machine's load
            // grew): later delays spread over the longer time
            whole_run = whole_run.max(delay.mul_f64(1.0 / 0.6));
        }
        if of_version(&now, a) > 0 && of_version(&now, b) > 0 {
            mixed += 1;
        }
        rounds.push(format!(
            "{what}: {} (mixed so far {mixed})",
            match finished_in {
                Some(t) => format!("finished first, in {t:?}"),
                None => format!("exit {:?}", o.status.code()),
            }
        ));
    }
    // the kills did land while files were written (over 16 points, most do)
    assert!(mixed > 0 && interrupted > 0, "no kill stopped a run half-way: mixed {mixed}, interrupted {interrupted}\n{}", rounds.join("\n"));
    // the next run completes the job, cleans up, and says so when it had to
    write_project(&src, n, 2);
    let unfinished =
        out.join(syclify::emit::LOCK_REL).exists() || fs::read_to_string(out.join(syclify::emit::MANIFEST_REL)).is_ok_and(|m| m.contains("\"unfinished\""));
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o).contains("did not finish; this run completed it"), unfinished, "{}", stderr(&o));
    assert!(temp_files(&out).is_empty() && !out.join(syclify::emit::LOCK_REL).exists());
    assert!(outputs_of(&out) == *b, "the out-root is not the complete migration");
    assert!(!fs::read_to_string(out.join(syclify::emit::MANIFEST_REL)).unwrap().contains("unfinished"));
    // and a run after it has nothing to do
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(stderr(&o).contains("nothing changed since the last migration") && !stderr(&o).contains("did not finish"), "{}", stderr(&o));
}

/// A run killed while it wrote names in the manifest the outputs it was
/// about to write, before the first of them: a next run with the *older*
/// input (the sources checked out again) takes the files that landed for
/// syclify's own and writes them back, where a hand edit is kept as ever.
/// (The killed run is laid out here as it leaves the out-root, so that the
/// case is met every time; the kill test above meets it by chance.)
#[test]
fn after_a_killed_run_the_older_input_takes_back_its_files_and_keeps_hand_edits() {
    let t = tempfile::tempdir().unwrap();
    let (src, out, newer) = (t.path().join("src"), t.path().join("out"), t.path().join("newer"));
    write_project(&src, 40, 2);
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", newer.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    write_project(&src, 40, 1);
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let older = outputs_of(&out);
    // the killed run of the newer input: its manifest names what it was to
    // write; every other of those files landed, one that did not was then
    // edited by hand, and it had added an output the older input lacks
    let manifest_path = out.join(syclify::emit::MANIFEST_REL);
    let mut manifest: syclify::emit::Manifest = serde_json::from_str(&fs::read_to_string(&manifest_path).unwrap()).unwrap();
    let newer = outputs_of(&newer);
    let changed: Vec<(&String, &Vec<u8>)> =
        newer.iter().filter(|(rel, bytes)| !rel.starts_with("syclify-report.") && older.get(*rel) != Some(*bytes)).collect();
    assert!(changed.len() >= 40, "{}", changed.len());
    let mut landed = Vec::new();
    for (i, (rel, bytes)) in changed.iter().enumerate() {
        manifest.pending.insert(rel.to_string(), syclify::emit::hash(bytes));
        if i % 2 == 0 {
            fs::write(out.join(rel), bytes).unwrap();
            landed.push(rel.to_string());
        }
    }
    let edited = changed[1].0.to_string();
    let edit = [older[&edited].clone(), b"// tuned by hand\n".to_vec()].concat();
    fs::write(out.join(&edited), &edit).unwrap();
    fs::write(out.join("d0/added.dp.cpp"), "// the newer input's\n").unwrap();
    manifest.pending.insert("d0/added.dp.cpp".to_string(), syclify::emit::hash(b"// the newer input's\n"));
    manifest.unfinished = true;
    fs::write(&manifest_path, serde_json::to_string(&manifest).unwrap()).unwrap();
    fs::write(out.join(syclify::emit::LOCK_REL), "").unwrap();
    // the run with the older input
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let kept: Vec<&str> = err.lines().filter(|l| l.contains("kept:")).collect();
    assert_eq!(kept, [format!("  kept: {edited} was edited by hand since the last migration, and its input has not changed").as_str()], "{}", stderr(&o));
    assert!(stderr(&o).contains("stale: d0/added.dp.cpp comes from an input that is gone"), "{}", stderr(&o));
    assert!(stderr(&o).contains("did not finish; this run completed it"), "{}", stderr(&o));
    let now = outputs_of(&out);
    for rel in &landed {
        assert_eq!(now.get(rel), older.get(rel), "{rel}: the killed run's file was not written back");
    }
    assert_eq!(now[&edited], edit);
    let mut expected = older.clone();
    expected.insert(edited.clone(), edit);
    expected.insert("d0/added.dp.cpp".to_string(), b"// the newer input's\n".to_vec());
    assert!(now == expected, "the out-root is not the older input's migration with the edit and the stale file");
    let text = fs::read_to_string(&manifest_path).unwrap();
    assert!(!text.contains("pending") && !text.contains("unfinished"), "{text}");
}

/// Runs `script` (sh) in a mount namespace of its own, where it may mount a
/// tmpfs or a read-only bind mount: as root, or as a user mapped to root
/// where user namespaces are allowed. None where neither is possible.
/// `SYCLIFY_TEST_NO_MOUNT_NAMESPACE` set: None (to try the fallbacks).
fn in_mount_namespace(script: &str, env: &[(&str, &Path)]) -> Option<Output> {
    if std::env::var_os("SYCLIFY_TEST_NO_MOUNT_NAMESPACE").is_some() {
        return None;
    }
    let mut args = vec!["--mount", "--propagation", "private"];
    // SAFETY: geteuid has no preconditions
    if unsafe { libc::geteuid() } != 0 {
        args.extend(["--user", "--map-root-user"]);
    }
    let probe = Command::new("unshare")
        .args(&args)
        .args(["sh", "-c", "mount -t tmpfs -o size=4k tmpfs /mnt 2>/dev/null || mount -t tmpfs -o size=4k tmpfs \"$TMPDIR\""])
        .env("TMPDIR", std::env::temp_dir())
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        return None;
    }
    let mut c = Command::new("unshare");
    c.args(&args).args(["sh", "-c", script]).env("SYCLIFY", env!("CARGO_BIN_EXE_syclify"));
    for (k, v) in env {
        c.env(k, v);
    }
    Some(c.output().unwrap())
}

fn read_log(log: &Path, name: &str) -> String {
    fs::read_to_string(log.join(name)).unwrap_or_default()
}

#[test]
fn a_full_disk_stops_the_run_with_one_error_and_loses_nothing() {
    let t = tempfile::tempdir().unwrap();
    let (src, log, refs, disk) = (t.path().join("src"), t.path().join("log"), t.path().join("refs"), t.path().join("disk"));
    // the out-root lies on the small disk where one can be mounted
    let out = disk.join("out");
    fs::create_dir_all(&log).unwrap();
    fs::create_dir_all(&disk).unwrap();
    // version 2 adds a data file bigger than the space left
    for version in [1u32, 2] {
        write_project(&src, 40, version);
        if version == 2 {
            fs::write(src.join("big.dat"), vec![b'x'; 600 << 10]).unwrap();
        }
        let o = syclify(&["migrate", src.to_str().unwrap(), "-o", refs.join(version.to_string()).to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let (a, b) = (outputs_of(&refs.join("1")), outputs_of(&refs.join("2")));
    fs::remove_file(src.join("big.dat")).unwrap();
    write_project(&src, 40, 1);
    // a 4 MiB tmpfs holds the out-root; after the first run a file fills
    // it but for 300 KiB, then it is removed (room made, as a user would)
    let script = r#"
        mount -t tmpfs -o size=4m tmpfs "$DISK" || exit 99
        mkdir "$OUT"
        "$SYCLIFY" migrate "$SRC" -o "$OUT" >/dev/null 2>"$LOG/1.err"; echo $? >"$LOG/1.rc"
        sed -i 's/1\./2./' $(find "$SRC" -name '*.cu'); for f in $(find "$SRC" -name 'data*.txt'); do sed -i 's/^1 /2 /' "$f"; done
        head -c 614400 /dev/zero | tr '\0' x >"$SRC/big.dat"
        avail=$(df -k --output=avail "$DISK" | tail -1)
        head -c $(( (avail - 300) * 1024 )) /dev/zero >"$DISK/filler"
        "$SYCLIFY" migrate "$SRC" -o "$OUT" >/dev/null 2>"$LOG/2.err"; echo $? >"$LOG/2.rc"
        cp -a "$OUT" "$LOG/after-full"
        rm "$DISK/filler"
        "$SYCLIFY" migrate "$SRC" -o "$OUT" >/dev/null 2>"$LOG/3.err"; echo $? >"$LOG/3.rc"
        cp -a "$OUT" "$LOG/after-room"
    "#;
    let how = match in_mount_namespace(script, &[("SRC", &src), ("OUT", &out), ("LOG", &log), ("DISK", &disk)]) {
        Some(o) if o.status.code() != Some(99) => "a full tmpfs",
        _ => {
            // no mount namespace here: a file-size limit is the injected
            // write failure (EFBIG where the disk would say ENOSPC)
            let limited = r#"o="$OUT"; mkdir -p "$o"; "$SYCLIFY" migrate "$SRC" -o "$o" >/dev/null 2>"$LOG/1.err"; echo $? >"$LOG/1.rc"
                sed -i 's/1\./2./' $(find "$SRC" -name '*.cu'); for f in $(find "$SRC" -name 'data*.txt'); do sed -i 's/^1 /2 /' "$f"; done
                head -c 614400 /dev/zero | tr '\0' x >"$SRC/big.dat"
                (ulimit -f 512; "$SYCLIFY" migrate "$SRC" -o "$o" >/dev/null 2>"$LOG/2.err"; echo $? >"$LOG/2.rc")
                cp -a "$o" "$LOG/after-full"
                "$SYCLIFY" migrate "$SRC" -o "$o" >/dev/null 2>"$LOG/3.err"; echo $? >"$LOG/3.rc"
                cp -a "$o" "$LOG/after-room""#;
            let o = Command::new("sh")
                .args(["-c", limited])
                .env("SYCLIFY", env!("CARGO_BIN_EXE_syclify"))
                .env("SRC", &src)
                .env("OUT", &out)
                .env("LOG", &log)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            "a file-size limit"
        }
    };
    assert_eq!(read_log(&log, "1.rc").trim(), "0", "{how}: {}", read_log(&log, "1.err"));
    // one error, naming the file, exit 2
    let err = read_log(&log, "2.err");
    assert_eq!(read_log(&log, "2.rc").trim(), "2", "{how}: {err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{how}: {err}");
    assert!(
        errors[0].contains("cannot write")
            && errors[0].contains("the run stopped")
            && (errors[0].contains("No space left on device") || errors[0].contains("File too large")),
        "{how}: {err}"
    );
    let named = errors[0].split("cannot write ").nth(1).unwrap().split(':').next().unwrap();
    assert!(named.starts_with(out.to_str().unwrap()) && named.len() > out.to_str().unwrap().len() + 1, "{how}: names no file: {err}");
    // nothing lost: every file whole (the last run's or this one's), no temporary file
    assert_each_file_is_whole(&log.join("after-full"), &out, &a, &b, how);
    assert!(temp_files(&log.join("after-full")).is_empty(), "{how}");
    // with room again, the next run completes it and says so
    assert_eq!(read_log(&log, "3.rc").trim(), "0", "{how}: {}", read_log(&log, "3.err"));
    assert!(read_log(&log, "3.err").contains("did not finish; this run completed it"), "{how}: {}", read_log(&log, "3.err"));
    assert!(outputs_written_as(&log.join("after-room"), &out) == b, "{how}: the out-root is not the complete migration");
}

#[test]
fn a_read_only_out_root_or_directory_in_it_is_one_error_and_loses_nothing() {
    let t = tempfile::tempdir().unwrap();
    let (src, out, log) = (t.path().join("src"), t.path().join("out"), t.path().join("log"));
    fs::create_dir_all(&log).unwrap();
    write_project(&src, 20, 1);
    let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let before = tree_snapshot(&out);
    write_project(&src, 20, 2);
    // the whole out-root read-only, then one directory in it
    let script = r#"
        mount --bind "$OUT" "$OUT" && mount -o remount,bind,ro "$OUT" || exit 99
        "$SYCLIFY" migrate "$SRC" -o "$OUT" >/dev/null 2>"$LOG/1.err"; echo $? >"$LOG/1.rc"
        umount "$OUT"
        mount --bind "$OUT/d3" "$OUT/d3" && mount -o remount,bind,ro "$OUT/d3" || exit 99
        "$SYCLIFY" migrate "$SRC" -o "$OUT" >/dev/null 2>"$LOG/2.err"; echo $? >"$LOG/2.rc"
    "#;
    let how = match in_mount_namespace(script, &[("SRC", &src), ("OUT", &out), ("LOG", &log)]) {
        Some(o) if o.status.code() != Some(99) => "read-only mounts",
        // SAFETY: geteuid has no preconditions
        _ if unsafe { libc::geteuid() } != 0 => {
            // no mount namespace: permissions do it for a user (not for root)
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path, m: u32| fs::set_permissions(p, fs::Permissions::from_mode(m)).unwrap();
            mode(&out, 0o555);
            let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            fs::write(log.join("1.err"), &o.stderr).unwrap();
            fs::write(log.join("1.rc"), format!("{}\n", o.status.code().unwrap_or(-1))).unwrap();
            mode(&out, 0o755);
            mode(&out.join("d3"), 0o555);
            let o = syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
            fs::write(log.join("2.err"), &o.stderr).unwrap();
            fs::write(log.join("2.rc"), format!("{}\n", o.status.code().unwrap_or(-1))).unwrap();
            mode(&out.join("d3"), 0o755);
            "read-only permissions"
        }
        _ => panic!("root without a mount namespace: cannot make a read-only directory"),
    };
    let err = read_log(&log, "1.err");
    assert_eq!(read_log(&log, "1.rc").trim(), "2", "{how}: {err}");
    assert_eq!(err.lines().count(), 1, "{how}: {err}");
    assert!(err.contains(&format!("cannot write into the out-root {}", out.display())) && err.contains("nothing was written"), "{how}: {err}");
    let err = read_log(&log, "2.err");
    assert_eq!(read_log(&log, "2.rc").trim(), "2", "{how}: {err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{how}: {err}");
    assert!(
        errors[0].contains(&format!("cannot write {}/d3/", out.display()))
            && (errors[0].contains("Read-only file system") || errors[0].contains("Permission denied")),
        "{how}: {err}"
    );
    // nothing in the read-only directory changed, and every file elsewhere is whole
    let after = tree_snapshot(&out);
    let old: std::collections::BTreeMap<_, _> = before.into_iter().collect();
    for (rel, bytes) in &after {
        if rel.starts_with("d3/") {
            assert_eq!(old.get(rel), Some(bytes), "{how}: {rel} changed in the read-only directory");
        }
    }
    assert!(temp_files(&out).is_empty(), "{how}");
}

#[test]
fn a_group_over_the_tree_budget_is_migrated_to_the_same_bytes() {
    // with a budget of 0 every group is migrated without keeping its trees
    // (each file parsed again for the rewrite): the outputs and reports are
    // those of a migration that keeps them
    let t = tempfile::tempdir().unwrap();
    let programs = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/programs");
    let mut outs = Vec::new();
    for budget in ["0", ""] {
        let out = t.path().join(format!("out{budget}"));
        let o = Command::new(env!("CARGO_BIN_EXE_syclify"))
            .args(["migrate", programs.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .env("SYCLIFY_TREE_BUDGET", budget)
            .output()
            .unwrap();
        assert!(o.status.code().is_some_and(|c| c <= 1), "{}", stderr(&o));
        outs.push(outputs_of(&out));
    }
    assert!(outs[0].len() > 50, "{} files", outs[0].len());
    for (rel, bytes) in &outs[0] {
        assert!(outs[1].get(rel) == Some(bytes), "{rel} differs without the trees kept");
    }
    assert_eq!(outs[0].len(), outs[1].len());
}

/// `syclify migrate DIR -o OUT` with `SYCLIFY_SEGMENT_BYTES` set to `parts`
/// ("" for the default), its outputs and reports.
fn migrated_with_parts(dir: &Path, out: &Path, parts: &str) -> (std::collections::BTreeMap<String, Vec<u8>>, String) {
    migrated_with_function_parts(dir, out, parts, "")
}

/// [`migrated_with_parts`], with `SYCLIFY_FUNCTION_PART_BYTES` set to
/// `function_parts` ("" for the default).
fn migrated_with_function_parts(dir: &Path, out: &Path, parts: &str, function_parts: &str) -> (std::collections::BTreeMap<String, Vec<u8>>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_syclify"))
        .args(["migrate", dir.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .env("SYCLIFY_SEGMENT_BYTES", parts)
        .env("SYCLIFY_FUNCTION_PART_BYTES", function_parts)
        .env("SYCLIFY_TIMING", "1")
        .output()
        .unwrap();
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", stderr(&o));
    (outputs_of(out), stderr(&o))
}

#[test]
fn files_migrated_in_parts_are_migrated_to_the_same_bytes() {
    // SYCLIFY_SEGMENT_BYTES=1 cuts every file into parts at every top-level
    // declaration (each parsed with the declarations before it that are not
    // function definitions, inside its namespaces and conditional groups):
    // the outputs and reports are those of whole files, but where a launch
    // macro's uses stand in other parts, which the migration says (SY0404),
    // and where error recovery read broken code (SY0001, SY0005: a part's
    // recovery tries what mends the part, the whole file's what mends the file)
    let t = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut dirs = vec![fixtures.join("programs")];
    let mut rules: Vec<_> = std::fs::read_dir(fixtures.join("rules")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    rules.sort();
    dirs.extend(rules);
    let mut compared = 0;
    let mut announced = 0;
    // (a file of one declaration, or one the scan cannot follow, stays whole)
    let mut parted_dirs = 0;
    // and every function's body cut after every statement too
    // (SYCLIFY_FUNCTION_PART_BYTES=1): the same bytes as in parts at the
    // top only, but where a rule must read the whole body, which the
    // output says (SY0205, SY0404: "so large that its body is migrated in
    // parts")
    let (mut cut_compared, mut cut_announced) = (0, 0);
    // the three migrations of every directory side by side (each a process
    // of its own, most of them short: one after another they left a core idle)
    use rayon::prelude::*;
    let ways = [("parts", "1", ""), ("whole", "", ""), ("cut", "1", "1")];
    let mut migrated = (0..dirs.len() * ways.len())
        .into_par_iter()
        .map(|j| {
            let (k, (name, parts, function_parts)) = (j / ways.len(), ways[j % ways.len()]);
            migrated_with_function_parts(&dirs[k], &t.path().join(format!("{name}{k}")), parts, function_parts)
        })
        .collect::<Vec<_>>()
        .into_iter();
    for dir in &dirs {
        let (Some((parted, said)), Some((whole, _)), Some((cut, _))) = (migrated.next(), migrated.next(), migrated.next()) else {
            unreachable!("three migrations a directory")
        };
        assert_eq!(cut.keys().collect::<Vec<_>>(), parted.keys().collect::<Vec<_>>(), "{}", dir.display());
        let large = cut.values().any(|b| String::from_utf8_lossy(b).contains("so large that its body is migrated in parts"));
        for (rel, bytes) in &cut {
            if String::from_utf8_lossy(bytes).contains("so large that its body is migrated in parts") || (large && rel.starts_with("syclify-report.")) {
                cut_announced += 1;
                continue;
            }
            assert!(parted.get(rel) == Some(bytes), "{}/{rel} differs when its functions are cut in parts", dir.display());
            cut_compared += 1;
        }
        parted_dirs += usize::from(said.contains(" parts"));
        assert_eq!(parted.keys().collect::<Vec<_>>(), whole.keys().collect::<Vec<_>>(), "{}", dir.display());
        // (a file whose launch macros' uses are read only in their own part
        // says so; its report's counts differ with it)
        let launch_macros = parted.values().any(|b| String::from_utf8_lossy(b).contains("SY0404: this file is large and migrated in parts"));
        let recovered = whole.values().any(|b| ["SY0001", "SY0005"].iter().any(|c| String::from_utf8_lossy(b).contains(&format!("{c}: "))));
        for (rel, bytes) in &parted {
            let broken = ["SY0001", "SY0005"].iter().any(|c| String::from_utf8_lossy(&whole[rel]).contains(&format!("{c}: ")));
            if (launch_macros || recovered) && rel.starts_with("syclify-report.") || String::from_utf8_lossy(bytes).contains("migrated in parts") || broken {
                announced += 1;
                continue;
            }
            assert!(whole.get(rel) == Some(bytes), "{}/{rel} differs when migrated in parts", dir.display());
            compared += 1;
        }
    }
    assert!(
        compared > 100 && announced > 0 && 2 * parted_dirs > dirs.len(),
        "{compared} files compared, {announced} announced, {parted_dirs} of {} directories in parts",
        dirs.len()
    );
    assert!(cut_compared > 100 && cut_announced > 0, "{cut_compared} files compared with functions cut, {cut_announced} announced");
}

#[test]
fn a_large_file_is_migrated_in_parts_to_the_same_bytes() {
    // a 2.3 MB file (over the default threshold, cut into parts of about
    // 256 KB): kernels inside a namespace and an include guard, a global
    // table, macros and types declared at the top and used in every part
    let t = tempfile::tempdir().unwrap();
    let input = t.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let mut s = String::from(
        "#ifndef BIG_CUH\n#define BIG_CUH\n#include <cuda_runtime.h>\n#define BLOCK 128\ntypedef struct { float x, y; } pair_t;\n__constant__ float coef[4] = {1.f, 2.f, 3.f, 4.f};\nnamespace big {\n",
    );
    let mut i = 0;
    while s.len() < 2_300_000 {
        s.push_str(&format!(
            "__global__ void k{i}(pair_t *p, int n) {{\n  __shared__ float t[BLOCK];\n  int j = blockIdx.x * blockDim.x + threadIdx.x;\n  t[threadIdx.x] = coef[j % 4];\n  __syncthreads();\n  if (j < n) p[j].x += t[threadIdx.x];\n}}\n"
        ));
        i += 1;
    }
    s.push_str("void run(pair_t *p, int n) {\n");
    for k in (0..i).step_by(500) {
        s.push_str(&format!("  k{k}<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(p, n);\n"));
    }
    s.push_str("}\n}  // namespace big\n#endif\n");
    std::fs::write(input.join("big.cuh"), &s).unwrap();
    // (the two migrations side by side: each takes one core for most of its time)
    let ((parted, said), (whole, said_whole)) =
        rayon::join(|| migrated_with_parts(&input, &t.path().join("parts"), ""), || migrated_with_parts(&input, &t.path().join("whole"), "100000000"));
    assert!(said.contains("big.cuh: migrated in 9 parts"), "{said}");
    assert!(!said_whole.contains(" parts"), "{said_whole}");
    let out = String::from_utf8_lossy(&parted["big.dp.hpp"]);
    assert!(out.contains("sycl::nd_item<3>") && !out.contains("SY0404"), "migrated");
    for (rel, bytes) in &parted {
        assert!(whole.get(rel) == Some(bytes), "{rel} differs when migrated in parts");
    }
    assert_eq!(parted.len(), whole.len());
}

#[test]
fn completions_man_page_version_and_exit_codes() {
    for (shell, marker) in [("bash", "complete -F"), ("zsh", "#compdef syclify"), ("fish", "complete -c syclify"), ("powershell", "Register-ArgumentCompleter")]
    {
        let o = syclify(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let script = String::from_utf8_lossy(&o.stdout);
        assert!(script.contains(marker), "{shell}: no {marker:?}");
        // every subcommand and migrate's options are offered
        for word in ["migrate", "check", "validate", "explain", "query", "out-root", "diagnostics"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    assert_eq!(syclify(&["completions", "tcsh"]).status.code(), Some(2), "an unknown shell is a usage error");
    let man = syclify(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    let page = String::from_utf8_lossy(&man.stdout);
    assert!(page.contains(".TH syclify 1") && page.contains("Exit codes") && page.contains("migrate"), "{page}");
    // --version names the commit (or says it is unknown, built outside git)
    let v = String::from_utf8_lossy(&syclify(&["--version"]).stdout).into_owned();
    let re = regex::Regex::new(r"^syclify \d+\.\d+\.\d+ \((commit [0-9a-f]{7,}(, modified)?|unknown commit)\)\n$").unwrap();
    assert!(re.is_match(&v), "{v:?}");
    let help = String::from_utf8_lossy(&syclify(&["--help"]).stdout).into_owned();
    for code in ["  0 ", "  1 ", "  2 ", "  3 ", "  130 ", "NO_COLOR"] {
        assert!(help.contains(code), "--help lacks {code:?}: {help}");
    }
}

#[test]
fn piped_diagnostics_are_one_plain_line_each() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("a.cu"), "__global__ void k(int *p) { cudaNoSuchCall(p); }\n").unwrap();
    let o = syclify(&["migrate", t.path().to_str().unwrap(), "-o", t.path().join("out").to_str().unwrap()]);
    let err = stderr(&o);
    // (stderr is a pipe here: no source excerpt, no colour)
    assert!(!err.contains('\x1b') && !err.contains('│'), "{err}");
    assert!(err.lines().any(|l| l.trim_start().starts_with("a.cu:1:")), "{err}");
}

/// A stored file's text is its rewrite's: a file that the step after the
/// groups gives SYCL's includes (it reaches them only through a header)
/// is stored without them, and taken from the store it gets them again.
/// Every other stored text is the migration's output, taken when the
/// store is written (no copy held during the migration).
#[test]
fn a_file_given_sycl_includes_after_its_group_is_stored_as_rewritten() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("proj");
    fs::create_dir_all(src.join("shared")).unwrap();
    fs::create_dir_all(src.join("app")).unwrap();
    fs::write(src.join("shared/k.cuh"), "#pragma once\n__global__ void k(float *p) { p[threadIdx.x] = 1; }\n").unwrap();
    fs::write(src.join("app/main.cu"), "#include <cstdio>\n#include \"../shared/k.cuh\"\nint main() { printf(\"%d\\n\", 1); return 0; }\n").unwrap();
    let out = t.path().join("out");
    let run = || stderr(&syclify(&["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap()]));
    run();
    let first = fs::read_to_string(out.join("app/main.dp.cpp")).unwrap();
    assert!(first.starts_with("// SYCL's headers first"), "{first}");
    // the stored group: main.cu's text without the step's includes, the
    // header's as written out
    let stored: Vec<serde_json::Value> = fs::read_dir(out.join(".syclify-cache"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .map(|e| serde_json::from_slice(&fs::read(e.path()).unwrap()).unwrap())
        .collect();
    assert_eq!(stored.len(), 1);
    let text = |rel: &str| stored[0]["files"].as_array().unwrap().iter().find(|f| f["rel"] == rel).unwrap()["output"].as_str().unwrap().to_string();
    assert_eq!(text("app/main.cu"), first[first.find("#include <cstdio>").unwrap()..]);
    assert_eq!(text("shared/k.cuh"), fs::read_to_string(out.join("shared/k.dp.hpp")).unwrap());
    // taken from the store (an output gone makes the run read its groups): the same
    fs::remove_file(out.join("app/main.dp.cpp")).unwrap();
    let err = run();
    assert!(err.contains("2 of 2 migrated files taken from the last migration"), "{err}");
    assert_eq!(fs::read_to_string(out.join("app/main.dp.cpp")).unwrap(), first);
}

/// A migration into an out-root that a migration wrote before takes the
/// groups of files whose inputs did not change from what that one kept
/// (`.syclify-cache`): the out-root, the diagnostics and the exit code are
/// those of a migration from scratch (`--fresh`); a change to a header
/// migrates again the files of the programs that include it, and no others;
/// a store that does not read is migrated past.
#[test]
fn a_migration_again_takes_the_unchanged_groups_from_the_store() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("proj");
    for d in ["app1", "app2", "app3", "shared"] {
        fs::create_dir_all(src.join(d)).unwrap();
    }
    fs::write(src.join("app1/a.cu"), format!("#include \"k.cuh\"\n{KERNEL}")).unwrap();
    fs::write(src.join("app1/k.cuh"), "__device__ inline float twice(float x) { return 2 * x; }\n").unwrap();
    // (a diagnostic, so that diagnostics are given again too)
    let b = "#include \"../shared/common.cuh\"\n__global__ void b(float *p) { p[threadIdx.x] = scale(p[threadIdx.x]); }\nvoid h(cudaStream_t s) { cudaStreamAttachMemAsync(s, nullptr); }\n";
    fs::write(src.join("app2/b.cu"), b).unwrap();
    fs::write(src.join("app3/c.cu"), "#include \"../shared/common.cuh\"\n__global__ void c(float *p) { p[0] = scale(1.0f); }\n").unwrap();
    fs::write(src.join("shared/common.cuh"), "__device__ inline float scale(float x) { return 3 * x; }\n").unwrap();
    let out = t.path().join("out");
    let run = |extra: &[&str]| {
        let mut args = vec!["migrate", src.to_str().unwrap(), "-o", out.to_str().unwrap(), "--diagnostics", "gcc"];
        args.extend(extra);
        let o = syclify(&args);
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), stderr(&o))
    };
    let snapshot = || tree_snapshot(&out).into_iter().filter(|(p, _)| !p.starts_with(".syclify-cache")).collect::<Vec<_>>();
    // taken from the store, then from scratch into the same out-root: the same
    let same_as_fresh = |taken: &str| {
        let (code, diags, err) = run(&[]);
        assert!(err.contains(taken), "{taken}: {err}");
        let reused = snapshot();
        let (fresh_code, fresh_diags, fresh_err) = run(&["--fresh"]);
        assert!(!fresh_err.contains("taken from the last migration"), "{fresh_err}");
        assert_eq!((code, diags), (fresh_code, fresh_diags));
        assert_eq!(reused, snapshot());
    };
    let (_, _, first) = run(&[]);
    assert!(!first.contains("taken from the last migration"), "{first}");
    assert!(out.join(".syclify-cache/CACHEDIR.TAG").is_file());
    same_as_fresh("5 of 5 migrated files taken from the last migration");
    let (_, diags, _) = run(&[]);
    assert!(diags.contains("app2/b.cu:3:26: note:") && diags.contains("[SY0403]"), "the diagnostic on b.cu is given again: {diags}");
    // the header two programs include changes: those two are migrated again
    fs::write(src.join("shared/common.cuh"), "__device__ inline float scale(float x) { return 4 * x; }\n").unwrap();
    same_as_fresh("2 of 5 migrated files taken from the last migration");
    assert!(fs::read_to_string(out.join("shared/common.dp.hpp")).unwrap().contains("4 * x"));
    // a store that does not read: every group is migrated again, and stored again
    for e in fs::read_dir(out.join(".syclify-cache")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "json") {
            fs::write(e.path(), "{").unwrap();
        }
    }
    let broken = snapshot();
    let (_, _, err) = run(&[]);
    assert!(!err.contains("taken from the last migration"), "{err}");
    assert_eq!(snapshot(), broken);
    same_as_fresh("5 of 5 migrated files taken from the last migration");
    // another rule file: nothing is taken
    let rules = t.path().join("extra.yaml");
    fs::write(&rules, "functions:\n  - cuda: cudaProfilerStart\n    statement: \"(void)0\"\n").unwrap();
    let (code, _, err) = run(&["--rule-file", rules.to_str().unwrap()]);
    assert!(code.is_some_and(|c| c <= 1) && !err.contains("taken from the last migration"), "{err}");
    // nothing is written outside the out-root, and the store names itself
    assert!(fs::read_to_string(out.join(".syclify-cache/.gitignore")).unwrap().contains("*"));
    assert!(tree_snapshot(&src).iter().all(|(p, _)| !p.contains("syclify-cache")));
}
