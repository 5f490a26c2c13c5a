// syclify/graph.hpp: CUDA graphs for SYCL 2020 (part of the syclify helper library; included by
// syclify.hpp, whose section 4 records captured work through detail::graph_record).
//
// A graph is a list of nodes and their dependencies, built node by node (cudaGraphAdd*Node,
// cudaGraphAddNode) or recorded from streams (cudaStreamBeginCapture; streams join a capture by
// waiting for an event recorded in it). cudaGraphInstantiate sorts the nodes — dependencies
// first, and among the nodes that are ready the one added first — into a list of steps that
// cudaGraphLaunch submits in order on the stream's in-order queue. Every dependency holds;
// branches CUDA may run at the same time run one after the other (work that waits for a branch
// that has not started would wait for ever: CUDA does not promise that either).
//
// As in CUDA, a kernel node reads its arguments when it is added (or its parameters set), an
// executable graph is a copy of the graph when it was instantiated (cudaGraphExecUpdate and the
// cudaGraphExec*SetParams calls change it), and a memory allocation node's address is fixed when
// the node is added. Differences: a conditional node reads its handle on the host when the launch
// reaches it (the launch waits there for the work before it); SYCL 2020 has no graphs, so none is
// handed to the implementation (DPC++'s sycl_ext_oneapi_graph is not used).
#pragma once
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <queue>

