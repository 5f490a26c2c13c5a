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
//!
//! An [`EditSet`] keeps its edits packed: offsets as 32 bits (tree-sitter's
//! own limit on a file), every piece of every edit in one vector and every
//! literal text in one string, the rule's name as an index. A large file
//! holds one edit every 17 bytes or so (`dim3` declarations, launches): an
//! edit of five pieces takes some 100 bytes this way, where a vector of
//! pieces with a string each took some 350.

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

/// A piece of an edit of a set, as the set holds it ([`EditRef::pieces`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PieceRef<'a> {
    Text(&'a str),
    Source(Range<usize>),
    Discard(Range<usize>),
}

/// A replacement of `range` in the original text, on its own (one taken
/// out of a set, [`EditSet::take_where`], or made to be added to one).
#[derive(Debug, Clone)]
pub struct Edit {
    pub range: Range<usize>,
    pub pieces: Vec<Piece>,
    /// Which rule made it (for conflict reports).
    pub rule: &'static str,
    /// Among insertions at the same offset, lower goes first (then creation order).
    pub priority: i8,
}

/// An edit as a set holds it: read through [`EditRef`].
#[derive(Debug, Clone, Copy)]
struct Packed {
    start: u32,
    end: u32,
    /// Its pieces: `pieces[first..first + len]` of the set.
    first: u32,
    len: u32,
    /// Its rule: `rules[rule]` of the set.
    rule: u16,
    priority: i8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `texts[a..b]` of the set.
    Text,
    Source,
    Discard,
}

#[derive(Debug, Clone, Copy)]
struct PackedPiece {
    kind: Kind,
    a: u32,
    b: u32,
}

/// An offset of a file, packed: tree-sitter reads no file of 4 GiB or more,
/// so none reaches an edit.
fn packed(x: usize) -> u32 {
    u32::try_from(x).expect("a file's offsets fit in 32 bits (tree-sitter reads no larger file)")
}

/// One edit of a set.
#[derive(Clone, Copy)]
pub struct EditRef<'a> {
    set: &'a EditSet,
    e: &'a Packed,
}

impl<'a> EditRef<'a> {
    pub fn range(&self) -> Range<usize> {
        self.e.start as usize..self.e.end as usize
    }
    /// Which rule made it.
    pub fn rule(&self) -> &'static str {
        self.set.rules[self.e.rule as usize]
    }
    pub fn priority(&self) -> i8 {
        self.e.priority
    }
    pub fn is_insertion(&self) -> bool {
        self.e.start == self.e.end
    }
    pub fn pieces(&self) -> impl Iterator<Item = PieceRef<'a>> + 'a {
        let set = self.set;
        set.pieces[self.e.first as usize..(self.e.first + self.e.len) as usize].iter().map(move |p| {
            let r = p.a as usize..p.b as usize;
            match p.kind {
                Kind::Text => PieceRef::Text(&set.texts[r]),
                Kind::Source => PieceRef::Source(r),
                Kind::Discard => PieceRef::Discard(r),
            }
        })
    }
    /// Would this edit drop some of the text of `r` (a range of the
    /// original)? It does when the two overlap and that part is not inside
    /// one of its source pieces.
    pub fn drops(&self, r: &Range<usize>) -> bool {
        let range = self.range();
        let (start, end) = (range.start.max(r.start), range.end.min(r.end));
        start < end && !self.pieces().any(|p| matches!(p, PieceRef::Source(x) if x.start <= start && end <= x.end))
    }
    /// The edit on its own.
    pub fn to_edit(&self) -> Edit {
        let pieces = self
            .pieces()
            .map(|p| match p {
                PieceRef::Text(t) => Piece::Text(t.to_string()),
                PieceRef::Source(r) => Piece::Source(r),
                PieceRef::Discard(r) => Piece::Discard(r),
            })
            .collect();
        Edit { range: self.range(), pieces, rule: self.rule(), priority: self.priority() }
    }
}

