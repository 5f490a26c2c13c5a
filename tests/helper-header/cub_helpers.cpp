// Every collective of syclify/cub.hpp instantiated, with CUB's operators
// (SYCL's group algorithms) and with a user's operator and a pair type (the
// tree over local memory): host-compiled against Intel's SYCL headers by
// tests/programs.rs. Not run.
#include <sycl/sycl.hpp>
#include <syclify/cub.hpp>

struct Mul {
  template <class T> T operator()(const T &a, const T &b) const { return a * b; }
};
using Pair = syclify::cub::KeyValuePair<int, float>;

template <class T, class Op> void block(const sycl::nd_item<3> &item, T v, Op op, T *out) {
  using BR = syclify::cub::BlockReduce<T, 128>;
  using BR2 = syclify::cub::BlockReduce<T, 16, syclify::cub::BLOCK_REDUCE_RAKING, 8>;
  using BS = syclify::cub::BlockScan<T, 128, syclify::cub::BLOCK_SCAN_WARP_SCANS>;
  typename BR::TempStorage tr;
  typename BR2::TempStorage tr2;
  typename BS::TempStorage ts;
  T arr[4] = {v, v, v, v}, arr_out[4];
  out[0] = BR(tr, item).Reduce(v, op);
  out[1] = BR(tr, item).Reduce(v, op, 7);
  out[2] = BR(tr, item).Reduce(arr, op);
  out[3] = BR2(tr2, item).Reduce(v, op);
  T agg;
  BS(ts, item).ExclusiveScan(v, out[4], v, op);
  BS(ts, item).ExclusiveScan(v, out[5], v, op, agg);
  BS(ts, item).InclusiveScan(v, out[6], op);
  BS(ts, item).InclusiveScan(v, out[7], op, agg);
  BS(ts, item).ExclusiveScan(arr, arr_out, v, op);
  BS(ts, item).ExclusiveScan(arr, arr_out, v, op, agg);
  BS(ts, item).InclusiveScan(arr, arr_out, op);
  BS(ts, item).InclusiveScan(arr, arr_out, op, agg);
  using WR = syclify::cub::WarpReduce<T>;
  using WR8 = syclify::cub::WarpReduce<T, 8>;
  using WS = syclify::cub::WarpScan<T, 16>;
  typename WR::TempStorage wr;
  typename WR8::TempStorage wr8;
  typename WS::TempStorage ws;
  out[8] = WR(wr, item).Reduce(v, op);
  out[9] = WR8(wr8, item).Reduce(v, op, 5);
  WS(ws, item).InclusiveScan(v, out[10], op);
  WS(ws, item).InclusiveScan(v, out[11], op, agg);
  WS(ws, item).ExclusiveScan(v, out[12], v, op);
  WS(ws, item).ExclusiveScan(v, out[13], v, op, agg);
}

template <class T> void sums(const sycl::nd_item<3> &item, T v, T *out) {
  using BR = syclify::cub::BlockReduce<T, 64>;
  using BS = syclify::cub::BlockScan<T, 64>;
  using WR = syclify::cub::WarpReduce<T>;
  using WS = syclify::cub::WarpScan<T>;
  typename BR::TempStorage tr;
  typename BS::TempStorage ts;
  typename WR::TempStorage wr;
  typename WS::TempStorage ws;
  T arr[2] = {v, v}, arr_out[2], agg;
  out[0] = BR(tr, item).Sum(v);
  out[1] = BR(tr, item).Sum(v, 3);
  out[2] = BR(tr, item).Sum(arr);
  BS(ts, item).ExclusiveSum(v, out[3]);
  BS(ts, item).ExclusiveSum(v, out[4], agg);
  BS(ts, item).InclusiveSum(v, out[5]);
  BS(ts, item).InclusiveSum(v, out[6], agg);
  BS(ts, item).ExclusiveSum(arr, arr_out);
  BS(ts, item).ExclusiveSum(arr, arr_out, agg);
  BS(ts, item).InclusiveSum(arr, arr_out);
  BS(ts, item).InclusiveSum(arr, arr_out, agg);
  out[7] = WR(wr, item).Sum(v);
  out[8] = WR(wr, item).Sum(v, 9);
  WS(ws, item).InclusiveSum(v, out[9]);
  WS(ws, item).InclusiveSum(v, out[10], agg);
  WS(ws, item).ExclusiveSum(v, out[11]);
  WS(ws, item).ExclusiveSum(v, out[12], agg);
}

