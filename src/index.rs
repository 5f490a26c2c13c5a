//! The project index: facts gathered from every file before any rewrite.
//!
//! - kernels (`__global__`) and device functions, with their template
//!   parameters and how many parameters are required (no default);
//! - which functions use thread builtins, barriers or `warpSize` directly;
//! - the static `__shared__` arrays each function declares and whether it
//!   declares `extern __shared__` arrays;
//! - the call graph (callees by name, in call order);
//! - macros: those that stand for qualifiers, and those whose body uses thread
//!   builtins (a function using such a macro uses builtins).
//!
//! From these, [`ProjectIndex::needs`] gives every function's transitive
//! needs: the `nd_item`, the local-memory arrays of itself and of its callees,
//! and the dynamic local buffer. Functions are keyed by their unqualified name:
//! overloads and templates of one name share one entry (their facts are
//! merged), which is conservative: an overload that needs nothing still gets
//! the extra parameters, and so do its call sites, so the output stays
//! consistent.

use crate::mask::{Mask, MaskKind};
use crate::syntax::NodeKind;
use crate::syntax::{self, callee_name, declarator_name, descendants, text};
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

pub const BUILTIN_VARS: &[&str] = &["threadIdx", "blockIdx", "blockDim", "gridDim"];
pub const BARRIERS: &[&str] = &["__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or"];

/// Facts from a pre-scan of every file's text, needed before parsing.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MacroTable {
    /// `#define HD __host__ __device__` → HD: [__host__, __device__]
    pub qualifier: BTreeMap<String, crate::mask::QualifierMacro>,
    /// Macros whose body uses thread builtins, barriers or warpSize.
    pub builtin_users: BTreeSet<String>,
    /// Object-like macros and their bodies (e.g. `FULL_MASK` → `0xffffffff`).
    pub values: BTreeMap<String, String>,
    /// Every macro name the project defines.
    pub names: BTreeSet<String>,
    /// Macros whose body pastes tokens (`##`): names they form (`PASTE(uchar,
    /// 3)`) are not in the text.
    pub pasting: BTreeSet<String>,
    /// Function-like macros: name → (parameters, body).
    pub functions: BTreeMap<String, (Vec<String>, String)>,
    /// Macros the project `#undef`s somewhere (a header's private `MAX`):
    /// not visible everywhere text that uses them may be carried to.
    pub undefined: BTreeSet<String>,
    /// Macros defined more than once with different bodies (or both
    /// object- and function-like): their value depends on the file.
    pub conflicting: BTreeSet<String>,
}

/// Does `s` parse as one expression?
fn is_expression(s: &str) -> bool {
    !crate::parse::parse_text(&format!("auto syclify_expansion = {s};")).root_node().has_error()
}

impl MacroTable {
    /// `s` with the uses of macros the project `#undef`s expanded (their
    /// arguments substituted textually, as the preprocessor would), for text
    /// carried from where the macro is defined to where it may not be (a
    /// kernel's local-memory size, spelled at the launch).
    pub fn expand_undefined(&self, s: &str) -> String {
        let limit = s.len();
        let mut s = s.to_string();
        for _ in 0..8 {
            let mut changed = false;
            // the names `s` holds, and those expansions bring in: a name
            // not among them has no use to expand (not a search of `s` for
            // every macro the project undefines)
            let mut present: std::collections::HashSet<String> = syntax::identifiers(&s).into_iter().map(|(_, w)| w.to_string()).collect();
            for name in &self.undefined {
                if !present.contains(name) {
                    continue;
                }
                if let Some((params, body)) = self.functions.get(name) {
                    // (bounded: a macro whose body names itself is not expanded again)
                    let mut uses = 0;
                    while let Some((range, args)) = find_macro_call(&s, name) {
                        uses += 1;
                        if uses > 64 || args.len() != params.len() || params.iter().any(|p| p == "...") {
                            break;
                        }
                        let map: BTreeMap<String, String> = params.iter().cloned().zip(args).collect();
                        let expansion = format!("({})", substitute_words(body, &map));
                        // a body that is no expression (`(a) :% (b)`) is not
                        // carried into code: the use stays as written
                        if !is_expression(&expansion) || s.len() + expansion.len() > SUBSTITUTED_BYTES.max(limit) {
                            break;
                        }
                        present.extend(syntax::identifiers(&expansion).into_iter().map(|(_, w)| w.to_string()));
                        s.replace_range(range, &expansion);
                        changed = true;
                    }
                } else if let Some(v) = self.values.get(name) {
                    let map = BTreeMap::from([(name.clone(), format!("({v})"))]);
                    present.extend(syntax::identifiers(v).into_iter().map(|(_, w)| w.to_string()));
                    let next = substitute_words(&s, &map);
                    if next.len() > SUBSTITUTED_BYTES.max(limit) {
                        continue;
                    }
                    changed |= next != s;
                    s = next;
                }
            }
            if !changed {
                break;
            }
        }
        s
    }

    /// Adds another table, as if its files had been scanned after this
    /// table's (a later definition of a name wins, as in [`Self::scan`]).
    pub fn merge(&mut self, other: &MacroTable) {
        self.qualifier.extend(other.qualifier.iter().map(|(k, v)| (k.clone(), v.clone())));
        self.builtin_users.extend(other.builtin_users.iter().cloned());
        for (k, v) in &other.values {
            if self.values.get(k).is_some_and(|old| old != v) || self.functions.contains_key(k) {
                self.conflicting.insert(k.clone());
            }
        }
        for k in other.functions.keys() {
            if self.values.contains_key(k) {
                self.conflicting.insert(k.clone());
            }
        }
        self.conflicting.extend(other.conflicting.iter().cloned());
        self.values.extend(other.values.iter().map(|(k, v)| (k.clone(), v.clone())));
        self.names.extend(other.names.iter().cloned());
        self.pasting.extend(other.pasting.iter().cloned());
        self.functions.extend(other.functions.iter().map(|(k, v)| (k.clone(), v.clone())));
        self.undefined.extend(other.undefined.iter().cloned());
    }

    pub fn scan(&mut self, text: &str) {
        let undef = cached_regex!(r"(?m)^[ \t]*#[ \t]*undef[ \t]+(\w+)");
        self.undefined.extend(undef.captures_iter(text).map(|c| c[1].to_string()));
        self.qualifier.extend(crate::mask::find_qualifier_macros(text));
        for (name, body) in crate::mask::macro_definitions(text) {
            self.names.insert(name.clone());
            if body.contains("##") {
                self.pasting.insert(name.clone());
            }
            if !body.starts_with('(') {
                let value = body.trim().to_string();
                if self.values.get(&name).is_some_and(|old| *old != value) || self.functions.contains_key(&name) {
                    self.conflicting.insert(name.clone());
                }
                self.values.insert(name.clone(), value);
            } else if let Some(close) = body.find(')') {
                let params = body[1..close].split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
                if self.values.contains_key(&name) {
                    self.conflicting.insert(name.clone());
                }
                self.functions.insert(name.clone(), (params, body[close + 1..].trim().to_string()));
            }
            let warp = crate::rules::warp_shuffle::WARP_FUNCTIONS;
            let groups = crate::rules::cooperative_groups::CG_ITEM_FUNCTIONS;
            if BUILTIN_VARS.iter().chain(BARRIERS).chain(warp).chain(groups).chain(["warpSize"].iter()).any(|w| syntax::contains_word(&body, w)) {
                self.builtin_users.insert(name);
            }
        }
    }
}

/// What kind of device global a variable is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GlobalKind {
    Constant,
    Device,
    Managed,
    /// A texture reference (`texture<float, 2> tex;`): `elem_type` holds
    /// its template arguments.
    Texture,
    /// A surface reference (`surface<void, 2> surf;`), likewise.
    Surface,
}

impl GlobalKind {
    /// A texture or surface reference (passed to kernels as a view, by value)?
    pub fn is_reference(self) -> bool {
        matches!(self, GlobalKind::Texture | GlobalKind::Surface)
    }
}

/// A `__constant__`, `__device__` or `__managed__` variable at namespace scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalSymbol {
    pub name: String,
    pub kind: GlobalKind,
    /// Element type as written (cv-qualifiers other than the CUDA ones kept).
    pub elem_type: String,
    /// Array dimensions as written, outermost first; empty for a scalar.
    pub dims: Vec<String>,
    /// The template parameters of a variable template
    /// (`template <class T> __constant__ T mask[5];` → `T`); empty otherwise.
    pub template_params: Vec<String>,
}

impl GlobalSymbol {
    /// A variable template (`mask<T>`)?
    pub fn templated(&self) -> bool {
        !self.template_params.is_empty()
    }

    /// The variable of template `self` with arguments `args` (its type with
    /// the template parameters replaced); `self` when it is no template.
    pub fn instantiated(&self, args: &[String]) -> GlobalSymbol {
        let map: BTreeMap<String, String> = self.template_params.iter().cloned().zip(args.iter().cloned()).collect();
        GlobalSymbol {
            elem_type: substitute_words(&self.elem_type, &map),
            dims: self.dims.iter().map(|d| substitute_words(d, &map)).collect(),
            template_params: Vec::new(),
            ..self.clone()
        }
    }

    /// The declared type, e.g. `float[4][8]`.
    pub fn full_type(&self) -> String {
        format!("{}{}", self.elem_type, self.dims.iter().map(|d| format!("[{d}]")).collect::<String>())
    }
}

/// The memory space of a declaration given by a [`MaskKind::SplitGlobal`]
/// before it (only blank, comment and directive lines between), and the
/// mask's range.
pub fn split_global(decl: Node, src: &str, masks: &[Mask]) -> Option<(GlobalKind, std::ops::Range<usize>)> {
    let start = decl.start_byte();
    // (masks are in order of their start)
    let m =
        masks[..masks.partition_point(|m| m.range.start <= start)].iter().rev().find(|m| m.range.end <= start && matches!(m.kind, MaskKind::SplitGlobal(_)))?;
    let MaskKind::SplitGlobal(word) = &m.kind else { return None };
    let mut in_comment = false;
    for line in src[m.range.end..start].lines().skip(1) {
        let t = line.trim();
        if in_comment {
            in_comment = !t.contains("*/");
            continue;
        }
        if t.starts_with("/*") {
            in_comment = !t.contains("*/");
            continue;
        }
        if !(t.is_empty() || t.starts_with('#') || t.starts_with("//")) {
            return None;
        }
    }
    let kind = if word == "__managed__" { GlobalKind::Managed } else { GlobalKind::Constant };
    Some((kind, m.range.clone()))
}

/// The memory space that qualifier macros just before a declaration
/// (`#define MANAGED __managed__` … `MANAGED __device__ int n;`) give it:
/// `__managed__` or `__constant__`; the parser does not see them.
pub fn macro_global_kind(decl: Node, src: &str, masks: &[Mask], macros: &MacroTable) -> Option<GlobalKind> {
    let mut start = decl.start_byte();
    let mut kind = None;
    // (masks are in order of their start)
    for m in masks[..masks.partition_point(|m| m.range.start <= start)].iter().rev() {
        if m.range.end > start {
            continue;
        }
        let MaskKind::QualifierMacro(name) = &m.kind else { break };
        if !src.get(m.range.end..start).is_some_and(|g| g.trim().is_empty()) {
            break;
        }
        start = m.range.start;
        for w in macros.qualifier.get(name).into_iter().flat_map(|q| &q.words) {
            match w.as_str() {
                "__managed__" => kind = Some(GlobalKind::Managed),
                "__constant__" if kind.is_none() => kind = Some(GlobalKind::Constant),
                _ => {}
            }
        }
    }
    kind
}

