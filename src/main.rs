use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use syclify::diagnostics::Code;
use syclify::mapping::Mappings;
use syclify::project::{self, Options};
use syclify::{emit, report};

#[derive(Parser)]
#[command(name = "syclify", version, about = "Migrates CUDA C++ projects to SYCL 2020")]
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
}

#[derive(Subcommand)]
enum Command {
    /// Migrate CUDA files or directories into a SYCL tree under --out-root.
    Migrate {
        /// Files or directories (walked, honouring .gitignore).
        #[arg(required = true)]
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
    },
    /// Print the long explanation of a diagnostic code (e.g. SY0202), or list all codes.
    Explain { code: Option<String> },
    /// Print the syntax tree of a file (for debugging rules).
    #[command(hide = true)]
    DumpTree { path: PathBuf },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli.command {
        Command::Migrate { paths, out_root, in_root, rule_files, diagnostics, jobs } => {
            if let Some(j) = jobs {
                let _ = rayon::ThreadPoolBuilder::new().num_threads(j.max(1)).build_global();
            }
            let mut mappings = Mappings::builtin();
            for f in &rule_files {
                if let Err(e) = mappings.load_file(f) {
                    eprintln!("syclify: error: rule file {e}");
                    return ExitCode::from(2);
                }
            }
            let opts = Options { inputs: paths, in_root, out_root, mappings };
            let m = match project::migrate(&opts) {
                Ok(m) => m,
                Err(e) => {
                    eprintln!("syclify: error: {}", e.0);
                    return ExitCode::from(2);
                }
            };
            let failures = emit::emit(&m);
            let r = report::build(&m);
            let out_root = m.out_root.display().to_string();
            let mut code = m.exit_code();
            for (name, text) in [("syclify-report.json", report::to_json(&r)), ("syclify-report.md", report::to_markdown(&r))] {
                if let Err(e) = emit::write_atomic(&m.out_root.join(name), &text) {
                    eprintln!("syclify: error: cannot write {name}: {e}");
                    code = 1;
                }
            }
            for (f, e) in &failures {
                eprintln!("syclify: error: cannot write {out_root}/{f}: {e}");
                code = 1;
            }
            match diagnostics {
                DiagFormat::Summary => {}
                DiagFormat::Gcc => {
                    for f in &r.files {
                        for d in &f.diagnostics {
                            println!("{}", d.gcc());
                        }
                    }
                }
                DiagFormat::Json => print!("{}", report::to_json(&r)),
            }
            eprint!("{}", report::summary(&r, &out_root, 12));
            ExitCode::from(code as u8)
        }
        Command::Explain { code } => match code {
            None => {
                for c in Code::ALL {
                    let i = c.info();
                    println!("{}  {:<8} {:<34} {}", i.code, i.severity.as_str(), i.name, i.summary);
                }
                ExitCode::SUCCESS
            }
            Some(s) => match Code::from_str(&s) {
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
        Command::DumpTree { path } => {
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("syclify: error: {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            };
            let parsed = syclify::parse::parse_file(&text, &syclify::mask::find_qualifier_macros(&text));
            print!("{}", syclify::syntax::dump(parsed.tree.root_node(), &text));
            ExitCode::SUCCESS
        }
    }
}
