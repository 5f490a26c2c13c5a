//! The edit engine: an edit is a byte range of the original text plus a
//! replacement made of literal text and *source pieces* — sub-ranges of the
//! original text that are rendered with their own inner edits applied. This is
//! how edits compose: a launch rule replaces a whole `k<<<g, b>>>(args)` call
//! and keeps the argument ranges as source pieces, so an API rewrite inside an
//! argument still lands in the output.
//!
//! Invariants:
//! - every byte outside an edit is copied unchanged;
//! - an edit nested inside another edit's range must lie inside one of that
//!   edit's source pieces, otherwise it would be lost: such edits, and edits
//!   whose ranges partially overlap, are returned as [`Conflict`]s (they are
//!   reported, never dropped silently);
//! - insertions (empty ranges) at the same offset keep the order in which the
//!   rules added them, so output is deterministic.

use std::ops::Range;

/// One piece of a replacement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Literal text.
    Text(String),
    /// A range of the original text, rendered with the edits inside it.
    Source(Range<usize>),
    /// A range of the original text the replacement drops on purpose (e.g.
    /// an argument a template does not use): renders nothing, and edits
    /// inside it are consumed rather than reported as lost.
    Discard(Range<usize>),
}

/// A replacement of `range` in the original text.
#[derive(Debug, Clone)]
pub struct Edit {
    pub range: Range<usize>,
    pub pieces: Vec<Piece>,
    /// Which rule made it (for conflict reports).
    pub rule: &'static str,
    /// Among insertions at the same offset, lower goes first (then creation order).
    pub priority: i8,
}

impl Edit {
    pub fn is_insertion(&self) -> bool {
        self.range.is_empty()
    }

    /// Would this edit drop some of the text of `r` (a range of the
    /// original)? It does when the two overlap and that part is not inside
    /// one of its source pieces.
    pub fn drops(&self, r: &Range<usize>) -> bool {
        let (start, end) = (self.range.start.max(r.start), self.range.end.min(r.end));
        start < end && !self.pieces.iter().any(|p| matches!(p, Piece::Source(x) if x.start <= start && end <= x.end))
    }
}