/// The CUDA memory-space qualifier of a variable declaration, if any.
pub fn global_kind(decl: Node, src: &str) -> Option<GlobalKind> {
    let mut kind = None;
    for c in syntax::children(decl) {
        let t = if c.kind_str() == "type_qualifier" { text(c, src) } else { c.kind_str() };
        match t {
            "__constant__" => kind = Some(GlobalKind::Constant),
            "__managed__" => kind = Some(GlobalKind::Managed),
            "__device__" if kind.is_none() => kind = Some(GlobalKind::Device),
            // `__device__ __shared__`: work-group local memory, not a global
            "__shared__" => return None,
            _ => {}
        }
    }
    kind
}

/// The facts of one file.
#[derive(Debug, Default, Clone)]
pub struct FileFacts {
    pub functions: Vec<FunctionFacts>,
    pub globals: Vec<GlobalSymbol>,
    /// `__shared__` variables declared at namespace scope (owner empty).
    pub shared_globals: Vec<SharedArray>,
    /// `extern __shared__` arrays declared at namespace scope (dims empty).
    pub extern_shared_globals: Vec<SharedArray>,
    /// Classes whose member functions declare `extern __shared__` arrays
    /// (see [`ProjectIndex::dynamic_local_classes`]).
    pub dynamic_local_classes: Vec<String>,
}

impl FileFacts {
    /// Adds the facts of another part of the same file ([`crate::segment`]).
    pub fn merge(&mut self, other: FileFacts) {
        self.functions.extend(other.functions);
        self.globals.extend(other.globals);
        self.shared_globals.extend(other.shared_globals);
        self.extern_shared_globals.extend(other.extern_shared_globals);
        for c in other.dynamic_local_classes {
            if !self.dynamic_local_classes.contains(&c) {
                self.dynamic_local_classes.push(c);
            }
        }
    }
}

/// A static `__shared__` variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedArray {
    pub owner: String,
    pub name: String,
    /// Element type as written, with cv-qualifiers other than `__shared__`.
    pub elem_type: String,
    /// Dimension expressions as written, outermost first; empty for a scalar.
    pub dims: Vec<String>,
}

impl SharedArray {
    /// The array with the words of `map` replaced in its type and sizes.
    pub fn substituted(&self, map: &BTreeMap<String, String>) -> SharedArray {
        SharedArray { elem_type: substitute_words(&self.elem_type, map), dims: self.dims.iter().map(|d| substitute_words(d, map)).collect(), ..self.clone() }
    }

    /// The first of `names` its type or sizes mention.
    pub fn mentions(&self, names: &[String]) -> Option<String> {
        std::iter::once(&self.elem_type).chain(&self.dims).find_map(|s| mentions_any(s, names))
    }
}

#[derive(Debug, Clone, Default)]
pub struct FunctionFacts {
    pub name: String,
    pub is_kernel: bool,
    pub is_device: bool,
    pub is_host: bool,
    /// `__launch_bounds__(maxThreads[, minBlocks])`: its arguments as written,
    /// and the file that wrote them.
    pub launch_bounds: Option<(Vec<String>, String)>,
    pub template_params: Vec<String>,
    /// Parameters without a default argument: extra parameters go here.
    pub required_params: usize,
    pub has_definition: bool,
    /// `static` or `inline` somewhere: internal to its translation unit(s).
    pub is_internal: bool,
    pub uses_item: bool,
    pub uses_warp: bool,
    /// Calls `this_grid()`: needs the launch's grid barrier.
    pub uses_grid: bool,
    /// A constructor or destructor. A device constructor that uses thread
    /// builtins receives the nd_item like any device function, and its
    /// constructions in device code (`const Local l(p);`, `Local(p)`) pass
    /// it; local memory or device globals it needs are not passed (a call
    /// in it that needs them is SY0303/SY0304), and a destructor receives
    /// nothing.
    pub is_constructor: bool,
    /// A member function (declared in a class body, or defined as `X::f`).
    pub is_method: bool,
    pub static_shared: Vec<SharedArray>,
    /// The unnamed class types of its `__shared__` variables (`__shared__
    /// union { … } temp_storage;`, CUB's idiom), named for the launch that
    /// allocates them: (name, definition at namespace scope, a template
    /// over the function's template parameters where it has them).
    pub shared_types: Vec<(String, String)>,
    pub uses_extern_shared: bool,
    pub callees: Vec<String>,
    /// Member functions called through an object (`obj.f()`, `p->f()`), by
    /// name; they count as callees where the project has a method of that name.
    pub method_callees: Vec<String>,
    /// Every identifier the body uses (to find the device globals it reads).
    pub identifiers: BTreeSet<String>,
    /// Does the definition name `item` itself (a token, not in a comment
    /// or a string)? Its `nd_item` is then `item_ct1`, in every part of a
    /// body cut in parts ([`crate::rules::FileCtx::is_split`]).
    pub names_item: bool,
    /// Its local `dim3` variables that a use may change (assigned, passed,
    /// addressed: not only launched with or read as `v.x`): the others'
    /// values are their initializers' ([`syntax::is_read_only_use`]).
    pub dim3_changed: BTreeSet<String>,
    /// The template arguments of each name the body uses as a variable
    /// template (`mask<T>[j]` → `mask`: `T`), as first written.
    pub template_uses: BTreeMap<String, Vec<String>>,
    /// File (relative path) of the definition, for diagnostics.
    pub file: String,
    /// A definition with C linkage (`extern "C" __global__ void k(…)`, also
    /// inside an `extern "C" {` block): a module's kernel the driver API
    /// loads by name (see [`ProjectIndex::module_files`]).
    pub c_linkage: bool,
    /// Files that declare it without a body (a prototype, usually in a header).
    pub prototype_files: BTreeSet<String>,
    /// The shape of each parameter's type, for template argument deduction.
    pub params: Vec<TypeShape>,
    /// (required, total) parameter counts of each declaration and overload
    /// (total `usize::MAX` when variadic).
    pub arities: Vec<(usize, usize)>,
    /// The base type of the first parameter of each declaration and overload.
    pub first_params: Vec<String>,
    /// Calls in the body to other functions, with what they tell about the
    /// callee's template arguments.
    pub calls: Vec<CallEdge>,
    /// Objects the body constructs, by class and number of arguments
    /// (`Local l(p);` → `Local`, 1; `Alias(a, b)` of a local `typedef
    /// Class<..> Alias;` → `Class`, 2); direct `Class(a)` calls are in `calls`.
    pub constructions: Vec<(String, usize)>,
}

/// A type reduced to what template argument deduction looks at: the base
/// type as written (without cv-qualifiers) and the number of pointer (or
/// array) levels around it; references are transparent. `const T *p` →
/// `T`, 1; `float a[4][4]` → `float`, 2.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypeShape {
    pub base: String,
    pub ptr: usize,
}

/// One call from a function's body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CallEdge {
    pub callee: String,
    /// Explicit template arguments as written (`f<T, 4>(x)` → `T`, `4`).
    pub targs: Vec<String>,
    /// The shape of each argument's type where the caller declares it (a
    /// parameter or local variable, `&x`, `x[i]`, a cast), else `None`.
    pub args: Vec<Option<TypeShape>>,
}

impl FunctionFacts {
    /// Declared somewhere without a body?
    pub fn has_prototype(&self) -> bool {
        !self.prototype_files.is_empty()
    }

    /// Merges the facts of other declarations of the same name, in order:
    /// the lists gathered and made unique once (a name declared in
    /// thousands of places, `main` in many programs' copies, would build
    /// its sets once per merge: quadratic), the rest one after another.
    fn merge_all(&mut self, others: Vec<FunctionFacts>) {
        let (mut method_callees, mut static_shared, mut shared_types, mut callees, mut arities, mut first_params) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for o in others {
            self.is_kernel |= o.is_kernel;
            self.is_device |= o.is_device;
            self.is_host |= o.is_host;
            if self.launch_bounds.is_none() {
                self.launch_bounds = o.launch_bounds.clone();
            }
            self.is_constructor |= o.is_constructor;
            self.is_method |= o.is_method;
            method_callees.extend(o.method_callees);
            if self.template_params.is_empty() {
                self.template_params = o.template_params;
            }
            self.required_params = self.required_params.min(o.required_params);
            if o.has_definition && !self.has_definition {
                self.file = o.file;
            }
            self.has_definition |= o.has_definition;
            self.is_internal |= o.is_internal;
            self.uses_item |= o.uses_item;
            self.uses_warp |= o.uses_warp;
            self.uses_grid |= o.uses_grid;
            static_shared.extend(o.static_shared);
            self.uses_extern_shared |= o.uses_extern_shared;
            shared_types.extend(o.shared_types);
            callees.extend(o.callees);
            self.identifiers.extend(o.identifiers);
            self.names_item |= o.names_item;
            self.dim3_changed.extend(o.dim3_changed);
            for (k, v) in o.template_uses {
                self.template_uses.entry(k).or_insert(v);
            }
            self.prototype_files.extend(o.prototype_files);
            if self.params.is_empty() || (o.has_definition && !o.params.is_empty()) {
                self.params = o.params;
            }
            self.calls.extend(o.calls);
            self.constructions.extend(o.constructions);
            arities.extend(o.arities);
            first_params.extend(o.first_params);
        }
        extend_unique(&mut self.method_callees, method_callees);
        let mut names: std::collections::HashSet<String> = self.static_shared.iter().map(|x| x.name.clone()).collect();
        for s in static_shared {
            if names.insert(s.name.clone()) {
                self.static_shared.push(s);
            }
        }
        extend_unique(&mut self.shared_types, shared_types);
        extend_unique(&mut self.callees, callees);
        extend_unique(&mut self.arities, arities);
        extend_unique(&mut self.first_params, first_params);
    }

    /// Does some declaration of it accept `n` arguments?
    pub fn accepts(&self, n: usize) -> bool {
        self.arities.iter().any(|&(req, total)| req <= n && n <= total)
    }
}

/// Appends the items of `new` that `v` does not hold yet, in order.
/// (in time linear in both: a kernel calling thousands of functions, each
/// with its local arrays)
fn extend_unique<T: Eq + std::hash::Hash + Clone>(v: &mut Vec<T>, new: impl IntoIterator<Item = T>) {
    let new: Vec<T> = new.into_iter().collect();
    // (a few: compared in place, without a set to build)
    if v.len().saturating_mul(new.len()) <= 256 {
        for x in new {
            if !v.contains(&x) {
                v.push(x);
            }
        }
        return;
    }
    let mut seen: std::collections::HashSet<T> = v.iter().cloned().collect();
    for x in new {
        if seen.insert(x.clone()) {
            v.push(x);
        }
    }
}

/// A local-memory array a function needs, identified by the function that declares it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocalRef {
    pub owner: String,
    pub name: String,
}

impl LocalRef {
    /// The parameter name of this array inside `function` (a namespace-scope
    /// array keeps its name everywhere).
    pub fn param_name(&self, function: &str) -> String {
        if self.owner == function || self.owner.is_empty() { self.name.clone() } else { format!("{}_{}", self.owner, self.name) }
    }
}

