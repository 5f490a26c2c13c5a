//! Diagnostics: the table of codes (one row per code, with its long
//! explanation for `syclify explain`), and the diagnostic value itself.

use serde::{Deserialize, Serialize};
use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Done, for the record (e.g. `__launch_bounds__` dropped).
    Note,
    /// Migrated, but a human should check an assumption, or left as is.
    Warning,
    /// The output will not build or not behave like the original here.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One row of the code table.
pub struct CodeInfo {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
    pub explanation: &'static str,
}

macro_rules! codes {
    ($($id:ident = $code:literal, $name:literal, $sev:ident, $summary:literal, $expl:literal;)*) => {
        /// Every diagnostic code syclify can emit.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($id,)* }
        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$id,)*];
            pub fn info(self) -> CodeInfo {
                match self {
                    $(Code::$id => CodeInfo { code: $code, name: $name, severity: Severity::$sev, summary: $summary, explanation: $expl },)*
                }
            }
        }
    };
}

codes! {
    SyntaxError = "SY0001", "syntax-error", Warning,
        "a region could not be parsed and was left as is",
        "The CUDA grammar could not parse this region (tree-sitter produced an ERROR node).\nsyclify leaves such a region byte-for-byte as it was and goes on with the rest of the\nfile; the region still needs a human. Common causes: an `#if` that splits a declaration\n(move the conditional outside the declaration or duplicate the declaration in each\nbranch), or a macro that expands to syntax the grammar cannot see. At most 100 such\nregions are reported per file (as compilers stop at an error limit); one more warning, at\nthe first of the others, counts them.";
    UnreadableFile = "SY0002", "unreadable-file", Error,
        "the file could not be read",
        "The file could not be opened or read (a broken link, missing permission, an I/O error).\nIt is not migrated; every other file still is, and the run exits with code 1.";
    NotText = "SY0003", "not-text", Error,
        "the file is not UTF-8 text",
        "The file is binary (contains NUL bytes), or is not UTF-8 and could not be read losslessly\n(it already holds the private-use characters syclify uses to carry stray bytes, see\nSY0004). It is not migrated; every other file still is, and the run exits with code 1.";
    NotUtf8 = "SY0004", "not-utf8", Note,
        "the file is not UTF-8; its other bytes were kept as they are",
        "The file holds bytes that are not UTF-8 (a Latin-1 comment, a stray byte). syclify\nmigrates it anyway: every such byte is carried through the rewrite untouched and written\nback exactly, so the output has the same encoding as the input outside what was\nrewritten. Line and column numbers of diagnostics on such lines count each of those\nbytes as one character.";
    InactiveBranch = "SY0005", "inactive-branch", Warning,
        "an `#if` branch was kept as written: the grammar has no place for its conditional",
        "No single syntax tree holds every branch of this conditional: its branches open or close\nbraces or parentheses that the code after them closes (`#ifdef DUMP` / `for (…) {` /\n`#else` / `for (…) {` / `#endif`), or it stands inside a declaration or an argument list\n(a branch choosing between two parameter lists, `cudaSetDeviceFlags(flags` / `#if …` /\n`| more` / `#endif` / `)`, `#ifdef _WIN32` / `__stdcall` / `#endif` before a function's\nname). syclify parsed one configuration and migrated it: the one the macros it knows select\n(a compilation database's `-D`/`-U`; the CUDA 12.8 API's versions, `CUDART_VERSION` 12080;\n`__CUDACC__` and `__NVCC__` defined; Linux, so `_WIN32` and `_MSC_VER` undefined), else the\n`#else` branch or none, else the first branch. This branch is kept as written, its directive\nlines too (a kernel launch whose arguments hold it copies them as written; another rewrite\nthat would drop it is not made, SY0001), but for the CUDA type and enumerator names in it\n(`cudaStream_t`, `cudaMemcpyHostToDevice`) and the version macros of its condition. Other\nCUDA in it stays as written: build with the configuration that was parsed, or migrate the\nbranch by hand.";
    InternalError = "SY0006", "internal-error", Error,
        "syclify failed on this file (a bug in syclify); the file was not migrated",
        "syclify itself failed while migrating this file: a step (parsing, gathering its facts\nfor the project index, rewriting) panicked, which is a bug in syclify, not in your code.\nThe message says which step and where in syclify's source. The file is left out of the\noutput; every other file is still migrated, and the run exits with code 1. Please report\nit with the file, or a reduced version that still fails.";
    EditConflict = "SY0009", "edit-conflict", Error,
        "two rewrites overlapped and one could not be applied",
        "Two rules produced edits whose ranges overlap in a way that cannot be composed.\nThe first edit was applied and the second was not; this is a bug in syclify, please\nreport it with the input. The region needs a human.";
    CudaLeft = "SY0010", "cuda-left", Error,
        "a CUDA construct is left in the migrated code",
        "After every rule has run, syclify scans the migrated text for CUDA names outside comments\nand strings (builtins, qualifiers, intrinsics, atomics, runtime/driver/library API, vector\ntypes, `<<<`). This one was neither migrated nor reported by a rule, so the output will not\nbuild with a SYCL compiler as it is. The message names the construct and how often it is\nleft; migrate it by hand, add a mapping with `--rule-file`, or report it so that syclify\nlearns it.";
    LaunchBoundsDropped = "SY0101", "launch-bounds-dropped", Note,
        "`__launch_bounds__` was removed from a kernel",
        "`__launch_bounds__(maxThreads, minBlocks)` is an occupancy hint for the CUDA compiler.\nSYCL 2020 has no portable equivalent: `reqd_work_group_size` *requires* one exact size (a\ndifferent meaning; syclify writes it where a launch's block size is a constant) and\n`max_work_group_size` is a DPC++ extension that AdaptiveCpp does not accept. syclify\nremoves the hint from the kernel and writes `SYCLIFY_LAUNCH_BOUNDS(maxThreads, minBlocks)`\non its launches with a one-dimensional block, where the arguments are visible (integer\nliterals, or a launch in the kernel's file): DPC++'s `intel::max_work_group_size` and\n`intel::min_work_groups_per_cu` on its device compilation, nothing elsewhere. The kernel\nstill runs with any work-group size up to the device limit where the hint is not kept.";
    CudaArchVersion = "SY0102", "cuda-arch-version", Warning,
        "a `__CUDA_ARCH__` version test was replaced by a device-compilation test",
        "`__CUDA_ARCH__` both says \"compiling for the device\" and gives the compute capability.\nSYCL's `__SYCL_DEVICE_ONLY__` only says the former, so a comparison such as\n`__CUDA_ARCH__ >= 700` is replaced by `defined(__SYCL_DEVICE_ONLY__)`: the branch is\nassumed to hold on every SYCL device. Check that the code in it is valid for your targets.";
    QualifierMacro = "SY0103", "qualifier-macro", Note,
        "a macro that expands to CUDA qualifiers was emptied",
        "A macro whose body only holds CUDA execution-space qualifiers (e.g.\n`#define HD __host__ __device__`) is rewritten to expand to nothing (or to `inline`\nfor `__forceinline__`), so every use of it keeps compiling under SYCL.";
    GlobalVariableNotMigrated = "SY0104", "device-global-variable", Error,
        "a variable template in device memory cannot be migrated as written",
        "Device global variables become helper-owned allocations (`syclify::symbol<T>`) passed into\nthe kernels that use them. A variable template (`template <class T> __constant__ T\nmask[5];`) becomes a template of such allocations: each function that uses it gets one\nparameter for the one instantiation it uses, and each launch passes `mask<float>`,\nwith the kernel's template arguments as the launch gives or C++ deduces them. Not\nmigrated: a `__managed__` variable template; a function using two instantiations;\na launch whose template arguments cannot be told. These need a human.";
    ExtendedLambda = "SY0105", "device-lambda", Note,
        "`__device__` was removed from a lambda",
        "An extended `__device__` lambda is an ordinary lambda in SYCL: device code is whatever\nis called from a kernel. The qualifier was removed.";
    CrossUnitDeviceCode = "SY0106", "cross-unit-device-code", Note,
        "device code is shared between translation units (SYCL_EXTERNAL)",
        "This kernel or device function is defined in one translation unit and called from device\ncode in another (CUDA's relocatable device code, `-rdc`/`-dc`). It is marked\n`SYCL_EXTERNAL` (as `SYCLIFY_EXTERNAL`). DPC++ links device code across units by default\n(`-fsycl-rdc`). AdaptiveCpp's explicit-multipass CUDA/HIP targets compile each unit's\ndevice code on its own and cannot resolve the call (`ptxas fatal: Unresolved extern\nfunction` when the kernel is loaded): build the units that share device code as one\ntranslation unit, e.g. a file that `#include`s the `.dp.cpp` files, with those targets.";
    IncludeOutsideInRoot = "SY0107", "include-outside-in-root", Warning,
        "an included project file lies outside the in-root and was not migrated",
        "The include names a file of the project that is outside the in-root (e.g. a header\nshared by several programs: `#include \"../common/util.cuh\"`, or `#include <helper_cuda.h>`\nfound through `-I ../common`: angle-bracket includes are searched in the include\ndirectories, as the compiler searches them). syclify reads and writes only inside the\nin-root, so that file was not migrated and the include still names the CUDA original. The\nmessage names the directory to add and the in-root that holds both: migrate it with the\nrest (`syclify migrate app ../common -I ../common --in-root .. -o out`).";
    SyclBranchDisabled = "SY0108", "sycl-branch-disabled", Warning,
        "a test of a SYCL compiler's macro was replaced by its value under nvcc",
        "The original code tests a macro that only a SYCL compiler defines (`SYCL_LANGUAGE_VERSION`,\n`__SYCL_DEVICE_ONLY__`): a branch its authors wrote for SYCL, beside the one nvcc compiled.\nThe migrated code is the migration of what nvcc compiled, and the hand-written SYCL branch\nusually relies on a setup the CUDA program does not have (e.g. `using uchar4 = sycl::uchar4`\nwhere syclify's migrated vector types keep CUDA's `.x` members). So the test became what it\nwas under nvcc (`0`, or `1` for a negated `#ifndef`); the SYCL branch is kept in the output,\ninactive; so are the condition lines of conditionals that error recovery parsed in one\nconfiguration. Files that are SYCL code themselves (they use `sycl::` or include SYCL's\nheaders, with no CUDA) and syclify's own output keep their tests. Restore the test by hand if\nyou prefer the hand-written branch.";
    MemberAliasQualified = "SY0109", "member-alias-qualified", Note,
        "a member alias named like the type it aliases now names that type `::`-qualified",
        "Inside a class, `using Config = Config<int, float>;` makes `Config` mean the outer type\nwhere the alias uses it and the alias after it. C++ makes that ill-formed, no diagnostic\nrequired; nvcc and Clang accept it, GCC rejects it (\"changes meaning\"). The class is at\nglobal scope, so `::Config` finds what `Config` found there, and a qualified name changes\nno meaning: the migrated code builds with any host compiler.";
    MemberAliasChangesMeaning = "SY0110", "member-alias-changes-meaning", Warning,
        "a member alias named like the type it aliases, in a class that is not at global scope",
        "As SY0109 (`using Config = Config<int, float>;` inside a class, which GCC rejects), in a\nclass inside a namespace, another class or a function, where the outer `Config` may come\nfrom more than one scope. The alias was left as written: qualify the aliased name with\nthe scope that declares it (`::Config`, `ns::Config`), or build with Clang-based\ncompilers only (DPC++, AdaptiveCpp).";
    CudaHeaderMacro = "SY0111", "cuda-header-macro", Note,
        "a CUDA header guard or version macro now means what it meant under CUDA",
        "Programs test CUDA's own macros to decide what to compile: header guards (`#ifdef\n__DRIVER_TYPES_H__`, `#ifdef CUBLAS_API_H_`: \"was that header included?\"), versions (`#if\nCUDART_VERSION >= 11000`, `__CUDACC_VER_MAJOR__`) and `__NVCC__`. After migration CUDA's headers\nare gone, so these would be undefined: helpers inside a guard would vanish and a version\ntest would take the oldest branch, silently. syclify gives each one meaning\n(`rules/cuda_macros.yaml`): a header guard becomes a macro that the helper header replacing\nthat CUDA header defines (`__DRIVER_TYPES_H__` -> `SYCLIFY_CUDA_RUNTIME`, defined by\n`<syclify/syclify.hpp>`; `CUBLAS_API_H_` -> `SYCLIFY_CUBLAS`, defined by `<syclify/blas.hpp>`), so\nthe branch is compiled exactly where the replacement is included first, as CUDA's header\nwas; a version becomes the version of the CUDA API syclify migrates from (12.8:\n`SYCLIFY_CUDART_VERSION` is 12080), so `#if CUDART_VERSION >= 11000` keeps the modern branch;\n`__NVCC__` becomes `SYCL_LANGUAGE_VERSION`, as `__CUDACC__` does. This note says which branch\nwas kept. Guards of headers syclify does not replace (cuSOLVER's sparse one, NPP's, nvJPEG's)\nare left as written: their includes stay, and so do the headers that define them. A program that\ndefines such a macro itself keeps its own.";
    InactiveBranchCuda = "SY0112", "inactive-branch-cuda", Warning,
        "CUDA kept as written in a branch that no build of the program compiles",
        "The branch is compiled only where a macro is defined that nothing in the program defines:\nthe guard of a CUDA header syclify does not replace (cuSOLVER's sparse `CUSOLVERSP_H_`,\nnvJPEG's `NVJPEGAPI`, ...) in a program none of whose files includes that header, or a macro of the\nprogram's own that no source `#define`s, no build file names and no compilation database\npasses (`#ifdef CUDA_DRIVER_API`) — or a branch of an `#if` on `__CUDA_ARCH__` alone that\nneither pass compiles (the `#else` of `#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600`,\na fallback for old GPUs: the host pass has no `__CUDA_ARCH__`, and the device pass is taken\nto be newer than any tested architecture, SY0102); its functions do not hide CUDA's (the\nfallback `atomicAdd(double *, double)` leaves CUDA's `atomicAdd` calls migrated). Canonical\nhelper headers hold such branches for every library and API; a program uses few. The CUDA in the branch, which syclify does not migrate,\nis kept as written and reported here once instead of as SY0010 at each use. Should you\ndefine the macro (or include the header) later, that branch needs migrating by hand.";
    UnknownKernel = "SY0201", "unknown-kernel", Warning,
        "the launched kernel is not defined in the migrated sources",
        "syclify could not find the definition of the launched kernel among the migrated files,\nso it cannot know whether the kernel uses `__shared__` memory or needs other extra\nparameters. The launch was migrated assuming it needs none; check the kernel's signature.";
    LocalMemoryUnresolved = "SY0202", "local-memory-unresolved", Error,
        "the size or type of a `__shared__` array cannot be written at the launch",
        "Static `__shared__` arrays become work-group local memory allocated in the command group\nof each launch, so their element type and sizes must be expressible there. This array\ndepends on template parameters (or names) that the launch does not give, e.g. a kernel\nlaunched without explicit template arguments, or a kernel launched through a macro\nparameter. Give the template arguments at the launch, or allocate the local memory by hand.";
    DynamicLocalMemoryWithoutSize = "SY0203", "dynamic-local-memory-without-size", Warning,
        "the kernel uses `extern __shared__` memory but the launch gives no size",
        "A kernel that declares `extern __shared__` arrays gets its dynamic shared memory size\nfrom the third launch argument. This launch has none, so the local buffer has size 0,\nexactly as in CUDA; any access to it is out of bounds.";
    MacroLaunchKernel = "SY0204", "macro-launch-kernel", Note,
        "a launch inside a macro names its kernel through a macro parameter",
        "The kernel of this launch is a macro parameter, so syclify migrated the launch for a\nkernel that needs no local memory. The kernels passed to this macro in the migrated\nsources were checked; any other use must pass a kernel without `__shared__` memory.";
    KernelPointerLaunch = "SY0205", "kernel-pointer-launch", Error,
        "a launch through a function pointer is not migrated",
        "The launched name is a variable holding a pointer to a kernel (`void (*k)(float *, int)`;\n`k<<<g, b>>>(...)`) that the function around the launch never assigns a kernel to (a\nparameter, a global). Migrated kernels receive the `nd_item` and their local memory as\nextra parameters, and a SYCL launch needs each kernel's local memory at the launch site,\nso the launch must know which kernels the pointer may hold. The launch was left as is:\nlaunch each kernel by name (e.g. a `switch` over the choices). When the function assigns\nthe kernels (`k = &copy;`, `k = c ? &a : &b`), syclify does that itself (SY0206).";
    KernelPointerDispatch = "SY0206", "kernel-pointer-dispatch", Note,
        "a launch through a function pointer chooses among the kernels assigned to it",
        "The launched name is a variable holding a pointer to a kernel, and the function around\nthe launch assigns it kernels (`k = &copy;`, `k = c ? &a : &b`, its initializer). Each\nkernel has its own extra parameters (the `nd_item`, its local memory), so the launch\nbecomes a choice among launches of each by name, on the pointer's value; where the\npointer takes or is compared with a kernel, the kernel is cast to the pointer's type\n(`reinterpret_cast<decltype(k)>(&copy)`: function pointers convert both ways). A pointer\nthat holds none of them launches nothing, as a failed CUDA launch. Kernels assigned to\nthe pointer elsewhere (another function) are not among the choices.\nThe same holds for a launch in a macro whose kernel is a macro parameter, when the\nmacro's uses pass kernels of one signature that need local memory or device globals:\nthe choice is among those kernels, on which function the parameter names; another\nkernel launches nothing and sets `cudaErrorInvalidDeviceFunction`.";
    ConditionalLaunchConfig = "SY0207", "conditional-launch-config", Error,
        "a conditional inside a launch's `<<<…>>>` other than a local-memory size",
        "A `#if` group between `<<<` and `>>>` is migrated when it only adds or changes the\ndynamic shared-memory size (`<<<g, b` / `#ifdef DYN` / `, bytes` / `#endif` / `>>>`): the\nlaunch repeats the group around its local-memory allocation (size 0 where no branch\ngives one). A group that adds the stream, or comes after a size given outside it, is\nnot: the launch is left as written.";
    BareBuiltin = "SY0301", "bare-builtin", Warning,
        "a thread builtin is used as a whole value",
        "`threadIdx`, `blockIdx`, `blockDim` and `gridDim` are migrated member by member\n(`threadIdx.x` → `item.get_local_id(2)`). A use of the whole value (e.g. `dim3 t =\nthreadIdx;`) has no direct SYCL equivalent and was left as is.";
    BuiltinOutsideDeviceCode = "SY0302", "builtin-outside-device-code", Error,
        "a thread builtin is used where no nd_item can be passed",
        "The builtin is used where no `sycl::nd_item` can be passed: outside a function body, in a\nmacro that is not used from device code, or in a destructor or a constructor that receives\nno nd_item (one that also needs local memory or device globals: its overloads would all\nhave to be given them). It was left as is; compute the value in the kernel and pass it in.";
    ExtraArgumentsUnavailable = "SY0303", "extra-arguments-unavailable", Error,
        "a call needs the nd_item or local memory where none can be passed",
        "The called device function uses thread builtins, barriers, `__shared__` memory or device\nglobals, so it receives them as extra parameters (`const sycl::nd_item<3> &item`, ...).\nThis call stands where the caller has none to pass: typically the member initializer\nlist of a constructor that needs local memory or device globals (`__shared__` storage\nbehind a member function): a constructor receives the nd_item (its constructions pass\nit) but nothing more, since every overload and construction of the class would have\nto allocate them; or an array of such\nobjects. The call was left as is and will not compile; compute the value in the kernel\nand pass it to the constructor, or give the constructor the parameters by hand.";
    UnusedConstructorNotMigrated = "SY0304", "unused-constructor-not-migrated", Warning,
        "a constructor that no construction uses needs what it cannot be given",
        "As SY0303 (a call in a constructor needs local memory or device globals, which a\nconstructor is not given), in a constructor that no construction in the migrated\nsources uses, going by the number of arguments: the call was left as is, which compiles\nas long as nothing uses that constructor (a member of a class template is compiled only\nwhen used). A construction added later with that many arguments will not compile.";
    WarpMask = "SY0601", "warp-member-mask", Note,
        "a warp operation with a partial member mask: exact on NVIDIA, assumed converged elsewhere",
        "SYCL group algorithms have no member mask and must be reached by every work-item of the\nsub-group. The helper used here issues the hardware `*.sync` instruction with the mask on\nNVIDIA devices (DPC++'s CUDA backend, AdaptiveCpp's CUDA target), which is exactly CUDA's\nbehaviour, also in divergent code. On other devices it falls back to a SYCL group algorithm\nover the whole sub-group, which assumes every lane of the sub-group reaches the call.";
    ActiveMask = "SY0602", "active-mask", Note,
        "`__activemask()` is exact on NVIDIA only",
        "On NVIDIA devices `syclify::activemask` is the hardware `activemask` instruction and reports\nthe lanes really executing, also inside divergent branches. SYCL 2020 cannot observe\ndivergence, so on other devices it reports every lane of the sub-group.";
    GridGroup = "SY0701", "grid-group", Error,
        "multi-device cooperative groups are not migrated",
        "`this_grid()` and `grid.sync()` are migrated: the helper's grid barrier lives in device memory\nand each launch of a kernel that reaches one checks that all its work-groups fit on the device\nat once (cudaErrorCooperativeLaunchTooLarge otherwise). `this_multi_grid()` and\n`cudaLaunchCooperativeKernelMultiDevice` synchronise several devices, which SYCL cannot (and\nCUDA deprecated them in 11.3): launch one cooperative kernel per device and synchronise the\nqueues on the host between the phases.";
    UnsupportedApi = "SY0401", "unsupported-api", Warning,
        "a CUDA runtime or driver API call or type is not migrated and was left as is",
        "syclify has no mapping for this CUDA API. The call was left unchanged and a comment was\nadded next to it. Where the tables say why (the `unsupported:` entries of\n`rules/driver_api.yaml`, `rules/cusolver.yaml`, `rules/nccl.yaml`), the message says it: texture\nand surface references were removed in CUDA 12 (use texture objects); IPC handles, external\nmemory and semaphores, graphics interop and virtual memory management have no SYCL 2020\ncounterpart; cuSOLVER's sparse, refactorization and multi-GPU APIs and parts of NCCL have no\noneMKL or oneCCL counterpart. Otherwise you can add a\nmapping with `--rule-file`. Inside a branch that no build of the program compiles, the names\nare reported once with the branch instead (SY0112).";
    UnsupportedHeader = "SY0402", "unsupported-header", Warning,
        "a CUDA library header is not migrated",
        "The include names a CUDA library header (cuDNN, cuSOLVER's sparse API, NPP, ...) that\nsyclify does not migrate yet (Thrust, CUB, cuBLAS, cuBLASLt, cuRAND, cuSPARSE, cuFFT,\ncuSOLVER's dense API and NCCL are migrated through the helper headers). The include was left as is; the code using that\nlibrary needs a human (or a `--rule-file` mapping).";
    MappingNote = "SY0403", "mapping-note", Note,
        "migrated with a caveat stated by the mapping",
        "The mapping table (`rules/*.yaml` or a `--rule-file`) migrated this call and records what\nit assumes or cannot reproduce exactly (e.g. a hint with no SYCL meaning became a no-op).";
    MappingWarning = "SY0404", "mapping-warning", Warning,
        "migrated, but the mapping says a human should check this use",
        "The mapping table (`rules/*.yaml` or a `--rule-file`) migrated this call but marks it as\nneeding review: the SYCL form differs from CUDA's in a way that may matter here.";
    InlineAsm = "SY0406", "inline-asm", Warning,
        "inline assembly in device code is kept as written",
        "`asm(\"...\")` in a kernel or `__device__` function is PTX, NVIDIA's virtual instruction\nset. SYCL has no portable form of it, and syclify does not translate PTX: the statement was\nkept as written. It compiles only where the SYCL compiler generates code for NVIDIA GPUs\nthrough CUDA (DPC++'s CUDA backend; AdaptiveCpp's CUDA targets), and there only in the\ndevice compilation: guard it with `#if defined(__NVPTX__)` (or `__SYCL_DEVICE_ONLY__`, or\nAdaptiveCpp's `__acpp_if_target_cuda(...)`) with a portable fallback in the other branch, or\nrewrite it in SYCL (a `sycl::` group function, an atomic, a `syclify::` helper). Inline\nassembly in host code is the host compiler's and is left alone.";
    UnsupportedLibraryName = "SY0405", "unsupported-library-name", Error,
        "a name of a CUDA library has no SYCL counterpart in syclify yet",
        "The code names something of a CUDA library (`cub::DeviceSegmentedReduce`, `cub::BlockHistogram`)\nthat syclify's table for that library (`rules/cub.yaml`, ...) does not map yet. It was\nleft as is and will not compile against the SYCL side: write it with SYCL's group\nalgorithms or oneDPL by hand, or add the name to a `--rule-file` `namespaces:` entry if\nyour own header provides it.";
    UnknownDim3Form = "SY0501", "dim3-form", Warning,
        "a `dim3` initialisation was not recognised",
        "`dim3(x, y, z)` becomes `sycl::range<3>(z, y, x)`; this form could not be reordered\nsafely and was left as is.";
    BuildFlagDropped = "SY0801", "build-flag-dropped", Note,
        "an nvcc flag in a build file was dropped or changed",
        "The flag has no SYCL equivalent (ptxas options, register limits, nvcc's host-compiler\nchoice, line information for CUDA's profilers) or needs a different value for a SYCL\ncompiler (the language standard is at least C++17). The migrated build file has a\n`# syclify:` comment above the line. The flag table is rules/nvcc_flags.yaml.";
    BuildCudaLibrary = "SY0802", "build-cuda-library", Warning,
        "a CUDA library linked in a build file is not available to SYCL",
        "The build file links a CUDA library (cuBLAS, cuFFT, cuRAND, ...). Where the migrated\nsources call it through syclify's helpers (cuBLAS, cuRAND's host API, cuFFT, cuSPARSE and\ncuSOLVER's dense API, to oneMKL through syclify/blas.hpp, rand.hpp, fft.hpp, sparse.hpp and\nsolver.hpp), the link names the math library instead: `$(SYCL_MATH_LIBS)` in a Makefile,\n`syclify::math` in CMake (oneMKL's SYCL libraries with icpx, else the open-source oneMath;\nONEMATH_ROOT says where it is installed). NCCL, whose calls go to oneCCL\n(syclify/ccl.hpp), becomes oneCCL's own library: `-lccl`, `ccl` in CMake. Otherwise the library is dropped: no migrated source calls it (cuRAND\nused through its device API needs no library), or its calls are not migrated yet, each\nwith its own diagnostic.";
    BuildRelocatableDeviceCode = "SY0803", "build-relocatable-device-code", Note,
        "relocatable device code (-rdc, -dc, -dlink) in a build file",
        "nvcc's separate compilation of device code links device functions across translation\nunits. DPC++ does this by default (SYCL_EXTERNAL functions); AdaptiveCpp's generic\nsingle-pass target (--acpp-targets=generic) does too, but its CUDA multipass target\n(cuda:sm_XX) does not: with it, build the program as one translation unit or switch\nSYCL_TARGETS to generic. In a Makefile, -dc became -c and -rdc and -dlink were dropped. In\nCMake, CUDA_SEPARABLE_COMPILATION became syclify_link_device_code(target) (and\nCMAKE_CUDA_SEPARABLE_COMPILATION became SYCLIFY_LINK_DEVICE_CODE), which builds the target\nas one translation unit (UNITY_BUILD) for AdaptiveCpp's multipass target and does nothing\nfor the others.";
    BuildCudaLeft = "SY0804", "build-cuda-left", Warning,
        "a build script still names CUDA after migration",
        "The migrated CMake script still names something of CUDA that syclify has no mapping for:\na CUDA variable (`CUDA_FOUND`, `CMAKE_CUDA_COMPILER`, `CUDAToolkit_INCLUDE_DIRS`), an\nimported target (`CUDA::nvml`) or nvcc. It was kept as written; in the SYCL build a\nCUDA variable is empty, so a condition on it is false and a list that holds it loses\nnothing else. Check what the script meant and adapt it.";
    BuildUnknownCommand = "SY0805", "build-unknown-command", Note,
        "a CMake command syclify does not know, kept as written",
        "The command is neither one of CMake's nor a CUDA command syclify maps, nor a function or\nmacro defined in the same script (it may come from a module the project includes). It\nwas kept as written, with `.cu`/`.cuh` file names in its arguments renamed; if it\ncompiles CUDA itself (a project's own wrapper around nvcc), adapt it by hand.";
    BuildDriverModule = "SY0807", "build-driver-module", Note,
        "a module for CUDA's driver API is built as a SYCL shared library",
        "The build file compiled a source into PTX, a cubin or a fatbin (`nvcc -ptx/-cubin/-fatbin`)\nthat the program loads with CUDA's driver API (`cuModuleLoad`, `cuModuleLoadData`). The\nmigrated build compiles the migrated source into a SYCL shared library written to the same\nfile: in a Makefile the flag became `-fPIC -shared`; in CMake the custom command became\n`syclify_add_module(<file> <source>)` (syclify.cmake). The migrated cuModuleLoad opens\nthat library, and cuModuleGetFunction finds each kernel declared `extern \"C\"` in it by\nname (syclify writes a launcher beside each). A PTX, cubin or fatbin file from elsewhere\ncannot be loaded: cuModuleLoad says so at run time.";
    BuildFileUnparsed = "SY0806", "build-file-unparsed", Warning,
        "a build script could not be read and was copied as is",
        "The file is named like a CMake script (CMakeLists.txt, *.cmake) but is not written in\nCMake's language (cmake-language(7)): an unclosed parenthesis, quote or bracket, or\ntext where a command should start. It was copied to the out-root unchanged, not\nmigrated; the sources were migrated as usual. The message names the place.";
}