void all(sycl::queue &q, float *f, int *i, double *d, Pair *p) {
  q.parallel_for(sycl::nd_range<3>({1, 1, 128}, {1, 1, 128}), [=](sycl::nd_item<3> item) {
    block(item, f[0], syclify::cub::Sum(), f);
    block(item, f[0], syclify::cub::Max(), f);
    block(item, i[0], syclify::cub::Min(), i);
    block(item, d[0], Mul(), d);
    block(item, i[0], [](int a, int b) { return a ^ b; }, i);
    using BR = syclify::cub::BlockReduce<Pair, 128>;
    BR::TempStorage t;
    p[0] = BR(t, item).Reduce(p[item.get_local_linear_id()], syclify::cub::ArgMax());
    p[1] = BR(t, item).Reduce(p[item.get_local_linear_id()], syclify::cub::ArgMin(), 5);
    sums(item, f[0], f);
    sums(item, i[0], i);
    sums(item, d[0], d);
  });
}

// a block prefix callback (a running total kept by the caller, as CUB's examples do)
struct RunningPrefix {
  float total;
  float operator()(float block_aggregate) {
    float old = total;
    total += block_aggregate;
    return old;
  }
};
struct PairSum {
  Pair operator()(const Pair &a, const Pair &b) const { return Pair(a.key + b.key, a.value + b.value); }
};
struct PairPrefix {
  Pair total;
  Pair operator()(const Pair &agg) {
    Pair old = total;
    total = PairSum()(total, agg);
    return old;
  }
};

void callbacks(sycl::queue &q, float *f, Pair *p) {
  q.parallel_for(sycl::nd_range<3>({1, 1, 128}, {1, 1, 128}), [=](sycl::nd_item<3> item) {
    using BS = syclify::cub::BlockScan<float, 128>;
    BS::TempStorage t;
    RunningPrefix prefix{0.f};
    float arr[4] = {1, 2, 3, 4};
    BS(t, item).InclusiveScan(f[0], f[1], syclify::cub::Sum(), prefix);
    BS(t, item).ExclusiveScan(f[0], f[1], syclify::cub::Sum(), prefix);
    BS(t, item).InclusiveSum(f[0], f[1], prefix);
    BS(t, item).ExclusiveSum(f[0], f[1], prefix);
    BS(t, item).InclusiveSum(arr, arr, prefix);
    BS(t, item).ExclusiveSum(arr, arr, prefix);
    using PS = syclify::cub::BlockScan<Pair, 128, syclify::cub::BLOCK_SCAN_WARP_SCANS>;
    PS::TempStorage pt;
    PairPrefix pp{Pair(0, 0.f)};
    Pair parr[2] = {p[0], p[1]};
    PS(pt, item).InclusiveScan(p[0], p[1], PairSum(), pp);
    PS(pt, item).ExclusiveScan(p[0], p[1], PairSum(), pp);
    PS(pt, item).InclusiveScan(parr, parr, PairSum(), pp);
    PS(pt, item).ExclusiveScan(parr, parr, PairSum(), pp);
  });
}

// the device-wide algorithms, both calls of CUB's protocol, on a stream and on the default queue
struct IsOdd {
  bool operator()(int v) const { return v & 1; }
};
struct Square {
  float operator()(int v) const { return float(v) * v; }
};
int device_wide(syclify::stream_t s, int *in, int *out, float *fout, char *flags, int *count, int n) {
  namespace cub = syclify::cub;
  void *temp = nullptr;
  std::size_t bytes = 0;
  int e = 0;
  e |= cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  e |= cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
  e |= cub::DeviceReduce::Max(temp, bytes, in, out, n, s);
  e |= cub::DeviceReduce::Min(temp, bytes, in, out, n, s, false);
  e |= cub::DeviceReduce::Reduce(temp, bytes, in, out, n, cub::Max(), 0, s);
  cub::TransformInputIterator<float, Square, int *> squares(in, Square());
  e |= cub::DeviceReduce::Sum(temp, bytes, squares, fout, n);
  e |= cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
  e |= cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, s);
  e |= cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, cub::Max(), -1, n, s);
  e |= cub::DeviceScan::InclusiveScan(temp, bytes, in, out, cub::Min(), n);
  cub::CountingInputIterator<int> counting(0);
  e |= cub::DeviceSelect::Flagged(temp, bytes, counting, flags, out, count, n);
  e |= cub::DeviceSelect::If(temp, bytes, in, out, count, n, IsOdd(), s);
  cub::ConstantInputIterator<int> ones(1);
  e |= cub::DeviceRunLengthEncode::Encode(temp, bytes, in, out, flags, count, n, s);
  e |= cub::DeviceRunLengthEncode::NonTrivialRuns(temp, bytes, ones, out, flags, count, n);
  cub::CachingDeviceAllocator pool(true);
  e |= pool.DeviceAllocate(&temp, bytes, s) | pool.DeviceAllocate(0, &temp, bytes) | pool.DeviceFree(temp) | pool.DeviceFree(0, temp);
  e |= pool.FreeAllCached() | CubDebug(cub::Debug(e, __FILE__, __LINE__));
  return e;
}

