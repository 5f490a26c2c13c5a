use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use syclify::diagnostics::Code;
use syclify::mapping::Mappings;
use syclify::project::{self, Options};
use syclify::{emit, report};

/// `--version`: the crate's version and the commit it was built from (build.rs).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("SYCLIFY_COMMIT"), ")");

/// The exit codes, one table for every command (`--help`, the man page, docs/reference/cli.md).
const EXIT_CODES: &str = "Exit codes:
  0    done: everything migrated (migrate), nothing unsupported (check), passed (validate)
  1    a file failed or a diagnostic of severity error was reported (migrate); something is unsupported (check); a build, run or comparison failed (validate); an unknown name (query); CUDA left (leftovers)
  2    usage error, or an I/O error that stopped the run (a full disk, a read-only out-root, an out-root another run holds): one message naming the file
  3    not validated: no nvcc, no SYCL compiler or no GPU for a side (validate)
  130  interrupted by SIGINT (143: SIGTERM): every file in the out-root is whole; run again to finish

Diagnostics on a terminal show the source line with a caret, in colour unless NO_COLOR is set; piped, or with --diagnostics gcc, one `file:line:col: severity: message [CODE]` line each.";

#[derive(Parser)]
#[command(name = "syclify", version = VERSION, about = "Migrates CUDA C++ projects to SYCL 2020", after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum DiagFormat {
    /// Only the one-screen summary on stderr.
    Summary,
    /// Every diagnostic as `file:line:col: severity: message [CODE]` on stdout.
    Gcc,
    /// The JSON report on stdout.
    Json,
    /// Every diagnostic as a GitHub Actions annotation (`::warning file=…,line=…::…`) on stdout.
    Github,
    /// A SARIF 2.1.0 log on stdout, for code scanning.
    Sarif,
}

#[derive(Clone, Copy, ValueEnum)]
enum CheckFormat {
    /// A table on stderr.
    Table,
    /// The check (totals, per name, per file) and every diagnostic, as JSON on stdout.
    Json,
    /// Every diagnostic as a SARIF 2.1.0 log on stdout.
    Sarif,
    /// Every diagnostic as `file:line:col: severity: message [CODE]` on stdout.
    Gcc,
    /// Every diagnostic as a GitHub Actions annotation on stdout.
    Github,
}