/// Two edits that could not be composed.
#[derive(Debug, Clone)]
pub struct Conflict {
    pub kept: (Range<usize>, &'static str),
    pub dropped: (Range<usize>, &'static str),
}

/// Builder for a replacement: literal text and kept source ranges.
#[derive(Debug, Default, Clone)]
pub struct Replacement {
    pieces: Vec<Piece>,
}

impl Replacement {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn text(mut self, s: impl AsRef<str>) -> Self {
        self.push_text(s.as_ref());
        self
    }
    pub fn source(mut self, r: Range<usize>) -> Self {
        self.pieces.push(Piece::Source(r));
        self
    }
    pub fn discard(mut self, r: Range<usize>) -> Self {
        self.pieces.push(Piece::Discard(r));
        self
    }
    pub fn push_text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if let Some(Piece::Text(t)) = self.pieces.last_mut() {
            t.push_str(s);
        } else {
            self.pieces.push(Piece::Text(s.to_string()));
        }
    }
    pub fn push_source(&mut self, r: Range<usize>) {
        self.pieces.push(Piece::Source(r));
    }
    pub fn push_discard(&mut self, r: Range<usize>) {
        self.pieces.push(Piece::Discard(r));
    }
    pub fn push(&mut self, p: Piece) {
        match p {
            Piece::Text(t) => self.push_text(&t),
            Piece::Source(r) => self.push_source(r),
            Piece::Discard(r) => self.push_discard(r),
        }
    }
    pub fn extend(&mut self, other: Replacement) {
        for p in other.pieces {
            self.push(p);
        }
    }
    pub fn into_pieces(self) -> Vec<Piece> {
        self.pieces
    }
}

/// The edits of one file.
#[derive(Debug, Default)]
pub struct EditSet {
    edits: Vec<Edit>,
    /// The edits of each range (positions in `edits`): whether a range is
    /// already rewritten is a lookup, not a scan (a scan per node is
    /// quadratic in a large file). Made the first time a range is looked
    /// up ([`EditSet::at`]) and kept up to date from then on: a set that
    /// only collects edits (a large file's, from its parts) never pays
    /// for it (some 90 bytes an edit).
    at: std::cell::OnceCell<std::collections::HashMap<Range<usize>, Vec<usize>>>,
}

impl EditSet {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn len(&self) -> usize {
        self.edits.len()
    }
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }
    pub fn replace(&mut self, rule: &'static str, range: Range<usize>, with: Replacement) {
        self.push(Edit { range, pieces: with.into_pieces(), rule, priority: 0 });
    }
    /// Adds an edit as it is (one made elsewhere: a part of a large file's).
    pub fn push(&mut self, e: Edit) {
        if let Some(at) = self.at.get_mut() {
            at.entry(e.range.clone()).or_default().push(self.edits.len());
        }
        self.edits.push(e);
    }
    /// The edits whose range is exactly `range`.
    pub fn at(&self, range: &Range<usize>) -> impl Iterator<Item = &Edit> {
        let at = self.at.get_or_init(|| {
            let mut at: std::collections::HashMap<Range<usize>, Vec<usize>> = std::collections::HashMap::new();
            for (i, e) in self.edits.iter().enumerate() {
                at.entry(e.range.clone()).or_default().push(i);
            }
            at
        });
        at.get(range).into_iter().flatten().map(|&i| &self.edits[i])
    }
    /// Forgets the index of ranges (after edits were taken out): it is
    /// made again when next looked up.
    fn forget_index(&mut self) {
        self.at = std::cell::OnceCell::new();
    }
    pub fn replace_text(&mut self, rule: &'static str, range: Range<usize>, text: impl AsRef<str>) {
        self.replace(rule, range, Replacement::new().text(text));
    }
    pub fn insert(&mut self, rule: &'static str, at: usize, text: impl AsRef<str>) {
        self.replace_text(rule, at..at, text);
    }
    /// An insertion that goes before every other insertion at the same offset
    /// (e.g. `#include` lines, which must precede code inserted there).
    pub fn insert_first(&mut self, rule: &'static str, at: usize, text: impl AsRef<str>) {
        self.push(Edit { range: at..at, pieces: Replacement::new().text(text).into_pieces(), rule, priority: -1 });
    }
    pub fn delete(&mut self, rule: &'static str, range: Range<usize>) {
        self.replace(rule, range, Replacement::new());
    }
    /// Drops every edit a rule made (e.g. comments to be laid out again).
    pub fn remove_rule(&mut self, rule: &str) {
        self.edits.retain(|e| e.rule != rule);
        self.forget_index();
    }
    pub fn edits(&self) -> &[Edit] {
        &self.edits
    }
    /// Takes out the edits for which `f` holds, returning them.
    pub fn take_where(&mut self, f: impl Fn(&Edit) -> bool) -> Vec<Edit> {
        let (out, keep) = std::mem::take(&mut self.edits).into_iter().partition(f);
        self.edits = keep;
        self.forget_index();
        out
    }

    /// Applies all edits to `src`, returning the new text and the edits that
    /// could not be composed.
    pub fn apply(&self, src: &str) -> (String, Vec<Conflict>) {
        apply(src, &self.edits)
    }
}

fn contains_edit(outer: &Range<usize>, inner: &Edit) -> bool {
    if inner.range.is_empty() {
        outer.start < inner.range.start && inner.range.start < outer.end
    } else {
        outer.start <= inner.range.start && inner.range.end <= outer.end && outer.len() > inner.range.len()
    }
}

fn piece_holds(r: &Range<usize>, e: &Edit) -> bool {
    if e.range.is_empty() { r.start <= e.range.start && e.range.start <= r.end } else { r.start <= e.range.start && e.range.end <= r.end }
}