// BlockAdjacentDifference with an operator taking non-const references, in
// place, with neighbours beyond the tile and on partial tiles
struct RefDiff {
  template <class T> T operator()(T &a, T &b) { return a - b; }
};
void adjacent(sycl::queue &q, int *data) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<syclify::cub::BlockAdjacentDifference<int, 64>::TempStorage, 0> temp(h);
    h.parallel_for(sycl::nd_range<3>({1, 1, 64}, {1, 1, 64}), [=](sycl::nd_item<3> item) {
      using AD = syclify::cub::BlockAdjacentDifference<int, 64>;
      int v[4] = {data[0], data[1], data[2], data[3]};
      long w[4];
      AD(temp, item).SubtractLeft(v, v, RefDiff());
      AD(temp, item).SubtractLeft(v, v, RefDiff(), 7);
      AD(temp, item).SubtractLeftPartialTile(v, v, RefDiff(), 100);
      AD(temp, item).SubtractRight(v, w, RefDiff());
      AD(temp, item).SubtractRight(v, v, RefDiff(), 7);
      AD(temp, item).SubtractRightPartialTile(v, v, RefDiff(), 100);
      data[item.get_local_linear_id()] = v[0] + static_cast<int>(w[3]);
    });
  });
}

// BlockLoad/BlockStore (every algorithm), BlockExchange, BlockRadixSort
// (keys, pairs, descending, striped output), DeviceRadixSort and Traits
template <syclify::cub::BlockLoadAlgorithm L, syclify::cub::BlockStoreAlgorithm S> void load_store(sycl::queue &q, int *data) {
  namespace cub = syclify::cub;
  using Load = cub::BlockLoad<int, 32, 4, L>;
  using Store = cub::BlockStore<int, 32, 4, S>;
  using Exchange = cub::BlockExchange<int, 32, 4>;
  using Sort = cub::BlockRadixSort<float, 32, 4, int>;
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<typename Load::TempStorage, 0> lt(h);
    sycl::local_accessor<typename Store::TempStorage, 0> st(h);
    sycl::local_accessor<typename Exchange::TempStorage, 0> et(h);
    sycl::local_accessor<typename Sort::TempStorage, 0> so(h);
    h.parallel_for(sycl::nd_range<3>({1, 1, 32}, {1, 1, 32}), [=](sycl::nd_item<3> item) {
      int v[4];
      float k[4] = {1, 2, 3, 4};
      int ranks[4] = {0, 1, 2, 3};
      Load(lt, item).Load(data, v);
      Load(lt, item).Load(data, v, 100);
      Load(lt, item).Load(data, v, 100, -1);
      Exchange(et, item).StripedToBlocked(v);
      Exchange(et, item).BlockedToStriped(v, v);
      Exchange(et, item).ScatterToBlocked(v, ranks);
      Exchange(et, item).ScatterToStriped(v, ranks);
      Sort(so, item).Sort(k, v);
      Sort(so, item).SortDescending(k, v, 0, 16);
      Sort(so, item).SortBlockedToStriped(k, v);
      Store(st, item).Store(data, v);
      Store(st, item).Store(data, v, 50);
    });
  });
}
int sorting(sycl::queue &q, int *data, float *f, unsigned long long *u, double *d) {
  namespace cub = syclify::cub;
  load_store<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(q, data);
  load_store<cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>(q, data);
  load_store<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(q, data);
  load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_VECTORIZE>(q, data);
  void *temp = nullptr;
  std::size_t bytes = 0;
  int e = cub::DeviceRadixSort::SortKeys(temp, bytes, f, f, 10) | cub::DeviceRadixSort::SortKeysDescending(temp, bytes, u, u, 10, 0, 40);
  e |= cub::DeviceRadixSort::SortPairs(temp, bytes, d, d, data, data, 10) | cub::DeviceRadixSort::SortPairsDescending(temp, bytes, data, data, f, f, 10);
  using T = cub::Traits<float>;
  T::UnsignedBits b = T::TwiddleOut(T::TwiddleIn(1u));
  return e + static_cast<int>(b) + static_cast<int>(cub::Traits<int>::Max() > 0);
}
