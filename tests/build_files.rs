//! Build-file fixtures (`fixtures/build/<name>/`: a Makefile or a CMake
//! project that builds CUDA, and its sources): each is migrated, the migrated
//! build files are pinned by a snapshot, and then built for each SYCL
//! implementation with stand-ins that record their arguments and create
//! their outputs: compilers (`icpx`, `acpp`) for `make`; for CMake, a
//! configure and build with a stand-in `icpx` (which hands CMake's own
//! compiler checks to g++) and a stand-in AdaptiveCpp package whose
//! `add_sycl_to_target` launches a stand-in `acpp`, as the real one does.
//! The recorded commands are pinned too.

mod common;

use std::path::Path;

/// The fixtures whose top directory holds `file`.
fn fixtures(file: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(common::root().join("fixtures/build"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.join(file).is_file())
        .collect();
    v.sort();
    assert!(v.len() >= 2, "the build fixtures with a {file} are missing");
    v
}

/// The end of every stand-in: its arguments appended to the line begun in
/// $SYCLIFY_STUB_LOG, and the file named by `-o` created.
const RECORD: &str = "for a in \"$@\"; do printf ' %s' \"$a\" >> \"$SYCLIFY_STUB_LOG\"; done\necho >> \"$SYCLIFY_STUB_LOG\"\nout=\nprev=\nfor a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; prev=$a; done\n[ -n \"$out\" ] && : > \"$out\"\nexit 0\n";

/// A stand-in compiler: appends `name args` to $SYCLIFY_STUB_LOG and
/// creates the file named by `-o`.
fn stub(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\nprintf '%s' \"$(basename \"$0\")\" >> \"$SYCLIFY_STUB_LOG\"\n{RECORD}")).unwrap();
    make_executable(&path);
    path
}

/// A fixture migrated and written into a fresh out-root.
fn migrated(dir: &Path) -> (syclify::project::Migration, tempfile::TempDir) {
    let m = common::migrate(&[dir]);
    let out = tempfile::tempdir().unwrap();
    let m = syclify::project::Migration { out_root: out.path().to_path_buf(), ..m };
    assert!(syclify::emit::emit(&m).is_empty());
    (m, out)
}

/// Runs `make` in a migrated tree (cleaned first) with the stand-in
/// `compiler` made in `bin` as SYCLCXX; returns what the stand-in recorded.
fn make_with_stub(out: &Path, bin: &Path, compiler: &str, name: &str) -> String {
    let log = bin.join(format!("{compiler}.log"));
    let stub = stub(bin, compiler);
    let _ = std::process::Command::new("make").current_dir(out).args(["-s", "clean"]).output();
    let run = std::process::Command::new("make")
        .current_dir(out)
        .arg(format!("SYCLCXX={}", stub.display()))
        .env("SYCLIFY_STUB_LOG", &log)
        .env_remove("MAKEFLAGS")
        .output()
        .unwrap();
    assert!(run.status.success(), "{name}: make with {compiler} failed:\n{}", String::from_utf8_lossy(&run.stderr));
    std::fs::read_to_string(&log).unwrap_or_default()
}

#[test]
fn makefiles_migrate_to_pinned_output_and_build_with_each_implementation() {
    if std::process::Command::new("make").arg("--version").output().is_err() {
        panic!("`make` is required for the build-file tests (apt-get install make)");
    }
    for dir in fixtures("Makefile") {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (m, out) = migrated(&dir);
        assert_eq!(m.exit_code(), 0, "{name}: migration reported errors:\n{}", common::render(&m));
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
            let recorded = make_with_stub(out.path(), bin.path(), compiler, &name);
            assert!(!recorded.is_empty(), "{name}: make ran no SYCL compile with {compiler}");
            commands.push_str(&format!("## {impl_name} (SYCLCXX={compiler})\n"));
            commands.push_str(&recorded.replace(&out.path().display().to_string(), "<out-root>"));
        }
        insta::with_settings!({ snapshot_suffix => name.clone(), prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!("makefile", format!("{makefile}\n==== diagnostics ====\n{}\n==== commands ====\n{commands}", diags.join("\n")));
        });
    }
}