impl Code {
    pub fn code(self) -> &'static str {
        self.info().code
    }
    /// The code named by `s`: its code (`SY0106`, any case) or its name.
    pub fn lookup(s: &str) -> Option<Code> {
        let s = s.trim().to_ascii_uppercase();
        Code::ALL.iter().copied().find(|c| c.info().code == s || c.info().name.eq_ignore_ascii_case(&s))
    }
    /// Every code in the order of its number (`SY0001` first): how
    /// `syclify explain`, the reference page and SARIF's rules list them
    /// (the table above groups them by where they arise).
    pub fn in_order() -> Vec<Code> {
        let mut v = Code::ALL.to_vec();
        v.sort_by_key(|c| c.code());
        v
    }
}

/// One diagnostic, located in a file.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// Byte range in the original file.
    pub range: Range<usize>,
    /// Which rule produced it.
    pub rule: &'static str,
    /// Changes to the original file that answer it, where one is known (the
    /// editor offers each as a quick fix); the CUDA stays CUDA, written so
    /// that it migrates.
    pub fixes: Vec<Fix>,
}

/// A change to the original (CUDA) file that answers a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What it does, for a menu (`Write \`threadIdx\` member by member`).
    pub title: String,
    /// Byte ranges of the original file and their replacements, in order,
    /// not overlapping.
    pub edits: Vec<(Range<usize>, String)>,
}