namespace syclify {

enum graph_node_type {
  graph_node_type_kernel = 0x00,
  graph_node_type_memcpy = 0x01,
  graph_node_type_memset = 0x02,
  graph_node_type_host = 0x03,
  graph_node_type_graph = 0x04,
  graph_node_type_empty = 0x05,
  graph_node_type_wait_event = 0x06,
  graph_node_type_event_record = 0x07,
  graph_node_type_ext_semaphore_signal = 0x08,
  graph_node_type_ext_semaphore_wait = 0x09,
  graph_node_type_mem_alloc = 0x0a,
  graph_node_type_mem_free = 0x0b,
  graph_node_type_conditional = 0x0d,
  graph_node_type_count
};
enum graph_conditional_node_type { graph_cond_type_if = 0, graph_cond_type_while = 1, graph_cond_type_switch = 2 };
constexpr unsigned graph_cond_assign_default = 1;
enum graph_exec_update_result {
  graph_exec_update_success = 0,
  graph_exec_update_error = 1,
  graph_exec_update_error_topology_changed = 2,
  graph_exec_update_error_node_type_changed = 3,
  graph_exec_update_error_function_changed = 4,
  graph_exec_update_error_parameters_changed = 5,
  graph_exec_update_error_not_supported = 6,
  graph_exec_update_error_unsupported_function_change = 7,
  graph_exec_update_error_attributes_changed = 8
};
enum graph_mem_attribute_type {
  graph_mem_attr_used_mem_current = 0,
  graph_mem_attr_used_mem_high = 1,
  graph_mem_attr_reserved_mem_current = 2,
  graph_mem_attr_reserved_mem_high = 3
};
enum graph_child_graph_node_ownership { graph_child_graph_ownership_clone = 0, graph_child_graph_ownership_move = 1 };
constexpr unsigned long long graph_instantiate_flag_auto_free_on_launch = 1, graph_instantiate_flag_upload = 2,
                             graph_instantiate_flag_device_launch = 4, graph_instantiate_flag_use_node_priority = 8;
constexpr unsigned graph_debug_dot_flags_verbose = 1;
// Memory pools' properties (cudaMemPoolProps, for memory allocation nodes)
enum mem_allocation_type { mem_allocation_type_invalid = 0, mem_allocation_type_pinned = 1 };
enum mem_allocation_handle_type { mem_handle_type_none = 0, mem_handle_type_posix_file_descriptor = 1, mem_handle_type_win32 = 2, mem_handle_type_win32_kmt = 4, mem_handle_type_fabric = 8 };
enum mem_access_flags { mem_access_flags_prot_none = 0, mem_access_flags_prot_read = 1, mem_access_flags_prot_read_write = 3 };
struct mem_pool_props {
  mem_allocation_type allocType;
  mem_allocation_handle_type handleTypes;
  mem_location location;
  void *win32SecurityAttributes;
  std::size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
struct mem_access_desc {
  mem_location location;
  mem_access_flags flags;
};

namespace detail {
struct graph_exec_rec;
struct cond_state;
struct graph_alloc;
} // namespace detail
using graph_t = detail::graph_rec *;
using graph_node_t = detail::graph_node *;
using graph_op = detail::graph_op;
// A conditional node's handle (cudaGraphConditionalHandle): the address of its value, which
// kernels set with cudaGraphSetConditional (in host memory the device writes).
using graph_conditional_handle = unsigned *;
inline void graph_set_conditional(graph_conditional_handle h, unsigned value) { *h = value; }

// A kernel node's parameters (cudaKernelNodeParams). `func` is what syclify writes where the
// CUDA code named the kernel: a function that reads the arguments the node is given (one pointer
// per kernel parameter, in the kernel's own types) and returns the launch.
struct kernel_node_params;
using kernel_node_fn = graph_op (*)(const kernel_node_params &);
struct kernel_node_params {
  kernel_node_fn func;
  sycl::range<3> gridDim{0, 0, 0}; // a migrated dim3: z, y, x
  sycl::range<3> blockDim{0, 0, 0};
  unsigned sharedMemBytes;
  void **kernelParams;
  void **extra;
};
namespace detail {
// The next argument of type E in an argument buffer: at `off` rounded up to
// E's alignment; `off` moves past it.
template <class E> void *buffer_argument(unsigned char *buf, std::size_t &off) {
  off = (off + alignof(E) - 1) / alignof(E) * alignof(E);
  void *at = buf + off;
  off += sizeof(E);
  return at;
}
// `extra` instead of kernelParams ({CU_LAUNCH_PARAM_BUFFER_POINTER, buffer,
// CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END}): the arguments one
// after the other in one buffer, each at its type's alignment, as CUDA reads them.
template <std::size_t At, std::size_t Extra, class... P, std::size_t... I>
std::array<void *, sizeof...(I)> args_in_buffer(void **extra, std::index_sequence<I...>) {
  unsigned char *buf = nullptr;
  for (void **e = extra; e && *e; e += 2)
    if (*e == reinterpret_cast<void *>(0x01))
      buf = static_cast<unsigned char *>(e[1]);
  if (!buf && sizeof...(I) > 0)
    throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "a launch without kernelParams or an argument buffer");
  using T = std::tuple<std::decay_t<P>...>;
  std::size_t off = 0;
  // (a braced list: the arguments are placed in order)
  return std::array<void *, sizeof...(I)>{buffer_argument<packed_param_t<I, At, Extra, T>>(buf, off)...};
}
} // namespace detail
// The arguments of a kernel node or a driver launch: kernelParams, or else
// the buffer in `extra`.
template <std::size_t N, std::size_t At = N, std::size_t Extra = 0, class R, class... P> auto unpack_args(R (*k)(P...), const kernel_node_params &p) {
  if (p.kernelParams || N == 0)
    return unpack_args<N, At, Extra>(k, p.kernelParams);
  std::array<void *, N> a = detail::args_in_buffer<At, Extra, P...>(p.extra, std::make_index_sequence<N>{});
  return unpack_args<N, At, Extra>(k, a.data());
}
struct memset_params {
  void *dst;
  std::size_t pitch;
  unsigned value;
  unsigned elementSize;
  std::size_t width;
  std::size_t height;
};
struct host_node_params {
  host_fn_t fn;
  void *userData;
};
struct memcpy_node_params {
  int flags;
  int reserved[3];
  memcpy3d_parms copyParams;
};
struct child_graph_node_params {
  graph_t graph;
  graph_child_graph_node_ownership ownership;
};
struct event_record_node_params {
  event_t event;
};
struct event_wait_node_params {
  event_t event;
};
struct mem_alloc_node_params {
  mem_pool_props poolProps;
  const mem_access_desc *accessDescs;
  std::size_t accessDescCount;
  std::size_t bytesize;
  void *dptr; // out: the allocation
};
struct mem_free_node_params {
  void *dptr;
};
struct conditional_node_params {
  graph_conditional_handle handle;
  graph_conditional_node_type type;
  unsigned size;
  graph_t *phGraph_out; // out: the bodies, owned by the node
};
// cudaGraphNodeParams (cudaGraphAddNode): the type and the parameters of that type.
struct graph_node_params {
  graph_node_type type;
  int reserved0[3];
  kernel_node_params kernel;
  memcpy_node_params memcpy;
  memset_params memset;
  host_node_params host;
  child_graph_node_params graph;
  event_wait_node_params eventWait;
  event_record_node_params eventRecord;
  mem_alloc_node_params alloc;
  mem_free_node_params free;
  conditional_node_params conditional;
  long long reserved2;
};
struct graph_edge_data {
  unsigned char from_port, to_port, type, reserved[5];
};
struct graph_exec_update_result_info {
  graph_exec_update_result result;
  graph_node_t errorNode;
  graph_node_t errorFromNode;
};

namespace detail {
// A conditional handle's value (host memory the device writes) and its default.
struct cond_state {
  unsigned *value;
  unsigned dflt;
  unsigned flags;
  ~cond_state() { sycl::free(value, legacy_queue()); }
};
// A graph's memory allocation (a memory allocation node's): made when the node is added, at the
// address the node reports, and kept there while a graph or executable graph holds it. Freeing it
// — a memory free node in any graph, a captured cudaFreeAsync, or the program's cudaFree /
// cudaFreeAsync (usm_free and free_async ask given_back_to_graph) — only marks it: a later launch uses
// the same address again, as CUDA's does, and the memory goes when the last holder does.
struct graph_mem_stats {
  std::mutex m;
  std::size_t used = 0, high = 0;
};
inline graph_mem_stats &graph_mem() {
  static graph_mem_stats s;
  return s;
}
struct graph_alloc {
  void *ptr;
  std::size_t bytes;
  std::atomic<bool> freed_in_graph{false};
  graph_alloc(void *p, std::size_t n) : ptr(p), bytes(n) {
    graph_allocations().fetch_add(1);
    graph_mem_stats &s = graph_mem();
    std::lock_guard<std::mutex> lock(s.m);
    s.used += n;
    s.high = std::max(s.high, s.used);
  }
  ~graph_alloc() {
    {
      graph_mem_stats &s = graph_mem();
      std::lock_guard<std::mutex> lock(s.m);
      s.used -= bytes;
    }
    graph_allocations().fetch_sub(1);
    if (freed_in_graph)
      sycl::free(ptr, legacy_queue());
  }
};
// The allocations graphs made and the conditional handles they created, by address.
struct graph_registry {
  std::mutex m;
  std::map<const void *, std::weak_ptr<graph_alloc>> allocs;
  std::map<const void *, std::weak_ptr<cond_state>> conds;
};
inline graph_registry &graph_objects() {
  static graph_registry r;
  return r;
}

struct graph_node {
  graph_rec *owner;
  std::size_t index; // the order it was added in (its place in owner->nodes)
  graph_node_params p{};
  std::vector<graph_node *> deps;
  graph_op op; // kernel, memcpy, memset, host, event and captured nodes
  std::vector<std::unique_ptr<graph_rec>> bodies; // a child graph (a copy) or a conditional's bodies
  std::vector<graph_t> body_handles;              // what phGraph_out points to
  std::shared_ptr<graph_alloc> alloc;             // memory nodes
  std::shared_ptr<cond_state> cond;               // conditional nodes
  const graph_node *origin = nullptr;             // what it is a copy of (cudaGraphClone)
};
struct graph_rec {
  std::vector<std::unique_ptr<graph_node>> nodes;
  std::vector<std::shared_ptr<cond_state>> conds; // handles created for it
};

inline graph_node *add_node(graph_rec *g, graph_node_type t, const graph_node_t *deps, std::size_t n) {
  if (!g || (n && !deps))
    throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "graph node: no graph or no dependency list");
  for (std::size_t i = 0; i < n; ++i)
    if (!deps[i] || deps[i]->owner != g)
      throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "graph node: a dependency is not a node of this graph");
  auto node = std::make_unique<graph_node>();
  node->owner = g;
  node->index = g->nodes.size();
  node->p.type = t;
  node->deps.assign(deps, deps + n);
  std::sort(node->deps.begin(), node->deps.end());
  node->deps.erase(std::unique(node->deps.begin(), node->deps.end()), node->deps.end());
  g->nodes.push_back(std::move(node));
  return g->nodes.back().get();
}
inline bool graph_release(void *p) {
  graph_registry &r = graph_objects();
  std::lock_guard<std::mutex> lock(r.m);
  auto it = r.allocs.find(p);
  std::shared_ptr<graph_alloc> a = it == r.allocs.end() ? nullptr : it->second.lock();
  if (!a)
    return false;
  a->freed_in_graph = true;
  return true;
}
inline void graph_record(capture_entry *c, graph_op op, int type) {
  graph_node *n = add_node(c->g, static_cast<graph_node_type>(type), c->frontier.data(), c->frontier.size());
  n->op = std::move(op);
  c->frontier.assign(1, n);
}
// cudaMallocAsync while capturing: the allocation is the graph's (its alloc node's).
inline void graph_adopt_alloc(capture_entry *c, void *p, std::size_t bytes) {
  auto a = std::make_shared<graph_alloc>(p, bytes);
  c->frontier.front()->alloc = a;
  graph_registry &r = graph_objects();
  std::lock_guard<std::mutex> lock(r.m);
  r.allocs[p] = a;
}
// cudaFreeAsync while capturing: a free node of a graph's allocation, or of other memory, which
// the graph then frees when it goes.
inline void graph_adopt(capture_entry *c, void *p) {
  std::shared_ptr<graph_alloc> a;
  {
    graph_registry &r = graph_objects();
    std::lock_guard<std::mutex> lock(r.m);
    auto it = r.allocs.find(p);
    a = it == r.allocs.end() ? nullptr : it->second.lock();
  }
  if (!a)
    a = std::make_shared<graph_alloc>(p, 0);
  a->freed_in_graph = true;
  c->frontier.front()->alloc = a;
}
inline void capture_join(const sycl::queue &q, event_t e) {
  capture_registry &c = captures();
  std::lock_guard<std::mutex> lock(c.m);
  bool live = false;
  for (auto &x : c.by_queue)
    live = live || x->g == e->capture;
  if (!live) // the capture ended: the event stands for nothing to wait for
    return;
  for (auto &x : c.by_queue)
    if (x->q == &q) {
      if (x->g != e->capture)
        throw sycl::exception(std::error_code(error_stream_capture_unsupported, cuda_category()), "cudaStreamWaitEvent: the stream captures another graph");
      for (graph_node *n : e->capture_at)
        if (std::find(x->frontier.begin(), x->frontier.end(), n) == x->frontier.end())
          x->frontier.push_back(n);
      return;
    }
  c.by_queue.push_back(std::unique_ptr<capture_entry>(new capture_entry{&q, e->capture, e->capture_at, false}));
  c.active.fetch_add(1);
}

