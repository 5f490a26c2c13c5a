// syclify Thrust helper header — shipped with code migrated from CUDA by
// syclify when that code used Thrust. Thrust's names in Thrust's spelling
// (`thrust::sort` becomes `syclify::thrust::sort`), implemented with oneDPL
// (Intel's oneAPI DPC++ Library: the C++17 parallel algorithms with SYCL
// device policies, and its fancy iterators).
//
// Needs oneDPL's headers (`-I` to them): DPC++ ships them; elsewhere the
// onedpl-devel wheel on PyPI or github.com/uxlfoundation/oneDPL. oneDPL
// 2022.14 does not build with AdaptiveCpp 24.06 (it needs
// sycl::is_device_copyable, sycl::ctz and local_accessor::get_multi_ptr).
//
// How Thrust's model maps:
//   * memory: device_vector<T> owns USM *shared* memory on the default
//     queue, so its elements (and `d[i]`, `*d.begin()`) are readable and
//     writable from the host as Thrust's device_reference makes them;
//     host_vector<T> is a std::vector<T> that converts to and from it;
//   * device_ptr<T> is T*, and raw_pointer_cast / device_pointer_cast are the
//     identity: oneDPL's device policies take USM pointers as they are;
//   * dispatch: Thrust picks the system from the iterators' types; here an
//     algorithm called without a policy runs on the device when one of its
//     iterator arguments is a USM device or shared pointer (asked of the SYCL
//     runtime, sycl::get_pointer_type) and none is a host container's
//     iterator; otherwise it runs sequentially on the host. thrust::device,
//     thrust::cuda::par(.on(stream)) force the device (the stream's queue),
//     thrust::host and thrust::seq the host;
//   * algorithms are synchronous, as Thrust's are (par_nosync aside, which
//     only Thrust's documentation distinguishes: it waits here too).
//
// Contents
//   1. Policies           device, host, seq, cuda::par(.on), cuda::par_nosync
//   2. Memory             device_ptr, device_vector, host_vector, raw/device_pointer_cast,
//                         device_malloc/device_free
//   3. Iterators, tuples  counting/constant/transform/zip/permutation/discard iterators,
//                         tuple, make_tuple, get, tie, pair
//   4. Function objects   plus, minus, multiplies, divides, modulus, negate, maximum,
//                         minimum, less, greater, equal_to, ..., identity
//   5. Algorithms         the C++17 ones oneDPL has (sort, reduce, scans, copy_if, ...),
//                         and Thrust's own: sequence, tabulate, sort_by_key,
//                         reduce_by_key, (in|ex)clusive_scan_by_key, gather, scatter,
//                         transform_reduce (Thrust's argument order)
//   6. Random numbers     default_random_engine, minstd_rand, uniform_int/real_distribution,
//                         normal_distribution (oneDPL's: the same sequences as Thrust's engines)
#pragma once

#include <sycl/sycl.hpp>

#include "syclify.hpp"

// The Thrust API level these helpers follow (Thrust 2.8's), for code that
// tests THRUST_VERSION to choose between API variants.
#ifndef THRUST_VERSION
#define THRUST_VERSION 200800
#define THRUST_MAJOR_VERSION 2
#define THRUST_MINOR_VERSION 8
#define THRUST_SUBMINOR_VERSION 0
#endif

#include <oneapi/dpl/algorithm>
#include <oneapi/dpl/execution>
#include <oneapi/dpl/functional>
#include <oneapi/dpl/iterator>
#include <oneapi/dpl/memory>
#include <oneapi/dpl/numeric>
#include <oneapi/dpl/random>