pub fn apply(src: &str, edits: &[Edit]) -> (String, Vec<Conflict>) {
    // Sort: by start, longer first, insertions before replacements at the same
    // start; stable so that insertion order is kept for equal keys.
    let mut order: Vec<usize> = (0..edits.len()).collect();
    order.sort_by(|&a, &b| {
        let (ea, eb) = (&edits[a], &edits[b]);
        ea.range
            .start
            .cmp(&eb.range.start)
            .then(ea.is_insertion().cmp(&eb.is_insertion()).reverse())
            .then(eb.range.end.cmp(&ea.range.end))
            .then(ea.priority.cmp(&eb.priority))
    });
    let mut conflicts = Vec::new();
    // Find each edit's parent: the innermost accepted edit that contains it.
    let mut parent: Vec<Option<usize>> = vec![None; edits.len()];
    let mut accepted: Vec<bool> = vec![true; edits.len()];
    // Stack of open (accepted, non-empty) edits.
    let mut stack: Vec<usize> = Vec::new();
    for &i in &order {
        let e = &edits[i];
        while let Some(&top) = stack.last() {
            let t = &edits[top];
            if contains_edit(&t.range, e) {
                break;
            }
            // `e` is not inside `top`; does it overlap it?
            if e.range.start < t.range.end && !e.range.is_empty() || (e.range.is_empty() && e.range.start < t.range.end && e.range.start > t.range.start) {
                break;
            }
            stack.pop();
        }
        if let Some(&top) = stack.last() {
            let t = &edits[top];
            if !contains_edit(&t.range, e) {
                // Partial overlap, or the very same range twice.
                conflicts.push(Conflict { kept: (t.range.clone(), t.rule), dropped: (e.range.clone(), e.rule) });
                accepted[i] = false;
                continue;
            }
            let held = t.pieces.iter().any(|p| matches!(p, Piece::Source(r) | Piece::Discard(r) if piece_holds(r, e)));
            if !held {
                conflicts.push(Conflict { kept: (t.range.clone(), t.rule), dropped: (e.range.clone(), e.rule) });
                accepted[i] = false;
                continue;
            }
            parent[i] = Some(top);
        }
        if !e.range.is_empty() {
            stack.push(i);
        }
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); edits.len()];
    let mut top_level = Vec::new();
    for &i in &order {
        if !accepted[i] {
            continue;
        }
        match parent[i] {
            Some(p) => children[p].push(i),
            None => top_level.push(i),
        }
    }
    let mut out = String::with_capacity(src.len() + src.len() / 8);
    let mut done = vec![false; edits.len()];
    render(src, edits, &children, &top_level, 0..src.len(), &mut out, &mut done);
    // An accepted edit that was neither rendered nor dropped on purpose (in
    // a `Discard` piece) would be lost silently: reported as a conflict
    // with the edit it lies in (never expected; the fuzz targets look for it).
    for &i in &order {
        if accepted[i] && !done[i] {
            let kept = parent[i].map_or((0..src.len(), "(file)"), |p| (edits[p].range.clone(), edits[p].rule));
            conflicts.push(Conflict { kept, dropped: (edits[i].range.clone(), edits[i].rule) });
        }
    }
    (out, conflicts)
}

/// Renders `range` of the source with the edits among `candidates` that lie
/// in it, marking in `done` each edit rendered or discarded.
fn render(src: &str, edits: &[Edit], children: &[Vec<usize>], candidates: &[usize], range: Range<usize>, out: &mut String, done: &mut [bool]) {
    let mut cursor = range.start;
    for &i in candidates {
        let e = &edits[i];
        if !piece_holds(&range, e) || e.range.start < cursor {
            continue;
        }
        done[i] = true;
        out.push_str(&src[cursor..e.range.start]);
        for p in &e.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Source(r) => render(src, edits, children, &children[i], r.clone(), out, done),
                Piece::Discard(r) => discard(edits, children, &children[i], r, done),
            }
        }
        cursor = e.range.end;
    }
    out.push_str(&src[cursor..range.end]);
}

