//! Finding the compilers and the GPU, and the flags that target it.

use super::process::{find_program, run};
use std::path::Path;
use std::time::Duration;

/// The NVIDIA GPU of this machine, from nvidia-smi.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Gpu {
    pub name: String,
    /// `sm_90` for compute capability 9.0.
    pub arch: String,
}

pub fn detect_gpu() -> Option<Gpu> {
    find_program("nvidia-smi")?;
    let r = run("nvidia-smi", &["--query-gpu=compute_cap,name".into(), "--format=csv,noheader".into()], Path::new("."), &[], Duration::from_secs(30));
    let line = r.stdout.lines().next()?.to_string();
    let (cap, name) = line.split_once(',')?;
    let arch = format!("sm_{}", cap.trim().replace('.', ""));
    r.ok().then(|| Gpu { name: name.trim().to_string(), arch })
}

/// A SYCL compiler and how it targets NVIDIA GPUs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SyclKind {
    /// Intel DPC++ (`icpx -fsycl` or the open-source `clang++ -fsycl`).
    Dpcpp,
    /// AdaptiveCpp (`acpp`).
    AdaptiveCpp,
    /// Named with --sycl-cxx and not recognised: flags come from --sycl-flags.
    Other,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct SyclCompiler {
    pub path: String,
    pub kind: SyclKind,
}

/// The compilers looked for, in order, when none is named.
pub const SYCL_CANDIDATES: &[&str] = &["icpx", "acpp", "syclcc", "clang++"];

fn kind_of(path: &str) -> SyclKind {
    let file = Path::new(path).file_name().and_then(|f| f.to_str()).unwrap_or(path);
    if file.starts_with("acpp") || file.starts_with("syclcc") {
        SyclKind::AdaptiveCpp
    } else if file.starts_with("icpx") || file.starts_with("clang++") || file.starts_with("dpcpp") {
        SyclKind::Dpcpp
    } else {
        SyclKind::Other
    }
}

/// Does this clang++ accept -fsycl (a DPC++ build)?
fn clang_has_sycl(path: &Path) -> bool {
    let r = run(
        &path.display().to_string(),
        &["-fsycl".into(), "-E".into(), "-x".into(), "c++".into(), "/dev/null".into(), "-o".into(), "/dev/null".into()],
        Path::new("."),
        &[],
        Duration::from_secs(60),
    );
    r.ok()
}

pub fn find_sycl_compiler(named: Option<&str>) -> Option<SyclCompiler> {
    if let Some(n) = named {
        let p = find_program(n)?;
        let path = p.display().to_string();
        return Some(SyclCompiler { kind: kind_of(n), path });
    }
    for c in SYCL_CANDIDATES {
        if let Some(p) = find_program(c) {
            if *c == "clang++" && !clang_has_sycl(&p) {
                continue;
            }
            return Some(SyclCompiler { path: p.display().to_string(), kind: kind_of(c) });
        }
    }
    None
}

/// Default flags of a SYCL compiler for an NVIDIA GPU of architecture `arch`.
pub fn sycl_flags(kind: &SyclKind, arch: Option<&str>) -> Vec<String> {
    let arch = arch.unwrap_or("sm_50");
    match kind {
        SyclKind::Dpcpp => {
            vec!["-fsycl".into(), "-fsycl-targets=nvptx64-nvidia-cuda".into(), "-Xsycl-target-backend".into(), format!("--cuda-gpu-arch={arch}"), "-O2".into()]
        }
        SyclKind::AdaptiveCpp => vec![format!("--acpp-targets=cuda:{arch}"), "-O2".into()],
        SyclKind::Other => vec!["-O2".into()],
    }
}

/// Environment that restricts the SYCL runtime's default device to the CUDA backend.
pub fn sycl_run_env(kind: &SyclKind) -> Vec<(String, String)> {
    match kind {
        SyclKind::Dpcpp => vec![("ONEAPI_DEVICE_SELECTOR".into(), "cuda:*".into())],
        SyclKind::AdaptiveCpp => vec![("ACPP_VISIBILITY_MASK".into(), "cuda".into())],
        SyclKind::Other => vec![],
    }
}

pub fn find_nvcc(named: Option<&str>) -> Option<String> {
    if let Some(n) = named {
        return find_program(n).map(|p| p.display().to_string());
    }
    if let Some(p) = find_program("nvcc") {
        return Some(p.display().to_string());
    }
    let home = std::env::var("CUDA_HOME").unwrap_or_else(|_| "/usr/local/cuda".into());
    let p = Path::new(&home).join("bin/nvcc");
    p.is_file().then(|| p.display().to_string())
}
