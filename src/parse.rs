//! Parsing: one tree-sitter parser per thread, over the masked text.

use crate::diagnostics::{Code, Diagnostic};
use crate::mask::{self, Mask, MaskKind};
use crate::syntax::NodeKind;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
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

/// Parses `text`, which is the text `old` was parsed from with the byte
/// ranges `changed` rewritten in place (same lengths, newlines kept, as
/// masks do): tree-sitter reuses the unchanged subtrees, so a recovery trial
/// on a large file costs about the size of what it changed, not a whole
/// parse. `line_starts`: the offsets where `text`'s lines start.
fn reparse(text: &str, old: &Tree, changed: &[std::ops::Range<usize>], line_starts: &[usize]) -> Tree {
    let point = |at: usize| point_at(line_starts, at);
    let mut edited = old.clone();
    for r in changed {
        edited.edit(&tree_sitter::InputEdit {
            start_byte: r.start,
            old_end_byte: r.end,
            new_end_byte: r.end,
            start_position: point(r.start),
            old_end_position: point(r.end),
            new_end_position: point(r.end),
        });
    }
    PARSER.with(|p| p.borrow_mut().parse(text, Some(&edited)).expect("parser has a language and no timeout"))
}

/// A parsed file: the tree is over `masked`, which has the same byte offsets
/// as the original text.
#[derive(Clone)]
pub struct Parsed {
    pub masked: String,
    pub masks: Vec<Mask>,
    pub tree: Tree,
}

/// Whether two parses are the same for everything after them: the same
/// masked text and masks, and trees of the same nodes (kind, field, byte
/// range, whether missing) in the same order — what the index and the
/// rules read of a tree.
pub fn same_parse(a: &Parsed, b: &Parsed) -> bool {
    if a.masked != b.masked || a.masks.len() != b.masks.len() || a.masks.iter().zip(&b.masks).any(|(x, y)| x.range != y.range || x.kind != y.kind) {
        return false;
    }
    let (mut x, mut y) = (a.tree.walk(), b.tree.walk());
    loop {
        let (m, n) = (x.node(), y.node());
        if m.kind_id() != n.kind_id() || m.byte_range() != n.byte_range() || m.is_missing() != n.is_missing() || x.field_id() != y.field_id() {
            return false;
        }
        let down = x.goto_first_child();
        if down != y.goto_first_child() {
            return false;
        }
        if down {
            continue;
        }
        loop {
            let next = x.goto_next_sibling();
            if next != y.goto_next_sibling() {
                return false;
            }
            if next {
                break;
            }
            let up = x.goto_parent();
            if up != y.goto_parent() {
                return false;
            }
            if !up {
                return true;
            }
        }
    }
}

/// Parses a file: masks what the grammar cannot read ([`mask::mask`]), then,
/// while regions do not parse, tries to read through the macro uses in them
/// (see [`recover`]). `macro_names` are the project's macros.
pub fn parse_file(text: &str, qualifier_macros: &BTreeMap<String, mask::QualifierMacro>, macro_names: &BTreeSet<String>) -> Parsed {
    parse_file_with(text, qualifier_macros, macro_names, &Defines::new())
}

/// Macros known to be defined (`Some(value)`; `-DX` is `"1"`) or undefined
/// (`None`) for a file, as a compilation database's `-D`/`-U` say.
pub type Defines = BTreeMap<String, Option<String>>;

/// [`parse_file`], where a conditional whose branches split braces is
/// parsed in the configuration `defines` select when they decide it.
pub fn parse_file_with(text: &str, qualifier_macros: &BTreeMap<String, mask::QualifierMacro>, macro_names: &BTreeSet<String>, defines: &Defines) -> Parsed {
    parse_file_first(text, qualifier_macros, macro_names, defines).0
}

/// The first parse of a file: its masked text and that text's tree, before
/// any recovery. The parse of the file's next version reuses it
/// ([`parse_file_after`]).
#[derive(Clone)]
pub struct FirstParse {
    masked: String,
    tree: Tree,
}

/// [`parse_file_with`], with its first parse.
pub fn parse_file_first(
    text: &str,
    qualifier_macros: &BTreeMap<String, mask::QualifierMacro>,
    macro_names: &BTreeSet<String>,
    defines: &Defines,
) -> (Parsed, FirstParse) {
    let (masked, masks) = mask::mask(text, qualifier_macros);
    let tree = parse_text(&masked);
    let first = FirstParse { masked: masked.clone(), tree: tree.clone() };
    let mut parsed = Parsed { masked, masks, tree };
    if parsed.tree.root_node().has_error() {
        recover(text, &mut parsed, macro_names, defines);
    }
    (parsed, first)
}

/// The parse of a new version of a file whose earlier version's first parse
/// was `before` (an editor's document after a change), reusing `before`'s
/// tree for what the change did not touch (tree-sitter's incremental parse:
/// about the cost of the change rather than of the file), then recovering
/// as [`parse_file_with`] does; with its first parse, and whether the
/// result is known to be [`parse_file_with`]'s.
///
/// It is when the incremental parse has no error: such a parse gives the
/// tree a whole parse gives (checked on every such edit of
/// `tests/properties.rs`'s, and on 3,004 edits of HeCBench files). One
/// with errors does not always (42 of 2,024 such HeCBench edits differ), nor
/// then does the recovery that follows it: the result is the whole parse's
/// only where [`same_parse`] says so of the two. `on_errors` is called when
/// the incremental parse has errors, before the recovery (a caller starts
/// the whole parse that checks it).
pub fn parse_file_after(
    text: &str,
    qualifier_macros: &BTreeMap<String, mask::QualifierMacro>,
    macro_names: &BTreeSet<String>,
    defines: &Defines,
    before: &FirstParse,
    on_errors: impl FnOnce(),
) -> (Parsed, FirstParse, bool) {
    let (masked, masks) = mask::mask(text, qualifier_macros);
    let tree = parse_after(&before.masked, &before.tree, &masked);
    let first = FirstParse { masked: masked.clone(), tree: tree.clone() };
    let mut parsed = Parsed { masked, masks, tree };
    if !parsed.tree.root_node().has_error() {
        return (parsed, first, true);
    }
    on_errors();
    recover(text, &mut parsed, macro_names, defines);
    (parsed, first, false)
}

/// Parses `text` reusing `old`, the tree of `old_text`: the change between
/// the two is taken as one edit, from their first to their last differing
/// byte.
fn parse_after(old_text: &str, old: &Tree, text: &str) -> Tree {
    let (a, b) = (old_text.as_bytes(), text.as_bytes());
    let same_start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let same_end = a[same_start..].iter().rev().zip(b[same_start..].iter().rev()).take_while(|(x, y)| x == y).count();
    let point = |s: &[u8], at: usize| {
        let row = s[..at].iter().filter(|&&c| c == b'\n').count();
        let column = at - s[..at].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        tree_sitter::Point { row, column }
    };
    let mut edited = old.clone();
    edited.edit(&tree_sitter::InputEdit {
        start_byte: same_start,
        old_end_byte: a.len() - same_end,
        new_end_byte: b.len() - same_end,
        start_position: point(a, same_start),
        old_end_position: point(a, a.len() - same_end),
        new_end_position: point(b, b.len() - same_end),
    });
    PARSER.with(|p| p.borrow_mut().parse(text, Some(&edited)).expect("parser has a language and no timeout"))
}

/// The value of a simple condition line under `defines`: `#ifdef X`,
/// `#ifndef X`, `#if [!]defined(X)`, `#if [!]X`, `#if X OP N`; None when it
/// is not one of those or names a macro `defines` does not decide.
pub fn condition_value(line: &str, defines: &Defines) -> Option<bool> {
    let t = line.trim_start().strip_prefix('#')?.trim_start();
    let (kw, rest) = t.split_once(|c: char| c.is_whitespace()).unwrap_or((t, ""));
    let rest = rest.split("//").next().unwrap_or("").split("/*").next().unwrap_or("").trim();
    let is_name = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !s.starts_with(|c: char| c.is_ascii_digit());
    let defined = |x: &str| -> Option<bool> { is_name(x).then(|| defines.get(x).map(|v| v.is_some()))? };
    let int = crate::syntax::integer_value;
    let value = |x: &str| -> Option<i64> {
        match defines.get(x)? {
            None => Some(0),
            Some(v) => int(v),
        }
    };
    match kw {
        "ifdef" => defined(rest),
        "ifndef" => defined(rest).map(|d| !d),
        "if" => {
            let (neg, e) = match rest.strip_prefix('!') {
                Some(e) => (true, e.trim()),
                None => (false, rest),
            };
            let v = if let Some(inner) = e.strip_prefix("defined") {
                defined(inner.trim().trim_start_matches('(').trim_end_matches(')').trim())
            } else if is_name(e) {
                value(e).map(|v| v != 0)
            } else {
                let re = cached_regex!(r"^(\w+)\s*(==|!=|>=|<=|>|<)\s*(\w+)$");
                let c = re.captures(e)?;
                let (a, b) = (value(&c[1]).or_else(|| int(&c[1]))?, value(&c[3]).or_else(|| int(&c[3]))?);
                Some(match &c[2] {
                    "==" => a == b,
                    "!=" => a != b,
                    ">=" => a >= b,
                    "<=" => a <= b,
                    ">" => a > b,
                    _ => a < b,
                })
            };
            v.map(|v| v != neg)
        }
        _ => None,
    }
}