/// What a function needs passed in, directly or through its callees.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Needs {
    pub item: bool,
    pub warp: bool,
    /// The grid barrier (`this_grid()` somewhere below): passed as
    /// `syclify::cg::grid_sync syclify_grid`.
    pub grid: bool,
    pub locals: Vec<LocalRef>,
    pub dynamic_local: bool,
    /// Device global variables (`__constant__`/`__device__`/`__managed__`) used, by name.
    pub globals: Vec<String>,
}

impl Needs {
    pub fn any(&self) -> bool {
        self.item || self.grid || self.memory()
    }
    /// Local memory, device globals or the grid barrier: what a launch
    /// allocates and passes beyond the nd_item.
    pub fn memory(&self) -> bool {
        !self.locals.is_empty() || self.dynamic_local || !self.globals.is_empty() || self.grid
    }
    /// What the extra parameters carry, in words (`the nd_item and local memory`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.item {
            parts.push("the nd_item");
        }
        if !self.locals.is_empty() || self.dynamic_local {
            parts.push("work-group local memory");
        }
        if !self.globals.is_empty() {
            parts.push("device globals");
        }
        if self.grid {
            parts.push("the grid barrier");
        }
        parts.join(" and ")
    }
}

#[derive(Debug, Default)]
pub struct ProjectIndex {
    pub functions: BTreeMap<String, FunctionFacts>,
    /// Device global variables by name.
    pub globals: BTreeMap<String, GlobalSymbol>,
    /// `__shared__` variables declared at namespace scope, by name: work-group
    /// local memory that every kernel using them allocates and passes down
    /// under the variable's own name ([`LocalRef`] with an empty owner).
    pub shared_globals: BTreeMap<String, SharedArray>,
    /// `extern __shared__` arrays declared at namespace scope, by name: a
    /// function that uses one takes the dynamic local buffer and declares
    /// it from that (element type migrated).
    pub extern_shared_globals: BTreeMap<String, SharedArray>,
    /// Classes whose member functions declare `extern __shared__` arrays
    /// (the `SharedMemory<T>` idiom: a conversion operator returning the
    /// dynamic shared memory as `T *`), by name: each holds the dynamic
    /// local buffer, given by its construction, and a function that
    /// constructs one takes the buffer (`rules/extern_shared_memory.rs`).
    pub dynamic_local_classes: BTreeSet<String>,
    /// Each macro's body as the identifiers it names, its parameters left
    /// out but for those named like macros (read once: [`ProjectIndex::macro_identifiers`] walks them for
    /// every function).
    macro_words: std::collections::HashMap<String, Vec<String>>,
    /// The macros that device code expands: named in a kernel or `__device__`
    /// function, or in the body of such a macro (`#define hdt (dt / hbar)`,
    /// `#define hbar (1.0f / acosf(-1.f))`). Their bodies are device code
    /// too: device-only mappings apply there (`rules/runtime_api.rs`).
    pub device_macros: BTreeSet<String>,
    pub needs: BTreeMap<String, Needs>,
    pub macros: std::sync::Arc<MacroTable>,
    /// Where each function's `__shared__` arrays are in its
    /// `static_shared`, by (function, array): a kernel with thousands of
    /// them looks each up in constant time.
    shared_at: std::collections::HashMap<(String, String), usize>,
    /// The files (relative paths) that define a kernel with C linkage: a
    /// module's files, where the driver API's accessors of texture and
    /// surface references go (`rules/device_globals.rs`). From the index,
    /// so that a file migrated in parts decides as the whole file does.
    pub module_files: BTreeSet<String>,
}

impl ProjectIndex {
    /// Merges the facts of a group of files. Element types of local memory
    /// and device globals are migrated with `mappings` (`float4` →
    /// `syclify::float4`), since syclify writes them again elsewhere.
    pub fn build(files: Vec<FileFacts>, macros: std::sync::Arc<MacroTable>, mappings: &crate::mapping::Mappings) -> Self {
        let mut functions: BTreeMap<String, FunctionFacts> = BTreeMap::new();
        let mut globals = BTreeMap::new();
        let mut shared_globals = BTreeMap::new();
        let mut extern_shared_globals = BTreeMap::new();
        let mut dynamic_local_classes = BTreeSet::new();
        let mut module_files = BTreeSet::new();
        let mut all = Vec::new();
        for ff in files {
            dynamic_local_classes.extend(ff.dynamic_local_classes);
            for mut a in ff.shared_globals {
                a.elem_type = mappings.migrate_type_text(&a.elem_type);
                shared_globals.entry(a.name.clone()).or_insert(a);
            }
            for mut a in ff.extern_shared_globals {
                a.elem_type = mappings.migrate_type_text(&a.elem_type);
                extern_shared_globals.entry(a.name.clone()).or_insert(a);
            }
            for mut g in ff.globals {
                g.elem_type = if g.kind.is_reference() { mappings.migrate_names_text(&g.elem_type) } else { mappings.migrate_type_text(&g.elem_type) };
                globals.entry(g.name.clone()).or_insert(g);
            }
            for mut f in ff.functions {
                if f.is_kernel && f.c_linkage {
                    module_files.insert(f.file.clone());
                }
                for a in &mut f.static_shared {
                    a.elem_type = mappings.migrate_type_text(&a.elem_type);
                }
                all.push(f);
            }
        }
        // each name's declarations in order: the first, then the others merged into it
        let mut others: BTreeMap<String, Vec<FunctionFacts>> = BTreeMap::new();
        for f in all {
            match functions.contains_key(&f.name) {
                true => others.entry(f.name.clone()).or_default().push(f),
                false => {
                    functions.insert(f.name.clone(), f);
                }
            }
        }
        for (name, rest) in others {
            functions.get_mut(&name).expect("the first declaration").merge_all(rest);
        }
        let shared_at = functions.values().flat_map(|f| f.static_shared.iter().enumerate().map(|(i, a)| ((f.name.clone(), a.name.clone()), i))).rev().collect();
        let macro_words = macros
            .functions
            .iter()
            .map(|(m, (params, body))| (m, params.as_slice(), body))
            .chain(macros.values.iter().map(|(m, body)| (m, &[][..], body)))
            .map(|(m, params, body)| {
                let words = syntax::identifiers(body)
                    .into_iter()
                    .map(|(_, w)| w)
                    .filter(|w| macros.names.contains(*w) || !params.iter().any(|p| p == w))
                    .map(str::to_string)
                    .collect();
                (m.clone(), words)
            })
            .collect();
        let mut idx = ProjectIndex {
            functions,
            globals,
            shared_globals,
            extern_shared_globals,
            dynamic_local_classes,
            macro_words,
            device_macros: BTreeSet::new(),
            needs: BTreeMap::new(),
            macros,
            shared_at,
            module_files,
        };
        idx.device_macros = idx
            .macros_reached(idx.functions.values().filter(|f| f.is_kernel || f.is_device).flat_map(|f| f.identifiers.iter()))
            .into_iter()
            .map(str::to_string)
            .collect();
        let names: Vec<String> = idx.functions.keys().cloned().collect();
        for n in names {
            let mut visiting = BTreeSet::new();
            idx.compute_needs(&n, &mut visiting);
        }
        idx
    }

    fn compute_needs(&mut self, name: &str, visiting: &mut BTreeSet<String>) -> Needs {
        if let Some(n) = self.needs.get(name) {
            return n.clone();
        }
        let Some(f) = self.functions.get(name).cloned() else {
            return Needs::default();
        };
        if !visiting.insert(name.to_string()) {
            // recursion: the cycle's own facts are merged when the first member completes
            return Needs { item: f.uses_item, warp: f.uses_warp, grid: f.uses_grid, locals: vec![], dynamic_local: f.uses_extern_shared, globals: vec![] };
        }
        if !(f.is_kernel || f.is_device) || name.starts_with('~') {
            // host code, or a destructor: nothing is threaded through it
            visiting.remove(name);
            self.needs.insert(name.to_string(), Needs::default());
            return Needs::default();
        }
        // what the bodies of the macros it uses read and call (`#define
        // LOOKUP(i) lookup(i)`): the macros expand here
        let through_macros = self.macro_identifiers(&f.identifiers);
        let identifiers = || f.identifiers.iter().chain(through_macros.iter());
        let mut needs = Needs {
            item: f.uses_item || f.is_kernel,
            warp: f.uses_warp,
            grid: f.uses_grid,
            locals: f
                .static_shared
                .iter()
                .map(|s| LocalRef { owner: f.name.clone(), name: s.name.clone() })
                .chain(identifiers().filter(|i| self.shared_globals.contains_key(*i)).map(|i| LocalRef { owner: String::new(), name: i.clone() }))
                .collect(),
            dynamic_local: f.uses_extern_shared
                || identifiers().any(|i| self.extern_shared_globals.contains_key(i))
                || f.callees.iter().chain(through_macros.iter()).any(|c| self.dynamic_local_classes.contains(c)),
            globals: identifiers().filter(|i| self.globals.contains_key(*i)).cloned().collect(),
        };
        let methods: Vec<&String> = f.method_callees.iter().filter(|m| self.functions.get(*m).is_some_and(|g| g.is_method)).collect();
        let macro_callees: Vec<&String> = through_macros.iter().filter(|c| self.functions.contains_key(*c)).collect();
        for c in f.callees.iter().chain(methods).chain(macro_callees) {
            if c == name || !self.functions.contains_key(c) {
                continue;
            }
            let cn = self.compute_needs(c, visiting);
            // a kernel calling a kernel is not a device call (dynamic parallelism is not migrated)
            if self.functions[c].is_kernel {
                continue;
            }
            needs.item |= cn.item;
            needs.warp |= cn.warp;
            needs.grid |= cn.grid;
            needs.dynamic_local |= cn.dynamic_local;
            extend_unique(&mut needs.locals, cn.locals);
            extend_unique(&mut needs.globals, cn.globals);
        }
        visiting.remove(name);
        // a constructor receives the nd_item only: its overloads share one
        // entry, and local memory or device globals for one of them would
        // have to be allocated by every construction (SY0303 instead)
        if f.is_constructor && needs.memory() {
            needs = Needs { item: needs.item, warp: needs.warp, ..Needs::default() };
        }
        self.needs.insert(name.to_string(), needs.clone());
        needs
    }

    /// The identifiers of the bodies of the macros among `identifiers`, and
    /// of the macros those use (each macro read once): what a function
    /// using them calls and reads once they expand (`#define LOOKUP(i)
    /// lookup(i)`, `#define T(i) table[i]`).
    fn macro_identifiers(&self, identifiers: &BTreeSet<String>) -> BTreeSet<String> {
        let names = &self.macros.names;
        self.macros_reached(identifiers.iter())
            .into_iter()
            .flat_map(|m| self.macro_words.get(m).into_iter().flatten())
            .filter(|w| !names.contains(*w) && !identifiers.contains(*w))
            .cloned()
            .collect()
    }

