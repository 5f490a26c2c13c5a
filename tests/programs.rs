//! Whole-program fixtures (`fixtures/programs/<name>/` and `examples/<name>/`,
//! outputs recorded with nvcc on an H100, see fixtures/programs/README.md): each is migrated as a project;
//! its migrated tree is pinned by a snapshot, must hold no CUDA construct
//! outside comments, and must pass a host compile (-fsyntax-only) of every
//! migrated translation unit against Intel's real SYCL 2020 headers.

mod common;

use std::path::Path;
use syclify::project::Status;

/// The program fixtures and the bundled examples.
fn programs() -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    for dir in ["fixtures/programs", "examples"] {
        v.extend(std::fs::read_dir(common::root().join(dir)).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    v.sort();
    assert!(v.len() >= 8, "the program fixtures are missing");
    v
}

#[test]
fn programs_migrate_to_pinned_output() {
    for dir in programs() {
        let m = common::migrate(&[&dir]);
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        insta::with_settings!({ snapshot_suffix => name.clone(), prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!("program", common::render(&m));
        });
        assert_eq!(m.exit_code(), 0, "{name}: migration reported errors:\n{}", common::render(&m));
    }
}

/// The CUDA names left in migrated code outside comments and strings (the
/// check every migration ends with, see `syclify::leftovers`).
fn cuda_left(code: &str) -> Vec<String> {
    syclify::leftovers::cuda_left(code, &|_| false).into_iter().map(|(_, w)| w).collect()
}

#[test]
fn programs_have_no_cuda_left_outside_comments() {
    for dir in programs() {
        let m = common::migrate(&[&dir]);
        // names the program defines itself, shaped like CUDA's (`#define
        // cudaCheck(x)`, its own `cudaGridSize()`), are the program's
        let own: std::collections::BTreeSet<String> = m.files.iter().filter_map(|f| f.output.as_deref()).flat_map(syclify::leftovers::defined_names).collect();
        for f in m.files.iter().filter(|f| f.status == Status::Migrated) {
            let left: Vec<String> = syclify::leftovers::cuda_left(f.output.as_deref().unwrap(), &|w| own.contains(w)).into_iter().map(|(_, w)| w).collect();
            assert!(left.is_empty(), "{}/{}: left outside comments: {left:?}", dir.display(), f.rel);
        }
    }
}

#[test]
fn the_no_cuda_left_check_can_fail() {
    assert_eq!(cuda_left("x = __shfl_down_sync(m, v, 1); float4 a; k<<<1, 1>>>(); atomicAdd(p, 1);"), vec!["<<<", "__shfl_down_sync", "float4", "atomicAdd"]);
    assert!(cuda_left("syclify::float4 a = syclify::make_float4(1, 2, 3, 4); v.x = __LINE__;").is_empty());
}

#[test]
fn programs_host_compile_against_intel_sycl_headers() {
    use rayon::prelude::*;
    // the programs at once (each compile is a process of its own): the
    // results are gathered in the programs' order
    let results: Vec<(usize, Vec<String>)> = programs()
        .par_iter()
        .map(|dir| {
            let mut failures = Vec::new();
            let mut compiled = 0;
            let m = common::migrate(&[dir]);
            let out = tempfile::tempdir().unwrap();
            let m = syclify::project::Migration { out_root: out.path().to_path_buf(), ..m };
            assert!(syclify::emit::emit(&m).is_empty());
            // a program that uses oneDPL or oneMKL compiles against their headers too
            let libraries = m.files.iter().any(|f| f.output.as_deref().is_some_and(common::uses_libraries));
            // the include directories its Makefile names (`-Icommon`: a shared helper header)
            let makefile = std::fs::read_to_string(dir.join("Makefile")).unwrap_or_default();
            let mut includes = vec![out.path().join("include")];
            includes.extend(makefile.split_whitespace().filter_map(|w| w.strip_prefix("-I")).map(|d| out.path().join(d)));
            let includes: Vec<&Path> = includes.iter().map(|p| p.as_path()).collect();
            // every translation unit: migrated `.cu` files and host `.cpp` files
            for f in m.files.iter().filter(|f| f.out_rel.as_deref().is_some_and(|o| [".cpp", ".cc", ".cxx"].iter().any(|e| o.ends_with(e)))) {
                let file = out.path().join(f.out_rel.as_ref().unwrap());
                compiled += 1;
                if let Err(e) = common::host_compile_unit(&file, &includes, libraries) {
                    failures.push(format!(
                        "{}: {}\n{}",
                        dir.display(),
                        f.rel,
                        e.lines().filter(|l| l.contains("error")).take(10).collect::<Vec<_>>().join("\n")
                    ));
                }
            }
            (compiled, failures)
        })
        .collect();
    let compiled: usize = results.iter().map(|r| r.0).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    assert!(compiled >= 10);
    assert!(failures.is_empty(), "host compile failed:\n{}", failures.join("\n\n"));
}

/// The host compile still fails where the helper header is read precompiled:
/// an error in a kernel's body, one in a template the unit instantiates
/// (Clang's precompiled header made the header's own instantiations, not the
/// unit's), and a call of a helper with the wrong arguments; the same unit
/// without its errors compiles. A unit whose copy of the helper headers
/// misses one it includes fails too.
#[test]
fn a_host_compile_with_the_precompiled_helper_can_fail() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("main.dp.cpp");
    let ours = common::root().join("runtime-headers");
    let unit = |body: &str| {
        format!(
            "// a unit as syclify writes one\n#include <cstdio>\n#include <syclify/syclify.hpp>\n#include <sycl/sycl.hpp>\n\
             template <class T> void fill(T *p, int n) {{ syclify::launch(syclify::default_queue(), [=](sycl::handler &h) {{ \
             h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {{ {body} }}); }}); }}\n\
             int main() {{ float *p = nullptr; fill(p, 4); std::printf(\"done\\n\"); return 0; }}\n"
        )
    };
    std::fs::write(&file, unit("p[i] = 1.0f;")).unwrap();
    assert!(common::reads_helper_precompiled(&file, &[&ours]), "the unit should read the helper precompiled");
    common::host_compile(&file, &[&ours]).unwrap();
    for wrong in ["p[i] = p.x;", "p[i] = undeclared_name;", "syclify::launch(1, 2, 3);"] {
        std::fs::write(&file, unit(wrong)).unwrap();
        assert!(common::host_compile(&file, &[&ours]).is_err(), "`{wrong}` compiled");
    }
    // a unit whose copy of the helper headers misses one it includes is not
    // compiled against the precompiled header's directory (which holds them
    // all), and fails
    let copy = dir.path().join("include/syclify");
    std::fs::create_dir_all(&copy).unwrap();
    for h in ["syclify.hpp", "texture.hpp", "graph.hpp", "driver.hpp"] {
        std::fs::copy(ours.join("syclify").join(h), copy.join(h)).unwrap();
    }
    let include = dir.path().join("include");
    std::fs::write(&file, unit("p[i] = 1.0f;")).unwrap();
    assert!(common::reads_helper_precompiled(&file, &[&include]));
    common::host_compile(&file, &[&include]).unwrap();
    std::fs::write(&file, format!("#include <syclify/cub.hpp>\n{}", unit("p[i] = 1.0f;"))).unwrap();
    assert!(!common::reads_helper_precompiled(&file, &[&include]));
    assert!(common::host_compile(&file, &[&include]).is_err(), "a unit compiled with a helper header its copy misses");
}

