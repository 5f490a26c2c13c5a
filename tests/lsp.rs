//! `syclify lsp` as an editor starts it: a child process speaking JSON-RPC
//! over stdio (initialize with settings, didOpen, publishDiagnostics,
//! hover, codeAction, executeCommand, didChange, didChangeConfiguration,
//! requests it does not answer, malformed messages, shutdown/exit).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A generous bound on any answer (a hang fails the test, it does not stall it).
const WAIT: Duration = Duration::from_secs(30);

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    inbox: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start(root: &std::path::Path) -> Client {
        Client::start_with(root, Value::Null)
    }

    fn start_with(root: &std::path::Path, options: Value) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_syclify"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("syclify lsp starts");
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (tx, inbox) = channel();
        std::thread::spawn(move || {
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                if stdout.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice(&body).expect("the server writes JSON")).is_err() {
                    return;
                }
            }
        });
        let mut c = Client { child, stdin, inbox, next_id: 0 };
        let uri = format!("file://{}", root.display());
        let init = c.request(
            "initialize",
            json!({"processId": null, "rootUri": uri, "capabilities": {}, "workspaceFolders": [{"uri": uri, "name": "w"}], "initializationOptions": options}),
        );
        assert_eq!(init["result"]["capabilities"]["textDocumentSync"], json!(2), "incremental sync: {init}");
        c.notify("initialized", json!({}));
        c
    }

    fn send_raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        write!(stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        stdin.write_all(body).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, v: Value) {
        self.send_raw(v.to_string().as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Opens a CUDA document (version 1).
    fn open(&mut self, uri: &str, text: &str) {
        self.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}));
    }

    /// Sends a request and waits for its response (notifications on the
    /// way are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for(|m| m["id"] == json!(id))
    }

    fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        let end = Instant::now() + WAIT;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.inbox.recv_timeout(left) {
                Ok(m) if pred(&m) => return m,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => panic!("no answer within {WAIT:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let m = self.wait_for(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri);
        m["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// Shuts down and waits for the process to exit; its exit status.
    fn shutdown(mut self) -> std::process::ExitStatus {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        self.stdin.take();
        wait_exit(&mut self.child)
    }
}

fn wait_exit(child: &mut Child) -> std::process::ExitStatus {
    let end = Instant::now() + WAIT;
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if Instant::now() > end {
            child.kill().ok();
            panic!("the server did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

const KERNEL: &str = "#include \"helpers.cuh\"\n\
__global__ void k(float *a) {\n  a[threadIdx.x] = scale(a[threadIdx.x]);\n}\n\
void run(float *a, void **args) {\n  k<<<1, 32>>>(a);\n  cudaIpcGetEventHandle(0, 0, 0, 0);\n}\n";

#[test]
fn diagnostics_follow_the_edits() {
    let dir = tempfile::tempdir().unwrap();
    // a header on disk, not open: read for the project context (scale() is a
    // device function, so the kernel's call passes it the nd_item)
    std::fs::write(dir.path().join("helpers.cuh"), "__device__ float scale(float x) { return 2 * x; }\n").unwrap();
    let path = dir.path().join("main.cu");
    std::fs::write(&path, KERNEL).unwrap();
    let uri = format!("file://{}", path.display());
    let mut c = Client::start(dir.path());

    c.open(&uri, KERNEL);
    let diags = c.diagnostics(&uri);
    assert_eq!(codes(&diags), vec!["SY0401"], "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["range"]["start"], json!({"line": 6, "character": 2}), "{d}");
    assert_eq!(d["severity"], json!(2));
    assert_eq!(d["source"], "syclify");
    assert!(d["message"].as_str().unwrap().contains("cudaIpcGetEventHandle"));

    // hover: what a CUDA name becomes, a diagnostic's explanation, nothing
    // on plain C++
    let hover = |c: &mut Client, line: u32, character: u32| {
        let r = c.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}));
        assert!(r.get("error").is_none(), "{r}");
        r["result"].clone()
    };
    let h = hover(&mut c, 2, 5);
    let text = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("threadIdx") && text.contains("get_local_id"), "{h}");
    assert_eq!(h["range"], json!({"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 13}}));
    let h = hover(&mut c, 6, 5);
    assert!(h["contents"]["value"].as_str().unwrap_or_default().contains("SY0401"), "{h}");
    assert_eq!(hover(&mut c, 1, 19), Value::Null, "on `float`");

    // an incremental change: the line with the call removed (UTF-16
    // positions, an accented comment above it)
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 6, "character": 0}, "end": {"line": 7, "character": 0}}, "text": ""},
            {"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}}, "text": "  /* d\u{e9}j\u{e0} \u{1F600} */\n"}
        ]}),
    );
    let diags = c.diagnostics(&uri);
    assert!(diags.is_empty(), "{diags:?}");

    // a change that brings an error at a known place after non-ASCII text
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": 5, "character": 15}, "end": {"line": 5, "character": 15}}, "text": " cudnnCreate(&h);"}
        ]}),
    );
    let diags = c.diagnostics(&uri);
    let sy = diags.iter().find(|d| d["message"].as_str().unwrap_or("").contains("cudnnCreate")).unwrap_or_else(|| panic!("{diags:?}"));
    // (UTF-16 columns: the line's bytes would put it at 20)
    assert_eq!(sy["range"]["start"], json!({"line": 5, "character": 16}), "{sy}");

    // closed: its diagnostics are cleared
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    assert!(c.diagnostics(&uri).is_empty());

    assert!(c.shutdown().success());
}

