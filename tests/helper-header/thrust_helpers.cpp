// Every Thrust helper of syclify/thrust.hpp instantiated, with and without a
// policy, over device_vector, raw USM pointers, host vectors and fancy
// iterators: host-compiled against Intel's SYCL headers and oneDPL's by
// tests/programs.rs (with Clang: GCC 12 rejects a header of oneDPL). Not run.
#include <sycl/sycl.hpp>
#include <syclify/thrust.hpp>

namespace thrust = syclify::thrust;

struct Square {
  float operator()(float x) const { return x * x; }
};
struct IsOdd {
  bool operator()(int x) const { return x & 1; }
};

int all(syclify::stream_t s, int *raw, int n) {
  thrust::device_vector<float> d(n, 1.0f), e(n);
  thrust::device_vector<int> keys(n), vals(n), out_k(n), out_v(n);
  thrust::host_vector<float> h(n, 2.0f);
  thrust::device_vector<float> from_host = h;
  h = d;
  thrust::device_ptr<int> p = thrust::device_pointer_cast(raw);
  int *r = thrust::raw_pointer_cast(keys.data());
  (void)r;
  float sum = thrust::reduce(d.begin(), d.end());
  sum += thrust::reduce(thrust::device, d.begin(), d.end(), 0.0f, thrust::plus<float>());
  sum += thrust::reduce(thrust::cuda::par.on(s), d.begin(), d.end(), 0.0f, thrust::maximum<float>());
  sum += thrust::transform_reduce(d.begin(), d.end(), Square(), 0.0f, thrust::plus<float>());
  sum += thrust::inner_product(d.begin(), d.end(), e.begin(), 0.0f);
  thrust::transform(d.begin(), d.end(), e.begin(), Square());
  thrust::transform(thrust::device, d.begin(), d.end(), e.begin(), e.begin(), thrust::multiplies<float>());
  thrust::sequence(keys.begin(), keys.end());
  thrust::sequence(thrust::device, vals.begin(), vals.end(), 10);
  thrust::sequence(p, p + n, 0, 2);
  thrust::tabulate(keys.begin(), keys.end(), thrust::negate<int>());
  thrust::fill(d.begin(), d.end(), 3.0f);
  thrust::fill_n(thrust::device, vals.begin(), n, 7);
  thrust::generate(h.begin(), h.end(), [] { return 1.0f; });
  thrust::generate_n(thrust::device, vals.begin(), n, [] { return 2; });
  try {
    thrust::fill(d.begin(), d.end(), 1.0f);
  } catch (thrust::system_error &e) {
    sum += static_cast<float>(e.code().value()) + (e.what()[0] != 0);
  }
  thrust::sort(keys.begin(), keys.end());
  thrust::sort(thrust::device, keys.begin(), keys.end(), thrust::greater<int>());
  thrust::stable_sort(h.begin(), h.end());
  thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
  thrust::stable_sort_by_key(thrust::device, keys.begin(), keys.end(), vals.begin(), thrust::less<int>());
  thrust::inclusive_scan(keys.begin(), keys.end(), vals.begin());
  thrust::inclusive_scan(thrust::device, keys.begin(), keys.end(), vals.begin(), thrust::maximum<int>());
  thrust::exclusive_scan(keys.begin(), keys.end(), vals.begin());
  thrust::exclusive_scan(keys.begin(), keys.end(), vals.begin(), 5);
  thrust::exclusive_scan(thrust::device, keys.begin(), keys.end(), vals.begin(), 5, thrust::plus<int>());
  thrust::inclusive_scan_by_key(keys.begin(), keys.end(), vals.begin(), out_v.begin());
  thrust::exclusive_scan_by_key(keys.begin(), keys.end(), vals.begin(), out_v.begin());
  auto ends = thrust::reduce_by_key(keys.begin(), keys.end(), vals.begin(), out_k.begin(), out_v.begin());
  (void)ends;
  thrust::copy(d.begin(), d.end(), h.begin());
  thrust::copy(h.begin(), h.end(), d.begin());
  thrust::copy_n(thrust::device, d.begin(), n, e.begin());
  auto end = thrust::copy_if(keys.begin(), keys.end(), vals.begin(), IsOdd());
  end = thrust::copy_if(keys.begin(), keys.end(), vals.begin(), out_v.begin(), IsOdd());
  end = thrust::remove_if(keys.begin(), keys.end(), IsOdd());
  end = thrust::remove(keys.begin(), keys.end(), 3);
  end = thrust::unique(keys.begin(), keys.end());
  thrust::replace(keys.begin(), keys.end(), 1, 2);
  thrust::replace_if(keys.begin(), keys.end(), IsOdd(), 0);
  long c = thrust::count(keys.begin(), keys.end(), 4) + thrust::count_if(thrust::device, keys.begin(), keys.end(), IsOdd());
  auto mx = thrust::max_element(d.begin(), d.end());
  auto mn = thrust::min_element(thrust::device, d.begin(), d.end());
  auto mm = thrust::minmax_element(d.begin(), d.end());
  auto f = thrust::find(keys.begin(), keys.end(), 3);
  bool ok = thrust::all_of(keys.begin(), keys.end(), IsOdd()) || thrust::any_of(keys.begin(), keys.end(), IsOdd()) ||
            thrust::none_of(keys.begin(), keys.end(), IsOdd()) || thrust::is_sorted(keys.begin(), keys.end()) ||
            thrust::equal(keys.begin(), keys.end(), vals.begin());
  thrust::gather(keys.begin(), keys.end(), vals.begin(), out_v.begin());
  thrust::scatter(vals.begin(), vals.end(), keys.begin(), out_v.begin());
  thrust::for_each(d.begin(), d.end(), [](float &x) { x += 1; });
  thrust::adjacent_difference(keys.begin(), keys.end(), vals.begin());
  thrust::reverse(keys.begin(), keys.end());
  // fancy iterators
  auto zip = thrust::make_zip_iterator(thrust::make_tuple(keys.begin(), vals.begin()));
  thrust::for_each(zip, zip + n, [](auto t) { thrust::get<0>(t) = thrust::get<1>(t); });
  auto counting = thrust::make_counting_iterator(0);
  thrust::copy(thrust::device, counting, counting + n, keys.begin());
  auto squares = thrust::make_transform_iterator(d.begin(), Square());
  sum += thrust::reduce(squares, squares + n);
  thrust::transform_iterator<Square, float *> sq2(d.begin(), Square());
  (void)sq2;
  auto ones = thrust::make_constant_iterator(1);
  thrust::copy(thrust::device, ones, ones + n, vals.begin());
  auto perm = thrust::make_permutation_iterator(d.begin(), keys.begin());
  sum += thrust::reduce(thrust::device, perm, perm + n);
  thrust::default_random_engine rng(7);
  thrust::uniform_int_distribution<int> dist(0, 9);
  thrust::uniform_real_distribution<float> real(0.f, 1.f);
  sum += dist(rng) + real(rng);
  auto uk = thrust::unique_by_key(keys.begin(), keys.end(), vals.begin());
  auto uk2 = thrust::unique_by_key(thrust::device, keys.begin(), keys.end(), vals.begin(), thrust::equal_to<int>());
  thrust::shuffle(h.begin(), h.end(), thrust::default_random_engine(3));
  thrust::shuffle(thrust::device, keys.begin(), keys.end(), rng);
  thrust::complex<float> z(1.0f, 2.0f);
  sum += thrust::abs(z) + thrust::norm(z) + thrust::conj(z).imag();
  thrust::iterator_difference<int *>::type diff = uk.first - keys.begin() + (uk2.second - vals.begin());
  static_assert(THRUST_VERSION >= 200000, "a modern Thrust API level");
  thrust::tuple<int, float> t = thrust::make_tuple(1, 2.0f);
  thrust::pair<int, int> pr = thrust::make_pair(1, 2);
  return int(sum) + int(c) + ok + int(*mx) + int(*mn) + int(*mm.first) + int(f - keys.begin()) + int(end - keys.begin()) +
         thrust::get<0>(t) + pr.first + int(thrust::distance(d.begin(), d.end())) + int(diff);
}