// The operation of a kernel, memcpy, memset, host or event node from its parameters.
inline graph_op node_op(const graph_node_params &p) {
  switch (p.type) {
  case graph_node_type_kernel:
    if (!p.kernel.func)
      throw sycl::exception(std::error_code(error_invalid_device_function, cuda_category()), "kernel node without a kernel");
    return p.kernel.func(p.kernel);
  case graph_node_type_memcpy: {
    const memcpy3d_parms c = flatten_3d(&p.memcpy.copyParams);
    return [c](sycl::queue &q) { copy_3d(q, c); };
  }
  case graph_node_type_memset: {
    const memset_params m = p.memset;
    if (m.elementSize != 1 && m.elementSize != 2 && m.elementSize != 4)
      throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "memset node: elementSize must be 1, 2 or 4");
    return [m](sycl::queue &q) {
      const std::size_t rows = m.height ? m.height : 1;
      for (std::size_t r = 0; r < rows; ++r) {
        char *row = static_cast<char *>(m.dst) + r * m.pitch;
        if (m.elementSize == 1)
          q.memset(row, static_cast<int>(m.value & 0xff), m.width);
        else if (m.elementSize == 2)
          q.fill(reinterpret_cast<std::uint16_t *>(row), static_cast<std::uint16_t>(m.value), m.width);
        else
          q.fill(reinterpret_cast<std::uint32_t *>(row), static_cast<std::uint32_t>(m.value), m.width);
      }
    };
  }
  case graph_node_type_host: {
    const host_node_params h = p.host;
    if (!h.fn)
      throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "host node without a function");
    return [h](sycl::queue &q) { host_task(q, [h] { h.fn(h.userData); }); };
  }
  case graph_node_type_event_record: {
    event_t e = p.eventRecord.event;
    return [e](sycl::queue &q) { event_record_on(e, q); };
  }
  case graph_node_type_wait_event: {
    event_t e = p.eventWait.event;
    return [e](sycl::queue &q) { wait_event_on(q, e); };
  }
  default:
    return [](sycl::queue &) {};
  }
}

inline graph_rec *clone_graph(const graph_rec &g);
// A node of graph g from its parameters (cudaGraphAddNode and the typed calls). Writes what
// CUDA writes back: a memory allocation's address, a conditional node's bodies.
inline graph_node *make_node(graph_rec *g, const graph_node_t *deps, std::size_t n, graph_node_params &p) {
  graph_node *node = add_node(g, p.type, deps, n);
  try {
    switch (p.type) {
    case graph_node_type_kernel:
    case graph_node_type_memcpy:
    case graph_node_type_memset:
    case graph_node_type_host:
    case graph_node_type_event_record:
    case graph_node_type_wait_event:
      node->op = node_op(p);
      break;
    case graph_node_type_empty:
      break;
    case graph_node_type_graph:
      if (!p.graph.graph)
        throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "child graph node without a graph");
      node->bodies.emplace_back(clone_graph(*p.graph.graph));
      break;
    case graph_node_type_mem_alloc: {
      if (p.alloc.bytesize == 0)
        throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "memory allocation node of 0 bytes");
      void *mem = sycl::malloc_device(p.alloc.bytesize, legacy_queue());
      if (!mem)
        throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation), "memory allocation node");
      node->alloc = std::make_shared<graph_alloc>(mem, p.alloc.bytesize);
      p.alloc.dptr = mem;
      graph_registry &r = graph_objects();
      std::lock_guard<std::mutex> lock(r.m);
      r.allocs[mem] = node->alloc;
      break;
    }
    case graph_node_type_mem_free: {
      graph_registry &r = graph_objects();
      std::lock_guard<std::mutex> lock(r.m);
      auto it = r.allocs.find(p.free.dptr);
      node->alloc = it == r.allocs.end() ? nullptr : it->second.lock();
      if (!node->alloc)
        throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "memory free node: not an allocation of a graph");
      node->alloc->freed_in_graph = true;
      break;
    }
    case graph_node_type_conditional: {
      const conditional_node_params &c = p.conditional;
      const unsigned max = c.type == graph_cond_type_switch ? ~0u : c.type == graph_cond_type_if ? 2u : 1u;
      if (c.size < 1 || c.size > max || c.type > graph_cond_type_switch)
        throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "conditional node: bad type or size");
      {
        graph_registry &r = graph_objects();
        std::lock_guard<std::mutex> lock(r.m);
        auto it = r.conds.find(c.handle);
        node->cond = it == r.conds.end() ? nullptr : it->second.lock();
      }
      if (!node->cond)
        throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "conditional node: not a handle of cudaGraphConditionalHandleCreate");
      for (unsigned i = 0; i < c.size; ++i) {
        node->bodies.emplace_back(new graph_rec{});
        node->body_handles.push_back(node->bodies.back().get());
      }
      p.conditional.phGraph_out = node->body_handles.data();
      break;
    }
    default:
      throw sycl::exception(sycl::make_error_code(sycl::errc::feature_not_supported), "this graph node type is not supported");
    }
  } catch (...) {
    g->nodes.pop_back();
    throw;
  }
  node->p = p;
  return node;
}

inline graph_rec *clone_graph(const graph_rec &g) {
  auto c = std::make_unique<graph_rec>();
  c->conds = g.conds;
  for (auto &n : g.nodes) {
    auto m = std::make_unique<graph_node>();
    m->owner = c.get();
    m->index = n->index;
    m->p = n->p;
    m->op = n->op;
    m->alloc = n->alloc;
    m->cond = n->cond;
    m->origin = n.get();
    for (auto &b : n->bodies) {
      m->bodies.emplace_back(clone_graph(*b));
      m->body_handles.push_back(m->bodies.back().get());
    }
    if (m->p.type == graph_node_type_conditional)
      m->p.conditional.phGraph_out = m->body_handles.data();
    c->nodes.push_back(std::move(m));
  }
  // (a dependency added later may point to a node added later)
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (graph_node *d : g.nodes[i]->deps)
      c->nodes[i]->deps.push_back(c->nodes[d->index].get());
  return c.release();
}

