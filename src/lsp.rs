//! `syclify lsp`: a language server over stdio (lsp-server + lsp-types) that
//! shows, while a CUDA source is edited, the diagnostics a migration of it
//! would give, and what it migrates to.
//!
//! Documents are synchronised incrementally (positions in UTF-16 code units,
//! as LSP counts them). A change marks the open documents dirty; once no
//! message has come for [`DEBOUNCE`], the open documents are migrated in
//! memory ([`crate::project::migrate_in_memory_cached`], nothing written)
//! with their context read from disk — the CUDA files beside them (a kernel
//! may be defined in one and launched in another) and the project headers
//! they include, transitively — and each gets its diagnostics
//! (`publishDiagnostics`: code `SY….` linked to its explanation, source
//! `syclify`). Only the open documents are rewritten; the context is parsed
//! and indexed, and its parses and index facts are kept for the next
//! migration while its files do not change ([`crate::project::Cache`]). A
//! changed document is parsed reusing its last parse (tree-sitter's
//! incremental parse): where that has errors it is speculative, checked by
//! a whole parse on another thread while the migration goes on, and the
//! migration is made again where the two differ — the diagnostics are
//! always those of a whole migration.
//!
//! Requests: hover (what a CUDA name becomes, [`crate::query::render`], and
//! the explanation of the diagnostics there); code actions (each fix a
//! diagnostic carries, as a quick fix editing the CUDA source, and "preview
//! the SYCL migration of this file"); `workspace/executeCommand`
//! `syclify.previewMigration` and the request `syclify/previewMigration`,
//! which answer the migrated text and a unified diff (nothing is written).
//! Settings ([`Settings`]) come in `initializationOptions` and
//! `workspace/didChangeConfiguration`. A closed document's diagnostics are
//! cleared. A request the server does not answer gets `MethodNotFound`, one
//! whose parameters do not parse `InvalidParams`, one that panics
//! `InternalError`; a notification whose parameters do not parse is ignored;
//! the server goes on.

use crate::diagnostics::{Diagnostic, Severity};
use crate::mapping::Mappings;
use crate::parse::line_starts;
use crate::project::{self, InMemory};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lt;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Quiet time after a change before the documents are migrated again, by
/// default ([`Settings::debounce_ms`]): long enough to gather what an
/// editor sends together for one edit, short beside a migration (changes
/// typed while one runs wait in the queue and are all applied before the
/// next, so a burst of typing is migrated once per migration's time, not
/// once per key).
pub const DEBOUNCE: Duration = Duration::from_millis(20);

/// At most this many files are read from disk for the context of the open
/// documents (CUDA files beside them, headers they include).
const CONTEXT_FILES: usize = 256;

/// The command (and request) that previews a document's migration.
pub const PREVIEW_COMMAND: &str = "syclify.previewMigration";
pub const PREVIEW_REQUEST: &str = "syclify/previewMigration";

/// The code action kind of the preview.
const PREVIEW_KIND: &str = "source.syclify.preview";

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
        code_action_provider: Some(lt::CodeActionProviderCapability::Options(lt::CodeActionOptions {
            code_action_kinds: Some(vec![lt::CodeActionKind::QUICKFIX, lt::CodeActionKind::new(PREVIEW_KIND)]),
            ..Default::default()
        })),
        execute_command_provider: Some(lt::ExecuteCommandOptions { commands: vec![PREVIEW_COMMAND.to_string()], ..Default::default() }),
        ..Default::default()
    };
    let init = conn.initialize(serde_json::to_value(caps)?)?;
    let params: lt::InitializeParams = serde_json::from_value(init).unwrap_or_default();
    let mut server = Server::new(root_of(&params));
    if let Some(options) = &params.initialization_options {
        server.configure(conn, options);
    }
    loop {
        let msg = if server.dirty {
            match conn.receiver.recv_timeout(server.settings.debounce_ms.map_or(DEBOUNCE, Duration::from_millis)) {
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
                let id = req.id.clone();
                let method = req.method.clone();
                let resp = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.request(conn, req))).unwrap_or_else(|p| {
                    let what = p.downcast_ref::<String>().map(String::as_str).or_else(|| p.downcast_ref::<&str>().copied()).unwrap_or("a panic");
                    Response::new_err(id, ErrorCode::InternalError as i32, format!("syclify failed on `{method}` (a bug in syclify; please report it): {what}"))
                });
                conn.sender.send(resp.into())?;
            }
            Message::Notification(n) => server.notification(conn, n),
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

