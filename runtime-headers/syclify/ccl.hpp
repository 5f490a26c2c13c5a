// syclify NCCL helper header — shipped with code migrated from CUDA by
// syclify when that code used NCCL (nccl.h). Each NCCL call becomes a call
// of the helper of the same operation (`ncclAllReduce` →
// `syclify::nccl::all_reduce`), which calls oneCCL's C++ API
// (`oneapi/ccl.hpp`, namespace ccl) on the queue of the call's stream.
//
// Needs oneCCL built for SYCL (Intel's oneCCL, 2021.11 or later: send and
// recv, group calls): link it with -lccl.
//
// How NCCL's model maps:
//   * ncclUniqueId holds a oneCCL key-value store's address: the process
//     calling ncclGetUniqueId creates the main store (ccl::create_main_kvs);
//     the id travels to the other ranks as NCCL's does (MPI_Bcast of
//     sizeof(id) bytes, a file, ...), and ncclCommInitRank opens the store
//     at that address (ccl::create_kvs), or uses the main one in the process
//     that made it;
//   * a communicator (ncclComm_t) holds a ccl::communicator made for the
//     current device's queue (its device and context), its rank, size and
//     device index, and the last error's text (ncclGetLastError);
//   * collectives and point-to-point calls run on the queue of their
//     stream, asynchronously, as NCCL's do; out-of-place broadcasts copy to
//     the receive buffer first (oneCCL broadcasts in place); all-gather is
//     oneCCL's allgatherv with equal counts;
//   * ncclGroupStart/End are ccl::group_start/group_end;
//   * result codes keep NCCL's values; an exception from oneCCL or SYCL
//     becomes ncclInvalidArgument (ccl::invalid_argument) or
//     ncclInternalError, with its text kept for ncclGetLastError;
//   * data types and reductions are oneCCL's of the same meaning; fp8
//     (ncclFloat8e4m3/e5m2) has none and gives ncclInvalidArgument;
//   * ncclGetVersion and NCCL_VERSION_CODE give the NCCL API level these
//     helpers follow (SYCLIFY_NCCL_VERSION_CODE), not oneCCL's version.
#pragma once
// what `#ifdef` tests of NCCL's header guard became (rules/cuda_macros.yaml)
#define SYCLIFY_NCCL 1
// the NCCL API level these helpers follow (2.13), as NCCL encodes it
#define SYCLIFY_NCCL_VERSION(X, Y, Z) (((X) <= 2 && (Y) <= 8) ? (X) * 1000 + (Y) * 100 + (Z) : (X) * 10000 + (Y) * 100 + (Z))
#define SYCLIFY_NCCL_MAJOR 2
#define SYCLIFY_NCCL_MINOR 13
#define SYCLIFY_NCCL_PATCH 0
#define SYCLIFY_NCCL_VERSION_CODE 21300 // SYCLIFY_NCCL_VERSION(2, 13, 0)
static_assert(SYCLIFY_NCCL_VERSION_CODE == SYCLIFY_NCCL_VERSION(SYCLIFY_NCCL_MAJOR, SYCLIFY_NCCL_MINOR, SYCLIFY_NCCL_PATCH), "the version code");

#include <sycl/sycl.hpp>

#include "syclify.hpp"

#include <oneapi/ccl.hpp>