    /// The macros among `identifiers` and those their bodies use, each
    /// macro read once.
    fn macros_reached<'s>(&self, identifiers: impl Iterator<Item = &'s String>) -> BTreeSet<&str> {
        let names = &self.macros.names;
        let mut out: BTreeSet<&str> = BTreeSet::new();
        let mut stack: Vec<&str> = identifiers.filter_map(|i| names.get(i)).map(String::as_str).collect();
        while let Some(m) = stack.pop() {
            if out.insert(m) {
                stack.extend(self.macro_words.get(m).into_iter().flatten().filter_map(|w| names.get(w)).map(String::as_str));
            }
        }
        out
    }

    /// Does code of the project construct `class` with a number of
    /// arguments in `arity` (declarations, `Class(args)` and alias calls)?
    pub fn constructs(&self, class: &str, arity: std::ops::RangeInclusive<usize>) -> bool {
        self.functions.values().any(|f| {
            f.constructions.iter().any(|(c, k)| c == class && arity.contains(k)) || f.calls.iter().any(|e| e.callee == class && arity.contains(&e.args.len()))
        })
    }

    pub fn needs_of(&self, name: &str) -> Option<&Needs> {
        self.needs.get(name).filter(|n| n.any())
    }

    pub fn shared_array(&self, r: &LocalRef) -> Option<&SharedArray> {
        if r.owner.is_empty() {
            return self.shared_globals.get(&r.name);
        }
        let i = *self.shared_at.get(&(r.owner.clone(), r.name.clone()))?;
        self.functions.get(&r.owner)?.static_shared.get(i)
    }

    /// Local array `r` as function `f` sees it: its element type and sizes
    /// with the owner's template parameters replaced, call by call along the
    /// call graph from `f` down to the owner, by the template arguments each
    /// call gives or that C++ deduces from its arguments. The result names
    /// only `f`'s own template parameters. `Err(p)`: template parameter `p`
    /// of a function on the way cannot be told from the calls.
    pub fn local_array_in(&self, f: &str, r: &LocalRef) -> Result<SharedArray, String> {
        let Some(a) = self.shared_array(r) else {
            return Err(r.name.clone());
        };
        if r.owner == f {
            return Ok(a.clone());
        }
        let mut path = Vec::new();
        let mut seen = BTreeSet::new();
        if !self.path_to(f, r, &mut seen, &mut path) {
            let tps = self.functions.get(&r.owner).map(|o| o.template_params.clone()).unwrap_or_default();
            return match a.mentions(&tps) {
                Some(p) => Err(p),
                None => Ok(a.clone()),
            };
        }
        let mut out = a.clone();
        // from the owner up: each call binds its callee's template parameters
        for edge in path.iter().rev() {
            let callee = &self.functions[&edge.callee];
            let map = bind_template_params(callee, &edge.targs, |j| edge.args.get(j).cloned().flatten());
            out = out.substituted(&map);
            let unbound: Vec<String> = callee.template_params.iter().filter(|p| !map.contains_key(*p)).cloned().collect();
            if let Some(p) = out.mentions(&unbound) {
                return Err(p);
            }
        }
        Ok(out)
    }

    /// A chain of calls from `f` to the owner of `r`, through functions that need it.
    fn path_to(&self, f: &str, r: &LocalRef, seen: &mut BTreeSet<String>, path: &mut Vec<CallEdge>) -> bool {
        self.path_where(f, &|n: &Needs| n.locals.contains(r), &|callee: &str| callee == r.owner, seen, path)
    }

    /// A chain of calls from `f` through functions whose needs satisfy
    /// `needed` to one that satisfies `target`.
    fn path_where(
        &self,
        f: &str,
        needed: &dyn Fn(&Needs) -> bool,
        target: &dyn Fn(&str) -> bool,
        seen: &mut BTreeSet<String>,
        path: &mut Vec<CallEdge>,
    ) -> bool {
        if !seen.insert(f.to_string()) {
            return false;
        }
        let Some(facts) = self.functions.get(f) else { return false };
        for e in &facts.calls {
            if !self.needs.get(&e.callee).is_some_and(needed) || self.is_kernel(&e.callee) {
                continue;
            }
            path.push(e.clone());
            if target(&e.callee) || self.path_where(&e.callee, needed, target, seen, path) {
                return true;
            }
            path.pop();
        }
        false
    }

    /// The template arguments of variable template `g` as function `f`
    /// sees them: those of its own use (`mask<T>`), or of a use in a
    /// callee, replaced call by call up to `f` as for local arrays (see
    /// [`Self::local_array_in`]). Empty for a global that is no template.
    /// `Err(p)`: template parameter `p` of a function on the way cannot be
    /// told from the calls.
    pub fn global_args_in(&self, f: &str, g: &str) -> Result<Vec<String>, String> {
        let Some(sym) = self.globals.get(g).filter(|s| s.templated()) else {
            return Ok(Vec::new());
        };
        let uses = |name: &str| self.functions.get(name).and_then(|x| x.template_uses.get(g));
        if let Some(args) = uses(f) {
            return Ok(args.clone());
        }
        let mut path = Vec::new();
        let mut seen = BTreeSet::new();
        if !self.path_where(f, &|n: &Needs| n.globals.iter().any(|x| x == g), &|callee: &str| uses(callee).is_some(), &mut seen, &mut path) {
            return Err(sym.template_params[0].clone());
        }
        let mut out = uses(&path.last().expect("a path has a call").callee).cloned().unwrap_or_default();
        for edge in path.iter().rev() {
            let callee = &self.functions[&edge.callee];
            let map = bind_template_params(callee, &edge.targs, |j| edge.args.get(j).cloned().flatten());
            out = out.iter().map(|a| substitute_words(a, &map)).collect();
            let unbound: Vec<String> = callee.template_params.iter().filter(|p| !map.contains_key(*p)).cloned().collect();
            if let Some(p) = out.iter().find_map(|a| mentions_any(a, &unbound)) {
                return Err(p);
            }
        }
        Ok(out)
    }

    /// Device global `g` typed as function `f` sees it (a variable
    /// template instantiated with [`Self::global_args_in`]).
    pub fn global_in(&self, f: &str, g: &str) -> Option<GlobalSymbol> {
        let sym = self.globals.get(g)?;
        if !sym.templated() {
            return Some(sym.clone());
        }
        self.global_args_in(f, g).ok().map(|a| sym.instantiated(&a))
    }

    /// Does this function need `SYCL_EXTERNAL`: device code declared apart from
    /// its definition, so that it may be called from another translation unit?
    pub fn needs_sycl_external(&self, name: &str) -> bool {
        self.functions
            .get(name)
            .is_some_and(|f| (f.is_kernel || f.is_device) && f.has_prototype() && f.has_definition && !f.is_internal && f.template_params.is_empty())
    }

    /// Is the function defined in one file and declared in another (a
    /// header, or another unit's prototype)?
    pub fn declared_elsewhere(&self, name: &str) -> bool {
        self.functions.get(name).is_some_and(|f| f.has_definition && f.prototype_files.iter().any(|p| *p != f.file))
    }

    pub fn is_kernel(&self, name: &str) -> bool {
        self.functions.get(name).is_some_and(|f| f.is_kernel)
    }
}

/// CUDA qualifiers written on a function (as tokens or through a qualifier macro).
#[derive(Debug, Default, Clone, Copy)]
pub struct Qualifiers {
    pub global: bool,
    pub device: bool,
    pub host: bool,
}

pub fn qualifiers_of(decl: Node, src: &str, masks: &[Mask], macros: &MacroTable) -> Qualifiers {
    let mut q = Qualifiers::default();
    let end = decl.field("declarator").map(|d| d.start_byte()).unwrap_or(decl.end_byte());
    for c in syntax::children(decl) {
        if c.start_byte() >= end {
            break;
        }
        match c.kind_str() {
            "__global__" => q.global = true,
            "__device__" => q.device = true,
            "__host__" => q.host = true,
            _ => {}
        }
    }
    // a qualifier macro is blanked before parsing, so the declaration's node
    // may start after it (`GLOBAL void k()`): take in the masks just before it
    // (masks are in order of their start: the ones before the declaration,
    // backwards, while only blanks stand between)
    let mut start = decl.start_byte();
    let before = masks.partition_point(|m| m.range.start < start);
    for m in masks[..before].iter().rev() {
        if m.range.end > start {
            continue;
        }
        if !src.get(m.range.end..start).is_some_and(|g| g.trim().is_empty()) {
            break;
        }
        if matches!(m.kind, MaskKind::QualifierMacro(_)) {
            start = m.range.start;
        }
    }
    let from = masks.partition_point(|m| m.range.start < start);
    for m in masks[from..].iter().take_while(|m| m.range.start <= end) {
        // a qualifier after the return type (`T & __device__ f(..)`)
        if let MaskKind::MisplacedQualifier(w) = &m.kind
            && m.range.start >= decl.start_byte()
            && m.range.end <= end
        {
            match w.as_str() {
                "__device__" => q.device = true,
                "__host__" => q.host = true,
                _ => {}
            }
        }
        if m.range.start >= start
            && m.range.end <= end
            && let MaskKind::QualifierMacro(name) = &m.kind
        {
            for w in macros.qualifier.get(name).into_iter().flat_map(|q| &q.words) {
                match w.as_str() {
                    "__global__" => q.global = true,
                    "__device__" => q.device = true,
                    "__host__" => q.host = true,
                    _ => {}
                }
            }
        }
    }
    q
}

/// Template parameter names of the template_declaration directly around `n`.
pub fn template_params<'t>(parents: &dyn syntax::Parents<'t>, n: Node<'t>, src: &str) -> Vec<String> {
    let Some(p) = parents.parent_of(n).filter(|p| p.kind_str() == "template_declaration") else {
        return vec![];
    };
    let Some(list) = p.field("parameters") else {
        return vec![];
    };
    let mut out = Vec::new();
    for param in syntax::named_children(list) {
        let name = match param.kind_str() {
            "type_parameter_declaration" | "variadic_type_parameter_declaration" => {
                syntax::named_children(param).into_iter().rev().find(|c| c.kind_str() == "type_identifier").map(|c| text(c, src).to_string())
            }
            "optional_type_parameter_declaration" => param.field("name").map(|c| text(c, src).to_string()),
            // `template <class> class Op`: the name is in the inner type parameter
            "template_template_parameter_declaration" => syntax::named_children(param)
                .into_iter()
                .filter(|c| c.kind_str() != "template_parameter_list")
                .find_map(|c| syntax::named_children(c).into_iter().rev().find(|x| x.kind_str() == "type_identifier"))
                .map(|c| text(c, src).to_string()),
            "parameter_declaration" | "optional_parameter_declaration" | "variadic_parameter_declaration" => {
                param.field("declarator").and_then(|d| declarator_name(d, src)).map(|(_, s)| s.to_string())
            }
            _ => None,
        };
        out.extend(name);
    }
    out
}

/// Number of parameters without a default argument (extra parameters are
/// inserted there, so that defaulted parameters keep working).
pub fn required_params(fdecl: Node, src: &str) -> usize {
    let Some(list) = fdecl.field("parameters") else {
        return 0;
    };
    let params = syntax::items(list);
    if is_void_list(&params, src) {
        return 0;
    }
    params.iter().take_while(|p| p.kind_str() == "parameter_declaration").count()
}

/// Is a parameter list's items `(void)`: no parameters?
fn is_void_list(params: &[Node], src: &str) -> bool {
    params.len() == 1 && params[0].field("declarator").is_none() && params[0].field("type").is_some_and(|t| text(t, src) == "void")
}

/// Is this declaration a `__shared__` one? Returns whether it is `extern`.
pub fn shared_declaration(decl: Node, src: &str) -> Option<bool> {
    let mut shared = false;
    let mut ext = false;
    for c in syntax::children(decl) {
        match c.kind_str() {
            "type_qualifier" if text(c, src) == "__shared__" => shared = true,
            "storage_class_specifier" if text(c, src) == "extern" => ext = true,
            _ => {}
        }
    }
    shared.then_some(ext)
}

/// CUDA memory-space qualifiers, which are not part of a migrated type.
const MEMORY_SPACES: &[&str] = &["__shared__", "__constant__", "__managed__", "__device__"];

