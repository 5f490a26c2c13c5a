//! `validate --time`: the GPU time of every kernel of both builds, paired
//! launch by launch.
//!
//! Both programs run with a small CUPTI injection library
//! (`kernel_timer.cpp`, compiled here with nvcc against the toolkit's CUPTI)
//! named by `CUDA_INJECTION64_PATH`: the CUDA driver loads it into any
//! process that uses the GPU, whichever runtime sits on top (the CUDA
//! runtime, AdaptiveCpp's CUDA backend, DPC++'s CUDA plugin), so both sides
//! are timed by the GPU's own timestamps, through one tool, without changing
//! either program. It needs no access to performance counters (unlike
//! `ncu`) and no other tool on the GPU machine (`nsys` often is not there).
//!
//! Pairing: a SYCL kernel's name is its lambda's, not the CUDA kernel's, so
//! launches are paired by order and geometry. A migrated launch keeps CUDA's
//! grid and block (the migration reverses the dimensions into SYCL's order
//! and the SYCL runtime reverses them back), so the n-th CUDA launch of a
//! grid/block pair is the n-th SYCL launch of the same pair, in order.
//! Kernels of syclify's own runtime (event markers) are set apart by name;
//! launches left unpaired on either side (library kernels: cuBLAS against
//! oneMKL, CUB against oneDPL) are counted, not guessed at.

use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The injection library's source (compiled on the machine that runs the programs).
pub const KERNEL_TIMER_SOURCE: &str = include_str!("kernel_timer.cpp");

/// The environment variable the injection library writes its records to.
pub const TIMES_ENV: &str = "SYCLIFY_KERNEL_TIMES";

/// One kernel execution as the injection library saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelRecord {
    pub start_ns: u64,
    pub end_ns: u64,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub name: String,
}

impl KernelRecord {
    pub fn ns(&self) -> u64 {
        self.end_ns.saturating_sub(self.start_ns)
    }
    fn geometry(&self) -> ([u32; 3], [u32; 3]) {
        (self.grid, self.block)
    }
}

/// The records of a times file, in start order, and whether CUPTI said it
/// dropped some. Lines that do not parse are errors (the file is ours).
pub fn parse_records(text: &str) -> Result<(Vec<KernelRecord>, bool), String> {
    let mut out = Vec::new();
    let mut dropped = false;
    for (i, line) in text.lines().enumerate() {
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            dropped |= comment.contains("dropped");
            continue;
        }
        let bad = || format!("line {}: not a kernel record: {line:?}", i + 1);
        let mut f = line.splitn(5, '\t');
        let mut next = || f.next().ok_or_else(bad);
        let start_ns = next()?.parse::<u64>().map_err(|_| bad())?;
        let end_ns = next()?.parse::<u64>().map_err(|_| bad())?;
        let dims = |s: &str| -> Result<[u32; 3], String> {
            let v: Vec<u32> = s.split(',').map(|d| d.parse::<u32>()).collect::<Result<_, _>>().map_err(|_| bad())?;
            v.try_into().map_err(|_| bad())
        };
        let grid = dims(next()?)?;
        let block = dims(next()?)?;
        let name = next()?.to_string();
        out.push(KernelRecord { start_ns, end_ns, grid, block, name });
    }
    out.sort_by_key(|r| r.start_ns);
    Ok((out, dropped))
}

/// A SYCL-side kernel of syclify's runtime (an event's timestamp marker),
/// not one of the program's.
fn is_runtime_kernel(name: &str) -> bool {
    name.contains("syclify::")
}

/// The name to show for a CUDA kernel: its demangled name without the
/// `void ` in front and the parameter list (template arguments kept).
pub fn short_name(name: &str) -> String {
    let n = name.strip_prefix("void ").unwrap_or(name).trim_end();
    if n.ends_with(')') {
        let mut depth = 0i32;
        for (i, c) in n.char_indices().rev() {
            match c {
                ')' => depth += 1,
                '(' => {
                    depth -= 1;
                    if depth == 0 {
                        return n[..i].to_string();
                    }
                }
                _ => {}
            }
        }
    }
    n.to_string()
}

/// One CUDA kernel (by its full name) and its paired SYCL launches.
#[derive(Debug, Clone, Serialize)]
pub struct KernelTime {
    pub name: String,
    pub short_name: String,
    pub launches: usize,
    pub cuda_ns: u64,
    pub sycl_ns: u64,
    /// SYCL time over CUDA time, summed over the paired launches.
    pub ratio: f64,
    /// Above the threshold.
    pub slower: bool,
}