/// The server's settings, from `initializationOptions` and
/// `workspace/didChangeConfiguration` (either the object itself or under a
/// `syclify` key). Relative paths are relative to the workspace folder.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Settings {
    /// Extra mapping rules (YAML), as `syclify migrate --rule-file`; later files win.
    pub rule_files: Vec<PathBuf>,
    /// A compilation database, as `-p`: its include directories and each
    /// unit's `-D`/`-U` are used.
    pub compile_commands: Option<PathBuf>,
    /// Include directories searched for quoted includes, as `-I`.
    pub include_dirs: Vec<PathBuf>,
    /// The address of a code's explanation, `{code}` standing for the code
    /// in lower case (`https://example.org/diagnostics.html#{code}`); by
    /// default `docs/reference/diagnostics.md` of the checkout syclify was built from,
    /// where it still exists.
    pub explanation_url: Option<String>,
    /// Quiet time after a change before the diagnostics are computed again,
    /// in milliseconds ([`DEBOUNCE`] by default); more spares the CPU while
    /// typing in large files.
    pub debounce_ms: Option<u64>,
}

/// An open document.
struct Doc {
    text: String,
    version: i32,
    /// The version the diagnostics (and their fixes) below are of.
    migrated_version: Option<i32>,
    diagnostics: Vec<Diagnostic>,
}

struct Server {
    root: Option<PathBuf>,
    docs: BTreeMap<String, Doc>,
    settings: Settings,
    mappings: Mappings,
    extra: InMemory,
    /// The `file:` URI of `docs/reference/diagnostics.md` in the checkout syclify
    /// was built from, where it exists (looked for once).
    docs_page: Option<String>,
    /// A document changed since the diagnostics were last published.
    dirty: bool,
    /// Documents closed since then: their diagnostics are cleared.
    closed: Vec<String>,
    /// The parses and index facts of the last migration, for the files
    /// that did not change since (the context, mostly).
    cache: project::Cache,
}

impl Server {
    fn new(root: Option<PathBuf>) -> Self {
        Server {
            root,
            docs: BTreeMap::new(),
            settings: Settings::default(),
            mappings: Mappings::builtin(),
            extra: InMemory::default(),
            docs_page: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference/diagnostics.md"))
                .filter(|p| p.is_file())
                .map(|p| format!("file://{}", crate::sarif::uri_path(&p.to_string_lossy()))),
            dirty: false,
            closed: Vec::new(),
            cache: project::Cache::default(),
        }
    }

    /// A path of the settings, relative to the workspace folder.
    fn resolve(&self, p: &Path) -> PathBuf {
        match &self.root {
            Some(r) if p.is_relative() => r.join(p),
            _ => p.to_path_buf(),
        }
    }