impl std::fmt::Debug for EditRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} {} {:?}", self.range(), self.rule(), self.pieces().collect::<Vec<_>>())
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
    edits: Vec<Packed>,
    pieces: Vec<PackedPiece>,
    texts: String,
    /// The rules' names (a handful), which edits name by position.
    rules: Vec<&'static str>,
    /// The edits of each range (positions in `edits`): whether a range is
    /// already rewritten is a lookup, not a scan (a scan per node is
    /// quadratic in a large file). Made the first time a range is looked
    /// up ([`EditSet::at`]) and kept up to date from then on: a set that
    /// only collects edits (a large file's, from its parts) never pays
    /// for it.
    at: std::cell::OnceCell<std::collections::HashMap<(u32, u32), Vec<u32>>>,
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
    /// Adds an edit as it is (one made elsewhere).
    pub fn push(&mut self, e: Edit) {
        let pieces = e.pieces.iter().map(|p| match p {
            Piece::Text(t) => PieceRef::Text(t),
            Piece::Source(r) => PieceRef::Source(r.clone()),
            Piece::Discard(r) => PieceRef::Discard(r.clone()),
        });
        self.push_pieces(e.rule, e.range, e.priority, pieces);
    }
    /// Adds an edit from its parts (one of another set's, moved to other
    /// offsets: a part of a large file's).
    pub fn push_pieces<'p>(&mut self, rule: &'static str, range: Range<usize>, priority: i8, pieces: impl IntoIterator<Item = PieceRef<'p>>) {
        let first = packed(self.pieces.len());
        for p in pieces {
            let (kind, r) = match p {
                PieceRef::Text(t) => {
                    let at = self.texts.len();
                    self.texts.push_str(t);
                    (Kind::Text, at..self.texts.len())
                }
                PieceRef::Source(r) => (Kind::Source, r),
                PieceRef::Discard(r) => (Kind::Discard, r),
            };
            self.pieces.push(PackedPiece { kind, a: packed(r.start), b: packed(r.end) });
        }
        let rule = match self.rules.iter().rposition(|r| *r == rule) {
            Some(i) => i,
            None => {
                self.rules.push(rule);
                self.rules.len() - 1
            }
        };
        let e = Packed {
            start: packed(range.start),
            end: packed(range.end),
            first,
            len: packed(self.pieces.len()) - first,
            rule: u16::try_from(rule).expect("fewer than 65536 rules"),
            priority,
        };
        if let Some(at) = self.at.get_mut() {
            at.entry((e.start, e.end)).or_default().push(packed(self.edits.len()));
        }
        self.edits.push(e);
    }
    /// The `i`th edit (in the order they were added).
    pub fn get(&self, i: usize) -> EditRef<'_> {
        EditRef { set: self, e: &self.edits[i] }
    }
    /// Every edit, in the order they were added.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = EditRef<'_>> + '_ {
        self.edits.iter().map(move |e| EditRef { set: self, e })
    }
    /// The edits whose range is exactly `range`.
    pub fn at(&self, range: &Range<usize>) -> impl Iterator<Item = EditRef<'_>> {
        let at = self.at.get_or_init(|| {
            let mut at: std::collections::HashMap<(u32, u32), Vec<u32>> = std::collections::HashMap::new();
            for (i, e) in self.edits.iter().enumerate() {
                at.entry((e.start, e.end)).or_default().push(packed(i));
            }
            at
        });
        let key = u32::try_from(range.start).ok().zip(u32::try_from(range.end).ok());
        key.and_then(|k| at.get(&k)).into_iter().flatten().map(|&i| self.get(i as usize))
    }
    pub fn replace_text(&mut self, rule: &'static str, range: Range<usize>, text: impl AsRef<str>) {
        self.push_pieces(rule, range, 0, text_piece(text.as_ref()));
    }
    pub fn insert(&mut self, rule: &'static str, at: usize, text: impl AsRef<str>) {
        self.replace_text(rule, at..at, text);
    }
    /// An insertion that goes before every other insertion at the same offset
    /// (e.g. `#include` lines, which must precede code inserted there).
    pub fn insert_first(&mut self, rule: &'static str, at: usize, text: impl AsRef<str>) {
        self.push_pieces(rule, at..at, -1, text_piece(text.as_ref()));
    }
    pub fn delete(&mut self, rule: &'static str, range: Range<usize>) {
        self.replace(rule, range, Replacement::new());
    }
    /// Drops every edit a rule made (e.g. comments to be laid out again).
    /// (Where they are the last edits added, as a file's comments are,
    /// their pieces and texts are given back too: laid out again, they
    /// would be held twice.)
    pub fn remove_rule(&mut self, rule: &str) {
        let Some(gone) = self.rules.iter().position(|r| *r == rule).map(|g| g as u16) else { return };
        let Some(first) = self.edits.iter().position(|e| e.rule == gone) else { return };
        if self.edits[first..].iter().all(|e| e.rule == gone) {
            let from = self.edits[first].first as usize;
            let text = self.pieces[from..].iter().find(|p| p.kind == Kind::Text).map_or(self.texts.len(), |p| p.a as usize);
            self.edits.truncate(first);
            self.pieces.truncate(from);
            self.texts.truncate(text);
        } else {
            self.edits.retain(|e| e.rule != gone);
        }
        self.forget_index();
    }
    /// Takes out the edits for which `f` holds, returning them. (Their
    /// pieces' room in the set is not given back: the set is a file's or a
    /// part's, and this runs once or twice.)
    pub fn take_where(&mut self, f: impl Fn(EditRef) -> bool) -> Vec<Edit> {
        let taken: Vec<bool> = self.iter().map(&f).collect();
        let out = taken.iter().enumerate().filter(|(_, t)| **t).map(|(i, _)| self.get(i).to_edit()).collect();
        self.drop_marked(&taken);
        out
    }
    /// Drops the edits marked (by position), keeping the others' order.
    fn drop_marked(&mut self, marked: &[bool]) {
        let mut k = 0;
        self.edits.retain(|_| {
            k += 1;
            !marked[k - 1]
        });
        self.forget_index();
    }
    /// Drops an insertion that repeats an earlier one (the same offset,
    /// rule and pieces: a file-level `#define` that several parts of a
    /// large file make), keeping the first.
    pub fn dedup_insertions(&mut self) {
        fn key<'a>(p: PieceRef<'a>) -> (u8, &'a str, usize, usize) {
            match p {
                PieceRef::Text(t) => (0, t, 0, 0),
                PieceRef::Source(r) => (1, "", r.start, r.end),
                PieceRef::Discard(r) => (2, "", r.start, r.end),
            }
        }
        let same_place = |a: &Packed, b: &Packed| (a.start, a.rule).cmp(&(b.start, b.rule));
        let order = |a: u32, b: u32| {
            let (ea, eb) = (self.get(a as usize), self.get(b as usize));
            same_place(ea.e, eb.e).then_with(|| ea.pieces().map(key).cmp(eb.pieces().map(key)))
        };
        let mut ins: Vec<u32> = (0..self.edits.len()).filter(|&i| self.edits[i].start == self.edits[i].end).map(packed).collect();
        // (stable: among equal insertions the first added comes first)
        ins.sort_by(|&a, &b| order(a, b));
        let mut repeated = vec![false; self.edits.len()];
        for w in ins.windows(2) {
            if order(w[0], w[1]).is_eq() {
                repeated[w[1] as usize] = true;
            }
        }
        if repeated.contains(&true) {
            self.drop_marked(&repeated);
        }
    }
    /// The edits that replace text, by start ([`Spans`]).
    pub fn spans(&self) -> Spans {
        let mut spans: Vec<(usize, usize, usize)> =
            self.iter().enumerate().filter(|(_, e)| !e.is_insertion()).map(|(i, e)| (e.range().start, e.range().end, i)).collect();
        spans.sort_unstable();
        let ends = spans
            .iter()
            .scan(0, |m, s| {
                *m = (*m).max(s.1);
                Some(*m)
            })
            .collect();
        Spans { spans, ends }
    }
    /// Forgets the index of ranges (after edits were taken out): it is
    /// made again when next looked up.
    fn forget_index(&mut self) {
        self.at = std::cell::OnceCell::new();
    }

    /// Applies all edits to `src`, returning the new text and the edits that
    /// could not be composed.
    pub fn apply(&self, src: &str) -> (String, Vec<Conflict>) {
        apply(src, self)
    }
}