/// How much of a tree did not parse: bytes of error regions plus a weight per
/// region (a missing token has no bytes).
fn error_cost(tree: &Tree) -> usize {
    error_regions(tree).iter().map(|r| r.len() + 16).sum()
}

/// The outermost ERROR and MISSING nodes' ranges, in order.
fn error_regions(tree: &Tree) -> Vec<std::ops::Range<usize>> {
    error_nodes(tree).iter().map(|n| n.byte_range()).collect()
}

/// The outermost ERROR and MISSING nodes, in document order.
fn error_nodes(tree: &Tree) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let root = tree.root_node();
    if !root.has_error() {
        return out;
    }
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if crate::syntax::is_list_directive(n) {
            continue; // a directive between arguments or parameters: the rules keep it
        }
        if n.is_error() || n.is_missing() {
            out.push(n);
            continue;
        }
        if n.has_error() {
            let mut c = n.walk();
            let children: Vec<Node> = n.children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    out.sort_by_key(|n| n.start_byte());
    out
}

/// At most this many whole-file re-parses per file in [`recover`] (and as
/// many bytes parsed in windows as this many times the file).
const RECOVERY_PARSES: usize = 64;

/// At most this many rounds of [`recover`] whose tries mend their windows
/// but not the file.
const FAILED_ROUNDS: usize = 8;

/// At most this many macro-use tries per error region and round in
/// [`recover`] (the region's other tries come after them).
const MACRO_USE_TRIES: usize = 64;

/// Error recovery for macros the grammar cannot read. C and C++ code uses
/// macros the parser cannot expand: as statements without `;`
/// (`CHECK(cudaMalloc(&p, n))`), as declarations at file scope
/// (`DEFINE_OP(Add)`), with type arguments (`ALLOC(double, n)`), as
/// specifiers (`FORCE_INLINE int f()`), between string literals
/// (`"%" PRIu64`). For each region that does not parse, the macro-like names
/// in and just before it (the project's macros, all-caps names, `PRI*`/`SCN*`)
/// are tried, in order: the use read as a statement (one blank after it read
/// as `;`), its type arguments read as a placeholder name, its arguments
/// hidden, the whole use hidden; before those, every statement-position use
/// of the file at once ([`statement_macro_ends`]). A try is kept only when
/// the re-parse has fewer errors; tries in declarations apart are judged
/// each in its window and re-parsed together (see the loop). Hidden text
/// is kept as written in the output (the macro's definition is migrated
/// where it is defined).
fn recover(text: &str, parsed: &mut Parsed, macro_names: &BTreeSet<String>, defines: &Defines) {
    // whole-file re-parses, at most RECOVERY_PARSES; and the bytes parsed
    // in windows, at most as many as that many whole files: linear time
    let mut parses = 0;
    let mut window_bytes = 0;
    let window_budget = RECOVERY_PARSES * parsed.masked.len();
    let mut cost = error_cost(&parsed.tree);
    // rounds whose tries mended their windows but not the file
    let mut failed_rounds = 0;
    let mut tried: BTreeSet<(usize, u8)> = BTreeSet::new();
    // every try on stderr (a debugging aid: ARCHITECTURE.md)
    let debug = std::env::var_os("SYCLIFY_DEBUG_RECOVERY").is_some();
    // first, every macro use in statement position without `;` at once
    let mut first = Some(statement_macro_ends(&parsed.masked, macro_names)).filter(|v| !v.is_empty());
    // after a specifier-like use was hidden, every such use of that name
    let mut every_use: Option<Vec<Mask>> = None;
    // masks keep every newline: the lines start where they did
    let line_starts = line_starts(&parsed.masked);
    // the error cost of each window of the masked text as it stands
    let mut window_costs: std::collections::HashMap<std::ops::Range<usize>, usize> = std::collections::HashMap::new();
    'outer: while cost > 0 && parses < RECOVERY_PARSES {
        let regions = error_regions(&parsed.tree);
        if debug {
            eprintln!("round: cost {cost}, {parses} parses, regions {regions:?}");
        }
        // (kind, masks, the region it is for)
        let mut candidates: Vec<(u8, Vec<Mask>, Option<usize>)> = first.take().map(|v| vec![(3, v, None)]).unwrap_or_default();
        candidates.extend(every_use.take().map(|v| (7, v, None)));
        let (splitting, inner) = choice_groups(&parsed.masked, defines);
        // (the masked text's directive lines and line spans, for every region's candidates)
        let mut scan = RoundScan::new(&parsed.masked, &line_starts);
        for (r, region) in regions.iter().enumerate() {
            let mut tries = recovery_candidates(text, &parsed.masked, &mut scan, region.clone(), macro_names, [&splitting, &inner]);
            // a region over most of the file, or over all that follows it (a
            // conditional group that splits braces, unread, swallows what
            // follows): its configurations first, before the macro uses in
            // it, each a whole re-parse
            let to_the_end = region.len() >= 4096 && parsed.masked[region.end.min(parsed.masked.len())..].trim().is_empty();
            if 2 * region.len() >= parsed.masked.len() || to_the_end {
                tries.sort_by_key(|(kind, _)| !matches!(kind, 7..=9));
            }
            candidates.extend(tries.into_iter().map(|(k, c)| (k, c, Some(r))));
        }
        // Tries that mend the declarations around them (their window), the
        // first such of each region and one per window: applied together,
        // with one whole re-parse, since declarations apart do not change
        // each other's parse (checked: together they must lower the file's
        // errors, else the first is tried alone). A try without a window of
        // its own is tried alone.
        let mut batch: Vec<(std::ops::Range<usize>, u8, Vec<Mask>)> = Vec::new();
        let mut mended: BTreeSet<usize> = BTreeSet::new();
        let mut lists = Lists::new();
        // macro uses tried per region this round: a region that spans most of
        // a file (a conditional group splitting its braces) holds thousands,
        // and its conditional configurations come after them
        let mut uses_tried: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
        for (kind, cand, region) in candidates {
            if debug {
                eprintln!("try kind {kind} region {region:?} masks {:?}", cand.iter().map(|m| m.range.clone()).collect::<Vec<_>>());
            }
            if region.is_some_and(|r| mended.contains(&r)) {
                continue;
            }
            if let Some(r) = region
                && matches!(kind, 0 | 1 | 2 | 4)
            {
                let n = uses_tried.entry(r).or_default();
                if *n >= MACRO_USE_TRIES {
                    continue;
                }
                *n += 1;
            }
            let key = (cand.first().map_or(0, |m| m.range.start), kind);
            if tried.contains(&key) {
                continue;
            }
            let changed: Vec<std::ops::Range<usize>> = cand.iter().map(|m| m.range.clone()).collect();
            if kind != 3
                && let Some(window) = trial_window(&parsed.tree, &changed, &mut lists)
            {
                if batch.iter().any(|(w, ..)| w.start < window.end && window.start < w.end) {
                    continue; // the next round's
                }
                if window_bytes >= window_budget {
                    break;
                }
                tried.insert(key);
                let before = *window_costs.entry(window.clone()).or_insert_with(|| {
                    window_bytes += window.len();
                    error_cost(&parse_bytes(&parsed.masked.as_bytes()[window.clone()]))
                });
                window_bytes += window.len();
                if error_cost(&parse_bytes(&masked_with(&parsed.masked, window.clone(), &cand))) >= before {
                    continue;
                }
                if let Some(r) = region {
                    mended.insert(r);
                }
                batch.push((window, kind, cand));
                continue;
            }
            if !batch.is_empty() {
                break; // the next round's
            }
            tried.insert(key);
            let (trial, tree, c) = whole_try(parsed, &cand, &line_starts);
            parses += 1;
            // every statement-position macro use read as a statement is kept
            // also when it mends nothing by itself: without it the parser may
            // read `CHECK_LAST` / `cudaMalloc(&p, n);` as one declaration
            // without an error, while another region fails
            if c < cost || (kind == 3 && c == cost) {
                cost = c;
                accept(text, parsed, vec![(kind, cand)], trial, tree, &mut every_use, &mut window_costs, &mut tried);
                continue 'outer;
            }
            if parses >= RECOVERY_PARSES {
                break 'outer;
            }
        }
        if batch.is_empty() {
            break;
        }
        let all: Vec<Mask> = batch.iter().flat_map(|(_, _, c)| c.iter().cloned()).collect();
        let (trial, tree, c) = whole_try(parsed, &all, &line_starts);
        parses += 1;
        if c < cost {
            cost = c;
            accept(text, parsed, batch.into_iter().map(|(_, k, c)| (k, c)).collect(), trial, tree, &mut every_use, &mut window_costs, &mut tried);
            continue;
        }
        // a try that mends its window but not the file: the next rounds'
        // tries likely do not either (a region over the whole file that
        // nothing mends): a few such rounds, not the whole budget
        failed_rounds += 1;
        if failed_rounds >= FAILED_ROUNDS {
            break;
        }
        if batch.len() == 1 {
            continue; // (alone it is what was just tried)
        }
        // not apart after all: the first alone (the others are tried again)
        for (_, kind, cand) in &batch[1..] {
            tried.remove(&(cand.first().map_or(0, |m| m.range.start), *kind));
        }
        let (_, kind, cand) = batch.swap_remove(0);
        if parses >= RECOVERY_PARSES {
            break;
        }
        let (trial, tree, c) = whole_try(parsed, &cand, &line_starts);
        parses += 1;
        if c < cost {
            cost = c;
            accept(text, parsed, vec![(kind, cand)], trial, tree, &mut every_use, &mut window_costs, &mut tried);
        }
    }
}