// The nodes of g, dependencies first; among the nodes that are ready, the one added first.
inline std::vector<const graph_node *> sorted_nodes(const graph_rec &g) {
  const std::size_t n = g.nodes.size();
  std::vector<std::size_t> waiting(n);
  std::vector<std::vector<std::size_t>> next(n);
  for (std::size_t i = 0; i < n; ++i) {
    waiting[i] = g.nodes[i]->deps.size();
    for (graph_node *d : g.nodes[i]->deps)
      next[d->index].push_back(i);
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<std::size_t>> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (waiting[i] == 0)
      ready.push(i);
  std::vector<const graph_node *> out;
  out.reserve(n);
  while (!ready.empty()) {
    std::size_t i = ready.top();
    ready.pop();
    out.push_back(g.nodes[i].get());
    for (std::size_t j : next[i])
      if (--waiting[j] == 0)
        ready.push(j);
  }
  if (out.size() != n)
    throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "cudaGraphInstantiate: the graph's dependencies form a cycle");
  return out;
}

// An executable graph: its steps in order, the conditional handles to reset at each launch,
// and what its steps use.
struct graph_step {
  const graph_node *node; // the node it came from (cudaGraphExec*SetParams, cudaGraphNodeSetEnabled)
  std::size_t index;      // its place in its graph (the graph may be gone)
  graph_op op;
  bool enabled = true;
};
struct graph_exec_rec {
  std::vector<graph_step> steps;
  std::vector<std::shared_ptr<cond_state>> conds;
  std::vector<std::shared_ptr<graph_alloc>> allocs;
  // the graph's shape when it was instantiated: each node's type and dependencies
  std::vector<std::pair<int, std::vector<std::size_t>>> shape;
};
inline void run_steps(const graph_exec_rec &e, sycl::queue &q) {
  for (const graph_step &s : e.steps)
    if (s.enabled)
      s.op(q);
}
inline void instantiate_into(const graph_rec &g, graph_exec_rec &e, std::vector<std::shared_ptr<cond_state>> &conds) {
  for (auto &c : g.conds)
    conds.push_back(c);
  for (const graph_node *n : sorted_nodes(g)) {
    if (n->alloc)
      e.allocs.push_back(n->alloc);
    switch (n->p.type) {
    case graph_node_type_graph: {
      auto child = std::make_shared<graph_exec_rec>();
      instantiate_into(*n->bodies[0], *child, conds);
      e.steps.push_back({n, n->index, [child](sycl::queue &q) { run_steps(*child, q); }});
      break;
    }
    case graph_node_type_conditional: {
      auto bodies = std::make_shared<std::vector<graph_exec_rec>>(n->bodies.size());
      for (std::size_t i = 0; i < n->bodies.size(); ++i)
        instantiate_into(*n->bodies[i], (*bodies)[i], conds);
      const graph_conditional_node_type type = n->p.conditional.type;
      std::shared_ptr<cond_state> cond = n->cond;
      // the handle is read on the host once the work before it is done
      e.steps.push_back({n, n->index, [cond, bodies, type](sycl::queue &q) {
                           q.wait_and_throw();
                           unsigned v = *cond->value;
                           if (type == graph_cond_type_while) {
                             while (v) {
                               run_steps((*bodies)[0], q);
                               q.wait_and_throw();
                               v = *cond->value;
                             }
                           } else if (type == graph_cond_type_if) {
                             if (v)
                               run_steps((*bodies)[0], q);
                             else if (bodies->size() > 1)
                               run_steps((*bodies)[1], q);
                           } else if (v < bodies->size()) {
                             run_steps((*bodies)[v], q);
                           }
                         }});
      break;
    }
    default:
      if (n->op)
        e.steps.push_back({n, n->index, n->op});
    }
  }
}
inline graph_exec_rec *instantiate(const graph_rec &g) {
  auto e = std::make_unique<graph_exec_rec>();
  instantiate_into(g, *e, e->conds);
  for (auto &n : g.nodes) {
    std::vector<std::size_t> deps;
    for (graph_node *d : n->deps)
      deps.push_back(d->index);
    std::sort(deps.begin(), deps.end());
    e->shape.emplace_back(static_cast<int>(n->p.type), std::move(deps));
  }
  return e.release();
}
inline graph_step *step_of(graph_exec_rec *e, graph_node_t node) {
  if (!e || !node)
    return nullptr;
  for (graph_step &s : e->steps)
    if (s.node == node)
      return &s;
  return nullptr;
}
inline void renumber(graph_rec *g) {
  for (std::size_t i = 0; i < g->nodes.size(); ++i)
    g->nodes[i]->index = i;
}
// cudaGraphGetNodes-style lists: the count when `out` is null, else up to *n entries (the rest
// nulled) and the count filled.
template <class T> void list_out(const std::vector<T> &all, T *out, std::size_t *n) {
  if (!out) {
    *n = all.size();
    return;
  }
  for (std::size_t i = 0; i < *n; ++i)
    out[i] = i < all.size() ? all[i] : T{};
  *n = std::min(*n, all.size());
}
} // namespace detail

struct graph_exec : detail::graph_exec_rec {};
using graph_exec_t = graph_exec *;

// Stream capture
enum stream_capture_mode { stream_capture_mode_global = 0, stream_capture_mode_thread_local = 1, stream_capture_mode_relaxed = 2 };
enum stream_capture_status { stream_capture_status_none = 0, stream_capture_status_active = 1, stream_capture_status_invalidated = 2 };
namespace detail {
inline error_t begin_capture(stream_t s, graph_rec *g, const graph_node_t *deps, std::size_t n) {
  capture_registry &c = captures();
  const sycl::queue *q = &queue_of(s);
  std::lock_guard<std::mutex> lock(c.m);
  for (auto &e : c.by_queue)
    if (e->q == q)
      return record(error_invalid_value); // already capturing
  c.by_queue.push_back(std::unique_ptr<capture_entry>(new capture_entry{q, g, std::vector<graph_node *>(deps, deps + n), true}));
  c.active.fetch_add(1);
  return success;
}
} // namespace detail
inline error_t stream_begin_capture(stream_t s, int = stream_capture_mode_global) { return detail::begin_capture(s, new detail::graph_rec{}, nullptr, 0); }
// cudaStreamBeginCaptureToGraph: into an existing graph, after `deps`.
inline error_t stream_begin_capture_to_graph(stream_t s, graph_t g, const graph_node_t *deps, const graph_edge_data *, std::size_t n, int = stream_capture_mode_global) {
  if (!g || (n && !deps))
    return detail::record(error_invalid_value);
  return detail::begin_capture(s, g, deps, n);
}
// Ends the capture the stream began, with every stream that joined it.
inline error_t stream_end_capture(stream_t s, graph_t *g) {
  detail::capture_registry &c = detail::captures();
  const sycl::queue *q = &queue_of(s);
  std::lock_guard<std::mutex> lock(c.m);
  for (auto &e : c.by_queue)
    if (e->q == q && e->origin) {
      detail::graph_rec *graph = e->g;
      const std::size_t before = c.by_queue.size();
      c.by_queue.erase(std::remove_if(c.by_queue.begin(), c.by_queue.end(), [&](const std::unique_ptr<detail::capture_entry> &x) { return x->g == graph; }), c.by_queue.end());
      c.active.fetch_sub(static_cast<int>(before - c.by_queue.size()));
      if (g)
        *g = graph;
      return success;
    }
  return detail::record(error_invalid_value); // not capturing, or joined another stream's capture
}
inline error_t stream_is_capturing(stream_t s, stream_capture_status *st) {
  *st = detail::capturing(queue_of(s)) ? stream_capture_status_active : stream_capture_status_none;
  return success;
}
// cudaStreamGetCaptureInfo: the status, an id, the graph and the nodes the next operation
// depends on (valid until the stream's next operation).
inline error_t stream_get_capture_info(stream_t s, stream_capture_status *st, unsigned long long *id = nullptr, graph_t *g = nullptr, const graph_node_t **deps = nullptr, const graph_edge_data **edges = nullptr, std::size_t *n = nullptr) {
  detail::capture_entry *c = detail::capturing(queue_of(s));
  if (st)
    *st = c ? stream_capture_status_active : stream_capture_status_none;
  if (id)
    *id = c ? static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(c->g)) : 0;
  if (g)
    *g = c ? c->g : nullptr;
  if (deps)
    *deps = c ? c->frontier.data() : nullptr;
  if (edges)
    *edges = nullptr;
  if (n)
    *n = c ? c->frontier.size() : 0;
  return success;
}
inline error_t stream_get_capture_info(stream_t s, stream_capture_status *st, unsigned long long *id, graph_t *g, const graph_node_t **deps, std::size_t *n) {
  return stream_get_capture_info(s, st, id, g, deps, nullptr, n);
}
// cudaStreamUpdateCaptureDependencies: adds to the stream's dependencies, or sets them.
constexpr unsigned stream_add_capture_dependencies = 0, stream_set_capture_dependencies = 1;
inline error_t stream_update_capture_dependencies(stream_t s, graph_node_t *deps, std::size_t n, unsigned flags = 0) {
  detail::capture_entry *c = detail::capturing(queue_of(s));
  if (!c || (n && !deps) || flags > 1)
    return detail::record(error_invalid_value);
  if (flags == 1)
    c->frontier.clear();
  for (std::size_t i = 0; i < n; ++i)
    if (std::find(c->frontier.begin(), c->frontier.end(), deps[i]) == c->frontier.end())
      c->frontier.push_back(deps[i]);
  return success;
}
inline error_t stream_update_capture_dependencies(stream_t s, graph_node_t *deps, const graph_edge_data *, std::size_t n, unsigned flags = 0) {
  return stream_update_capture_dependencies(s, deps, n, flags);
}

