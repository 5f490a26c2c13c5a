// Host cost of one launch: syclify::launch (what a migrated `k<<<g, b>>>()`
// becomes) against the same tiny kernel submitted directly in SYCL in several
// ways, each on an in-order queue. The variants run in alternating rounds of
// 20,000 launches and each prints its fastest round, so that drift of the
// machine (frequency, other load) hits all alike (issue H, item 1: a migrated
// launch should cost what a hand-written queue.parallel_for costs).
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>
#include <string>
#include <syclify/syclify.hpp>
int main() {
  const int n = 256, per = 20000, rounds = 9;
  sycl::queue plain{sycl::property::queue::in_order{}};
  sycl::device d = plain.get_device();
  sycl::queue ctxq(sycl::context(d), d, sycl::property_list{sycl::property::queue::in_order{}});
  sycl::queue mq = syclify::detail::make_queue(sycl::context(d), d);
  sycl::queue hq(d, syclify::detail::async_handler, sycl::property_list{sycl::property::queue::in_order{}});
  sycl::queue &dq = syclify::default_queue();
  float *xp = sycl::malloc_device<float>(n, plain), *xc = sycl::malloc_device<float>(n, ctxq), *xm = sycl::malloc_device<float>(n, mq),
        *xh = sycl::malloc_device<float>(n, hq), *xd = sycl::malloc_device<float>(n, dq);
  sycl::range<3> grid(1, 1, 1), block(1, 1, 256);
  struct V { std::string name; sycl::queue *q; std::function<void()> f; double best = 1e9; };
  std::vector<V> v;
  v.push_back({"A queue.parallel_for, nd_range<1>", &plain, [&] { float *x = xp; plain.parallel_for(sycl::nd_range<1>(256, 256), [=](sycl::nd_item<1> it) { int i = it.get_global_id(0); if (i < n) x[i] += 1.0f; }); }});
  v.push_back({"B queue A, submit, nd_range<3>", &plain, [&] { float *x = xp; plain.submit([&](sycl::handler &cgh) { cgh.parallel_for(sycl::nd_range<3>({1, 1, 256}, {1, 1, 256}), [=](sycl::nd_item<3> it) { int i = it.get_global_id(2); if (i < n) x[i] += 1.0f; }); }); }});
  v.push_back({"C queue with its own context", &ctxq, [&] { float *x = xc; ctxq.submit([&](sycl::handler &cgh) { cgh.parallel_for(sycl::nd_range<3>({1, 1, 256}, {1, 1, 256}), [=](sycl::nd_item<3> it) { int i = it.get_global_id(2); if (i < n) x[i] += 1.0f; }); }); }});
  v.push_back({"D queue as syclify makes one", &mq, [&] { float *x = xm; mq.submit([&](sycl::handler &cgh) { cgh.parallel_for(sycl::nd_range<3>({1, 1, 256}, {1, 1, 256}), [=](sycl::nd_item<3> it) { int i = it.get_global_id(2); if (i < n) x[i] += 1.0f; }); }); }});
  v.push_back({"E queue with an async handler", &hq, [&] { float *x = xh; hq.submit([&](sycl::handler &cgh) { cgh.parallel_for(sycl::nd_range<3>({1, 1, 256}, {1, 1, 256}), [=](sycl::nd_item<3> it) { int i = it.get_global_id(2); if (i < n) x[i] += 1.0f; }); }); }});
#ifdef ACPP_EXT_COARSE_GRAINED_EVENTS
  v.push_back({"F queue A, coarse-grained event", &plain, [&] { float *x = xp; plain.submit(sycl::property_list{sycl::property::command_group::AdaptiveCpp_coarse_grained_events{}}, [&](sycl::handler &cgh) { cgh.parallel_for(sycl::nd_range<3>({1, 1, 256}, {1, 1, 256}), [=](sycl::nd_item<3> it) { int i = it.get_global_id(2); if (i < n) x[i] += 1.0f; }); }); }});
#endif
  v.push_back({"G syclify::launch on the default queue", &dq, [&] { float *x = xd; syclify::launch(syclify::default_queue(), [&](sycl::handler &cgh) { cgh.parallel_for(syclify::launch_range(grid, block), [=](sycl::nd_item<3> it) { int i = it.get_global_id(2); if (i < n) x[i] += 1.0f; }); }); }});
  v.push_back({"H syclify::launch on queue A", &plain, [&] { float *x = xp; syclify::launch(plain, [&](sycl::handler &cgh) { cgh.parallel_for(syclify::launch_range(grid, block), [=](sycl::nd_item<3> it) { int i = it.get_global_id(2); if (i < n) x[i] += 1.0f; }); }); }});
  for (auto &e : v) { for (int r = 0; r < 500; ++r) e.f(); e.q->wait(); }
  for (int round = 0; round < rounds; ++round)
    for (auto &e : v) {
      auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < per; ++r) e.f();
      e.q->wait();
      double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / per;
      if (us < e.best) e.best = us;
    }
  for (auto &e : v)
    printf("wall: %s %.5f ms\n", e.name.c_str(), e.best / 1000.0);
  printf("PASS\n");
  return 0;
}
