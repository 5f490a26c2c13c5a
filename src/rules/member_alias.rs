//! A class member type alias with the name of the type it aliases.
//!
//! What it does: in a class defined at global scope, `using Config =
//! Config<int, float>;` (or `typedef Config<int, float> Config;`), where the
//! aliased name is written unqualified and is the alias's own name, becomes
//! `using Config = ::Config<int, float>;` (note SY0109). In a class inside a
//! namespace, another class or a function, the global scope is not the only
//! place the name may come from, so the alias is left as written with a
//! warning (SY0110) that names the fix.
//!
//! Why: the name means the outer type where the alias uses it and the alias
//! everywhere after it in the class, which C++ makes ill-formed with no
//! diagnostic required ([basic.scope.class]). nvcc's front end accepts it and
//! so does Clang, but GCC rejects it ("changes meaning"), and the migrated
//! code must build with every host compiler a SYCL implementation may use.
//! At global scope, the qualified name `::Config` finds what the unqualified
//! one did (qualified lookup in the global namespace also follows its using
//! directives), and a qualified name changes no meaning.
//!
//! Example: `struct S { using V = V<int>; };` → `struct S { using V = ::V<int>; };`.

use super::FileCtx;
use crate::diagnostics::{Code, Fix};
use crate::syntax::NodeKind;
use tree_sitter::Node;

pub const RULE: &str = "member-alias";

pub fn run(ctx: &mut FileCtx) {
    let types = DeclaredTypes::default();
    for n in ctx.main_of(&["alias_declaration", "type_definition"]) {
        if !matches!(n.kind_str(), "alias_declaration" | "type_definition") || ctx.in_error(n) {
            continue;
        }
        if n.parent().is_none_or(|p| p.kind_str() != "field_declaration_list") {
            continue;
        }
        let Some((alias, aliased)) = alias_and_aliased(n) else {
            continue;
        };
        if ctx.text(alias) != ctx.text(aliased) {
            continue;
        }
        let name = ctx.text(alias).to_string();
        if class_at_global_scope(n) {
            ctx.edits.insert(RULE, aliased.start_byte(), "::");
            ctx.diag(
                Code::MemberAliasQualified,
                aliased.byte_range(),
                RULE,
                format!(
                    "`{name}` qualified as `::{name}`: a member alias named like the type it aliases changes the name's meaning in the class, which GCC rejects"
                ),
            );
            ctx.count(RULE);
        } else {
            // the scopes it may come from that can be named: the enclosing
            // namespaces that declare it here, innermost first, then the
            // global scope where this file declares it there, or where no
            // namespace here does (a header's types are global)
            let mut scopes: Vec<String> = enclosing_namespaces(ctx, &types, n, &name).into_iter().map(|ns| format!("{ns}::")).collect();
            let root = ctx.parsed.tree.root_node();
            if scopes.is_empty() || declares_type(ctx, &types, root, &name) {
                scopes.push("::".to_string());
            }
            let fixes = scopes
                .into_iter()
                .map(|q| Fix { title: format!("Qualify as `{q}{name}`"), edits: vec![(aliased.start_byte()..aliased.start_byte(), q)] })
                .collect();
            ctx.diag_fixed(
                Code::MemberAliasChangesMeaning,
                aliased.byte_range(),
                RULE,
                format!("the member alias `{name}` names the type it aliases unqualified, which GCC rejects (\"changes meaning\"); qualify it with the scope that declares `{name}`"),
                fixes,
            );
        }
    }
}

/// The declared alias name and the name it aliases (the unqualified name of
/// the aliased type, or of its template).
fn alias_and_aliased(n: Node) -> Option<(Node, Node)> {
    let (alias, ty) = if n.kind_str() == "alias_declaration" {
        let ty = n.field("type")?.field("type")?;
        (n.field("name")?, ty)
    } else {
        let mut c = n.walk();
        let declarators: Vec<Node> = n.children_by_field_id(crate::syntax::declarator_field(), &mut c).collect();
        let [d] = declarators[..] else {
            return None;
        };
        (d, n.field("type")?)
    };
    if alias.kind_str() != "type_identifier" {
        return None;
    }
    let aliased = match ty.kind_str() {
        "template_type" => ty.field("name")?,
        "type_identifier" => ty,
        _ => return None,
    };
    (aliased.kind_str() == "type_identifier").then_some((alias, aliased))
}

/// The named namespaces around `n` in which this file declares a type
/// `name` (directly in the namespace's body), innermost first, each written
/// from the global scope (`::outer::inner`); none where a function or an
/// unnamed namespace stands between (such a scope cannot be named).
fn enclosing_namespaces<'a>(ctx: &FileCtx<'a>, types: &DeclaredTypes<'a>, n: Node, name: &str) -> Vec<String> {
    let mut chain: Vec<(String, bool)> = Vec::new();
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind_str() {
            "function_definition" | "lambda_expression" => return Vec::new(),
            "namespace_definition" => match (p.field("name"), p.field("body")) {
                // (`namespace a::b {` names two)
                (Some(ns), Some(body)) => chain.push((ctx.text(ns).to_string(), declares_type(ctx, types, body, name))),
                _ => return Vec::new(),
            },
            _ => {}
        }
        cur = p.parent();
    }
    chain.reverse(); // outermost first
    (1..=chain.len())
        .rev()
        .filter(|&k| chain[k - 1].1)
        .map(|k| format!("::{}", chain[..k].iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join("::")))
        .collect()
}

/// The types each declaration list declares among its direct members (a
/// class, struct, union or enum, an alias or typedef, or a template of
/// one), by the list's node id, read once per list: a file-scope lookup for
/// every member alias would walk the whole file each time.
type DeclaredTypes<'a> = std::cell::RefCell<std::collections::HashMap<usize, std::collections::HashSet<&'a str>>>;

/// Does the declaration list `body` declare a type `name` among its direct
/// members?
fn declares_type<'a>(ctx: &FileCtx<'a>, types: &DeclaredTypes<'a>, body: Node, name: &str) -> bool {
    types
        .borrow_mut()
        .entry(body.id())
        .or_insert_with(|| {
            let mut c = body.walk();
            body.children(&mut c)
                .filter_map(|d| {
                    let d = if d.kind_str() == "template_declaration" { d.named_child(d.named_child_count().saturating_sub(1) as u32).unwrap_or(d) } else { d };
                    let named = match d.kind_str() {
                        "struct_specifier" | "class_specifier" | "union_specifier" | "enum_specifier" | "alias_declaration" => d.field("name"),
                        "type_definition" => d.field("declarator"),
                        // `struct V { … };` at namespace scope is a declaration of its type
                        "declaration" => d.field("type").filter(|ty| ty.kind_str().ends_with("_specifier")).and_then(|ty| ty.field("name")),
                        _ => None,
                    };
                    named.map(|x| ctx.text(x))
                })
                .collect()
        })
        .contains(name)
}

/// Is the class whose member `n` is defined at global scope (not in a
/// namespace, another class or a function)?
fn class_at_global_scope(n: Node) -> bool {
    let Some(class) = n.parent().and_then(|l| l.parent()) else {
        return false;
    };
    let mut cur = class.parent();
    while let Some(p) = cur {
        match p.kind_str() {
            "translation_unit" => return true,
            "template_declaration"
            | "declaration"
            | "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "preproc_elifdef"
            | "linkage_specification" => {}
            "declaration_list" if p.parent().is_some_and(|g| g.kind_str() == "linkage_specification") => {}
            _ => return false,
        }
        cur = p.parent();
    }
    false
}