/// Every cuBLAS helper of `syclify/blas.hpp` (tests/helper-header/blas_helpers.cpp)
/// host-compiles against Intel's SYCL headers and oneMKL's.
#[test]
fn blas_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/blas_helpers.cpp");
    common::library_host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every cuSOLVER helper of `syclify/solver.hpp`, for every element type
/// (tests/helper-header/solver_helpers.cpp), host-compiles against Intel's
/// SYCL headers and oneMKL's.
#[test]
fn solver_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/solver_helpers.cpp");
    common::library_host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every NCCL helper of `syclify/ccl.hpp` (tests/helper-header/ccl_helpers.cpp)
/// host-compiles against Intel's SYCL headers and oneCCL's.
#[test]
fn ccl_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/ccl_helpers.cpp");
    common::library_host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every cuRAND host-API helper of `syclify/rand.hpp` (tests/helper-header/rand_helpers.cpp)
/// host-compiles against Intel's SYCL headers and oneMKL's.
#[test]
fn rand_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/rand_helpers.cpp");
    common::library_host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every cuSPARSE helper of `syclify/sparse.hpp` (tests/helper-header/sparse_helpers.cpp)
/// host-compiles against Intel's SYCL headers and oneMKL's.
#[test]
fn sparse_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/sparse_helpers.cpp");
    common::library_host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every cuFFT helper of `syclify/fft.hpp` (tests/helper-header/fft_helpers.cpp)
/// host-compiles against Intel's SYCL headers and oneMKL's.
#[test]
fn fft_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/fft_helpers.cpp");
    common::library_host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every cuBLASLt helper of `syclify/blaslt.hpp` (tests/helper-header/blaslt_helpers.cpp)
/// host-compiles against Intel's SYCL headers (no library needed).
#[test]
fn blaslt_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/blaslt_helpers.cpp");
    common::host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every cuRAND device-API helper of `syclify/rand_kernel.hpp`, called in a
/// kernel (tests/helper-header/rand_kernel_helpers.cpp), host-compiles
/// against Intel's SYCL headers (no library needed).
#[test]
fn rand_kernel_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/rand_kernel_helpers.cpp");
    common::host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every wmma helper of `syclify/wmma.hpp`, in every shape and element type,
