//! The rewrite stage: structural rules, one per file, each turning facts and
//! syntax nodes into edits and diagnostics for one file.
//!
//! | rule | what it migrates |
//! |---|---|
//! | [`execution_space_qualifiers`] | `__global__`/`__device__`/`__host__`/`__forceinline__`, lambda and macro qualifiers, `__align__` |
//! | [`sycl_external`] | `SYCL_EXTERNAL` on device code declared apart from its definition |
//! | [`launch_bounds`] | `__launch_bounds__` |
//! | [`member_alias`] | `using T = T<…>;` in a class: `::T`, which GCC needs |
//! | [`cuda_arch_macro`] | `__CUDA_ARCH__` in preprocessor conditions |
//! | [`inactive_branches`] | CUDA kept in a branch no configuration of the program compiles (a guard of a header no file includes, a macro nothing defines) |
//! | [`cuda_header_macros`] | CUDA's header guards and version macros (`__DRIVER_TYPES_H__`, `CUDART_VERSION`; data: `rules/cuda_macros.yaml`) |
//! | [`device_function_parameters`] | the `nd_item` and local-memory parameters of kernels and device functions, and their call sites |
//! | [`device_globals`] | `__constant__`/`__device__`/`__managed__` variables |
//! | [`thread_builtins`] | `threadIdx`/`blockIdx`/`blockDim`/`gridDim`/`warpSize` |
//! | [`syncthreads`] | `__syncthreads` and its `_count`/`_and`/`_or` forms |
//! | [`warp_shuffle`] | `__shfl_sync` and friends, any mask and width |
//! | [`warp_vote`] | `__all/__any/__ballot_sync`, `__activemask`, `__match_*_sync` |
//! | [`fences`] | `__threadfence*`, `__syncwarp` |
//! | [`cooperative_groups`] | `cooperative_groups::` → `syclify::cg::` |
//! | [`device_printf`] | `printf` in device code |
//! | [`inline_asm`] | inline assembly (PTX) in device code: kept, reported |
//! | [`static_shared_memory`] | static `__shared__` declarations |
//! | [`extern_shared_memory`] | `extern __shared__` declarations |
//! | [`kernel_launch`] | `k<<<g, b, shmem, stream>>>(args)`, also inside macros |
//! | [`work_group_size`] | (part of `kernel_launch`) `SYCLIFY_REQD_WORK_GROUP_SIZE` for constant block sizes, `SYCLIFY_LAUNCH_BOUNDS` for 1-D ones |
//! | [`dim3`] | host `dim3` variables and temporaries |
//! | [`runtime_api`] | CUDA runtime calls, types and enumerators (data: `rules/*.yaml`) |
//! | [`includes`] | CUDA headers, includes of migrated files, the SYCL includes |

pub mod cooperative_groups;
pub mod cub;
pub mod cuda_arch_macro;
pub mod cuda_header_macros;
pub mod device_function_parameters;
pub mod device_globals;
pub mod device_printf;
pub mod dim3;
pub mod execution_space_qualifiers;
pub mod extern_shared_memory;
pub mod fences;
pub mod inactive_branches;
pub mod includes;
pub mod inline_asm;
pub mod kernel_launch;
pub mod launch_bounds;
pub mod library_namespaces;
pub mod member_alias;
pub mod runtime_api;
pub mod static_shared_memory;
pub mod sycl_external;
pub mod syncthreads;
pub mod thread_builtins;
pub mod warp_shuffle;
pub mod warp_vote;
pub mod wmma;
pub mod work_group_size;

use crate::diagnostics::{Code, Diagnostic};
use crate::edit::EditSet;
use crate::index::ProjectIndex;
use crate::mapping::Mappings;
use crate::parse::Parsed;
use crate::syntax::NodeKind;
use crate::syntax::{self, Preorder, declarator_name, descendants, text};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::rc::Rc;
use tree_sitter::{Node, Tree};

/// Project-wide inputs every rule may read.
pub struct ProjectCtx<'a> {
    pub index: &'a ProjectIndex,
    pub mappings: &'a Mappings,
    /// Include rewriting: relative path of a migrated file → its output path.
    pub renames: &'a BTreeMap<String, String>,
    /// Quoted includes (including file, name as written) that name a file
    /// with CUDA code outside the in-root.
    pub outside_includes: &'a std::collections::BTreeMap<(String, String), crate::project::OutsideInclude>,
    /// `-I` directories, in-root-relative.
    pub include_dirs: &'a [String],
    /// Every name the build files mention (`-DUSE_MPI`, `add_definitions`,
    /// a make variable that sets one) and every macro a compilation
    /// database's `-D`/`-U` names: the macros the build may define, which
    /// no source `#define`s ([`inactive_branches`]).
    pub configured: &'a BTreeSet<String>,
    /// The sources of this index's files (one program part), by path.
    pub cluster_sources: Vec<(&'a str, &'a str)>,
    /// The names those sources define by their shape
    /// ([`crate::leftovers::defined_names`]), read when a file has names
    /// left that it does not define itself (a variable `cublas_handle`
    /// declared in a header).
    pub cluster_declared: std::sync::OnceLock<ClusterDeclared>,
}

/// The names each source of a program part defines by their shape (see
/// [`ProjectCtx::declared_elsewhere`]).
#[derive(Debug, Default)]
pub struct ClusterDeclared {
    by_file: std::collections::HashMap<String, BTreeSet<String>>,
    /// in how many of the files each name is defined
    files_defining: std::collections::HashMap<String, usize>,
}

