//! `syclify lsp`: a language server over stdio (lsp-server + lsp-types) that
//! shows, while a CUDA source is edited, the diagnostics a migration of it
//! would give.
//!
//! Documents are synchronised incrementally (positions in UTF-16 code units,
//! as LSP counts them). A change marks the open documents dirty; once no
//! message has come for [`DEBOUNCE`], the open documents — with the project
//! headers they include, read from disk — are migrated in memory
//! ([`crate::project::migrate_in_memory`], nothing written) and each gets
//! its diagnostics (`publishDiagnostics`, code `SY….`, source `syclify`).
//! Hover answers what a CUDA name becomes ([`crate::query::render`]) and
//! explains the diagnostics there. A closed document's diagnostics are
//! cleared. A request the server does not answer gets `MethodNotFound`, one
//! whose parameters do not parse `InvalidParams`; a notification whose
//! parameters do not parse is ignored; the server goes on.

use crate::diagnostics::Severity;
use crate::mapping::Mappings;
use crate::parse::line_starts;
use crate::project;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lt;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Quiet time after a change before the documents are migrated again.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// At most this many project headers are read from disk for the context of
/// the open documents.
const INCLUDED_FILES: usize = 256;

/// Runs the server on stdin/stdout until `shutdown` and `exit`.
pub fn run() -> anyhow::Result<()> {
    let (conn, io) = Connection::stdio();
    let result = serve(&conn);
    drop(conn);
    io.join()?;
    result
}

/// The server's loop on a connection (stdio, or in memory in tests).
pub fn serve(conn: &Connection) -> anyhow::Result<()> {
    let caps = lt::ServerCapabilities {
        text_document_sync: Some(lt::TextDocumentSyncCapability::Kind(lt::TextDocumentSyncKind::INCREMENTAL)),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        ..Default::default()
    };
    let init = conn.initialize(serde_json::to_value(caps)?)?;
    let params: lt::InitializeParams = serde_json::from_value(init).unwrap_or_default();
    let mut server = Server::new(root_of(&params));
    loop {
        let msg = if server.dirty {
            match conn.receiver.recv_timeout(DEBOUNCE) {
                Ok(m) => m,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    server.publish(conn);
                    continue;
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(()),
            }
        } else {
            match conn.receiver.recv() {
                Ok(m) => m,
                Err(_) => return Ok(()),
            }
        };
        match msg {
            Message::Request(req) => {
                if conn.handle_shutdown(&req)? {
                    return Ok(());
                }
                let resp = server.request(req);
                conn.sender.send(resp.into())?;
            }
            Message::Notification(n) => server.notification(n),
            Message::Response(_) => {}
        }
    }
}

/// The workspace folder (the first), else the root URI, as a path.
#[allow(deprecated)] // root_uri: older clients send only it
fn root_of(params: &lt::InitializeParams) -> Option<PathBuf> {
    let uri = params.workspace_folders.as_ref().and_then(|f| f.first()).map(|f| &f.uri).or(params.root_uri.as_ref())?;
    file_path(uri.as_str())
}

/// The path of a `file:` URI (percent-escapes decoded).
pub fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let b = rest.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = rest.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

struct Doc {
    text: String,
    version: i32,
    /// The diagnostics last published for it: byte range and code.
    diagnostics: Vec<(std::ops::Range<usize>, crate::diagnostics::Code)>,
}

struct Server {
    root: Option<PathBuf>,
    docs: BTreeMap<String, Doc>,
    mappings: Mappings,
    /// A document changed since the diagnostics were last published.
    dirty: bool,
    /// Documents closed since then: their diagnostics are cleared.
    closed: Vec<String>,
}

impl Server {
    fn new(root: Option<PathBuf>) -> Self {
        Server { root, docs: BTreeMap::new(), mappings: Mappings::builtin(), dirty: false, closed: Vec::new() }
    }

    fn request(&mut self, req: Request) -> Response {
        use lt::request::Request as _;
        match req.method.as_str() {
            lt::request::HoverRequest::METHOD => match serde_json::from_value::<lt::HoverParams>(req.params) {
                Ok(p) => Response::new_ok(req.id, self.hover(&p)),
                Err(e) => Response::new_err(req.id, ErrorCode::InvalidParams as i32, format!("hover: {e}")),
            },
            _ => Response::new_err(req.id, ErrorCode::MethodNotFound as i32, format!("syclify lsp does not answer `{}`", req.method)),
        }
    }