impl Diagnostic {
    pub fn new(code: Code, range: Range<usize>, rule: &'static str, message: impl Into<String>) -> Self {
        Diagnostic { code, severity: code.info().severity, message: message.into(), range, rule, fixes: Vec::new() }
    }
    /// Whether a comment is left in the migrated code next to it.
    pub fn needs_human(&self) -> bool {
        self.severity >= Severity::Warning
    }
}

/// Every code as one Markdown page (`syclify explain --markdown`, kept in
/// `docs/reference/diagnostics.md`): a heading with an anchor per code, which the
/// language server's links (`codeDescription`) point at.
pub fn markdown_page() -> String {
    let mut out = String::from(
        "# Diagnostics\n\nGenerated by `syclify reference docs/reference` (or `syclify explain --markdown`)\nfrom the code table in `src/diagnostics.rs`: edit that, not this page.\n`syclify explain CODE` prints one entry. Warnings and errors are also left\nin the migrated code as a `// syclify:` comment above their line.\n\n| code | severity | name | summary |\n|---|---|---|---|\n",
    );
    for c in Code::in_order() {
        let i = c.info();
        out.push_str(&format!(
            "| [{}](#{}) | {} | `{}` | {} |\n",
            i.code,
            i.code.to_ascii_lowercase(),
            i.severity.as_str(),
            i.name,
            i.summary.replace('|', "\\|")
        ));
    }
    for c in Code::in_order() {
        let i = c.info();
        out.push_str(&format!(
            "\n<a id=\"{}\"></a>\n\n## {} `{}` ({})\n\n{}\n\n{}\n",
            i.code.to_ascii_lowercase(),
            i.code,
            i.name,
            i.severity.as_str(),
            i.summary,
            i.explanation
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// `syclify explain`, `--ignore` and the editor key on the code and the
    /// name: each must name one diagnostic.
    #[test]
    fn codes_and_names_are_unique() {
        let mut codes = BTreeSet::new();
        let mut names = BTreeSet::new();
        for c in Code::ALL {
            let info = c.info();
            assert!(codes.insert(info.code), "code {} used twice", info.code);
            assert!(names.insert(info.name), "name {} used twice", info.name);
            assert_eq!(Code::lookup(info.code), Some(*c));
        }
    }

    /// The page the editor links to is the table's: regenerate it with
    /// `cargo run -- reference docs/reference`.
    #[test]
    fn diagnostics_page_is_current() {
        let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reference/diagnostics.md")).unwrap_or_default();
        assert!(page == markdown_page(), "docs/reference/diagnostics.md is out of date: run `cargo run -- reference docs/reference`");
    }
}