#include <algorithm>
#include <complex>
#include <functional>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace syclify {
namespace thrust {

// ---------------------------------------------------------------------------
// 1. Policies
// ---------------------------------------------------------------------------

struct device_t {
  stream_t stream = nullptr; // the queue the algorithm runs on (null: the default queue)
  device_t on(stream_t s) const { return device_t{s}; }
};
struct host_t {};
inline constexpr device_t device{};
inline constexpr host_t host{};
inline constexpr host_t seq{};
namespace cuda {
inline constexpr device_t par{};
inline constexpr device_t par_nosync{};
} // namespace cuda
namespace system {
namespace cuda {
using thrust::cuda::par;
using thrust::cuda::par_nosync;
} // namespace cuda
} // namespace system

namespace detail {
template <class T> inline constexpr bool is_policy_v = std::is_same_v<std::decay_t<T>, device_t> || std::is_same_v<std::decay_t<T>, host_t>;
} // namespace detail

// ---------------------------------------------------------------------------
// 2. Memory
// ---------------------------------------------------------------------------

template <class T> using device_ptr = T *;

template <class T> T *raw_pointer_cast(T *p) { return p; }
template <class T> T *device_pointer_cast(T *p) { return p; }

template <class T> T *device_malloc(std::size_t n) { return sycl::malloc_device<T>(n, default_queue()); }
template <class T> void device_free(T *p) { usm_free(p, default_queue()); }

template <class T> class host_vector;

template <class T> class device_vector {
public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using pointer = T *;
  using const_pointer = const T *;
  using reference = T &;
  using const_reference = const T &;
  using iterator = T *;
  using const_iterator = const T *;

  device_vector() = default;
  explicit device_vector(size_type n) { assign_n(n, T()); }
  device_vector(size_type n, const T &value) { assign_n(n, value); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>> device_vector(It first, It last) { assign(first, last); }
  device_vector(const std::vector<T> &v) { assign(v.begin(), v.end()); }
  device_vector(std::initializer_list<T> v) { assign(v.begin(), v.end()); }
  device_vector(const device_vector &o) { assign(o.begin(), o.end()); }
  device_vector(device_vector &&o) noexcept { swap(o); }
  ~device_vector() { release(); }

  device_vector &operator=(const device_vector &o) {
    if (this != &o)
      assign(o.begin(), o.end());
    return *this;
  }
  device_vector &operator=(device_vector &&o) noexcept {
    swap(o);
    return *this;
  }
  device_vector &operator=(const std::vector<T> &v) {
    assign(v.begin(), v.end());
    return *this;
  }

  template <class It> void assign(It first, It last) {
    const size_type n = static_cast<size_type>(std::distance(first, last));
    reserve_exact(n);
    size_ = n;
    std::copy(first, last, data_); // shared memory: the host writes it
  }
  void assign(size_type n, const T &value) { assign_n(n, value); }

  size_type size() const { return size_; }
  size_type capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T *data() { return data_; }
  const T *data() const { return data_; }
  iterator begin() { return data_; }
  iterator end() { return data_ + size_; }
  const_iterator begin() const { return data_; }
  const_iterator end() const { return data_ + size_; }
  const_iterator cbegin() const { return data_; }
  const_iterator cend() const { return data_ + size_; }
  T &operator[](size_type i) { return data_[i]; }
  const T &operator[](size_type i) const { return data_[i]; }
  T &front() { return data_[0]; }
  T &back() { return data_[size_ - 1]; }

  void resize(size_type n) { resize(n, T()); }
  void resize(size_type n, const T &value) {
    if (n > capacity_)
      grow(n);
    for (size_type i = size_; i < n; ++i)
      data_[i] = value;
    size_ = n;
  }
  void reserve(size_type n) {
    if (n > capacity_)
      grow(n);
  }
  void push_back(const T &v) {
    if (size_ == capacity_)
      grow(capacity_ ? 2 * capacity_ : 8);
    data_[size_++] = v;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void shrink_to_fit() {}
  void swap(device_vector &o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
  }
  iterator erase(iterator first, iterator last) {
    std::copy(last, end(), first);
    size_ -= static_cast<size_type>(last - first);
    return first;
  }
  iterator erase(iterator pos) { return erase(pos, pos + 1); }

private:
  void assign_n(size_type n, const T &value) {
    reserve_exact(n);
    size_ = n;
    if (n)
      default_queue().fill(data_, value, n).wait();
  }
  void reserve_exact(size_type n) {
    default_queue().wait(); // no kernel may still use the old storage
    if (n <= capacity_)
      return;
    release();
    data_ = n ? sycl::malloc_shared<T>(n, default_queue()) : nullptr;
    capacity_ = n;
  }
  void grow(size_type n) {
    default_queue().wait();
    T *p = sycl::malloc_shared<T>(n, default_queue());
    std::copy(data_, data_ + size_, p);
    release();
    data_ = p;
    capacity_ = n;
  }
  void release() {
    if (data_) {
      default_queue().wait();
      sycl::free(data_, default_queue());
    }
    data_ = nullptr;
    capacity_ = size_ = 0;
  }
  T *data_ = nullptr;
  size_type size_ = 0;
  size_type capacity_ = 0;
};

template <class T> class host_vector : public std::vector<T> {
public:
  using std::vector<T>::vector;
  host_vector() = default;
  host_vector(const std::vector<T> &v) : std::vector<T>(v) {}
  host_vector(const device_vector<T> &d) : std::vector<T>(d.begin(), d.end()) {}
  host_vector &operator=(const device_vector<T> &d) {
    this->assign(d.begin(), d.end());
    return *this;
  }
};

// ---------------------------------------------------------------------------
// 3. Iterators and tuples
// ---------------------------------------------------------------------------

template <class T> using counting_iterator = oneapi::dpl::counting_iterator<T>;
template <class T> counting_iterator<T> make_counting_iterator(T v) { return counting_iterator<T>(v); }

// Thrust's order is <function, iterator>; oneDPL's <iterator, function>
template <class F, class It, class Reference = void, class Value = void>
using transform_iterator = oneapi::dpl::transform_iterator<It, F>;
template <class It, class F> auto make_transform_iterator(It it, F f) { return oneapi::dpl::make_transform_iterator(it, f); }

template <class... It> using zip_iterator = oneapi::dpl::zip_iterator<It...>;
template <class... T> auto make_zip_iterator(const std::tuple<T...> &t) { return oneapi::dpl::make_zip_iterator(t); }
template <class... It> auto make_zip_iterator(It... it) { return oneapi::dpl::make_zip_iterator(it...); }

template <class Source, class Map> using permutation_iterator = oneapi::dpl::permutation_iterator<Source, Map>;
template <class Source, class Map> auto make_permutation_iterator(Source s, Map m) { return oneapi::dpl::make_permutation_iterator(s, m); }

using discard_iterator = oneapi::dpl::discard_iterator;
inline discard_iterator make_discard_iterator() { return discard_iterator(); }

namespace detail {
template <class T> struct constant_fn {
  T value;
  template <class I> T operator()(const I &) const { return value; }
};
} // namespace detail
// a constant sequence: oneDPL has none; a counting iterator transformed to the value
template <class T> using constant_iterator = oneapi::dpl::transform_iterator<oneapi::dpl::counting_iterator<std::ptrdiff_t>, detail::constant_fn<T>>;
template <class T> constant_iterator<T> make_constant_iterator(T v, std::ptrdiff_t i = 0) {
  return oneapi::dpl::make_transform_iterator(oneapi::dpl::counting_iterator<std::ptrdiff_t>(i), detail::constant_fn<T>{v});
}

template <class It> struct iterator_difference {
  using type = typename std::iterator_traits<It>::difference_type;
};
template <class It> struct iterator_value {
  using type = typename std::iterator_traits<It>::value_type;
};
template <class It> using iterator_traits = std::iterator_traits<It>;

// thrust::complex: std::complex (DPC++ and AdaptiveCpp compile its
// arithmetic in kernels; its transcendental functions need the
// implementation's device library)
template <class T> using complex = std::complex<T>;
using std::abs;
using std::arg;
using std::conj;
using std::norm;
using std::polar;
using std::proj;
using std::exp;
using std::log;
using std::pow;
using std::sqrt;

using std::get;
using std::make_pair;
using std::make_tuple;
using std::pair;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
using std::distance;

// ---------------------------------------------------------------------------
// 4. Function objects
// ---------------------------------------------------------------------------

template <class T = void> using plus = std::plus<T>;
template <class T = void> using minus = std::minus<T>;
template <class T = void> using multiplies = std::multiplies<T>;
template <class T = void> using divides = std::divides<T>;
template <class T = void> using modulus = std::modulus<T>;
template <class T = void> using negate = std::negate<T>;
template <class T = void> using less = std::less<T>;
template <class T = void> using less_equal = std::less_equal<T>;
template <class T = void> using greater = std::greater<T>;
template <class T = void> using greater_equal = std::greater_equal<T>;
template <class T = void> using equal_to = std::equal_to<T>;
template <class T = void> using not_equal_to = std::not_equal_to<T>;
template <class T = void> using logical_and = std::logical_and<T>;
template <class T = void> using logical_or = std::logical_or<T>;
template <class T = void> using logical_not = std::logical_not<T>;
template <class T = void> using bit_and = std::bit_and<T>;
template <class T = void> using bit_or = std::bit_or<T>;
template <class T = void> using bit_xor = std::bit_xor<T>;
template <class T = void> using maximum = oneapi::dpl::maximum<T>;
template <class T = void> using minimum = oneapi::dpl::minimum<T>;
template <class T = void> struct identity {
  template <class U> constexpr decltype(auto) operator()(U &&x) const { return std::forward<U>(x); }
};
// Thrust's deprecated adaptor bases: only their typedefs
template <class A, class R> struct unary_function {
  using argument_type = A;
  using result_type = R;
};
template <class A1, class A2, class R> struct binary_function {
  using first_argument_type = A1;
  using second_argument_type = A2;
  using result_type = R;
};

// ---------------------------------------------------------------------------
// 5. Algorithms
// ---------------------------------------------------------------------------

namespace detail {

enum class where { neutral, host, device };

template <class T> struct is_dpl_fancy : std::false_type {};
template <class T> struct is_dpl_fancy<oneapi::dpl::counting_iterator<T>> : std::true_type {};
template <class... T> struct is_dpl_fancy<oneapi::dpl::zip_iterator<T...>> : std::true_type {};
template <class I, class F> struct is_dpl_fancy<oneapi::dpl::transform_iterator<I, F>> : std::true_type {};
template <class S, class M> struct is_dpl_fancy<oneapi::dpl::permutation_iterator<S, M>> : std::true_type {};
template <> struct is_dpl_fancy<oneapi::dpl::discard_iterator> : std::true_type {};

template <class T, class = void> struct is_iterator : std::false_type {};
template <class T> struct is_iterator<T, std::void_t<typename std::iterator_traits<T>::iterator_category>> : std::true_type {};

// where an argument's data lives: a USM pointer on the device, a host
// container's iterator or a pointer the SYCL runtime does not know on the host
template <class A> where where_of(const A &a) {
  if constexpr (std::is_pointer_v<A>) {
    if (!a)
      return where::neutral;
    switch (sycl::get_pointer_type(a, default_queue().get_context())) {
    case sycl::usm::alloc::device:
    case sycl::usm::alloc::shared:
      return where::device;
    default:
      return where::host;
    }
  } else if constexpr (is_dpl_fancy<A>::value || !is_iterator<A>::value) {
    return where::neutral; // fancy iterators, values, functors
  } else {
    return where::host;
  }
}

// the device when some argument lives there and none on the host
template <class... A> bool on_device(const A &...a) {
  bool device = false, host = false;
  ((where_of(a) == where::device ? (device = true) : where_of(a) == where::host ? (host = true) : false), ...);
  return device && !host;
}

inline auto device_policy(stream_t s) { return oneapi::dpl::execution::make_device_policy(queue_of(s)); }

// runs f with oneDPL's policy for Thrust's policy p
template <class F> decltype(auto) with(const device_t &p, F &&f) { return f(device_policy(p.stream)); }
template <class F> decltype(auto) with(const host_t &, F &&f) { return f(oneapi::dpl::execution::seq); }
// no policy: chosen from where the arguments live
template <class F, class... A> decltype(auto) with_args(F &&f, const A &...a) {
  if (on_device(a...))
    return f(device_policy(nullptr));
  return f(oneapi::dpl::execution::seq);
}

} // namespace detail

// thrust::system_error: what Thrust throws when a device algorithm fails;
// oneDPL's device algorithms throw SYCL's exception (what(), code()).
using system_error = sycl::exception;

// Each algorithm comes with a Thrust policy first, or without one (chosen
// from the arguments). Both forward to oneDPL's algorithm of the name.
#define SYCLIFY_THRUST_ALGORITHM(name, impl)                                                                           \
  template <class P, class... A, std::enable_if_t<detail::is_policy_v<P>, int> = 0>                                    \
  decltype(auto) name(const P &p, A &&...a) {                                                                          \
    return detail::with(p, [&](auto &&pol) -> decltype(auto) { return impl(pol, std::forward<A>(a)...); });           \
  }                                                                                                                    \
  template <class A0, class... A, std::enable_if_t<!detail::is_policy_v<A0>, int> = 0>                                 \
  decltype(auto) name(A0 &&a0, A &&...a) {                                                                             \
    return detail::with_args([&](auto &&pol) -> decltype(auto) { return impl(pol, std::forward<A0>(a0), std::forward<A>(a)...); }, \
                             a0, a...);                                                                                \
  }

SYCLIFY_THRUST_ALGORITHM(for_each, oneapi::dpl::for_each)
SYCLIFY_THRUST_ALGORITHM(for_each_n, oneapi::dpl::for_each_n)
SYCLIFY_THRUST_ALGORITHM(transform, oneapi::dpl::transform)
SYCLIFY_THRUST_ALGORITHM(reduce, oneapi::dpl::reduce)
SYCLIFY_THRUST_ALGORITHM(inclusive_scan, oneapi::dpl::inclusive_scan)
SYCLIFY_THRUST_ALGORITHM(sort, oneapi::dpl::sort)
SYCLIFY_THRUST_ALGORITHM(stable_sort, oneapi::dpl::stable_sort)
SYCLIFY_THRUST_ALGORITHM(sort_by_key, oneapi::dpl::sort_by_key)
SYCLIFY_THRUST_ALGORITHM(stable_sort_by_key, oneapi::dpl::stable_sort_by_key)
SYCLIFY_THRUST_ALGORITHM(copy, oneapi::dpl::copy)
SYCLIFY_THRUST_ALGORITHM(copy_n, oneapi::dpl::copy_n)
SYCLIFY_THRUST_ALGORITHM(fill, oneapi::dpl::fill)
SYCLIFY_THRUST_ALGORITHM(fill_n, oneapi::dpl::fill_n)
SYCLIFY_THRUST_ALGORITHM(generate, oneapi::dpl::generate)
SYCLIFY_THRUST_ALGORITHM(generate_n, oneapi::dpl::generate_n)
SYCLIFY_THRUST_ALGORITHM(uninitialized_fill, oneapi::dpl::uninitialized_fill)
SYCLIFY_THRUST_ALGORITHM(unique, oneapi::dpl::unique)
SYCLIFY_THRUST_ALGORITHM(unique_copy, oneapi::dpl::unique_copy)
SYCLIFY_THRUST_ALGORITHM(count, oneapi::dpl::count)
SYCLIFY_THRUST_ALGORITHM(count_if, oneapi::dpl::count_if)
SYCLIFY_THRUST_ALGORITHM(min_element, oneapi::dpl::min_element)
SYCLIFY_THRUST_ALGORITHM(max_element, oneapi::dpl::max_element)
SYCLIFY_THRUST_ALGORITHM(minmax_element, oneapi::dpl::minmax_element)
SYCLIFY_THRUST_ALGORITHM(find, oneapi::dpl::find)
SYCLIFY_THRUST_ALGORITHM(find_if, oneapi::dpl::find_if)
SYCLIFY_THRUST_ALGORITHM(find_if_not, oneapi::dpl::find_if_not)
SYCLIFY_THRUST_ALGORITHM(remove, oneapi::dpl::remove)
SYCLIFY_THRUST_ALGORITHM(remove_if, oneapi::dpl::remove_if)
SYCLIFY_THRUST_ALGORITHM(remove_copy_if, oneapi::dpl::remove_copy_if)
SYCLIFY_THRUST_ALGORITHM(replace, oneapi::dpl::replace)
SYCLIFY_THRUST_ALGORITHM(replace_if, oneapi::dpl::replace_if)
SYCLIFY_THRUST_ALGORITHM(reverse, oneapi::dpl::reverse)
SYCLIFY_THRUST_ALGORITHM(equal, oneapi::dpl::equal)
SYCLIFY_THRUST_ALGORITHM(all_of, oneapi::dpl::all_of)
SYCLIFY_THRUST_ALGORITHM(any_of, oneapi::dpl::any_of)
SYCLIFY_THRUST_ALGORITHM(none_of, oneapi::dpl::none_of)
SYCLIFY_THRUST_ALGORITHM(is_sorted, oneapi::dpl::is_sorted)
SYCLIFY_THRUST_ALGORITHM(is_sorted_until, oneapi::dpl::is_sorted_until)
SYCLIFY_THRUST_ALGORITHM(adjacent_difference, oneapi::dpl::adjacent_difference)
SYCLIFY_THRUST_ALGORITHM(inner_product, oneapi::dpl::transform_reduce)
SYCLIFY_THRUST_ALGORITHM(merge, oneapi::dpl::merge)
SYCLIFY_THRUST_ALGORITHM(partition, oneapi::dpl::partition)
SYCLIFY_THRUST_ALGORITHM(stable_partition, oneapi::dpl::stable_partition)
SYCLIFY_THRUST_ALGORITHM(swap_ranges, oneapi::dpl::swap_ranges)
SYCLIFY_THRUST_ALGORITHM(lower_bound, oneapi::dpl::lower_bound)
SYCLIFY_THRUST_ALGORITHM(upper_bound, oneapi::dpl::upper_bound)
SYCLIFY_THRUST_ALGORITHM(binary_search, oneapi::dpl::binary_search)
SYCLIFY_THRUST_ALGORITHM(inclusive_scan_by_key, oneapi::dpl::inclusive_scan_by_segment)
SYCLIFY_THRUST_ALGORITHM(exclusive_scan_by_key, oneapi::dpl::exclusive_scan_by_segment)
SYCLIFY_THRUST_ALGORITHM(reduce_by_key, oneapi::dpl::reduce_by_segment)

namespace detail {
struct copy_if_impl {
  // (first, last, out, pred)
  template <class Pol, class It, class Out, class Pred> Out operator()(Pol &&pol, It first, It last, Out out, Pred pred) const {
    return oneapi::dpl::copy_if(pol, first, last, out, pred);
  }
  // (first, last, stencil, out, pred): the items whose stencil satisfies pred
  template <class Pol, class It, class St, class Out, class Pred>
  Out operator()(Pol &&pol, It first, It last, St stencil, Out out, Pred pred) const {
    auto zf = oneapi::dpl::make_zip_iterator(first, stencil);
    auto zo = oneapi::dpl::make_zip_iterator(out, oneapi::dpl::discard_iterator());
    auto end = oneapi::dpl::copy_if(pol, zf, zf + (last - first), zo, [pred](const auto &t) { return pred(std::get<1>(t)); });
    return out + (end - zo);
  }
};
// Thrust's exclusive_scan(first, last, out) starts from the value type's zero
struct exclusive_scan_impl {
  template <class Pol, class It, class Out> Out operator()(Pol &&pol, It first, It last, Out out) const {
    using T = typename std::iterator_traits<It>::value_type;
    return oneapi::dpl::exclusive_scan(pol, first, last, out, T(0));
  }
  template <class Pol, class It, class Out, class... R> Out operator()(Pol &&pol, It first, It last, Out out, R &&...rest) const {
    return oneapi::dpl::exclusive_scan(pol, first, last, out, std::forward<R>(rest)...);
  }
};
// (keys_first, keys_last, values_first[, pred]): the first of each run of
// equal keys, with its value; returns the ends of both ranges
struct unique_by_key_impl {
  template <class Pol, class K, class V> auto operator()(Pol &&pol, K kf, K kl, V vf) const {
    return (*this)(pol, kf, kl, vf, std::equal_to<>());
  }
  template <class Pol, class K, class V, class P> auto operator()(Pol &&pol, K kf, K kl, V vf, P pred) const {
    auto zf = oneapi::dpl::make_zip_iterator(kf, vf);
    auto end = oneapi::dpl::unique(pol, zf, zf + (kl - kf), [pred](const auto &a, const auto &b) { return pred(std::get<0>(a), std::get<0>(b)); });
    auto n = end - zf;
    return std::make_pair(kf + n, vf + n);
  }
};
struct sequence_impl {
  template <class Pol, class It> void operator()(Pol &&pol, It first, It last) const {
    using T = typename std::iterator_traits<It>::value_type;
    (*this)(pol, first, last, T(0), T(1));
  }
  template <class Pol, class It, class T> void operator()(Pol &&pol, It first, It last, T init) const { (*this)(pol, first, last, init, T(1)); }
  template <class Pol, class It, class T> void operator()(Pol &&pol, It first, It last, T init, T step) const {
    using V = typename std::iterator_traits<It>::value_type;
    const V i0 = static_cast<V>(init), s = static_cast<V>(step);
    oneapi::dpl::transform(pol, oneapi::dpl::counting_iterator<std::ptrdiff_t>(0), oneapi::dpl::counting_iterator<std::ptrdiff_t>(last - first), first,
                           [i0, s](std::ptrdiff_t k) { return static_cast<V>(i0 + static_cast<V>(k) * s); });
  }
};
struct tabulate_impl {
  template <class Pol, class It, class F> void operator()(Pol &&pol, It first, It last, F f) const {
    oneapi::dpl::transform(pol, oneapi::dpl::counting_iterator<std::ptrdiff_t>(0), oneapi::dpl::counting_iterator<std::ptrdiff_t>(last - first), first, f);
  }
};
// Thrust's order (first, last, unary_op, init, binary_op); std's (first, last, init, binary_op, unary_op)
struct transform_reduce_impl {
  template <class Pol, class It, class U, class T, class B> T operator()(Pol &&pol, It first, It last, U unary, T init, B binary) const {
    return oneapi::dpl::transform_reduce(pol, first, last, init, binary, unary);
  }
};
struct gather_impl {
  template <class Pol, class Map, class In, class Out> Out operator()(Pol &&pol, Map map_first, Map map_last, In input, Out out) const {
    auto src = oneapi::dpl::make_permutation_iterator(input, map_first);
    return oneapi::dpl::copy(pol, src, src + (map_last - map_first), out);
  }
};
struct scatter_impl {
  template <class Pol, class In, class Map, class Out> void operator()(Pol &&pol, In first, In last, Map map, Out out) const {
    oneapi::dpl::copy(pol, first, last, oneapi::dpl::make_permutation_iterator(out, map));
  }
};
} // namespace detail

// Thrust's own algorithms (and its argument orders): detail::<name>_impl
#define SYCLIFY_THRUST_OWN(name) SYCLIFY_THRUST_ALGORITHM(name, detail::name##_impl())

SYCLIFY_THRUST_OWN(copy_if)
SYCLIFY_THRUST_OWN(exclusive_scan)
SYCLIFY_THRUST_OWN(sequence)
SYCLIFY_THRUST_OWN(unique_by_key)
SYCLIFY_THRUST_OWN(tabulate)
SYCLIFY_THRUST_OWN(transform_reduce)
SYCLIFY_THRUST_OWN(gather)
SYCLIFY_THRUST_OWN(scatter)

// thrust::shuffle: a uniformly random permutation, made on the host with
// std::shuffle and the given engine (device data is copied there and back).
// Thrust's own permutation (a bijective Feistel function) is another one:
// code that depends on the exact order differs; code that only needs some
// random order (then sorts, or checks a sum) does not.
namespace detail {
template <class It, class G> void shuffle_range(It first, It last, G &&g) {
  using T = typename std::iterator_traits<It>::value_type;
  if constexpr (std::is_pointer_v<It>) {
    if (where_of(first) == where::device && sycl::get_pointer_type(first, default_queue().get_context()) == sycl::usm::alloc::device) {
      std::vector<T> h(static_cast<std::size_t>(last - first));
      default_queue().copy(first, h.data(), h.size()).wait();
      std::shuffle(h.begin(), h.end(), g);
      default_queue().copy(h.data(), first, h.size()).wait();
      return;
    }
    default_queue().wait(); // shared memory the device may still be writing
  }
  std::shuffle(first, last, g);
}
} // namespace detail
template <class P, class It, class G, std::enable_if_t<detail::is_policy_v<P>, int> = 0> void shuffle(const P &, It first, It last, G &&g) {
  detail::shuffle_range(first, last, std::forward<G>(g));
}
template <class It, class G, std::enable_if_t<!detail::is_policy_v<It>, int> = 0> void shuffle(It first, It last, G &&g) {
  detail::shuffle_range(first, last, std::forward<G>(g));
}

#undef SYCLIFY_THRUST_ALGORITHM
#undef SYCLIFY_THRUST_OWN

// ---------------------------------------------------------------------------
// 6. Random numbers (oneDPL's engines: the same recurrences as Thrust's)
// ---------------------------------------------------------------------------

using minstd_rand = oneapi::dpl::minstd_rand;
using minstd_rand0 = oneapi::dpl::minstd_rand0;
using default_random_engine = oneapi::dpl::minstd_rand;
using ranlux24 = oneapi::dpl::ranlux24;
using ranlux48 = oneapi::dpl::ranlux48;
template <class T = int> using uniform_int_distribution = oneapi::dpl::uniform_int_distribution<T>;
template <class T = double> using uniform_real_distribution = oneapi::dpl::uniform_real_distribution<T>;
template <class T = double> using normal_distribution = oneapi::dpl::normal_distribution<T>;
namespace random {
using thrust::default_random_engine;
using thrust::minstd_rand;
using thrust::normal_distribution;
using thrust::uniform_int_distribution;
using thrust::uniform_real_distribution;
} // namespace random

} // namespace thrust
} // namespace syclify