/// host-compiles against Intel's SYCL headers (no library needed): the
/// joint_matrix implementation (Intel's headers define SYCL_EXT_ONEAPI_MATRIX)
/// and the portable one.
#[test]
fn wmma_helpers_host_compile() {
    for name in ["wmma_helpers.cpp", "wmma_portable_helpers.cpp"] {
        let file = common::root().join("tests/helper-header").join(name);
        common::host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
    }
}

/// Every helper of the header, instantiated (tests/helper-header/every_helper.cpp),
/// host-compiles against Intel's SYCL headers.
#[test]
fn every_helper_host_compiles() {
    let file = common::root().join("tests/helper-header/every_helper.cpp");
    common::host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every libcu++ helper of `syclify/libcu.hpp` (`cuda::std::complex`, the
/// atomics of every scope, `cuda::barrier`, the pipelines and the primitives;
/// tests/helper-header/libcu_helpers.cpp) host-compiles against Intel's SYCL headers.
#[test]
fn libcu_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/libcu_helpers.cpp");
    common::host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// The per-thread default streams (`--default-stream per-thread`,
/// CUDA_API_PER_THREAD_DEFAULT_STREAM) host-compile too
/// (tests/helper-header/per_thread_default_stream.cpp).
#[test]
fn per_thread_default_stream_host_compiles() {
    let file = common::root().join("tests/helper-header/per_thread_default_stream.cpp");
    common::host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every CUB collective and device-wide algorithm of `syclify/cub.hpp`,
/// instantiated with CUB's operators and with a user's operator and pair type
/// (tests/helper-header/cub_helpers.cpp), host-compiles against Intel's SYCL headers.
#[test]
fn cub_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/cub_helpers.cpp");
    common::host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Every Thrust helper of `syclify/thrust.hpp` (tests/helper-header/thrust_helpers.cpp),
/// with and without policies, over device vectors, USM pointers, host vectors
/// and fancy iterators, host-compiles against Intel's SYCL headers and oneDPL's.
#[test]
fn thrust_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/thrust_helpers.cpp");
    common::library_host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}

/// Builds `tests/helper-header/<name>.cpp` as plain C++ against Intel's
/// headers ([`common::build_helper_program`]), runs it on the host and compares its output with `<name>.expected`:
/// the same file compiled with nvcc (its `__CUDACC__` branch, CUDA's names)
/// and run on an H100 (see the comment in each source).
fn helper_output_matches_nvcc(name: &str) {
    let root = common::root();
    let src = root.join(format!("tests/helper-header/{name}.cpp"));
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join(name);
    let out = common::build_helper_program(&src, &exe);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = std::process::Command::new(&exe).output().unwrap();
    let expected = std::fs::read_to_string(root.join(format!("tests/helper-header/{name}.expected"))).unwrap();
    assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), expected.trim(), "{name}: a helper no longer computes what nvcc computes");
}

/// The SIMD-in-a-word helpers compute what CUDA's `__v*` intrinsics compute.
#[test]
fn simd_helpers_match_nvcc() {
    helper_output_matches_nvcc("simd_vs_nvcc");
}

/// The fp8 helpers convert bit for bit as cuda_fp8.h does.
#[test]
fn fp8_helpers_match_nvcc() {
    helper_output_matches_nvcc("fp8_vs_nvcc");
}

/// The half helpers (conversions, hfma and hfma2, min/max, the _sat and _relu
/// forms, hcmadd, + - * /) compute bit for bit what cuda_fp16.h computes.
#[test]
fn half_helpers_match_nvcc() {
    helper_output_matches_nvcc("half_vs_nvcc");
}

/// The __dp4a/__dp2a_lo/__dp2a_hi helpers compute what CUDA's intrinsics compute.
#[test]
fn dot_product_helpers_match_nvcc() {
    helper_output_matches_nvcc("dp_vs_nvcc");
}

/// The cuComplex.h helpers compute bit for bit what cuComplex.h computes.
#[test]
fn complex_helpers_match_nvcc() {
    helper_output_matches_nvcc("complex_vs_nvcc");
}

/// The expected outputs were recorded from real nvcc runs and end with PASS.
#[test]
fn programs_have_recorded_expected_output() {
    for dir in programs() {
        let exp = std::fs::read_to_string(dir.join("expected_output.txt")).unwrap_or_else(|_| panic!("{}: no expected_output.txt", dir.display()));
        assert!(exp.trim_end().ends_with("PASS"), "{}", dir.display());
        let _ = Path::new(&dir);
    }
}

