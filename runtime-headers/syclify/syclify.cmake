# syclify.cmake: builds targets of a CMake project migrated by syclify
# with a SYCL 2020 compiler. syclify
# writes it to <out-root>/include/syclify/syclify.cmake, beside its helper
# header; each migrated CMakeLists.txt includes it after project().
#
# Cache variables (set them with -D on cmake's command line):
#   SYCL_IMPL     dpcpp: DPC++ (icpx, or clang++ built with SYCL): -fsycl
#                 acpp:  AdaptiveCpp: find_package(AdaptiveCpp) and
#                        add_sycl_to_target (set AdaptiveCpp_DIR if needed)
#                 empty (default): acpp when the C++ compiler is acpp/syclcc
#                 or AdaptiveCpp_DIR is set, else dpcpp
#   SYCL_ARCH     the NVIDIA GPU architecture, sm_XX (default: the original
#                 project's CUDA architecture, else sm_80)
#   SYCL_TARGETS  the implementation's targets (default: that NVIDIA GPU;
#                 e.g. spir64 for DPC++ on Intel GPUs, generic or
#                 cuda:sm_90 for AdaptiveCpp)
#
# syclify_add_sycl(<target>) makes a target's sources compile as SYCL: C++17,
# the helper header's directory, nvcc flags migrated from CUDA_NVCC_FLAGS
# (SYCLIFY_NVCC_FLAGS), and the implementation's compile and link flags.
#
# syclify_link_device_code(<target>...) is what CUDA's separable compilation
# (CUDA_SEPARABLE_COMPILATION; SYCLIFY_LINK_DEVICE_CODE for every target)
# became: device code called across translation units. DPC++ and
# AdaptiveCpp's generic target link it themselves; AdaptiveCpp's CUDA
# multipass target cannot, so there the target is built as one translation
# unit (UNITY_BUILD; sources that clash as one unit need a hand fix).
include_guard(GLOBAL)

get_filename_component(SYCLIFY_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT SYCLIFY_DEFAULT_ARCH)
  set(SYCLIFY_DEFAULT_ARCH sm_80)
endif()
set(SYCL_ARCH "${SYCLIFY_DEFAULT_ARCH}" CACHE STRING "NVIDIA GPU architecture of the SYCL build (sm_XX)")
set(SYCL_IMPL "" CACHE STRING "SYCL implementation: dpcpp or acpp (empty: guessed from the C++ compiler)")
set(SYCL_TARGETS "" CACHE STRING "targets of the SYCL implementation (empty: the NVIDIA GPU SYCL_ARCH)")

if(NOT SYCL_IMPL)
  get_filename_component(_syclify_cxx "${CMAKE_CXX_COMPILER}" NAME)
  if(_syclify_cxx MATCHES "acpp|syclcc" OR AdaptiveCpp_DIR)
    set(SYCL_IMPL acpp)
  else()
    set(SYCL_IMPL dpcpp)
  endif()
endif()

if(SYCL_IMPL STREQUAL "acpp")
  if(NOT SYCL_TARGETS)
    set(SYCL_TARGETS "cuda:${SYCL_ARCH}")
  endif()
  if(NOT ACPP_TARGETS)
    set(ACPP_TARGETS "${SYCL_TARGETS}" CACHE STRING "AdaptiveCpp's targets (from SYCL_TARGETS)" FORCE)
  endif()
  find_package(AdaptiveCpp CONFIG REQUIRED)
elseif(SYCL_IMPL STREQUAL "dpcpp")
  if(NOT SYCL_TARGETS)
    set(SYCL_TARGETS nvptx64-nvidia-cuda)
  endif()
  set(SYCLIFY_SYCL_FLAGS -fsycl "-fsycl-targets=${SYCL_TARGETS}")
  if(SYCL_TARGETS MATCHES "nvptx")
    list(APPEND SYCLIFY_SYCL_FLAGS "SHELL:-Xsycl-target-backend=nvptx64-nvidia-cuda --cuda-gpu-arch=${SYCL_ARCH}")
  endif()
else()
  message(FATAL_ERROR "SYCL_IMPL is '${SYCL_IMPL}': use dpcpp or acpp")
endif()
message(STATUS "syclify: SYCL_IMPL=${SYCL_IMPL} SYCL_TARGETS=${SYCL_TARGETS}")