/// Keeps recovery tries: their masks, the text and tree with them; after a
/// specifier-like use hidden, every such use of the same names is the next
/// try; the window costs over text they changed are dropped.
#[allow(clippy::too_many_arguments)]
fn accept(
    text: &str,
    parsed: &mut Parsed,
    tries: Vec<(u8, Vec<Mask>)>,
    masked: String,
    tree: Tree,
    every_use: &mut Option<Vec<Mask>>,
    window_costs: &mut std::collections::HashMap<std::ops::Range<usize>, usize>,
    tried: &mut BTreeSet<(usize, u8)>,
) {
    // a conditional configuration that failed before may mend its region
    // now (a conditional around a call, once the one in the parameter list
    // above it is read; its window may span most of the file, so every one)
    if tries.iter().any(|(kind, _)| *kind != 3) {
        tried.retain(|(_, kind)| !(7..=12).contains(kind));
    }
    parsed.masked = masked;
    parsed.tree = tree;
    let changed: Vec<std::ops::Range<usize>> = tries.iter().flat_map(|(_, c)| c.iter().map(|m| m.range.clone())).collect();
    window_costs.retain(|w, _| !changed.iter().any(|r| r.start < w.end && w.start < r.end));
    let specifiers: Vec<&[Mask]> = tries.iter().filter(|(kind, _)| *kind == 2).map(|(_, c)| c.as_slice()).collect();
    let uses = specifier_uses(text, &parsed.masked, &specifiers);
    for (_, cand) in tries {
        parsed.masks.extend(cand);
    }
    parsed.masks.sort_by_key(|m| m.range.start);
    if !uses.is_empty() {
        *every_use = Some(uses);
    }
}

/// The bytes of `masked` in `range` with the masks of a recovery try
/// (all inside it) applied: blanks, newlines kept, a statement end's first
/// byte `;` and a type argument's `_`.
fn masked_with(masked: &str, range: std::ops::Range<usize>, masks: &[Mask]) -> Vec<u8> {
    let mut b = masked.as_bytes()[range.clone()].to_vec();
    for m in masks {
        for (i, at) in m.range.clone().enumerate() {
            let byte = &mut b[at - range.start];
            *byte = match m.kind {
                MaskKind::StatementEnd if i == 0 => b';',
                MaskKind::TypeArgument if i == 0 => b'_',
                _ if *byte == b'\n' => b'\n',
                _ => b' ',
            };
        }
    }
    b
}

/// A recovery try over the whole file: the masked text with its masks
/// applied, re-parsed (incrementally: only around them), and the error
/// cost of that tree.
fn whole_try(parsed: &Parsed, masks: &[Mask], line_starts: &[usize]) -> (String, Tree, usize) {
    let trial = String::from_utf8(masked_with(&parsed.masked, 0..parsed.masked.len(), masks)).expect("masks blank whole characters");
    let changed: Vec<std::ops::Range<usize>> = masks.iter().map(|m| m.range.clone()).collect();
    let tree = reparse(&trial, &parsed.tree, &changed, line_starts);
    let cost = error_cost(&tree);
    (trial, tree, cost)
}

/// Parses bytes that may not be UTF-8 at their ends (a window of a file).
fn parse_bytes(bytes: &[u8]) -> Tree {
    PARSER.with(|p| p.borrow_mut().parse(bytes, None).expect("parser has a language and no timeout"))
}

/// The span a recovery try over `changed` is first judged on: the
/// declaration at file or namespace level that holds all of it, with the
/// declarations before and after it (a macro use at the end of one may
/// break the next). None when no one declaration holds it all (a try over
/// the whole file) or the window would be most of the file anyway.
fn trial_window<'t>(tree: &'t Tree, changed: &[std::ops::Range<usize>], lists: &mut Lists<'t>) -> Option<std::ops::Range<usize>> {
    let start = changed.iter().map(|r| r.start).min()?;
    let end = changed.iter().map(|r| r.end).max()?;
    let root = tree.root_node();
    let mut list = root;
    loop {
        let children = lists.entry(list.id()).or_insert_with(|| {
            let mut c = list.walk();
            list.children(&mut c).collect()
        });
        // (children end in order: the first that ends at or after `end`)
        let at = children.partition_point(|n| n.end_byte() < end);
        let Some(&holder) = children.get(at).filter(|n| n.start_byte() <= start) else {
            // between declarations (a blank read as `;` after a macro use at
            // the end of one), or over several: those, with one more on
            // each side
            let first = children.partition_point(|n| n.end_byte() <= start);
            let last = children.partition_point(|n| n.start_byte() < end);
            let from = first.checked_sub(1).and_then(|i| children.get(i)).map_or(list.start_byte(), |n| n.start_byte());
            let to = children.get(last).or(children.last()).map_or(list.end_byte(), |n| n.end_byte().max(end));
            return (from <= start && 2 * (to - from) < root.end_byte()).then_some(from..to);
        };
        // into a namespace's or `extern "C"`'s body, when it holds it all
        let body = matches!(holder.kind_str(), "namespace_definition" | "linkage_specification")
            .then(|| holder.field("body"))
            .flatten()
            .filter(|b| b.kind_str() == "declaration_list" && b.start_byte() < start && end < b.end_byte());
        if let Some(b) = body {
            list = b;
            continue;
        }
        let from = at.checked_sub(1).map_or(holder.start_byte(), |i| children[i].start_byte());
        let to = children.get(at + 1).map_or(holder.end_byte(), |n| n.end_byte());
        return (2 * (to - from) < root.end_byte()).then_some(from..to);
    }
}

/// The children of the declaration lists [`trial_window`] went through,
/// by node id (read once per tree).
type Lists<'t> = std::collections::HashMap<usize, Vec<Node<'t>>>;