/// Programs migrated together, as one tree, come out exactly as each program
/// migrated alone: unrelated programs' same-named functions do not mix.
#[test]
fn programs_migrated_together_match_programs_migrated_alone() {
    let together = common::migrate(&[&common::root().join("fixtures/programs")]);
    let mut compared = 0;
    for dir in programs().into_iter().filter(|d| d.starts_with(common::root().join("fixtures/programs"))) {
        let alone = common::migrate(&[&dir]);
        let prefix = format!("{}/", dir.file_name().unwrap().to_string_lossy());
        // build files point at the out-root, which is one level up together
        for f in alone.files.iter().filter(|f| f.status == Status::Migrated && !syclify::build::is_build_file_name(f.rel.rsplit('/').next().unwrap_or(""))) {
            let t = together.files.iter().find(|t| t.rel == format!("{prefix}{}", f.rel)).expect("file migrated in both runs");
            assert_eq!(t.output, f.output, "{prefix}{} differs when migrated with the other programs", f.rel);
            compared += 1;
        }
    }
    assert!(compared >= 27);
}

/// Macros are a program's own: one program's `#define min(a, b)` (or a
/// token-pasting macro) does not change how another program in the same
/// tree, which includes nothing of it, is migrated.
#[test]
fn one_programs_macros_do_not_reach_another() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(
        a.join("main.cu"),
        "#define min(x, y) ((x) < (y) ? (x) : (y))\n#define CAT(p, q) p##q\n__global__ void k(int *v) { v[threadIdx.x] = min(v[0], 3); }\n",
    )
    .unwrap();
    std::fs::write(b.join("main.cu"), "__global__ void k(int *v, int n) { int m = min(n, 4); v[threadIdx.x] = m; }\n").unwrap();
    let together = common::migrate(&[t.path()]);
    let alone = common::migrate(&[&b]);
    let out = |m: &syclify::project::Migration, rel: &str| m.files.iter().find(|f| f.rel == rel).and_then(|f| f.output.clone()).unwrap();
    let b_alone = out(&alone, "main.cu");
    assert!(b_alone.contains("syclify::min(n, 4)") || b_alone.contains("sycl::min(n, 4)"), "{b_alone}");
    assert_eq!(out(&together, "b/main.cu"), b_alone);
}

/// The GPU benchmark set (`benches/gpu`, timed on the H100 by
/// `scripts/gpu-bench`) stays migratable: each program migrates without
/// errors or CUDA left, and its output and the hand-written SYCL reference
/// (`benches/gpu-direct`) host-compile against Intel's SYCL headers. (Their
/// output is timings, so there is no pinned output to compare.)
#[test]
fn gpu_benchmarks_migrate_and_host_compile() {
    let root = common::root();
    let mut benches: Vec<_> = std::fs::read_dir(root.join("benches/gpu")).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    benches.sort();
    assert!(benches.len() >= 8, "the benchmark set has {} programs", benches.len());
    let mut failures = Vec::new();
    for dir in &benches {
        let m = common::migrate(&[dir]);
        assert_eq!(m.exit_code(), 0, "{}: migration reported errors:\n{}", dir.display(), common::render(&m));
        let out = tempfile::tempdir().unwrap();
        let m = syclify::project::Migration { out_root: out.path().to_path_buf(), ..m };
        assert!(syclify::emit::emit(&m).is_empty());
        for f in m.files.iter().filter(|f| f.out_rel.as_deref().is_some_and(|o| o.ends_with(".cpp"))) {
            let code = f.output.as_deref().unwrap_or("");
            assert!(cuda_left(code).is_empty(), "{}: CUDA left: {:?}", f.rel, cuda_left(code));
            if let Err(e) = common::host_compile(&out.path().join(f.out_rel.as_ref().unwrap()), &[&out.path().join("include")]) {
                failures.push(format!("{}: {e}", dir.display()));
            }
        }
    }
    for f in std::fs::read_dir(root.join("benches/gpu-direct")).unwrap().flatten().map(|e| e.path()) {
        if let Err(e) = common::host_compile(&f, &[&root.join("runtime-headers")]) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    assert!(failures.is_empty(), "host compile failed:\n{}", failures.join("\n\n"));
}

/// The texture helpers sample what CUDA's texture unit returns, bit for bit,
/// where its arithmetic is the documented one (fixed-point weights, 8-bit
/// values filtered in 16-bit fixed point).
#[test]
fn texture_helpers_match_nvcc() {
    helper_output_matches_nvcc("texture_vs_nvcc");
}

/// Every helper of the driver API (`syclify/driver.hpp`: devices, contexts,
/// memory, copies and fills, arrays, modules, launches;
/// tests/helper-header/driver_helpers.cpp) host-compiles against Intel's SYCL
/// headers.
#[test]
fn driver_helpers_host_compile() {
    let file = common::root().join("tests/helper-header/driver_helpers.cpp");
    common::host_compile(&file, &[&common::root().join("runtime-headers")]).unwrap();
}