// Graphs
inline error_t graph_create(graph_t *g, unsigned = 0) {
  if (!g)
    return detail::record(error_invalid_value);
  *g = new detail::graph_rec{};
  return success;
}
inline error_t graph_destroy(graph_t g) {
  delete g;
  return success;
}
inline error_t graph_clone(graph_t *out, graph_t g) {
  if (!out || !g)
    return detail::record(error_invalid_value);
  *out = detail::clone_graph(*g);
  return success;
}
inline error_t graph_node_find_in_clone(graph_node_t *out, graph_node_t original, graph_t clone) {
  if (!out || !original || !clone)
    return detail::record(error_invalid_value);
  for (auto &n : clone->nodes)
    if (n->origin == original) {
      *out = n.get();
      return success;
    }
  return detail::record(error_invalid_value);
}
// cudaGraphConditionalHandleCreate: the value starts at `default_value`, and is set to it again
// at every launch with cudaGraphCondAssignDefault.
inline error_t graph_conditional_handle_create(graph_conditional_handle *h, graph_t g, unsigned default_value = 0, unsigned flags = 0) {
  if (!h || !g || flags > graph_cond_assign_default)
    return detail::record(error_invalid_value);
  return detail::guarded([&] {
    unsigned *v = sycl::malloc_host<unsigned>(1, detail::legacy_queue());
    if (!v)
      throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation), "conditional handle");
    *v = default_value;
    auto c = std::make_shared<detail::cond_state>();
    c->value = v;
    c->dflt = default_value;
    c->flags = flags;
    g->conds.push_back(c);
    detail::graph_registry &r = detail::graph_objects();
    std::lock_guard<std::mutex> lock(r.m);
    r.conds[v] = c;
    *h = v;
  });
}

// Nodes
namespace detail {
inline error_t add(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, graph_node_params &p) {
  if (!out)
    return record(error_invalid_value);
  return guarded([&] { *out = make_node(g, deps, n, p); });
}
// A node of type t whose parameters `set` fills in (the typed cudaGraphAdd*Node calls).
template <class Set> error_t add_typed(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, graph_node_type t, Set &&set) {
  graph_node_params p{};
  p.type = t;
  set(p);
  return add(out, g, deps, n, p);
}
} // namespace detail
inline error_t graph_add_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, graph_node_params *p) {
  if (!p)
    return detail::record(error_invalid_value);
  return detail::add(out, g, deps, n, *p);
}
inline error_t graph_add_node(graph_node_t *out, graph_t g, const graph_node_t *deps, const graph_edge_data *, std::size_t n, graph_node_params *p) {
  return graph_add_node(out, g, deps, n, p);
}
inline error_t graph_add_kernel_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, const kernel_node_params *k) {
  if (!k)
    return detail::record(error_invalid_value);
  return detail::add_typed(out, g, deps, n, graph_node_type_kernel, [&](graph_node_params &p) { p.kernel = *k; });
}
inline error_t graph_add_memcpy_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, const memcpy3d_parms *c) {
  if (!c)
    return detail::record(error_invalid_value);
  return detail::add_typed(out, g, deps, n, graph_node_type_memcpy, [&](graph_node_params &p) { p.memcpy.copyParams = *c; });
}
namespace detail {
inline memcpy3d_parms linear_copy(void *dst, const void *src, std::size_t count) {
  memcpy3d_parms c{};
  c.srcPtr = pitched_ptr{const_cast<void *>(src), count, count, 1};
  c.dstPtr = pitched_ptr{dst, count, count, 1};
  c.extent = extent_3d{count, 1, 1};
  return c;
}
} // namespace detail
inline error_t graph_add_memcpy_node_1d(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, void *dst, const void *src, std::size_t count, memcpy_kind = memcpy_default) {
  const memcpy3d_parms c = detail::linear_copy(dst, src, count);
  return graph_add_memcpy_node(out, g, deps, n, &c);
}
template <class T, bool S>
error_t graph_add_memcpy_node_to_symbol(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, symbol<T, S> &sym, const void *src, std::size_t count, std::size_t offset = 0, memcpy_kind = memcpy_host_to_device) {
  return graph_add_memcpy_node_1d(out, g, deps, n, reinterpret_cast<char *>(sym.get_ptr()) + offset, src, count);
}
template <class T, bool S>
error_t graph_add_memcpy_node_from_symbol(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, void *dst, symbol<T, S> &sym, std::size_t count, std::size_t offset = 0, memcpy_kind = memcpy_device_to_host) {
  return graph_add_memcpy_node_1d(out, g, deps, n, dst, reinterpret_cast<const char *>(sym.get_ptr()) + offset, count);
}
inline error_t graph_add_memset_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, const memset_params *m) {
  if (!m)
    return detail::record(error_invalid_value);
  return detail::add_typed(out, g, deps, n, graph_node_type_memset, [&](graph_node_params &p) { p.memset = *m; });
}
inline error_t graph_add_host_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, const host_node_params *h) {
  if (!h)
    return detail::record(error_invalid_value);
  return detail::add_typed(out, g, deps, n, graph_node_type_host, [&](graph_node_params &p) { p.host = *h; });
}
inline error_t graph_add_child_graph_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, graph_t child) {
  return detail::add_typed(out, g, deps, n, graph_node_type_graph, [&](graph_node_params &p) { p.graph.graph = child; });
}
inline error_t graph_add_empty_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n) {
  return detail::add_typed(out, g, deps, n, graph_node_type_empty, [](graph_node_params &) {});
}
inline error_t graph_add_event_record_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, event_t e) {
  if (!e)
    return detail::record(error_invalid_value);
  return detail::add_typed(out, g, deps, n, graph_node_type_event_record, [&](graph_node_params &p) { p.eventRecord.event = e; });
}
inline error_t graph_add_event_wait_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, event_t e) {
  if (!e)
    return detail::record(error_invalid_value);
  return detail::add_typed(out, g, deps, n, graph_node_type_wait_event, [&](graph_node_params &p) { p.eventWait.event = e; });
}
inline error_t graph_add_mem_alloc_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, mem_alloc_node_params *a) {
  if (!a)
    return detail::record(error_invalid_value);
  graph_node_params p{};
  p.type = graph_node_type_mem_alloc;
  p.alloc = *a;
  error_t r = detail::add(out, g, deps, n, p);
  if (r == success)
    a->dptr = p.alloc.dptr;
  return r;
}
inline error_t graph_add_mem_free_node(graph_node_t *out, graph_t g, const graph_node_t *deps, std::size_t n, void *dptr) {
  return detail::add_typed(out, g, deps, n, graph_node_type_mem_free, [&](graph_node_params &p) { p.free.dptr = dptr; });
}
inline error_t graph_destroy_node(graph_node_t node) {
  if (!node)
    return detail::record(error_invalid_value);
  detail::graph_rec *g = node->owner;
  for (auto &n : g->nodes)
    n->deps.erase(std::remove(n->deps.begin(), n->deps.end(), node), n->deps.end());
  g->nodes.erase(g->nodes.begin() + static_cast<std::ptrdiff_t>(node->index));
  detail::renumber(g);
  return success;
}