impl ProjectCtx<'_> {
    /// Is `name` defined, by its shape, in a source of this program part
    /// other than `rel`'s (read once, on first use)? Not `rel`'s own: these
    /// are the sources before their migration, whose shapes the rules change
    /// (`blockIdx.x * blockDim{` reads as a declaration until `blockIdx.x`
    /// is rewritten), and a file's own names are read from its output. A
    /// name the tables map as a function counts by the shape of a
    /// definition only if the index has it too (a call the rules rewrite may
    /// look like one: `f(float x)atomicAdd(&x, 1) {`).
    pub fn declared_elsewhere(&self, rel: &str, name: &str) -> bool {
        // (a program part of one file has no other file to read)
        if self.cluster_sources.iter().all(|(r, _)| *r == rel) {
            return false;
        }
        let c = self.cluster_declared.get_or_init(|| {
            let definition = |w: &str| !self.mappings.functions.contains_key(w) || self.index.functions.contains_key(w);
            let mut c = ClusterDeclared::default();
            for (r, t) in &self.cluster_sources {
                let names = crate::leftovers::defined_names_where(t, &definition);
                for n in &names {
                    *c.files_defining.entry(n.clone()).or_default() += 1;
                }
                c.by_file.insert(r.to_string(), names);
            }
            c
        });
        let own = c.by_file.get(rel).is_some_and(|s| s.contains(name));
        c.files_defining.get(name).copied().unwrap_or(0) > usize::from(own)
    }
}

/// What the rules read of a file's whole text (the same for each of its
/// parts where a large file is migrated in parts), each read once, when
/// first asked.
pub struct WholeFile<'a> {
    pub text: &'a str,
    sycl_tests_are_ours: std::cell::OnceCell<bool>,
    defined_names: std::cell::OnceCell<BTreeSet<String>>,
    /// The helper headers the file includes unconditionally so far
    /// ([`includes`]: a second include of one is removed).
    pub written_helpers: std::cell::RefCell<BTreeSet<String>>,
}

impl<'a> WholeFile<'a> {
    pub fn new(text: &'a str) -> Self {
        WholeFile { text, sycl_tests_are_ours: Default::default(), defined_names: Default::default(), written_helpers: Default::default() }
    }

    /// Are the file's SYCL tests (`SYCL_LANGUAGE_VERSION`, `__SYCL_DEVICE_ONLY__`)
    /// its own ([`cuda_arch_macro`])?
    pub fn sycl_tests_are_ours(&self) -> bool {
        *self.sycl_tests_are_ours.get_or_init(|| cuda_arch_macro::sycl_tests_are_ours(self.text))
    }

    /// The names the file defines by their shape ([`crate::leftovers::defined_names`]).
    pub fn defined_names(&self) -> &BTreeSet<String> {
        self.defined_names.get_or_init(|| crate::leftovers::defined_names(self.text))
    }
}

/// A function definition of this file and the names rules choose inside it.
#[derive(Debug, Clone)]
pub struct FnScope {
    pub range: Range<usize>,
    pub name: String,
    /// The name of the `sycl::nd_item<3>` parameter inside this function.
    pub item: String,
    /// Names declared with type `dim3` (parameters and locals).
    pub dim3_vars: BTreeSet<String>,
    /// Other names declared in the function.
    pub other_vars: BTreeSet<String>,
    /// A kernel or `__device__` function (device code).
    pub device: bool,
    /// A constructor or destructor: no nd_item is passed into it.
    pub constructor: bool,
}