/// One literal text as an edit's pieces: none where it is empty.
fn text_piece(t: &str) -> Option<PieceRef<'_>> {
    (!t.is_empty()).then_some(PieceRef::Text(t))
}

/// The edits of a set that replace text (not insertions), by start, with
/// the largest end so far ([`EditSet::spans`]): the edits that hold a range
/// or a point are a binary search away, not a scan of every edit. Made
/// once, for the edits the set holds then.
pub struct Spans {
    /// (start, end, position in the set), sorted.
    spans: Vec<(usize, usize, usize)>,
    /// `ends[k]`: the largest end of `spans[..=k]`.
    ends: Vec<usize>,
}

impl Spans {
    /// The edits (positions in the set) whose range holds `r`: those
    /// starting at or before it, back to the first whose largest end so
    /// far is before its end.
    pub fn holding(&self, r: &Range<usize>) -> impl Iterator<Item = usize> + '_ {
        let upto = self.spans.partition_point(|s| s.0 <= r.start);
        let (start, end) = (r.start, r.end);
        (0..upto).rev().take_while(move |&k| self.ends[k] >= end).map(|k| self.spans[k]).filter(move |s| s.0 <= start && end <= s.1).map(|s| s.2)
    }
    /// The start of the first edit, by start, that starts before `at` and
    /// ends after it (the outermost around it).
    pub fn outermost_around(&self, at: usize) -> Option<usize> {
        let before = self.spans.partition_point(|s| s.0 < at);
        let i = self.ends[..before].partition_point(|&e| e <= at);
        (i < before).then(|| self.spans[i].0)
    }
}

