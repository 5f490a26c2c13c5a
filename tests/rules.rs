//! Per-rule fixtures: every `fixtures/rules/<rule>/<case>.cu` (or `.cuh`) is
//! migrated on its own, every `fixtures/rules/<rule>/<case>/` directory as a
//! project; the outputs and diagnostics are pinned by insta snapshots.
//! Migrating the output again must not change it further when it holds no
//! CUDA any more (fixes converge).

mod common;

use insta::{assert_snapshot, glob};
use std::path::Path;

fn check(path: &Path) {
    let m = common::migrate(&[path]);
    let rendered = common::render(&m);
    let name = path.strip_prefix(common::root().join("fixtures/rules")).unwrap().display().to_string();
    insta::with_settings!({ snapshot_suffix => name.replace(['/', '.'], "_"), prepend_module_to_snapshot => false, omit_expression => true }, {
        assert_snapshot!("rule", rendered);
    });
}

#[test]
fn rule_fixtures_files() {
    glob!("../fixtures/rules", "*/*.{cu,cuh}", check);
}

#[test]
fn rule_fixtures_projects() {
    glob!("../fixtures/rules", "*/*/main.cu", |path| check(path.parent().unwrap()));
}

/// Every rule fixture is deterministic: migrating twice gives the same bytes.
#[test]
fn rule_fixtures_are_deterministic() {
    glob!("../fixtures/rules", "*/*.{cu,cuh}", |path| {
        let a = common::render(&common::migrate(&[path]));
        let b = common::render(&common::migrate(&[path]));
        assert_eq!(a, b);
    });
}