/// Everything a rule works with for one file.
pub struct FileCtx<'a> {
    /// The original text (node offsets are offsets of this text): the
    /// file's, or a part's ([`crate::segment::Compact`]).
    pub src: &'a str,
    /// The whole file's text and what is read of it.
    pub file: &'a WholeFile<'a>,
    pub rel: &'a str,
    pub parsed: &'a Parsed,
    pub project: &'a ProjectCtx<'a>,
    pub edits: EditSet,
    pub diags: Vec<Diagnostic>,
    /// How many constructs each rule migrated.
    pub counts: BTreeMap<&'static str, usize>,
    /// Set when the output uses SYCL or the helper header.
    pub needs_sycl: bool,
    /// CUDA functions whose unqualified calls are left to overload
    /// resolution beside the program's own overloads (`max` where
    /// helper_math.h adds `max(int2, int2)`): the file gets `using
    /// syclify::max;` after the helper header ([`includes`]), so that CUDA's
    /// overloads are visible beside the program's, as under nvcc.
    pub using_helpers: std::collections::BTreeSet<String>,
    /// Branches no build of the program compiles ([`inactive_branches`]):
    /// (the conditional's range through the branch, what the SY0112 warning
    /// says before the names): CUDA left only inside one is reported there.
    pub inactive: Vec<(Range<usize>, String)>,
    /// In a part of a file, the branches no build compiles that open before
    /// the part's body (reported by the part that holds their `#if`): what
    /// is inside them here is not reported again ([`FileCtx::in_inactive_branch`]).
    pub inactive_elsewhere: Vec<Range<usize>>,
    /// The function scopes, in document order (set by `collect_scopes`).
    pub functions: Vec<FnScope>,
    /// The text whose nodes the rules visit: the whole file, or a part's
    /// own declarations where a large file is migrated in parts
    /// ([`crate::segment`]; the rest of the part's text is read, for
    /// lookups, and rewritten in the part that owns it).
    pub body: Range<usize>,
    /// A part of a file migrated in parts.
    in_parts: bool,
    /// `scope_parent[i]`: the scope around `functions[i]`.
    scope_parent: Vec<Option<usize>>,
    pub file_dim3_vars: BTreeSet<String>,
    pub file_other_vars: BTreeSet<String>,
    /// Bodies of macros that hold CUDA code, each parsed on its own.
    pub macro_trees: &'a [MacroBody],
    /// Every node of the main tree, in document order (walked once).
    nodes_main: Rc<Preorder<'a>>,
    /// The nodes of the macro bodies, in order.
    nodes_in_macros: Vec<Node<'a>>,
    /// For each kind id ([`syntax::kind_index`]), the positions in
    /// `nodes_main` then `nodes_in_macros` of the nodes of that kind,
    /// ascending (the first `nodes_main.len()` positions are the main tree's): read once, so that
    /// a rule that looks for some kinds touches only those nodes.
    by_kind: Vec<Vec<u32>>,
    /// What the index read of the file's declarations: its function
    /// objects, and its declared names and large scopes' declarations where
    /// it needed them (else `declared` and `scope_declarations` below).
    names: syntax::Names<'a>,
    /// The names the file declares (see [`FileCtx::declared_in_scope`]),
    /// where the index did not read them.
    declared: std::cell::OnceCell<syntax::Declared<'a>>,
    /// The declarations of the main tree's large scopes (see
    /// [`FileCtx::declaration_in_scope`]), where the index did not read them.
    scope_declarations: std::cell::OnceCell<syntax::ScopeIndex<'a>>,
    /// The main tree's calls by the name they call (see [`FileCtx::calls_of`]).
    calls_by_callee: std::cell::OnceCell<std::collections::HashMap<&'a str, Vec<Node<'a>>>>,
    /// The file's `#define`s (see [`FileCtx::macro_definitions`]).
    macro_definitions: std::cell::OnceCell<Vec<(String, String)>>,
    /// The offsets where the source's lines start (see [`FileCtx::line_start`]).
    line_starts: std::cell::OnceCell<Vec<usize>>,
    /// Ranges of the regions that did not parse (see [`FileCtx::in_error`]),
    /// sorted by start.
    error_ranges: Vec<Range<usize>>,
    /// `error_ends[i]`: the largest end among `error_ranges[..=i]`, so that
    /// [`FileCtx::in_error`] is a binary search, not a scan of every region
    /// (a large header has thousands).
    error_ends: Vec<usize>,
}

