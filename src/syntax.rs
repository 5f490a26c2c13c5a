//! Small helpers over tree-sitter nodes.

use tree_sitter::Node;

pub fn text<'a>(n: Node, src: &'a str) -> &'a str {
    &src[n.byte_range()]
}

/// A node's kind, read from a table indexed by its kind id.
/// `tree_sitter::Node::kind` looks the name up and converts it from a C
/// string (`strlen` and UTF-8 validation) on every call, which was a fifth
/// of the migrator's time; clippy's `disallowed-methods` points here.
///
/// Invariant: every tree is parsed with [`tree_sitter_cuda`]'s grammar.
pub trait NodeKind<'t> {
    fn kind_str(&self) -> &'t str;
    /// The child in field `name`: `Node::child_by_field_name` with the
    /// field's id from a table (tree-sitter finds it by comparing `name`
    /// with every field name of the grammar, on every call).
    fn field(&self, name: &str) -> Option<Node<'t>>;
}

/// The grammar's field ids by name, sorted by name.
fn field_ids() -> &'static [(String, std::num::NonZeroU16)] {
    static FIELDS: std::sync::OnceLock<Vec<(String, std::num::NonZeroU16)>> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_cuda::LANGUAGE.into();
        let mut v: Vec<(String, std::num::NonZeroU16)> =
            (1..=lang.field_count() as u16).filter_map(|id| Some((lang.field_name_for_id(id)?.to_string(), std::num::NonZeroU16::new(id)?))).collect();
        v.sort();
        v
    })
}

/// The kind names of the grammar by id (empty where the id has none).
fn kind_names() -> &'static [String] {
    static KINDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_cuda::LANGUAGE.into();
        (0..lang.node_kind_count() as u16).map(|id| lang.node_kind_for_id(id).unwrap_or("").to_string()).collect()
    })
}

/// The name of kind id `id` (`ERROR` for `u16::MAX`).
pub fn kind_name(id: u16) -> &'static str {
    match kind_names().get(id as usize) {
        Some(k) if !k.is_empty() => k,
        _ => "ERROR",
    }
}

/// The kind ids whose name is `name` (a name can have several: a named and
/// an anonymous node, aliases); `ERROR` is `u16::MAX`.
pub fn kind_ids(name: &str) -> &'static [u16] {
    static IDS: std::sync::OnceLock<std::collections::HashMap<&'static str, Vec<u16>>> = std::sync::OnceLock::new();
    let ids = IDS.get_or_init(|| {
        let mut m: std::collections::HashMap<&'static str, Vec<u16>> = std::collections::HashMap::new();
        for (id, k) in kind_names().iter().enumerate() {
            if !k.is_empty() {
                m.entry(k.as_str()).or_default().push(id as u16);
            }
        }
        m.entry("ERROR").or_default().push(u16::MAX);
        m
    });
    ids.get(name).map_or(&[], |v| v.as_slice())
}

/// Where kind id `id` is counted in [`positions_by_kind`]: the id itself,
/// `ERROR` (`u16::MAX`) after the grammar's kinds.
pub fn kind_index(id: u16) -> usize {
    if id == u16::MAX { kind_names().len() } else { id as usize }
}

/// For each kind index ([`kind_index`]), the positions of the nodes of
/// that kind, ascending: `main`'s nodes that `keep` keeps (by position;
/// from the walk's own positions by kind, which its later asks reuse),
/// then the nodes `more`, counted from `main.len()` on.
pub fn positions_by_kind(main: &Preorder, keep: impl Fn(usize) -> bool, more: &[Node]) -> Vec<Vec<u32>> {
    let mut by_kind: Vec<Vec<u32>> = main.by_kind().iter().map(|b| b.iter().copied().filter(|&i| keep(i as usize)).collect()).collect();
    for (j, n) in more.iter().enumerate() {
        if let Some(b) = by_kind.get_mut(kind_index(n.kind_id())) {
            b.push((main.len() + j) as u32);
        }
    }
    by_kind
}

/// The id of field `declarator`, for `Node::children_by_field_id` (a
/// declaration's declarators; `children_by_field_name` would look the name
/// up on every call).
pub fn declarator_field() -> std::num::NonZeroU16 {
    field_id("declarator").expect("the grammar has a `declarator` field")
}

/// The fields the rules ask for most, whose ids [`field_id`] keeps at hand.
const COMMON_FIELDS: [&str; 12] =
    ["declarator", "name", "type", "function", "parameters", "arguments", "argument", "operator", "value", "left", "body", "right"];

/// The grammar's id of field `name`, if it has one.
#[inline]
pub fn field_id(name: &str) -> Option<std::num::NonZeroU16> {
    static COMMON: std::sync::OnceLock<[Option<std::num::NonZeroU16>; 12]> = std::sync::OnceLock::new();
    // a few length and byte comparisons (most names differ in length),
    // where the table is a binary search over strings
    match COMMON_FIELDS.iter().position(|f| *f == name) {
        Some(i) => COMMON.get_or_init(|| COMMON_FIELDS.map(field_id_in_table))[i],
        None => field_id_in_table(name),
    }
}

fn field_id_in_table(name: &str) -> Option<std::num::NonZeroU16> {
    let fields = field_ids();
    fields.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok().map(|i| fields[i].1)
}

impl<'t> NodeKind<'t> for Node<'t> {
    #[inline]
    fn kind_str(&self) -> &'t str {
        match kind_names().get(self.kind_id() as usize) {
            Some(k) if !k.is_empty() => k,
            // `ERROR` (kind id `u16::MAX`)
            #[allow(clippy::disallowed_methods)]
            _ => self.kind(),
        }
    }

    #[inline]
    fn field(&self, name: &str) -> Option<Node<'t>> {
        self.child_by_field_id(field_id(name)?.get())
    }
}

/// All descendants of `root` (itself included), in document order.
pub fn descendants(root: Node) -> Vec<Node> {
    let mut out = Vec::with_capacity(root.descendant_count());
    let mut cursor = root.walk();
    let mut depth = 0usize;
    loop {
        out.push(cursor.node());
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if depth == 0 {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            depth -= 1;
        }
    }
}