/// Launches of one side that found no partner.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Unpaired {
    pub launches: usize,
    pub ns: u64,
    /// Their distinct names, most time first (at most ten).
    pub names: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Timing {
    /// Per CUDA kernel, most CUDA time first.
    pub kernels: Vec<KernelTime>,
    pub paired_launches: usize,
    pub cuda_paired_ns: u64,
    pub sycl_paired_ns: u64,
    pub cuda_unpaired: Unpaired,
    pub sycl_unpaired: Unpaired,
    /// syclify's own marker kernels on the SYCL side.
    pub runtime_launches: usize,
    pub runtime_ns: u64,
    /// Geometric mean of the kernels' ratios.
    pub geo_mean: Option<f64>,
    pub threshold: f64,
    /// CUPTI dropped records on a side (its figures are incomplete).
    pub incomplete: bool,
}

impl Timing {
    pub fn slower(&self) -> impl Iterator<Item = &KernelTime> {
        self.kernels.iter().filter(|k| k.slower)
    }
}

/// How far ahead on the SYCL side a CUDA launch looks for its partner
/// (SYCL launches passed over are unpaired: library kernels of another shape).
const LOOKAHEAD: usize = 256;

fn unpaired(records: &[&KernelRecord], short: bool) -> Unpaired {
    let mut by_name: Vec<(String, u64)> = Vec::new();
    for r in records {
        let n = if short { short_name(&r.name) } else { r.name.clone() };
        match by_name.iter_mut().find(|(m, _)| *m == n) {
            Some(e) => e.1 += r.ns(),
            None => by_name.push((n, r.ns())),
        }
    }
    by_name.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Unpaired { launches: records.len(), ns: records.iter().map(|r| r.ns()).sum(), names: by_name.into_iter().take(10).map(|(n, _)| n).collect() }
}

/// Pairs the launches of the two sides and sums them per CUDA kernel.
pub fn pair(cuda: &[KernelRecord], sycl: &[KernelRecord], threshold: f64, incomplete: bool) -> Timing {
    let (runtime, program): (Vec<&KernelRecord>, Vec<&KernelRecord>) = sycl.iter().partition(|r| is_runtime_kernel(&r.name));
    let mut taken = vec![false; program.len()];
    let mut next = 0usize; // first SYCL launch not yet passed
    let mut cuda_left = Vec::new();
    // per CUDA kernel name: (launches, cuda ns, sycl ns), in first-seen order
    let mut sums: Vec<(String, usize, u64, u64)> = Vec::new();
    for c in cuda {
        let window = next..program.len().min(next + LOOKAHEAD);
        match window.clone().find(|&j| !taken[j] && program[j].geometry() == c.geometry()) {
            Some(j) => {
                taken[j] = true;
                // SYCL launches before the partner stay for later CUDA
                // launches (two kernels of different shapes may be
                // interleaved differently on two streams); the start moves
                // past what is taken
                while next < program.len() && taken[next] {
                    next += 1;
                }
                match sums.iter_mut().find(|e| e.0 == c.name) {
                    Some(e) => {
                        e.1 += 1;
                        e.2 += c.ns();
                        e.3 += program[j].ns();
                    }
                    None => sums.push((c.name.clone(), 1, c.ns(), program[j].ns())),
                }
            }
            None => cuda_left.push(c),
        }
    }
    let sycl_left: Vec<&KernelRecord> = program.iter().zip(&taken).filter(|(_, t)| !**t).map(|(r, _)| *r).collect();
    let mut kernels: Vec<KernelTime> = sums
        .into_iter()
        .map(|(name, launches, cuda_ns, sycl_ns)| {
            let ratio = sycl_ns as f64 / (cuda_ns.max(1)) as f64;
            KernelTime { short_name: short_name(&name), name, launches, cuda_ns, sycl_ns, ratio, slower: ratio > threshold }
        })
        .collect();
    kernels.sort_by(|a, b| b.cuda_ns.cmp(&a.cuda_ns).then_with(|| a.name.cmp(&b.name)));
    let geo_mean = (!kernels.is_empty()).then(|| (kernels.iter().map(|k| k.ratio.max(1e-9).ln()).sum::<f64>() / kernels.len() as f64).exp());
    Timing {
        paired_launches: kernels.iter().map(|k| k.launches).sum(),
        cuda_paired_ns: kernels.iter().map(|k| k.cuda_ns).sum(),
        sycl_paired_ns: kernels.iter().map(|k| k.sycl_ns).sum(),
        kernels,
        cuda_unpaired: unpaired(&cuda_left, true),
        sycl_unpaired: unpaired(&sycl_left, false),
        runtime_launches: runtime.len(),
        runtime_ns: runtime.iter().map(|r| r.ns()).sum(),
        geo_mean,
        threshold,
        incomplete,
    }
}