impl<'a> FileCtx<'a> {
    /// `main`: the nodes of `parsed`'s tree.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        src: &'a str,
        rel: &'a str,
        parsed: &'a Parsed,
        main: Preorder<'a>,
        names: syntax::Names<'a>,
        macro_trees: &'a [MacroBody],
        project: &'a ProjectCtx<'a>,
        file: &'a WholeFile<'a>,
    ) -> Self {
        Self::new_part(src, rel, parsed, main, names, macro_trees, project, file, 0..src.len())
    }

    /// [`FileCtx::new`] for a part of a file ([`crate::segment::Compact`]):
    /// the rules visit the nodes that start in `body` (and the macro bodies,
    /// which [`parse_macro_bodies`] read from there).
    #[allow(clippy::too_many_arguments)]
    pub fn new_part(
        src: &'a str,
        rel: &'a str,
        parsed: &'a Parsed,
        main: Preorder<'a>,
        names: syntax::Names<'a>,
        macro_trees: &'a [MacroBody],
        project: &'a ProjectCtx<'a>,
        file: &'a WholeFile<'a>,
        body: Range<usize>,
    ) -> Self {
        let mut in_macros = Vec::new();
        for b in macro_trees {
            in_macros.extend(descendants(b.tree.root_node()));
        }
        let mut ctx = FileCtx {
            src,
            file,
            rel,
            parsed,
            project,
            edits: EditSet::new(),
            diags: Vec::new(),
            counts: BTreeMap::new(),
            needs_sycl: false,
            using_helpers: Default::default(),
            inactive: Vec::new(),
            inactive_elsewhere: Vec::new(),
            functions: Vec::new(),
            body: body.clone(),
            in_parts: body.start > 0 || body.end < src.len() || src.len() != file.text.len(),
            scope_parent: Vec::new(),
            file_dim3_vars: BTreeSet::new(),
            file_other_vars: BTreeSet::new(),
            macro_trees,
            error_ranges: error_ranges(parsed.tree.root_node(), false),
            error_ends: Vec::new(),
            by_kind: if body.start == 0 && body.end >= src.len() {
                syntax::positions_by_kind(&main, |_| true, &in_macros)
            } else {
                syntax::positions_by_kind(&main, |i| body.contains(&main[i].start_byte()), &in_macros)
            },
            names,
            declared: std::cell::OnceCell::new(),
            scope_declarations: std::cell::OnceCell::new(),
            calls_by_callee: std::cell::OnceCell::new(),
            macro_definitions: std::cell::OnceCell::new(),
            line_starts: std::cell::OnceCell::new(),
            nodes_main: Rc::new(main),
            nodes_in_macros: in_macros,
        };
        for b in macro_trees {
            ctx.error_ranges.extend(error_ranges(b.tree.root_node(), true));
        }
        ctx.error_ranges.sort_by_key(|r| (r.start, r.end));
        ctx.error_ends = ctx
            .error_ranges
            .iter()
            .scan(0, |max, r| {
                *max = r.end.max(*max);
                Some(*max)
            })
            .collect();
        ctx.collect_scopes();
        ctx
    }

    /// Is `offset` inside a branch that no build of the program compiles
    /// ([`inactive_branches`])? Its CUDA is reported once, with the branch.
    pub fn in_inactive_branch(&self, offset: usize) -> bool {
        self.inactive.iter().any(|(r, _)| r.contains(&offset)) || self.inactive_elsewhere.iter().any(|r| r.contains(&offset))
    }

    /// Is the whole file here (not a part of it, [`crate::segment`])?
    pub fn whole(&self) -> bool {
        !self.in_parts
    }

    /// Is `def` (a function's definition) a function whose body is cut in
    /// parts ([`crate::segment`]): is only some of it here? What a rule
    /// reads of the whole body is then read from the index, or not known.
    pub fn is_split(&self, def: Node) -> bool {
        self.in_parts && def.kind_str() == "function_definition" && !(self.body.start <= def.start_byte() && def.end_byte() <= self.body.end)
    }

    /// Do the rules visit `n` here ([`FileCtx::body`])?
    pub fn in_body(&self, n: Node) -> bool {
        self.owns(n.start_byte())
    }

    /// Do the rules visit what starts at `offset` here ([`FileCtx::body`])?
    pub fn owns(&self, offset: usize) -> bool {
        self.body.contains(&offset) || (offset == self.body.end && self.body.end == self.src.len())
    }

    /// The main tree's root, then the roots of the macro bodies.
    pub fn roots(&self) -> Vec<Node<'a>> {
        let mut v = vec![self.root()];
        v.extend(self.macro_trees.iter().map(|b| b.tree.root_node()));
        v
    }

    /// Is `offset` inside a macro body?
    pub fn in_macro(&self, offset: usize) -> bool {
        self.macro_body_at(offset).is_some()
    }

    /// The macro body holding `offset`, if any.
    fn macro_body_at(&self, offset: usize) -> Option<&MacroBody> {
        // the bodies are in document order and do not overlap
        let i = self.macro_trees.partition_point(|b| b.range.start <= offset);
        self.macro_trees[..i].last().filter(|b| offset < b.range.end)
    }

    /// Is `offset` inside the body of a macro that device code expands
    /// ([`crate::index::ProjectIndex::device_macros`])? Such a body is
    /// device code wherever else the macro is also used.
    pub fn in_device_macro(&self, offset: usize) -> bool {
        self.macro_body_at(offset).is_some_and(|b| self.project.index.device_macros.contains(&b.name))
    }

    /// The parent links of the main tree (a node of a macro body is asked
    /// of tree-sitter): [`syntax::Parents`].
    pub fn parents(&self) -> &Preorder<'a> {
        &self.nodes_main
    }

    /// `n`'s parent, from the walk's links where `n` is of the main tree
    /// (tree-sitter's [`Node::parent`] reads down from the root, through
    /// every child list on the way: in a namespace of many declarations it
    /// costs as much as that list).
    pub fn parent(&self, n: Node<'a>) -> Option<Node<'a>> {
        syntax::Parents::parent_of(&*self.nodes_main, n)
    }

    /// The names the file declares as variables of a class type, which a
    /// call may call as function objects ([`syntax::Functors`]).
    pub fn functors(&self) -> &'a syntax::Functors<'a> {
        self.names.functors
    }

    /// Every node of the main tree, in document order.
    pub fn main_nodes(&self) -> Rc<Preorder<'a>> {
        self.nodes_main.clone()
    }

    /// The nodes of the main tree whose kind is one of `kinds`, in document
    /// order.
    pub fn main_of(&self, kinds: &[&str]) -> Vec<Node<'a>> {
        self.of_kinds(self.nodes_main.len(), kinds)
    }

    /// The nodes of the main tree whose kind is one of `kinds`, in document
    /// order, whether the rules visit them here or not ([`FileCtx::body`]):
    /// for what a rule looks up (type aliases, classes) rather than rewrites.
    pub fn read_of(&self, kinds: &[&str]) -> Vec<Node<'a>> {
        if self.body.start == 0 && self.body.end >= self.src.len() {
            return self.main_of(kinds);
        }
        self.nodes_main.of_kinds(kinds).map(|(_, n)| n).collect()
    }

    /// The nodes of the main tree and then of the macro bodies whose kind is
    /// one of `kinds`, in that order.
    pub fn all_of(&self, kinds: &[&str]) -> Vec<Node<'a>> {
        self.of_kinds(self.nodes_main.len() + self.nodes_in_macros.len(), kinds)
    }

    fn of_kinds(&self, count: usize, kinds: &[&str]) -> Vec<Node<'a>> {
        let mut at: Vec<u32> = Vec::new();
        let mut buckets = 0;
        for k in kinds {
            for &id in syntax::kind_ids(k) {
                if let Some(b) = self.by_kind.get(syntax::kind_index(id)).filter(|b| !b.is_empty()) {
                    at.extend_from_slice(&b[..b.partition_point(|&i| (i as usize) < count)]);
                    buckets += 1;
                }
            }
        }
        if buckets > 1 {
            at.sort_unstable();
        }
        let main = self.nodes_main.len();
        at.into_iter().map(|i| i as usize).map(|i| if i < main { self.nodes_main[i] } else { self.nodes_in_macros[i - main] }).collect()
    }

    /// The call expressions (main tree and macro bodies) outside regions that
    /// did not parse, with the name they call.
    pub fn calls(&self) -> Vec<(Node<'a>, &'a str)> {
        self.all_of(&["call_expression"])
            .into_iter()
            .filter(|n| !self.in_error(*n))
            .filter_map(|n| syntax::callee_name(n, self.src).map(|(_, name)| (n, name)))
            .collect()
    }

    /// The main tree's calls of `name` ([`syntax::callee_name`]), in
    /// document order (the calls are sorted by name once).
    pub fn calls_of(&self, name: &str) -> &[Node<'a>] {
        let calls = self.calls_by_callee.get_or_init(|| {
            let mut by_name: std::collections::HashMap<&'a str, Vec<Node<'a>>> = std::collections::HashMap::new();
            for n in self.main_of(&["call_expression"]) {
                if n.kind_str() == "call_expression"
                    && let Some((_, callee)) = syntax::callee_name(n, self.src)
                {
                    by_name.entry(callee).or_default().push(n);
                }
            }
            by_name
        });
        calls.get(name).map_or(&[], Vec::as_slice)
    }

    /// The file's `#define`s, name and body ([`crate::mask::macro_definitions`], read once).
    pub fn macro_definitions(&self) -> &[(String, String)] {
        self.macro_definitions.get_or_init(|| crate::mask::macro_definitions(self.src))
    }

    /// Is `name`, used at `n` (in the main tree), declared by the code in a
    /// scope around `n`? See [`syntax::declaration_in_scope`].
    pub fn declared_in_scope(&self, n: Node, name: &str) -> bool {
        let declared = self.names.declared.unwrap_or_else(|| self.declared.get_or_init(|| syntax::Declared::of(&self.nodes_main, self.src)));
        declared.contains(name) && self.declaration_in_scope(n, name).is_some()
    }

    /// [`syntax::declaration_in_scope`] for a node of the file, with the
    /// declarations of its large scopes (a translation unit, a namespace
    /// body, a block of at least [`syntax::INDEXED_SCOPE`] statements) read once:
    /// lookups at file scope cost one hash lookup, not a walk of every
    /// declaration before them.
    pub fn declaration_in_scope<'n>(&'n self, n: Node<'n>, name: &str) -> Option<(Node<'n>, Node<'n>)> {
        let scopes = self.names.scopes.unwrap_or_else(|| self.scope_declarations.get_or_init(|| syntax::ScopeIndex::of(&self.nodes_main, self.src)));
        scopes.declaration_in_scope(n, name, self.src, &*self.nodes_main)
    }

    /// Takes out every edit that would drop text of a region that did not
    /// parse (a rule that rewrites a whole declaration around one): that
    /// text is the user's, and only they know what it meant. Returns them.
    pub fn take_edits_dropping_unparsed(&mut self) -> Vec<crate::edit::Edit> {
        let (unparsed, ends, src) = (&self.error_ranges, &self.error_ends, self.src);
        // the regions an edit overlaps: those starting before its end, back
        // to the first whose prefix-largest end is at or before its start
        // (`error_ranges` is sorted by start; not a scan of every region)
        let overlapping = |e: &Range<usize>| {
            let upto = unparsed.partition_point(|r| r.start < e.end);
            (0..upto).rev().take_while(|&i| ends[i] > e.start).map(|i| &unparsed[i]).filter(|r| r.end > e.start).collect::<Vec<_>>()
        };
        // (a rule that rebuilds the region, writing its text again, keeps it)
        let rewritten = |e: &crate::edit::EditRef, r: &Range<usize>| {
            let text = src[r.clone()].trim();
            e.pieces().any(|p| matches!(p, crate::edit::PieceRef::Text(t) if t.contains(text)))
        };
        // (an edit inside the region changes a token the rule read there: a
        // directive between parameters)
        let inside = |e: &Range<usize>, r: &Range<usize>| r.start <= e.start && e.end <= r.end;
        self.edits.take_where(|e| !e.is_insertion() && overlapping(&e.range()).into_iter().any(|r| !inside(&e.range(), r) && e.drops(r) && !rewritten(&e, r)))
    }

    /// Does `range` hold text of a conditional group that error recovery
    /// parsed in one configuration (a directive line or an inactive branch
    /// of a group inside a declaration or an argument list,
    /// [`crate::mask::MaskKind::InactiveBranch`])? A rule that rebuilds such
    /// a range from its nodes would drop that text: it copies the range as
    /// written instead.
    pub fn hidden_branch_in(&self, range: Range<usize>) -> bool {
        let masks = &self.parsed.masks;
        // (sorted by start: the first that starts in the range)
        let first = masks.partition_point(|m| m.range.start < range.start);
        masks[first..].iter().take_while(|m| m.range.start < range.end).any(|m| m.kind == crate::mask::MaskKind::InactiveBranch && m.range.end <= range.end)
    }

    /// The condition lines (`#if`, `#ifdef`, `#ifndef`, `#elif`) of the
    /// conditional groups that error recovery parsed in one configuration:
    /// no node holds them, so rules that migrate conditions read them as
    /// written.
    pub fn hidden_condition_lines(&self) -> Vec<Range<usize>> {
        self.parsed
            .masks
            .iter()
            .filter(|m| m.kind == crate::mask::MaskKind::InactiveBranch && self.owns(m.range.start) && is_condition_line(&self.src[m.range.clone()]))
            .map(|m| m.range.clone())
            .collect()
    }

    /// Takes back the edits that would drop the text of a conditional group
    /// that error recovery parsed in one configuration (a directive line or
    /// an inactive branch, [`crate::mask::MaskKind::InactiveBranch`]) without
    /// writing it again: a call rebuilt from the arguments the parse read
    /// would lose the other configuration's arguments, or an `#endif` inside
    /// it. (An edit inside such text — a type name in it — is kept.)
    pub fn take_edits_dropping_hidden(&mut self) -> Vec<crate::edit::Edit> {
        use crate::mask::MaskKind;
        let hidden: Vec<Range<usize>> = self.parsed.masks.iter().filter(|m| m.kind == MaskKind::InactiveBranch).map(|m| m.range.clone()).collect();
        if hidden.is_empty() {
            return Vec::new();
        }
        let src = self.src;
        // (masks are sorted by start and do not overlap)
        self.edits.take_where(|e| {
            if e.is_insertion() {
                return false;
            }
            let range = e.range();
            let first = hidden.partition_point(|r| r.end <= range.start);
            let dropped: Vec<&Range<usize>> = hidden[first..]
                .iter()
                .take_while(|r| r.start < range.end)
                .filter(|r| !(r.is_empty() || (r.start <= range.start && range.end <= r.end)) && e.drops(r))
                .collect();
            // dropping whole groups whose other branches are empty (`f(a` /
            // `#if CUDART_VERSION >= 4000` / `| b` / `#endif` / `)` rewritten
            // as a whole) loses no code; a branch's code or half a group does
            let mut depth = 0i64;
            for r in &dropped {
                let t = src[(*r).clone()].trim_start();
                match t.strip_prefix('#').map(|d| d.trim_start()) {
                    Some(d) if d.starts_with("if") => depth += 1,
                    Some(d) if d.starts_with("endif") => depth -= 1,
                    Some(_) => {}
                    None if t.trim().is_empty() => {}
                    None => return true,
                }
                if depth < 0 {
                    return true;
                }
            }
            depth != 0
        })
    }

    /// Is `n` inside a region that did not parse (rules leave those alone)?
    /// A macro body is parsed on its own, as top-level code: an expression
    /// without `;` there is a top-level ERROR around a well-formed node, which
    /// does not count.
    pub fn in_error(&self, n: Node) -> bool {
        // some range with start <= n's start ends at or after n's end
        n.is_error() || {
            let before = self.error_ranges.partition_point(|r| r.start <= n.start_byte());
            before > 0 && self.error_ends[before - 1] >= n.end_byte()
        }
    }

    /// Is `offset` inside device code (a kernel or `__device__` function)?
    pub fn in_device_code(&self, offset: usize) -> bool {
        self.scope_at(offset).is_some_and(|s| s.device)
    }

    /// The nd_item name to use at `offset`, or None where none can be passed
    /// (outside functions, in constructors).
    pub fn item_at(&self, offset: usize) -> Option<String> {
        if self.in_macro(offset) {
            return Some("item".to_string());
        }
        self.scope_at(offset).filter(|s| !s.constructor).map(|s| s.item.clone())
    }
}