// Node parameters
inline error_t graph_node_get_type(graph_node_t node, graph_node_type *t) {
  if (!node || !t)
    return detail::record(error_invalid_value);
  *t = node->p.type;
  return success;
}
namespace detail {
// The parameter `read` takes from a node of type t (cudaGraph*NodeGetParams).
template <class T, class Read> error_t get_param(graph_node_t node, graph_node_type t, T *out, Read &&read) {
  if (!node || !out || node->p.type != t)
    return record(error_invalid_value);
  *out = read(*node);
  return success;
}
template <class F> error_t set_params(graph_node_t node, graph_node_type t, F &&set) {
  if (!node || node->p.type != t)
    return record(error_invalid_value);
  return guarded([&] {
    graph_node_params p = node->p;
    set(p);
    node->op = node_op(p);
    node->p = p;
  });
}
} // namespace detail
inline error_t graph_kernel_node_get_params(graph_node_t node, kernel_node_params *k) {
  return detail::get_param(node, graph_node_type_kernel, k, [](const detail::graph_node &n) { return n.p.kernel; });
}
inline error_t graph_kernel_node_set_params(graph_node_t node, const kernel_node_params *k) {
  if (!k)
    return detail::record(error_invalid_value);
  return detail::set_params(node, graph_node_type_kernel, [&](graph_node_params &p) { p.kernel = *k; });
}
inline error_t graph_memcpy_node_get_params(graph_node_t node, memcpy3d_parms *c) {
  return detail::get_param(node, graph_node_type_memcpy, c, [](const detail::graph_node &n) { return n.p.memcpy.copyParams; });
}
inline error_t graph_memcpy_node_set_params(graph_node_t node, const memcpy3d_parms *c) {
  if (!c)
    return detail::record(error_invalid_value);
  return detail::set_params(node, graph_node_type_memcpy, [&](graph_node_params &p) { p.memcpy.copyParams = *c; });
}
inline error_t graph_memcpy_node_set_params_1d(graph_node_t node, void *dst, const void *src, std::size_t count, memcpy_kind = memcpy_default) {
  const memcpy3d_parms c = detail::linear_copy(dst, src, count);
  return graph_memcpy_node_set_params(node, &c);
}
inline error_t graph_memset_node_get_params(graph_node_t node, memset_params *m) {
  return detail::get_param(node, graph_node_type_memset, m, [](const detail::graph_node &n) { return n.p.memset; });
}
inline error_t graph_memset_node_set_params(graph_node_t node, const memset_params *m) {
  if (!m)
    return detail::record(error_invalid_value);
  return detail::set_params(node, graph_node_type_memset, [&](graph_node_params &p) { p.memset = *m; });
}
inline error_t graph_host_node_get_params(graph_node_t node, host_node_params *h) {
  return detail::get_param(node, graph_node_type_host, h, [](const detail::graph_node &n) { return n.p.host; });
}
inline error_t graph_host_node_set_params(graph_node_t node, const host_node_params *h) {
  if (!h)
    return detail::record(error_invalid_value);
  return detail::set_params(node, graph_node_type_host, [&](graph_node_params &p) { p.host = *h; });
}
inline error_t graph_child_graph_node_get_graph(graph_node_t node, graph_t *g) {
  return detail::get_param(node, graph_node_type_graph, g, [](const detail::graph_node &n) { return n.bodies[0].get(); });
}
inline error_t graph_mem_alloc_node_get_params(graph_node_t node, mem_alloc_node_params *a) {
  return detail::get_param(node, graph_node_type_mem_alloc, a, [](const detail::graph_node &n) { return n.p.alloc; });
}
inline error_t graph_mem_free_node_get_params(graph_node_t node, void *dptr_out) {
  return detail::get_param(node, graph_node_type_mem_free, static_cast<void **>(dptr_out), [](const detail::graph_node &n) { return n.p.free.dptr; });
}
inline error_t graph_event_record_node_get_event(graph_node_t node, event_t *e) {
  return detail::get_param(node, graph_node_type_event_record, e, [](const detail::graph_node &n) { return n.p.eventRecord.event; });
}
inline error_t graph_event_record_node_set_event(graph_node_t node, event_t e) {
  return detail::set_params(node, graph_node_type_event_record, [&](graph_node_params &p) { p.eventRecord.event = e; });
}
inline error_t graph_event_wait_node_get_event(graph_node_t node, event_t *e) {
  return detail::get_param(node, graph_node_type_wait_event, e, [](const detail::graph_node &n) { return n.p.eventWait.event; });
}
inline error_t graph_event_wait_node_set_event(graph_node_t node, event_t e) {
  return detail::set_params(node, graph_node_type_wait_event, [&](graph_node_params &p) { p.eventWait.event = e; });
}
// cudaGraphNodeSetParams: kernel, memcpy, memset, host and event nodes.
inline error_t graph_node_set_params(graph_node_t node, graph_node_params *p) {
  if (!node || !p || p->type != node->p.type || !node->op)
    return detail::record(error_invalid_value);
  return detail::set_params(node, p->type, [&](graph_node_params &q) { q = *p; });
}