/// [`descendants`] in the same order, each with its parent (`None` for
/// `root`), kept on the walk: tree-sitter's [`Node::parent`] costs the
/// node's depth, so asking it of every node is quadratic in nesting (a
/// `#if` nested ten thousand deep).
pub fn descendants_with_parents(root: Node) -> Vec<(Node, Option<Node>)> {
    let mut out = Vec::with_capacity(root.descendant_count());
    let mut cursor = root.walk();
    let mut ancestors: Vec<Node> = Vec::new();
    loop {
        let n = cursor.node();
        out.push((n, ancestors.last().copied()));
        if cursor.goto_first_child() {
            ancestors.push(n);
            continue;
        }
        loop {
            if ancestors.is_empty() {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            cursor.goto_parent();
            ancestors.pop();
        }
    }
}

/// Where a node's parent is found. tree-sitter's [`Node::parent`] walks down
/// from the root, through the children of every node on the way: under an
/// ERROR node of thousands of children (a file that does not parse from
/// some brace on) each call costs as much as the file, and a rule that asks
/// it of every node is quadratic. A walked file ([`Preorder`]) keeps the
/// links; [`TreeLinks`] asks tree-sitter (a node of no walked tree).
pub trait Parents<'t> {
    fn parent_of(&self, n: Node<'t>) -> Option<Node<'t>>;

    /// Whether `n` lies inside a node of one of `kinds` (itself excluded),
    /// where it can be answered without walking up the ancestors; None
    /// where it cannot.
    fn inside_kinds(&self, _n: Node<'t>, _kinds: &[&str]) -> Option<bool> {
        None
    }
}

/// tree-sitter's own parent links ([`Parents`]).
pub struct TreeLinks;

impl<'t> Parents<'t> for TreeLinks {
    fn parent_of(&self, n: Node<'t>) -> Option<Node<'t>> {
        n.parent()
    }
}

/// Every node under a root (the root first) in document order, with where
/// each node's subtree ends: the nodes of a subtree are a slice, so a walk
/// of a function inside a walked file costs nothing more. It knows each
/// node's parent ([`Parents`]); a node of another tree is asked of
/// tree-sitter.
pub struct Preorder<'t> {
    nodes: Vec<Node<'t>>,
    /// `kinds[i]`: node `i`'s kind id, read once (a node's kind is a call
    /// into tree-sitter that reads the node's subtree: the walks that test
    /// every node's kind read it here)
    kinds: Vec<u16>,
    /// `ends[i]`: one past the last node of node `i`'s subtree.
    ends: Vec<u32>,
    /// `parents[i]`: the position of node `i`'s parent (`u32::MAX`: the root).
    parents: Vec<u32>,
    /// For a set of kinds asked about ([`Parents::inside_kinds`]), which
    /// nodes lie inside a node of one of them: a bit per node, made in one
    /// pass the first time the set is asked about (a walk up the ancestors
    /// of every node would be quadratic in depth).
    inside: std::sync::Mutex<Vec<(String, Vec<u64>)>>,
    /// The walk's root is its tree's.
    whole_tree: bool,
    /// For each kind index ([`kind_index`]), the positions of the nodes of
    /// that kind, ascending: made the first time kinds are asked for
    /// ([`Preorder::of_kinds_in`]), so that each ask costs what it finds.
    by_kind: std::sync::OnceLock<Vec<Vec<u32>>>,
}

impl<'t> Preorder<'t> {
    pub fn of(root: Node<'t>) -> Self {
        let count = root.descendant_count();
        let mut nodes = Vec::with_capacity(count);
        let mut kinds = Vec::with_capacity(count);
        let mut ends = Vec::with_capacity(count);
        let mut parents = Vec::with_capacity(count);
        let mut open: Vec<usize> = Vec::new();
        let whole_tree = root.parent().is_none();
        let mut cursor = root.walk();
        loop {
            parents.push(open.last().map_or(u32::MAX, |&p| p as u32));
            open.push(nodes.len());
            let node = cursor.node();
            kinds.push(node.kind_id());
            nodes.push(node);
            ends.push(0);
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                let done = open.pop().expect("an open node");
                ends[done] = nodes.len() as u32;
                if open.is_empty() {
                    return Preorder { nodes, kinds, ends, parents, inside: Default::default(), whole_tree, by_kind: Default::default() };
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                cursor.goto_parent();
            }
        }
    }

    /// Node `i` and every node under it.
    pub fn subtree(&self, i: usize) -> &[Node<'t>] {
        &self.nodes[i..self.ends[i] as usize]
    }

    /// The positions under node `i`, itself first.
    pub fn subtree_range(&self, i: usize) -> std::ops::Range<usize> {
        i..self.ends[i] as usize
    }

    /// Node `i` has no children (its subtree is itself).
    pub fn is_leaf(&self, i: usize) -> bool {
        self.ends[i] as usize == i + 1
    }

    /// Node `i`'s kind ([`NodeKind::kind_str`], without asking tree-sitter).
    pub fn kind_at(&self, i: usize) -> &'static str {
        kind_name(self.kinds[i])
    }

    /// The nodes at positions `range` whose kind is one of `kinds`, with
    /// their positions, in order (from the positions by kind: what it
    /// costs is what it finds).
    pub fn of_kinds_in(&self, range: std::ops::Range<usize>, kinds: &[&str]) -> impl Iterator<Item = (usize, Node<'t>)> + '_ {
        let by_kind = self.by_kind();
        let mut ids: Vec<u16> = kinds.iter().flat_map(|k| kind_ids(k).iter().copied()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut at: Vec<u32> = Vec::new();
        let mut buckets = 0;
        for id in ids {
            let b = &by_kind[kind_index(id)];
            let from = b.partition_point(|&i| (i as usize) < range.start);
            let to = b.partition_point(|&i| (i as usize) < range.end);
            if from < to {
                at.extend_from_slice(&b[from..to]);
                buckets += 1;
            }
        }
        if buckets > 1 {
            at.sort_unstable();
        }
        at.into_iter().map(|i| (i as usize, self.nodes[i as usize]))
    }

    /// For each kind index ([`kind_index`]), the positions of the nodes of
    /// that kind, ascending (made once a walk).
    fn by_kind(&self) -> &[Vec<u32>] {
        self.by_kind.get_or_init(|| {
            let mut by_kind: Vec<Vec<u32>> = vec![Vec::new(); kind_names().len() + 1];
            for (i, &k) in self.kinds.iter().enumerate() {
                by_kind[kind_index(k)].push(i as u32);
            }
            by_kind
        })
    }

    /// [`Preorder::of_kinds_in`] every node.
    pub fn of_kinds(&self, kinds: &[&str]) -> impl Iterator<Item = (usize, Node<'t>)> + '_ {
        self.of_kinds_in(0..self.nodes.len(), kinds)
    }

    /// The position of node `n`'s subtree ([`Preorder::subtree_range`]),
    /// where `n` is one of the nodes.
    pub fn position_of(&self, n: Node) -> Option<usize> {
        self.position(n)
    }

    /// `n` and every node under it, where `n` is one of the nodes.
    pub fn subtree_of(&self, n: Node) -> Option<&[Node<'t>]> {
        self.position(n).map(|i| self.subtree(i))
    }

    /// Where `n` is among the nodes, if it is one of them.
    fn position(&self, n: Node) -> Option<usize> {
        // in preorder, the nodes that start where `n` does come outermost
        // first, so their ends do not grow: a binary search on (start, end
        // decreasing) finds the few with `n`'s range (a left-leaning chain
        // `a + b + c …` holds thousands of nodes that start at one byte)
        let (start, end) = (n.start_byte(), n.end_byte());
        let first = self.nodes.partition_point(|x| x.start_byte() < start || (x.start_byte() == start && x.end_byte() > end));
        let found = (first..self.nodes.len())
            .take_while(|&i| self.nodes[i].start_byte() == start && self.nodes[i].end_byte() == end)
            .find(|&i| self.nodes[i].id() == n.id());
        // (zero-width nodes can break the order of ends: a scan of the nodes that start there)
        found.or_else(|| {
            let first = self.nodes.partition_point(|x| x.start_byte() < start);
            (first..self.nodes.len()).take_while(|&i| self.nodes[i].start_byte() == start).find(|&i| self.nodes[i].id() == n.id())
        })
    }

    pub fn into_nodes(self) -> Vec<Node<'t>> {
        self.nodes
    }
}

impl<'t> Parents<'t> for Preorder<'t> {
    fn parent_of(&self, n: Node<'t>) -> Option<Node<'t>> {
        match self.position(n).map(|i| self.parents[i]) {
            Some(p) if p != u32::MAX => Some(self.nodes[p as usize]),
            // the root of the walk (perhaps not of its tree), or a node of
            // another tree
            _ => n.parent(),
        }
    }

    fn inside_kinds(&self, n: Node<'t>, kinds: &[&str]) -> Option<bool> {
        // a walk of a subtree does not know its root's ancestors
        if !self.whole_tree {
            return None;
        }
        let i = self.position(n)?;
        let key = kinds.join(" ");
        let mut inside = self.inside.lock().expect("not poisoned");
        let bits = match inside.iter().position(|(k, _)| *k == key) {
            Some(at) => &inside[at].1,
            None => {
                let mut bits = vec![0u64; self.nodes.len().div_ceil(64)];
                let get = |bits: &[u64], j: usize| bits[j / 64] >> (j % 64) & 1 == 1;
                // parents come before their children
                for j in 1..self.nodes.len() {
                    let p = self.parents[j] as usize;
                    if kinds.contains(&kind_name(self.kinds[p])) || get(&bits, p) {
                        bits[j / 64] |= 1 << (j % 64);
                    }
                }
                inside.push((key, bits));
                &inside.last().expect("just pushed").1
            }
        };
        Some(bits[i / 64] >> (i % 64) & 1 == 1)
    }
}

impl<'t> std::ops::Deref for Preorder<'t> {
    type Target = [Node<'t>];
    fn deref(&self) -> &[Node<'t>] {
        &self.nodes
    }
}

pub fn children(n: Node) -> Vec<Node> {
    let mut c = n.walk();
    n.children(&mut c).collect()
}

pub fn named_children(n: Node) -> Vec<Node> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

/// The items of a list node (parameters, arguments, initialisers): its named
/// children without comments.
pub fn items(n: Node) -> Vec<Node> {
    named_children(n).into_iter().filter(|c| c.kind_str() != "comment").collect()
}

/// A preprocessor directive line inside an argument or parameter list
/// (`f(a, b\n#ifdef X\n, c\n#endif\n)`): the grammar has no place for it
/// and makes it an ERROR child of the list holding only the directive. Only
/// a whole line counts (nothing else on its line): `#if defined(X)` parses
/// as an ERROR that stops before the `)` unless error recovery blanks the
/// parentheses ([`crate::mask::MaskKind::DirectiveParen`]).
pub fn is_list_directive(n: Node) -> bool {
    // (the links to parent and sibling last: tree-sitter finds them from the
    // root down, see [`Parents`])
    n.kind_str() == "ERROR"
        && n.child(0).is_some_and(|c| c.kind_str().starts_with('#'))
        && n.parent().is_some_and(|p| matches!(p.kind_str(), "argument_list" | "parameter_list"))
        && n.next_sibling().is_none_or(|s| s.start_position().row > n.end_position().row)
}

/// Whether `call` is the declarator of a variable with a template type
/// that the grammar read as comparisons: `sycl::range<3> cudaFree(1, 1, p);`
/// in a function body (a migrated `dim3 cudaFree(p);`) parses as
/// `(sycl::range < 3) > cudaFree(1, 1, p)`. Such a "call" names the
/// variable; no rule may rewrite it as a call of CUDA's function.
pub fn is_declaration_read_as_comparison<'t>(parents: &dyn Parents<'t>, call: Node<'t>) -> bool {
    let Some(gt) = parents.parent_of(call).filter(|p| p.kind_str() == "binary_expression" && p.field("right").is_some_and(|r| r.id() == call.id())) else {
        return false;
    };
    let is_op = |n: Node, op: &str| n.field("operator").is_some_and(|o| o.kind_str() == op);
    is_op(gt, ">")
        && gt.field("left").is_some_and(|l| l.kind_str() == "binary_expression" && is_op(l, "<"))
        && parents.parent_of(gt).is_some_and(|s| s.kind_str() == "expression_statement")
}

/// The source line of a list directive, as written.
pub fn list_directive_text<'a>(n: Node, src: &'a str) -> &'a str {
    src[n.start_byte()..].lines().next().unwrap_or("").trim()
}