impl<'a> FileCtx<'a> {
    /// The start of the source line holding `offset` (a binary search: a
    /// line may hold thousands of the nodes a rule rewrites).
    pub fn line_start(&self, offset: usize) -> usize {
        let starts = self.line_starts();
        starts[starts.partition_point(|&s| s <= offset).saturating_sub(1)]
    }

    /// The offsets where the source's lines start (read once, on first use).
    pub fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| crate::parse::line_starts(self.src))
    }

    pub fn root(&self) -> Node<'a> {
        self.parsed.tree.root_node()
    }

    pub fn text(&self, n: Node) -> &'a str {
        text(n, self.src)
    }

    pub fn count(&mut self, rule: &'static str) {
        *self.counts.entry(rule).or_insert(0) += 1;
    }

    pub fn diag(&mut self, code: Code, range: Range<usize>, rule: &'static str, msg: impl Into<String>) {
        self.diags.push(Diagnostic::new(code, range, rule, msg));
    }

    /// [`Self::diag`] with the changes to the CUDA source that answer it
    /// (quick fixes in the editor).
    pub fn diag_fixed(&mut self, code: Code, range: Range<usize>, rule: &'static str, msg: impl Into<String>, fixes: Vec<crate::diagnostics::Fix>) {
        let mut d = Diagnostic::new(code, range, rule, msg);
        d.fixes = fixes;
        self.diags.push(d);
    }

    /// The innermost function definition around `offset`.
    pub fn scope_at(&self, offset: usize) -> Option<&FnScope> {
        // the last scope starting at or before `offset`, else the scopes
        // around it: a logarithmic search, not a scan of every function
        // (called for most nodes: a scan is quadratic in a large file)
        let mut at = self.functions.partition_point(|f| f.range.start <= offset).checked_sub(1);
        while let Some(i) = at {
            if offset < self.functions[i].range.end {
                return Some(&self.functions[i]);
            }
            at = self.scope_parent[i];
        }
        None
    }

    /// Is `name` a `dim3` variable where `offset` is?
    pub fn is_dim3_var(&self, name: &str, offset: usize) -> bool {
        match self.scope_at(offset) {
            Some(s) if s.dim3_vars.contains(name) => true,
            Some(s) if s.other_vars.contains(name) => false,
            _ => self.file_dim3_vars.contains(name),
        }
    }

    /// Is `name` declared (with a type other than `dim3`) where `offset` is?
    /// Does the function around `offset` declare `name` (a parameter or a
    /// local, of any type)?
    pub fn declared_in_function(&self, name: &str, offset: usize) -> bool {
        self.scope_at(offset).is_some_and(|s| s.other_vars.contains(name) || s.dim3_vars.contains(name))
    }

    pub fn is_other_var(&self, name: &str, offset: usize) -> bool {
        match self.scope_at(offset) {
            Some(s) if s.other_vars.contains(name) => true,
            Some(s) if s.dim3_vars.contains(name) => false,
            _ => self.file_other_vars.contains(name),
        }
    }

    fn collect_scopes(&mut self) {
        let src = self.src;
        let nodes = self.main_nodes();
        // (where the text says `item`: a function whose text does not say it names none)
        let item_words = syntax::Occurrences::of(src, "item");
        for (i, n) in nodes.of_kinds(&["function_definition", "declaration"]) {
            match nodes.kind_at(i) {
                "function_definition" => {
                    let Some(fd) = n.field("declarator").and_then(syntax::function_declarator) else {
                        continue;
                    };
                    let Some((_, name)) = fd.field("declarator").and_then(|d| declarator_name(d, src)) else {
                        continue;
                    };
                    let mut dim3_vars = BTreeSet::new();
                    let mut other_vars = BTreeSet::new();
                    for (_, d) in nodes.of_kinds_in(nodes.subtree_range(i), &["declaration", "parameter_declaration", "optional_parameter_declaration"]) {
                        let is_dim3 = d.field("type").is_some_and(|t| text(t, src) == "dim3");
                        let mut c = d.walk();
                        for decl in d.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                            if syntax::function_declarator(decl).is_some() && !(is_dim3 && d.kind_str() == "declaration") {
                                continue;
                            }
                            if let Some((_, v)) = declarator_name(decl, src) {
                                if is_dim3 || is_auto_dim3(d, decl, src) {
                                    dim3_vars.insert(v.to_string())
                                } else {
                                    other_vars.insert(v.to_string())
                                };
                            }
                        }
                    }
                    // `item` unless the function names `item` itself (comments do not count)
                    let names_item = item_words.any_in(n.byte_range())
                        && nodes
                            .subtree_range(i)
                            .any(|d| nodes.is_leaf(d) && !matches!(nodes.kind_at(d), "comment" | "string_content") && text(nodes[d], src) == "item");
                    let facts = self.project.index.functions.get(name);
                    // (a body cut in parts: whether any part names it)
                    let names_item = names_item || (self.is_split(n) && facts.is_some_and(|f| f.names_item));
                    let item = if names_item { "item_ct1" } else { "item" }.to_string();
                    let device = facts.is_some_and(|f| f.is_kernel || f.is_device);
                    // a constructor (or destructor) that receives no nd_item
                    let constructor = syntax::is_constructor(&*nodes, n, name, src) && self.project.index.needs_of(name).is_none_or(|x| !x.item);
                    self.functions.push(FnScope { range: n.byte_range(), name: name.to_string(), item, dim3_vars, other_vars, device, constructor });
                }
                "declaration" if !syntax::has_ancestor(&*nodes, n, &["function_definition"]) => {
                    let is_dim3 = n.field("type").is_some_and(|t| text(t, src) == "dim3");
                    let mut c = n.walk();
                    for decl in n.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                        if syntax::function_declarator(decl).is_some() {
                            continue;
                        }
                        if let Some((_, v)) = declarator_name(decl, src) {
                            if is_dim3 {
                                self.file_dim3_vars.insert(v.to_string())
                            } else {
                                self.file_other_vars.insert(v.to_string())
                            };
                        }
                    }
                }
                _ => {}
            }
        }
        // each scope's enclosing one (the scopes come in document order,
        // an outer one before those inside it)
        let mut open: Vec<usize> = Vec::new();
        self.scope_parent = Vec::with_capacity(self.functions.len());
        for (i, f) in self.functions.iter().enumerate() {
            while open.last().is_some_and(|&o| self.functions[o].range.end <= f.range.start) {
                open.pop();
            }
            self.scope_parent.push(open.last().copied());
            open.push(i);
        }
    }
}