// one value per run: the size of its largest variant costs nothing
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Migrate CUDA files or directories into a SYCL tree under --out-root.
    Migrate {
        /// Files or directories (walked, honouring .gitignore); with -p, extra inputs.
        #[arg(required_unless_present = "compile_commands")]
        paths: Vec<PathBuf>,
        /// Where the migrated tree is written (mirrors the in-root).
        #[arg(long, short = 'o')]
        out_root: PathBuf,
        /// The root the out-root mirrors (default: the common directory of PATHs).
        #[arg(long)]
        in_root: Option<PathBuf>,
        /// Extra mapping rules (YAML, same schema as rules/*.yaml); repeatable, later files win.
        #[arg(long = "rule-file")]
        rule_files: Vec<PathBuf>,
        /// How diagnostics are printed.
        #[arg(long, value_enum, default_value = "summary")]
        diagnostics: DiagFormat,
        /// Worker threads (default: all cores). Output does not depend on it.
        #[arg(long, short = 'j')]
        jobs: Option<usize>,
        /// A directory searched for includes, as the compiler's `-I`
        /// (repeatable): quoted includes after the includer's directory and
        /// the in-root, `<angle>` includes there only; its files are migrated
        /// when they are in the in-root, and includes of them follow their new names.
        #[arg(short = 'I', long = "include-dir")]
        include_dirs: Vec<PathBuf>,
        /// A compilation database (compile_commands.json): migrate exactly its translation units
        /// and the project headers they include, with each one's -I, -D, -U, -include and -std.
        #[arg(short = 'p', long = "compile-commands")]
        compile_commands: Option<PathBuf>,
        /// Do not copy the files that are neither sources nor build files
        /// (input data, scripts, configuration); by default they are copied,
        /// so the migrated tree builds and runs where the original did.
        #[arg(long)]
        no_copy_others: bool,
        /// Migrate every file again: do not take the groups of files whose inputs did not change
        /// from what the last migration into the out-root kept (its `.syclify-cache`).
        #[arg(long)]
        fresh: bool,
    },
    /// How much work a migration is, writing nothing: per file and per CUDA name, what migrates
    /// automatically, what needs review and what is unsupported, with an effort estimate.
    ///
    /// Exit code: 0 nothing unsupported, 1 something unsupported (an error), 2 usage error.
    Check {
        /// Files or directories (walked, honouring .gitignore); with -p, extra inputs.
        #[arg(required_unless_present = "compile_commands")]
        paths: Vec<PathBuf>,
        /// The project root (default: the common directory of PATHs).
        #[arg(long)]
        in_root: Option<PathBuf>,
        /// Extra mapping rules (as for migrate).
        #[arg(long = "rule-file")]
        rule_files: Vec<PathBuf>,
        /// Directories searched for quoted includes (as for migrate).
        #[arg(short = 'I', long = "include-dir")]
        include_dirs: Vec<PathBuf>,
        /// A compilation database (as for migrate).
        #[arg(short = 'p', long = "compile-commands")]
        compile_commands: Option<PathBuf>,
        /// The table on stderr (default), or on stdout: the check as JSON, or every diagnostic as SARIF, gcc lines or GitHub annotations.
        #[arg(long, value_enum, default_value = "table")]
        format: CheckFormat,
    },
    /// Build the CUDA project with nvcc and its migration with a SYCL compiler, run both, compare.
    ///
    /// Exit code: 0 passed, 1 failed (a build, a run or the comparison), 2 usage error,
    /// 3 not validated (no nvcc, no SYCL compiler or no NVIDIA GPU for a side).
    Validate {
        /// The CUDA project directory.
        project: PathBuf,
        /// An existing migrated tree (default: migrate the project into the work directory).
        #[arg(long)]
        migrated: Option<PathBuf>,
        /// Build template for both sides (placeholders {cxx} {flags} {sources} {exe} {dir}).
        #[arg(long)]
        build: Option<String>,
        /// Build template for the CUDA side (default: "{cxx} {flags} {sources} -o {exe}" with nvcc).
        #[arg(long)]
        cuda_build: Option<String>,
        /// Build template for the SYCL side (default: "{cxx} {flags} {sources} -o {exe}").
        #[arg(long)]
        sycl_build: Option<String>,
        /// Arguments for both programs.
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        run: String,
        /// Seconds each run may take.
        #[arg(long, default_value_t = 120)]
        timeout: u64,
        /// Seconds each build may take.
        #[arg(long, default_value_t = 1800)]
        build_timeout: u64,
        /// The nvcc that builds the CUDA side (default: nvcc on PATH, else $CUDA_HOME/bin/nvcc or /usr/local/cuda/bin/nvcc)
        #[arg(long)]
        nvcc: Option<String>,
        /// Flags for nvcc, replacing the defaults (-O2 -arch=<the GPU's>).
        #[arg(long, allow_hyphen_values = true)]
        nvcc_flags: Option<String>,
        /// The SYCL compiler (default: the first of icpx, acpp, syclcc, clang++ -fsycl on PATH).
        #[arg(long)]
        sycl_cxx: Option<String>,
        /// Flags for the SYCL compiler, replacing the NVIDIA-targeting defaults.
        #[arg(long, allow_hyphen_values = true)]
        sycl_flags: Option<String>,
        /// GPU architecture (e.g. sm_90); default: read from nvidia-smi.
        #[arg(long)]
        arch: Option<String>,
        /// Drop output lines matching this regex before comparing (repeatable; AdaptiveCpp's messages at exit, `Couldn't destroy stream|event (error code = CUDA:4)`, are always dropped).
        #[arg(long = "ignore-lines")]
        ignore_lines: Vec<String>,
        /// Replace matches of this regex by <masked> before comparing (repeatable; hex addresses are always masked).
        #[arg(long = "mask")]
        masks: Vec<String>,
        /// Relative tolerance for numbers in the output.
        #[arg(long, default_value_t = 0.0)]
        rtol: f64,
        /// Absolute tolerance for numbers in the output.
        #[arg(long, default_value_t = 0.0)]
        atol: f64,
        /// Where binaries, logs and validate.json go (default: a new temporary directory).
        #[arg(long)]
        work_dir: Option<PathBuf>,
        /// Also write the JSON result here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Time every kernel of both runs on the GPU (a CUPTI library built with nvcc, loaded by the CUDA driver) and print CUDA against SYCL time per kernel.
        #[arg(long)]
        time: bool,
        /// With --time: flag kernels whose SYCL time is above this multiple of their CUDA time.
        #[arg(long, default_value_t = 1.15, requires = "time")]
        slower_than: f64,
        /// With --time: a flagged kernel fails the verdict (exit 1); kernel times that cannot be taken make it not validated (exit 3).
        #[arg(long, requires = "time")]
        fail_slower: bool,
        /// With --time: a kernel-timer library built before (default: build it with nvcc against CUPTI).
        #[arg(long, requires = "time")]
        kernel_timer: Option<PathBuf>,
    },
    /// Print the long explanation of a diagnostic code (e.g. SY0202), or list all codes.
    Explain {
        /// A code (`SY0202`) or its name (`local-memory-unresolved`)
        code: Option<String>,
        /// Every code with its explanation as one Markdown page (docs/reference/diagnostics.md)
        #[arg(long, conflicts_with = "code")]
        markdown: bool,
    },
    /// What a CUDA API, intrinsic, type, enumerator, header or construct becomes, with an example migrated live.
    ///
    /// Exit code 1 when the name is unknown (the closest known names are suggested).
    Query {
        /// A CUDA name: `cudaMemcpy`, `__shfl_down_sync`, `threadIdx`, `cudaStream_t`, `__shared__`, `cuda_fp16.h`
        name: String,
        /// Extra mapping rules (as for migrate)
        #[arg(long = "rule-file")]
        rule_files: Vec<PathBuf>,
    },
    /// Run a language server on stdin/stdout: diagnostics of the migration
    /// while CUDA sources are edited (the guide's chapter "Editors").
    Lsp,
    /// Print a shell completion script: `syclify completions bash > /etc/bash_completion.d/syclify`
    /// (zsh: a file `_syclify` on $fpath; fish: ~/.config/fish/completions/syclify.fish;
    /// PowerShell: add the output to $PROFILE).
    Completions {
        /// bash, zsh, fish, powershell or elvish
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `syclify man > syclify.1 && man ./syclify.1`.
    Man,
    /// Write the book's generated reference pages (the CLI, every diagnostic,
    /// every mapping) into DIR: `syclify reference docs/reference`.
    #[command(hide = true)]
    Reference { dir: PathBuf },
    /// Print the syntax tree of a file (for debugging rules).
    #[command(hide = true)]
    DumpTree { path: PathBuf },
    /// List CUDA names left outside comments in C/C++ files of migrated trees
    /// (`file:line:col: name`); exit code 1 when there is one (for scripts/corpus-check).
    #[command(hide = true)]
    Leftovers { paths: Vec<PathBuf> },
}