// The graph's shape
inline error_t graph_get_nodes(graph_t g, graph_node_t *nodes, std::size_t *n) {
  if (!g || !n)
    return detail::record(error_invalid_value);
  std::vector<graph_node_t> all;
  for (auto &x : g->nodes)
    all.push_back(x.get());
  detail::list_out(all, nodes, n);
  return success;
}
inline error_t graph_get_root_nodes(graph_t g, graph_node_t *nodes, std::size_t *n) {
  if (!g || !n)
    return detail::record(error_invalid_value);
  std::vector<graph_node_t> all;
  for (auto &x : g->nodes)
    if (x->deps.empty())
      all.push_back(x.get());
  detail::list_out(all, nodes, n);
  return success;
}
inline error_t graph_get_edges(graph_t g, graph_node_t *from, graph_node_t *to, graph_edge_data *edges, std::size_t *n) {
  if (!g || !n || (from == nullptr) != (to == nullptr))
    return detail::record(error_invalid_value);
  std::vector<graph_node_t> f, t;
  for (auto &x : g->nodes)
    for (graph_node_t d : x->deps) {
      f.push_back(d);
      t.push_back(x.get());
    }
  std::size_t m = *n;
  detail::list_out(f, from, n);
  detail::list_out(t, to, &m);
  if (edges && from)
    for (std::size_t i = 0; i < m; ++i)
      edges[i] = graph_edge_data{};
  return success;
}
inline error_t graph_get_edges(graph_t g, graph_node_t *from, graph_node_t *to, std::size_t *n) { return graph_get_edges(g, from, to, nullptr, n); }
inline error_t graph_node_get_dependencies(graph_node_t node, graph_node_t *deps, graph_edge_data *, std::size_t *n) {
  if (!node || !n)
    return detail::record(error_invalid_value);
  detail::list_out(node->deps, deps, n);
  return success;
}
inline error_t graph_node_get_dependencies(graph_node_t node, graph_node_t *deps, std::size_t *n) { return graph_node_get_dependencies(node, deps, nullptr, n); }
inline error_t graph_node_get_dependent_nodes(graph_node_t node, graph_node_t *out, graph_edge_data *, std::size_t *n) {
  if (!node || !n)
    return detail::record(error_invalid_value);
  std::vector<graph_node_t> all;
  for (auto &x : node->owner->nodes)
    if (std::find(x->deps.begin(), x->deps.end(), node) != x->deps.end())
      all.push_back(x.get());
  detail::list_out(all, out, n);
  return success;
}
inline error_t graph_node_get_dependent_nodes(graph_node_t node, graph_node_t *out, std::size_t *n) { return graph_node_get_dependent_nodes(node, out, nullptr, n); }
inline error_t graph_add_dependencies(graph_t g, const graph_node_t *from, const graph_node_t *to, const graph_edge_data *, std::size_t n) {
  if (!g || (n && (!from || !to)))
    return detail::record(error_invalid_value);
  for (std::size_t i = 0; i < n; ++i)
    if (!from[i] || !to[i] || from[i]->owner != g || to[i]->owner != g || from[i] == to[i] ||
        std::find(to[i]->deps.begin(), to[i]->deps.end(), from[i]) != to[i]->deps.end())
      return detail::record(error_invalid_value);
  for (std::size_t i = 0; i < n; ++i)
    to[i]->deps.push_back(from[i]);
  return success;
}
inline error_t graph_add_dependencies(graph_t g, const graph_node_t *from, const graph_node_t *to, std::size_t n) { return graph_add_dependencies(g, from, to, nullptr, n); }
inline error_t graph_remove_dependencies(graph_t g, const graph_node_t *from, const graph_node_t *to, const graph_edge_data *, std::size_t n) {
  if (!g || (n && (!from || !to)))
    return detail::record(error_invalid_value);
  for (std::size_t i = 0; i < n; ++i)
    if (!to[i] || to[i]->owner != g || std::find(to[i]->deps.begin(), to[i]->deps.end(), from[i]) == to[i]->deps.end())
      return detail::record(error_invalid_value);
  for (std::size_t i = 0; i < n; ++i)
    to[i]->deps.erase(std::remove(to[i]->deps.begin(), to[i]->deps.end(), from[i]), to[i]->deps.end());
  return success;
}
inline error_t graph_remove_dependencies(graph_t g, const graph_node_t *from, const graph_node_t *to, std::size_t n) { return graph_remove_dependencies(g, from, to, nullptr, n); }
// cudaGraphDebugDotPrint: the nodes and edges in Graphviz's format.
inline error_t graph_debug_dot_print(graph_t g, const char *path, unsigned = 0) {
  if (!g || !path)
    return detail::record(error_invalid_value);
  std::ofstream out(path);
  if (!out)
    return detail::record(error_invalid_value);
  static const char *const names[] = {"kernel", "memcpy", "memset", "host", "graph", "empty", "wait_event", "event_record", "ext_semaphore_signal", "ext_semaphore_wait", "mem_alloc", "mem_free", "", "conditional"};
  out << "digraph syclify_graph {\n";
  for (auto &n : g->nodes)
    out << "  node" << n->index << " [label=\"" << n->index << ": " << (n->p.type <= graph_node_type_conditional ? names[n->p.type] : "?") << "\"];\n";
  for (auto &n : g->nodes)
    for (graph_node_t d : n->deps)
      out << "  node" << d->index << " -> node" << n->index << ";\n";
  out << "}\n";
  return out ? success : detail::record(error_invalid_value);
}

