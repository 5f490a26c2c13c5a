// Instantiates every helper of runtime-headers/syclify/libcu.hpp (libcu++), so
// the host compile in tests/programs.rs checks them all against Intel's SYCL
// headers (templates are only checked when instantiated). main's checks of the
// complex arithmetic and the atomics run where the file is built against a
// SYCL runtime (the host's sycl:: math is in the runtime library); CI only
// compiles it.
#include <syclify/libcu.hpp>
#include <cstdio>

namespace cu = syclify::cuda;

template class cu::std::complex<float>;
template class cu::std::complex<double>;
template class cu::atomic_ref<int, cu::thread_scope_system>;
template class cu::atomic_ref<unsigned, cu::thread_scope_device>;
template class cu::atomic_ref<long long, cu::thread_scope_block>;
template class cu::atomic<int, cu::thread_scope_block>;
template class cu::atomic<unsigned long long>;
template class cu::barrier<cu::thread_scope_block>;
template class cu::pipeline<cu::thread_scope_block>;
template class cu::pipeline<cu::thread_scope_thread>;

template <class T> static bool complex_ops() {
  using C = cu::std::complex<T>;
  C a(T(1.5), T(-2)), b(T(0.5), T(3));
  C r = a + b - a * b / b;
  r += T(1);
  r -= b;
  r *= a;
  r /= b;
  r = r + T(1) - T(2) * r / T(3);
  C s = cu::std::sqrt(C(T(-4), T(0))), e = cu::std::exp(C(T(0), T(1))), l = cu::std::log(a), p = cu::std::pow(a, T(2)), q = cu::std::polar(T(2), T(0.5));
  T n = cu::std::abs(a) + cu::std::norm(a) + cu::std::arg(a) + cu::std::real(a) + cu::std::imag(a);
  C c = cu::std::conj(a) + cu::std::proj(a) + -a + +a;
  std::complex<T> st = a;
  C back = st;
  // (1.5 - 2i)(0.5 + 3i) = 6.75 + 3.5i; sqrt(-4) is 2i up to rounding (polar form); 1/0 is infinite
  C inf = C(T(1), T(0)) / C(T(0), T(0));
  bool ok = (a * b == C(T(6.75), T(3.5))) && a * b != C(T(0)) && s.imag() == T(2) && s.real() <= T(1e-6) && s.real() >= T(-1e-6) && back == a &&
            sycl::isinf(inf.real()) && n == n && r == r && e == e && l == l && p == p && q == q && c == c;
  return ok;
}

// floating-point atomics have no bitwise operations (as in CUDA): the rest
template <class T> static T float_atomics(T &x) {
  cu::atomic_ref<T, cu::thread_scope_device> r(x);
  T e = r.load();
  r.compare_exchange_strong(e, T(2)); // 2
  T sum = r.fetch_add(T(1));          // 2, then 3
  sum += r.fetch_sub(T(1));           // 3, then 2
  sum += r.exchange(T(3));            // 2, then 3
  sum += r.fetch_min(T(0));           // 3, then 0
  sum += r.fetch_max(T(5));           // 0, then 5
  return sum + (r += T(1));           // 6: 16 in all
}

