//! Quick fixes (`Diagnostic::fixes`, offered by `syclify lsp` and written in
//! the JSON and SARIF reports) do what they say: in every rule fixture, each
//! fix applied on its own to the CUDA source answers its diagnostic — the
//! file migrated again has one diagnostic of that code fewer, and no error
//! the original migration did not have.

mod common;

use std::collections::BTreeMap;
use syclify::diagnostics::{Code, Fix, Severity};
use syclify::mapping::Mappings;
use syclify::project;

fn counts(m: &project::Migration) -> BTreeMap<(String, Code), usize> {
    let mut out = BTreeMap::new();
    for f in &m.files {
        for d in &f.diagnostics {
            *out.entry((f.rel.clone(), d.code)).or_insert(0) += 1;
        }
    }
    out
}

fn errors(m: &project::Migration) -> usize {
    m.files.iter().flat_map(|f| &f.diagnostics).filter(|d| d.severity == Severity::Error).count()
}

fn apply(text: &str, fix: &Fix) -> String {
    let mut out = text.to_string();
    for (r, t) in fix.edits.iter().rev() {
        out.replace_range(r.clone(), t);
    }
    out
}

#[test]
fn every_fix_answers_its_diagnostic() {
    let mappings = Mappings::builtin();
    let mut checked = 0;
    for path in common::files_under(&common::root().join("fixtures/rules")) {
        if !path.extension().is_some_and(|e| e == "cu" || e == "cuh") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let before = project::migrate_in_memory(vec![(name.clone(), text.clone().into_bytes())], &mappings);
        let before_counts = counts(&before);
        for d in before.files.iter().flat_map(|f| &f.diagnostics) {
            for fix in &d.fixes {
                let fixed = apply(&text, fix);
                let after = project::migrate_in_memory(vec![(name.clone(), fixed.clone().into_bytes())], &mappings);
                let key = (name.clone(), d.code);
                assert_eq!(
                    counts(&after).get(&key).copied().unwrap_or(0) + 1,
                    before_counts[&key],
                    "{}: the fix `{}` for {} did not answer it; the fixed source:\n{fixed}",
                    path.display(),
                    fix.title,
                    d.code.code()
                );
                assert!(errors(&after) <= errors(&before), "{}: the fix `{}` brought in an error", path.display(), fix.title);
                checked += 1;
            }
        }
    }
    // the fixtures hold diagnostics with fixes (SY0110, SY0301): the test checks some
    assert!(checked >= 5, "only {checked} fixes checked");
}
