// benches/gpu/launch_bound written directly in SYCL 2020, the way a person
// would: an in-order queue and parallel_for over a 1-D nd_range. The
// reference a migrated launch is measured against (issue H, item 1). Prints
// the host wall time per launch on a plain in-order queue (the reference),
// and, to show what queue properties cost, on one with profiling enabled and
// (AdaptiveCpp) one with coarse-grained events.
#include <chrono>
#include <cstdio>
#include <sycl/sycl.hpp>

static double run(sycl::queue &q, int launches)
{
    const int n = 256;
    float *x = sycl::malloc_device<float>(n, q);
    q.memset(x, 0, n * sizeof(float)).wait();
    auto launch = [&] {
        q.parallel_for(sycl::nd_range<1>(256, 256), [=](sycl::nd_item<1> it) {
            int i = it.get_global_id(0);
            if (i < n)
                x[i] += 1.0f;
        });
    };
    for (int r = 0; r < 100; ++r)
        launch();
    q.wait();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < launches; ++r)
        launch();
    q.wait();
    auto t1 = std::chrono::steady_clock::now();
    float h[n];
    q.memcpy(h, x, sizeof h).wait();
    sycl::free(x, q);
    if (h[0] != (float)(launches + 100) || h[n - 1] != (float)(launches + 100))
        printf("FAIL: %f\n", h[0]);
    return std::chrono::duration<double, std::milli>(t1 - t0).count() / launches;
}

int main()
{
    const int launches = 100000;
    sycl::queue plain{sycl::property::queue::in_order{}};
    sycl::queue profiled{sycl::property_list{sycl::property::queue::in_order{}, sycl::property::queue::enable_profiling{}}};
    printf("wall: tiny %.5f ms\n", run(plain, launches));
    printf("wall: tiny (profiling queue) %.5f ms\n", run(profiled, launches));
#ifdef ACPP_EXT_COARSE_GRAINED_EVENTS
    sycl::queue coarse{sycl::property_list{sycl::property::queue::in_order{}, sycl::property::queue::AdaptiveCpp_coarse_grained_events{}}};
    printf("wall: tiny (coarse-grained events) %.5f ms\n", run(coarse, launches));
#endif
    return 0;
}