// Executable graphs
inline error_t graph_instantiate(graph_exec_t *e, graph_t g, unsigned long long = 0) {
  if (!e || !g)
    return detail::record(error_invalid_value);
  return detail::guarded([&] {
    std::unique_ptr<detail::graph_exec_rec> r(detail::instantiate(*g));
    auto x = std::make_unique<graph_exec>();
    static_cast<detail::graph_exec_rec &>(*x) = std::move(*r);
    *e = x.release();
  });
}
inline error_t graph_exec_destroy(graph_exec_t e) {
  delete e;
  return success;
}
inline error_t graph_upload(graph_exec_t e, stream_t = nullptr) { return e ? success : detail::record(error_invalid_value); }
// cudaGraphLaunch: the steps in order on the stream's queue (recorded as one node while the
// stream captures another graph).
inline error_t graph_launch(graph_exec_t e, stream_t s = nullptr) {
  if (!e)
    return detail::record(error_invalid_value);
  return detail::guarded([&] {
    sycl::queue &q = queue_of(s);
    auto run = [e](sycl::queue &rq) {
      for (auto &c : e->conds)
        if (c->flags & graph_cond_assign_default)
          rq.fill(c->value, c->dflt, 1);
      detail::run_steps(*e, rq);
    };
    if (detail::capture_entry *c = detail::capturing(q)) {
      detail::graph_record(c, run, graph_node_type_graph);
      return;
    }
    run(q);
  });
}
namespace detail {
template <class F> error_t exec_set(graph_exec_t e, graph_node_t node, graph_node_type t, F &&set) {
  graph_step *s = step_of(e, node);
  if (!s || node->p.type != t)
    return record(error_invalid_value);
  return guarded([&] {
    graph_node_params p = node->p;
    set(p);
    s->op = node_op(p);
  });
}
} // namespace detail
inline error_t graph_exec_kernel_node_set_params(graph_exec_t e, graph_node_t node, const kernel_node_params *k) {
  if (!k)
    return detail::record(error_invalid_value);
  return detail::exec_set(e, node, graph_node_type_kernel, [&](graph_node_params &p) { p.kernel = *k; });
}
inline error_t graph_exec_memcpy_node_set_params(graph_exec_t e, graph_node_t node, const memcpy3d_parms *c) {
  if (!c)
    return detail::record(error_invalid_value);
  return detail::exec_set(e, node, graph_node_type_memcpy, [&](graph_node_params &p) { p.memcpy.copyParams = *c; });
}
inline error_t graph_exec_memcpy_node_set_params_1d(graph_exec_t e, graph_node_t node, void *dst, const void *src, std::size_t count, memcpy_kind = memcpy_default) {
  const memcpy3d_parms c = detail::linear_copy(dst, src, count);
  return graph_exec_memcpy_node_set_params(e, node, &c);
}
inline error_t graph_exec_memset_node_set_params(graph_exec_t e, graph_node_t node, const memset_params *m) {
  if (!m)
    return detail::record(error_invalid_value);
  return detail::exec_set(e, node, graph_node_type_memset, [&](graph_node_params &p) { p.memset = *m; });
}
inline error_t graph_exec_host_node_set_params(graph_exec_t e, graph_node_t node, const host_node_params *h) {
  if (!h)
    return detail::record(error_invalid_value);
  return detail::exec_set(e, node, graph_node_type_host, [&](graph_node_params &p) { p.host = *h; });
}
inline error_t graph_exec_event_record_node_set_event(graph_exec_t e, graph_node_t node, event_t ev) {
  return detail::exec_set(e, node, graph_node_type_event_record, [&](graph_node_params &p) { p.eventRecord.event = ev; });
}
inline error_t graph_exec_event_wait_node_set_event(graph_exec_t e, graph_node_t node, event_t ev) {
  return detail::exec_set(e, node, graph_node_type_wait_event, [&](graph_node_params &p) { p.eventWait.event = ev; });
}
inline error_t graph_exec_node_set_params(graph_exec_t e, graph_node_t node, graph_node_params *p) {
  if (!p || !node || p->type != node->p.type)
    return detail::record(error_invalid_value);
  return detail::exec_set(e, node, p->type, [&](graph_node_params &q) { q = *p; });
}
inline error_t graph_exec_child_graph_node_set_params(graph_exec_t e, graph_node_t node, graph_t child) {
  detail::graph_step *s = detail::step_of(e, node);
  if (!s || !child || node->p.type != graph_node_type_graph)
    return detail::record(error_invalid_value);
  return detail::guarded([&] {
    auto c = std::make_shared<detail::graph_exec_rec>();
    detail::instantiate_into(*child, *c, e->conds);
    s->op = [c](sycl::queue &q) { detail::run_steps(*c, q); };
  });
}
inline error_t graph_node_set_enabled(graph_exec_t e, graph_node_t node, unsigned enabled) {
  detail::graph_step *s = detail::step_of(e, node);
  if (!s)
    return detail::record(error_invalid_value);
  s->enabled = enabled != 0;
  return success;
}
inline error_t graph_node_get_enabled(graph_exec_t e, graph_node_t node, unsigned *enabled) {
  detail::graph_step *s = detail::step_of(e, node);
  if (!s || !enabled)
    return detail::record(error_invalid_value);
  *enabled = s->enabled ? 1 : 0;
  return success;
}
// cudaGraphExecUpdate: where the graph has the executable graph's shape (the same nodes, types
// and dependencies, in the order they were added), the executable graph takes the graph's
// parameters; else it is left as it was and the result says why.
inline error_t graph_exec_update(graph_exec_t e, graph_t g, graph_exec_update_result_info *info) {
  if (!e || !g)
    return detail::record(error_invalid_value);
  auto fail = [&](graph_exec_update_result r, graph_node_t node) {
    if (info)
      *info = {r, node, nullptr};
    return detail::record(error_graph_exec_update_failure);
  };
  if (g->nodes.size() != e->shape.size())
    return fail(graph_exec_update_error_topology_changed, nullptr);
  for (std::size_t i = 0; i < g->nodes.size(); ++i) {
    const detail::graph_node &n = *g->nodes[i];
    std::vector<std::size_t> deps;
    for (graph_node_t d : n.deps)
      deps.push_back(d->index);
    std::sort(deps.begin(), deps.end());
    if (deps != e->shape[i].second)
      return fail(graph_exec_update_error_topology_changed, g->nodes[i].get());
    if (static_cast<int>(n.p.type) != e->shape[i].first)
      return fail(graph_exec_update_error_node_type_changed, g->nodes[i].get());
    if (n.p.type == graph_node_type_mem_alloc || n.p.type == graph_node_type_mem_free || n.p.type == graph_node_type_conditional)
      return fail(graph_exec_update_error_not_supported, g->nodes[i].get());
  }
  return detail::guarded([&] {
    std::unique_ptr<detail::graph_exec_rec> r(detail::instantiate(*g));
    // the steps keep their enabled state, by the node's place in the graph
    std::vector<bool> disabled(g->nodes.size(), false);
    for (const detail::graph_step &s : e->steps)
      if (!s.enabled && s.index < disabled.size())
        disabled[s.index] = true;
    // and the nodes they stand for stay those of the graph it was instantiated from, as in CUDA
    std::vector<const detail::graph_node *> origin(g->nodes.size(), nullptr);
    for (const detail::graph_step &s : e->steps)
      if (s.index < origin.size())
        origin[s.index] = s.node;
    for (detail::graph_step &s : r->steps) {
      s.enabled = !disabled[s.index];
      if (origin[s.index])
        s.node = origin[s.index];
    }
    static_cast<detail::graph_exec_rec &>(*e) = std::move(*r);
    if (info)
      *info = {graph_exec_update_success, nullptr, nullptr};
  });
}

// (the form cuda_runtime.h keeps for C++: the node and the result through two pointers)
inline error_t graph_exec_update(graph_exec_t e, graph_t g, graph_node_t *error_node, graph_exec_update_result *result) {
  graph_exec_update_result_info info{};
  error_t r = graph_exec_update(e, g, &info);
  if (error_node)
    *error_node = info.errorNode;
  if (result)
    *result = info.result;
  return r;
}

// Graph memory: what the graphs' allocation nodes hold.
inline error_t device_get_graph_mem_attribute(int, graph_mem_attribute_type attr, void *value) {
  if (!value)
    return detail::record(error_invalid_value);
  detail::graph_mem_stats &s = detail::graph_mem();
  std::lock_guard<std::mutex> lock(s.m);
  const bool high = attr == graph_mem_attr_used_mem_high || attr == graph_mem_attr_reserved_mem_high;
  *static_cast<unsigned long long *>(value) = high ? s.high : s.used;
  return success;
}
inline error_t device_set_graph_mem_attribute(int, graph_mem_attribute_type attr, void *value) {
  if (!value || (attr != graph_mem_attr_used_mem_high && attr != graph_mem_attr_reserved_mem_high) || *static_cast<unsigned long long *>(value) != 0)
    return detail::record(error_invalid_value);
  detail::graph_mem_stats &s = detail::graph_mem();
  std::lock_guard<std::mutex> lock(s.m);
  s.high = s.used;
  return success;
}
inline error_t device_graph_mem_trim(int) { return success; }

} // namespace syclify