/// `auto b = dim3(…)`: a `dim3` variable too.
fn is_auto_dim3(decl: Node, declarator: Node, src: &str) -> bool {
    decl.field("type").is_some_and(|t| text(t, src) == "auto")
        && declarator.kind_str() == "init_declarator"
        && declarator.field("value").is_some_and(|v| v.kind_str() == "call_expression" && v.field("function").is_some_and(|f| text(f, src) == "dim3"))
}

/// The outermost ERROR regions of a tree; for a macro body, an ERROR that is a
/// direct child of the root only wraps an expression without `;` and does not
/// count (its children do), and neither does an ERROR root around one name
/// (`#define fast_exp __expf` may read as `(ERROR type: (type_identifier))`).
fn error_ranges(root: Node, macro_body: bool) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    if !root.has_error() {
        return out;
    }
    // a macro body that is one expression (`gridDim.x`, a name) may parse as an
    // ERROR root around that one well-formed node
    let lone_name = |n: Node| n.is_error() && n.named_child_count() == 1 && n.named_child(0).is_some_and(|c| !c.has_error() && !c.is_missing());
    let mut stack = vec![(root, 0usize)];
    while let Some((n, depth)) = stack.pop() {
        if n.is_error() && !(macro_body && (depth == 1 || (depth == 0 && lone_name(n)))) {
            out.push(n.byte_range());
            continue;
        }
        if n.has_error() {
            let mut c = n.walk();
            for ch in n.children(&mut c) {
                stack.push((ch, depth + 1));
            }
        }
    }
    out
}

