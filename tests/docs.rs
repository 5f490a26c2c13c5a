//! The book under `docs/` (mdBook: `docs/book.toml`, `docs/SUMMARY.md`):
//! its generated reference pages are what `syclify reference` writes now,
//! every page is in the summary, and every relative link of the book, the
//! README and ARCHITECTURE.md leads to a file that exists and, with a
//! `#fragment`, to a heading or anchor of it. (`scripts/test.sh` also builds
//! the book with mdBook.)

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn docs() -> PathBuf {
    common::root().join("docs")
}

/// Every Markdown file under `dir`, sorted.
fn markdown_under(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = common::files_under(dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    out.sort();
    out
}

#[test]
fn reference_pages_are_current() {
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_syclify")).arg("reference").arg(tmp.path()).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reference = docs().join("reference");
    let generated: BTreeSet<PathBuf> = markdown_under(tmp.path()).iter().map(|p| p.strip_prefix(tmp.path()).unwrap().to_path_buf()).collect();
    let committed: BTreeSet<PathBuf> = markdown_under(&reference).iter().map(|p| p.strip_prefix(&reference).unwrap().to_path_buf()).collect();
    let fix = "regenerate them: `cargo run -- reference docs/reference`";
    assert_eq!(generated, committed, "docs/reference/ holds other pages than syclify generates; {fix}");
    let stale: Vec<String> = generated
        .iter()
        .filter(|rel| std::fs::read(tmp.path().join(rel)).unwrap() != std::fs::read(reference.join(rel)).unwrap())
        .map(|rel| rel.display().to_string())
        .collect();
    assert!(stale.is_empty(), "stale reference pages: {}; {fix}", stale.join(", "));
}

/// The targets of a Markdown text's inline links `[text](target)` and
/// images, outside code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || line.starts_with("    ") {
            continue;
        }
        // code spans hold no links
        let plain: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            // `\[a\](b)` is text, not a link
            if rest[..i].ends_with('\\') {
                rest = after;
                continue;
            }
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push(target.to_string());
            rest = &after[end..];
        }
    }
    out
}

/// The anchors of a Markdown file as mdBook makes them: each heading's
/// text lower-cased, spaces to `-`, other characters than letters, digits,
/// `_` and `-` dropped (repeats get `-1`, `-2`); and explicit `id="…"`s.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if let Some(i) = line.find("id=\"")
            && let Some(end) = line[i + 4..].find('"')
        {
            out.insert(line[i + 4..i + 4 + end].to_string());
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#').trim();
        let mut slug: String = heading
            .chars()
            .filter_map(|c| {
                if c == ' ' {
                    Some('-')
                } else if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_ascii_lowercase())
                } else {
                    None
                }
            })
            .collect();
        if out.contains(&slug) {
            let mut n = 1;
            while out.contains(&format!("{slug}-{n}")) {
                n += 1;
            }
            slug = format!("{slug}-{n}");
        }
        out.insert(slug);
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let root = common::root();
    let mut files = markdown_under(&docs());
    files.push(root.join("README.md"));
    files.push(root.join("ARCHITECTURE.md"));
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in links(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = target.split_once('#').map_or((target.as_str(), None), |(p, f)| (p, Some(f)));
            let dest = if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
            let rel = file.strip_prefix(&root).unwrap().display().to_string();
            if !dest.exists() {
                broken.push(format!("{rel}: `{target}`: no such file"));
                continue;
            }
            if let Some(f) = fragment
                && dest.extension().is_some_and(|e| e == "md")
                && !anchors(&std::fs::read_to_string(&dest).unwrap()).contains(f)
            {
                broken.push(format!("{rel}: `{target}`: no heading or anchor `{f}` there"));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_page_is_in_the_summary() {
    let summary = std::fs::read_to_string(docs().join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<PathBuf> = links(&summary).iter().map(|t| docs().join(t)).collect();
    let missing: Vec<String> = markdown_under(&docs())
        .into_iter()
        .filter(|p| !p.ends_with("SUMMARY.md") && !listed.contains(p))
        .map(|p| p.strip_prefix(common::root()).unwrap().display().to_string())
        .collect();
    assert!(missing.is_empty(), "pages not in docs/SUMMARY.md (the book would not show them): {}", missing.join(", "));
}

#[test]
fn the_link_and_anchor_readers_can_fail() {
    assert_eq!(links("see [a](x.md#b) and `[c](d)`\n```\n[e](f)\n```\n![img](i.png) \\[&\\](int x)"), vec!["x.md#b", "i.png"]);
    let a = anchors("# Using it: `check`\n## A, b\n## A, b\n<a id=\"sy0001\"></a>");
    assert_eq!(a, ["using-it-check", "a-b", "a-b-1", "sy0001"].iter().map(|s| s.to_string()).collect());
}