#[test]
fn requests_it_does_not_answer_and_malformed_ones_get_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(dir.path());
    let r = c.request("workspace/unknownThing", json!({}));
    assert_eq!(r["error"]["code"], json!(-32601), "{r}");
    // a known request with parameters of the wrong shape
    let r = c.request("textDocument/hover", json!({"position": "here"}));
    assert_eq!(r["error"]["code"], json!(-32602), "{r}");
    // notifications with parameters of the wrong shape are ignored
    c.notify("textDocument/didOpen", json!({"textDocument": 42}));
    c.notify("textDocument/didChange", json!(["not", "params"]));
    // the server still answers
    let r = c.request("workspace/unknownThing", json!(null));
    assert_eq!(r["error"]["code"], json!(-32601), "{r}");
    assert!(c.shutdown().success());
}

#[test]
fn a_payload_that_is_not_json_ends_the_server_without_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(dir.path());
    c.send_raw(b"{this is not json");
    c.stdin.take();
    let status = wait_exit(&mut c.child);
    assert!(!status.success(), "a broken stream is an error exit");
}

/// Applies an LSP text edit (ASCII text, so columns are bytes) to `text`.
fn apply_edit(text: &str, e: &Value) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at = |p: &Value| {
        let (l, c) = (p["line"].as_u64().unwrap() as usize, p["character"].as_u64().unwrap() as usize);
        lines[..l].iter().map(|s| s.len()).sum::<usize>() + c
    };
    let (a, b) = (at(&e["range"]["start"]), at(&e["range"]["end"]));
    format!("{}{}{}", &text[..a], e["newText"].as_str().unwrap(), &text[b..])
}

const WHOLE: &str = "__global__ void k(unsigned *out) {\n  dim3 b = blockDim;\n  out[0] = b.x;\n}\n";

#[test]
fn quick_fixes_and_the_preview() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("whole.cu");
    std::fs::write(&path, WHOLE).unwrap();
    let uri = format!("file://{}", path.display());
    let mut c = Client::start(dir.path());
    c.open(&uri, WHOLE);
    let diags = c.diagnostics(&uri);
    assert_eq!(codes(&diags), vec!["SY0301"], "{diags:?}");
    // the code links to its explanation
    let href = diags[0]["codeDescription"]["href"].as_str().unwrap_or_else(|| panic!("{diags:?}"));
    assert!(href.ends_with("/docs/reference/diagnostics.md#sy0301"), "{href}");

    // the actions on the diagnostic's line: its fix and the preview
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "context": {"diagnostics": diags}}),
    );
    let actions = r["result"].as_array().unwrap_or_else(|| panic!("{r}")).clone();
    let fix = actions.iter().find(|a| a["kind"] == "quickfix").unwrap_or_else(|| panic!("{actions:?}"));
    assert_eq!(fix["diagnostics"][0]["code"], "SY0301", "{fix}");
    assert_eq!(fix["isPreferred"], json!(true));
    let edits = fix["edit"]["changes"][&uri].as_array().unwrap_or_else(|| panic!("{fix}"));
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["newText"], "dim3(blockDim.x, blockDim.y, blockDim.z)", "{fix}");
    let preview = actions.iter().find(|a| a["kind"] == "source.syclify.preview").unwrap_or_else(|| panic!("{actions:?}"));
    assert_eq!(preview["command"]["command"], "syclify.previewMigration");
    // only the kinds asked for
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "context": {"diagnostics": [], "only": ["source"]}}),
    );
    assert!(r["result"].as_array().unwrap().iter().all(|a| a["kind"] == "source.syclify.preview"), "{r}");

    // the fix applied as the editor would: the diagnostic is answered
    let fixed = apply_edit(WHOLE, &edits[0]);
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}));
    assert!(c.diagnostics(&uri).is_empty());

    // the preview: the migrated text and a diff, nothing written
    let before: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    let args = json!({"command": "syclify.previewMigration", "arguments": [uri]});
    let r = c.request("workspace/executeCommand", args);
    let p = &r["result"];
    assert_eq!(p["migrated"], json!(true), "{r}");
    assert!(p["outputName"].as_str().unwrap().ends_with(".cpp"), "{p}");
    let text = p["text"].as_str().unwrap();
    assert!(text.contains("item.get_local_range(0)") && text.contains("sycl::range<3>"), "{text}");
    let diff = p["diff"].as_str().unwrap();
    assert!(diff.starts_with("--- a/whole.cu\n+++ b/") && diff.contains("\n-__global__ void k") && diff.contains("\n+"), "{diff}");
    let r2 = c.request("syclify/previewMigration", json!({"textDocument": {"uri": uri}}));
    assert_eq!(r2["result"]["text"], p["text"], "{r2}");
    let after: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(before, after, "the preview writes nothing");
    // a command it does not know, a preview of a document not open
    let r = c.request("workspace/executeCommand", json!({"command": "syclify.nothing", "arguments": []}));
    assert_eq!(r["error"]["code"], json!(-32602), "{r}");
    let r = c.request("workspace/executeCommand", json!({"command": "syclify.previewMigration", "arguments": ["file:///nowhere.cu"]}));
    assert_eq!(r["error"]["code"], json!(-32602), "{r}");
    assert!(c.shutdown().success());
}

