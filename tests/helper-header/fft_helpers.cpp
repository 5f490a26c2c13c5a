// Every cuFFT helper of syclify/fft.hpp called: plans of every kind and
// type, the work-area calls, every transform in and out of place;
// host-compiled against Intel's SYCL headers and oneMKL's by tests/programs.rs. Not run.
#include <sycl/sycl.hpp>
#include <syclify/fft.hpp>

int all(syclify::stream_t s, float *r, double *d, syclify::float2 *c, syclify::double2 *z) {
  namespace f = syclify::fft;
  f::handle_t p1, p2, p3, pm, pc;
  int n[2] = {8, 6}, embed[2] = {8, 8}, v = 0;
  std::size_t work;
  int st = f::plan_1d(&p1, 16, f::c2c, 4) | f::plan_2d(&p2, 8, 6, f::r2c) | f::plan_3d(&p3, 4, 4, 4, f::z2z);
  st |= f::plan_many(&pm, 2, n, embed, 1, 64, embed, 1, 64, f::d2z, 3);
  st |= f::create(&pc) | f::make_plan_1d(pc, 32, f::c2r, 2, &work) | f::make_plan_2d(pc, 4, 4, f::z2d, &work);
  st |= f::make_plan_3d(pc, 2, 2, 2, f::c2c, &work) | f::make_plan_many(pc, 1, n, nullptr, 1, 0, nullptr, 1, 0, f::r2c, 1, &work);
  st |= f::set_stream(p1, s) | f::set_work_area(p1, r) | f::set_auto_allocation(p1, 0) | f::no_work_area(&work) | f::get_version(&v);
  st |= f::exec_c2c(p1, c, c, f::forward) | f::exec_c2c(p1, c, c + 64, f::inverse) | f::exec_z2z(p3, z, z, f::forward);
  st |= f::exec_r2c(p2, r, c) | f::exec_c2r(pc, c, r) | f::exec_d2z(pm, d, z) | f::exec_z2d(pm, z, d);
  st |= f::destroy(p1) | f::destroy(p2) | f::destroy(p3) | f::destroy(pm) | f::destroy(pc);
  return st + v;
}