/// Hidden macro uses that stood before a name (`FORCE_INLINE void f()`, as
/// a specifier), each a try of `hidden`: the other uses of those macros in
/// such a position, to hide at once (one re-parse, where a file may have
/// hundreds of them; one scan of the file for all the names).
fn specifier_uses(text: &str, masked: &str, hidden: &[&[Mask]]) -> Vec<Mask> {
    let b = masked.as_bytes();
    let before_name = |end: usize| b.get(mask::skip_blanks(b, end)).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
    let names: BTreeSet<&str> = hidden
        .iter()
        .filter_map(|h| {
            let [m] = h else { return None };
            let name = &text[m.range.clone()];
            (name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') && before_name(m.range.end)).then_some(name)
        })
        .collect();
    if names.is_empty() {
        return Vec::new();
    }
    let mut directives = None;
    crate::syntax::identifiers(masked)
        .into_iter()
        .filter(|(r, w)| names.contains(w) && before_name(r.end))
        .filter(|(r, _)| !directives.get_or_insert_with(|| mask::Directives::new(masked)).contains(r.start))
        .map(|(r, _)| Mask { range: r, kind: MaskKind::Unparsed })
        .collect()
}

/// Is `w` named like a macro: one of the project's, an all-caps name, or a
/// `<cinttypes>` format macro (`PRIu64`)?
fn macro_like(w: &str, macro_names: &BTreeSet<String>) -> bool {
    macro_names.contains(w)
        || (w.len() > 1 && w.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_') && w.bytes().any(|c| c.is_ascii_uppercase()))
        || ((w.starts_with("PRI") || w.starts_with("SCN")) && w.len() > 3)
}

/// Where a macro use stands as a statement without `;` (`CHECK(call)` or
/// `CUERR` alone on its line, the next statement on a later line): the blank
/// after each, to be read as `;`; and the type arguments of every use of the
/// project's function-like macros.
fn statement_macro_ends(masked: &str, macro_names: &BTreeSet<String>) -> Vec<Mask> {
    let b = masked.as_bytes();
    let mut out = Vec::new();
    let code = crate::syntax::identifiers(masked);
    let directives = mask::Directives::new(masked);
    let parens = mask::Parens::new(b);
    let (mut last_end, mut accepted_end) = (0, usize::MAX);
    for (r, w) in code {
        if r.start < last_end || !macro_like(w, macro_names) || directives.contains(r.start) {
            continue;
        }
        // type arguments of the project's function-like macros, wherever used
        // (`p = ALLOC(int, n);`)
        let open = mask::skip_blanks(b, r.end);
        if let Some(close) = (macro_names.contains(w) && b.get(open) == Some(&b'(')).then(|| parens.matching(b, open)).flatten() {
            out.extend(type_arguments(masked, open, close));
        }
        // right after another macro use read as a statement (`OP OP OP`), or
        // first on its line after a statement, block, comment or directive
        let after_macro = masked[..r.start].trim_end().len() == accepted_end;
        let ls = masked[..r.start].rfind('\n').map_or(0, |x| x + 1);
        let prev = masked[..ls].trim_end();
        let prev_line = &prev[prev.rfind('\n').map_or(0, |x| x + 1)..];
        // or after a statement on its own line (`cudaFree(p); CUERR`)
        let same_line = masked[ls..r.start].trim_end();
        let after_statement = (!same_line.trim().is_empty() && same_line.ends_with([';', '{', '}']) && !same_line.trim_start().starts_with("for"))
            || masked[ls..r.start].trim().is_empty()
                && (prev.is_empty()
                    || prev.ends_with([';', '{', '}', ':'])
                    || prev.ends_with("*/")
                    || prev.len() == accepted_end
                    || prev_line.trim_start().starts_with('#')
                    || prev_line.contains("//"));
        // or the body of a control statement on its line (`if (verbose) LOG(x)`)
        let after_control = control_head(masked, ls, ls + same_line.len());
        if !after_macro && !after_statement && !after_control {
            continue;
        }
        let end = if b.get(open) == Some(&b'(') {
            let Some(close) = parens.matching(b, open) else { continue };
            close + 1
        } else {
            r.end
        };
        last_end = end;
        let next = skip_space(masked, end);
        let starts_statement = b.get(next).is_none_or(|c| c.is_ascii_alphabetic() || *c == b'_' || *c == b'}' || *c == b'#');
        let word_end = (next..b.len()).find(|&i| !(b[i].is_ascii_alphanumeric() || b[i] == b'_')).unwrap_or(b.len());
        let next_is_macro = word_end > next && !masked[word_end..].starts_with(['(', ':']) && macro_like(&masked[next..word_end], macro_names);
        if !starts_statement || !(masked[end..next].contains('\n') || next_is_macro) {
            continue;
        }
        let blank = (end..next).find(|&i| b[i] == b' ' || b[i] == b'\t');
        let blank = blank.or_else(|| (end..next).find(|&i| b[i] == b'\n').filter(|_| b.get(next) != Some(&b'#')));
        if let Some(p) = blank {
            accepted_end = end;
            out.push(Mask { range: p..p + 1, kind: MaskKind::StatementEnd });
        }
    }
    out
}

/// Whether `masked[from..to]` (a line up to a macro use) is the head of a
/// control statement whose body the use is: `if (…)`, `else if (…)`,
/// `while (…)`, `for (…)` with the condition's parentheses closing at `to`,
/// or `else`.
fn control_head(masked: &str, from: usize, to: usize) -> bool {
    let head = masked[from..to].trim_start();
    let start = to - head.len();
    if head == "else" || head.ends_with("} else") {
        return true;
    }
    let keyword = ["else if", "if", "while", "for"].into_iter().find(|k| head.strip_prefix(k).is_some_and(|r| r.trim_start().starts_with('(')));
    let Some(keyword) = keyword else { return false };
    let b = masked.as_bytes();
    let open = mask::skip_blanks(b, start + keyword.len());
    b.get(open) == Some(&b'(') && mask::matching_paren(b, open).is_some_and(|close| close + 1 == to)
}

/// The arguments of the macro use `(open … close)` made only of type
/// keywords (`long long`, `unsigned int`), as [`MaskKind::TypeArgument`].
fn type_arguments(masked: &str, open: usize, close: usize) -> Vec<Mask> {
    const KEYWORDS: &[&str] = &["unsigned", "signed", "long", "short", "int", "char", "float", "double", "bool", "void", "const", "volatile"];
    let b = masked.as_bytes();
    let (mut out, mut depth, mut start) = (Vec::new(), 0usize, open + 1);
    for i in open + 1..=close {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if i < close => depth = depth.saturating_sub(1),
            b',' | b')' if depth == 0 => {
                let arg = &masked[start..i];
                let words: Vec<&str> = arg.split(|c: char| c.is_whitespace() || c == '*' || c == '&').filter(|w| !w.is_empty()).collect();
                if !words.is_empty() && words.iter().all(|w| KEYWORDS.contains(w)) {
                    let lead = arg.len() - arg.trim_start().len();
                    let trail = arg.trim_end().len();
                    out.push(Mask { range: start + lead..start + trail, kind: MaskKind::TypeArgument });
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// One `#if`/`#ifdef`/`#ifndef` … `#endif` group: its directive lines and
/// the text of each branch.
#[derive(Debug)]
struct ConditionalGroup {
    /// The `#if…` line (without its newline).
    head: std::ops::Range<usize>,
    /// Each branch: its directive line (the `#if…`, `#elif…` or `#else`
    /// line) and its body (the lines up to the next directive of the group).
    branches: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
    /// The `#endif` line.
    end: std::ops::Range<usize>,
    /// Only the configuration the known macros select is tried (a group
    /// between statements whose branches the grammar still cannot read:
    /// `#ifdef _WIN32` / `if (fopen_s(…))` / `#else` / `if (!(fp = fopen(…)))`
    /// / `#endif` / `{ … }`).
    decided_only: bool,
    /// The condition's value where the known macros and the file's own
    /// `#define`s and `#undef`s before it decide it ([`LocalDefines`]).
    value: Option<bool>,
}

/// The `#define`s and `#undef`s of a file met so far, for the conditions of
/// later groups: a `#define USE_X` / … / `#ifdef USE_X` group whose branches
/// the grammar cannot read is parsed in the configuration the compiler
/// takes. A directive counts where it is in the branch of the condition or
/// in a branch around it (it is always seen first); one in a branch since
/// closed makes the name unknown again.
#[derive(Default)]
struct LocalDefines {
    /// Each name's directives in order: the branch they are in (0: outside
    /// every group) and the value (None: `#undef`).
    events: std::collections::HashMap<String, Vec<(usize, Option<String>)>>,
    /// The branches open at this point, outermost first.
    open: Vec<usize>,
    /// Whether each branch (by number; 0 is outside every group) is open:
    /// the test of [`LocalDefines::value`] in constant time, however deep
    /// the groups nest.
    is_open: Vec<bool>,
}

impl LocalDefines {
    fn enter_branch(&mut self) {
        if self.is_open.is_empty() {
            self.is_open.push(true);
        }
        self.open.push(self.is_open.len());
        self.is_open.push(true);
    }

    fn leave_branch(&mut self) {
        if let Some(b) = self.open.pop() {
            self.is_open[b] = false;
        }
    }

    fn directive(&mut self, d: &str) {
        let d = d.trim_start();
        let (kw, rest) = d.split_once(|c: char| c.is_whitespace()).unwrap_or((d, ""));
        let rest = rest.trim_start();
        let name_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let name = &rest[..name_end];
        if name.is_empty() || !matches!(kw, "define" | "undef") {
            return;
        }
        let value = (kw == "define").then(|| {
            if rest[name_end..].starts_with('(') {
                String::new()
            } else {
                rest[name_end..].split("//").next().unwrap_or("").split("/*").next().unwrap_or("").trim().to_string()
            }
        });
        let branch = self.open.last().copied().unwrap_or(0);
        self.events.entry(name.to_string()).or_default().push((branch, value));
    }

    /// `line`'s value (an `#if…` line) with `defines` and the directives
    /// before it.
    fn value(&self, line: &str, defines: &Defines) -> Option<bool> {
        let mut local = Defines::new();
        for (_, w) in crate::syntax::identifier_tokens(line) {
            let seen = |b: usize| b == 0 || self.is_open.get(b).copied().unwrap_or(false);
            match self.events.get(w).and_then(|e| e.last()) {
                // the last directive of the name is always seen before the line
                Some((b, v)) if seen(*b) => {
                    local.insert(w.to_string(), v.clone());
                }
                // one in a closed branch: unknown
                Some(_) => {}
                None => {
                    if let Some(v) = defines.get(w) {
                        local.insert(w.to_string(), v.clone());
                    }
                }
            }
        }
        condition_value(line, &local)
    }
}

/// Every conditional group of `masked` (nested ones too), in order of their
/// `#endif`.
fn conditional_groups(masked: &str, defines: &Defines) -> Vec<ConditionalGroup> {
    let mut out = Vec::new();
    let mut open: Vec<ConditionalGroup> = Vec::new();
    let mut local = LocalDefines::default();
    let mut pos = 0;
    while pos < masked.len() {
        let line_end = masked[pos..].find('\n').map_or(masked.len(), |x| pos + x);
        let mut end = line_end;
        // a directive continued over lines
        while end < masked.len() && masked[..end].trim_end_matches('\r').ends_with('\\') {
            end = masked[end + 1..].find('\n').map_or(masked.len(), |x| end + 1 + x);
        }
        let t = masked[pos..end].trim_start();
        if let Some(d) = t.strip_prefix('#') {
            let word = d.trim_start().split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
            let line = pos..end;
            match word {
                "if" | "ifdef" | "ifndef" => {
                    let value = local.value(&masked[line.clone()], defines);
                    local.enter_branch();
                    open.push(ConditionalGroup { head: line.clone(), branches: vec![(line, end + 1..end + 1)], end: 0..0, decided_only: false, value })
                }
                "elif" | "else" => {
                    if let Some(g) = open.last_mut() {
                        if let Some(last) = g.branches.last_mut() {
                            last.1.end = pos.max(last.1.start);
                        }
                        g.branches.push((line, end + 1..end + 1));
                        local.leave_branch();
                        local.enter_branch();
                    }
                }
                "define" | "undef" => local.directive(d),
                "endif" => {
                    if let Some(mut g) = open.pop() {
                        local.leave_branch();
                        if let Some(last) = g.branches.last_mut() {
                            last.1.end = pos.max(last.1.start);
                        }
                        g.end = line;
                        out.push(g);
                    }
                }
                _ => {}
            }
        }
        pos = end + 1;
    }
    out
}

/// What [`walk_code`] meets.
enum CodeItem {
    /// The start of a directive line (which is then skipped, continuation
    /// lines included).
    Directive(usize),
    /// Any other byte outside comments; a string or character literal as
    /// its opening quote only.
    Byte(u8),
}

/// Walks the code of `s` in one pass, calling `on` for each directive line
/// and each byte of code (comments and literals skipped).
fn walk_code(s: &str, mut on: impl FnMut(CodeItem)) {
    walk_code_at(s, |_, item| on(item));
}

/// [`walk_code`], with each item's offset.
fn walk_code_at(s: &str, mut on: impl FnMut(usize, CodeItem)) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        if line_start {
            let indent = s[i..].len() - s[i..].trim_start_matches([' ', '\t']).len();
            if b.get(i + indent) == Some(&b'#') {
                on(i + indent, CodeItem::Directive(i + indent));
                // to the end of the directive, continuation lines included
                while i < b.len() && !(b[i] == b'\n' && (i == 0 || b[i - 1] != b'\\')) {
                    i += 1;
                }
            }
        }
        if i >= b.len() {
            break;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => i = s[i..].find('\n').map_or(b.len(), |x| i + x),
            b'/' if b.get(i + 1) == Some(&b'*') => i = s[i + 2..].find("*/").map_or(b.len(), |x| i + 2 + x + 1),
            c @ (b'"' | b'\'') => {
                on(i, CodeItem::Byte(c));
                i = mask::literal_end(b, i);
            }
            c => on(i, CodeItem::Byte(c)),
        }
        // (a `//` comment or a directive leaves `i` at its newline)
        line_start = b.get(i) == Some(&b'\n');
        i += 1;
    }
}

/// The net count of `{`/`}` and `(`/`)` in `s` (comments, strings,
/// character literals and directives skipped: a macro body is not code of
/// the branch): nonzero when a branch opens what another one, or the code
/// after the group, closes. (What [`bracket_balances`] computes for many
/// ranges at once; kept as its specification.)
#[cfg(test)]
fn bracket_balance(s: &str) -> (i64, i64) {
    let (mut braces, mut parens) = (0i64, 0i64);
    walk_code(s, |code| match code {
        CodeItem::Byte(b'{') => braces += 1,
        CodeItem::Byte(b'}') => braces -= 1,
        CodeItem::Byte(b'(') => parens += 1,
        CodeItem::Byte(b')') => parens -= 1,
        _ => {}
    });
    (braces, parens)
}

/// [`bracket_balance`] of each of `ranges` of `s`, in one pass over `s`
/// (the branches of nested groups hold each other: one walk of each would
/// be quadratic in the nesting). Each range starts at a line's start, after
/// a directive line, as a branch's body does.
fn bracket_balances(s: &str, ranges: &[std::ops::Range<usize>]) -> Vec<(i64, i64)> {
    let mut points: Vec<usize> = ranges.iter().flat_map(|r| [r.start, r.end]).collect();
    points.sort_unstable();
    points.dedup();
    // the balance of everything before each point
    let mut before: Vec<(i64, i64)> = Vec::with_capacity(points.len());
    let (mut braces, mut parens) = (0i64, 0i64);
    walk_code_at(s, |at, code| {
        while before.len() < points.len() && points[before.len()] <= at {
            before.push((braces, parens));
        }
        match code {
            CodeItem::Byte(b'{') => braces += 1,
            CodeItem::Byte(b'}') => braces -= 1,
            CodeItem::Byte(b'(') => parens += 1,
            CodeItem::Byte(b')') => parens -= 1,
            _ => {}
        }
    });
    before.resize(points.len(), (braces, parens));
    let at = |p: usize| before[points.binary_search(&p).expect("a point of the ranges")];
    ranges
        .iter()
        .map(|r| {
            let ((b0, p0), (b1, p1)) = (at(r.start), at(r.end));
            (b1 - b0, p1 - p0)
        })
        .collect()
}

/// `#ifndef X` / `#define X` …: a header's include guard, never a choice.
fn is_include_guard(masked: &str, g: &ConditionalGroup) -> bool {
    let head: Vec<&str> = masked[g.head.clone()].trim_start().trim_start_matches('#').split_whitespace().collect();
    let Some((_, body)) = g.branches.first() else { return false };
    let first = masked[body.clone()].lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("//")).unwrap_or("");
    let define: Vec<&str> = first.trim_start_matches('#').split_whitespace().collect();
    matches!(head.as_slice(), ["ifndef", name] if define.len() >= 2 && define[0] == "define" && define[1] == *name)
}

/// The conditional groups of `masked` that recovery may parse in one
/// configuration (include guards left out), in two lists: those whose
/// branches split braces or parentheses, and the
/// others — a group inside a declaration or an argument list
/// (`f(a\n#if X\n| b\n#endif\n)`, a branch choosing between two parameter
/// lists or two declarators of one function, `#ifdef _WIN32 __stdcall
/// #endif` before a function's name), which the grammar has no place for.
/// Computed once per recovery round, not per error region: a large header
/// has thousands of regions and groups that span most of it. The second
/// list's configurations are tried before the tries that hide macro uses
/// (which would leave their code unmigrated), the first's last.
fn choice_groups(masked: &str, defines: &Defines) -> (Vec<ConditionalGroup>, Vec<ConditionalGroup>) {
    let groups: Vec<ConditionalGroup> = conditional_groups(masked, defines).into_iter().filter(|g| !is_include_guard(masked, g)).collect();
    let bodies: Vec<std::ops::Range<usize>> = groups.iter().flat_map(|g| g.branches.iter().map(|(_, body)| body.clone())).collect();
    let mut balances = bracket_balances(masked, &bodies).into_iter();
    let (splitting, rest): (Vec<ConditionalGroup>, Vec<ConditionalGroup>) = groups.into_iter().partition(|g| {
        // (every branch's balance taken, in order, whatever the answer)
        let unbalanced: Vec<bool> = g.branches.iter().map(|_| balances.next().expect("a balance per body") != (0, 0)).collect();
        unbalanced.contains(&true)
    });
    // (a group between statements or declarations is the grammar's own
    // `preproc_if`, whose branches it reads: none of these)
    let mut heads: Vec<usize> = rest.iter().map(|g| g.head.start).collect();
    heads.sort_unstable();
    let inside = directives_inside_constructs(masked, &heads);
    // (and one between statements whose condition the known macros decide:
    // that configuration only)
    let inner = rest
        .into_iter()
        .filter_map(|mut g| {
            if heads.binary_search(&g.head.start).is_ok_and(|i| inside[i]) {
                return Some(g);
            }
            g.decided_only = true;
            g.value.is_some().then_some(g)
        })
        .collect();
    (splitting, inner)
}

/// For each directive line starting at `heads` (sorted): does it stand
/// inside a construct — within parentheses or brackets (not in a brace
/// block inside them: a lambda's body), or after a token that cannot
/// end a statement or declaration (`static void` / `#ifdef _WIN32`, `x =` /
/// `#if`)? One pass over the text, comments, literals and directive lines
/// skipped.
fn directives_inside_constructs(s: &str, heads: &[usize]) -> Vec<bool> {
    let mut out = vec![false; heads.len()];
    // the open brackets (a lambda's body inside a call's parentheses holds
    // statements again), and the last byte of code before
    let mut open: Vec<u8> = Vec::new();
    let mut last = 0u8;
    let mut next = 0usize;
    walk_code(s, |code| match code {
        CodeItem::Directive(at) => {
            while next < heads.len() && heads[next] < at {
                next += 1;
            }
            if next < heads.len() && heads[next] == at {
                out[next] = matches!(open.last(), Some(b'(' | b'[')) || !matches!(last, 0 | b';' | b'{' | b'}' | b')' | b':');
                next += 1;
            }
        }
        CodeItem::Byte(c @ (b'(' | b'[' | b'{')) => {
            open.push(c);
            last = c;
        }
        CodeItem::Byte(c @ (b')' | b']' | b'}')) => {
            open.pop();
            last = c;
        }
        CodeItem::Byte(c) if !c.is_ascii_whitespace() => last = c,
        CodeItem::Byte(_) => {}
    });
    out
}

/// Candidates that parse one configuration of the conditional groups in
/// `region` among `splitting` (one list of [`choice_groups`]): groups with the same
/// condition line are decided together (`#ifdef FUSED` / `} else {` /
/// `#endif` … `#ifdef FUSED` / `}` / `#endif`). First the configuration
/// the known macros (`project::known_defines`) and the file's own
/// `#define`s before each group select where they decide every such
/// condition ([`ConditionalGroup::value`]), then the last branch of each (the
/// `#else`, or none: the usual default of a debugging switch), then the
/// first. The other branches and the directive lines are hidden. `inner`:
/// the groups are [`choice_groups`]' second list (kinds 10-12, not 7-9).
fn branch_candidates(masked: &str, region: &std::ops::Range<usize>, splitting: &[ConditionalGroup], inner: bool) -> Vec<(u8, Vec<Mask>)> {
    let groups: Vec<&ConditionalGroup> = splitting
        .iter()
        .filter(|g| g.head.start < region.end.max(region.start + 1) && g.end.end >= region.start)
        // a group between statements only where the parse failed at one of
        // its directive lines, not in a region around all of it (hiding a
        // branch would lower the errors of any region holding it)
        .filter(|g| {
            !g.decided_only
                || (!(region.start <= g.head.start && g.end.end <= region.end)
                    && std::iter::once(&g.head)
                        .chain(g.branches.iter().map(|(l, _)| l))
                        .chain(std::iter::once(&g.end))
                        .any(|l| l.start < region.end && region.start < l.end.max(l.start + 1)))
        })
        .collect();
    let key = |g: &ConditionalGroup| crate::syntax::one_line(&masked[g.head.clone()]);
    // each condition once, in order of first appearance (a repeated one,
    // `#ifdef DEBUG` in every part of a large file, would otherwise give as
    // many copies of a candidate over all its groups: quadratic)
    let mut seen = BTreeSet::new();
    let keys: Vec<String> = groups.iter().map(|g| key(g)).filter(|k| seen.insert(k.clone())).collect();
    let mut out = Vec::new();
    for k in keys {
        let same: Vec<&ConditionalGroup> = groups.iter().copied().filter(|g| key(g) == k).collect();
        // keep the last branch when it is an `#else`; else keep none
        let keep_last = |g: &ConditionalGroup| -> Option<usize> {
            let (line, _) = g.branches.last()?;
            masked[line.clone()].trim_start().trim_start_matches('#').trim_start().starts_with("else").then(|| g.branches.len() - 1)
        };
        // the configuration the compilation database's flags select, first
        let decided = |g: &ConditionalGroup| -> Option<Option<usize>> {
            match g.value? {
                true => Some(Some(0)),
                false if g.branches.len() == 1 => Some(None),
                false if g.branches.len() == 2 => keep_last(g).map(Some),
                false => None,
            }
        };
        let selected: Option<Vec<Option<usize>>> = same.iter().map(|g| decided(g)).collect();
        let decided_only = same.iter().all(|g| g.decided_only);
        for choice in [2u8, 0, 1] {
            if (choice == 2 && selected.is_none()) || (choice != 2 && decided_only) {
                continue;
            }
            let mut masks = Vec::new();
            for (n, g) in same.iter().enumerate() {
                let kept = match choice {
                    2 => selected.as_ref().and_then(|s| s[n]),
                    0 => keep_last(g),
                    _ => Some(0),
                };
                masks.push(Mask { range: g.head.clone(), kind: MaskKind::InactiveBranch });
                for (i, (line, body)) in g.branches.iter().enumerate() {
                    if i > 0 {
                        masks.push(Mask { range: line.clone(), kind: MaskKind::InactiveBranch });
                    }
                    if Some(i) != kept && !body.is_empty() {
                        masks.push(Mask { range: body.clone(), kind: MaskKind::InactiveBranch });
                    }
                }
                masks.push(Mask { range: g.end.clone(), kind: MaskKind::InactiveBranch });
            }
            masks.sort_by_key(|m| m.range.start);
            let kind = if choice == 2 { 9 } else { 7 + choice };
            out.push((if inner { kind + 3 } else { kind }, masks));
        }
    }
    out
}

/// Candidate masks for one error region, in the order they are tried, each
/// with a kind tag (0 statement, 4 type arguments, 1 arguments, 2 whole use,
/// 5 `defined(…)` parentheses, 6 misplaced qualifiers, 7/8 one configuration (9: the one the known macros select)
/// of conditional branches that split brackets, 10/11/12 the same of the
/// other conditional groups in the region, last).
fn recovery_candidates(
    text: &str,
    masked: &str,
    scan: &mut RoundScan,
    region: std::ops::Range<usize>,
    macro_names: &BTreeSet<String>,
    [splitting, inner]: [&[ConditionalGroup]; 2],
) -> Vec<(u8, Vec<Mask>)> {
    let b = masked.as_bytes();
    // from the start of the line before the region's line to its end (a
    // missing `;` is reported at the next token)
    let line_starts = scan.line_starts;
    let line_start = |p: usize| line_starts[line_starts.partition_point(|&s| s <= p).saturating_sub(1)];
    let mut from = line_start(region.start.min(b.len()));
    if from > 0 {
        from = line_start(from - 1);
    }
    let mut to = (region.end.max(region.start + 1)).min(b.len());
    while !masked.is_char_boundary(to) {
        to += 1;
    }
    // (the first newline at or after `to`)
    let to = line_starts.get(line_starts.partition_point(|&s| s <= to)).map_or(b.len(), |next| next - 1);
    let mut out = Vec::new();
    // `#if defined(X)` between arguments: the parentheses read as blanks
    let region_text = &masked[region.start.min(b.len())..];
    if region_text.starts_with("#if") || region_text.starts_with("#elif") {
        let line_end = region_text.find('\n').map_or(b.len(), |x| region.start + x);
        let mut parens = Vec::new();
        let mut i = region.start;
        while let Some(d) = masked[i..line_end].find("defined") {
            let open = mask::skip_blanks(b, i + d + "defined".len());
            match (b.get(open), mask::matching_paren(b, open).filter(|c| *c < line_end)) {
                (Some(b'('), Some(close)) => {
                    parens.push(Mask { range: open..open + 1, kind: MaskKind::DirectiveParen });
                    parens.push(Mask { range: close..close + 1, kind: MaskKind::DirectiveParen });
                    i = close + 1;
                }
                _ => i = i + d + "defined".len(),
            }
        }
        if !parens.is_empty() {
            out.push((5, parens));
        }
    }
    // the span's candidates, read once a round for all its regions (a long
    // line with thousands of them)
    let span = scan.spans.entry((from, to)).or_insert_with(|| span_candidates(text, masked, &scan.directives, &scan.parens, from..to, macro_names));
    // execution-space qualifiers where the grammar has no place for them
    // (at most MACRO_USE_TRIES: a line of thousands, each after an error,
    // would make as many masks for each of its regions)
    let first = span.qualifiers.partition_point(|(r, _)| r.start < region.start);
    let misplaced: Vec<Mask> = span.qualifiers[first..]
        .iter()
        .take(MACRO_USE_TRIES)
        .map(|(r, w)| Mask { range: r.clone(), kind: MaskKind::MisplacedQualifier(w.to_string()) })
        .collect();
    if !misplaced.is_empty() {
        out.push((6, misplaced));
    }
    // a configuration of a conditional group inside a declaration or an
    // argument list comes before the tries that hide a macro use's
    // arguments or the whole use (which would leave the code in them
    // unmigrated: `CHECK(f(a` / `#if V` / `| b` / `#endif` / `))`)
    let hiding = span.macro_uses.iter().position(|(kind, _)| matches!(kind, 1 | 2)).unwrap_or(span.macro_uses.len());
    out.extend(span.macro_uses[..hiding].iter().cloned());
    // (from the line before the region's: a missing `)` is reported after
    // the `#endif` of the group that hid it)
    let near = from.min(region.start)..region.end;
    out.extend(branch_candidates(masked, &near, inner, true));
    out.extend(span.macro_uses[hiding..].iter().cloned());
    out.extend(branch_candidates(masked, &near, splitting, false));
    out
}

/// What a round's error regions read of its masked text, read once: the
/// directive lines, the matching parentheses, and each line span's
/// candidates (shared by the regions on its lines).
struct RoundScan<'a> {
    line_starts: &'a [usize],
    directives: mask::Directives,
    parens: mask::Parens,
    spans: std::collections::HashMap<(usize, usize), SpanCandidates>,
}

impl<'a> RoundScan<'a> {
    fn new(masked: &str, line_starts: &'a [usize]) -> Self {
        RoundScan {
            line_starts,
            directives: mask::Directives::new(masked),
            parens: mask::Parens::new(masked.as_bytes()),
            spans: std::collections::HashMap::new(),
        }
    }
}

/// A line span's execution-space qualifiers outside directives, and the
/// tries its macro uses give (at most [`MACRO_USE_TRIES`]: no region tries
/// more).
struct SpanCandidates {
    qualifiers: Vec<(std::ops::Range<usize>, &'static str)>,
    macro_uses: Vec<(u8, Vec<Mask>)>,
}

fn span_candidates(
    text: &str,
    masked: &str,
    directives: &mask::Directives,
    parens: &mask::Parens,
    span: std::ops::Range<usize>,
    macro_names: &BTreeSet<String>,
) -> SpanCandidates {
    let b = masked.as_bytes();
    let (from, to) = (span.start, span.end);
    let ids = crate::syntax::identifiers(&masked[from..to]);
    let qualifiers = ids
        .iter()
        .filter_map(|(r, w)| match *w {
            "__device__" => Some((from + r.start..from + r.end, "__device__")),
            "__host__" => Some((from + r.start..from + r.end, "__host__")),
            _ => None,
        })
        .filter(|(r, _)| !directives.contains(r.start))
        .collect();
    let mut out = Vec::new();
    for (r, w) in ids {
        if out.len() >= MACRO_USE_TRIES {
            break;
        }
        let (start, end) = (from + r.start, from + r.end);
        if !macro_like(w, macro_names) || directives.contains(start) {
            continue;
        }
        let open = mask::skip_blanks(b, end);
        if b.get(open) == Some(&b'(') {
            let Some(close) = parens.matching(b, open) else { continue };
            let next = skip_space(masked, close + 1);
            let ends_statement =
                b.get(next).is_none_or(|c| c.is_ascii_alphabetic() || *c == b'_' || *c == b'}' || *c == b'#') && masked[close + 1..next].contains('\n');
            if ends_statement {
                // a blank after `)`: a space or tab, else the newline unless
                // a directive follows it
                let blank = (close + 1..next).find(|&i| b[i] == b' ' || b[i] == b'\t');
                let blank = blank.or_else(|| (close + 1..next).find(|&i| b[i] == b'\n').filter(|_| b.get(next) != Some(&b'#')));
                if let Some(p) = blank {
                    out.push((0, vec![Mask { range: p..p + 1, kind: MaskKind::StatementEnd }]));
                }
            }
            let type_args = type_arguments(masked, open, close);
            if !type_args.is_empty() {
                out.push((4, type_args));
            }
            if close > open + 1 {
                out.push((1, vec![Mask { range: open + 1..close, kind: MaskKind::Unparsed }]));
            }
            out.push((2, vec![Mask { range: start..close + 1, kind: MaskKind::Unparsed }]));
        } else if !text[end..].starts_with("::") {
            out.push((2, vec![Mask { range: start..end, kind: MaskKind::Unparsed }]));
        }
    }
    SpanCandidates { qualifiers, macro_uses: out }
}

/// The next offset at or after `i` that is not whitespace or a comment.
fn skip_space(s: &str, mut i: usize) -> usize {
    let b = s.as_bytes();
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if s[i..].starts_with("//") {
            i = s[i..].find('\n').map_or(b.len(), |x| i + x);
        } else if s[i..].starts_with("/*") {
            i = s[i + 2..].find("*/").map_or(b.len(), |x| i + 2 + x + 2);
        } else {
            return i;
        }
    }
}

/// One diagnostic per region that did not parse (outermost ERROR or MISSING nodes).
pub fn syntax_diagnostics(tree: &Tree, text: &str) -> Vec<Diagnostic> {
    error_nodes(tree).into_iter().map(|n| Diagnostic::new(Code::SyntaxError, n.byte_range(), "parse", syntax_message(n, text))).collect()
}

/// One warning (SY0005) per conditional branch that error recovery hid
/// ([`MaskKind::InactiveBranch`]) and that holds code.
pub fn inactive_branch_diagnostics(masks: &[Mask], text: &str) -> Vec<Diagnostic> {
    masks
        .iter()
        .filter(|m| m.kind == MaskKind::InactiveBranch && !mask::in_directive(text, m.range.start) && !text[m.range.clone()].trim().is_empty())
        .map(|m| {
            let lines = text[m.range.clone()].trim_end().lines().count();
            let range = m.range.start..m.range.start + text[m.range.clone()].trim_end().len();
            Diagnostic::new(
                Code::InactiveBranch,
                range,
                "parse",
                format!(
                    "this conditional branch ({lines} line{}) was kept as written (CUDA type and enumerator names migrated): the grammar cannot read its `#if` here, so another configuration was parsed",
                    if lines == 1 { "" } else { "s" }
                ),
            )
        })
        .collect()
}

fn syntax_message(n: Node, text: &str) -> String {
    if n.is_missing() {
        return format!("could not parse here (expected `{}`); the region was left as is", n.kind_str());
    }
    let in_conditional = {
        let mut p = n.parent();
        let mut found = false;
        while let Some(x) = p {
            if matches!(x.kind_str(), "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif") {
                found = true;
                break;
            }
            p = x.parent();
        }
        found
    };
    let mut snippet: String = crate::syntax::one_line(&text[n.byte_range()]);
    if snippet.chars().count() > 40 {
        snippet = snippet.chars().take(40).collect::<String>() + "…";
    }
    let next_is_conditional = n.next_sibling().is_some_and(|s| s.kind_str().starts_with("preproc_if"));
    if in_conditional || next_is_conditional {
        format!("could not parse `{snippet}`: an `#if` seems to split a declaration; the region was left as is (move the conditional outside the declaration)")
    } else {
        format!("could not parse `{snippet}`; the region was left as is")
    }
}

/// The offsets where `text`'s lines start (for [`parse_range`] and the
/// recovery's re-parses).
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

fn point_at(line_starts: &[usize], offset: usize) -> tree_sitter::Point {
    let row = line_starts.partition_point(|&s| s <= offset).saturating_sub(1);
    tree_sitter::Point { row, column: offset - line_starts.get(row).copied().unwrap_or(0) }
}

/// Parses only `range` of `text` (e.g. a macro body) as code of its own; the
/// tree's offsets are offsets of `text`. `line_starts`: [`line_starts`] of
/// `text`, made once for all of a file's ranges (finding a range's line
/// by counting from the start would make many ranges quadratic).
pub fn parse_range(text: &str, range: std::ops::Range<usize>, line_starts: &[usize]) -> Tree {
    let ts_range = tree_sitter::Range {
        start_byte: range.start,
        end_byte: range.end,
        start_point: point_at(line_starts, range.start),
        end_point: point_at(line_starts, range.end),
    };
    PARSER.with(|p| {
        let mut p = p.borrow_mut();
        p.set_included_ranges(&[ts_range]).expect("one ordered range");
        let tree = p.parse(text, None).expect("parser has a language and no timeout");
        p.set_included_ranges(&[]).expect("empty ranges are valid");
        tree
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conditional_splitting_braces_is_read_past_many_macro_like_names() {
        // the group splits the function's braces: the file is one region that
        // does not parse, holding hundreds of all-caps names (macro-like):
        // their tries are capped, and the group's configurations still come
        let mut text = String::from("#if VERSION >= 3\nvoid f(int a) {\n#else\nvoid f(int a, int b) {\n#endif\n  int x = a;\n}\n");
        for i in 0..300 {
            text.push_str(&format!("int g{i}(int v) {{ return v + LIMIT_{i} * SCALE_{i}; }}\n"));
        }
        let parsed = parse_file(&text, &BTreeMap::new(), &BTreeSet::new());
        assert!(!parsed.tree.root_node().has_error());
        assert!(parsed.masks.iter().any(|m| m.kind == MaskKind::InactiveBranch));
    }

    #[test]
    fn recovery_mends_every_region_of_a_large_file() {
        // 300 declarations, each with a macro use the grammar cannot read
        // and that no other try covers: each needs a try of its own, far
        // more than the whole-file re-parses allowed (tries in declarations
        // apart are taken together)
        let text: String = (0..300).map(|i| format!("struct S{i} {{ int a; }} s{i} MAYBE_UNUSED;\n")).collect();
        let parsed = parse_file(&text, &BTreeMap::new(), &BTreeSet::new());
        assert!(!parsed.tree.root_node().has_error(), "{}", parsed.tree.root_node().to_sexp().chars().take(400).collect::<String>());
        assert_eq!(parsed.masks.iter().filter(|m| &text[m.range.clone()] == "MAYBE_UNUSED").count(), 300);
    }

    #[test]
    fn bracket_balances_of_branches_are_those_of_each_branch() {
        let src = "#if A\nf(x, {\n#if B\n// {\ng(\"(\");\n#else\nh({'(');\n#endif\n#elif C\n}\n#endif\nint y;\n";
        let groups = conditional_groups(src, &Defines::new());
        let bodies: Vec<_> = groups.iter().flat_map(|g| g.branches.iter().map(|(_, b)| b.clone())).collect();
        assert!(bodies.len() >= 4);
        let one_pass = bracket_balances(src, &bodies);
        for (b, got) in bodies.iter().zip(one_pass) {
            assert_eq!(got, bracket_balance(&src[b.clone()]), "{:?}", &src[b.clone()]);
        }
    }

    #[test]
    fn bracket_balance_skips_comments_strings_and_directives() {
        assert_eq!(bracket_balance("for (;;) {\n"), (1, 0));
        assert_eq!(bracket_balance("// {\n#define F(x) ((x)\nint a = '(' + \"{\";\n"), (0, 0));
        // a directive right after a line comment is still a directive
        assert_eq!(bracket_balance("x(); // c\n#define G(x) {\n"), (0, 0));
        assert_eq!(bracket_balance("/* { */ } else {\n"), (0, 0));
    }

    #[test]
    fn conditional_groups_and_include_guards() {
        let src = "#ifndef H\n#define H\n#ifdef A\nfor (;;) {\n#else\nwhile (1) {\n#endif\n}\n#endif\n";
        let groups = conditional_groups(src, &Defines::new());
        assert_eq!(groups.len(), 2);
        let inner = &groups[0];
        assert_eq!(&src[inner.head.clone()], "#ifdef A");
        assert_eq!(inner.branches.len(), 2);
        assert_eq!(&src[inner.branches[0].1.clone()], "for (;;) {\n");
        assert_eq!(&src[inner.branches[1].1.clone()], "while (1) {\n");
        assert!(!is_include_guard(src, inner));
        assert!(is_include_guard(src, &groups[1]));
        // hiding one configuration of the inner group parses
        let cands = branch_candidates(src, &(0..src.len()), &choice_groups(src, &Defines::new()).0, false);
        assert_eq!(cands.len(), 2);
        assert!(cands.iter().all(|(_, m)| m.iter().all(|m| m.kind == MaskKind::InactiveBranch)));
        // a condition repeated through a file, between others: one candidate
        // per configuration over all its groups, not one per group
        let part = "void f() {\n#ifdef A\nfor (;;) {\n#else\nwhile (1) {\n#endif\n}\n#if B\nif (x) {\n#endif\n}\n}\n";
        let src = part.repeat(5);
        let cands = branch_candidates(&src, &(0..src.len()), &choice_groups(&src, &Defines::new()).0, false);
        assert_eq!(cands.len(), 4);
        assert!(cands.iter().all(|(_, m)| m.iter().filter(|m| src[m.range.clone()].starts_with("#if")).count() == 5));
    }
}

#[cfg(test)]
mod condition_tests {
    use super::*;

    #[test]
    fn conditions_under_defines() {
        let d: Defines =
            [("FAST".to_string(), Some("1".to_string())), ("N".to_string(), Some("4".to_string())), ("DEBUG".to_string(), None)].into_iter().collect();
        assert_eq!(condition_value("#ifdef FAST", &d), Some(true));
        assert_eq!(condition_value("# ifndef DEBUG // why", &d), Some(true));
        assert_eq!(condition_value("#if defined(DEBUG)", &d), Some(false));
        assert_eq!(condition_value("#if !defined FAST", &d), Some(false));
        assert_eq!(condition_value("#if N >= 4", &d), Some(true));
        assert_eq!(condition_value("#if DEBUG", &d), Some(false));
        assert_eq!(condition_value("#ifdef OTHER", &d), None);
        assert_eq!(condition_value("#if FAST && N", &d), None);
    }

    #[test]
    fn conditions_under_the_files_own_defines() {
        // (each group's value, in order of the `#endif`s)
        let values = |src: &str, d: &Defines| conditional_groups(src, d).iter().map(|g| g.value).collect::<Vec<_>>();
        let src =
            "#define A\n#define N 3 // three\n#ifdef A\n#if N > 2\n#define B\n#endif\n#ifdef B\n#endif\n#endif\n#ifdef B\n#endif\n#undef A\n#ifdef A\n#endif\n";
        // B is unknown once the branch that defines it closed (whichever
        // branch was taken: not followed)
        assert_eq!(values(src, &Defines::new()), vec![Some(true), None, Some(true), None, Some(false)]);
        assert_eq!(values("#define B 1\n#ifdef A\n#if B\n#endif\n#endif\n", &Defines::new()), vec![Some(true), None]);
        // a file's #undef overrides a -D of the build
        let d: Defines = [("A".to_string(), Some("1".to_string()))].into_iter().collect();
        assert_eq!(values("#undef A\n#if A\n#endif\n#ifdef C\n#endif\n", &d), vec![Some(false), None]);
        // a define in the other branch of a group does not decide its own #else
        assert_eq!(values("#ifdef X\n#define Y\n#else\n#ifdef Y\n#endif\n#endif\n", &Defines::new()), vec![None, None]);
    }
}