    /// Takes new settings: loads the rule files and the compilation
    /// database; what fails is said in a message (`window/showMessage`) and
    /// left out, the rest is used.
    fn configure(&mut self, conn: &Connection, value: &serde_json::Value) {
        let value = value.get("syclify").unwrap_or(value);
        if value.is_null() {
            return;
        }
        let settings: Settings = match serde_json::from_value(value.clone()) {
            Ok(s) => s,
            Err(e) => {
                show_message(conn, lt::MessageType::ERROR, format!("syclify: settings not understood ({e}); the previous ones are kept"));
                return;
            }
        };
        let mut mappings = Mappings::builtin();
        for f in &settings.rule_files {
            if let Err(e) = mappings.load_file(&self.resolve(f)) {
                show_message(conn, lt::MessageType::ERROR, format!("syclify: rule file {e}; it is not used"));
            }
        }
        let mut extra = InMemory::default();
        for d in &settings.include_dirs {
            extra.include_dirs.push(self.rel_of_path(&self.resolve(d)));
        }
        if let Some(db) = &settings.compile_commands {
            match crate::compile_db::load(&self.resolve(db)) {
                Ok(db) => {
                    for d in &db.include_dirs {
                        let rel = self.rel_of_path(d);
                        if !extra.include_dirs.contains(&rel) {
                            extra.include_dirs.push(rel);
                        }
                    }
                    extra.unit_defines = db.flags.iter().map(|(f, u)| (self.rel_of_path(f), u.defines.clone())).collect();
                }
                Err(e) => show_message(conn, lt::MessageType::ERROR, format!("syclify: {e}; it is not used")),
            }
        }
        self.settings = settings;
        self.mappings = mappings;
        self.extra = extra;
        self.dirty = true;
    }