    /// Hover: on a CUDA name, what it becomes (`syclify query`'s answer,
    /// with its example migrated live); on a diagnostic, its explanation.
    fn hover(&self, p: &lt::HoverParams) -> Option<lt::Hover> {
        let pp = &p.text_document_position_params;
        let doc = self.docs.get(pp.text_document.uri.as_str())?;
        let starts = line_starts(&doc.text);
        let at = offset(&doc.text, &starts, pp.position);
        let b = doc.text.as_bytes();
        let word_byte = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let (mut a, mut e) = (at, at);
        while a > 0 && word_byte(b[a - 1]) {
            a -= 1;
        }
        while e < b.len() && word_byte(b[e]) {
            e += 1;
        }
        let word = &doc.text[a..e];
        let mut parts = Vec::new();
        if !word.is_empty() && crate::leftovers::is_cuda_name(word, &|_| false) {
            let (text, known) = crate::query::render(word, &self.mappings);
            if known {
                parts.push(format!("```text\n{}\n```", text.trim_end()));
            }
        }
        // (a diagnostic's range may be empty: it covers its start then)
        for (_, code) in doc.diagnostics.iter().filter(|(r, _)| r.start <= at && at <= r.end.max(r.start + 1)) {
            let i = code.info();
            parts.push(format!("**{}** ({}): {}\n\n{}", i.code, i.name, i.summary, i.explanation));
        }
        if parts.is_empty() {
            return None;
        }
        let range = (a < e).then(|| lt::Range::new(position(&doc.text, &starts, a), position(&doc.text, &starts, e)));
        Some(lt::Hover { contents: lt::HoverContents::Markup(lt::MarkupContent { kind: lt::MarkupKind::Markdown, value: parts.join("\n\n---\n\n") }), range })
    }

    fn notification(&mut self, n: Notification) {
        use lt::notification::Notification as _;
        match n.method.as_str() {
            lt::notification::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lt::DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    self.docs.insert(d.uri.as_str().to_string(), Doc { text: d.text, version: d.version, diagnostics: Vec::new() });
                    self.dirty = true;
                }
            }
            lt::notification::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lt::DidChangeTextDocumentParams>(n.params)
                    && let Some(doc) = self.docs.get_mut(p.text_document.uri.as_str())
                {
                    for c in p.content_changes {
                        apply_change(&mut doc.text, &c);
                    }
                    doc.version = p.text_document.version;
                    self.dirty = true;
                }
            }
            lt::notification::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lt::DidCloseTextDocumentParams>(n.params) {
                    self.docs.remove(p.text_document.uri.as_str());
                    self.closed.push(p.text_document.uri.as_str().to_string());
                    self.dirty = true;
                }
            }
            _ => {}
        }
    }

    /// The name of a document in the in-memory project: its path under the
    /// workspace folder, else its whole path (or the URI's last segment).
    fn rel_of(&self, uri: &str) -> String {
        match file_path(uri) {
            Some(p) => self.rel_of_path(&p),
            None => uri.rsplit(['/', ':']).next().unwrap_or(uri).to_string(),
        }
    }

    fn rel_of_path(&self, p: &Path) -> String {
        let rel = self.root.as_deref().and_then(|r| p.strip_prefix(r).ok()).unwrap_or(p);
        rel.to_string_lossy().trim_start_matches('/').replace('\\', "/")
    }

    /// Migrates the open documents (with the headers they include) in memory
    /// and publishes each one's diagnostics.
    fn publish(&mut self, conn: &Connection) {
        self.dirty = false;
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        let mut names = BTreeSet::new();
        let mut of_doc = Vec::new();
        for (uri, d) in &self.docs {
            let rel = self.rel_of(uri);
            if names.insert(rel.clone()) {
                files.push((rel.clone(), d.text.as_bytes().to_vec()));
            }
            of_doc.push((uri.clone(), rel, d.version));
        }
        // the project headers the open documents include (quoted includes,
        // beside the includer), read from disk, transitively
        let mut queue: Vec<(PathBuf, String)> = self.docs.iter().filter_map(|(u, d)| Some((file_path(u)?, d.text.clone()))).collect();
        while let Some((from, text)) = queue.pop() {
            let dir = from.parent().map(Path::to_path_buf).unwrap_or_default();
            for inc in quoted_includes(&text) {
                if names.len() >= self.docs.len() + INCLUDED_FILES {
                    break;
                }
                let path = dir.join(inc);
                let rel = self.rel_of_path(&path);
                if names.contains(&rel) {
                    continue;
                }
                if let Ok(bytes) = std::fs::read(&path) {
                    names.insert(rel.clone());
                    queue.push((path, String::from_utf8_lossy(&bytes).into_owned()));
                    files.push((rel, bytes));
                }
            }
        }
        for uri in std::mem::take(&mut self.closed) {
            if !self.docs.contains_key(&uri) {
                send_diagnostics(conn, &uri, Vec::new(), None);
            }
        }
        let m = project::migrate_in_memory(files, &self.mappings);
        for (uri, rel, version) in of_doc {
            let diags = m.files.iter().find(|f| f.rel == rel).map(|f| f.diagnostics.as_slice()).unwrap_or_default();
            let Some(doc) = self.docs.get_mut(&uri) else { continue };
            doc.diagnostics = diags.iter().map(|d| (d.range.clone(), d.code)).collect();
            let starts = line_starts(&doc.text);
            let diagnostics = diags
                .iter()
                .map(|d| lt::Diagnostic {
                    range: lt::Range::new(position(&doc.text, &starts, d.range.start), position(&doc.text, &starts, d.range.end)),
                    severity: Some(match d.severity {
                        Severity::Error => lt::DiagnosticSeverity::ERROR,
                        Severity::Warning => lt::DiagnosticSeverity::WARNING,
                        Severity::Note => lt::DiagnosticSeverity::INFORMATION,
                    }),
                    code: Some(lt::NumberOrString::String(d.code.code().to_string())),
                    source: Some("syclify".to_string()),
                    message: d.message.clone(),
                    ..Default::default()
                })
                .collect();
            send_diagnostics(conn, &uri, diagnostics, Some(version));
        }
    }
}

