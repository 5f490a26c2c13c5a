// Every cuRAND device-API helper of syclify/rand_kernel.hpp called in a
// kernel, for each state type; host-compiled against Intel's SYCL headers
// by tests/programs.rs (run on the H100 through the curand_device fixture).
#include <sycl/sycl.hpp>
#include <syclify/rand_kernel.hpp>

template <class State> void draws(sycl::queue &q, State *states, float *f, double *d, unsigned *u) {
  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) {
    namespace r = syclify::rand;
    State s;
    r::init(1234ULL, i[0], 0ULL, &s);
    u[i] = r::generate(&s) + r::generate4(&s).x + r::poisson(&s, 3.5) + r::poisson(&s, 100.0);
    f[i] = r::uniform(&s) + r::uniform4(&s).w + r::normal(&s) + r::normal2(&s).y + r::normal4(&s).z + r::log_normal(&s, 0.0f, 1.0f);
    d[i] = r::uniform_double(&s) + r::uniform2_double(&s).x + r::normal_double(&s) + r::normal2_double(&s).y + r::log_normal_double(&s, 0.0, 1.0);
    r::skipahead(10ULL, &s);
    r::skipahead_sequence(2ULL, &s);
    states[i] = s;
  });
}

void all(sycl::queue &q, float *f, double *d, unsigned *u, void *mem) {
  draws(q, static_cast<syclify::rand::philox4x32_10_state *>(mem), f, d, u);
  draws(q, static_cast<syclify::rand::xorwow_state *>(mem), f, d, u);
  draws(q, static_cast<syclify::rand::mrg32k3a_state *>(mem), f, d, u);
}
