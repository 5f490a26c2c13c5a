//! Running a command with a timeout, capturing its output and wall time.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum Outcome {
    /// Exited with this code.
    Exited(i32),
    /// Killed by this signal (a crash).
    Signaled(i32),
    /// Killed after the timeout (seconds).
    TimedOut(u64),
    /// Could not be started.
    NotStarted(String),
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct RunResult {
    pub command: String,
    pub outcome: Outcome,
    pub stdout: String,
    pub stderr: String,
    pub seconds: f64,
}

impl RunResult {
    pub fn ok(&self) -> bool {
        self.outcome == Outcome::Exited(0)
    }
    /// One line for tables: `exit 0`, `crashed (signal 11)`, `timed out after 10 s`.
    pub fn describe(&self) -> String {
        match &self.outcome {
            Outcome::Exited(c) => format!("exit {c}"),
            Outcome::Signaled(s) => format!("crashed (signal {s})"),
            Outcome::TimedOut(t) => format!("timed out after {t} s"),
            Outcome::NotStarted(e) => format!("not started: {e}"),
        }
    }
}

fn read_all(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    })
}

/// Runs `program args` in `dir` with extra environment variables; the whole
/// process group is killed at the timeout.
pub fn run(program: &str, args: &[String], dir: &Path, env: &[(String, String)], timeout: Duration) -> RunResult {
    let command = std::iter::once(program.to_string()).chain(args.iter().cloned()).collect::<Vec<_>>().join(" ");
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return RunResult { command, outcome: Outcome::NotStarted(e.to_string()), stdout: String::new(), stderr: String::new(), seconds: 0.0 };
        }
    };
    let out = read_all(child.stdout.take().expect("piped"));
    let err = read_all(child.stderr.take().expect("piped"));
    let outcome = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                #[cfg(unix)]
                {
                    use std::os::unix::process::ExitStatusExt;
                    if let Some(sig) = status.signal() {
                        break Outcome::Signaled(sig);
                    }
                }
                break Outcome::Exited(status.code().unwrap_or(-1));
            }
            Ok(None) if start.elapsed() >= timeout => {
                kill_group(&mut child);
                let _ = child.wait();
                break Outcome::TimedOut(timeout.as_secs());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => break Outcome::NotStarted(e.to_string()),
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    RunResult { command, outcome, stdout: out.join().unwrap_or_default(), stderr: err.join().unwrap_or_default(), seconds }
}

/// Runs a shell command line (`sh -c`).
pub fn run_shell(line: &str, dir: &Path, env: &[(String, String)], timeout: Duration) -> RunResult {
    let mut r = run("sh", &["-c".to_string(), line.to_string()], dir, env, timeout);
    r.command = line.to_string();
    r
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        // the child leads its own process group: end it with everything it started
        unsafe {
            libc::kill(-(child.id() as i32), libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

/// Is `program` on PATH (or an existing path)?
pub fn find_program(program: &str) -> Option<std::path::PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|c| c.is_file())
}