/// The CLI reference page (docs/reference/cli.md): every visible command's
/// `--help`, as clap renders it.
fn cli_page() -> String {
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = String::from(
        "<!-- generated by `syclify reference docs/reference` from the clap definition in src/main.rs: edit that, not this page -->\n\n# Command line\n\nEvery command's `--help`. `syclify completions SHELL` prints a completion script and `syclify man` the man page, both from the same definition.\n\n",
    );
    let help = |c: &mut clap::Command| c.render_long_help().to_string().trim_end().to_string();
    out.push_str(&format!("## syclify\n\n```text\n{}\n```\n", help(&mut cmd)));
    let names: Vec<String> = cmd.get_subcommands().filter(|c| !c.is_hide_set() && c.get_name() != "help").map(|c| c.get_name().to_string()).collect();
    for name in names {
        let sub = cmd.find_subcommand_mut(&name).expect("listed above");
        out.push_str(&format!("\n## syclify {name}\n\n```text\n{}\n```\n", help(sub)));
    }
    out
}

fn main() -> ExitCode {
    // a file-size limit (`ulimit -f`) reached while writing is an error
    // naming the file, like a full disk, not a core dump
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to ignored, before any thread starts
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli.command {
        Command::Migrate { paths, out_root, in_root, rule_files, diagnostics, jobs, include_dirs, compile_commands, no_copy_others, fresh } => {
            if let Some(j) = jobs {
                let _ = rayon::ThreadPoolBuilder::new().num_threads(j.max(1)).build_global();
            }
            let mappings = match load_mappings(&rule_files) {
                Ok(m) => m,
                Err(code) => return code,
            };
            // what the last migration into the out-root kept (the rule files' texts are part of its keys)
            let rule_texts: Vec<String> = rule_files.iter().map(|f| format!("{}:{}", f.display(), emit::hash(&std::fs::read(f).unwrap_or_default()))).collect();
            let store = if fresh { None } else { syclify::reuse::Store::open(&out_root, &rule_texts.join(" ")) };
            let opts = Options { inputs: paths, in_root, out_root, mappings, include_dirs, unit_defines: Default::default(), copy_others: !no_copy_others };
            let (opts, m) = match migrate_in_memory(opts, compile_commands.as_deref(), store.as_ref()) {
                Ok(done) => done,
                Err(code) => return code,
            };
            // (SYCLIFY_TIMING: the time of each step after the migration)
            let timing = project::Clock::start();
            let r = report::build(&m);
            timing.phase("after the migration, report");
            let out_root = m.out_root.display().to_string();
            let mut code = m.exit_code();
            // what the outputs depend on besides the inputs: the options and the rule files' text
            let mut options = format!("in-root={} include-dirs={:?}", m.in_root.display(), opts.include_dirs);
            for f in &rule_texts {
                options.push_str(&format!(" rule-file={f}"));
            }
            let reports = vec![("syclify-report.json".to_string(), report::to_json(&r)), ("syclify-report.md".to_string(), report::to_markdown(&r))];
            // SIGINT/SIGTERM from here on (before, nothing is written): the files being written are
            // finished, the others left as they are, the manifest says so; a
            // second signal ends the run at once (every file is still whole)
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let term = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
                let _ = signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, stop.clone());
                let _ = signal_hook::flag::register(sig, stop.clone());
            }
            let _ = signal_hook::flag::register(signal_hook::consts::SIGTERM, term.clone());
            // an out-root that cannot be written: one message, nothing written
            if let Err(e) = emit::prepare_out_root(&m.out_root) {
                eprintln!("syclify: error: cannot write into the out-root {out_root}: {e}; nothing was written");
                return ExitCode::from(2);
            }
            // one run at a time in an out-root: a second is refused before it
            // writes; the lock file is the first file made there (a read-only
            // out-root fails here)
            let lock = match emit::lock_out_root(&m.out_root) {
                Ok(lock) => lock,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    eprintln!("syclify: error: the out-root {out_root} is in use: {e} (lock {out_root}/{}); nothing was written", emit::LOCK_REL);
                    return ExitCode::from(2);
                }
                Err(e) => {
                    eprintln!("syclify: error: cannot write into the out-root {out_root}: {e}; nothing was written");
                    return ExitCode::from(2);
                }
            };
            // a run killed while it wrote left temporary files: removed
            let leftovers = if lock.unfinished_before { emit::remove_leftovers(&m.out_root) } else { 0 };
            timing.phase("after the migration, reports as text");
            let stats = emit::emit_incremental(&m, &emit::hash(options.as_bytes()), &reports, &stop);
            timing.phase("after the migration, emit");
            for (f, e) in &stats.refused {
                eprintln!("syclify: error: cannot write {out_root}/{f}: {e}");
                code = 1;
            }
            let unfinished = lock.unfinished_before || stats.last_unfinished;
            if let Some((f, e)) = stats.failures.first() {
                // one error: the first write that failed stopped the others
                let others = stats.not_written + stats.failures.len() - 1;
                eprintln!(
                    "syclify: error: cannot write {out_root}/{f}: {e}; the run stopped ({} written, {others} not written); every file in the out-root is whole, as the last run or this one wrote it: make room or make it writable, and run again",
                    stats.written.len()
                );
                return ExitCode::from(2);
            }
            // (a signal after the last file was written ends nothing early)
            if stats.stopped {
                eprintln!(
                    "syclify: interrupted: {} written, {} not written; every file in the out-root is whole, as the last run or this one wrote it: run again to finish",
                    stats.written.len(),
                    stats.not_written
                );
                return ExitCode::from(if term.load(std::sync::atomic::Ordering::Relaxed) { 143 } else { 130 });
            }
            // what the next migration into this out-root may take as it is
            // (a store that cannot be written costs the next run time, not results)
            let stored = if store.is_some() {
                // (a stored file's text, where it is the output, is taken from here)
                let outputs: std::collections::HashMap<&str, &str> = m.files.iter().filter_map(|f| Some((f.rel.as_str(), f.output.as_deref()?))).collect();
                emit::save_store(&m.reuse, &m.out_root, &|rel: &str| outputs.get(rel).copied()).map_err(|e| format!("{e}"))
            } else {
                Ok(0)
            };
            timing.phase("after the migration, store");
            match diagnostics {
                DiagFormat::Summary => {}
                DiagFormat::Gcc => print_each(&r, report::JsonDiagnostic::gcc),
                DiagFormat::Json => print!("{}", report::to_json(&r)),
                DiagFormat::Github => print_each(&r, report::JsonDiagnostic::github),
                DiagFormat::Sarif => print!("{}", syclify::sarif::to_json(&r, &m.in_root)),
            }
            // on a terminal, the source line and a caret under each (colour unless NO_COLOR)
            let read = |file: &str| std::fs::read_to_string(m.in_root.join(file)).ok();
            let style = match std::io::stderr().is_terminal() {
                true => report::SummaryStyle::Rich { source: &read, color: report::color_wanted(std::env::var_os("NO_COLOR").as_deref()) },
                false => report::SummaryStyle::Plain,
            };
            eprint!("{}", report::summary_styled(&r, &out_root, 12, &style));
            eprint!("{}", incremental_summary(&stats));
            if m.reuse.files_found > 0 {
                eprintln!(
                    "  incremental: {} of {} migrated files taken from the last migration (the inputs of their groups did not change; --fresh migrates them again)",
                    m.reuse.files_found,
                    m.reuse.files_found + m.reuse.files_computed
                );
            }
            if let Err(e) = stored {
                eprintln!("  incremental: warning: cannot keep this migration for the next in {out_root}/{}: {e}", syclify::reuse::DIR_REL);
            }
            timing.phase("after the migration, summary");
            if unfinished {
                let removed = if leftovers > 0 {
                    format!(" (removed {leftovers} temporary file{} it left)", if leftovers == 1 { "" } else { "s" })
                } else {
                    String::new()
                };
                eprintln!("  incremental: the last run into {out_root} did not finish; this run completed it{removed}");
            }
            ExitCode::from(code as u8)
        }
        Command::Validate {
            project,
            migrated,
            build,
            cuda_build,
            sycl_build,
            run,
            timeout,
            build_timeout,
            nvcc,
            nvcc_flags,
            sycl_cxx,
            sycl_flags,
            arch,
            ignore_lines,
            masks,
            rtol,
            atol,
            work_dir,
            json,
            time,
            slower_than,
            fail_slower,
            kernel_timer,
        } => {
            if !(slower_than.is_finite() && slower_than > 0.0) {
                eprintln!("syclify: error: --slower-than {slower_than}: a ratio above 0 (1.15 flags kernels 15 % slower than CUDA's)");
                return ExitCode::from(2);
            }
            let mut compare = syclify::validate::compare::CompareOptions { rtol, atol, ..Default::default() };
            for (flag, list, target) in [("--ignore-lines", &ignore_lines, &mut compare.ignore_lines), ("--mask", &masks, &mut compare.masks)] {
                for r in list {
                    match regex::Regex::new(r) {
                        Ok(r) => target.push(r),
                        Err(e) => {
                            eprintln!("syclify: error: {flag} {r:?}: {e}");
                            return ExitCode::from(2);
                        }
                    }
                }
            }
            let opts = syclify::validate::ValidateOptions {
                project,
                migrated,
                out_root: None,
                work_dir,
                cuda_build: cuda_build.or_else(|| build.clone()),
                sycl_build: sycl_build.or(build),
                run_args: run,
                run_timeout: std::time::Duration::from_secs(timeout),
                build_timeout: std::time::Duration::from_secs(build_timeout),
                nvcc,
                nvcc_flags,
                sycl_cxx,
                sycl_flags,
                arch,
                compare,
                mappings: Mappings::builtin(),
                time: time.then_some(syclify::validate::TimeOptions { threshold: slower_than, fail_slower, timer: kernel_timer }),
            };
            match syclify::validate::validate(&opts) {
                Ok(r) => {
                    print!("{}", syclify::validate::table(&r));
                    if let Some(j) = json
                        && let Err(e) = std::fs::write(&j, serde_json::to_string_pretty(&r).unwrap_or_default() + "\n")
                    {
                        eprintln!("syclify: error: {}: {e}", j.display());
                        return ExitCode::from(2);
                    }
                    ExitCode::from(r.exit_code() as u8)
                }
                Err(e) => {
                    eprintln!("syclify: error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Check { paths, in_root, rule_files, include_dirs, compile_commands, format } => {
            let mappings = match load_mappings(&rule_files) {
                Ok(m) => m,
                Err(code) => return code,
            };
            // the migration stays in memory: this out-root is never written
            let Ok(scratch) = tempfile::tempdir() else {
                eprintln!("syclify: error: cannot create a temporary directory");
                return ExitCode::from(2);
            };
            let opts = Options {
                inputs: paths,
                in_root,
                out_root: scratch.path().join("never-written"),
                mappings,
                include_dirs,
                unit_defines: Default::default(),
                copy_others: false,
            };
            let (_, m) = match migrate_in_memory(opts, compile_commands.as_deref(), None) {
                Ok(done) => done,
                Err(code) => return code,
            };
            let c = syclify::check::check(&m);
            let r = report::build(&m);
            match format {
                CheckFormat::Table => eprint!("{}", syclify::check::table(&c)),
                CheckFormat::Json => print!("{}", syclify::check::to_json(&c, &r)),
                CheckFormat::Sarif => print!("{}", syclify::sarif::to_json(&r, &m.in_root)),
                CheckFormat::Gcc => print_each(&r, report::JsonDiagnostic::gcc),
                CheckFormat::Github => print_each(&r, report::JsonDiagnostic::github),
            }
            ExitCode::from(if c.errors > 0 { 1 } else { 0 })
        }
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "syclify", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Command::Reference { dir } => {
            let mut pages = syclify::reference::pages();
            pages.push(syclify::reference::Page { path: "cli.md".into(), text: cli_page() });
            for p in pages {
                let path = dir.join(&p.path);
                let written = path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| std::fs::write(&path, p.text));
                if let Err(e) = written {
                    eprintln!("syclify: error: {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
            ExitCode::SUCCESS
        }
        Command::Man => match clap_mangen::Man::new(Cli::command()).render(&mut std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            // `syclify man | head`
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("syclify man: {e}");
                ExitCode::from(2)
            }
        },
        Command::Lsp => match syclify::lsp::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("syclify lsp: {e}");
                ExitCode::from(1)
            }
        },
        Command::Query { name, rule_files } => {
            let mappings = match load_mappings(&rule_files) {
                Ok(m) => m,
                Err(code) => return code,
            };
            let (text, known) = syclify::query::render(&name, &mappings);
            if known {
                print!("{text}");
                ExitCode::SUCCESS
            } else {
                eprint!("{text}");
                ExitCode::from(1)
            }
        }
        Command::Explain { markdown: true, .. } => {
            print!("{}", syclify::diagnostics::markdown_page());
            ExitCode::SUCCESS
        }
        Command::Explain { code, .. } => match code {
            None => {
                for c in Code::in_order() {
                    let i = c.info();
                    println!("{}  {:<8} {:<34} {}", i.code, i.severity.as_str(), i.name, i.summary);
                }
                ExitCode::SUCCESS
            }
            Some(s) => match Code::lookup(&s) {
                Some(c) => {
                    let i = c.info();
                    println!("{} ({}, {}): {}\n\n{}", i.code, i.name, i.severity.as_str(), i.summary, i.explanation);
                    ExitCode::SUCCESS
                }
                None => {
                    eprintln!("syclify: error: unknown code `{s}`; `syclify explain` lists them");
                    ExitCode::from(2)
                }
            },
        },
        Command::Leftovers { paths } => {
            let mut any = false;
            let mut files = Vec::new();
            for p in paths {
                let walker = ignore::WalkBuilder::new(&p).standard_filters(false).sort_by_file_name(|a, b| a.cmp(b)).build();
                for e in walker.flatten() {
                    let path = e.path();
                    let cxx = path.file_name().and_then(|n| n.to_str()).is_some_and(project::is_source_name);
                    if !cxx || path.components().any(|c| c.as_os_str() == "syclify") {
                        continue;
                    }
                    let Ok(bytes) = std::fs::read(path) else {
                        continue;
                    };
                    files.push((path.to_path_buf(), String::from_utf8_lossy(&bytes).into_owned()));
                }
            }
            // names the tree defines itself are the user's, not CUDA's
            let own: std::collections::BTreeSet<String> = files.iter().flat_map(|(_, t)| syclify::leftovers::defined_names(t)).collect();
            for (path, text) in &files {
                for (r, w) in syclify::leftovers::cuda_left(text, &|w| own.contains(w)) {
                    let line = text[..r.start].matches('\n').count() + 1;
                    let col = r.start - text[..r.start].rfind('\n').map(|x| x + 1).unwrap_or(0) + 1;
                    any = true;
                    // a closed pipe (`| head`) ends the listing, not in a panic
                    if writeln!(std::io::stdout(), "{}:{line}:{col}: {w}", path.display()).is_err() {
                        return ExitCode::from(1);
                    }
                }
            }
            ExitCode::from(any as u8)
        }
        Command::DumpTree { path } => {
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("syclify: error: {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            };
            let mut macros = syclify::index::MacroTable::default();
            macros.scan(&text);
            let parsed = syclify::parse::parse_file(&text, &macros.qualifier, &macros.names);
            print!("{}", syclify::syntax::dump(parsed.tree.root_node(), &text));
            ExitCode::SUCCESS
        }
    }
}

/// The progress bar on stderr: drawn only when stderr is a terminal and the
/// migration has taken over a second (CI logs and short runs stay clean; the
/// tests lower the second with `SYCLIFY_PROGRESS_AFTER_MS`).
struct ProgressBar {
    bar: indicatif::ProgressBar,
    started: std::time::Instant,
    after: std::time::Duration,
    shown: std::sync::atomic::AtomicBool,
    terminal: bool,
}

impl ProgressBar {
    fn new() -> Self {
        let bar = indicatif::ProgressBar::with_draw_target(Some(0), indicatif::ProgressDrawTarget::hidden());
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} migrating [{bar:30}] {pos}/{len} steps ({elapsed})") {
            bar.set_style(style.progress_chars("=> "));
        }
        let after = std::env::var("SYCLIFY_PROGRESS_AFTER_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
        ProgressBar {
            bar,
            started: std::time::Instant::now(),
            after: std::time::Duration::from_millis(after),
            shown: false.into(),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl project::Progress for ProgressBar {
    fn start(&self, steps: usize) {
        self.bar.set_length(steps as u64);
    }

    fn step(&self) {
        use std::sync::atomic::Ordering;
        if self.terminal && !self.shown.load(Ordering::Relaxed) && self.started.elapsed() >= self.after && !self.shown.swap(true, Ordering::Relaxed) {
            self.bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.bar.inc(1);
    }
}

/// What an incremental emit did, for stderr (nothing on a first migration
/// that wrote everything).
fn incremental_summary(s: &emit::EmitStats) -> String {
    let mut out = String::new();
    if s.first_run && s.stale.is_empty() && s.kept_edited.is_empty() {
        return out;
    }
    if s.written.is_empty() {
        out.push_str("  incremental: nothing changed since the last migration; no file written\n");
    } else {
        let why = if s.options_changed { " (the options or syclify's version changed)" } else { "" };
        out.push_str(&format!("  incremental: {} written, {} unchanged{why}\n", s.written.len(), s.unchanged));
    }
    for f in &s.kept_edited {
        out.push_str(&format!("  kept: {f} was edited by hand since the last migration, and its input has not changed\n"));
    }
    for f in &s.overwritten_edits {
        out.push_str(&format!("  overwritten: {f} had been edited by hand, and its input changed\n"));
    }
    for f in &s.stale {
        out.push_str(&format!("  stale: {f} comes from an input that is gone; not deleted\n"));
    }
    out
}

/// The built-in mapping tables with the rule files on top; Err is the exit code.
fn load_mappings(rule_files: &[PathBuf]) -> Result<Mappings, ExitCode> {
    let mut mappings = Mappings::builtin();
    for f in rule_files {
        if let Err(e) = mappings.load_file(f) {
            eprintln!("syclify: error: rule file {e}");
            return Err(ExitCode::from(2));
        }
    }
    Ok(mappings)
}

/// Migrates in memory (with the compilation database, and the progress
/// bar); Err is the exit code of a usage error, already reported.
fn migrate_in_memory(
    opts: Options,
    compile_commands: Option<&std::path::Path>,
    store: Option<&syclify::reuse::Store>,
) -> Result<(Options, project::Migration), ExitCode> {
    let opts = with_compile_db(opts, compile_commands).map_err(|e| {
        eprintln!("syclify: error: {e}");
        ExitCode::from(2)
    })?;
    let bar = ProgressBar::new();
    let m = project::migrate_reusing(&opts, &bar, store);
    bar.finish();
    let m = m.map_err(|e| {
        eprintln!("syclify: error: {}", e.0);
        ExitCode::from(2)
    })?;
    Ok((opts, m))
}

/// Prints every diagnostic of the report on stdout, one line each.
fn print_each(r: &report::JsonReport, line: fn(&report::JsonDiagnostic) -> String) {
    for d in r.files.iter().flat_map(|f| f.diagnostics.iter()) {
        println!("{}", line(d));
    }
}

/// Adds a compilation database's units (and their `-include` files) to the
/// inputs, its include directories after those given, and each unit's
/// `-D`/`-U`/`-std`.
fn with_compile_db(mut opts: Options, db: Option<&std::path::Path>) -> Result<Options, String> {
    let Some(path) = db else { return Ok(opts) };
    let db = syclify::compile_db::load(path)?;
    if db.files.is_empty() {
        return Err(format!("{}: the compilation database lists no translation unit", path.display()));
    }
    for f in &db.files {
        if !f.is_file() {
            return Err(format!("{}: it lists {}, which is not a file", path.display(), f.display()));
        }
    }
    for f in db.files.iter().chain(db.flags.values().flat_map(|u| u.forced_includes.iter())) {
        if f.is_file() && !opts.inputs.contains(f) {
            opts.inputs.push(f.clone());
        }
    }
    for d in db.include_dirs {
        if !opts.include_dirs.contains(&d) {
            opts.include_dirs.push(d);
        }
    }
    opts.unit_defines = db.flags.into_iter().map(|(f, u)| (f, u.defines)).collect();
    Ok(opts)
}
