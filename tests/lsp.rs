//! `syclify lsp` as an editor starts it: a child process speaking JSON-RPC
//! over stdio (initialize, didOpen, publishDiagnostics, didChange, requests
//! it does not answer, malformed messages, shutdown/exit).

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
        let init = c.request("initialize", json!({"processId": null, "rootUri": uri, "capabilities": {}, "workspaceFolders": [{"uri": uri, "name": "w"}]}));
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
void run(float *a, void **args) {\n  k<<<1, 32>>>(a);\n  cudaLaunchKernel((void *)k, 1, 32, args, 0, 0);\n}\n";

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

    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": KERNEL}}));
    let diags = c.diagnostics(&uri);
    assert_eq!(codes(&diags), vec!["SY0401"], "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["range"]["start"], json!({"line": 6, "character": 2}), "{d}");
    assert_eq!(d["severity"], json!(2));
    assert_eq!(d["source"], "syclify");
    assert!(d["message"].as_str().unwrap().contains("cudaLaunchKernel"));

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