/// Parses, each on its own, the macro bodies that hold CUDA code (also a
/// name the mapping tables migrate: `#define F4(p) ((float4 *)(p))`).
/// Also a call of a function that takes extra parameters (`needs`: the
/// nd_item, local memory, device globals): `#define LOOKUP(i) lookup(i)`
/// expands in a kernel, where the call passes them.
pub fn parse_macro_bodies(
    src: &str,
    parsed: &Parsed,
    nodes: &Preorder,
    body: &Range<usize>,
    mappings: &Mappings,
    needs: &dyn Fn(&str) -> bool,
) -> Vec<MacroBody> {
    let mut out = Vec::new();
    const WORTH: &[&str] = &["threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3"];
    const PLAIN: &[&str] = &["__VA_ARGS__", "__FILE__", "__LINE__", "__func__", "__FUNCTION__", "__restrict__"];
    let mut line_starts: Option<Vec<usize>> = None;
    for (_, n) in nodes.of_kinds(&["preproc_arg"]) {
        if !body.contains(&n.start_byte()) || in_error(nodes, n) {
            continue;
        }
        let body = text(n, src);
        // CUDA-looking words: builtins, `__intrinsics`, `cuda*` API, `atomic*`
        let worth = body.contains("<<<")
            || syntax::identifiers(body).iter().any(|(_, w)| {
                WORTH.contains(w)
                    || cooperative_groups::CG_ITEM_FUNCTIONS.contains(w)
                    || w.starts_with("cuda")
                    || w.starts_with("atomic")
                    || (w.starts_with("__") && !PLAIN.contains(w))
                    || mappings.types.contains_key(*w)
                    || mappings.namespaces.contains_key(*w)
                    || mappings.enums.contains_key(*w)
                    || mappings.macros.get(*w).is_some_and(|m| m.value.is_some())
                    || mappings.functions.contains_key(*w)
                    || needs(w)
            });
        if worth {
            // from the masked text: token pasting and stringizing read as names
            let lines = line_starts.get_or_insert_with(|| crate::parse::line_starts(&parsed.masked));
            let tree = crate::parse::parse_range(&parsed.masked, n.byte_range(), lines);
            let name = syntax::Parents::parent_of(nodes, n).and_then(|d| d.field("name")).map(|m| text(m, src).to_string()).unwrap_or_default();
            out.push(MacroBody { range: n.byte_range(), tree, name });
        }
    }
    out
}