/// Where extra parameters or arguments go in a list whose items are
/// `items`: at `at` counted over the real items, but never after a
/// preprocessor directive, so the list and every call of it agree whichever
/// branch is compiled. Returns the index into `items`.
pub fn extra_position(items: &[Node], at: usize) -> usize {
    let first_directive = items.iter().position(|i| is_list_directive(*i)).unwrap_or(items.len());
    at.min(first_directive)
}

/// The arguments of a call (none when it has no argument list).
pub fn call_arguments(call: Node) -> Vec<Node> {
    call.field("arguments").map(items).unwrap_or_default()
}

/// The identifier a declarator declares (`*a[3]` → `a`, `f(int)` → `f`, `A::f` → `f`).
pub fn declarator_name<'a>(mut d: Node<'a>, src: &'a str) -> Option<(Node<'a>, &'a str)> {
    loop {
        match d.kind_str() {
            "identifier" | "field_identifier" | "type_identifier" | "destructor_name" | "operator_name" => {
                return Some((d, text(d, src)));
            }
            "qualified_identifier" => d = d.field("name")?,
            "template_function" => d = d.field("name")?,
            _ => {
                if let Some(inner) = d.field("declarator") {
                    d = inner;
                } else {
                    // reference_declarator has no field for its inner declarator
                    d = named_children(d).into_iter().last()?;
                }
            }
        }
    }
}

