// Instantiates every helper of runtime-headers/syclify/syclify.hpp, so the
// host compile in tests/programs.rs checks them all against Intel's SYCL
// headers (templates are only checked when instantiated).
#include <syclify/syclify.hpp>
#include <cstdlib>
#include <cstring>

syclify::symbol<float[4]> table({1, 2, 3, 4});
syclify::symbol<int> counter;
syclify::managed_symbol<int> flag;

// A program's own functions named like helpers, called unqualified on syclify
// types: each is the only candidate (the value types live in syclify::types,
// where argument-dependent lookup finds operators only, never a helper).
static syclify::bfloat162 hmul2(syclify::bfloat162 a, syclify::bfloat162 b) { return a * b; }
static syclify::half2 hadd2(syclify::half2 a, syclify::half2 b) { return a + b; }
static syclify::float4 make_float4(float v) { return syclify::make_float4(v, v, v, v); }

static void device_side(const sycl::nd_item<3> &item, int *i, unsigned *u, float *f, double *d, unsigned long long *ull, unsigned short *us,
                        sycl::half h, syclify::half2 h2, syclify::bfloat16 b) {
  // 5. barriers
  int c = syclify::syncthreads_count(item, 1) + syclify::syncthreads_and(item, 1) + syclify::syncthreads_or(item, 0);
  // 7. warp primitives
  double x = syclify::shfl(item, 0xffu, *d, 0, 8) + syclify::shfl_up(item, 0xffffffffu, *d, 1u) + syclify::shfl_down(item, 3u, *d, 1u, 4) +
             syclify::shfl_xor(item, 0xffffffffu, *d, 1, 16);
  sycl::half hs = syclify::shfl_down(item, 0xffffffffu, h, 1u);
  unsigned v = syclify::ballot(item, 0xffffffffu, c) + syclify::all(item, 1u, 1) + syclify::any(item, 1u, 0) + syclify::activemask(item) +
               syclify::match_any(item, 0xffffffffu, *i) + syclify::match_any(item, 0xffffffffu, *ull);
  int pred;
  v += syclify::match_all(item, 0xffffffffu, *u, &pred);
  syclify::syncwarp(item);
  syclify::syncwarp(item, 0xffu);
  // 8. atomics and fences
  syclify::threadfence<sycl::memory_scope::work_group>();
  syclify::threadfence<sycl::memory_scope::device>();
  syclify::threadfence<sycl::memory_scope::system>();
  syclify::atomic_add(i, 1);
  syclify::atomic_add(f, 0.25f);
  syclify::atomic_add(d, 1.0);
  syclify::atomic_add(ull, 1ull);
  syclify::atomic_add<sycl::memory_scope::work_group>(u, 1u);
  syclify::atomic_sub(i, 1);
  syclify::atomic_exch(f, 1.0f);
  syclify::atomic_min(u, 3u);
  syclify::atomic_max<sycl::memory_scope::system>(i, 3);
  syclify::atomic_and(u, 1u);
  syclify::atomic_or(i, 2);
  syclify::atomic_xor(u, 3u);
  syclify::atomic_inc(u, 7u);
  syclify::atomic_dec(u, 7u);
  syclify::atomic_cas(i, 1, 2);
  syclify::atomic_cas(us, 1, 2);
  syclify::atomic_cas(ull, 1ull, 2ull);
  syclify::nv_atomic_load_n(ull, syclify::nv_atomic_relaxed);
  syclify::nv_atomic_load_n(i, syclify::nv_atomic_acquire, syclify::nv_thread_scope_block);
  syclify::nv_atomic_store_n(i, 3, syclify::nv_atomic_release);
  syclify::nv_atomic_exchange_n(u, 3u, syclify::nv_atomic_seq_cst, syclify::nv_thread_scope_device);
  syclify::nv_atomic_fetch_add(i, 1, syclify::nv_atomic_relaxed);
  syclify::nv_atomic_fetch_max(ull, 1ull, syclify::nv_atomic_acq_rel, syclify::nv_thread_scope_system);
  // 9. math
  float s, co;
  syclify::sincos(1.0f, &s, &co);
  syclify::sincospi(1.0f, &s, &co);
  syclify::native_sincos(1.0f, &s, &co);
  *f = syclify::saturate(2.0f) + syclify::popc(5u) + syclify::popc(5ll) + syclify::clz(1) + syclify::ffs(8ll) + syclify::brev(1u) +
       syclify::sad(1, 2, 3u) + syclify::byte_perm(1u, 2u, 0x3210u) + syclify::mul_hi(3u, 4u) + syclify::mul_hi(3ll, 4ll) + syclify::mul24(3, 4) +
       syclify::hadd(1, 2) + syclify::rhadd(1u, 2u) + syclify::min(1, 2u) + syclify::max(1.0f, 2) + syclify::abs(-3) + syclify::abs(-1.5f) +
       syclify::convert<int, sycl::rounding_mode::rte>(2.5f) + syclify::convert<unsigned, sycl::rounding_mode::rtz>(2.5) +
       syclify::convert<float, sycl::rounding_mode::rtz>(3ll) + syclify::double_hi(1.0) + syclify::double_lo(1.0) +
       static_cast<float>(syclify::hilo_to_double(1, 2));
  // 10, 11. vector, half and bfloat16 types
  syclify::float4 f4 = syclify::make_float4(1, 2, 3, 4);
  syclify::float3 f3 = syclify::make_float3(1, 2, 3);
  syclify::uchar4 c4 = syclify::make_uchar4(1, 2, 3, 4);
  syclify::double2 d2 = syclify::make_double2(1, 2);
  syclify::half2 p = syclify::hfma2(syclify::hmul2(h2, h2), syclify::hadd2(h2, h2), syclify::hsub2(h2, syclify::hneg2(syclify::habs2(h2))));
  sycl::half q = syclify::hfma(syclify::hadd(h, h), syclify::hmul(h, h), syclify::hdiv(syclify::hsub(h, h), syclify::hmax(h, syclify::hmin(h, syclify::habs(syclify::hneg(h))))));
  syclify::half2 r = syclify::h2div(p, p);
  float bf = static_cast<float>(b) + static_cast<float>(syclify::bfloat16(2.0f));
  // half2/bfloat162 operators, comparisons, saturation, conversions, math, atomics
  syclify::bfloat162 b2{syclify::bfloat16(1.0f), syclify::bfloat16(2.0f)};
  syclify::half2 cmp = syclify::hgt2(p, r) + syclify::hequ2(p, r) - syclify::hisnan2(p) * syclify::hmax2_nan(p, r) / syclify::hmin2(p, r);
  cmp += -cmp;
  unsigned masks = syclify::hle2_mask(p, r) | syclify::hneu2_mask(b2, b2) | syclify::hbgt2(p, r) | syclify::hbltu2(b2, b2) | syclify::hne(h, h);
  syclify::half2 sat = syclify::hfma2_sat(p, r, cmp) + syclify::hfma2_relu(p, r, cmp) + syclify::hadd2_sat(p, r) + syclify::hcmadd(p, r, cmp);
  syclify::bfloat162 bmath = syclify::h2sqrt(b2) + syclify::hmax2(b2, b2) * syclify::hfma2(b2, b2, b2) - syclify::h2exp(b2);
  syclify::bfloat162 own = hmul2(b2, syclify::bfloat162(1.0f, 2.0f));
  syclify::half2 own2 = hadd2(p, syclify::half2(h, h));
  syclify::float4 own4 = make_float4(1.0f);
  // fp8
  syclify::fp8x4_e4m3 f8(own, own);
  syclify::fp8x2_e5m2 f82(own2);
  float f8v = float(syclify::fp8_e5m2(1.5f)) + float(syclify::float4(f8).x) + float(syclify::float2(f82).y) + float(syclify::cvt_fp8_to_halfraw(syclify::cvt_float_to_fp8(own4.x, syclify::SATFINITE, syclify::E4M3), syclify::E4M3));
  (void)f8v;
  syclify::bfloat16 bsc = syclify::hadd(syclify::hsqrt(b), syclify::hmax(b, b));
  bsc += 1.0f;
  float conv = static_cast<float>(syclify::to_half(3.3, sycl::rounding_mode::rtn)) + static_cast<float>(syclify::to_bfloat16(1.1, sycl::rounding_mode::rtp)) +
               static_cast<float>(syclify::hrcp(h)) + static_cast<float>(syclify::hmax_nan(h, h)) + static_cast<float>(syclify::hfma_relu(h, h, h));
  syclify::atomic_add(&p, sat);
  syclify::atomic_add(&h, q);
  syclify::atomic_add<sycl::memory_scope::work_group>(&b2, bmath);
  syclify::atomic_add(&bsc, b);
  // SIMD within a word
  unsigned simd = syclify::vaddss4(1u, 2u) ^ syclify::vsubus2(1u, 2u) ^ syclify::vcmpgtu4(1u, 2u) ^ syclify::vsetles2(1u, 2u) ^ syclify::vsads4(1u, 2u) ^
                  syclify::vabsss2(3u) ^ syclify::vnegss4(3u) ^ syclify::vavgs2(1u, 2u) ^ syclify::vhaddu4(1u, 2u) ^ syclify::vimax3_s16x2_relu(1u, 2u, 3u) ^
                  static_cast<unsigned>(syclify::viaddmax_s32(1, 2, 3)) ^ syclify::viaddmin_u16x2(1u, 2u, 3u);
  bool hi = false, lo = false;
  simd ^= syclify::vibmax_s16x2(1u, 2u, &hi, &lo) ^ static_cast<unsigned>(syclify::vibmin_s32(1, 2, &hi));
  *f += conv + static_cast<float>(masks + simd) + static_cast<float>(bsc);
  // 12. cooperative groups
  namespace cg = syclify::cg;
  cg::thread_block block = cg::this_thread_block(item);
  block.sync();
  cg::sync(block);
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int t = cg::reduce(tile, static_cast<int>(tile.thread_rank()), cg::plus<int>()) + cg::reduce(tile, 1, cg::less<int>()) +
          cg::reduce(tile, 1, cg::greater<int>()) + cg::reduce(tile, 1, cg::bit_and<int>()) + cg::reduce(tile, 1, cg::bit_or<int>()) +
          cg::reduce(tile, 1, cg::bit_xor<int>()) + tile.shfl(1, 0) + tile.shfl_up(1, 1u) + tile.shfl_down(1, 1u) + tile.shfl_xor(1, 1) +
          tile.any(1) + tile.all(1) + static_cast<int>(tile.ballot(1) + tile.size() + tile.num_threads() + tile.meta_group_rank() +
                                                       tile.meta_group_size() + block.thread_rank() + block.size() + block.num_threads());
  tile.sync();
  cg::coalesced_group active = cg::coalesced_threads(item);
  t += static_cast<int>(active.size() + active.num_threads() + active.thread_rank() + active.ballot(1)) + active.any(1) + active.all(1);
  active.sync();
  t += active.shfl(t, 0u) + active.shfl_up(t, 1u) + active.shfl_down(t, 1u) + static_cast<int>(active.meta_group_rank() + active.meta_group_size());
  t += cg::reduce(active, t, cg::plus<int>()) + cg::inclusive_scan(tile, t) + cg::exclusive_scan(tile, t, cg::bit_or<int>()) +
       cg::inclusive_scan(active, t, cg::greater<int>()) + cg::exclusive_scan(active, t);
  int matched = 0;
  t += static_cast<int>(active.match_any(t) + active.match_all(t, matched));
  cg::thread_group any_group = cg::tiled_partition(block, 8u);
  cg::thread_group whole = block;
  cg::thread_group from_tile = tile;
  any_group.sync();
  t += static_cast<int>(any_group.thread_rank() + any_group.size() + whole.num_threads() + from_tile.size() + cg::tiled_partition(any_group, 4u).size());
  cg::thread_block_tile<4> small = cg::tiled_partition<4>(tile);
  t += static_cast<int>(small.thread_rank());
  // warp reductions (__reduce_*_sync) and __nanosleep
  t += syclify::reduce_add_sync(item, 0xffffffffu, t) + syclify::reduce_min_sync(item, 0xffu, t) + syclify::reduce_max_sync(item, 0xffffffffu, 3u) +
       static_cast<int>(syclify::reduce_and_sync(item, 0xffffffffu, 1u) | syclify::reduce_or_sync(item, 0xffu, 2u) | syclify::reduce_xor_sync(item, 0xffffffffu, 4u));
  syclify::nanosleep(100);
  // 13. device printf and assert
  SYCLIFY_PRINTF("%d %f %f %d\n", t, f4.x + f3.z + c4.w + d2.y + static_cast<float>(q) + static_cast<float>(r.x) + bf + static_cast<float>(hs) + static_cast<float>(x), s, static_cast<int>(v));
  SYCLIFY_ASSERT(t >= 0);
}