/// The body of a `#define` parsed on its own ([`parse_macro_bodies`]).
pub struct MacroBody {
    pub range: Range<usize>,
    pub tree: Tree,
    /// The macro's name.
    pub name: String,
}

/// Runs every rule over one file, in a fixed order.
pub fn run_all(ctx: &mut FileCtx) {
    sycl_external::run(ctx);
    execution_space_qualifiers::run(ctx);
    launch_bounds::run(ctx);
    member_alias::run(ctx);
    cuda_arch_macro::run(ctx);
    cuda_header_macros::run(ctx);
    inactive_branches::run(ctx);
    device_function_parameters::run(ctx);
    device_globals::run(ctx);
    thread_builtins::run(ctx);
    syncthreads::run(ctx);
    warp_shuffle::run(ctx);
    warp_vote::run(ctx);
    fences::run(ctx);
    cooperative_groups::run(ctx);
    cub::run(ctx);
    wmma::run(ctx);
    library_namespaces::run(ctx);
    device_printf::run(ctx);
    inline_asm::run(ctx);
    static_shared_memory::run(ctx);
    extern_shared_memory::run(ctx);
    kernel_launch::run(ctx);
    dim3::run(ctx);
    runtime_api::run(ctx);
    includes::run(ctx);
}

/// Is `n` inside a region that did not parse (rules leave those alone)?
pub fn in_error<'t>(parents: &dyn syntax::Parents<'t>, n: Node<'t>) -> bool {
    n.is_error() || syntax::has_ancestor(parents, n, &["ERROR"])
}

/// `#if …`, `#ifdef …`, `#ifndef …`, `#elif …` (a line as written).
fn is_condition_line(line: &str) -> bool {
    let Some(d) = line.trim_start().strip_prefix('#') else { return false };
    let word = d.trim_start().split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
    matches!(word, "if" | "ifdef" | "ifndef" | "elif")
}