/// Is this use of a `dim3` variable one that cannot change it: the block or
/// grid of a launch, or a member read (`v.x` not assigned, incremented or
/// addressed)? Anything else (passed to a function, assigned, copied) may.
pub fn is_read_only_use(n: Node) -> bool {
    let Some(parent) = n.parent() else {
        return false;
    };
    match parent.kind_str() {
        "kernel_call_syntax" => true,
        "field_expression" if parent.field("argument").is_some_and(|a| a.id() == n.id()) => {
            let Some(user) = parent.parent() else {
                return true;
            };
            match user.kind_str() {
                "assignment_expression" => user.field("left").is_none_or(|l| l.id() != parent.id()),
                "update_expression" => false,
                "pointer_expression" => user.field("operator").is_none_or(|o| o.kind_str() != "&"),
                _ => true,
            }
        }
        _ => false,
    }
}

/// Is function `name`, declared by `decl` (a definition or declaration), a
/// constructor or destructor: named like the class whose body holds it, or
/// defined out of class as `X::X` / `X::~X`?
pub fn is_constructor<'t>(parents: &dyn Parents<'t>, decl: Node<'t>, name: &str, src: &str) -> bool {
    if name.starts_with('~') {
        return true;
    }
    let qualified_as_class = qualified_function_name(decl).and_then(|q| q.field("scope")).is_some_and(|s| {
        let scope = text(s, src);
        scope.split('<').next().unwrap_or(scope).trim() == name
    });
    if qualified_as_class {
        return true;
    }
    let mut p = parents.parent_of(decl);
    while let Some(x) = p {
        if x.kind_str() == "field_declaration_list" {
            return parents.parent_of(x).and_then(|c| c.field("name")).is_some_and(|n| text(n, src) == name);
        }
        if matches!(x.kind_str(), "function_definition" | "translation_unit") {
            return false;
        }
        p = parents.parent_of(x);
    }
    false
}

/// Is the function declared by `decl` a member function: declared inside a
/// class body, or defined out of class with a qualified name (`X::f`)?
pub fn is_method<'t>(parents: &dyn Parents<'t>, decl: Node<'t>) -> bool {
    qualified_function_name(decl).is_some() || has_ancestor(parents, decl, &["field_declaration_list"])
}

/// The qualified name (`X::f`) a function declaration `decl` declares, if
/// its name is qualified.
fn qualified_function_name(decl: Node) -> Option<Node> {
    decl.field("declarator").and_then(function_declarator).and_then(|fd| fd.field("declarator")).filter(|d| d.kind_str() == "qualified_identifier")
}

/// The function_declarator inside a declarator, if any.
pub fn function_declarator(mut d: Node) -> Option<Node> {
    loop {
        if d.kind_str() == "function_declarator" {
            return Some(d);
        }
        d = match d.field("declarator") {
            Some(x) => x,
            None => {
                if d.kind_str() == "reference_declarator" {
                    named_children(d).into_iter().last()?
                } else {
                    return None;
                }
            }
        };
    }
}

/// The name a call expression calls, when it is a plain, template or qualified name.
/// The name and the type of a type alias (`using U = T;`, `typedef T U;`).
pub fn type_alias(n: Node) -> Option<(Node, Node)> {
    match n.kind_str() {
        "alias_declaration" => n.field("name").zip(n.field("type")),
        "type_definition" => n.field("declarator").filter(|d| d.kind_str() == "type_identifier").zip(n.field("type")),
        _ => None,
    }
}

/// `e` without the parentheses around it.
pub fn strip_parens(mut e: Node) -> Node {
    while e.kind_str() == "parenthesized_expression" {
        match e.named_child(0) {
            Some(inner) if e.named_child_count() == 1 => e = inner,
            _ => break,
        }
    }
    e
}