/// The type of a declaration as written, with its cv-qualifiers but without
/// CUDA memory-space qualifiers (`__shared__ volatile float` → `volatile float`).
pub fn element_type(decl: Node, src: &str) -> Option<String> {
    let quals: Vec<&str> = syntax::children(decl)
        .into_iter()
        // (`alignas(16)`: a parameter cannot take it; local arrays are 16-byte aligned)
        .filter(|c| c.kind_str() == "type_qualifier" && !MEMORY_SPACES.contains(&text(*c, src)) && !text(*c, src).starts_with("alignas"))
        .map(|c| text(c, src))
        .collect();
    let mut elem = quals.join(" ");
    if !elem.is_empty() {
        elem.push(' ');
    }
    elem.push_str(text(decl.field("type")?, src));
    Some(elem)
}

/// Name, element type and array dimensions (outermost first) of one
/// declarator of a variable declaration (`tile[32][33]`, `*p`, `n`).
pub fn array_declarator(decl: Node, d: Node, src: &str) -> Option<(String, String, Vec<String>)> {
    let mut elem = element_type(decl, src)?;
    let mut d = d;
    if d.kind_str() == "init_declarator" {
        d = d.field("declarator")?;
    }
    let mut dims = Vec::new();
    let mut pointer = String::new();
    loop {
        match d.kind_str() {
            "array_declarator" => {
                dims.push(d.field("size").map(|s| text(s, src).to_string()).unwrap_or_default());
                d = d.field("declarator")?;
            }
            "pointer_declarator" => {
                pointer.push('*');
                d = d.field("declarator")?;
            }
            "identifier" => break,
            _ => return None,
        }
    }
    dims.reverse();
    if !pointer.is_empty() {
        elem.push(' ');
        elem.push_str(&pointer);
    }
    Some((text(d, src).to_string(), elem, dims))
}

/// The unnamed class type of the `__shared__` declaration `decl` (of
/// variable `var` in function `function`, defined by `def`), named: its
/// name as the launch and the parameter write it (`f_temp_storage_t<T,
/// N>`: with the function's template parameters) and its definition at
/// namespace scope (`template <typename T, int N> union f_temp_storage_t {
/// … };`, the function's local type aliases and constants not yet inlined).
pub fn unnamed_shared_type<'t>(
    parents: &dyn syntax::Parents<'t>,
    def: Node<'t>,
    decl: Node<'t>,
    function: &str,
    var: &str,
    src: &str,
) -> Option<(String, String)> {
    let t = decl.field("type").filter(|t| matches!(t.kind_str(), "struct_specifier" | "union_specifier" | "class_specifier"))?;
    if t.field("name").is_some() {
        return None;
    }
    let body = t.field("body")?;
    let keyword = t.child(0).map(|k| text(k, src)).unwrap_or("struct");
    let base = format!("{}_{var}_t", function.trim_start_matches('~'));
    let template = parents.parent_of(def).filter(|p| p.kind_str() == "template_declaration");
    let (name, header) = match template.and_then(|tpl| tpl.field("parameters")) {
        Some(params) => {
            let names: Vec<String> = syntax::named_children(params)
                .iter()
                .filter_map(|p| {
                    // the parameter's name: its last identifier (a pack as `Ts...`)
                    let pack = p.kind_str().starts_with("variadic");
                    let id = p
                        .field("name")
                        .or_else(|| p.field("declarator"))
                        .or_else(|| syntax::named_children(*p).into_iter().find(|c| matches!(c.kind_str(), "type_identifier" | "identifier")))?;
                    let id = syntax::descendants(id).into_iter().find(|c| matches!(c.kind_str(), "type_identifier" | "identifier"))?;
                    Some(format!("{}{}", text(id, src), if pack { "..." } else { "" }))
                })
                .collect();
            (format!("{base}<{}>", names.join(", ")), format!("template {}\n", syntax::one_line(text(params, src))))
        }
        None => (base.clone(), String::new()),
    };
    Some((name, format!("{header}{keyword} {base} {};", text(body, src))))
}

/// Is the definition `def` inside `extern "C"` (itself a linkage
/// specification's body, or in the block of one)?
pub fn has_c_linkage<'t>(parents: &dyn syntax::Parents<'t>, def: Node<'t>, src: &str) -> bool {
    let Some(p) = parents.parent_of(def) else {
        return false;
    };
    let spec = match p.kind_str() {
        "linkage_specification" => Some(p),
        "declaration_list" => parents.parent_of(p).filter(|g| g.kind_str() == "linkage_specification"),
        _ => None,
    };
    spec.and_then(|s| s.field("value")).is_some_and(|v| text(v, src) == "\"C\"")
}

/// `static` or `inline` on a declaration.
fn is_internal(decl: Node, src: &str) -> bool {
    syntax::children(decl).iter().any(|c| c.kind_str() == "storage_class_specifier" && matches!(text(*c, src), "static" | "inline"))
}

/// The device globals a namespace-scope declaration declares.
pub fn globals_of<'t>(parents: &dyn syntax::Parents<'t>, decl: Node<'t>, src: &str, masks: &[Mask], macros: &MacroTable) -> Vec<GlobalSymbol> {
    if let Some(r) = texture_reference_of(decl, src) {
        return r;
    }
    // a qualifier macro before it (`MANAGED __device__ int n;`) says more than `__device__`
    let Some(kind) = macro_global_kind(decl, src, masks, macros).or_else(|| global_kind(decl, src)).or_else(|| split_global(decl, src, masks).map(|(k, _)| k))
    else {
        return vec![];
    };
    if decl.field("declarator").and_then(syntax::function_declarator).is_some() {
        return vec![];
    }
    let tparams = template_params(parents, decl, src);
    let mut c = decl.walk();
    let declarators: Vec<Node> = decl.children_by_field_id(crate::syntax::declarator_field(), &mut c).collect();
    declarators
        .into_iter()
        .filter_map(|d| array_declarator(decl, d, src))
        .map(|(name, elem_type, dims)| GlobalSymbol { name, kind, elem_type, dims, template_params: tparams.clone() })
        .collect()
}

/// The texture or surface references declaration `decl` declares
/// (`static texture<float4, 2, cudaReadModeElementType> t1, t2;`): its type
/// is CUDA's `texture<…>` or `surface<…>` template (unqualified, as CUDA's
/// are global) and it declares plain names. A project's own `texture`
/// class is told apart by [`index_part`].
pub fn texture_reference_of(decl: Node, src: &str) -> Option<Vec<GlobalSymbol>> {
    let t = decl.field("type").filter(|t| t.kind_str() == "template_type")?;
    let kind = match t.field("name").map(|n| text(n, src)) {
        Some("texture") => GlobalKind::Texture,
        Some("surface") => GlobalKind::Surface,
        _ => return None,
    };
    let args = t.field("arguments")?;
    let inner = text(args, src).trim();
    let elem_type = inner.strip_prefix('<').and_then(|x| x.strip_suffix('>')).unwrap_or(inner).trim().to_string();
    let mut c = decl.walk();
    let names: Option<Vec<GlobalSymbol>> = decl
        .children_by_field_id(crate::syntax::declarator_field(), &mut c)
        .map(|d| {
            // (`texture<float, 2> t(0, cudaFilterModeLinear);`: its constructor's arguments)
            let d =
                if d.kind_str() == "init_declarator" && d.field("value").is_some_and(|v| v.kind_str() == "argument_list") { d.field("declarator")? } else { d };
            (d.kind_str() == "identifier").then(|| GlobalSymbol {
                name: text(d, src).to_string(),
                kind,
                elem_type: elem_type.clone(),
                dims: vec![],
                template_params: vec![],
            })
        })
        .collect();
    names.filter(|n| !n.is_empty())
}

/// Declarations at namespace scope (also inside namespaces, `extern "C"`
/// blocks, templates and preprocessor conditionals), not in functions.
pub fn namespace_scope_declarations(root: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        for c in syntax::named_children(n) {
            match c.kind_str() {
                "declaration" => out.push(c),
                "namespace_definition"
                | "declaration_list"
                | "linkage_specification"
                | "template_declaration"
                | "preproc_if"
                | "preproc_ifdef"
                | "preproc_else"
                | "preproc_elif"
                | "preproc_elifdef" => stack.push(c),
                _ => {
                    if let Some(body) = c.field("body").filter(|b| b.kind_str() == "declaration_list") {
                        stack.push(body);
                    }
                }
            }
        }
    }
    out.sort_by_key(|n| n.start_byte());
    out
}

/// Gathers the facts of one file.
/// `nodes`: the file's tree walked in preorder (its first node is the root);
/// the rewrite reuses the same walk.
pub fn index_file<'t>(nodes: &syntax::Preorder<'t>, names: &syntax::FileNames<'t>, src: &'t str, rel: &str, masks: &[Mask], macros: &MacroTable) -> FileFacts {
    index_part(nodes, names, src, rel, masks, macros, &(0..src.len()))
}

/// [`index_file`] of the declarations that start in `body` (a part of a
/// large file, [`crate::segment`]; the rest of its text is read, not indexed).
pub fn index_part<'t>(
    nodes: &syntax::Preorder<'t>,
    names: &syntax::FileNames<'t>,
    src: &'t str,
    rel: &str,
    masks: &[Mask],
    macros: &MacroTable,
    body: &std::ops::Range<usize>,
) -> FileFacts {
    let whole = body.start == 0 && body.end >= src.len();
    // (and a function whose body is cut in parts, around a part of its
    // body: its facts from each part, merged)
    let owned = |n: Node| {
        whole || body.contains(&n.start_byte()) || (n.kind_str() == "function_definition" && n.start_byte() < body.start && n.end_byte() > body.start)
    };
    let root = nodes[0];
    let mut globals = Vec::new();
    let mut shared_globals = Vec::new();
    let mut extern_shared_globals = Vec::new();
    for n in namespace_scope_declarations(root) {
        if !owned(n) {
            continue;
        }
        globals.extend(globals_of(nodes, n, src, masks, macros));
        if let Some(is_extern) = shared_declaration(n, src) {
            let mut c = n.walk();
            for d in n.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                if let Some((name, elem_type, dims)) = array_declarator(n, d, src) {
                    let a = SharedArray { owner: String::new(), name, elem_type, dims };
                    if is_extern { extern_shared_globals.push(a) } else { shared_globals.push(a) }
                }
            }
        }
    }
    // a file defining a `texture` or `surface` class of its own has no
    // references of CUDA's (read once, where the file declares any)
    if globals.iter().any(|g| g.kind.is_reference()) {
        let defined = crate::leftovers::defined_names(src);
        globals.retain(|g| match g.kind {
            GlobalKind::Texture => !defined.contains("texture"),
            GlobalKind::Surface => !defined.contains("surface"),
            _ => true,
        });
    }
    let dynamic_local_classes = dynamic_local_classes(nodes, src, &owned);
    let functions = index_functions(nodes, names, src, rel, masks, macros, &owned);
    FileFacts { functions, globals, shared_globals, extern_shared_globals, dynamic_local_classes }
}

