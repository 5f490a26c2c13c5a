//! The helper headers syclify ships with migrated code (`runtime-headers/`,
//! written by `emit` under `<out-root>/include/syclify/`), and how a copy
//! of one is recognised among the inputs: an out-root migrated again holds
//! them, and they are syclify's, not CUDA to migrate (their SYCL code names
//! CUDA's API in its comments and wrappers).

/// The helper header shipped with migrated code.
pub const HELPER_HEADER: &str = include_str!("../runtime-headers/syclify/syclify.hpp");
pub const HELPER_HEADER_REL: &str = "include/syclify/syclify.hpp";
/// The headers the helper header includes (its own parts), written with it.
pub const CORE_HEADERS: &[(&str, &str)] = &[
    ("include/syclify/texture.hpp", include_str!("../runtime-headers/syclify/texture.hpp")),
    ("include/syclify/graph.hpp", include_str!("../runtime-headers/syclify/graph.hpp")),
    ("include/syclify/driver.hpp", include_str!("../runtime-headers/syclify/driver.hpp")),
];
/// The helper headers of CUDA libraries, written when a migrated file includes one.
pub const LIBRARY_HEADERS: &[(&str, &str)] = &[
    ("include/syclify/cub.hpp", include_str!("../runtime-headers/syclify/cub.hpp")),
    ("include/syclify/thrust.hpp", include_str!("../runtime-headers/syclify/thrust.hpp")),
    ("include/syclify/blas_types.hpp", include_str!("../runtime-headers/syclify/blas_types.hpp")),
    ("include/syclify/math_backend.hpp", include_str!("../runtime-headers/syclify/math_backend.hpp")),
    ("include/syclify/blas.hpp", include_str!("../runtime-headers/syclify/blas.hpp")),
    ("include/syclify/solver.hpp", include_str!("../runtime-headers/syclify/solver.hpp")),
    ("include/syclify/ccl.hpp", include_str!("../runtime-headers/syclify/ccl.hpp")),
    ("include/syclify/blaslt.hpp", include_str!("../runtime-headers/syclify/blaslt.hpp")),
    ("include/syclify/rand.hpp", include_str!("../runtime-headers/syclify/rand.hpp")),
    ("include/syclify/rand_kernel.hpp", include_str!("../runtime-headers/syclify/rand_kernel.hpp")),
    ("include/syclify/sparse.hpp", include_str!("../runtime-headers/syclify/sparse.hpp")),
    ("include/syclify/fft.hpp", include_str!("../runtime-headers/syclify/fft.hpp")),
    ("include/syclify/wmma.hpp", include_str!("../runtime-headers/syclify/wmma.hpp")),
    ("include/syclify/libcu.hpp", include_str!("../runtime-headers/syclify/libcu.hpp")),
    ("include/syclify/nvtx.hpp", include_str!("../runtime-headers/syclify/nvtx.hpp")),
];

/// Whether the in-root file `rel` (text `text`) is a copy of one of the
/// helper headers, this version's or an earlier one: it lies where `emit`
/// writes that header (`include/syclify/<name>`, at the top of an out-root
/// or below it) and begins with the same line. Such a file is copied
/// unchanged, and the helper of this version, written to the same place
/// when the migrated code needs it, replaces it.
pub fn is_shipped_helper(rel: &str, text: &str) -> bool {
    std::iter::once((HELPER_HEADER_REL, HELPER_HEADER))
        .chain(CORE_HEADERS.iter().copied())
        .chain(LIBRARY_HEADERS.iter().copied())
        .any(|(at, shipped)| (rel == at || rel.ends_with(&format!("/{at}"))) && text.lines().next().is_some_and(|l| shipped.lines().next() == Some(l)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_of_the_helpers_are_recognised_where_emit_writes_them() {
        assert!(is_shipped_helper("include/syclify/syclify.hpp", HELPER_HEADER));
        assert!(is_shipped_helper("out/include/syclify/cub.hpp", LIBRARY_HEADERS[0].1));
        // an earlier version: the same first line
        let first = HELPER_HEADER.lines().next().unwrap();
        assert!(is_shipped_helper("include/syclify/syclify.hpp", &format!("{first}\n#include <cuda_runtime.h>\n")));
        // elsewhere, or another text at that place, is the project's
        assert!(!is_shipped_helper("src/syclify.hpp", HELPER_HEADER));
        assert!(!is_shipped_helper("myinclude/syclify/syclify.hpp", HELPER_HEADER));
        assert!(!is_shipped_helper("include/syclify/syclify.hpp", "#include <cuda_runtime.h>\n"));
        assert!(!is_shipped_helper("include/syclify/cub.hpp", HELPER_HEADER));
    }
}
