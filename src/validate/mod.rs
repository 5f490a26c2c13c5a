//! `syclify validate`: build the CUDA original with nvcc and the migrated
//! tree with a SYCL compiler, run both with the same arguments and a
//! timeout, and compare exit codes and normalised output.
//!
//! The verdict is `passed` only when both sides were built and run and
//! matched; a side that could not be built or run for want of a tool or a GPU
//! makes the verdict `not-validated` (exit code 3), never `passed`.

pub mod compare;
pub mod process;
pub mod timing;
pub mod toolchain;

use compare::{CompareOptions, Difference};
use process::{Outcome, RunResult, run_shell};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;
use toolchain::{Gpu, SyclCompiler};

#[derive(Debug, Clone)]
pub struct ValidateOptions {
    pub project: PathBuf,
    /// An existing migrated tree (else the project is migrated first).
    pub migrated: Option<PathBuf>,
    /// Where to migrate to when `migrated` is not given (default: under `work_dir`).
    pub out_root: Option<PathBuf>,
    /// Where binaries, logs and the JSON result go (default: a temporary directory).
    pub work_dir: Option<PathBuf>,
    /// Build command templates (placeholders `{cxx}` `{flags}` `{sources}` `{exe}` `{dir}`).
    pub cuda_build: Option<String>,
    pub sycl_build: Option<String>,
    /// Arguments for both programs (a shell fragment appended to `{exe}`).
    pub run_args: String,
    pub run_timeout: Duration,
    pub build_timeout: Duration,
    pub nvcc: Option<String>,
    pub nvcc_flags: Option<String>,
    pub sycl_cxx: Option<String>,
    pub sycl_flags: Option<String>,
    /// Override of the GPU architecture (`sm_90`); default: read from nvidia-smi.
    pub arch: Option<String>,
    pub compare: CompareOptions,
    pub mappings: crate::mapping::Mappings,
    /// `--time`: time every kernel of both runs.
    pub time: Option<TimeOptions>,
}

/// `validate --time`.
#[derive(Debug, Clone)]
pub struct TimeOptions {
    /// A kernel whose SYCL time is above this multiple of its CUDA time is flagged.
    pub threshold: f64,
    /// Flagged kernels fail the verdict (a performance gate for CI).
    pub fail_slower: bool,
    /// A kernel-timer library built before (else it is built with nvcc).
    pub timer: Option<PathBuf>,
}