pub fn callee_name<'a>(call: Node<'a>, src: &'a str) -> Option<(Node<'a>, &'a str)> {
    let f = call.field("function")?;
    match f.kind_str() {
        "identifier" => Some((f, text(f, src))),
        "template_function" => {
            let n = f.field("name")?;
            Some((n, text(n, src)))
        }
        "qualified_identifier" => {
            let mut n = f;
            while n.kind_str() == "qualified_identifier" {
                n = n.field("name")?;
            }
            match n.kind_str() {
                "identifier" => Some((n, text(n, src))),
                "template_function" => {
                    let n = n.field("name")?;
                    Some((n, text(n, src)))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The member function a call names through an object (`obj.load(p)`,
/// `ptr->load(p)`, `obj.template load<T>(p)`): the field's node and text.
pub fn method_callee_name<'a>(call: Node<'a>, src: &'a str) -> Option<(Node<'a>, &'a str)> {
    let f = call.field("function").filter(|f| f.kind_str() == "field_expression")?;
    let mut field = f.field("field")?;
    // `obj.template load<T>(p)`: the template method inside a dependent name
    if field.kind_str() == "dependent_name" {
        field = children(field).into_iter().find(|c| c.kind_str() == "template_method")?;
    }
    let field = if field.kind_str() == "template_method" { field.field("name")? } else { field };
    (field.kind_str() == "field_identifier").then(|| (field, text(field, src)))
}

/// Is `n` inside a node of one of `kinds` (itself excluded)?
pub fn has_ancestor<'t>(parents: &dyn Parents<'t>, n: Node<'t>, kinds: &[&str]) -> bool {
    if let Some(inside) = parents.inside_kinds(n, kinds) {
        return inside;
    }
    let mut p = parents.parent_of(n);
    while let Some(x) = p {
        if kinds.contains(&x.kind_str()) {
            return true;
        }
        p = parents.parent_of(x);
    }
    false
}

/// [`ancestor_of_kind`], the ancestors asked of `parents`.
pub fn ancestor_of_kind_in<'a>(parents: &dyn Parents<'a>, n: Node<'a>, kinds: &[&str]) -> Option<Node<'a>> {
    let mut p = parents.parent_of(n);
    while let Some(x) = p {
        if kinds.contains(&x.kind_str()) {
            return Some(x);
        }
        p = parents.parent_of(x);
    }
    None
}

pub fn ancestor_of_kind<'a>(n: Node<'a>, kinds: &[&str]) -> Option<Node<'a>> {
    let mut p = n.parent();
    while let Some(x) = p {
        if kinds.contains(&x.kind_str()) {
            return Some(x);
        }
        p = x.parent();
    }
    None
}

/// Is `word` an identifier token in `s` (not part of a longer identifier)?
pub fn contains_word(s: &str, word: &str) -> bool {
    // (an empty word would be found at one place forever)
    if word.is_empty() {
        return false;
    }
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(p) = s[from..].find(word) {
        let start = from + p;
        let end = start + word.len();
        let before_ok = start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_');
        let after_ok = end >= b.len() || !(b[end].is_ascii_alphanumeric() || b[end] == b'_');
        if before_ok && after_ok {
            return true;
        }
        from = end;
    }
    false
}

/// `s` on one line: runs of white space (newlines too) become one space.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The value of a C integer literal (`256`, `0x100`, `0X1F`, `256u`,
/// `4096UL`), blanks around it ignored; None for anything else.
pub fn integer_value(t: &str) -> Option<i64> {
    let t = t.trim().trim_end_matches(['u', 'U', 'l', 'L']);
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

/// Identifier tokens of a piece of C/C++ text (skipping comments, strings and
/// character literals), with their byte ranges.
pub fn identifiers(s: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    identifier_tokens(s).collect()
}

/// [`identifiers`], one at a time (a whole file's would take some 25 bytes
/// of memory per identifier).
pub fn identifier_tokens(s: &str) -> impl Iterator<Item = (std::ops::Range<usize>, &str)> {
    let b = s.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let c = b[i];
            if c == b'/' && b.get(i + 1) == Some(&b'/') {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            } else if c == b'"' || c == b'\'' {
                i += 1;
                while i < b.len() && b[i] != c {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            } else if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                return Some((start..i, &s[start..i]));
            } else if c.is_ascii_digit() {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                    i += 1;
                }
            } else {
                i += 1;
            }
        }
        None
    })
}

/// Where a word occurs in a text (as a substring, ascending), found once:
/// whether a range holds it is then a binary search, where a walk of the
/// range's nodes would read each leaf's text.
pub struct Occurrences {
    at: Vec<usize>,
}

impl Occurrences {
    pub fn of(src: &str, word: &str) -> Self {
        Occurrences { at: memchr::memmem::find_iter(src.as_bytes(), word.as_bytes()).collect() }
    }

    /// Does an occurrence start in `range`?
    pub fn any_in(&self, range: std::ops::Range<usize>) -> bool {
        self.at.get(self.at.partition_point(|&a| a < range.start)).is_some_and(|&a| a < range.end)
    }
}

/// An indented S-expression-like dump of a tree, for debugging.
pub fn dump(root: Node, src: &str) -> String {
    fn walk(n: Node, src: &str, depth: usize, field: Option<&str>, out: &mut String) {
        let leaf = if n.child_count() == 0 || n.is_error() { format!(" {:?}", &src[n.byte_range()]) } else { String::new() };
        out.push_str(&format!("{}{}{}{}\n", "  ".repeat(depth), field.map(|f| format!("{f}: ")).unwrap_or_default(), n.kind_str(), leaf));
        let mut c = n.walk();
        for (i, ch) in n.children(&mut c).enumerate() {
            walk(ch, src, depth + 1, n.field_name_for_child(i as u32), out);
        }
    }
    let mut out = String::new();
    walk(root, src, 0, None, &mut out);
    out
}

/// Every name a file's declarations, parameters and range-`for` variables
/// declare: a name not among them is declared in no scope, so
/// a lookup in scope answers at once for the many uses of names the
/// code does not declare (`threadIdx`), without the scoped lookup.
pub struct Declared<'s> {
    names: std::collections::HashSet<&'s str>,
}

impl<'s> Declared<'s> {
    /// The names declared among `nodes` (a file's nodes).
    pub fn of<'t>(nodes: &Preorder<'t>, src: &'s str) -> Self {
        let mut names = std::collections::HashSet::new();
        for (_, n) in nodes.of_kinds(&["declaration", "parameter_declaration", "optional_parameter_declaration", "for_range_loop"]) {
            let mut c = n.walk();
            for d in n.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                if let Some((id, _)) = declarator_name(d, src) {
                    names.insert(text(id, src));
                }
            }
        }
        Declared { names }
    }

    /// Does the file declare `name` anywhere?
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

/// The declaration of `name` in a scope around `n`, with the declarator
/// that names it: a variable the code declares itself (a local, a `for`
/// variable or a parameter declared before the use). Code may name its own
/// variables like CUDA's builtins (`dim3 gridDim(..)`, `const int blockDim
/// = 16;`); those stay the user's.
pub fn declaration_in_scope<'a>(n: Node<'a>, name: &str, src: &str) -> Option<(Node<'a>, Node<'a>)> {
    declaration_in_scope_indexed(n, name, src, &|_| None, &TreeLinks)
}

