// syclify cuBLAS types helper header — the status codes, enumerations and
// compute types of cuBLAS (cublas_api.h), shared by syclify/blas.hpp (cuBLAS
// on oneMKL) and syclify/blaslt.hpp (cuBLASLt, plain SYCL). Needs no library.
#pragma once

#include "syclify.hpp"

namespace syclify {
namespace blas {

enum status_t : int {
  status_success = 0,
  status_not_initialized = 1,
  status_alloc_failed = 3,
  status_invalid_value = 7,
  status_arch_mismatch = 8,
  status_mapping_error = 11,
  status_execution_failed = 13,
  status_internal_error = 14,
  status_not_supported = 15,
  status_license_error = 16,
};

inline const char *get_status_string(status_t s) {
  switch (s) {
  case status_success: return "CUBLAS_STATUS_SUCCESS";
  case status_not_initialized: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case status_alloc_failed: return "CUBLAS_STATUS_ALLOC_FAILED";
  case status_invalid_value: return "CUBLAS_STATUS_INVALID_VALUE";
  case status_arch_mismatch: return "CUBLAS_STATUS_ARCH_MISMATCH";
  case status_mapping_error: return "CUBLAS_STATUS_MAPPING_ERROR";
  case status_execution_failed: return "CUBLAS_STATUS_EXECUTION_FAILED";
  case status_internal_error: return "CUBLAS_STATUS_INTERNAL_ERROR";
  case status_not_supported: return "CUBLAS_STATUS_NOT_SUPPORTED";
  case status_license_error: return "CUBLAS_STATUS_LICENSE_ERROR";
  default: return "CUBLAS_STATUS_UNKNOWN";
  }
}

enum operation_t { op_n = 0, op_t = 1, op_c = 2 };
enum fill_mode_t { fill_lower = 0, fill_upper = 1, fill_full = 2 };
enum diag_t { diag_non_unit = 0, diag_unit = 1 };
enum side_t { side_left = 0, side_right = 1 };
enum pointer_mode_t { pointer_mode_host = 0, pointer_mode_device = 1 };
enum math_mode_t { default_math = 0, tensor_op_math = 1, pedantic_math = 2, tf32_tensor_op_math = 3 };

using data_type_t = syclify::data_type_t; // cudaDataType, from syclify.hpp

// cublasComputeType_t
enum compute_type_t {
  compute_16f = 64,
  compute_16f_pedantic = 65,
  compute_32f = 68,
  compute_32f_pedantic = 69,
  compute_32f_fast_16f = 74,
  compute_32f_fast_16bf = 75,
  compute_32f_fast_tf32 = 77,
  compute_64f = 70,
  compute_64f_pedantic = 71,
  compute_32i = 72,
  compute_32i_pedantic = 73,
};
using gemm_algo_t = int;

} // namespace blas
} // namespace syclify