    fn request(&mut self, conn: &Connection, req: Request) -> Response {
        use lt::request::Request as _;
        // (the error response boxed: a Response is large)
        fn parsed<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, Box<Response>> {
            serde_json::from_value(req.params.clone())
                .map_err(|e| Box::new(Response::new_err(req.id.clone(), ErrorCode::InvalidParams as i32, format!("{}: {e}", req.method))))
        }
        let id = req.id.clone();
        let result = match req.method.as_str() {
            lt::request::HoverRequest::METHOD => parsed::<lt::HoverParams>(&req).map(|p| serde_json::to_value(self.hover(&p))).map_err(|e| *e),
            lt::request::CodeActionRequest::METHOD => parsed::<lt::CodeActionParams>(&req).map(|p| serde_json::to_value(self.code_actions(&p))).map_err(|e| *e),
            lt::request::ExecuteCommand::METHOD => match parsed::<lt::ExecuteCommandParams>(&req) {
                Ok(p) if p.command == PREVIEW_COMMAND => match p.arguments.first().and_then(|a| a.as_str()) {
                    Some(uri) => return self.preview(conn, id, uri),
                    None => Err(Response::new_err(id.clone(), ErrorCode::InvalidParams as i32, format!("{PREVIEW_COMMAND}: the argument is a document URI"))),
                },
                Ok(p) => Err(Response::new_err(id.clone(), ErrorCode::InvalidParams as i32, format!("unknown command `{}`", p.command))),
                Err(e) => Err(*e),
            },
            PREVIEW_REQUEST => match parsed::<lt::TextDocumentIdentifier>(&req).or_else(|_| parsed::<PreviewParams>(&req).map(|p| p.text_document)) {
                Ok(d) => return self.preview(conn, id, d.uri.as_str()),
                Err(e) => Err(*e),
            },
            _ => Err(Response::new_err(id.clone(), ErrorCode::MethodNotFound as i32, format!("syclify lsp does not answer `{}`", req.method))),
        };
        match result {
            Ok(Ok(v)) => Response::new_ok(id, v),
            Ok(Err(e)) => Response::new_err(id, ErrorCode::InternalError as i32, e.to_string()),
            Err(resp) => resp,
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
        // (only while the diagnostics are of this text; a diagnostic's range
        // may be empty: it covers its start then)
        let current = doc.migrated_version == Some(doc.version);
        for d in doc.diagnostics.iter().filter(|d| current && d.range.start <= at && at <= d.range.end.max(d.range.start + 1)) {
            let i = d.code.info();
            parts.push(format!("**{}** ({}): {}\n\n{}", i.code, i.name, i.summary, i.explanation));
        }
        if parts.is_empty() {
            return None;
        }
        let range = (a < e).then(|| lt::Range::new(position(&doc.text, &starts, a), position(&doc.text, &starts, e)));
        Some(lt::Hover { contents: lt::HoverContents::Markup(lt::MarkupContent { kind: lt::MarkupKind::Markdown, value: parts.join("\n\n---\n\n") }), range })
    }

    /// Code actions in a range: each fix of a diagnostic there (while the
    /// diagnostics are of the current text) and the preview of the file.
    fn code_actions(&self, p: &lt::CodeActionParams) -> Vec<lt::CodeActionOrCommand> {
        let uri = p.text_document.uri.as_str();
        let Some(doc) = self.docs.get(uri) else { return Vec::new() };
        let wanted = |kind: &lt::CodeActionKind| {
            p.context
                .only
                .as_ref()
                .is_none_or(|only| only.iter().any(|o| kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str()))))
        };
        let mut out = Vec::new();
        if doc.migrated_version == Some(doc.version) && wanted(&lt::CodeActionKind::QUICKFIX) {
            let starts = line_starts(&doc.text);
            let (a, b) = (offset(&doc.text, &starts, p.range.start), offset(&doc.text, &starts, p.range.end));
            // those in the range, and those the client names (editors send
            // the diagnostics of the cursor's line)
            let named = |d: &Diagnostic| {
                let start = position(&doc.text, &starts, d.range.start);
                p.context.diagnostics.iter().any(|c| c.range.start == start && c.code == Some(lt::NumberOrString::String(d.code.code().to_string())))
            };
            for d in doc.diagnostics.iter().filter(|d| (d.range.start <= b && a <= d.range.end) || named(d)) {
                for fix in &d.fixes {
                    let edits = fix
                        .edits
                        .iter()
                        .map(|(r, text)| {
                            lt::TextEdit::new(lt::Range::new(position(&doc.text, &starts, r.start), position(&doc.text, &starts, r.end)), text.clone())
                        })
                        .collect();
                    let Ok(u) = uri.parse::<lt::Uri>() else { continue };
                    out.push(lt::CodeActionOrCommand::CodeAction(lt::CodeAction {
                        title: fix.title.clone(),
                        kind: Some(lt::CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![self.lsp_diagnostic(&doc.text, &starts, d)]),
                        edit: Some(lt::WorkspaceEdit { changes: Some([(u, edits)].into_iter().collect()), ..Default::default() }),
                        is_preferred: Some(d.fixes.len() == 1),
                        ..Default::default()
                    }));
                }
            }
        }
        let kind = lt::CodeActionKind::new(PREVIEW_KIND);
        if wanted(&kind) {
            let title = "Preview the SYCL migration of this file".to_string();
            out.push(lt::CodeActionOrCommand::CodeAction(lt::CodeAction {
                title: title.clone(),
                kind: Some(kind),
                command: Some(lt::Command { title, command: PREVIEW_COMMAND.to_string(), arguments: Some(vec![serde_json::Value::String(uri.to_string())]) }),
                ..Default::default()
            }));
        }
        out
    }

    /// The migration of an open document: its migrated text (the file's own
    /// when it holds no CUDA and is not migrated), the output file's name
    /// and a unified diff from the original. Migrates first if the document
    /// changed since.
    fn preview(&mut self, conn: &Connection, id: RequestId, uri: &str) -> Response {
        if self.docs.get(uri).is_some_and(|d| d.migrated_version != Some(d.version)) {
            self.publish(conn);
        }
        let Some(doc) = self.docs.get(uri) else {
            return Response::new_err(id, ErrorCode::InvalidParams as i32, format!("{uri} is not an open document"));
        };
        let name = self.rel_of(uri);
        // a whole migration of the context (publish rewrites only the open
        // documents, whose text may then miss SYCL's includes)
        let m = project::migrate_in_memory_cached(self.project_files(), &self.mappings, &self.extra, Some(&self.cache));
        let output =
            m.files.iter().find(|f| f.rel == name && f.status == project::Status::Migrated).and_then(|f| Some((f.out_rel.clone()?, f.output.clone()?)));
        let (output_name, text, migrated) = match output {
            Some((out_name, text)) => (out_name, text, true),
            None => (name.clone(), doc.text.clone(), false),
        };
        let diff = similar::TextDiff::from_lines(&doc.text, &text)
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{name}"), &format!("b/{output_name}"))
            .to_string();
        let result = Preview { uri: uri.to_string(), output_name, migrated, text, diff, diagnostics: doc.diagnostics.len() };
        Response::new_ok(id, result)
    }

    fn notification(&mut self, conn: &Connection, n: Notification) {
        use lt::notification::Notification as _;
        match n.method.as_str() {
            lt::notification::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lt::DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    let doc = Doc { text: d.text, version: d.version, migrated_version: None, diagnostics: Vec::new() };
                    self.docs.insert(d.uri.as_str().to_string(), doc);
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
            lt::notification::DidChangeConfiguration::METHOD => {
                if let Ok(p) = serde_json::from_value::<lt::DidChangeConfigurationParams>(n.params) {
                    self.configure(conn, &p.settings);
                }
            }
            lt::notification::DidSaveTextDocument::METHOD => self.dirty = true, // files beside it may read it
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

    /// The path of a project name ([`Self::rel_of_path`]'s inverse).
    fn path_of_rel(&self, rel: &str) -> PathBuf {
        match &self.root {
            Some(r) => r.join(rel),
            None => PathBuf::from(format!("/{rel}")),
        }
    }

    /// The files of the in-memory project: the open documents, the CUDA
    /// files beside them, and the project headers these include (quoted
    /// includes, found beside the includer or in an include directory),
    /// transitively, read from disk; at most [`CONTEXT_FILES`] from disk.
    fn project_files(&self) -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        let mut names = BTreeSet::new();
        for (uri, d) in &self.docs {
            let rel = self.rel_of(uri);
            if names.insert(rel.clone()) {
                files.push((rel, d.text.as_bytes().to_vec()));
            }
        }
        let budget = names.len() + CONTEXT_FILES;
        // CUDA files beside the documents (sorted: the same context each time)
        let dirs: BTreeSet<PathBuf> = self.docs.keys().filter_map(|u| Some(file_path(u)?.parent()?.to_path_buf())).collect();
        for dir in dirs {
            let mut beside: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|r| r.flatten().map(|e| e.path()).filter(|p| p.is_file() && project::is_cuda_name(&p.to_string_lossy())).collect())
                .unwrap_or_default();
            beside.sort();
            for p in beside {
                let rel = self.rel_of_path(&p);
                if names.len() < budget
                    && !names.contains(&rel)
                    && let Ok(bytes) = std::fs::read(&p)
                {
                    names.insert(rel.clone());
                    files.push((rel, bytes));
                }
            }
        }
        // the headers they include, as the migration resolves includes
        let mut next = 0;
        while next < files.len() {
            let text = String::from_utf8_lossy(&files[next].1).into_owned();
            let found = project::resolved_includes(&files[next].0, &text, &self.extra.include_dirs, |c| names.contains(c) || self.path_of_rel(c).is_file());
            for rel in found {
                if names.len() < budget
                    && !names.contains(&rel)
                    && let Ok(bytes) = std::fs::read(self.path_of_rel(&rel))
                {
                    names.insert(rel.clone());
                    files.push((rel, bytes));
                }
            }
            next += 1;
        }
        files
    }

    /// A diagnostic as LSP has it (`text` and `starts`: its document's).
    fn lsp_diagnostic(&self, text: &str, starts: &[usize], d: &Diagnostic) -> lt::Diagnostic {
        let code = d.code.code();
        lt::Diagnostic {
            range: lt::Range::new(position(text, starts, d.range.start), position(text, starts, d.range.end)),
            severity: Some(match d.severity {
                Severity::Error => lt::DiagnosticSeverity::ERROR,
                Severity::Warning => lt::DiagnosticSeverity::WARNING,
                Severity::Note => lt::DiagnosticSeverity::INFORMATION,
            }),
            code: Some(lt::NumberOrString::String(code.to_string())),
            code_description: self.explanation_href(code).map(|href| lt::CodeDescription { href }),
            source: Some("syclify".to_string()),
            message: d.message.clone(),
            ..Default::default()
        }
    }

    /// Where a code's explanation is ([`Settings::explanation_url`]).
    fn explanation_href(&self, code: &str) -> Option<lt::Uri> {
        let code = code.to_ascii_lowercase();
        let href = match &self.settings.explanation_url {
            Some(t) => t.replace("{code}", &code),
            None => format!("{}#{code}", self.docs_page.as_deref()?),
        };
        href.parse().ok()
    }

    /// Migrates the open documents (with their context) in memory and
    /// publishes each one's diagnostics.
    fn publish(&mut self, conn: &Connection) {
        self.dirty = false;
        for uri in std::mem::take(&mut self.closed) {
            if !self.docs.contains_key(&uri) {
                send_diagnostics(conn, &uri, Vec::new(), None);
            }
        }
        let files = self.project_files();
        // the context is parsed and indexed (kept from the last time where
        // it did not change), only the open documents are rewritten
        let extra = project::InMemory { rewrite_only: Some(self.docs.keys().map(|u| self.rel_of(u)).collect()), ..self.extra.clone() };
        let m = project::migrate_in_memory_cached(files, &self.mappings, &extra, Some(&self.cache));
        let mut by_rel: BTreeMap<&str, &project::FileResult> = m.files.iter().map(|f| (f.rel.as_str(), f)).collect();
        let uris: Vec<String> = self.docs.keys().cloned().collect();
        for uri in uris {
            let rel = self.rel_of(&uri);
            let f = by_rel.remove(rel.as_str());
            let diagnostics = f.map(|f| f.diagnostics.clone()).unwrap_or_default();
            let doc = &self.docs[&uri];
            let starts = line_starts(&doc.text);
            let lsp: Vec<lt::Diagnostic> = diagnostics.iter().map(|d| self.lsp_diagnostic(&doc.text, &starts, d)).collect();
            let version = doc.version;
            send_diagnostics(conn, &uri, lsp, Some(version));
            let doc = self.docs.get_mut(&uri).expect("listed above");
            doc.diagnostics = diagnostics;
            doc.migrated_version = Some(version);
        }
    }
}