/// Scopes with at least this many children are indexed by [`ScopeIndex`];
/// smaller ones are walked.
pub const INDEXED_SCOPE: usize = 32;

/// The declarations of a file's large scopes (a translation unit, a
/// namespace body, a block of at least [`INDEXED_SCOPE`] statements), read
/// once: scope node id → name → its first (declaration, declarator) there.
/// [`ScopeIndex::declaration_in_scope`] looks names up in it where
/// [`declaration_in_scope`] walks those scopes' children (a lookup at file
/// scope would be a walk of every declaration before it).
pub struct ScopeIndex<'a> {
    scopes: std::collections::HashMap<usize, std::collections::HashMap<&'a str, (Node<'a>, Node<'a>)>>,
}

impl<'a> ScopeIndex<'a> {
    /// The index of a file's nodes (all of them, in any order).
    pub fn of(nodes: &Preorder<'a>, src: &'a str) -> Self {
        let mut scopes: std::collections::HashMap<usize, std::collections::HashMap<&'a str, (Node<'a>, Node<'a>)>> = std::collections::HashMap::new();
        for (_, scope) in nodes.of_kinds(&["translation_unit", "declaration_list", "compound_statement"]) {
            if scope.named_child_count() < INDEXED_SCOPE {
                continue;
            }
            let names = scopes.entry(scope.id()).or_default();
            for decl in named_children(scope) {
                if !matches!(decl.kind_str(), "declaration" | "parameter_declaration") {
                    continue;
                }
                let mut c = decl.walk();
                for d in decl.children_by_field_id(declarator_field(), &mut c) {
                    if let Some((_, t)) = declarator_name(d, src) {
                        names.entry(t).or_insert((decl, d));
                    }
                }
            }
        }
        ScopeIndex { scopes }
    }

    /// [`declaration_in_scope`], the indexed scopes looked up, the
    /// ancestors asked of `parents` (a file's walk answers each in a binary
    /// search, where tree-sitter's parent links take a walk from the root).
    pub fn declaration_in_scope<'n>(&'n self, n: Node<'n>, name: &str, src: &str, parents: &dyn Parents<'n>) -> Option<(Node<'n>, Node<'n>)> {
        declaration_in_scope_indexed(n, name, src, &|scope: Node<'n>| self.scopes.get(&scope.id()).map(|names| names.get(name).copied()), parents)
    }
}

/// The first declaration of a name among a scope's children, as an index
/// of a large scope answers it: `None` where `scope` is not indexed, else
/// the first (declaration, declarator) of `name` in it, if any.
pub type ScopeLookup<'x, 'a> = dyn Fn(Node<'a>) -> Option<Option<(Node<'a>, Node<'a>)>> + 'x;

/// [`declaration_in_scope`], where `indexed` answers for the scopes an
/// index holds (a file's translation unit, a long namespace body) in one
/// lookup instead of a walk of their children: the same answer, linear
/// time over a file of many lookups.
pub fn declaration_in_scope_indexed<'a>(
    n: Node<'a>,
    name: &str,
    src: &str,
    indexed: &ScopeLookup<'_, 'a>,
    parents: &dyn Parents<'a>,
) -> Option<(Node<'a>, Node<'a>)> {
    let declares = |decl: Node<'a>| -> Option<(Node<'a>, Node<'a>)> {
        let mut c = decl.walk();
        let d = decl.children_by_field_id(crate::syntax::declarator_field(), &mut c).find(|d| declarator_name(*d, src).is_some_and(|(_, t)| t == name));
        d.map(|d| (decl, d))
    };
    let mut child = n;
    while let Some(p) = parents.parent_of(child) {
        match p.kind_str() {
            "compound_statement" | "translation_unit" | "declaration_list" if let Some(first) = indexed(p) => {
                // the first declaration of the scope, if it comes before
                // `child` (a later one is not in scope here, nor any other)
                if let Some(found) = first.filter(|(decl, _)| decl.start_byte() < child.start_byte() && decl.id() != child.id()) {
                    return Some(found);
                }
            }
            "compound_statement" | "translation_unit" | "namespace_definition" | "declaration_list" | "for_statement" | "for_range_loop" => {
                for s in named_children(p) {
                    if s.start_byte() >= child.start_byte() && p.kind_str() != "for_range_loop" {
                        break;
                    }
                    let is_decl = matches!(s.kind_str(), "declaration" | "parameter_declaration");
                    if is_decl
                        && s.id() != child.id()
                        && let Some(found) = declares(s)
                    {
                        return Some(found);
                    }
                }
                if p.kind_str() == "for_range_loop"
                    && let Some(d) = p.field("declarator").filter(|d| declarator_name(*d, src).is_some_and(|(_, t)| t == name))
                {
                    return Some((p, d));
                }
            }
            "function_definition" | "lambda_expression" => {
                let params = p.field("declarator").and_then(function_declarator).and_then(|f| f.field("parameters"));
                let found = params.and_then(|ps| {
                    named_children(ps)
                        .into_iter()
                        .filter(|d| matches!(d.kind_str(), "parameter_declaration" | "optional_parameter_declaration"))
                        .find_map(declares)
                });
                if found.is_some() {
                    return found;
                }
            }
            _ => {}
        }
        child = p;
    }
    None
}

/// Does declarator `d` declare a plain variable (`x`, `x = 1`, `&x`), not a
/// pointer, array or function?
fn is_plain_declarator(d: Node) -> bool {
    match d.kind_str() {
        "identifier" => true,
        "init_declarator" | "reference_declarator" => {
            d.field("declarator").or_else(|| named_children(d).into_iter().next()).is_some_and(|x| x.kind_str() == "identifier")
        }
        _ => false,
    }
}

/// What the index and the rules both read of a walked file's declarations
/// ([`Declared`], [`Functors`], [`ScopeIndex`]): each computed on first use
/// and kept for both steps. Every call passes the same file's nodes (all
/// of them, from its walk) and text.
#[derive(Default)]
pub struct FileNames<'t> {
    declared: std::sync::OnceLock<Declared<'t>>,
    functors: std::sync::OnceLock<Functors<'t>>,
    scopes: std::sync::OnceLock<ScopeIndex<'t>>,
}

