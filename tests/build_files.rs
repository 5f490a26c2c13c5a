//! Build-file fixtures (`fixtures/build/<name>/`: a Makefile that builds CUDA
//! with nvcc, and its sources): each is migrated, the migrated Makefile is
//! pinned by a snapshot, and then run with `make` for each SYCL
//! implementation, with stand-in compilers (`icpx`, `acpp`) that record their
//! arguments and create their outputs; the recorded commands are pinned too.

mod common;

use std::path::Path;

fn fixtures() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(common::root().join("fixtures/build")).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    v.sort();
    assert!(v.len() >= 2, "the build fixtures are missing");
    v
}

/// A stand-in compiler: appends `name args` to $SYCLIFY_STUB_LOG and
/// creates the file named by `-o`.
fn stub(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        "#!/bin/sh\nprintf '%s' \"$(basename \"$0\")\" >> \"$SYCLIFY_STUB_LOG\"\nfor a in \"$@\"; do printf ' %s' \"$a\" >> \"$SYCLIFY_STUB_LOG\"; done\necho >> \"$SYCLIFY_STUB_LOG\"\nout=\nprev=\nfor a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; prev=$a; done\n[ -n \"$out\" ] && : > \"$out\"\nexit 0\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

#[test]
fn makefiles_migrate_to_pinned_output_and_build_with_each_implementation() {
    if std::process::Command::new("make").arg("--version").output().is_err() {
        panic!("`make` is required for the build-file tests (apt-get install make)");
    }
    for dir in fixtures() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let m = common::migrate(&[&dir]);
        assert_eq!(m.exit_code(), 0, "{name}: migration reported errors:\n{}", common::render(&m));
        let out = tempfile::tempdir().unwrap();
        let m = syclify::project::Migration { out_root: out.path().to_path_buf(), ..m };
        assert!(syclify::emit::emit(&m).is_empty());
        let makefile = std::fs::read_to_string(out.path().join("Makefile")).unwrap();
        let diags: Vec<String> = m
            .files
            .iter()
            .flat_map(|f| f.diagnostics.iter().map(move |d| format!("{}: {} [{}]", f.rel, d.message, d.code.code())))
            .filter(|l| l.starts_with("Makefile"))
            .collect();
        let mut commands = String::new();
        let bin = tempfile::tempdir().unwrap();
        for (compiler, impl_name) in [("icpx", "dpcpp"), ("acpp", "acpp")] {
            let log = bin.path().join(format!("{compiler}.log"));
            let stub = stub(bin.path(), compiler);
            // a clean tree each time
            let _ = std::process::Command::new("make").current_dir(out.path()).args(["-s", "clean"]).output();
            let run = std::process::Command::new("make")
                .current_dir(out.path())
                .arg(format!("SYCLCXX={}", stub.display()))
                .env("SYCLIFY_STUB_LOG", &log)
                .env_remove("MAKEFLAGS")
                .output()
                .unwrap();
            assert!(run.status.success(), "{name}: make with {compiler} failed:\n{}", String::from_utf8_lossy(&run.stderr));
            let recorded = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(!recorded.is_empty(), "{name}: make ran no SYCL compile with {compiler}");
            commands.push_str(&format!("## {impl_name} (SYCLCXX={compiler})\n"));
            commands.push_str(&recorded.replace(&out.path().display().to_string(), "<out-root>"));
        }
        insta::with_settings!({ snapshot_suffix => name.clone(), prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!("makefile", format!("{makefile}\n==== diagnostics ====\n{}\n==== commands ====\n{commands}", diags.join("\n")));
        });
    }
}
