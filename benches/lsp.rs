//! The language server's latency: from a change to a 5,000-line CUDA file
//! to its diagnostics, as an editor sees it (the server runs in this
//! process on an in-memory connection; the debounce, 20 ms, is included).
//!
//! Four documents of about 5,000 lines, built from the project's fixtures
//! (each in its own namespace, includes left out): `programs`, the
//! whole-program fixtures' `.cu` files (code as projects write it);
//! `clean`, the rule fixtures that migrate without a syntax warning
//! (SY0001, SY0005), which are dense with macro uses the grammar cannot
//! read (the error recovery's worst case); and each of the two `typed`:
//! with an unclosed `{` and `(` in the middle, as while a line is written
//! (its parse after a change is then speculative, checked by a whole parse
//! on another thread: [`syclify::project::Cache`]). Each is
//! opened, then changed 10 times (a line inserted); the figures are the
//! time to open and the median and largest time from a change to its
//! diagnostics.
//!
//! `cargo bench --bench lsp`; `cargo bench --bench lsp -- FILE…` measures
//! the same on files of your own instead, each opened where it is (its
//! directory the workspace folder, so the files beside it and the headers
//! it includes are its context, as in an editor); with
//! `SYCLIFY_BENCH_DUMP=DIR` the four documents are also written to
//! DIR/{programs,programs-typed,clean,typed}/main.cu (to profile
//! `syclify migrate` on them).

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::json;
use std::path::Path;
use std::time::Instant;
use syclify::diagnostics::Code;
use syclify::mapping::Mappings;

const LINES: usize = 5000;

/// The `.cu` files of the directories of `fixtures/<kind>`, sorted.
fn fixture_cu_files(kind: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(kind);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .flat_map(|e| std::fs::read_dir(e.path()).unwrap().flatten().map(|f| f.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    files
}

/// About 5,000 lines of the whole-program fixtures' `.cu` files, each in a
/// namespace, includes left out: code as projects write it.
fn programs_document() -> String {
    let files = fixture_cu_files("programs");
    let mut out = String::new();
    for (i, p) in files.iter().enumerate() {
        if out.lines().count() >= LINES {
            break;
        }
        let text = std::fs::read_to_string(p).unwrap();
        let body: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("#include")).collect();
        out.push_str(&format!("namespace program{i} {{\n{}\n}}\n", body.join("\n")));
    }
    out
}

fn clean_document() -> String {
    let files = fixture_cu_files("rules");
    let mappings = Mappings::builtin();
    let units: Vec<String> = files
        .iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).ok()?;
            let text = text.trim_start_matches('\u{feff}');
            let m = syclify::project::migrate_in_memory(vec![("f.cu".into(), text.as_bytes().to_vec())], &mappings);
            let broken = m.files.iter().flat_map(|f| &f.diagnostics).any(|d| matches!(d.code, Code::SyntaxError | Code::InactiveBranch | Code::InternalError));
            (!broken).then(|| text.lines().filter(|l| !l.trim_start().starts_with("#include")).collect::<Vec<_>>().join("\n"))
        })
        .collect();
    let mut out = String::new();
    let mut i = 0;
    while out.lines().count() < LINES {
        out.push_str(&format!("namespace unit{i} {{\n{}\n}}\n", units[i % units.len()]));
        i += 1;
    }
    out
}

struct Client {
    conn: Connection,
    id: i32,
}

impl Client {
    fn notify(&self, method: &str, params: serde_json::Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }
    fn request(&mut self, method: &str, params: serde_json::Value) {
        self.id += 1;
        self.conn.sender.send(Message::Request(Request::new(RequestId::from(self.id), method.into(), params))).unwrap();
        loop {
            if let Message::Response(_) = self.conn.receiver.recv().unwrap() {
                return;
            }
        }
    }
    /// Waits for the next diagnostics; how many.
    fn diagnostics(&self) -> usize {
        loop {
            if let Message::Notification(n) = self.conn.receiver.recv().unwrap()
                && n.method == "textDocument/publishDiagnostics"
            {
                return n.params["diagnostics"].as_array().map_or(0, Vec::len);
            }
        }
    }
}

fn measure(name: &str, text: &str, file: Option<&Path>) {
    let (server, conn) = Connection::memory();
    let handle = std::thread::spawn(move || syclify::lsp::serve(&server));
    let mut c = Client { conn, id: 0 };
    let root = file.and_then(Path::parent).map(|d| format!("file://{}", d.display()));
    c.request("initialize", json!({"processId": null, "rootUri": root, "capabilities": {}}));
    c.notify("initialized", json!({}));
    let uri = file.map_or("file:///bench/main.cu".to_string(), |f| format!("file://{}", f.display()));
    let uri = uri.as_str();
    let t = Instant::now();
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}));
    let n = c.diagnostics();
    let open = t.elapsed().as_secs_f64() * 1e3;
    let mut times = Vec::new();
    for v in 0..10 {
        let t = Instant::now();
        let change = json!({"range": {"start": {"line": 100, "character": 0}, "end": {"line": 100, "character": 0}}, "text": format!("// edit {v}\n")});
        c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": 2 + v}, "contentChanges": [change]}));
        c.diagnostics();
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{name:<12} {:>5} lines {:>4} KB  open {open:>6.0} ms  change -> diagnostics: median {:>5.0} ms, max {:>5.0} ms  ({n} diagnostics)",
        text.lines().count(),
        text.len() / 1024,
        times[times.len() / 2],
        times[times.len() - 1]
    );
    c.request("shutdown", serde_json::Value::Null);
    c.notify("exit", serde_json::Value::Null);
    handle.join().unwrap().unwrap();
}

fn main() {
    let files: Vec<std::path::PathBuf> =
        std::env::args().skip(1).filter(|a| !a.starts_with("--")).map(|a| std::fs::canonicalize(a).expect("a file to measure")).collect();
    if !files.is_empty() {
        for f in &files {
            let text = std::fs::read_to_string(f).expect("a UTF-8 file");
            measure(&f.file_name().unwrap().to_string_lossy(), &text, Some(f));
        }
        return;
    }
    let programs = programs_document();
    let clean = clean_document();
    let (programs_typed, typed) = (being_typed(&programs), being_typed(&clean));
    if let Some(dir) = std::env::var_os("SYCLIFY_BENCH_DUMP") {
        let dir = Path::new(&dir);
        for (name, text) in [("programs", &programs), ("programs-typed", &programs_typed), ("clean", &clean), ("typed", &typed)] {
            std::fs::create_dir_all(dir.join(name)).unwrap();
            std::fs::write(dir.join(name).join("main.cu"), text).unwrap();
        }
    }
    measure("programs", &programs, None);
    measure("  typed", &programs_typed, None);
    measure("clean", &clean, None);
    measure("  typed", &typed, None);
}

/// `doc` with an unclosed `{` and `(` in the middle, as while a line is
/// written.
fn being_typed(doc: &str) -> String {
    let mut lines: Vec<&str> = doc.lines().collect();
    let middle = lines.len() / 2;
    lines.insert(middle, "void being_typed() { if (x");
    lines.join("\n") + "\n"
}