#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace syclify {
namespace nccl {

enum result_t {
  success = 0,
  unhandled_cuda_error = 1,
  system_error = 2,
  internal_error = 3,
  invalid_argument = 4,
  invalid_usage = 5,
  remote_error = 6,
  in_progress = 7,
  timeout = 8,
  num_results = 9,
};

enum data_type_t {
  int8 = 0,
  uint8 = 1,
  int32 = 2,
  uint32 = 3,
  int64 = 4,
  uint64 = 5,
  float16 = 6,
  float32 = 7,
  float64 = 8,
  bfloat16 = 9,
  float8_e4m3 = 10,
  float8_e5m2 = 11,
  num_types = 12,
};

enum red_op_t { sum = 0, prod = 1, max = 2, min = 3, avg = 4, num_ops = 5 };

// ncclUniqueId: the address of a oneCCL key-value store (256 bytes where
// NCCL's id has 128: programs that send sizeof(ncclUniqueId) bytes, or
// NCCL_UNIQUE_ID_BYTES, send it whole)
#define SYCLIFY_NCCL_UNIQUE_ID_BYTES 256
struct unique_id {
  char internal[SYCLIFY_NCCL_UNIQUE_ID_BYTES];
};
static_assert(SYCLIFY_NCCL_UNIQUE_ID_BYTES == ccl::kvs::address_max_size, "a key-value store's address fits the id");

struct comm {
  ccl::communicator c;
  int device;
  std::string last_error;
  // a ccl::stream per queue used, made once; a stream destroyed and another
  // made at its address is another queue (SYCL queues compare by identity)
  std::map<sycl::queue *, std::pair<sycl::queue, ccl::stream>> streams;
  comm(ccl::communicator &&communicator, int dev) : c(std::move(communicator)), device(dev) {}
  ccl::stream &stream_of(stream_t s) {
    sycl::queue &q = queue_of(s);
    auto it = streams.find(&q);
    if (it != streams.end() && it->second.first != q) {
      streams.erase(it);
      it = streams.end();
    }
    if (it == streams.end())
      it = streams.emplace(&q, std::make_pair(q, ccl::create_stream(q))).first;
    return it->second.second;
  }
};
using comm_t = comm *;

namespace detail {

// the main key-value stores this process made (ncclGetUniqueId), by address:
// the process that made one must use it, not open its address
struct stores {
  std::mutex m;
  std::map<std::string, std::shared_ptr<ccl::kvs>> by_address;
};
inline stores &main_stores() {
  static stores s;
  return s;
}
inline std::string key(const unique_id &id) { return std::string(id.internal, sizeof(id.internal)); }

// the text of the last error of a call without a communicator
inline std::string &last_error() {
  static thread_local std::string text;
  return text;
}

// runs f, mapping exceptions to NCCL's result codes; the text goes to the
// communicator (or the thread's last error)
template <class F> result_t guarded(comm_t c, F &&f) {
  std::string &text = c ? c->last_error : last_error();
  try {
    f();
    return success;
  } catch (const ccl::invalid_argument &e) {
    text = e.what();
    return invalid_argument;
  } catch (const std::exception &e) {
    text = e.what();
    return internal_error;
  }
}

inline bool data_type(data_type_t t, ccl::datatype *out) {
  switch (t) {
  case int8: *out = ccl::datatype::int8; return true;
  case uint8: *out = ccl::datatype::uint8; return true;
  case int32: *out = ccl::datatype::int32; return true;
  case uint32: *out = ccl::datatype::uint32; return true;
  case int64: *out = ccl::datatype::int64; return true;
  case uint64: *out = ccl::datatype::uint64; return true;
  case float16: *out = ccl::datatype::float16; return true;
  case float32: *out = ccl::datatype::float32; return true;
  case float64: *out = ccl::datatype::float64; return true;
  case bfloat16: *out = ccl::datatype::bfloat16; return true;
  default: return false; // fp8: none in oneCCL
  }
}
inline std::size_t size_of(data_type_t t) {
  switch (t) {
  case int8:
  case uint8:
  case float8_e4m3:
  case float8_e5m2: return 1;
  case float16:
  case bfloat16: return 2;
  case int32:
  case uint32:
  case float32: return 4;
  default: return 8;
  }
}
inline bool reduction(red_op_t op, ccl::reduction *out) {
  switch (op) {
  case sum: *out = ccl::reduction::sum; return true;
  case prod: *out = ccl::reduction::prod; return true;
  case max: *out = ccl::reduction::max; return true;
  case min: *out = ccl::reduction::min; return true;
  case avg: *out = ccl::reduction::avg; return true;
  default: return false; // ncclRedOpCreatePreMulSum's operators are not mapped
  }
}

// the checks every collective makes before calling oneCCL
inline result_t check(comm_t c, data_type_t t, ccl::datatype *dt) {
  if (!c)
    return invalid_argument;
  if (!data_type(t, dt)) {
    c->last_error = "oneCCL has no 8-bit floating-point type";
    return invalid_argument;
  }
  return success;
}

// a call on a communicator: f(oneCCL's data type) once the checks pass,
// its exceptions as result codes
template <class F> result_t typed(comm_t c, data_type_t t, F &&f) {
  ccl::datatype dt;
  if (result_t e = check(c, t, &dt); e != success)
    return e;
  return guarded(c, [&] { f(dt); });
}
// ... and f(data type, reduction) for the calls that reduce
template <class F> result_t reducing(comm_t c, data_type_t t, red_op_t op, F &&f) {
  ccl::datatype dt;
  ccl::reduction r;
  if (result_t e = check(c, t, &dt); e != success)
    return e;
  if (!reduction(op, &r))
    return invalid_argument;
  return guarded(c, [&] { f(dt, r); });
}

} // namespace detail

inline const char *get_error_string(result_t r) {
  switch (r) {
  case success: return "no error";
  case unhandled_cuda_error: return "unhandled device error (run with NCCL_DEBUG=INFO for details)";
  case system_error: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
  case internal_error: return "internal error - please report this issue to the NCCL developers";
  case invalid_argument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
  case invalid_usage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
  case remote_error: return "remote process exited or there was a network error";
  case in_progress: return "NCCL operation in progress";
  case timeout: return "NCCL operation timed out";
  default: return "unknown result code";
  }
}
inline const char *get_last_error(comm_t c) { return (c ? c->last_error : detail::last_error()).c_str(); }

inline result_t get_version(int *version) {
  if (!version)
    return invalid_argument;
  *version = SYCLIFY_NCCL_VERSION_CODE;
  return success;
}

inline result_t get_unique_id(unique_id *id) {
  if (!id)
    return invalid_argument;
  return detail::guarded(nullptr, [&] {
    std::shared_ptr<ccl::kvs> kvs = ccl::create_main_kvs();
    const ccl::kvs::address_type address = kvs->get_address();
    std::memcpy(id->internal, address.data(), sizeof(id->internal));
    detail::stores &s = detail::main_stores();
    std::lock_guard<std::mutex> lock(s.m);
    s.by_address[detail::key(*id)] = kvs;
  });
}

// ncclCommInitRank: a communicator of `nranks` ranks for the current device
inline result_t comm_init_rank(comm_t *out, int nranks, unique_id id, int rank) {
  if (!out || nranks <= 0 || rank < 0 || rank >= nranks)
    return invalid_argument;
  return detail::guarded(nullptr, [&] {
    std::shared_ptr<ccl::kvs> kvs;
    {
      detail::stores &s = detail::main_stores();
      std::lock_guard<std::mutex> lock(s.m);
      auto it = s.by_address.find(detail::key(id));
      if (it != s.by_address.end())
        kvs = it->second;
    }
    if (!kvs) {
      ccl::kvs::address_type address;
      std::memcpy(address.data(), id.internal, sizeof(id.internal));
      kvs = ccl::create_kvs(address);
    }
    sycl::queue &q = default_queue();
    auto dev = ccl::create_device(q.get_device());
    auto ctx = ccl::create_context(q.get_context());
    int device = 0;
    get_device(&device);
    *out = new comm(ccl::create_communicator(nranks, rank, dev, ctx, kvs), device);
  });
}
inline result_t comm_destroy(comm_t c) {
  delete c;
  return success;
}
// ncclCommFinalize: oneCCL's operations complete with their streams' work
inline result_t comm_finalize(comm_t c) {
  if (!c)
    return invalid_argument;
  return detail::guarded(c, [&] {
    for (auto &s : c->streams)
      s.second.first.wait();
  });
}
inline result_t comm_count(const comm_t c, int *count) {
  if (!c || !count)
    return invalid_argument;
  *count = c->c.size();
  return success;
}
inline result_t comm_user_rank(const comm_t c, int *rank) {
  if (!c || !rank)
    return invalid_argument;
  *rank = c->c.rank();
  return success;
}
inline result_t comm_device(const comm_t c, int *device) {
  if (!c || !device)
    return invalid_argument;
  *device = c->device;
  return success;
}
// ncclCommGetAsyncError: oneCCL reports errors by exceptions at the call
inline result_t comm_get_async_error(comm_t c, result_t *async_error) {
  if (!c || !async_error)
    return invalid_argument;
  *async_error = success;
  return success;
}

// ---------------------------------------------------------------------------
// Collectives and point-to-point
// ---------------------------------------------------------------------------

inline result_t all_reduce(const void *send, void *recv, std::size_t count, data_type_t type, red_op_t op, comm_t c, stream_t s) {
  return detail::reducing(c, type, op, [&](ccl::datatype dt, ccl::reduction r) { ccl::allreduce(send, recv, count, dt, r, c->c, c->stream_of(s)); });
}
inline result_t reduce(const void *send, void *recv, std::size_t count, data_type_t type, red_op_t op, int root, comm_t c, stream_t s) {
  return detail::reducing(c, type, op, [&](ccl::datatype dt, ccl::reduction r) { ccl::reduce(send, recv, count, dt, r, root, c->c, c->stream_of(s)); });
}
// ncclBroadcast (out of place: the root's send buffer is copied to its
// receive buffer first) and ncclBcast (in place)
inline result_t broadcast(const void *send, void *recv, std::size_t count, data_type_t type, int root, comm_t c, stream_t s) {
  return detail::typed(c, type, [&](ccl::datatype dt) {
    if (c->c.rank() == root && send != recv && count > 0)
      queue_of(s).memcpy(recv, send, count * detail::size_of(type));
    ccl::broadcast(recv, count, dt, root, c->c, c->stream_of(s));
  });
}
inline result_t bcast(void *buf, std::size_t count, data_type_t type, int root, comm_t c, stream_t s) { return broadcast(buf, buf, count, type, root, c, s); }
inline result_t all_gather(const void *send, void *recv, std::size_t send_count, data_type_t type, comm_t c, stream_t s) {
  return detail::typed(c, type, [&](ccl::datatype dt) {
    const std::vector<std::size_t> counts(static_cast<std::size_t>(c->c.size()), send_count);
    ccl::allgatherv(send, send_count, recv, counts, dt, c->c, c->stream_of(s));
  });
}
inline result_t reduce_scatter(const void *send, void *recv, std::size_t recv_count, data_type_t type, red_op_t op, comm_t c, stream_t s) {
  return detail::reducing(c, type, op, [&](ccl::datatype dt, ccl::reduction r) { ccl::reduce_scatter(send, recv, recv_count, dt, r, c->c, c->stream_of(s)); });
}
inline result_t send(const void *buf, std::size_t count, data_type_t type, int peer, comm_t c, stream_t s) {
  // oneCCL's send takes a non-const buffer and only reads it
  return detail::typed(c, type, [&](ccl::datatype dt) { ccl::send(const_cast<void *>(buf), count, dt, peer, c->c, c->stream_of(s)); });
}
inline result_t recv(void *buf, std::size_t count, data_type_t type, int peer, comm_t c, stream_t s) {
  return detail::typed(c, type, [&](ccl::datatype dt) { ccl::recv(buf, count, dt, peer, c->c, c->stream_of(s)); });
}
inline result_t group_start() {
  return detail::guarded(nullptr, [] { ccl::group_start(); });
}
inline result_t group_end() {
  return detail::guarded(nullptr, [] { ccl::group_end(); });
}

} // namespace nccl
} // namespace syclify