/// The kernel times of both runs, or why there are none.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "detail")]
pub enum TimingStep {
    Done(timing::Timing),
    Skipped(String),
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case", tag = "status", content = "detail")]
pub enum Step {
    Done(RunResult),
    /// Not attempted, and why (a missing tool or GPU, or an earlier failure).
    Skipped(String),
}

impl Step {
    fn ok(&self) -> bool {
        matches!(self, Step::Done(r) if r.ok())
    }
    fn result(&self) -> Option<&RunResult> {
        match self {
            Step::Done(r) => Some(r),
            Step::Skipped(_) => None,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Side {
    pub compiler: Option<String>,
    pub dir: String,
    pub build: Step,
    pub run: Step,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Passed,
    Failed,
    NotValidated,
}

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub compared: bool,
    pub exit_codes_match: bool,
    pub stdout_differences: Vec<Difference>,
    pub note: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ValidateResult {
    pub project: String,
    /// Where the binaries and validate.json are.
    pub work_dir: String,
    pub gpu: Option<Gpu>,
    pub sycl_compiler: Option<SyclCompiler>,
    pub cuda: Side,
    pub sycl: Side,
    pub comparison: Comparison,
    pub verdict: Verdict,
    /// What could not be checked, in words.
    pub not_checked: Vec<String>,
    /// Per-kernel times (`--time`).
    pub timing: Option<TimingStep>,
}

impl ValidateResult {
    pub fn exit_code(&self) -> i32 {
        match self.verdict {
            Verdict::Passed => 0,
            Verdict::Failed => 1,
            Verdict::NotValidated => 3,
        }
    }
}

/// Source files of a tree to build without a build system.
fn sources(dir: &Path, exts: &[&str], skip: &[&Path]) -> Vec<String> {
    let mut out = Vec::new();
    for e in ignore::WalkBuilder::new(dir).standard_filters(false).sort_by_file_name(|a, b| a.cmp(b)).build().flatten() {
        let p = e.path();
        if !p.is_file() || skip.iter().any(|s| p.starts_with(s)) {
            continue;
        }
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if exts.iter().any(|x| name.ends_with(x)) {
            out.push(p.strip_prefix(dir).unwrap_or(p).display().to_string());
        }
    }
    out
}

fn quote(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c)) { s.to_string() } else { format!("'{}'", s.replace('\'', "'\\''")) }
}

fn fill(template: &str, cxx: &str, flags: &str, sources: &[String], exe: &Path, dir: &Path) -> String {
    template
        .replace("{cxx}", &quote(cxx))
        .replace("{flags}", flags)
        .replace("{sources}", &sources.iter().map(|s| quote(s)).collect::<Vec<_>>().join(" "))
        .replace("{exe}", &quote(&exe.display().to_string()))
        .replace("{dir}", &quote(&dir.display().to_string()))
}

const DEFAULT_BUILD: &str = "{cxx} {flags} {sources} -o {exe}";

pub fn validate(o: &ValidateOptions) -> Result<ValidateResult, String> {
    if !o.project.is_dir() {
        return Err(format!("{}: not a directory", o.project.display()));
    }
    let project = o.project.canonicalize().map_err(|e| format!("{}: {e}", o.project.display()))?;
    let work = match &o.work_dir {
        Some(w) => {
            std::fs::create_dir_all(w).map_err(|e| format!("{}: {e}", w.display()))?;
            w.canonicalize().map_err(|e| e.to_string())?
        }
        None => tempfile::Builder::new().prefix("syclify-validate-").tempdir().map_err(|e| e.to_string())?.keep(),
    };
    if work.starts_with(&project) {
        return Err("the work directory must not be inside the CUDA project".into());
    }
    let mut not_checked = Vec::new();

    // the migrated tree
    let migrated = match &o.migrated {
        Some(m) => m.canonicalize().map_err(|e| format!("{}: {e}", m.display()))?,
        None => {
            let out = o.out_root.clone().unwrap_or_else(|| work.join("migrated"));
            let opts = crate::project::Options {
                inputs: vec![project.clone()],
                in_root: None,
                out_root: out,
                mappings: o.mappings.clone(),
                include_dirs: vec![],
                unit_defines: Default::default(),
                // the run may read the program's data files where it runs
                copy_others: true,
            };
            let m = crate::project::migrate(&opts).map_err(|e| e.0)?;
            let failures = crate::emit::emit(&m);
            if !failures.is_empty() {
                return Err(format!("cannot write the migrated tree: {}", failures[0].1));
            }
            if m.exit_code() != 0 {
                not_checked.push("the migration reported errors (see the migrated tree's syclify-report.md)".to_string());
            }
            m.out_root
        }
    };

    let gpu = detect_gpu_or(o.arch.as_deref());
    let arch = o.arch.clone().or_else(|| gpu.as_ref().map(|g| g.arch.clone()));

    // CUDA side
    let nvcc = if o.cuda_build.is_some() { o.nvcc.clone().or_else(|| toolchain::find_nvcc(None)) } else { toolchain::find_nvcc(o.nvcc.as_deref()) };
    let cuda_exe = work.join("cuda.exe");
    let cuda_sources = sources(&project, &[".cu", ".cpp", ".cc", ".cxx"], &[&work, &migrated]);
    let cuda_build = match (&o.cuda_build, &nvcc) {
        (None, None) => Step::Skipped("no nvcc found (looked on PATH and in $CUDA_HOME/bin, /usr/local/cuda/bin; name one with --nvcc)".into()),
        (template, nvcc) => {
            let flags = o.nvcc_flags.clone().unwrap_or_else(|| format!("-O2{}", arch.as_ref().map(|a| format!(" -arch={a}")).unwrap_or_default()));
            let line = fill(template.as_deref().unwrap_or(DEFAULT_BUILD), nvcc.as_deref().unwrap_or("nvcc"), &flags, &cuda_sources, &cuda_exe, &project);
            Step::Done(run_shell(&line, &project, &[], o.build_timeout))
        }
    };

    // SYCL side
    let sycl =
        if o.sycl_build.is_some() && o.sycl_cxx.is_none() { toolchain::find_sycl_compiler(None) } else { toolchain::find_sycl_compiler(o.sycl_cxx.as_deref()) };
    let sycl_exe = work.join("sycl.exe");
    let include = migrated.join("include");
    let sycl_sources = sources(&migrated, &[".dp.cpp", ".cpp", ".cc", ".cxx"], &[&include]);
    let sycl_build = match (&o.sycl_build, &sycl) {
        (None, None) => Step::Skipped(format!(
            "no SYCL compiler found (looked for {} on PATH, clang++ only if it accepts -fsycl; name one with --sycl-cxx, flags with --sycl-flags)",
            toolchain::SYCL_CANDIDATES.join(", ")
        )),
        (template, compiler) => {
            let kind = compiler.as_ref().map(|c| c.kind.clone()).unwrap_or(toolchain::SyclKind::Other);
            let flags = match &o.sycl_flags {
                Some(f) => f.clone(),
                None => toolchain::sycl_flags(&kind, arch.as_deref()).join(" "),
            };
            let flags = format!("{flags} -I{}", quote(&include.display().to_string()));
            let cxx = compiler.as_ref().map(|c| c.path.clone()).unwrap_or_else(|| "c++".into());
            let line = fill(template.as_deref().unwrap_or(DEFAULT_BUILD), &cxx, &flags, &sycl_sources, &sycl_exe, &migrated);
            Step::Done(run_shell(&line, &migrated, &[], o.build_timeout))
        }
    };

    // runs: default builds target the GPU, so they need one
    let needs_gpu_cuda = o.cuda_build.is_none();
    let needs_gpu_sycl = o.sycl_build.is_none();
    let run_side = |build: &Step, exe: &Path, dir: &Path, needs_gpu: bool, env: Vec<(String, String)>| -> Step {
        match build {
            Step::Skipped(_) => Step::Skipped("not built".into()),
            Step::Done(r) if !r.ok() => Step::Skipped(format!("the build failed ({})", r.describe())),
            Step::Done(_) if needs_gpu && gpu.is_none() => Step::Skipped("no NVIDIA GPU found (nvidia-smi missing or failing)".into()),
            Step::Done(_) => {
                // exec: the program replaces the shell, so a crash is seen as its signal
                let line = format!("exec {} {}", quote(&exe.display().to_string()), o.run_args);
                Step::Done(run_shell(line.trim_end(), dir, &env, o.run_timeout))
            }
        }
    };
    // --time: the kernel timer is loaded into both runs by the CUDA driver
    let cuda_times = work.join("cuda-kernel-times.tsv");
    let sycl_times = work.join("sycl-kernel-times.tsv");
    // (built only when both sides were: nothing runs otherwise)
    let timer = o.time.as_ref().filter(|_| cuda_build.ok() && sycl_build.ok()).map(|t| match &t.timer {
        Some(lib) if lib.is_file() => lib.canonicalize().map_err(|e| format!("{}: {e}", lib.display())),
        Some(lib) => Err(format!("{}: no such kernel timer library", lib.display())),
        None => match toolchain::find_nvcc(o.nvcc.as_deref()) {
            Some(nvcc) => timing::build_timer(&nvcc, &work, o.build_timeout),
            None => Err("no nvcc to build the kernel timer with (name one with --nvcc)".into()),
        },
    });
    // a previous run's records must not be read as this run's
    for stale in [&cuda_times, &sycl_times] {
        let _ = std::fs::remove_file(stale);
    }
    let timer_env = |times: &Path| -> Vec<(String, String)> {
        match &timer {
            Some(Ok(lib)) => {
                vec![("CUDA_INJECTION64_PATH".into(), lib.display().to_string()), (timing::TIMES_ENV.into(), times.display().to_string())]
            }
            _ => vec![],
        }
    };
    let cuda_run = run_side(&cuda_build, &cuda_exe, &project, needs_gpu_cuda, timer_env(&cuda_times));
    let mut sycl_env = sycl.as_ref().map(|c| toolchain::sycl_run_env(&c.kind)).unwrap_or_default();
    sycl_env.extend(timer_env(&sycl_times));
    let sycl_run = run_side(&sycl_build, &sycl_exe, &migrated, needs_gpu_sycl, sycl_env);
    let timing = o.time.as_ref().map(|t| match (&timer, cuda_run.result(), sycl_run.result()) {
        (Some(Err(why)), _, _) => TimingStep::Skipped(why.clone()),
        (_, None, _) | (_, _, None) => TimingStep::Skipped("a side did not run".into()),
        _ => match (timing::read_side(&cuda_times, "CUDA"), timing::read_side(&sycl_times, "SYCL")) {
            (Ok((c, cd)), Ok((s, sd))) => TimingStep::Done(timing::pair(&c, &s, t.threshold, cd || sd)),
            (Err(e), _) | (_, Err(e)) => TimingStep::Skipped(e),
        },
    });

    // comparison
    let comparison = match (cuda_run.result(), sycl_run.result()) {
        (Some(c), Some(s)) => {
            let exit_codes_match = c.outcome == s.outcome;
            let diffs = compare::compare(&c.stdout, &s.stdout, &o.compare);
            let note = match (&c.outcome, &s.outcome) {
                (Outcome::TimedOut(_), _) | (_, Outcome::TimedOut(_)) => "a run timed out".to_string(),
                (Outcome::Signaled(_), _) | (_, Outcome::Signaled(_)) => "a run crashed".to_string(),
                _ if exit_codes_match && diffs.is_empty() => "exit codes and output match".to_string(),
                _ => format!("{} output line(s) differ{}", diffs.len(), if exit_codes_match { "" } else { "; exit codes differ" }),
            };
            Comparison { compared: true, exit_codes_match, stdout_differences: diffs, note }
        }
        _ => Comparison { compared: false, exit_codes_match: false, stdout_differences: vec![], note: "not compared: a side did not run".into() },
    };

    // what could not be checked
    for (name, build, run) in [("CUDA", &cuda_build, &cuda_run), ("SYCL", &sycl_build, &sycl_run)] {
        if let Step::Skipped(why) = build {
            not_checked.push(format!("the {name} side was not built: {why}"));
        } else if let Step::Skipped(why) = run
            && !why.starts_with("the build failed")
        {
            not_checked.push(format!("the {name} program was not run: {why}"));
        }
    }
    let tool_missing = matches!(cuda_build, Step::Skipped(_))
        || matches!(sycl_build, Step::Skipped(_))
        || matches!(&cuda_run, Step::Skipped(w) if w.starts_with("no NVIDIA"))
        || matches!(&sycl_run, Step::Skipped(w) if w.starts_with("no NVIDIA"));
    if let Some(TimingStep::Skipped(why)) = &timing {
        not_checked.push(format!("kernel times: {why}"));
    }
    // --fail-slower: a flagged kernel fails a run that matched; kernel
    // times that could not be taken leave it not validated
    let gate = o.time.as_ref().filter(|t| t.fail_slower).map(|_| match &timing {
        Some(TimingStep::Done(d)) => d.slower().next().is_none(),
        _ => false,
    });
    let verdict = if comparison.compared && comparison.exit_codes_match && comparison.stdout_differences.is_empty() && cuda_build.ok() && sycl_build.ok() {
        match (gate, &timing) {
            (Some(false), Some(TimingStep::Done(_))) => Verdict::Failed,
            (Some(false), _) => Verdict::NotValidated,
            _ => Verdict::Passed,
        }
    } else if tool_missing {
        Verdict::NotValidated
    } else {
        Verdict::Failed
    };
    let result = ValidateResult {
        project: project.display().to_string(),
        work_dir: work.display().to_string(),
        gpu,
        sycl_compiler: sycl,
        cuda: Side { compiler: nvcc, dir: project.display().to_string(), build: cuda_build, run: cuda_run },
        sycl: Side { compiler: None, dir: migrated.display().to_string(), build: sycl_build, run: sycl_run },
        comparison,
        verdict,
        not_checked,
        timing,
    };
    let json = serde_json::to_string_pretty(&result).map_err(|e| e.to_string())? + "\n";
    std::fs::write(work.join("validate.json"), json).map_err(|e| e.to_string())?;
    Ok(result)
}

fn detect_gpu_or(arch: Option<&str>) -> Option<Gpu> {
    let g = toolchain::detect_gpu();
    match (g, arch) {
        (Some(mut g), Some(a)) => {
            g.arch = a.to_string();
            Some(g)
        }
        (g, _) => g,
    }
}

fn step_cell(s: &Step) -> String {
    match s {
        Step::Done(r) => format!("{} ({:.2} s)", if r.ok() { "ok".to_string() } else { r.describe() }, r.seconds),
        Step::Skipped(why) => format!("skipped: {why}"),
    }
}

/// The human table.
pub fn table(r: &ValidateResult) -> String {
    let work = &r.work_dir;
    let mut s = String::new();
    s.push_str(&format!("syclify validate {}\n", r.project));
    s.push_str(&format!("  GPU: {}\n", r.gpu.as_ref().map(|g| format!("{} ({})", g.name, g.arch)).unwrap_or_else(|| "none found".into())));
    s.push_str(&format!("  CUDA build  {}\n", step_cell(&r.cuda.build)));
    s.push_str(&format!("  SYCL build  {}{}\n", step_cell(&r.sycl.build), r.sycl_compiler.as_ref().map(|c| format!(" [{}]", c.path)).unwrap_or_default()));
    s.push_str(&format!("  CUDA run    {}\n", step_cell(&r.cuda.run)));
    s.push_str(&format!("  SYCL run    {}\n", step_cell(&r.sycl.run)));
    s.push_str(&format!("  comparison  {}\n", r.comparison.note));
    for d in r.comparison.stdout_differences.iter().take(10) {
        s.push_str(&format!(
            "    line {}: expected {:?}, got {:?}\n",
            d.line,
            d.expected.as_deref().unwrap_or("<none>"),
            d.actual.as_deref().unwrap_or("<none>")
        ));
    }
    for (name, step) in [("CUDA build", &r.cuda.build), ("SYCL build", &r.sycl.build)] {
        if let Step::Done(b) = step
            && !b.ok()
        {
            let tail: Vec<&str> = b.stderr.lines().rev().take(8).collect::<Vec<_>>().into_iter().rev().collect();
            s.push_str(&format!("  {name} said:\n    {}\n", tail.join("\n    ")));
        }
    }
    match &r.timing {
        Some(TimingStep::Done(t)) => s.push_str(&timing::table(t, 20)),
        Some(TimingStep::Skipped(why)) => s.push_str(&format!("  kernel times not taken: {why}\n")),
        None => {}
    }
    let v = match r.verdict {
        Verdict::Passed => "PASSED",
        Verdict::Failed => "FAILED",
        Verdict::NotValidated => "NOT VALIDATED",
    };
    s.push_str(&format!("verdict: {v}\n"));
    for n in &r.not_checked {
        s.push_str(&format!("  not checked: {n}\n"));
    }
    s.push_str(&format!("  details: {work}/validate.json\n"));
    s
}
