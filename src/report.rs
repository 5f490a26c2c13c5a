//! Report: the migration report (JSON for machines, Markdown for humans),
//! the one-screen summary, and gcc-style diagnostic lines.

use crate::diagnostics::{Diagnostic, Severity};
use crate::project::{FileResult, Migration, Status};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Serialize)]
pub struct JsonDiagnostic {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub message: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub rule: &'static str,
    /// Changes to the original file that answer it (quick fixes), if known.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<JsonFix>,
}

/// A fix: its title and its replacements, located as diagnostics are
/// (1-based lines, columns in characters; the end is exclusive).
#[derive(Serialize)]
pub struct JsonFix {
    pub title: String,
    pub edits: Vec<JsonEdit>,
}

#[derive(Serialize)]
pub struct JsonEdit {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub text: String,
}

#[derive(Serialize)]
pub struct JsonFile {
    pub path: String,
    pub output: Option<String>,
    pub status: Status,
    pub rules: BTreeMap<&'static str, usize>,
    pub diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Serialize)]
pub struct JsonTotals {
    pub files_migrated: usize,
    pub files_copied: usize,
    pub files_failed: usize,
    /// Other files (data, scripts, configuration) copied as they are.
    pub other_files_copied: usize,
    pub rules: BTreeMap<&'static str, usize>,
    pub diagnostics_by_code: BTreeMap<&'static str, usize>,
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

#[derive(Serialize)]
pub struct JsonReport {
    pub tool: &'static str,
    pub version: &'static str,
    pub in_root: String,
    pub out_root: String,
    pub totals: JsonTotals,
    pub files: Vec<JsonFile>,
}

pub fn locate(f: &FileResult, d: &Diagnostic) -> JsonDiagnostic {
    let at = |r: &std::ops::Range<usize>| match &f.source {
        Some(s) => (s.line_col(r.start), s.line_col(r.end)),
        None => ((1, 1), (1, 1)),
    };
    let ((line, column), (end_line, end_column)) = at(&d.range);
    let fixes = d
        .fixes
        .iter()
        .map(|fix| JsonFix {
            title: fix.title.clone(),
            edits: fix
                .edits
                .iter()
                .map(|(r, text)| {
                    let ((line, column), (end_line, end_column)) = at(r);
                    JsonEdit { line, column, end_line, end_column, text: text.clone() }
                })
                .collect(),
        })
        .collect();
    let info = d.code.info();
    JsonDiagnostic {
        code: info.code,
        name: info.name,
        severity: d.severity,
        message: d.message.clone(),
        file: f.rel.clone(),
        line,
        column,
        end_line,
        end_column,
        rule: d.rule,
        fixes,
    }
}

pub fn build(m: &Migration) -> JsonReport {
    let mut totals = JsonTotals {
        files_migrated: 0,
        files_copied: 0,
        files_failed: 0,
        other_files_copied: m.others.len(),
        rules: BTreeMap::new(),
        diagnostics_by_code: BTreeMap::new(),
        errors: 0,
        warnings: 0,
        notes: 0,
    };
    let mut files = Vec::new();
    for f in &m.files {
        match f.status {
            Status::Migrated => totals.files_migrated += 1,
            Status::Copied => totals.files_copied += 1,
            Status::Failed => totals.files_failed += 1,
        }
        for (r, c) in &f.counts {
            *totals.rules.entry(r).or_insert(0) += c;
        }
        for d in &f.diagnostics {
            *totals.diagnostics_by_code.entry(d.code.code()).or_insert(0) += 1;
            match d.severity {
                Severity::Error => totals.errors += 1,
                Severity::Warning => totals.warnings += 1,
                Severity::Note => totals.notes += 1,
            }
        }
        files.push(JsonFile {
            path: f.rel.clone(),
            output: f.out_rel.clone(),
            status: f.status,
            rules: f.counts.clone(),
            diagnostics: f.diagnostics.iter().map(|d| locate(f, d)).collect(),
        });
    }
    // the roots as the migration resolved them (absolute on disk; `.` for a
    // migration in memory): every file path below is relative to them
    let root = |p: &std::path::Path| if p.as_os_str().is_empty() { ".".to_string() } else { p.display().to_string() };
    JsonReport { tool: "syclify", version: env!("CARGO_PKG_VERSION"), in_root: root(&m.in_root), out_root: root(&m.out_root), totals, files }
}

pub fn to_json(r: &JsonReport) -> String {
    serde_json::to_string_pretty(r).expect("report serialises") + "\n"
}

pub fn to_markdown(r: &JsonReport) -> String {
    let t = &r.totals;
    let mut s = String::new();
    let _ = writeln!(s, "# syclify migration report\n");
    let _ = writeln!(
        s,
        "| files migrated | copied unchanged | failed | errors | warnings | notes |\n|---|---|---|---|---|---|\n| {} | {} | {} | {} | {} | {} |\n",
        t.files_migrated, t.files_copied, t.files_failed, t.errors, t.warnings, t.notes
    );
    let _ = writeln!(s, "## Rules applied\n\n| rule | count |\n|---|---|");
    for (rule, c) in &t.rules {
        let _ = writeln!(s, "| `{rule}` | {c} |");
    }
    if !t.diagnostics_by_code.is_empty() {
        let _ = writeln!(s, "\n## Diagnostics by code\n\n| code | name | count |\n|---|---|---|");
        for (code, c) in &t.diagnostics_by_code {
            let name = crate::diagnostics::Code::lookup(code).map(|c| c.info().name).unwrap_or("");
            let _ = writeln!(s, "| {code} | {name} | {c} |");
        }
        let _ = writeln!(s, "\n`syclify explain CODE` gives the long explanation of each code.");
    }
    let _ = writeln!(s, "\n## Files\n\n| file | output | status | rewrites | diagnostics |\n|---|---|---|---|---|");
    for f in &r.files {
        let status = match f.status {
            Status::Migrated => "migrated",
            Status::Copied => "copied",
            Status::Failed => "**failed**",
        };
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} |",
            f.path,
            f.output.as_deref().map(|o| format!("`{o}`")).unwrap_or_else(|| "—".into()),
            status,
            f.rules.values().sum::<usize>(),
            f.diagnostics.len()
        );
    }
    let with_diags: Vec<&JsonFile> = r.files.iter().filter(|f| !f.diagnostics.is_empty()).collect();
    if !with_diags.is_empty() {
        let _ = writeln!(s, "\n## Diagnostics\n");
        for f in with_diags {
            let _ = writeln!(s, "### `{}`\n", f.path);
            for d in &f.diagnostics {
                let _ = writeln!(s, "- {}:{} {} **{}** ({}): {}", d.line, d.column, d.severity_str(), d.code, d.name, d.message.replace('|', "\\|"));
            }
            let _ = writeln!(s);
        }
    }
    s
}

