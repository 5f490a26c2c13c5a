//! Throughput and memory of a whole migration: the fixtures are replicated
//! into a temporary tree of about 200k lines, then migrated and written
//! (parse, index, rewrite, emit, report) in-process. Prints lines/s, files/s
//! and peak resident memory. Run with `cargo bench --bench migrate`
//! (SYCLIFY_BENCH_LINES sets the size, SYCLIFY_BENCH_RUNS the repetitions).

use std::path::Path;
use std::time::Instant;
use syclify::mapping::Mappings;
use syclify::project::{self, Options};

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()
}

fn copy_tree(from: &Path, to: &Path, lines: &mut usize, files: &mut usize) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let name = p.file_name().unwrap();
        if p.is_dir() {
            copy_tree(&p, &to.join(name), lines, files);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("cu" | "cuh" | "h")) {
            let text = std::fs::read_to_string(&p).unwrap();
            *lines += text.lines().count();
            *files += 1;
            std::fs::write(to.join(name), text).unwrap();
        }
    }
}

fn walk_bytes(p: &Path) -> u64 {
    let mut n = 0;
    for e in std::fs::read_dir(p).unwrap().flatten() {
        let p = e.path();
        n += if p.is_dir() { walk_bytes(&p) } else { e.metadata().map(|m| m.len()).unwrap_or(0) };
    }
    n
}

fn main() {
    let target: usize = std::env::var("SYCLIFY_BENCH_LINES").ok().and_then(|v| v.parse().ok()).unwrap_or(200_000);
    let runs: usize = std::env::var("SYCLIFY_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let (mut lines, mut files, mut copies) = (0usize, 0usize, 0usize);
    while lines < target {
        copy_tree(&fixtures, &input.join(format!("copy{copies:04}")), &mut lines, &mut files);
        copies += 1;
    }
    let bytes = walk_bytes(&input);
    println!("input: {files} files, {lines} lines, {:.1} MiB ({copies} copies of fixtures/)", bytes as f64 / 1048576.0);
    let threads = rayon::current_num_threads();
    let mut best = f64::MAX;
    for run in 0..runs {
        let out = tmp.path().join(format!("out{run}"));
        let opts = Options {
            inputs: vec![input.clone()],
            in_root: None,
            out_root: out,
            mappings: Mappings::builtin(),
            include_dirs: vec![],
            unit_defines: Default::default(),
            copy_others: false,
        };
        let start = Instant::now();
        let m = project::migrate(&opts).expect("valid options");
        let failures = syclify::emit::emit(&m);
        let report = syclify::report::build(&m);
        std::fs::write(m.out_root.join("syclify-report.json"), syclify::report::to_json(&report)).unwrap();
        let secs = start.elapsed().as_secs_f64();
        assert!(failures.is_empty());
        best = best.min(secs);
        println!("run {run}: {secs:.3} s  ({:.0} lines/s, {:.0} files/s, {threads} threads)", lines as f64 / secs, files as f64 / secs);
        std::fs::remove_dir_all(&m.out_root).unwrap();
    }
    println!("best: {best:.3} s = {:.0} lines/s", lines as f64 / best);
    if let Some(kib) = peak_rss_kib() {
        println!("peak resident memory: {:.1} MiB", kib as f64 / 1024.0);
    }
}