static bool atomics() {
  int i = 5;
  cu::atomic_ref<int, cu::thread_scope_device> r(i);
  r.store(7, cu::std::memory_order_release);
  int e = 7;
  bool swapped = r.compare_exchange_strong(e, 9, cu::std::memory_order_acq_rel, cu::std::memory_order_relaxed) &&
                 !r.compare_exchange_weak(e, 1, cu::std::memory_order_relaxed);
  int got = r.exchange(3); // 9, then 3
  got += r.fetch_add(1);   // 3, then 4
  got += r.fetch_sub(1);   // 4, then 3
  got += r.fetch_and(7);   // 3, then 3
  got += r.fetch_or(8);    // 3, then 11
  got += r.fetch_xor(1);   // 11, then 10
  got += r.fetch_min(2);   // 10, then 2
  got += r.fetch_max(4);   // 2, then 4
  r++;
  ++r;
  r--;
  --r;
  r += 2;
  r -= 2;
  r &= 0xff;
  r |= 0;
  r ^= 0;
  cu::atomic<int> a(1);
  a = 2;
  int ae = 2;
  a.compare_exchange_weak(ae, 4);
  a.compare_exchange_strong(ae, 4, cu::std::memory_order_seq_cst, cu::std::memory_order_relaxed);
  int total = a.load();  // 4
  total += a.exchange(5); // 4, then 5
  total += a.fetch_add(1); // 5, then 6
  total += a.fetch_sub(1); // 6, then 5
  total += a.fetch_and(3); // 5, then 1
  total += a.fetch_or(1);  // 1, then 1
  total += a.fetch_xor(1); // 1, then 0
  total += a.fetch_min(0); // 0, then 0
  total += a.fetch_max(9); // 0, then 9
  a++;
  ++a;
  a--;
  --a;
  a += 1;
  a -= 1;
  a &= 15;
  a |= 0;
  a ^= 0;
  cu::atomic_thread_fence(cu::std::memory_order_seq_cst, cu::thread_scope_device);
  cu::atomic_thread_fence(cu::std::memory_order_relaxed);
  return swapped && got == 9 + 3 + 4 + 3 + 3 + 11 + 10 + 2 && i == 4 && a.is_lock_free() && total == 4 + 4 + 5 + 6 + 5 + 1 + 1 + 0 + 0 && a.load() == 9;
}

static void device_only(const sycl::nd_item<3> &item, int *in, int *out) {
  auto block = syclify::cg::this_thread_block(item);
  cu::barrier<cu::thread_scope_block> &bar = *reinterpret_cast<cu::barrier<cu::thread_scope_block> *>(out + 64);
  init(&bar, 32);
  auto t = bar.arrive(2);
  bar.wait(std::move(t));
  bar.arrive_and_wait();
  bar.arrive_and_drop();
  cu::memcpy_async(out, in, 16, bar);
  cu::memcpy_async(block, out, in, cu::aligned_size_t<16>(64), bar);
  cu::pipeline_shared_state<cu::thread_scope_block, 2> &st = *reinterpret_cast<cu::pipeline_shared_state<cu::thread_scope_block, 2> *>(out + 128);
  cu::pipeline<cu::thread_scope_block> p = cu::make_pipeline(block, &st), q = cu::make_pipeline(block, &st, cu::pipeline_role::producer),
                                       w = cu::make_pipeline(block, &st, std::size_t(4));
  p.producer_acquire();
  cu::memcpy_async(block, out, in, 64, p);
  p.producer_commit();
  p.consumer_wait();
  p.consumer_wait_for(1);
  p.consumer_release();
  cu::pipeline_consumer_wait_prior<0>(q);
  cu::pipeline_producer_commit(w, bar);
  cu::pipeline<cu::thread_scope_thread> tp = cu::make_pipeline();
  tp.producer_acquire();
  cu::memcpy_async(out, in, 4, tp);
  tp.producer_commit();
  tp.consumer_wait();
  tp.consumer_release();
  (void)tp.quit();
  syclify::pipeline_memcpy_async(out, in, 16);
  syclify::pipeline_memcpy_async(out, in, 8);
  syclify::pipeline_memcpy_async(out, in, 4);
  syclify::pipeline_memcpy_async(out, in, 16, 4);
  syclify::pipeline_commit();
  syclify::pipeline_wait_prior(0);
}

int main() {
  (void)&device_only;
  cu::std::array<int, 2> arr = {1, 2};
  cu::std::tuple<int, float> tup = cu::std::make_tuple(arr[1], 2.5f);
  float f = 1.0f;
  double d = 1.0;
  bool ok = complex_ops<float>() && complex_ops<double>() && atomics() && cu::std::get<0>(tup) == 2 && float_atomics(f) == 16.0f && float_atomics(d) == 16.0;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