/// Marks the edits among `candidates` inside a discarded range, and theirs, as done.
fn discard(edits: &[Edit], children: &[Vec<usize>], candidates: &[usize], range: &Range<usize>, done: &mut [bool]) {
    for &i in candidates {
        if piece_holds(range, &edits[i]) {
            done[i] = true;
            let inner = edits[i].range.clone();
            discard(edits, children, &children[i], &inner, done);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untouched_text_is_kept() {
        let set = EditSet::new();
        assert_eq!(set.apply("a /* c */ b").0, "a /* c */ b");
    }

    #[test]
    fn ranges_are_looked_up_before_and_after_the_index_is_made() {
        let mut set = EditSet::new();
        set.replace_text("a", 0..1, "x");
        set.insert("b", 2, "y");
        // the index is made at the first lookup, from the edits so far
        assert_eq!(set.at(&(0..1)).map(|e| e.rule).collect::<Vec<_>>(), ["a"]);
        // and kept up to date by later edits
        set.replace_text("c", 0..1, "z");
        set.insert("d", 3, "w");
        assert_eq!(set.at(&(0..1)).map(|e| e.rule).collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(set.at(&(3..3)).map(|e| e.rule).collect::<Vec<_>>(), ["d"]);
        // and made again after edits are taken out
        set.remove_rule("a");
        assert_eq!(set.at(&(0..1)).map(|e| e.rule).collect::<Vec<_>>(), ["c"]);
        assert_eq!(set.at(&(2..2)).map(|e| e.rule).collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn outer_edit_keeps_inner_edit_in_source_piece() {
        let src = "k<<<g, b>>>(f(x), y);";
        let mut set = EditSet::new();
        // inner: f(x) -> g2(x)
        set.replace_text("inner", 12..13, "g2");
        set.replace("outer", 0..20, Replacement::new().text("launch(").source(12..16).text(", ").source(18..19).text(")"));
        let (out, conflicts) = set.apply(src);
        assert!(conflicts.is_empty(), "{conflicts:?}");
        assert_eq!(out, "launch(g2(x), y);");
    }

    #[test]
    fn source_piece_used_twice_renders_inner_edits_twice() {
        let src = "B";
        let mut set = EditSet::new();
        set.replace_text("inner", 0..1, "b2");
        set.replace("outer", 0..1, Replacement::new().source(0..1).text("*").source(0..1));
        // same range twice is a conflict by design
        let (_, conflicts) = set.apply(src);
        assert_eq!(conflicts.len(), 1);
    }

    #[test]
    fn inner_edit_outside_any_source_piece_is_a_conflict() {
        let src = "abcdef";
        let mut set = EditSet::new();
        set.replace_text("outer", 0..6, "X");
        set.replace_text("inner", 2..3, "Y");
        let (out, conflicts) = set.apply(src);
        assert_eq!(out, "X");
        assert_eq!(conflicts.len(), 1);
        assert_eq!(conflicts[0].dropped.1, "inner");
    }

    #[test]
    fn inner_edit_in_a_discarded_range_is_consumed() {
        let src = "f(a, KIND)";
        let mut set = EditSet::new();
        set.replace_text("enum", 5..9, "kind2");
        set.replace("call", 0..10, Replacement::new().text("g(").source(2..3).text(")"));
        let mut set2 = EditSet::new();
        set2.replace_text("enum", 5..9, "kind2");
        let mut r = Replacement::new().text("g(").source(2..3).text(")");
        r.push_discard(5..9);
        set2.replace("call", 0..10, r);
        let (out, conflicts) = set2.apply(src);
        assert!(conflicts.is_empty(), "{conflicts:?}");
        assert_eq!(out, "g(a)");
        // without the discard the inner edit would be lost, which is reported
        let (_, conflicts) = set.apply(src);
        assert_eq!(conflicts.len(), 1);
    }

    #[test]
    fn partial_overlap_is_a_conflict() {
        let mut set = EditSet::new();
        set.replace_text("a", 0..3, "A");
        set.replace_text("b", 2..5, "B");
        let (out, conflicts) = set.apply("012345");
        assert_eq!(out, "A345");
        assert_eq!(conflicts.len(), 1);
    }

    #[test]
    fn insertions_keep_their_order_and_sit_beside_replacements() {
        let mut set = EditSet::new();
        set.insert("a", 3, "<1>");
        set.replace_text("r", 3..4, "X");
        set.insert("b", 3, "<2>");
        set.insert("c", 4, "<3>");
        set.insert_first("d", 3, "<0>");
        let (out, conflicts) = set.apply("0123456");
        assert!(conflicts.is_empty());
        assert_eq!(out, "012<0><1><2>X<3>456");
    }

    #[test]
    fn insertion_inside_source_piece_boundary_is_rendered_once() {
        let src = "f(a)";
        let mut set = EditSet::new();
        set.insert("arg", 3, ", item");
        set.replace("wrap", 0..4, Replacement::new().text("g(").source(2..3).text(")"));
        let (out, conflicts) = set.apply(src);
        assert!(conflicts.is_empty());
        assert_eq!(out, "g(a, item)");
    }

    #[test]
    fn deeply_nested_edits_compose() {
        let src = "((x))";
        let mut set = EditSet::new();
        set.replace_text("x", 2..3, "y");
        set.replace("mid", 1..4, Replacement::new().text("[").source(2..3).text("]"));
        set.replace("out", 0..5, Replacement::new().text("{").source(1..4).text("}"));
        let (out, c) = set.apply(src);
        assert!(c.is_empty());
        assert_eq!(out, "{[y]}");
    }
}
