// Every NCCL helper of syclify/ccl.hpp called: host-compiled against Intel's
// SYCL headers and oneCCL's by tests/programs.rs. Not run.
#include <sycl/sycl.hpp>
#include <syclify/ccl.hpp>
namespace n = syclify::nccl;

int main() {
  n::unique_id id;
  n::comm_t comm;
  int v = 0, count = 0, rank = 0, device = 0;
  int r = n::get_version(&v) | n::get_unique_id(&id) | n::comm_init_rank(&comm, 2, id, 0);
  r |= n::comm_count(comm, &count) | n::comm_user_rank(comm, &rank) | n::comm_device(comm, &device);
  syclify::stream_t s = nullptr;
  float *x = nullptr, *y = nullptr;
  r |= n::all_reduce(x, y, 4, n::float32, n::sum, comm, s);
  r |= n::reduce(x, y, 4, n::float64, n::max, 0, comm, s);
  r |= n::broadcast(x, y, 4, n::int32, 0, comm, s);
  r |= n::bcast(y, 4, n::uint8, 0, comm, s);
  r |= n::all_gather(x, y, 2, n::bfloat16, comm, s);
  r |= n::reduce_scatter(x, y, 2, n::float16, n::avg, comm, s);
  r |= n::group_start();
  r |= n::send(x, 4, n::int64, 1, comm, s);
  r |= n::recv(y, 4, n::uint64, 1, comm, s);
  r |= n::group_end();
  n::result_t async;
  r |= n::comm_get_async_error(comm, &async);
  const char *text = n::get_error_string(static_cast<n::result_t>(r));
  const char *last = n::get_last_error(comm);
  r |= n::comm_finalize(comm) | n::comm_destroy(comm);
  return r + (text[0] == 0) + (last == nullptr) + (SYCLIFY_NCCL_VERSION_CODE >= SYCLIFY_NCCL_VERSION(2, 7, 0) ? 0 : 1);
}