impl<'t> FileNames<'t> {
    pub fn declared(&self, nodes: &Preorder<'t>, src: &'t str) -> &Declared<'t> {
        self.declared.get_or_init(|| Declared::of(nodes, src))
    }

    pub fn functors(&self, nodes: &Preorder<'t>, src: &'t str) -> &Functors<'t> {
        self.functors.get_or_init(|| Functors::of(nodes, src))
    }

    pub fn scopes(&self, nodes: &Preorder<'t>, src: &'t str) -> &ScopeIndex<'t> {
        self.scopes.get_or_init(|| ScopeIndex::of(nodes, src))
    }

    /// As plain references (which a shorter-lived reader such as a rule's
    /// context can hold): the function objects (every rewrite reads them),
    /// and the declared names and scopes where the index read them already
    /// (else the reader reads them itself, if it needs them).
    pub fn read<'s>(&'s self, nodes: &Preorder<'t>, src: &'t str) -> Names<'s>
    where
        't: 's,
    {
        Names { declared: self.declared.get(), functors: self.functors(nodes, src), scopes: self.scopes.get() }
    }
}

/// [`FileNames`] read ([`FileNames::read`]).
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub declared: Option<&'a Declared<'a>>,
    pub functors: &'a Functors<'a>,
    pub scopes: Option<&'a ScopeIndex<'a>>,
}

/// The names a file declares as plain variables of a class or template
/// type parameter type (`Op op`, `F f = ...`, `for (Fn g : fs)`): the only
/// names [`Functors::is_call`] must look up, so that the scoped lookup runs
/// for the few calls that can be calls of function objects and not for
/// every call of a function (the lookup scans the declarations before the
/// call in each scope around it).
pub struct Functors<'s> {
    names: std::collections::HashSet<&'s str>,
}

impl<'s> Functors<'s> {
    /// The candidates among `nodes` (a file's nodes).
    pub fn of<'t>(nodes: &Preorder<'t>, src: &'s str) -> Self {
        let mut names = std::collections::HashSet::new();
        for (_, n) in nodes.of_kinds(&["declaration", "parameter_declaration", "optional_parameter_declaration", "for_range_loop"]) {
            if !has_class_type(n) {
                continue;
            }
            let mut c = n.walk();
            for d in n.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                if is_plain_declarator(d)
                    && let Some((id, _)) = declarator_name(d, src)
                {
                    names.insert(text(id, src));
                }
            }
        }
        Functors { names }
    }

    /// Is `call` a call of a function object (`callable(a, b)` where
    /// `callable` is a parameter or local of a class or template type
    /// parameter type)? Its callee is then the class's `operator()`. Lambdas
    /// (`auto`) and function pointers are not. `declaration`: the lookup of
    /// a name in scope ([`declaration_in_scope`], or a file's [`ScopeIndex`]).
    pub fn is_call<'a>(&self, call: Node<'a>, src: &str, declaration: &DeclarationAt<'_, 'a>) -> bool {
        let Some(f) = call.field("function").filter(|f| f.kind_str() == "identifier") else {
            return false;
        };
        let name = text(f, src);
        if !self.names.contains(name) {
            return false;
        }
        let Some((decl, d)) = declaration(f, name) else {
            return false;
        };
        is_plain_declarator(d) && has_class_type(decl)
    }
}

/// Does declaration `decl` have a class or template type parameter type?
fn has_class_type(decl: Node) -> bool {
    decl.field("type").is_some_and(|t| matches!(t.kind_str(), "type_identifier" | "template_type" | "qualified_identifier"))
}

/// The arithmetic type of a scalar expression, where the syntax shows it:
/// literals, variables declared (in a scope around the use) with a built-in
/// arithmetic type, casts, and arithmetic on those. `None` where it would
/// take a type checker (calls, members, templates, `auto`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Arith {
    /// An integer of this many bits (after promotion: at least 32).
    Int(u8),
    Float,
    Double,
}

/// The [`Arith`] type a type's spelling names (`const unsigned int`, `size_t`,
/// `double`), or `None`.
pub fn arith_of_type(t: &str) -> Option<Arith> {
    let words: Vec<&str> = t.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile" | "static" | "register" | "constexpr")).collect();
    match words.as_slice() {
        ["float"] => Some(Arith::Float),
        ["double"] | ["long", "double"] => Some(Arith::Double),
        [] => None,
        ws if ws.iter().all(|w| matches!(*w, "int" | "unsigned" | "signed" | "long" | "short" | "char" | "bool")) => {
            Some(Arith::Int(if ws.contains(&"long") { 64 } else { 32 }))
        }
        [w] => match *w {
            "size_t" | "ptrdiff_t" | "int64_t" | "uint64_t" => Some(Arith::Int(64)),
            "uint" | "ushort" | "uchar" | "int8_t" | "int16_t" | "int32_t" | "uint8_t" | "uint16_t" | "uint32_t" => Some(Arith::Int(32)),
            _ => None,
        },
        _ => None,
    }
}

pub fn arith_type(e: Node, src: &str) -> Option<Arith> {
    arith_type_with(e, src, &|n, name| declaration_in_scope(n, name, src))
}

/// Finds the declaration of a name in scope at a node: (declaration,
/// declarator), as [`declaration_in_scope`] does.
pub type DeclarationAt<'x, 'a> = dyn Fn(Node<'a>, &str) -> Option<(Node<'a>, Node<'a>)> + 'x;

/// [`arith_type`], where `declaration` finds the declaration of a name in
/// scope at a node (a file's [`ScopeIndex`], for many lookups).
pub fn arith_type_with<'a>(e: Node<'a>, src: &str, declaration: &DeclarationAt<'_, 'a>) -> Option<Arith> {
    arith_type_within(e, src, declaration, 0)
}

/// Expressions nested deeper than this are of no evident type (the
/// recursion's bound: a generated `((((…))))` may nest thousands deep).
pub const EXPRESSION_DEPTH: usize = 256;