/// The class whose member function declares the `extern __shared__` array
/// `decl`, if it is one: the name of the class specifier around the
/// function's body (`template <> struct SharedMemory<double>` is
/// `SharedMemory`).
pub fn dynamic_local_class<'t>(parents: &dyn syntax::Parents<'t>, decl: Node<'t>, src: &'t str) -> Option<(Node<'t>, &'t str)> {
    // (climbs from a rare declaration: the function body, then the class)
    let mut p = parents.parent_of(decl);
    let mut in_function = false;
    while let Some(x) = p {
        match x.kind_str() {
            "function_definition" => in_function = true,
            "field_declaration_list" if in_function => {
                let class = parents.parent_of(x).filter(|c| matches!(c.kind_str(), "struct_specifier" | "class_specifier"))?;
                let name = class.field("name")?;
                let name = if name.kind_str() == "template_type" { name.field("name")? } else { name };
                return Some((class, text(name, src)));
            }
            "translation_unit" => return None,
            _ => {}
        }
        p = parents.parent_of(x);
    }
    None
}

/// The names of the classes of this file whose member functions declare
/// `extern __shared__` arrays ([`dynamic_local_class`]).
fn dynamic_local_classes(nodes: &syntax::Preorder, src: &str, owned: &dyn Fn(Node) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, n) in nodes.of_kinds(&["declaration"]).filter(|(_, n)| owned(*n)) {
        if shared_declaration(n, src) == Some(true)
            && let Some((_, name)) = dynamic_local_class(nodes, n, src)
            && !out.iter().any(|o| o == name)
        {
            out.push(name.to_string());
        }
    }
    out
}

/// Is `n` in the branch of a `__CUDACC__` test taken when CUDA is *not*
/// compiling (`#ifndef __CUDACC__`, or the `#else` of `#ifdef __CUDACC__`)?
/// Such code is a host fallback for CUDA's own functions (helper_math.h's
/// `int min(int, int)`); the migrated code is compiled as the CUDA branch.
fn in_non_cuda_branch<'t>(parents: &dyn syntax::Parents<'t>, n: Node<'t>, src: &str) -> bool {
    let mut child = n;
    while let Some(p) = parents.parent_of(child) {
        if matches!(p.kind_str(), "preproc_ifdef" | "preproc_if") {
            let head = text(p, src).lines().next().unwrap_or("");
            if p.kind_str() == "preproc_if" && syntax::contains_word(head, "__CUDA_ARCH__") && in_dead_arch_branch(p, child, src) {
                return true;
            }
            if syntax::contains_word(head, "__CUDACC__") {
                let compact: String = head.chars().filter(|c| !c.is_whitespace()).collect();
                let negated = head.trim_start().trim_start_matches('#').trim_start().starts_with("ifndef")
                    || compact.contains("!defined(__CUDACC__)")
                    || compact.contains("!defined__CUDACC__");
                let in_alternative = p.field("alternative").is_some_and(|a| a.id() == child.id());
                if negated != in_alternative {
                    return true;
                }
            }
        }
        child = p;
    }
    false
}

/// Is `child` a branch of `#if` `p` that no migrated build compiles, its
/// condition depending on `__CUDA_ARCH__` alone: false in the host pass
/// (undefined) and in the device pass, where the migration assumes every
/// SYCL device newer than any tested architecture (`cuda-arch-macro`,
/// SY0102)? The `#else` of `#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >=
/// 600` (a fallback `atomicAdd(double *, double)` for old GPUs) is such a
/// branch: its functions are not the program's, and must not hide CUDA's.
fn in_dead_arch_branch(p: Node, child: Node, src: &str) -> bool {
    let in_alternative = p.field("alternative").is_some_and(|a| a.id() == child.id() && a.kind_str() == "preproc_else");
    let in_consequence = !in_alternative && p.field("alternative").is_none_or(|a| a.id() != child.id());
    match dead_arch_branch(p, src) {
        Some(DeadBranch::Consequence) => in_consequence,
        Some(DeadBranch::Alternative) => in_alternative,
        None => false,
    }
}

/// Which branch of an `#if` no migrated build compiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadBranch {
    /// The first branch (the condition is false in every pass).
    Consequence,
    /// The `#else` branch (the condition is true in every pass).
    Alternative,
}

/// The branch of `#if` `p` that no migrated build compiles, where its
/// condition depends on `__CUDA_ARCH__` alone (see [`in_dead_arch_branch`]).
pub fn dead_arch_branch(p: Node, src: &str) -> Option<DeadBranch> {
    let cond = p.field("condition")?;
    let host = arch_condition(cond, src, None, 0)?;
    let device = arch_condition(cond, src, Some(i64::from(i32::MAX)), 0)?;
    match (host != 0, device != 0) {
        (false, false) => Some(DeadBranch::Consequence),
        (true, true) if p.field("alternative").is_some_and(|a| a.kind_str() == "preproc_else") => Some(DeadBranch::Alternative),
        _ => None,
    }
}

/// The value of a preprocessor condition that depends on `__CUDA_ARCH__`
/// alone (numbers, `defined`, `!`, comparisons, `&&`, `||`), with it
/// undefined (`arch` None) or defined as `arch`; None for anything else.
fn arch_condition(e: Node, src: &str, arch: Option<i64>, depth: usize) -> Option<i64> {
    if depth > syntax::EXPRESSION_DEPTH {
        return None;
    }
    let value = |e: Node| arch_condition(e, src, arch, depth + 1);
    match e.kind_str() {
        "number_literal" => syntax::integer_value(text(e, src)),
        "identifier" if text(e, src) == "__CUDA_ARCH__" => Some(arch.unwrap_or(0)),
        "preproc_defined" => (text(e.named_child(0)?, src) == "__CUDA_ARCH__").then_some(i64::from(arch.is_some())),
        "parenthesized_expression" => value(e.named_child(0)?),
        "unary_expression" if text(e.field("operator")?, src) == "!" => Some(i64::from(value(e.field("argument")?)? == 0)),
        "binary_expression" => {
            let (l, r) = (value(e.field("left")?)?, value(e.field("right")?)?);
            Some(match text(e.field("operator")?, src) {
                "&&" => i64::from(l != 0 && r != 0),
                "||" => i64::from(l != 0 || r != 0),
                "==" => i64::from(l == r),
                "!=" => i64::from(l != r),
                ">=" => i64::from(l >= r),
                "<=" => i64::from(l <= r),
                ">" => i64::from(l > r),
                "<" => i64::from(l < r),
                _ => return None,
            })
        }
        _ => None,
    }
}

fn index_functions<'t>(
    nodes: &syntax::Preorder<'t>,
    names: &syntax::FileNames<'t>,
    src: &'t str,
    rel: &str,
    masks: &[Mask],
    macros: &MacroTable,
    owned: &dyn Fn(Node) -> bool,
) -> Vec<FunctionFacts> {
    let mut out = Vec::new();
    let cub = crate::rules::cub::Collectives::of(nodes.of_kinds(crate::rules::cub::ALIAS_KINDS).map(|(_, n)| n), src);
    let wmma = crate::rules::wmma::Wmma::of(src);
    let item_words = syntax::Occurrences::of(src, "item");
    let file = FileScan { nodes, src, rel, masks, macros, cub: cub.as_ref(), wmma: wmma.as_ref(), names, item_words: &item_words };
    for (i, n) in nodes.of_kinds(&["function_definition", "declaration", "field_declaration"]) {
        if !owned(n) {
            continue;
        }
        match nodes.kind_at(i) {
            "function_definition" if !in_non_cuda_branch(nodes, n, src) => {
                if let Some(f) = function_facts(&file, i) {
                    out.push(f);
                }
            }
            "declaration" | "field_declaration" => {
                // prototypes: `__global__ void k(float *);`
                let Some(d) = n.field("declarator") else {
                    continue;
                };
                let Some(fd) = syntax::function_declarator(d) else {
                    continue;
                };
                let Some((_, name)) = fd.field("declarator").and_then(|x| declarator_name(x, src)) else {
                    continue;
                };
                let q = qualifiers_of(n, src, masks, macros);
                if !(q.global || q.device) || in_non_cuda_branch(nodes, n, src) {
                    continue;
                }
                let mut f = declared_function(nodes, name, q, n, fd, src, rel);
                f.prototype_files.insert(rel.to_string());
                out.push(f);
            }
            _ => {}
        }
    }
    out
}

/// The arguments of a `__launch_bounds__(…)` among a declaration's qualifiers.
fn launch_bounds(decl: Node, src: &str) -> Option<Vec<String>> {
    let lb = syntax::children(decl).into_iter().flat_map(|c| std::iter::once(c).chain(syntax::children(c))).find(|c| c.kind_str() == "launch_bounds")?;
    let args: Vec<String> = syntax::named_children(lb).iter().map(|a| syntax::one_line(text(*a, src))).collect();
    (!args.is_empty() && !lb.has_error()).then_some(args)
}

/// What the declaration `decl` of a function (declarator `fd`) says about
/// it, for a prototype and a definition alike.
fn declared_function<'t>(parents: &dyn syntax::Parents<'t>, name: &str, q: Qualifiers, decl: Node<'t>, fd: Node<'t>, src: &str, rel: &str) -> FunctionFacts {
    let params = param_shapes(fd, src);
    FunctionFacts {
        name: name.to_string(),
        is_kernel: q.global,
        is_device: q.device,
        is_host: q.host,
        launch_bounds: launch_bounds(decl, src).map(|b| (b, rel.to_string())),
        template_params: template_params(parents, decl, src),
        required_params: required_params(fd, src),
        is_internal: is_internal(decl, src),
        is_constructor: syntax::is_constructor(parents, decl, name, src),
        is_method: syntax::is_method(parents, decl),
        file: rel.to_string(),
        arities: vec![arity(fd, src)],
        first_params: params.first().map(|p| p.base.clone()).into_iter().collect(),
        params,
        ..Default::default()
    }
}

/// What [`function_facts`] reads of the file a definition is in.
struct FileScan<'f, 't> {
    nodes: &'f syntax::Preorder<'t>,
    src: &'t str,
    rel: &'f str,
    masks: &'f [Mask],
    macros: &'f MacroTable,
    cub: Option<&'f crate::rules::cub::Collectives>,
    wmma: Option<&'f crate::rules::wmma::Wmma>,
    /// The file's declared names, function objects and large scopes'
    /// declarations (shared with the rewrite).
    names: &'f syntax::FileNames<'t>,
    /// Where the text says `item` (a function that names it gets
    /// `item_ct1` for its nd_item).
    item_words: &'f syntax::Occurrences,
}