/// Where the CUDA toolkit keeps CUPTI, as (include dir, library dir), looked
/// for beside the nvcc that builds the CUDA side: `extras/CUPTI` in the
/// toolkit's own layout, or the toolkit's include/lib64 (distribution
/// packages). Err says where it looked.
pub fn find_cupti(nvcc: &str) -> Result<(PathBuf, PathBuf), String> {
    let nvcc = Path::new(nvcc).canonicalize().unwrap_or_else(|_| PathBuf::from(nvcc));
    let mut roots = Vec::new();
    if let Some(root) = nvcc.parent().and_then(Path::parent) {
        roots.push(root.to_path_buf());
    }
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Ok(v) = std::env::var(var) {
            roots.push(PathBuf::from(v));
        }
    }
    roots.push(PathBuf::from("/usr/local/cuda"));
    let mut looked = Vec::new();
    for root in &roots {
        for base in [root.join("extras/CUPTI"), root.clone(), root.join("targets/x86_64-linux"), root.join("targets/sbsa-linux")] {
            let inc = base.join("include");
            looked.push(inc.join("cupti_activity.h").display().to_string());
            if !inc.join("cupti_activity.h").is_file() {
                continue;
            }
            for lib in ["lib64", "lib"] {
                let l = base.join(lib);
                if l.join("libcupti.so").exists() {
                    return Ok((inc, l));
                }
            }
        }
    }
    looked.dedup();
    Err(format!("CUPTI not found beside {} (looked for {})", nvcc.display(), looked.join(", ")))
}

/// Compiles the injection library into `work` with nvcc; returns its path.
pub fn build_timer(nvcc: &str, work: &Path, timeout: Duration) -> Result<PathBuf, String> {
    let (inc, lib) = find_cupti(nvcc)?;
    let src = work.join("syclify_kernel_timer.cpp");
    std::fs::write(&src, KERNEL_TIMER_SOURCE).map_err(|e| format!("{}: {e}", src.display()))?;
    let out = work.join("libsyclify_kernel_timer.so");
    let _ = std::fs::remove_file(&out);
    let args: Vec<String> = vec![
        "-std=c++14".into(),
        "-O2".into(),
        "-shared".into(),
        "-Xcompiler".into(),
        "-fPIC".into(),
        src.display().to_string(),
        format!("-I{}", inc.display()),
        format!("-L{}", lib.display()),
        "-lcupti".into(),
        "-Xlinker".into(),
        format!("-rpath,{}", lib.display()),
        "-o".into(),
        out.display().to_string(),
    ];
    let r = super::process::run(nvcc, &args, work, &[], timeout);
    if !r.ok() || !out.is_file() {
        let tail: Vec<&str> = r.stderr.lines().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
        return Err(format!("building the kernel timer failed ({}): {}", r.describe(), tail.join(" / ")));
    }
    Ok(out)
}