fn arith_type_within<'a>(e: Node<'a>, src: &str, declaration: &DeclarationAt<'_, 'a>, depth: usize) -> Option<Arith> {
    if depth > EXPRESSION_DEPTH {
        return None;
    }
    let arith_type_with = |e: Node<'a>, src: &str, declaration: &DeclarationAt<'_, 'a>| arith_type_within(e, src, declaration, depth + 1);
    match e.kind_str() {
        "number_literal" => {
            let t = text(e, src).to_ascii_lowercase();
            let hex = t.starts_with("0x");
            if !hex && (t.contains('.') || t.contains('e')) {
                Some(if t.ends_with('f') { Arith::Float } else { Arith::Double })
            } else {
                Some(Arith::Int(if t.trim_end_matches(['u', 'l']).len() + 1 < t.len() || t.ends_with('l') { 64 } else { 32 }))
            }
        }
        "char_literal" | "true" | "false" => Some(Arith::Int(32)),
        "sizeof_expression" => Some(Arith::Int(64)),
        "identifier" => {
            let (decl, d) = declaration(e, text(e, src))?;
            // a plain variable (not a pointer, array or function), of a built-in type
            if !is_plain_declarator(d) {
                return None;
            }
            let ty = decl.field("type")?;
            let mut quals = String::new();
            for c in named_children(decl) {
                if c.kind_str() == "type_qualifier" {
                    quals.push_str(text(c, src));
                    quals.push(' ');
                }
            }
            arith_of_type(&format!("{quals}{}", text(ty, src)))
        }
        "parenthesized_expression" => arith_type_with(named_children(e).into_iter().next()?, src, declaration),
        "unary_expression" => {
            let op = e.field("operator").map(|o| text(o, src))?;
            match op {
                "!" => Some(Arith::Int(32)),
                "-" | "+" | "~" => arith_type_with(e.field("argument")?, src, declaration),
                _ => None,
            }
        }
        "cast_expression" => arith_of_type(text(e.field("type")?, src)),
        "binary_expression" => {
            let op = e.field("operator").map(|o| text(o, src))?;
            if matches!(op, "<" | ">" | "<=" | ">=" | "==" | "!=" | "&&" | "||") {
                return Some(Arith::Int(32));
            }
            let l = arith_type_with(e.field("left")?, src, declaration)?;
            let r = arith_type_with(e.field("right")?, src, declaration)?;
            Some(l.max(r))
        }
        "conditional_expression" => {
            let a = arith_type_with(e.field("consequence")?, src, declaration)?;
            let b = arith_type_with(e.field("alternative")?, src, declaration)?;
            Some(a.max(b))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descendants_with_parents_match_tree_sitters() {
        let src = "#if defined(A) && (__CUDA_ARCH__ >= 700 || B)\n#if C\nint x;\n#endif\n#endif\nvoid f( { int a = (1; }\n";
        let tree = crate::parse::parse_text(src);
        let walked = descendants_with_parents(tree.root_node());
        assert_eq!(walked.iter().map(|(n, _)| n.id()).collect::<Vec<_>>(), descendants(tree.root_node()).iter().map(|n| n.id()).collect::<Vec<_>>());
        for (n, p) in &walked {
            assert_eq!(p.map(|p| p.id()), n.parent().map(|p| p.id()), "{}", n.kind_str());
        }
        // from a subtree: its root has no parent there, the rest their own
        let inner = walked.iter().map(|(n, _)| *n).find(|n| n.kind_str() == "binary_expression").unwrap();
        let sub = descendants_with_parents(inner);
        assert!(sub[0].1.is_none());
        assert!(sub[1..].iter().all(|(n, p)| p.map(|p| p.id()) == n.parent().map(|p| p.id())));
    }

    #[test]
    fn a_walks_parent_links_match_tree_sitters() {
        // code that parses, and a region that does not (one wide ERROR node)
        let src = "struct S { S(int a) : x(a) {} int x; };\n__global__ void k(float *p) { p[threadIdx.x] = 0; }\n\
                   void f( { int a = (1; } } } g(x, #if A\n y);\nint h() { return 1; }\n";
        let tree = crate::parse::parse_text(src);
        let nodes = Preorder::of(tree.root_node());
        assert!(nodes.iter().any(|n| n.is_error()));
        for &n in nodes.iter() {
            assert_eq!(nodes.parent_of(n).map(|p| p.id()), n.parent().map(|p| p.id()), "{}", n.kind_str());
        }
        // a walk of a subtree: its root's parent and the nodes of another
        // tree are asked of tree-sitter
        let inner = nodes.iter().copied().find(|n| n.kind_str() == "field_declaration_list").unwrap();
        let sub = Preorder::of(inner);
        assert_eq!(sub.parent_of(inner).map(|p| p.kind_str()), Some("struct_specifier"));
        let other = crate::parse::parse_text("int y;");
        let leaf = descendants(other.root_node()).into_iter().last().unwrap();
        assert_eq!(nodes.parent_of(leaf).map(|p| p.id()), leaf.parent().map(|p| p.id()));
    }

    #[test]
    fn contains_word_finds_whole_words_only() {
        assert!(contains_word("a + N * 2", "N"));
        assert!(!contains_word("NN + xN", "N"));
        // an empty word is in no text (it once looped forever)
        assert!(!contains_word("f(N)", ""));
        assert!(!contains_word("", ""));
    }

    /// `field("name")` answers None for a name the grammar lacks, as
    /// tree-sitter's `child_by_field_name` did: a misspelt field would be a
    /// silent miss, so every field named in the sources must exist.
    #[test]
    fn every_field_named_in_the_sources_is_the_grammars() {
        let re = regex::Regex::new(r#"\.field\("([A-Za-z_]+)"\)"#).unwrap();
        let mut named = 0;
        for entry in ignore::Walk::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")).flatten() {
            if entry.path().extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(entry.path()).unwrap();
                for c in re.captures_iter(&text) {
                    assert!(field_id(&c[1]).is_some(), "{}: `{}` is not a field of the grammar", entry.path().display(), &c[1]);
                    named += 1;
                }
            }
        }
        assert!(named > 100, "only {named} field names found: the pattern no longer matches the sources");
        assert!(field_id("no_such_field").is_none());
        for (i, f) in COMMON_FIELDS.iter().enumerate() {
            assert_eq!(field_id(f), field_id_in_table(f), "{f} (entry {i})");
            assert!(field_id(f).is_some(), "{f}");
        }
    }
}