/// The files beside an open document are its context: a device function
/// defined in another file of the directory (not open, not included) that
/// needs the nd_item gets it at the call in the open one.
#[test]
fn files_beside_the_document_are_its_context() {
    let dir = tempfile::tempdir().unwrap();
    let main = "__device__ float scale(float x);\n__global__ void k(float *a) { a[0] = scale(a[0]); }\nvoid run(float *a) { k<<<1, 32>>>(a); }\n";
    std::fs::write(dir.path().join("main.cu"), main).unwrap();
    std::fs::write(dir.path().join("scale.cu"), "__device__ float scale(float x) { return x * threadIdx.x; }\n").unwrap();
    let uri = format!("file://{}", dir.path().join("main.cu").display());
    let mut c = Client::start(dir.path());
    c.open(&uri, main);
    c.diagnostics(&uri);
    let r = c.request("syclify/previewMigration", json!({"textDocument": {"uri": uri}}));
    let text = r["result"]["text"].as_str().unwrap_or_else(|| panic!("{r}"));
    assert!(text.contains("scale(a[0], item)"), "{text}");
    assert!(c.shutdown().success());
}

/// Settings: rule files and the explanation address in
/// `initializationOptions`, replaced by `didChangeConfiguration`; a rule file
/// that does not load is said (`window/showMessage`) and left out.
#[test]
fn settings_from_the_client() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("rules.yaml"), "functions:\n  - cuda: cudaIpcGetEventHandle\n    statement: \"my_node({0})\"\n").unwrap();
    let src = "void f(void **args) { cudaIpcGetEventHandle(args, 0, 0, 0); }\n";
    let uri = format!("file://{}", dir.path().join("l.cu").display());
    let options = json!({"syclify": {"ruleFiles": ["rules.yaml"], "explanationUrl": "https://example.org/d.html#{code}", "debounceMs": 5}});
    let mut c = Client::start_with(dir.path(), options);
    c.open(&uri, src);
    assert!(c.diagnostics(&uri).is_empty(), "the rule file maps the call");
    // without it, the call is unsupported; the link follows the setting
    c.notify("workspace/didChangeConfiguration", json!({"settings": {"syclify": {"explanationUrl": "https://example.org/d.html#{code}"}}}));
    let diags = c.diagnostics(&uri);
    assert_eq!(codes(&diags), vec!["SY0401"], "{diags:?}");
    assert_eq!(diags[0]["codeDescription"]["href"], "https://example.org/d.html#sy0401");
    // a rule file that is not there: a message, and the server goes on
    c.notify("workspace/didChangeConfiguration", json!({"settings": {"ruleFiles": ["missing.yaml"]}}));
    let m = c.wait_for(|m| m["method"] == "window/showMessage");
    assert!(m["params"]["message"].as_str().unwrap().contains("missing.yaml"), "{m}");
    assert_eq!(m["params"]["type"], json!(1));
    assert_eq!(codes(&c.diagnostics(&uri)), vec!["SY0401"]);
    // settings of the wrong shape: a message, the previous ones kept
    c.notify("workspace/didChangeConfiguration", json!({"settings": {"ruleFiles": 7}}));
    let m = c.wait_for(|m| m["method"] == "window/showMessage");
    assert!(m["params"]["message"].as_str().unwrap().contains("not understood"), "{m}");
    assert!(c.shutdown().success());
}