impl JsonDiagnostic {
    pub fn severity_str(&self) -> &'static str {
        self.severity.as_str()
    }
    /// `file:line:col: severity: message [CODE]`
    pub fn gcc(&self) -> String {
        format!("{}:{}:{}: {}: {} [{}]", self.file, self.line, self.column, self.severity.as_str(), self.message, self.code)
    }

    /// A GitHub Actions workflow command (`::warning file=…,line=…::message`),
    /// which GitHub shows as an annotation on the line. The file is relative
    /// to the in-root: run syclify from the repository root for the
    /// annotations to land on the right files.
    pub fn github(&self) -> String {
        let level = match self.severity {
            Severity::Note => "notice",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        format!(
            "::{level} file={},line={},col={},endLine={},endColumn={},title={}::{}",
            github_property(&self.file),
            self.line,
            self.column,
            self.end_line,
            self.end_column,
            github_property(&format!("{} {}", self.code, self.name)),
            github_data(&format!("{} [{}]", self.message, self.code))
        )
    }
}

/// The one-screen summary printed on stderr.
pub fn summary(r: &JsonReport, out_root: &str, max_lines: usize) -> String {
    summary_styled(r, out_root, max_lines, &SummaryStyle::Plain)
}

/// How [`summary_styled`] shows each diagnostic.
pub enum SummaryStyle<'a> {
    /// One `file:line:col: severity: message [CODE]` line each (piped output).
    Plain,
    /// As rustc and ruff do on a terminal: the source line with a caret under
    /// the construct ([`rich`]); `source` reads a diagnostic's file (None:
    /// that diagnostic is a plain line).
    Rich { source: &'a dyn Fn(&str) -> Option<String>, color: bool },
}