fn send_diagnostics(conn: &Connection, uri: &str, diagnostics: Vec<lt::Diagnostic>, version: Option<i32>) {
    use lt::notification::Notification as _;
    let Ok(uri) = uri.parse::<lt::Uri>() else { return };
    let params = lt::PublishDiagnosticsParams { uri, diagnostics, version };
    let n = Notification::new(lt::notification::PublishDiagnostics::METHOD.to_string(), params);
    // (a closed connection ends the loop at the next receive)
    let _ = conn.sender.send(n.into());
}

/// The quoted includes of a text (`#include "x.cuh"`).
fn quoted_includes(text: &str) -> Vec<&str> {
    let re = cached_regex!(r#"(?m)^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)""#);
    re.captures_iter(text).filter_map(|c| c.get(1)).map(|m| m.as_str()).collect()
}

/// The LSP position (line, UTF-16 column) of byte `at`.
pub fn position(text: &str, starts: &[usize], at: usize) -> lt::Position {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let line = starts.partition_point(|&s| s <= at).saturating_sub(1);
    let col: usize = text[starts[line]..at].chars().map(char::len_utf16).sum();
    lt::Position::new(line as u32, col as u32)
}

/// The byte offset of an LSP position (clamped to its line, and to the text).
pub fn offset(text: &str, starts: &[usize], p: lt::Position) -> usize {
    let Some(&start) = starts.get(p.line as usize) else { return text.len() };
    let end = starts.get(p.line as usize + 1).map_or(text.len(), |&e| e - 1);
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        if units >= p.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    end
}

/// Applies one change of `didChange` (a range replaced, or the whole text).
pub fn apply_change(text: &mut String, c: &lt::TextDocumentContentChangeEvent) {
    match c.range {
        Some(r) => {
            let starts = line_starts(text);
            let (a, b) = (offset(text, &starts, r.start), offset(text, &starts, r.end));
            text.replace_range(a.min(b)..b.max(a), &c.text);
        }
        None => *text = c.text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "a\n\u{e9}\u{1F600}x\n";
        let starts = line_starts(text);
        let x = text.find('x').unwrap();
        assert_eq!(position(text, &starts, x), lt::Position::new(1, 3));
        assert_eq!(offset(text, &starts, lt::Position::new(1, 3)), x);
        // past the end of a line: its end; past the last line: the text's end
        assert_eq!(offset(text, &starts, lt::Position::new(0, 99)), 1);
        assert_eq!(offset(text, &starts, lt::Position::new(9, 0)), text.len());
    }

    #[test]
    fn changes_apply_in_place() {
        let mut t = "int a;\nint b;\n".to_string();
        let c = lt::TextDocumentContentChangeEvent {
            range: Some(lt::Range::new(lt::Position::new(1, 4), lt::Position::new(1, 5))),
            range_length: None,
            text: "cc".into(),
        };
        apply_change(&mut t, &c);
        assert_eq!(t, "int a;\nint cc;\n");
    }

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(file_path("file:///home/u/my%20dir/k.cu"), Some(PathBuf::from("/home/u/my dir/k.cu")));
        assert_eq!(file_path("untitled:Untitled-1"), None);
    }
}
