//! CUB's block and warp collectives: `BlockReduce(temp).Sum(x)` →
//! `BlockReduce(temp, item).Sum(x)`.
//!
//! What it does: a construction of one of CUB's collectives (`BlockReduce`,
//! `BlockScan`, `BlockAdjacentDifference`, `BlockLoad`, `BlockStore`,
//! `BlockExchange`, `BlockRadixSort`, `WarpReduce`, `WarpScan`) — through a type alias
//! (`typedef cub::BlockReduce<float, 256> BR; BR(temp)`), written out
//! (`cub::BlockScan<int, 128>(temp)`), or as a named object (`BR r(temp);`) —
//! receives the kernel's nd_item after its temporary storage. The index counts
//! such a construction as a use of the nd_item (and, for the warp
//! collectives, of the sub-group), so the function receives one and its
//! kernel is launched with a 32-wide sub-group. The `cub::` qualifier itself
//! is the `library-namespaces` rule's (table `rules/cub.yaml`); the
//! collectives are `runtime-headers/syclify/cub.hpp`; the `__shared__
//! TempStorage` is work-group local memory like any other `__shared__`
//! variable (`static-shared-memory`).
//!
//! Why: a SYCL group algorithm needs the group, which only the nd_item gives.
//!
//! Example: `v = BlockReduce(temp_storage).Sum(v);` →
//! `v = BlockReduce(temp_storage, item).Sum(v);`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax::NodeKind;
use crate::syntax::{self, text};
use tree_sitter::Node;

pub const RULE: &str = "cub";

/// CUB's collectives: name, and whether it works on a warp (the sub-group).
pub const COLLECTIVES: &[(&str, bool)] = &[
    ("BlockReduce", false),
    ("BlockScan", false),
    ("BlockAdjacentDifference", false),
    ("BlockLoad", false),
    ("BlockStore", false),
    ("BlockExchange", false),
    ("BlockRadixSort", false),
    ("WarpReduce", true),
    ("WarpScan", true),
];

/// The collective that type `ty` names, and whether it is a warp collective:
/// `cub::BlockReduce<float, 256>`, or `BlockScan<int, 128>` in a file that
/// says `using namespace cub;` (`using_cub`). Not `cub::BlockReduce<..>::TempStorage`.
pub fn collective_of_type(ty: &str, using_cub: bool) -> Option<(&'static str, bool)> {
    let t = ty.trim().trim_start_matches("typename ").trim_start_matches("const ").trim();
    let open = t.find('<')?;
    let base = t[..open].trim().trim_start_matches("::");
    let name = match base.strip_prefix("cub::") {
        Some(n) => n.trim(),
        None if using_cub && !base.contains("::") => base,
        None => return None,
    };
    // the template's arguments must end the type
    let close = matching_angle(t, open)?;
    if !t[close + 1..].trim().is_empty() {
        return None;
    }
    COLLECTIVES.iter().find(|(c, _)| *c == name).map(|&(c, w)| (c, w))
}

