//! Build files: a project's Makefiles, migrated so that they build the
//! migrated sources with a SYCL compiler. Text in, text out; no parsing of
//! C++ (the source pipeline's renames are by suffix, `.cu` → `.dp.cpp`).

pub mod makefile;
pub mod nvcc_flags;

/// Is this file name a build file syclify migrates?
pub fn is_build_file_name(name: &str) -> bool {
    makefile::is_makefile_name(name)
}
