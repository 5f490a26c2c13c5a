//! SARIF 2.1.0 output (`--diagnostics sarif`): one run of one tool, every
//! diagnostic code as a rule (its summary and `syclify explain` text as
//! help), every diagnostic as a result located by file and region. What
//! code-scanning services (GitHub's among them) read.
//!
//! A small typed model of the part of SARIF syclify writes (SARIF's levels
//! `note`/`warning`/`error` are syclify's severities' names); the test
//! `tests/cli.rs` validates the output against the official 2.1.0 schema.

use crate::diagnostics::Code;
use crate::report::JsonReport;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
pub struct Log {
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    pub version: &'static str,
    pub runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub tool: Tool,
    pub original_uri_base_ids: BTreeMap<&'static str, ArtifactLocation>,
    pub column_kind: &'static str,
    pub results: Vec<SarifResult>,
}

#[derive(Serialize)]
pub struct Tool {
    pub driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    pub name: &'static str,
    pub semantic_version: &'static str,
    pub rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    pub id: &'static str,
    pub name: &'static str,
    pub short_description: Text,
    pub full_description: Text,
    pub help: Text,
    pub default_configuration: Configuration,
}

#[derive(Serialize)]
pub struct Text {
    pub text: String,
}

#[derive(Serialize)]
pub struct Configuration {
    pub level: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: &'static str,
    pub rule_index: usize,
    pub level: &'static str,
    pub message: Text,
    pub locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<Fix>,
}

/// A proposed fix (SARIF §3.55): replacements in the original file.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fix {
    pub description: Text,
    pub artifact_changes: Vec<ArtifactChange>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactChange {
    pub artifact_location: ArtifactLocation,
    pub replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Replacement {
    pub deleted_region: Region,
    pub inserted_content: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    pub physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    pub region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: usize,
    pub start_column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

/// Percent-encodes what a URI reference cannot hold as is (RFC 3986: a
/// path keeps unreserved characters, sub-delimiters, `:`, `@` and `/`).
pub fn uri_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The SARIF log of a migration. File URIs are relative to `SRCROOT`, the
/// in-root (given as an absolute `file:` URI).
pub fn build(r: &JsonReport, in_root: &Path) -> Log {
    let codes = Code::in_order();
    let rules: Vec<Rule> = codes
        .iter()
        .map(|c| {
            let i = c.info();
            Rule {
                id: i.code,
                name: i.name,
                short_description: Text { text: i.summary.to_string() },
                full_description: Text { text: i.explanation.to_string() },
                help: Text { text: format!("{}\n\n(`syclify explain {}`)", i.explanation, i.code) },
                default_configuration: Configuration { level: i.severity.as_str() },
            }
        })
        .collect();
    let index: BTreeMap<&str, usize> = codes.iter().enumerate().map(|(n, c)| (c.code(), n)).collect();
    let mut results = Vec::new();
    for f in &r.files {
        for d in &f.diagnostics {
            results.push(SarifResult {
                rule_id: d.code,
                rule_index: index[d.code],
                level: d.severity.as_str(),
                message: Text { text: d.message.clone() },
                locations: vec![Location {
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation { uri: uri_path(&d.file), uri_base_id: Some("SRCROOT") },
                        region: Region {
                            start_line: d.line.max(1),
                            start_column: d.column.max(1),
                            end_line: d.end_line.max(d.line).max(1),
                            end_column: if d.end_line > d.line { d.end_column.max(1) } else { d.end_column.max(d.column).max(1) },
                        },
                    },
                }],
                fixes: d
                    .fixes
                    .iter()
                    .map(|fix| Fix {
                        description: Text { text: fix.title.clone() },
                        artifact_changes: vec![ArtifactChange {
                            artifact_location: ArtifactLocation { uri: uri_path(&d.file), uri_base_id: Some("SRCROOT") },
                            replacements: fix
                                .edits
                                .iter()
                                .map(|e| Replacement {
                                    // (an insertion is an empty region: its end is its start)
                                    deleted_region: Region { start_line: e.line, start_column: e.column, end_line: e.end_line, end_column: e.end_column },
                                    inserted_content: Text { text: e.text.clone() },
                                })
                                .collect(),
                        }],
                    })
                    .collect(),
            });
        }
    }
    let mut root = uri_path(&in_root.display().to_string());
    if !root.ends_with('/') {
        root.push('/');
    }
    let root = if root.starts_with('/') { format!("file://{root}") } else { format!("file:///{root}") };
    Log {
        schema: SCHEMA_URI,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool { driver: Driver { name: "syclify", semantic_version: env!("CARGO_PKG_VERSION"), rules } },
            original_uri_base_ids: BTreeMap::from([("SRCROOT", ArtifactLocation { uri: root, uri_base_id: None })]),
            column_kind: "unicodeCodePoints",
            results,
        }],
    }
}

/// The SARIF log as pretty JSON, with a final newline.
pub fn to_json(r: &JsonReport, in_root: &Path) -> String {
    let mut s = serde_json::to_string_pretty(&build(r, in_root)).expect("the SARIF model serialises");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri_path("dir with space/a%b.cu"), "dir%20with%20space/a%25b.cu");
        assert_eq!(uri_path("ü.cu"), "%C3%BC.cu");
    }
}