// CUDA host code calls C's classification functions unqualified (CUDA's
// runtime header includes <math.h>); the helper header keeps that
bool host_classification(double x, float y) { return isfinite(x) && !isnan(y) && !isinf(x) && !signbit(y); }

// 17. graphs (graph.hpp): the templates among them, and the forms of the calls
static void graphs(syclify::stream_t s, float *p) {
  syclify::graph_t g, c;
  syclify::graph_create(&g);
  syclify::graph_node_t a, b, n[4];
  float x = 1;
  syclify::graph_add_memcpy_node_to_symbol(&a, g, nullptr, 0, table, &x, sizeof(float), 4);
  syclify::graph_add_memcpy_node_from_symbol(&b, g, &a, 1, &x, table, sizeof(float));
  syclify::graph_add_memcpy_node_1d(&n[0], g, &b, 1, p, &x, 4, syclify::memcpy_host_to_device);
  syclify::graph_add_empty_node(&n[1], g, n, 1);
  syclify::graph_add_dependencies(g, &a, &n[1], nullptr, 1);
  syclify::graph_remove_dependencies(g, &a, &n[1], 1);
  std::size_t count = 4;
  syclify::graph_get_edges(g, n, n + 2, &count);
  syclify::graph_node_get_dependencies(n[1], nullptr, &count);
  syclify::graph_node_get_dependent_nodes(a, nullptr, nullptr, &count);
  syclify::graph_clone(&c, g);
  syclify::graph_debug_dot_print(c, "/dev/null");
  syclify::graph_exec_t e;
  syclify::graph_instantiate(&e, g, syclify::graph_instantiate_flag_auto_free_on_launch);
  syclify::graph_exec_memcpy_node_set_params_1d(e, n[0], p, &x, 4);
  syclify::graph_exec_update_result_info info;
  syclify::graph_exec_update(e, c, &info);
  syclify::graph_upload(e, s);
  syclify::graph_launch(e, s);
  syclify::stream_capture_status st;
  const syclify::graph_node_t *deps;
  syclify::stream_get_capture_info(s, &st, nullptr, nullptr, &deps, &count);
  syclify::graph_conditional_handle h;
  syclify::graph_conditional_handle_create(&h, g, 1, syclify::graph_cond_assign_default);
  unsigned long long used;
  syclify::device_get_graph_mem_attribute(0, syclify::graph_mem_attr_used_mem_high, &used);
  syclify::graph_exec_destroy(e);
  syclify::graph_destroy(c);
  syclify::graph_destroy(g);
}