/// The facts of the definition `file.nodes[i]`.
fn function_facts<'t>(file: &FileScan<'_, 't>, i: usize) -> Option<FunctionFacts> {
    let &FileScan { nodes, src, rel, masks, macros, cub, wmma, names, item_words } = file;
    let functors = names.functors(nodes, src);
    let scopes = || names.scopes(nodes, src);
    // a name the file declares, declared in a scope around `n`
    let in_scope = |n: Node<'t>, name: &str| names.declared(nodes, src).contains(name) && scopes().declaration_in_scope(n, name, src, nodes).is_some();
    let def = nodes[i];
    let fd = syntax::function_declarator(def.field("declarator")?)?;
    let (_, name) = declarator_name(fd.field("declarator")?, src)?;
    let q = qualifiers_of(def, src, masks, macros);
    let mut f = declared_function(nodes, name, q, def, fd, src, rel);
    f.has_definition = true;
    f.c_linkage = has_c_linkage(nodes, def, src);
    let Some(body) = def.field("body") else {
        return Some(f);
    };
    // names the function declares itself (parameters, locals) shadow globals
    let mut declared = BTreeSet::new();
    // their type shapes, for the template arguments of calls
    let mut shapes: BTreeMap<String, TypeShape> = BTreeMap::new();
    // local constants (`constexpr int W = 32;`), which a `__shared__` size may name
    let mut constants: BTreeMap<String, String> = BTreeMap::new();
    let mut aliases: BTreeMap<String, String> = BTreeMap::new();
    // its `dim3` locals, and the nodes that name them where declared
    let mut dim3_locals: BTreeSet<&str> = BTreeSet::new();
    let mut declarator_names: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for at in nodes.subtree_range(i) {
        let n = nodes[at];
        let kind = nodes.kind_at(at);
        if matches!(kind, "parameter_declaration" | "optional_parameter_declaration" | "declaration") {
            let is_dim3 = kind == "declaration" && n.field("type").is_some_and(|t| text(t, src) == "dim3");
            let constant = kind == "declaration"
                && syntax::children(n)
                    .iter()
                    .any(|c| matches!(c.kind_str(), "type_qualifier" | "storage_class_specifier") && matches!(text(*c, src), "const" | "constexpr"));
            let mut c = n.walk();
            for d in n.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                if is_dim3 && let Some((at, name)) = declarator_name(d, src) {
                    dim3_locals.insert(name);
                    declarator_names.insert(at.id());
                }
                if syntax::function_declarator(d).is_none()
                    && let Some((_, name)) = declarator_name(d, src)
                {
                    declared.insert(name.to_string());
                    if let Some(shape) = type_shape(n, d, src) {
                        shapes.entry(name.to_string()).or_insert(shape);
                    }
                    // (a name the parser supplied as missing is empty)
                    if constant
                        && !name.is_empty()
                        && d.kind_str() == "init_declarator"
                        && let Some(v) = d.field("value").filter(|v| v.kind_str() != "initializer_list")
                    {
                        constants.entry(name.to_string()).or_insert_with(|| text(v, src).to_string());
                    }
                }
            }
        }
        // local type aliases (`using U = typename std::make_unsigned<T>::type;`,
        // `typedef T V;`), which a `__shared__` element type may name
        if matches!(kind, "alias_declaration" | "type_definition")
            && let Some((name, ty)) = syntax::type_alias(n)
        {
            aliases.entry(text(name, src).to_string()).or_insert_with(|| text(ty, src).to_string());
        }
    }
    // a constructor's member initializers run in its body's context too
    let initializers = syntax::children(def).into_iter().filter(|c| c.kind_str() == "field_initializer_list").flat_map(descendants);
    // (a leaf `item` only where the definition's text holds the word)
    let may_name_item = item_words.any_in(def.byte_range());
    // (the body's nodes with the kinds the walk read, where it is walked)
    let body_nodes: Box<dyn Iterator<Item = (Node<'t>, &str, bool)>> = match nodes.position_of(body) {
        Some(at) => Box::new(nodes.subtree_range(at).map(|k| (nodes[k], nodes.kind_at(k), nodes.is_leaf(k)))),
        None => Box::new(descendants(body).into_iter().map(|n| (n, n.kind_str(), n.child_count() == 0))),
    };
    for (n, kind, leaf) in initializers.map(|n| (n, n.kind_str(), n.child_count() == 0)).chain(body_nodes) {
        f.names_item |= may_name_item && leaf && !matches!(kind, "comment" | "string_content") && text(n, src) == "item";
        match kind {
            "field_expression" => {
                if let Some(a) = n.field("argument")
                    && a.kind_str() == "identifier"
                    && BUILTIN_VARS.contains(&text(a, src))
                    && !in_scope(a, text(a, src))
                {
                    f.uses_item = true;
                }
            }
            "identifier" => {
                let t = text(n, src);
                if dim3_locals.contains(t) && !declarator_names.contains(&n.id()) && !syntax::is_read_only_use(n) {
                    f.dim3_changed.insert(t.to_string());
                }
                if !declared.contains(t) {
                    f.identifiers.insert(t.to_string());
                }
                if t == "warpSize" && !in_scope(n, t) && !macros.names.contains(t) {
                    f.uses_item = true;
                    f.uses_warp = true;
                } else if macros.builtin_users.contains(t) {
                    f.uses_item = true;
                }
            }
            // a variable template used (`mask<T>[j]`), not called
            "template_function" if n.parent().is_none_or(|p| p.kind_str() != "call_expression") => {
                if let (Some(name), Some(args)) = (n.field("name"), n.field("arguments"))
                    && name.kind_str() == "identifier"
                    && !declared.contains(text(name, src))
                {
                    f.template_uses
                        .entry(text(name, src).to_string())
                        .or_insert_with(|| syntax::items(args).into_iter().map(|c| text(c, src).to_string()).collect());
                }
            }
            "call_expression" => {
                if let Some((_, m)) = syntax::method_callee_name(n, src)
                    && !f.method_callees.iter().any(|c| c == m)
                {
                    f.method_callees.push(m.to_string());
                }
                // a function object called (`callable(a, b)`): its `operator()`
                if !f.method_callees.iter().any(|c| c == "operator()")
                    && functors.is_call(n, src, &|n, name| scopes().declaration_in_scope(n, name, src, nodes))
                {
                    f.method_callees.push("operator()".to_string());
                }
                // a CUB collective constructed (`BR(temp)`): it needs the nd_item, and is no call
                if let Some((_, warp)) = cub.and_then(|c| c.constructed(n, src)) {
                    f.uses_item = true;
                    f.uses_warp |= warp;
                    continue;
                }
                // a wmma fragment function (`wmma::mma_sync(d, a, b, c)`): the sub-group
                if wmma.is_some_and(|w| w.is_call(n, src)) {
                    f.uses_item = true;
                    f.uses_warp = true;
                    continue;
                }
                // `Alias(args)` of a local `typedef Class<..> Alias;`: a construction of `Class`
                let aliased = callee_name(n, src).and_then(|(_, c)| aliases.get(c)).and_then(|t| aliased_class(t));
                if let Some(class) = aliased {
                    f.constructions.push((class.clone(), syntax::call_arguments(n).len()));
                    if !f.callees.contains(&class) {
                        f.callees.push(class);
                    }
                }
                if let Some((_, callee)) = callee_name(n, src) {
                    if BARRIERS.contains(&callee) {
                        f.uses_item = true;
                    } else if callee == "this_grid" {
                        f.uses_item = true;
                        f.uses_grid = true;
                    } else if crate::rules::warp_shuffle::WARP_FUNCTIONS.contains(&callee)
                        || crate::rules::cooperative_groups::CG_ITEM_FUNCTIONS.contains(&callee)
                    {
                        f.uses_item = true;
                        f.uses_warp = true;
                    } else {
                        if !f.callees.iter().any(|c| c == callee) {
                            f.callees.push(callee.to_string());
                        }
                        f.calls.push(call_edge(n, callee, &shapes, src));
                    }
                }
            }
            "declaration" => {
                let collective = cub.and_then(|c| c.declared(n, src));
                if let Some((_, warp)) = collective {
                    f.uses_item = true;
                    f.uses_warp |= warp;
                }
                // a construction (`const Local l(p);`, `Local l;`): a call of
                // the class's constructor
                if let Some(class) = constructed_class(n, src).filter(|_| collective.is_none()) {
                    let mut c = n.walk();
                    for d in n.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                        let args = match d.kind_str() {
                            "init_declarator" => {
                                d.field("value").filter(|v| matches!(v.kind_str(), "argument_list" | "initializer_list")).map(|v| syntax::items(v).len())
                            }
                            "function_declarator" => d.field("parameters").map(|p| syntax::items(p).len()),
                            "identifier" => Some(0),
                            _ => None,
                        };
                        if let Some(k) = args {
                            f.constructions.push((class.to_string(), k));
                        }
                    }
                    if !f.callees.iter().any(|c| c == class) {
                        f.callees.push(class.to_string());
                    }
                }
                if let Some(is_extern) = shared_declaration(n, src) {
                    if is_extern {
                        f.uses_extern_shared = true;
                        continue;
                    }
                    let mut c = n.walk();
                    for d in n.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                        if let Some((vname, mut elem, dims)) = array_declarator(n, d, src) {
                            // an unnamed class type: named, defined before the function
                            if let Some((name, definition)) = unnamed_shared_type(nodes, def, n, &f.name, &vname, src) {
                                let definition = macros.expand_undefined(&inline_constants(&inline_aliases(&definition, &aliases), &constants));
                                elem = name.clone();
                                f.shared_types.push((name, definition));
                            }
                            // the launch allocates it, where the function's local constants are not in scope
                            let elem_type = macros.expand_undefined(&inline_constants(&inline_aliases(&elem, &aliases), &constants));
                            let dims = dims.iter().map(|d| macros.expand_undefined(&inline_constants(d, &constants))).collect();
                            f.static_shared.push(SharedArray { owner: f.name.clone(), name: vname, elem_type, dims });
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Some(f)
}

/// The class a local variable declaration constructs by name (`Local l(p);`,
/// `const Local l;`, `Box<T> b{x};`): the base name of its type.
/// The class a type alias names (`typename BlockLoad<float, 128>` →
/// `BlockLoad`, `ns::Tile` → `Tile`), when it names one by name.
pub fn aliased_class(ty: &str) -> Option<String> {
    let t = ty.trim().trim_start_matches("typename ").trim_start_matches("const ").trim();
    let base = t.split('<').next()?.trim();
    let last = base.rsplit("::").next()?.trim();
    (!last.is_empty() && last.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') && !t[base.len()..].contains("::")).then(|| last.to_string())
}

/// The classes that type aliases declared in function definition `def` (its
/// nodes)
/// stand for (`typedef BlockLoad<float, 128> LoadFloat;` → `LoadFloat` →
/// `BlockLoad`), the first such alias of a name winning. One walk per
/// function: callers keep the map for every call in it.
pub fn local_alias_classes(def: &[Node], src: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (alias, ty) in def.iter().copied().filter_map(syntax::type_alias) {
        if let Some(class) = aliased_class(text(ty, src)) {
            out.entry(text(alias, src).to_string()).or_insert(class);
        }
    }
    out
}

pub fn constructed_class<'a>(decl: Node, src: &'a str) -> Option<&'a str> {
    let ty = decl.field("type")?;
    let name = match ty.kind_str() {
        "type_identifier" => ty,
        "template_type" => ty.field("name")?,
        _ => return None,
    };
    // `Local l(p);` in a body parses as a function's declaration (C++'s most
    // vexing parse); a body declares no functions, so it counts
    let mut c = decl.walk();
    let declarators: Vec<Node> = decl.children_by_field_id(crate::syntax::declarator_field(), &mut c).collect();
    (!declarators.is_empty()).then(|| text(name, src))
}

/// `s` with the function's local type aliases replaced by what they name
/// (the launch allocates local memory where those aliases are not in scope).
fn inline_aliases(s: &str, aliases: &BTreeMap<String, String>) -> String {
    substitute_until_stable(s, aliases)
}

/// `s` with the function-local constants it names replaced by their values
/// (parenthesised unless a single word), repeatedly, since one constant may
/// name another.
fn inline_constants(s: &str, constants: &BTreeMap<String, String>) -> String {
    let values: BTreeMap<String, String> = constants
        .iter()
        // (one that names itself is code that does not parse: kept as a name)
        .filter(|(k, v)| !syntax::contains_word(v, k))
        .map(|(k, v)| {
            let v = v.trim();
            (k.clone(), if v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') { v.to_string() } else { format!("({v})") })
        })
        .collect();
    substitute_until_stable(s, &values)
}

/// The first use `name(args)` in `s`: its range and its arguments (split at
/// top-level commas).
fn find_macro_call(s: &str, name: &str) -> Option<(std::ops::Range<usize>, Vec<String>)> {
    let b = s.as_bytes();
    let after = |r: &std::ops::Range<usize>| r.end + (s[r.end..].len() - s[r.end..].trim_start().len());
    let (r, _) = syntax::identifiers(s).into_iter().find(|(r, w)| *w == name && b.get(after(r)) == Some(&b'('))?;
    let open = after(&r);
    let close = crate::mask::matching_paren(b, open)?;
    let (mut depth, mut args, mut start) = (0, Vec::new(), open + 1);
    for j in open + 1..close {
        match b[j] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                args.push(s[start..j].trim().to_string());
                start = j + 1;
            }
            _ => {}
        }
    }
    args.push(s[start..close].trim().to_string());
    Some((r.start..close + 1, args))
}

/// [`substitute_unqualified_words`] repeated while it changes something (names defined
/// through other names), until nothing changes: else (a cycle, 8 rounds
/// without an end, or a text past [`SUBSTITUTED_BYTES`]) `s` as written. A
/// name whose value names it (or another name) several times would grow the
/// text exponentially (`N = f(N, N)` in code that does not parse: 3⁸ copies),
/// and a value that names itself once (`using BR = X BR = Y`, from a broken
/// line) would be written, 4 KB of it, into every use.
fn substitute_until_stable(s: &str, map: &BTreeMap<String, String>) -> String {
    let limit = SUBSTITUTED_BYTES.max(s.len());
    let mut now = s.to_string();
    for _ in 0..8 {
        let next = substitute_unqualified_words(&now, map);
        if next == now {
            return now;
        }
        if next.len() > limit {
            break;
        }
        now = next;
    }
    s.to_string()
}

/// The longest text [`substitute_until_stable`] and
/// [`MacroTable::expand_undefined`] make of an expression (a type or a
/// size): beyond it, the names stay as written.
const SUBSTITUTED_BYTES: usize = 4096;

/// The type shape of declarator `d` of declaration (or parameter) `decl`.
pub fn type_shape(decl: Node, d: Node, src: &str) -> Option<TypeShape> {
    let base = text(decl.field("type")?, src).to_string();
    let mut ptr = 0;
    let mut d = Some(d);
    while let Some(x) = d {
        match x.kind_str() {
            "pointer_declarator" | "array_declarator" | "abstract_pointer_declarator" | "abstract_array_declarator" => ptr += 1,
            "identifier" | "field_identifier" => break,
            _ => {}
        }
        d = x.field("declarator");
    }
    Some(TypeShape { base, ptr })
}

/// (required, total) parameter counts of a function declarator.
fn arity(fd: Node, src: &str) -> (usize, usize) {
    let req = required_params(fd, src);
    let Some(list) = fd.field("parameters") else {
        return (0, 0);
    };
    let params = syntax::items(list);
    if params.len() == 1 && req == 0 && params[0].kind_str() == "parameter_declaration" {
        return (0, 0); // `(void)`
    }
    let variadic = params.iter().any(|p| p.kind_str().starts_with("variadic")) || syntax::children(list).iter().any(|c| c.kind_str() == "...");
    (req, if variadic { usize::MAX } else { params.len() })
}

/// The type shapes of a function declarator's parameters.
fn param_shapes(fd: Node, src: &str) -> Vec<TypeShape> {
    let Some(list) = fd.field("parameters") else {
        return vec![];
    };
    let items = syntax::items(list);
    if is_void_list(&items, src) {
        return vec![]; // `(void)`
    }
    items
        .into_iter()
        .map(|p| match p.field("declarator") {
            Some(d) => type_shape(p, d, src).unwrap_or_default(),
            None => TypeShape { base: p.field("type").map(|t| text(t, src).to_string()).unwrap_or_default(), ptr: 0 },
        })
        .collect()
}

/// The shape of an argument expression's type, where the function says it.
/// (A loop, not a recursion: `f(((((…p)))))` may nest thousands deep.)
fn expr_shape(e: Node, shapes: &BTreeMap<String, TypeShape>, src: &str) -> Option<TypeShape> {
    // the pointer operators met from the outside in (`&`: +1; `*`, `[]`: -1),
    // applied from the inside out
    let mut ops: Vec<bool> = Vec::new();
    let mut e = e;
    let mut shape = loop {
        match e.kind_str() {
            "identifier" => break shapes.get(text(e, src)).cloned()?,
            "parenthesized_expression" => e = syntax::named_children(e).into_iter().next()?,
            "pointer_expression" => {
                match e.field("operator").map(|o| text(o, src)).unwrap_or("") {
                    "&" => ops.push(true),
                    "*" => ops.push(false),
                    _ => return None,
                }
                e = e.field("argument")?;
            }
            "subscript_expression" => {
                ops.push(false);
                e = e.field("argument")?;
            }
            "cast_expression" => {
                let t = e.field("type")?;
                let base = t.field("type")?;
                let ptr = t.field("declarator").map(|d| text(d, src).matches('*').count()).unwrap_or(0);
                break TypeShape { base: text(base, src).to_string(), ptr };
            }
            _ => return None,
        }
    };
    for address_of in ops.into_iter().rev() {
        if address_of {
            shape.ptr += 1;
        } else {
            shape.ptr = shape.ptr.checked_sub(1)?;
        }
    }
    Some(shape)
}

fn call_edge(call: Node, callee: &str, shapes: &BTreeMap<String, TypeShape>, src: &str) -> CallEdge {
    let f = call.field("function");
    let tf = f.and_then(|f| if f.kind_str() == "qualified_identifier" { f.field("name") } else { Some(f) }).filter(|f| f.kind_str() == "template_function");
    let targs = tf.and_then(|t| t.field("arguments")).map(|a| syntax::items(a).into_iter().map(|c| text(c, src).to_string()).collect()).unwrap_or_default();
    let args = syntax::call_arguments(call).into_iter().map(|c| expr_shape(c, shapes, src)).collect();
    CallEdge { callee: callee.to_string(), targs, args }
}

/// The template arguments of a call to `callee`: the explicit ones in order,
/// then those deduced from parameters whose type is a template parameter
/// (`T *p` given an argument of shape `float`, 1 → `T` = `float`).
/// `arg(j)` is the shape of the j-th argument where known.
pub fn bind_template_params(callee: &FunctionFacts, targs: &[String], arg: impl Fn(usize) -> Option<TypeShape>) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for (p, a) in callee.template_params.iter().zip(targs) {
        map.insert(p.clone(), a.clone());
    }
    for p in callee.template_params.iter().skip(targs.len()) {
        for (j, ps) in callee.params.iter().enumerate() {
            if ps.base != *p {
                continue;
            }
            if let Some(a) = arg(j).filter(|a| a.ptr >= ps.ptr && !a.base.is_empty()) {
                map.insert(p.clone(), format!("{}{}", a.base, " *".repeat(a.ptr - ps.ptr)));
                break;
            }
        }
    }
    map
}

