fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let q = syclify::mask::find_qualifier_macros(&text);
    let names: std::collections::BTreeSet<String> = syclify::mask::macro_definitions(&text).into_iter().map(|(n, _)| n).collect();
    let p = syclify::parse::parse_file(&text, &q, &names);
    fn walk(n: tree_sitter::Node, d: usize, t: &str) {
        if n.is_error() || n.is_missing() || d < 3 {
            println!("{}{} {}..{} {:?}", " ".repeat(d), n.kind(), n.start_position().row + 1, n.end_position().row + 1, &t[n.byte_range()].chars().take(60).collect::<String>());
        }
        let mut c = n.walk();
        for ch in n.children(&mut c) { walk(ch, d + 1, t); }
    }
    walk(p.tree.root_node(), 0, &p.masked);
    for m in &p.masks { println!("{:?} {:?}", m, &text[m.range.clone()].chars().take(50).collect::<String>()); }
}