int main() {
  (void)&graphs;
  // 1, 2, 3. queues, errors, memory
  float *p, *m, *hp;
  syclify::malloc_device(&p, 1024);
  syclify::malloc_shared(&m, 64);
  syclify::malloc_host(&hp, 64);
  syclify::usm_memcpy(p, hp, 64, syclify::memcpy_host_to_device);
  syclify::usm_memset(p, 0, 64);
  syclify::stream_t s;
  syclify::stream_create(&s);
  syclify::stream_create_with_flags(&s, 1u);
  // cudaStreamDefault, a flag, where a flag and where a stream is expected
  syclify::stream_create_with_flags(&s, syclify::stream_default);
  unsigned flags = syclify::stream_default | syclify::stream_non_blocking;
  switch (flags) {
  case syclify::stream_default: break;
  default: break;
  }
  syclify::stream_t as_stream = syclify::stream_default;
  syclify::memset_async(p, 0, 64, as_stream);
  syclify::memset_async(p, 0, 64, syclify::stream_default);
  syclify::stream_create_with_priority(&s, 0u, 0);
  int lo, hi;
  syclify::device_get_stream_priority_range(&lo, &hi);
  // 4. launch support
  syclify::launch(syclify::queue_of(s), [&](sycl::handler &cgh) {
    sycl::local_accessor<int, 1> ints(sycl::range<1>(64), cgh);
    auto dyn = syclify::dynamic_local_memory(256, cgh);
    auto table_ptr = table.get_ptr();
    auto counter_ptr = counter.get_ptr();
    cgh.parallel_for(syclify::launch_range(syclify::as_range3(2), syclify::as_range3(sycl::range<3>(1, 1, 32))),
                     [=](sycl::nd_item<3> item) {
                       int *li = syclify::local_ptr(ints);
                       unsigned char *bytes = syclify::local_bytes(dyn);
                       const float *tb = *table_ptr;
                       int &cnt = *counter_ptr;
                       device_side(item, li, reinterpret_cast<unsigned *>(bytes), p, reinterpret_cast<double *>(bytes), reinterpret_cast<unsigned long long *>(bytes),
                                   reinterpret_cast<unsigned short *>(bytes), sycl::half(tb[0]), syclify::half2{}, syclify::bfloat16(1.0f));
                       cnt += 1;
                     });
  });
  syclify::stream_query(s);
  syclify::stream_synchronize(s);
  // 14. events, memory, devices
  syclify::event_t a, b;
  syclify::event_create(&a);
  syclify::event_create_with_flags(&b, syclify::event_disable_timing);
  syclify::event_record(a, s);
  syclify::event_record(b);
  float ms;
  syclify::event_elapsed_time(&ms, a, b);
  syclify::event_query(a);
  syclify::event_synchronize(a);
  syclify::stream_wait_event(s, a, 0);
  syclify::event_destroy(a);
  syclify::memcpy_async(p, hp, 4, syclify::memcpy_default, s);
  syclify::memset_async(p, 0, 4, s);
  float *hp2;
  syclify::host_alloc(&hp2, 64, 0u);
  float *pp;
  std::size_t pitch;
  syclify::malloc_pitch(&pp, &pitch, 100, 4);
  syclify::memcpy_2d(pp, pitch, hp, 100, 100, 1);
  syclify::memcpy_2d_async(pp, pitch, hp, 100, 100, 1, syclify::memcpy_default, s);
  syclify::memset_2d(pp, pitch, 0, 10, 2);
  syclify::memcpy3d_parms parms = {};
  parms.srcPtr = syclify::make_pitched_ptr(hp, 16, 4, 1);
  parms.dstPtr = syclify::make_pitched_ptr(pp, pitch, 25, 4);
  parms.extent = syclify::make_extent(16, 1, 1);
  parms.srcPos = syclify::make_pos(0, 0, 0);
  syclify::memcpy_3d(&parms);
  std::size_t free_b, total_b;
  syclify::mem_get_info(&free_b, &total_b);
  syclify::mem_prefetch_async(m, 64, 0, s);
  float *pa;
  syclify::malloc_async(&pa, 64, s);
  syclify::free_async(pa, s);
  syclify::pointer_attributes attr;
  syclify::pointer_get_attributes(&attr, p);
  int n, dev;
  syclify::get_device_count(&n);
  syclify::set_device(0);
  syclify::get_device(&dev);
  syclify::device_prop prop;
  syclify::get_device_properties(&prop, dev);
  syclify::device_get_attribute(&n, syclify::dev_attr_multi_processor_count, dev);
  syclify::device_get_attribute(&n, syclify::dev_attr_compute_mode, dev);
  int can = prop.computeMode + prop.cooperativeLaunch;
  syclify::device_can_access_peer(&can, 0, 0);
  if (can) {
    syclify::device_enable_peer_access(0, 0);
    syclify::device_disable_peer_access(0);
  }
  syclify::mem_location loc{syclify::mem_location_type_device, dev};
  syclify::mem_prefetch_async(m, 64, loc, 0, s);
  float *mapped;
  syclify::host_get_device_pointer(&mapped, static_cast<void *>(hp), 0);
  syclify::mem_pool_t pool;
  syclify::device_get_default_mem_pool(&pool, dev);
  unsigned long long threshold = ~0ull;
  syclify::mem_pool_set_attribute(pool, syclify::mem_pool_attr_release_threshold, &threshold);
  syclify::mem_pool_get_attribute(pool, syclify::mem_pool_attr_release_threshold, &threshold);
  syclify::mem_pool_trim_to(pool, 0);
  syclify::malloc_from_pool_async(&pa, 64, pool, s);
  syclify::free_async(pa, s);
  long long ticks = syclify::device_clock();
  (void)ticks;
  syclify::graph_t graph;
  syclify::graph_exec_t exec;
  syclify::stream_begin_capture(s, syclify::stream_capture_mode_global);
  syclify::memset_async(p, 0, 64, s);
  syclify::memcpy_async(p, hp, 4, syclify::memcpy_default, s);
  syclify::stream_capture_status status;
  syclify::stream_is_capturing(s, &status);
  syclify::stream_end_capture(s, &graph);
  syclify::graph_instantiate(&exec, graph);
  syclify::graph_launch(exec, s);
  syclify::graph_exec_destroy(exec);
  syclify::graph_destroy(graph);
  syclify::graph_create(&graph, 0);
  syclify::graph_destroy(graph);
  syclify::pitched_ptr p3;
  syclify::malloc_3d(&p3, syclify::make_extent(20, 4, 2));
  syclify::memset_3d(p3, 0, syclify::make_extent(20, 4, 2));
  syclify::usm_free(p3.ptr);
  int grid, block;
  syclify::occupancy_max_potential_block_size(&grid, &block, device_side, 0, 0);
  syclify::occupancy_max_active_blocks_per_multiprocessor(&n, device_side, 256, 0);
  syclify::func_attributes fa;
  syclify::func_get_attributes(&fa, device_side);
  n += fa.maxThreadsPerBlock + fa.numRegs + static_cast<int>(fa.sharedSizeBytes);
  syclify::stream_attr_value av = {};
  av.accessPolicyWindow.base_ptr = &n;
  av.accessPolicyWindow.hitProp = syclify::access_property_persisting;
  n += static_cast<int>(syclify::stream_attribute_access_policy_window) + syclify::stream_non_blocking + syclify::device_blocking_sync;
  // 15. device globals
  float host_table[4];
  syclify::memcpy_to_symbol(table, host_table, sizeof(host_table));
  syclify::memcpy_from_symbol(host_table, table, sizeof(host_table), 0);
  syclify::memcpy_to_symbol_async(counter, &n, sizeof(n), 0, syclify::memcpy_host_to_device, s);
  syclify::memcpy_from_symbol_async(&n, counter, sizeof(n), 0, syclify::memcpy_device_to_host, s);
  int *cp;
  syclify::get_symbol_address(&cp, counter);
  std::size_t size;
  syclify::get_symbol_size(&size, table);
  (*flag.get_ptr()) = 1;
  syclify::stream_destroy(s);
  syclify::usm_free(p);
  // the user's own C library calls on arrays of syclify types stay unambiguous
  // (no helper named like a C library function is found by argument-dependent lookup)
  syclify::event_t *events = static_cast<syclify::event_t *>(malloc(4 * sizeof(syclify::event_t)));
  syclify::float4 v4[2];
  memcpy(v4, v4 + 1, sizeof(syclify::float4));
  memset(v4, 0, sizeof(v4));
  free(events);
  syclify::device_synchronize();
  const char *texts = syclify::get_error_string(syclify::peek_last_error());
  const char *names = syclify::get_error_name(syclify::get_last_error());
  (void)texts;
  (void)names;
  return syclify::device_reset();
}