/// The answer of a preview (`syclify.previewMigration`).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Preview {
    uri: String,
    /// The name the migrated file gets (under the workspace folder).
    output_name: String,
    /// Whether the file is migrated (else it holds no CUDA and is copied).
    migrated: bool,
    text: String,
    /// A unified diff from the document to `text`.
    diff: String,
    /// How many diagnostics the migration gives in the document.
    diagnostics: usize,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PreviewParams {
    text_document: lt::TextDocumentIdentifier,
}

fn show_message(conn: &Connection, typ: lt::MessageType, message: String) {
    use lt::notification::Notification as _;
    let n = Notification::new(lt::notification::ShowMessage::METHOD.to_string(), lt::ShowMessageParams { typ, message });
    let _ = conn.sender.send(n.into());
}

fn send_diagnostics(conn: &Connection, uri: &str, diagnostics: Vec<lt::Diagnostic>, version: Option<i32>) {
    use lt::notification::Notification as _;
    let Ok(uri) = uri.parse::<lt::Uri>() else { return };
    let params = lt::PublishDiagnosticsParams { uri, diagnostics, version };
    let n = Notification::new(lt::notification::PublishDiagnostics::METHOD.to_string(), params);
    // (a closed connection ends the loop at the next receive)
    let _ = conn.sender.send(n.into());
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