fn contains_edit(outer: &Range<usize>, inner: &Range<usize>) -> bool {
    if inner.is_empty() {
        outer.start < inner.start && inner.start < outer.end
    } else {
        outer.start <= inner.start && inner.end <= outer.end && outer.len() > inner.len()
    }
}

fn piece_holds(r: &Range<usize>, e: &Range<usize>) -> bool {
    if e.is_empty() { r.start <= e.start && e.start <= r.end } else { r.start <= e.start && e.end <= r.end }
}

/// The edits' nesting, as [`apply`] finds it: each accepted edit's
/// children (those inside its source and discarded pieces), in the order
/// they render. 32-bit positions, one list for every edit's children.
struct Nesting {
    /// `children[starts[i]..starts[i + 1]]`: edit `i`'s; the last edit's
    /// end is where the top level's begin.
    starts: Vec<u32>,
    children: Vec<u32>,
}

impl Nesting {
    fn of(&self, i: usize) -> &[u32] {
        &self.children[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

fn apply(src: &str, set: &EditSet) -> (String, Vec<Conflict>) {
    let n = set.edits.len();
    let edits = &set.edits;
    let range = |i: u32| {
        let e = &edits[i as usize];
        e.start as usize..e.end as usize
    };
    // Sort: by start, longer first, insertions before replacements at the same
    // start; stable so that insertion order is kept for equal keys.
    let mut order: Vec<u32> = (0..n).map(packed).collect();
    order.sort_by(|&a, &b| {
        let (ea, eb) = (&edits[a as usize], &edits[b as usize]);
        ea.start.cmp(&eb.start).then((ea.start == ea.end).cmp(&(eb.start == eb.end)).reverse()).then(eb.end.cmp(&ea.end)).then(ea.priority.cmp(&eb.priority))
    });
    let mut conflicts = Vec::new();
    // Find each edit's parent: the innermost accepted edit that contains it
    // (`NONE`: the file; `REFUSED`: not accepted).
    const NONE: u32 = u32::MAX;
    const REFUSED: u32 = u32::MAX - 1;
    let mut parent: Vec<u32> = vec![NONE; n];
    // Stack of open (accepted, non-empty) edits.
    let mut stack: Vec<u32> = Vec::new();
    for &i in &order {
        let e = range(i);
        while let Some(&top) = stack.last() {
            let t = range(top);
            if contains_edit(&t, &e) {
                break;
            }
            // `e` is not inside `top`; does it overlap it?
            if e.start < t.end && !e.is_empty() || (e.is_empty() && e.start < t.end && e.start > t.start) {
                break;
            }
            stack.pop();
        }
        if let Some(&top) = stack.last() {
            let t = set.get(top as usize);
            let refuse = !contains_edit(&t.range(), &e)
                // (partial overlap, or the very same range twice)
                || !t.pieces().any(|p| matches!(p, PieceRef::Source(r) | PieceRef::Discard(r) if piece_holds(&r, &e)));
            if refuse {
                conflicts.push(Conflict { kept: (t.range(), t.rule()), dropped: (e.clone(), set.get(i as usize).rule()) });
                parent[i as usize] = REFUSED;
                continue;
            }
            parent[i as usize] = top;
        }
        if !e.is_empty() {
            stack.push(i);
        }
    }
    drop(stack);
    // every edit's children, in order, then the top level's
    let mut starts: Vec<u32> = vec![0; n + 2];
    for &p in &parent {
        match p {
            REFUSED => {}
            NONE => starts[n + 1] += 1,
            p => starts[p as usize + 1] += 1,
        }
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let mut fill = starts.clone();
    let mut children: Vec<u32> = vec![0; starts[n + 1] as usize];
    for &i in &order {
        let slot = match parent[i as usize] {
            REFUSED => continue,
            NONE => n,
            p => p as usize,
        };
        children[fill[slot] as usize] = i;
        fill[slot] += 1;
    }
    drop(fill);
    let nesting = Nesting { starts, children };
    // (room for the source and every text: no more unless a source piece
    // is rendered twice; what is left over is given back)
    let texts: usize = set.pieces.iter().filter(|p| p.kind == Kind::Text).map(|p| (p.b - p.a) as usize).sum();
    let mut out = String::with_capacity(src.len() + texts);
    let mut done = vec![false; n];
    render(src, set, &nesting, nesting.of(n), 0..src.len(), &mut out, &mut done);
    // An accepted edit that was neither rendered nor dropped on purpose (in
    // a `Discard` piece) would be lost silently: reported as a conflict
    // with the edit it lies in (never expected; the fuzz targets look for it).
    for &i in &order {
        let i = i as usize;
        if parent[i] != REFUSED && !done[i] {
            let kept = if parent[i] == NONE { (0..src.len(), "(file)") } else { (range(parent[i]), set.get(parent[i] as usize).rule()) };
            conflicts.push(Conflict { kept, dropped: (range(i as u32), set.get(i).rule()) });
        }
    }
    out.shrink_to_fit();
    (out, conflicts)
}

/// Renders `range` of the source with the edits among `candidates` that lie
/// in it, marking in `done` each edit rendered or discarded. (`candidates`
/// are sorted by start: those before `range` are skipped by a binary
/// search, so an edit of many source pieces over many children is not
/// quadratic.)
fn render(src: &str, set: &EditSet, nesting: &Nesting, candidates: &[u32], range: Range<usize>, out: &mut String, done: &mut [bool]) {
    let mut cursor = range.start;
    let from = candidates.partition_point(|&i| (set.edits[i as usize].start as usize) < range.start);
    for &i in &candidates[from..] {
        let e = set.get(i as usize);
        let r = e.range();
        if r.start > range.end {
            break;
        }
        if !piece_holds(&range, &r) || r.start < cursor {
            continue;
        }
        done[i as usize] = true;
        out.push_str(&src[cursor..r.start]);
        for p in e.pieces() {
            match p {
                PieceRef::Text(t) => out.push_str(t),
                PieceRef::Source(s) => render(src, set, nesting, nesting.of(i as usize), s, out, done),
                PieceRef::Discard(s) => discard(set, nesting, nesting.of(i as usize), &s, done),
            }
        }
        cursor = r.end;
    }
    out.push_str(&src[cursor..range.end]);
}

/// Marks the edits among `candidates` inside a discarded range, and theirs, as done.
fn discard(set: &EditSet, nesting: &Nesting, candidates: &[u32], range: &Range<usize>, done: &mut [bool]) {
    for &i in candidates {
        let inner = set.get(i as usize).range();
        if piece_holds(range, &inner) {
            done[i as usize] = true;
            discard(set, nesting, nesting.of(i as usize), &inner, done);
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
        assert_eq!(set.at(&(0..1)).map(|e| e.rule()).collect::<Vec<_>>(), ["a"]);
        // and kept up to date by later edits
        set.replace_text("c", 0..1, "z");
        set.insert("d", 3, "w");
        assert_eq!(set.at(&(0..1)).map(|e| e.rule()).collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(set.at(&(3..3)).map(|e| e.rule()).collect::<Vec<_>>(), ["d"]);
        // and made again after edits are taken out
        set.remove_rule("a");
        assert_eq!(set.at(&(0..1)).map(|e| e.rule()).collect::<Vec<_>>(), ["c"]);
        assert_eq!(set.at(&(2..2)).map(|e| e.rule()).collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn edits_removed_and_added_again_render_as_new() {
        let src = "ab\ncd\n";
        let mut set = EditSet::new();
        set.replace_text("r", 1..2, "X");
        set.insert("note", 0, "// one\n");
        set.insert("note", 3, "// two\n");
        assert_eq!(set.apply(src).0, "// one\naX\n// two\ncd\n");
        // the last edits added (a file's comments): taken back whole
        set.remove_rule("note");
        assert_eq!((set.len(), set.pieces.len(), set.texts.as_str()), (1, 1, "X"));
        set.insert("note", 3, "// three\n");
        assert_eq!(set.apply(src).0, "aX\n// three\ncd\n");
        // a rule whose edits are not the last: the others stay
        set.remove_rule("r");
        assert_eq!(set.apply(src).0, "ab\n// three\ncd\n");
        // and edits that repeat an earlier insertion are made once
        set.insert("note", 3, "// three\n");
        set.insert("note", 3, "// four\n");
        set.dedup_insertions();
        assert_eq!(set.apply(src).0, "ab\n// three\n// four\ncd\n");
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