/// The diagnostics `ds` rendered with their source lines and carets
/// (codespan-reporting), in ANSI colours or none.
pub fn rich(ds: &[&JsonDiagnostic], source: &dyn Fn(&str) -> Option<String>, color: bool) -> String {
    use codespan_reporting::diagnostic::{Diagnostic, Label, Severity as CSeverity};
    use codespan_reporting::term::{self, termcolor};
    let mut files = codespan_reporting::files::SimpleFiles::new();
    let mut ids: BTreeMap<&str, Option<usize>> = BTreeMap::new();
    let mut buffer = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
    let config = term::Config::default();
    for d in ds {
        let id = *ids.entry(d.file.as_str()).or_insert_with(|| source(&d.file).map(|text| files.add(d.file.clone(), text)));
        let located = id.and_then(|id| {
            let text = files.get(id).ok()?.source();
            let start = byte_at(text, d.line, d.column)?;
            let end = byte_at(text, d.end_line, d.end_column).unwrap_or(start).max(start);
            Some((id, start..end.max(start + usize::from(start < text.len()))))
        });
        let Some((id, range)) = located else {
            let _ = std::io::Write::write_all(&mut buffer, format!("{}\n", d.gcc()).as_bytes());
            continue;
        };
        let severity = match d.severity {
            Severity::Error => CSeverity::Error,
            Severity::Warning => CSeverity::Warning,
            Severity::Note => CSeverity::Note,
        };
        let diagnostic = Diagnostic::new(severity).with_code(d.code).with_message(&d.message).with_labels(vec![Label::primary(id, range)]);
        if term::emit_to_write_style(&mut buffer, &config, &files, &diagnostic).is_err() {
            let _ = std::io::Write::write_all(&mut buffer, format!("{}\n", d.gcc()).as_bytes());
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

/// Colour on a terminal, unless the NO_COLOR environment variable (its
/// value `no_color`) is set to anything but the empty string (no-color.org).
pub fn color_wanted(no_color: Option<&std::ffi::OsStr>) -> bool {
    no_color.is_none_or(|v| v.is_empty())
}

/// The byte offset of 1-based `line` and `column` (in characters) in `text`.
fn byte_at(text: &str, line: usize, column: usize) -> Option<usize> {
    let start = if line <= 1 { 0 } else { text.match_indices('\n').nth(line - 2)?.0 + 1 };
    let rest = &text[start..];
    let line_text = &rest[..rest.find('\n').unwrap_or(rest.len())];
    Some(start + line_text.char_indices().nth(column.saturating_sub(1)).map_or(line_text.len(), |(i, _)| i))
}

/// [`summary`], each diagnostic shown as `style` says.
pub fn summary_styled(r: &JsonReport, out_root: &str, max_lines: usize, style: &SummaryStyle) -> String {
    let t = &r.totals;
    let mut s = String::new();
    let others = if t.other_files_copied > 0 {
        format!(" (and {} other file{}: data, scripts)", t.other_files_copied, if t.other_files_copied == 1 { "" } else { "s" })
    } else {
        String::new()
    };
    let _ = writeln!(s, "syclify: {} migrated, {} copied unchanged{others}, {} failed → {}", t.files_migrated, t.files_copied, t.files_failed, out_root);
    if !t.rules.is_empty() {
        let mut rules: Vec<(&&str, &usize)> = t.rules.iter().collect();
        rules.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = rules.iter().map(|(r, c)| format!("{r} {c}")).collect();
        let _ = writeln!(s, "  rewrites: {}", list.join(", "));
    }
    let _ = writeln!(s, "  diagnostics: {} errors, {} warnings, {} notes", t.errors, t.warnings, t.notes);
    let important: Vec<&JsonDiagnostic> = r.files.iter().flat_map(|f| f.diagnostics.iter()).filter(|d| d.severity >= Severity::Warning).collect();
    let mut sorted = important.clone();
    sorted.sort_by_key(|d| std::cmp::Reverse(d.severity));
    match style {
        SummaryStyle::Plain => {
            for d in sorted.iter().take(max_lines) {
                let _ = writeln!(s, "  {}", d.gcc());
            }
        }
        SummaryStyle::Rich { source, color } => {
            let shown: Vec<&JsonDiagnostic> = sorted.iter().take(max_lines).copied().collect();
            s.push_str(&rich(&shown, source, *color));
        }
    }
    if sorted.len() > max_lines {
        let _ = writeln!(s, "  … and {} more", sorted.len() - max_lines);
    }
    let _ = writeln!(s, "  report: {out_root}/syclify-report.md (and .json)");
    s
}

/// Escapes a workflow command's message (GitHub's `escapeData`).
fn github_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a workflow command's property value (GitHub's `escapeProperty`).
fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod rich_tests {
    use super::*;

    fn diagnostic(line: usize, column: usize, end_column: usize) -> JsonDiagnostic {
        JsonDiagnostic {
            code: "SY0010",
            name: "cuda-left",
            severity: Severity::Error,
            message: "`cudaFoo` is left".into(),
            file: "a.cu".into(),
            line,
            column,
            end_line: line,
            end_column,
            rule: "leftovers",
            fixes: vec![],
        }
    }

    #[test]
    fn the_source_line_with_a_caret_under_the_construct() {
        let source = |f: &str| (f == "a.cu").then(|| "int main() {\n  // é\n  cudaFoo(1);\n}\n".to_string());
        let d = diagnostic(3, 3, 10);
        let out = rich(&[&d], &source, false);
        assert!(out.contains("error[SY0010]: `cudaFoo` is left"), "{out}");
        assert!(out.contains("a.cu:3:3"), "{out}");
        assert!(out.contains("3 │   cudaFoo(1);"), "{out}");
        assert!(out.contains("│   ^^^^^^^"), "{out}");
        assert!(!out.contains('\x1b'), "no colour asked: {out}");
        assert!(rich(&[&d], &source, true).contains('\x1b'));
        // a file it cannot read, or a position beyond it: the plain line
        let mut gone = diagnostic(3, 3, 10);
        gone.file = "b.cu".into();
        assert_eq!(rich(&[&gone], &source, false), format!("{}\n", gone.gcc()));
        assert_eq!(rich(&[&diagnostic(40, 1, 2)], &source, false), format!("{}\n", diagnostic(40, 1, 2).gcc()));
    }

    #[test]
    fn no_color_is_honoured() {
        assert!(color_wanted(None));
        assert!(color_wanted(Some(std::ffi::OsStr::new(""))));
        assert!(!color_wanted(Some(std::ffi::OsStr::new("1"))));
    }
}