# syclify::math (where SYCLIFY_MATH_LIBRARY is ON: the migrated sources call
# cuBLAS, cuRAND's host API, cuFFT or cuSPARSE, through syclify/blas.hpp,
# rand.hpp, fft.hpp, sparse.hpp) is the math library those calls need; the
# migrated target_link_libraries name it where they named CUDA::cublas and
# the like. It is the open-source oneMath when find_package(oneMath) finds
# it (set ONEMATH_ROOT or oneMath_DIR), else Intel oneMKL's SYCL libraries
# (find_package(MKL): MKL::MKL_SYCL, or MKL::MKL_DPCPP before oneMKL 2024),
# else -qmkl where the compiler is icpx.
if(SYCLIFY_MATH_LIBRARY AND NOT TARGET syclify::math)
  add_library(syclify::math INTERFACE IMPORTED GLOBAL)
  if(SYCL_IMPL STREQUAL "acpp" AND TARGET AdaptiveCpp::acpp-rt AND NOT TARGET hipSYCL::acpp-rt)
    # oneMath built with AdaptiveCpp names its runtime by the old name
    add_library(hipSYCL::acpp-rt ALIAS AdaptiveCpp::acpp-rt)
  endif()
  find_package(oneMath CONFIG QUIET HINTS "${ONEMATH_ROOT}" "$ENV{ONEMATH_ROOT}")
  if(TARGET ONEMATH::onemath)
    target_link_libraries(syclify::math INTERFACE ONEMATH::onemath)
    message(STATUS "syclify: syclify::math is oneMath (${oneMath_DIR})")
  else()
    find_package(MKL CONFIG QUIET)
    if(TARGET MKL::MKL_SYCL)
      target_link_libraries(syclify::math INTERFACE MKL::MKL_SYCL)
      message(STATUS "syclify: syclify::math is oneMKL (MKL::MKL_SYCL)")
    elseif(TARGET MKL::MKL_DPCPP)
      target_link_libraries(syclify::math INTERFACE MKL::MKL_DPCPP)
      message(STATUS "syclify: syclify::math is oneMKL (MKL::MKL_DPCPP)")
    elseif(CMAKE_CXX_COMPILER MATCHES "icpx")
      target_link_options(syclify::math INTERFACE -qmkl)
      target_compile_options(syclify::math INTERFACE -qmkl)
      message(STATUS "syclify: syclify::math is oneMKL through icpx -qmkl")
    else()
      message(WARNING "syclify: the migrated sources call cuBLAS, cuRAND, cuFFT or cuSPARSE through oneMKL's interfaces, and neither oneMath (find_package(oneMath): set ONEMATH_ROOT) nor oneMKL (find_package(MKL)) was found: the link will fail until one is")
    endif()
  endif()
endif()

function(syclify_link_device_code)
  if(SYCL_IMPL STREQUAL "acpp" AND NOT SYCL_TARGETS MATCHES "generic")
    foreach(target ${ARGN})
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
    endforeach()
  endif()
endfunction()

function(syclify_add_sycl target)
  target_compile_features(${target} PRIVATE cxx_std_17)
  target_include_directories(${target} PRIVATE "${SYCLIFY_INCLUDE_DIR}")
  # nvcc's host compiler (GCC) evaluates C math calls on constants at compile
  # time; the SYCL compilers (Clang) do so only without errno (libstdc++'s
  # <random> distributions run ten times slower otherwise)
  if(NOT MSVC)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-math-errno>)
  endif()
  if(SYCLIFY_NVCC_FLAGS)
    target_compile_options(${target} PRIVATE ${SYCLIFY_NVCC_FLAGS})
  endif()
  if(SYCLIFY_LINK_DEVICE_CODE)
    syclify_link_device_code(${target})
  endif()
  if(SYCL_IMPL STREQUAL "acpp")
    add_sycl_to_target(TARGET ${target})
  else()
    target_compile_options(${target} PRIVATE ${SYCLIFY_SYCL_FLAGS})
    target_link_options(${target} PRIVATE ${SYCLIFY_SYCL_FLAGS})
  endif()
endfunction()

# A module for CUDA's driver API (nvcc -ptx/-cubin/-fatbin in the original
# build): the migrated source as a SYCL shared library, written to `output`,
# the file the program loads with cuModuleLoad. (A MODULE library target
# builds it; a custom command copies it to `output`, so what depended on that
# file still does.)
function(syclify_add_module output source)
  get_filename_component(_name "${output}" NAME_WE)
  string(MAKE_C_IDENTIFIER "syclify_module_${_name}" _target)
  add_library(${_target} MODULE "${source}")
  syclify_add_sycl(${_target})
  add_custom_command(OUTPUT "${output}"
    COMMAND ${CMAKE_COMMAND} -E copy "$<TARGET_FILE:${_target}>" "${output}"
    DEPENDS ${_target}
    VERBATIM)
endfunction()