/// The `>` closing the template argument list opened at `open` (parenthesised
/// expressions may hold comparisons).
fn matching_angle(t: &str, open: usize) -> Option<usize> {
    let (mut angle, mut paren) = (0usize, 0usize);
    for (i, c) in t.bytes().enumerate().skip(open) {
        match c {
            b'(' => paren += 1,
            b')' => paren = paren.saturating_sub(1),
            b'<' if paren == 0 => angle += 1,
            b'>' if paren == 0 => {
                angle -= 1;
                if angle == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Does the file bring CUB's names in unqualified?
pub fn using_cub(src: &str) -> bool {
    src.contains("using namespace cub;")
}

/// The type aliases of one file that name a CUB collective
/// (`typedef cub::BlockReduce<T, 256> BR;`), each with the function it is
/// local to (none: file scope). Gathered once per file, in one walk, and only
/// for files that name CUB (`cub::`, `using namespace cub;`).
pub struct Collectives {
    using_cub: bool,
    aliases: Vec<CollectiveAlias>,
}

/// An alias's name, the function it is local to (none: file scope), and the
/// collective it names with whether that works on a warp.
type CollectiveAlias = (String, Option<std::ops::Range<usize>>, (&'static str, bool));

/// The node kinds [`Collectives::of`] reads aliases from.
pub const ALIAS_KINDS: &[&str] = &["alias_declaration", "type_definition"];

impl Collectives {
    /// The collectives of a file whose tree's nodes of [`ALIAS_KINDS`] are
    /// `aliases` (others are passed over).
    pub fn of<'t>(aliases: impl IntoIterator<Item = Node<'t>>, src: &str) -> Option<Collectives> {
        let using_cub = using_cub(src);
        if !using_cub && !src.contains("cub::") && !src.contains("cub ::") {
            return None;
        }
        let mut aliases_found = Vec::new();
        for n in aliases {
            let Some((alias, ty)) = syntax::type_alias(n) else {
                continue;
            };
            if let Some(c) = collective_of_type(text(ty, src), using_cub) {
                let scope = syntax::ancestor_of_kind(n, &["function_definition"]).map(|f| f.byte_range());
                aliases_found.push((text(alias, src).to_string(), scope, c));
            }
        }
        Some(Collectives { using_cub, aliases: aliases_found })
    }

    /// The collective alias `name` stands for at `at`: the function's own
    /// alias, else one at file scope.
    fn alias(&self, name: &str, at: usize) -> Option<(&'static str, bool)> {
        let mut file = None;
        for (a, scope, c) in &self.aliases {
            if a != name {
                continue;
            }
            match scope {
                Some(r) if r.contains(&at) => return Some(*c),
                Some(_) => {}
                None => file = Some(*c),
            }
        }
        file
    }

    /// The collective constructed by `call` (`BR(temp)`, `cub::BlockScan<int, 128>(temp)`).
    pub fn constructed(&self, call: Node, src: &str) -> Option<(&'static str, bool)> {
        let f = call.field("function")?;
        match f.kind_str() {
            "identifier" => self.alias(text(f, src), call.start_byte()),
            "template_function" | "qualified_identifier" => collective_of_type(text(f, src), self.using_cub),
            _ => None,
        }
    }

    /// The collective a declaration's type names (`BR r(temp);`).
    pub fn declared(&self, decl: Node, src: &str) -> Option<(&'static str, bool)> {
        let ty = decl.field("type")?;
        match ty.kind_str() {
            "type_identifier" => self.alias(text(ty, src), decl.start_byte()),
            "template_type" | "qualified_identifier" => collective_of_type(text(ty, src), self.using_cub),
            _ => None,
        }
    }
}

pub fn run(ctx: &mut FileCtx) {
    let Some(collectives) = Collectives::of(ctx.read_of(ALIAS_KINDS), ctx.src) else {
        return;
    };
    for n in ctx.all_of(&["call_expression", "declaration"]) {
        if ctx.in_error(n) || !ctx.in_device_code(n.start_byte()) {
            continue;
        }
        // the argument lists that get the nd_item
        let lists: Vec<Node> = match n.kind_str() {
            "call_expression" if collectives.constructed(n, ctx.src).is_some() => n.field("arguments").into_iter().collect(),
            "declaration" if collectives.declared(n, ctx.src).is_some() => {
                let mut c = n.walk();
                n.children_by_field_id(crate::syntax::declarator_field(), &mut c)
                    .filter_map(|d| match d.kind_str() {
                        // `BR r(temp);` reads as a function declaration
                        "function_declarator" => d.field("parameters"),
                        "init_declarator" => d.field("value").filter(|v| v.kind_str() == "argument_list"),
                        _ => None,
                    })
                    .collect()
            }
            _ => continue,
        };
        for list in lists {
            let Some(item) = ctx.item_at(list.start_byte()) else {
                ctx.diag(
                    Code::BuiltinOutsideDeviceCode,
                    list.byte_range(),
                    RULE,
                    "a CUB collective is constructed where no nd_item can be passed: left as is".to_string(),
                );
                continue;
            };
            let close = list.end_byte() - 1;
            let sep = if syntax::items(list).is_empty() { "" } else { ", " };
            ctx.edits.insert(RULE, close, format!("{sep}{item}"));
            ctx.count(RULE);
        }
    }
}