/// A stand-in for a SYCL compiler driver that CMake also uses for its own
/// checks: a command with `-fsycl` is recorded (and its `-o` output made),
/// any other goes to g++.
fn cmake_compiler_stub(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\ncase \" $* \" in *\" -fsycl \"*) ;; *) exec g++ \"$@\" ;; esac\nprintf '%s' \"$(basename \"$0\")\" >> \"$SYCLIFY_STUB_LOG\"\n{RECORD}"
        ),
    )
    .unwrap();
    make_executable(&path);
    path
}

/// A stand-in AdaptiveCpp package: `add_sycl_to_target` makes the target's
/// compile and link commands go through a launcher (as AdaptiveCpp's own
/// does), which records them as `acpp …` in place of the compiler.
fn acpp_package_stub(dir: &Path) -> std::path::PathBuf {
    let pkg = dir.join("acpp-package");
    std::fs::create_dir_all(&pkg).unwrap();
    let launcher = pkg.join("acpp-launcher");
    std::fs::write(
        &launcher,
        format!("#!/bin/sh\ntargets=$1\nshift\ncmd=$1\nshift\ncase \"$cmd\" in *ar|*ranlib) exec \"$cmd\" \"$@\" ;; esac\nprintf 'acpp %s' \"$targets\" >> \"$SYCLIFY_STUB_LOG\"\n{RECORD}"),
    )
    .unwrap();
    make_executable(&launcher);
    std::fs::write(
        pkg.join("adaptivecpp-config.cmake"),
        format!(
            "set(AdaptiveCpp_FOUND TRUE)\nmessage(STATUS \"stand-in AdaptiveCpp, targets ${{ACPP_TARGETS}}\")\nfunction(add_sycl_to_target)\n  cmake_parse_arguments(A \"\" \"TARGET\" \"SOURCES\" ${{ARGN}})\n  set_target_properties(${{A_TARGET}} PROPERTIES RULE_LAUNCH_COMPILE \"{l} --acpp-targets=${{ACPP_TARGETS}}\" RULE_LAUNCH_LINK \"{l} --acpp-targets=${{ACPP_TARGETS}}\")\nendfunction()\n",
            l = launcher.display()
        ),
    )
    .unwrap();
    pkg
}

fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// A recorded command with the machine's paths and the build system's own
/// dependency-file flags taken out, and the language standard CMake adds
/// put last (CMake versions differ in where they put it).
fn normalized(recorded: &str, replace: &[(&Path, &str)]) -> String {
    let mut out = String::new();
    for line in recorded.lines() {
        let mut words = Vec::new();
        let mut std = Vec::new();
        let mut it = line.split(' ').peekable();
        while let Some(w) = it.next() {
            match w {
                "-MD" | "-MMD" => {}
                "-MT" | "-MF" => {
                    it.next();
                }
                _ if w.starts_with("-std=") => std.push(w.to_string()),
                _ => words.push(w.to_string()),
            }
        }
        words.extend(std);
        let mut l = words.join(" ");
        for (p, name) in replace {
            l = l.replace(&p.display().to_string(), name);
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

#[test]
fn cmake_projects_migrate_to_pinned_output_and_build_with_each_implementation() {
    if std::process::Command::new("cmake").arg("--version").output().is_err() {
        panic!("`cmake` is required for the build-file tests (scripts/test.sh installs it from PyPI when it is missing)");
    }
    let mut dirs = fixtures("CMakeLists.txt");
    dirs.push(common::root().join("examples/heat2d"));
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (m, out) = migrated(&dir);
        assert_eq!(m.exit_code(), 0, "{name}: migration reported errors:\n{}", common::render(&m));
        let mut scripts = String::new();
        let mut diags = Vec::new();
        for f in m.files.iter().filter(|f| syclify::build::cmake::is_cmake_name(f.rel.rsplit('/').next().unwrap_or(""))) {
            scripts.push_str(&format!("## {}\n{}", f.rel, f.output.as_deref().unwrap_or("")));
            diags.extend(f.diagnostics.iter().map(|d| format!("{}: {} [{}]", f.rel, d.message, d.code.code())));
        }
        let bin = tempfile::tempdir().unwrap();
        let icpx = cmake_compiler_stub(bin.path(), "icpx");
        let acpp = acpp_package_stub(bin.path());
        let mut commands = String::new();
        for (impl_name, args) in [
            ("dpcpp", vec![format!("-DCMAKE_CXX_COMPILER={}", icpx.display())]),
            ("acpp", vec!["-DSYCL_IMPL=acpp".to_string(), format!("-DAdaptiveCpp_DIR={}", acpp.display())]),
        ] {
            let build = tempfile::tempdir().unwrap();
            let log = bin.path().join(format!("{impl_name}.log"));
            let configure = std::process::Command::new("cmake")
                .args(["-S", &out.path().display().to_string(), "-B", &build.path().display().to_string(), "-G", "Unix Makefiles"])
                .args(&args)
                .env("SYCLIFY_STUB_LOG", &log)
                .output()
                .unwrap();
            assert!(
                configure.status.success(),
                "{name}: cmake configure for {impl_name} failed:\n{}\n{}",
                String::from_utf8_lossy(&configure.stdout),
                String::from_utf8_lossy(&configure.stderr)
            );
            let built = std::process::Command::new("cmake")
                .args(["--build", &build.path().display().to_string()])
                .env("SYCLIFY_STUB_LOG", &log)
                .env_remove("MAKEFLAGS")
                .output()
                .unwrap();
            assert!(
                built.status.success(),
                "{name}: cmake --build for {impl_name} failed:\n{}\n{}",
                String::from_utf8_lossy(&built.stdout),
                String::from_utf8_lossy(&built.stderr)
            );
            let recorded = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(!recorded.is_empty(), "{name}: the build ran no SYCL compile for {impl_name}");
            commands.push_str(&format!("## {impl_name}\n"));
            commands.push_str(&normalized(&recorded, &[(out.path(), "<out-root>"), (build.path(), "<build>"), (bin.path(), "<bin>")]));
        }
        insta::with_settings!({ snapshot_suffix => name.clone(), prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!("cmake", format!("{scripts}\n==== diagnostics ====\n{}\n==== commands ====\n{commands}", diags.join("\n")));
        });
    }
}

/// Every whole-program fixture carries the Makefile that builds it with nvcc;
/// each migrated Makefile builds the migrated program with each
/// implementation (stand-in compilers), one pinned list of commands.
#[test]
fn program_fixture_makefiles_build_with_each_implementation() {
    let mut dirs: Vec<_> = std::fs::read_dir(common::root().join("fixtures/programs")).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    let mut all = String::new();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        assert!(dir.join("Makefile").is_file(), "{name}: every program fixture has a Makefile");
        let (_, out) = migrated(&dir);
        let bin = tempfile::tempdir().unwrap();
        all.push_str(&format!("## {name}\n"));
        for (compiler, impl_name) in [("icpx", "dpcpp"), ("acpp", "acpp")] {
            let recorded = make_with_stub(out.path(), bin.path(), compiler, &name);
            // every source it compiles is in the migrated tree
            for word in recorded.split_whitespace().filter(|w| w.ends_with(".cpp")) {
                assert!(out.path().join(word).is_file(), "{name}: {compiler} was asked to compile {word}, which the migration did not write");
            }
            assert!(out.path().join("prog").is_file(), "{name}: no program linked with {compiler}");
            all.push_str(&format!("# {impl_name}\n{}", normalized(&recorded, &[(out.path(), "<out-root>"), (bin.path(), "<bin>")])));
        }
    }
    insta::with_settings!({ prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!("program_makefiles", all);
    });
}
