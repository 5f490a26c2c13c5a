// Every cuRAND host-API helper of syclify/rand.hpp instantiated: every
// generator type, seed/offset/stream/ordering, every distribution;
// host-compiled against Intel's SYCL headers and oneMKL's by tests/programs.rs. Not run.
#include <sycl/sycl.hpp>
#include <syclify/rand.hpp>

int all(syclify::stream_t s, float *f, double *d, unsigned *u, std::size_t n) {
  namespace r = syclify::rand;
  r::generator_t g;
  int st = 0, v;
  for (r::rng_type_t t : {r::rng_pseudo_default, r::rng_pseudo_xorwow, r::rng_pseudo_mrg32k3a, r::rng_pseudo_mt19937, r::rng_pseudo_philox4_32_10,
                          r::rng_quasi_sobol32}) {
    st |= r::create_generator(&g, t);
    st |= r::set_stream(g, s);
    st |= r::set_pseudo_random_generator_seed(g, 1234ULL);
    st |= r::set_generator_offset(g, 10ULL);
    st |= r::set_generator_ordering(g, r::ordering_pseudo_default);
    st |= r::set_quasi_random_generator_dimensions(g, 2);
    st |= r::generate(g, u, n);
    st |= r::generate_uniform(g, f, n);
    st |= r::generate_uniform_double(g, d, n);
    st |= r::generate_normal(g, f, n, 0.0f, 1.0f);
    st |= r::generate_normal_double(g, d, n, 1.0, 2.0);
    st |= r::generate_log_normal(g, f, n, 0.0f, 1.0f);
    st |= r::generate_log_normal_double(g, d, n, 0.0, 0.5);
    st |= r::generate_poisson(g, u, n, 4.0);
    st |= r::destroy_generator(g);
  }
  st |= r::create_generator_host(&g, r::rng_pseudo_default) | r::destroy_generator(g) | r::get_version(&v);
  return st + v;
}
