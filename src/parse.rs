//! Parsing: one tree-sitter parser per thread, over the masked text.

use crate::diagnostics::{Code, Diagnostic};
use crate::mask::{self, Mask};
use std::cell::RefCell;
use std::collections::BTreeMap;
use tree_sitter::{Node, Parser, Tree};

pub fn language() -> tree_sitter::Language {
    tree_sitter_cuda::LANGUAGE.into()
}

thread_local! {
    static PARSER: RefCell<Parser> = RefCell::new({
        let mut p = Parser::new();
        p.set_language(&language()).expect("tree-sitter-cuda matches the tree-sitter ABI");
        p
    });
}

/// Parses `text` (already masked, or a snippet) with this thread's parser.
pub fn parse_text(text: &str) -> Tree {
    PARSER.with(|p| p.borrow_mut().parse(text, None).expect("parser has a language and no timeout"))
}

/// A parsed file: the tree is over `masked`, which has the same byte offsets
/// as the original text.
pub struct Parsed {
    pub masked: String,
    pub masks: Vec<Mask>,
    pub tree: Tree,
}

pub fn parse_file(text: &str, qualifier_macros: &BTreeMap<String, Vec<String>>) -> Parsed {
    let (masked, masks) = mask::mask(text, qualifier_macros);
    let tree = parse_text(&masked);
    Parsed { masked, masks, tree }
}

/// One diagnostic per region that did not parse (outermost ERROR or MISSING nodes).
pub fn syntax_diagnostics(tree: &Tree, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let root = tree.root_node();
    if !root.has_error() {
        return out;
    }
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            out.push(Diagnostic::new(Code::SyntaxError, n.byte_range(), "parse", syntax_message(n, text)));
            continue;
        }
        if n.has_error() {
            let mut c = n.walk();
            let children: Vec<Node> = n.children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    out.sort_by_key(|d| d.range.start);
    out
}

fn syntax_message(n: Node, text: &str) -> String {
    if n.is_missing() {
        return format!("could not parse here (expected `{}`); the region was left as is", n.kind());
    }
    let in_conditional = {
        let mut p = n.parent();
        let mut found = false;
        while let Some(x) = p {
            if matches!(x.kind(), "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif") {
                found = true;
                break;
            }
            p = x.parent();
        }
        found
    };
    let mut snippet: String = text[n.byte_range()].split_whitespace().collect::<Vec<_>>().join(" ");
    if snippet.chars().count() > 40 {
        snippet = snippet.chars().take(40).collect::<String>() + "…";
    }
    let next_is_conditional = n.next_sibling().is_some_and(|s| s.kind().starts_with("preproc_if"));
    if in_conditional || next_is_conditional {
        format!("could not parse `{snippet}`: an `#if` seems to split a declaration; the region was left as is (move the conditional outside the declaration)")
    } else {
        format!("could not parse `{snippet}`; the region was left as is")
    }
}

fn point_at(text: &str, offset: usize) -> tree_sitter::Point {
    let before = &text.as_bytes()[..offset];
    let row = before.iter().filter(|b| **b == b'\n').count();
    let col = offset - before.iter().rposition(|b| *b == b'\n').map(|p| p + 1).unwrap_or(0);
    tree_sitter::Point { row, column: col }
}

/// Parses only `range` of `text` (e.g. a macro body) as code of its own; the
/// tree's offsets are offsets of `text`.
pub fn parse_range(text: &str, range: std::ops::Range<usize>) -> Tree {
    let ts_range =
        tree_sitter::Range { start_byte: range.start, end_byte: range.end, start_point: point_at(text, range.start), end_point: point_at(text, range.end) };
    PARSER.with(|p| {
        let mut p = p.borrow_mut();
        p.set_included_ranges(&[ts_range]).expect("one ordered range");
        let tree = p.parse(text, None).expect("parser has a language and no timeout");
        p.set_included_ranges(&[]).expect("empty ranges are valid");
        tree
    })
}