/// Replaces whole words of `s` found in `map`.
pub fn substitute_words(s: &str, map: &BTreeMap<String, String>) -> String {
    substitute(s, map, false)
}

/// [`substitute_words`] for the words not written after `::`, `.` or `->`:
/// a local name `BlockReduce` is not the `BlockReduce` of `cub::BlockReduce`.
fn substitute_unqualified_words(s: &str, map: &BTreeMap<String, String>) -> String {
    substitute(s, map, true)
}

fn substitute(s: &str, map: &BTreeMap<String, String>, unqualified_only: bool) -> String {
    let mut out = String::new();
    let mut last = 0;
    for (r, w) in syntax::identifiers(s) {
        if unqualified_only {
            let before = s[..r.start].trim_end();
            if before.ends_with("::") || before.ends_with('.') || before.ends_with("->") {
                continue;
            }
        }
        if let Some(v) = map.get(w) {
            out.push_str(&s[last..r.start]);
            out.push_str(v);
            last = r.end;
        }
    }
    out.push_str(&s[last..]);
    out
}

/// The first of `names` that `s` mentions as a word.
pub fn mentions_any(s: &str, names: &[String]) -> Option<String> {
    syntax::identifiers(s).into_iter().find(|(_, w)| names.iter().any(|n| n == w)).map(|(_, w)| w.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undefined_macros_are_expanded() {
        let mut m = MacroTable::default();
        m.scan(
            "#define MAXI(a, b) ((a) > (b) ? (a) : (b))\n#define BASE 16\n#define SELF(x) SELF(x)\n#define KEPT(x) x\n#undef MAXI\n#undef BASE\n#undef SELF\n",
        );
        assert_eq!(m.expand_undefined("MAXI(W, BASE) * KEPT(2)"), "(((W) > ((16)) ? (W) : ((16)))) * KEPT(2)");
        assert_eq!(m.expand_undefined("MAXI(f(a, b), 1)"), "(((f(a, b)) > (1) ? (f(a, b)) : (1)))");
        // a macro naming itself stops (bounded), as the preprocessor does not recurse
        assert!(m.expand_undefined("SELF(1)").len() < 10_000);
        // names defined through themselves several times do not grow the text
        // exponentially
        let constants = BTreeMap::from([
            ("N".to_string(), "f(N, N, N)".to_string()),
            ("A".to_string(), "B + B + B".to_string()),
            ("B".to_string(), "A * A * A".to_string()),
        ]);
        assert_eq!(inline_constants("N * 2", &constants), "N * 2");
        assert!(inline_constants("A", &constants).len() <= SUBSTITUTED_BYTES);
        // ... and, never stable, stay as written; a value naming itself once
        // (a broken line read as one alias) is not written into each use
        assert_eq!(inline_constants("A", &constants), "A");
        let aliases = BTreeMap::from([
            ("BR".to_string(), "cub::Blocg BR = cub::BlockReduceg".to_string()),
            ("U".to_string(), "V".to_string()),
            ("V".to_string(), "unsigned int".to_string()),
        ]);
        assert_eq!(inline_aliases("typename BR::TempStorage", &aliases), "typename BR::TempStorage");
        assert_eq!(inline_aliases("U *", &aliases), "unsigned int *");
        // a body that is no expression is not expanded
        let mut m = MacroTable::default();
        m.scan("#define BAD(a, b) ((a) :% (b))\n#undef BAD\n");
        assert_eq!(m.expand_undefined("BAD(W, 2) * 2"), "BAD(W, 2) * 2");
    }

    /// Names of the functions a file defines that are not in a non-CUDA branch.
    fn cuda_side(src: &str) -> Vec<String> {
        let tree = crate::parse::parse_text(src);
        descendants(tree.root_node())
            .into_iter()
            .filter(|n| n.kind_str() == "function_definition" && !in_non_cuda_branch(&syntax::TreeLinks, *n, src))
            .filter_map(|n| syntax::function_declarator(n.field("declarator")?))
            .filter_map(|fd| declarator_name(fd.field("declarator")?, src).map(|(_, s)| s.to_string()))
            .collect()
    }

    #[test]
    fn host_fallbacks_of_cuda_tests_are_not_the_projects() {
        let src = "#ifndef __CUDACC__\nint a() { return 0; }\n#else\nint b() { return 0; }\n#endif\n\
                   #if defined(__CUDACC__) && !defined(NO_GPU)\nint c() { return 0; }\n#else\nint d() { return 0; }\n#endif\n\
                   #if !defined( __CUDACC__ )\nint e() { return 0; }\n#endif\nint f() { return 0; }\n";
        assert_eq!(cuda_side(src), vec!["b", "c", "f"]);
    }
}