/// Reads a side's times file (written at the program's exit).
pub fn read_side(path: &Path, side: &str) -> Result<(Vec<KernelRecord>, bool), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|_| format!("the {side} program wrote no kernel times (it did not reach exit normally, or the CUDA driver did not load the timer)"))?;
    parse_records(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn us(ns: u64) -> String {
    format!("{:.1}", ns as f64 / 1000.0)
}

/// The human table of kernel times (the `top` kernels with most CUDA time).
pub fn table(t: &Timing, top: usize) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "  kernel times (GPU time per kernel, summed over {} paired launches; flagged above {:.2}x CUDA's):\n",
        t.paired_launches, t.threshold
    ));
    let width = t.kernels.iter().take(top).map(|k| k.short_name.chars().count().min(48)).max().unwrap_or(0).max(10);
    s.push_str(&format!("    {:<width$}  {:>8}  {:>12}  {:>12}  {:>9}\n", "kernel", "launches", "CUDA µs", "SYCL µs", "SYCL/CUDA"));
    for k in t.kernels.iter().take(top) {
        let name: String = if k.short_name.chars().count() > 48 { k.short_name.chars().take(47).collect::<String>() + "…" } else { k.short_name.clone() };
        s.push_str(&format!(
            "    {name:<width$}  {:>8}  {:>12}  {:>12}  {:>9.3}{}\n",
            k.launches,
            us(k.cuda_ns),
            us(k.sycl_ns),
            k.ratio,
            if k.slower { "  SLOWER" } else { "" }
        ));
    }
    if t.kernels.len() > top {
        s.push_str(&format!("    ... {} more kernels in validate.json\n", t.kernels.len() - top));
    }
    if t.paired_launches > 0 {
        s.push_str(&format!(
            "    {:<width$}  {:>8}  {:>12}  {:>12}  {:>9.3}\n",
            "all paired",
            t.paired_launches,
            us(t.cuda_paired_ns),
            us(t.sycl_paired_ns),
            t.sycl_paired_ns as f64 / t.cuda_paired_ns.max(1) as f64
        ));
    }
    if let Some(g) = t.geo_mean {
        s.push_str(&format!("    geometric mean of the kernels' ratios: {g:.3}\n"));
    }
    for (side, u) in [("CUDA", &t.cuda_unpaired), ("SYCL", &t.sycl_unpaired)] {
        if u.launches > 0 {
            s.push_str(&format!(
                "    unpaired {side} launches: {} ({} µs; {})\n",
                u.launches,
                us(u.ns),
                u.names.iter().take(3).map(|n| short_name(n)).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    if t.runtime_launches > 0 {
        s.push_str(&format!("    syclify runtime markers (event timestamps): {} launches, {} µs\n", t.runtime_launches, us(t.runtime_ns)));
    }
    if t.incomplete {
        s.push_str("    CUPTI dropped records: the figures are incomplete\n");
    }
    let slower: Vec<&str> = t.slower().map(|k| k.short_name.as_str()).collect();
    if !slower.is_empty() {
        s.push_str(&format!("    {} kernel(s) slower than {:.2}x CUDA: {}\n", slower.len(), t.threshold, slower.join(", ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(start: u64, ns: u64, grid: u32, block: u32, name: &str) -> KernelRecord {
        KernelRecord { start_ns: start, end_ns: start + ns, grid: [grid, 1, 1], block: [block, 1, 1], name: name.into() }
    }

    #[test]
    fn records_parse_and_sort_by_start() {
        let (r, dropped) = parse_records("20\t30\t4,1,1\t128,1,1\tb(int)\n10\t15\t2,3,1\t16,16,1\tvoid a<1>(float*, int)\n").unwrap();
        assert!(!dropped);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].name, "void a<1>(float*, int)");
        assert_eq!(r[0].grid, [2, 3, 1]);
        assert_eq!(r[1].ns(), 10);
        assert!(parse_records("# records were dropped\n").unwrap().1);
        assert!(parse_records("1\t2\t3\n").is_err());
        assert!(parse_records("1\t2\t1,1\t1,1,1\tk\n").is_err());
    }

    #[test]
    fn short_names_drop_return_type_and_parameters() {
        assert_eq!(short_name("void fill<true, float>(int, float*, float)"), "fill<true, float>");
        assert_eq!(short_name("gelu(__half*, __half const*, int, int)"), "gelu");
        assert_eq!(short_name("k(void (*)(int))"), "k");
        assert_eq!(short_name("plain"), "plain");
    }

    #[test]
    fn launches_pair_by_order_and_geometry() {
        let cuda = vec![rec(0, 100, 4, 128, "a(int)"), rec(10, 50, 8, 256, "b(int)"), rec(20, 100, 4, 128, "a(int)"), rec(30, 7, 1, 32, "cublas_gemm")];
        let sycl = vec![
            rec(0, 1, 1, 1, "void __acpp_kernel<syclify::event_record(...)::{lambda()#1}>()"),
            rec(1, 110, 4, 128, "main::{lambda#1}"),
            rec(2, 9, 2, 64, "onemkl_gemm"),
            rec(3, 40, 8, 256, "main::{lambda#2}"),
            rec(4, 130, 4, 128, "main::{lambda#1}"),
        ];
        let t = pair(&cuda, &sycl, 1.15, false);
        assert_eq!(t.paired_launches, 3);
        assert_eq!(t.kernels[0].name, "a(int)");
        assert_eq!((t.kernels[0].launches, t.kernels[0].cuda_ns, t.kernels[0].sycl_ns), (2, 200, 240));
        assert!(t.kernels[0].slower);
        assert!(!t.kernels[1].slower);
        assert_eq!((t.cuda_unpaired.launches, t.cuda_unpaired.ns), (1, 7));
        assert_eq!((t.sycl_unpaired.launches, t.sycl_unpaired.names.clone()), (1, vec!["onemkl_gemm".to_string()]));
        assert_eq!((t.runtime_launches, t.runtime_ns), (1, 1));
        let g = t.geo_mean.unwrap();
        assert!((g - (1.2f64 * 0.8).sqrt()).abs() < 1e-9);
        assert!(table(&t, 20).contains("SLOWER"));
    }

    #[test]
    fn interleaved_shapes_still_pair() {
        // two streams: SYCL ran b before a where CUDA ran a first
        let cuda = vec![rec(0, 10, 1, 32, "a"), rec(1, 20, 2, 32, "b")];
        let sycl = vec![rec(0, 21, 2, 32, "y"), rec(1, 11, 1, 32, "x")];
        let t = pair(&cuda, &sycl, 1.15, false);
        assert_eq!(t.paired_launches, 2);
        assert_eq!(t.sycl_unpaired.launches, 0);
    }
}
