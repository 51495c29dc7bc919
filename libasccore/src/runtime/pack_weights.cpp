// pack_weights.cpp: atc's packed weights: the model's fp32 constants that a kernel reads in a
// layout of this CPU's (oneDNN's blocked weights, Winograd transforms) are built once at
// conversion and stored in the OM beside the plain data, so a load reads them in place.
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>

#include "asc/ops/registry.h"
#include "asc/support/log.h"
#include "asc/trace/trace.h"
#include "runtime/session_impl.h"

namespace asc::runtime {

Result<size_t> packWeights(ir::Graph& graph, const SessionOptions& opts) {
  if (graph.dynamic) return size_t{0};
  const auto users = graph.users();
  // Only an fp32 constant read by one node can be packed (below): a graph without one (an fp16
  // model, say) builds no kernels for nothing.
  auto candidate = [&](const ir::Value* v) {
    if (!v || !v->isConstant() || v->dtype != ir::DType::F32 || graph.isGraphOutput(v))
      return false;
    auto u = users.find(v);
    return u != users.end() && u->second.size() == 1;
  };
  bool any = false;
  for (const auto& v : graph.values()) any = any || candidate(v.get());
  if (!any) return size_t{0};
  // Packed for the thread count a run on an idle machine takes (some of oneDNN's weight layouts
  // follow the thread count), whatever load the converting machine has: a run on a busy machine
  // takes fewer threads and reorders those weights at load (docs/runtime.md).
  SessionOptions pack_opts = opts;
  if (pack_opts.threads <= 0 && !std::getenv("ASC_NUM_THREADS"))
    pack_opts.threads = threadsForWork(graphFlops(graph), omp_get_num_procs(), 0);
  ASC_TRY(std::shared_ptr<Session::Impl> impl,
          buildImpl(graph.clone(), pack_opts, pack_opts.reuse_memory, nullptr, true));
  // The kernels exist, their weight reorders queued (Impl::pack_only). Each packed copy is made
  // when the OM writer asks for it (ir::Blob::copyTo), into the writer's buffer: its reorder
  // runs then, from the constant where it lies (through one reused staging buffer when that is
  // misaligned). No copy of all the weights is ever held, plain or packed.
  std::unordered_map<const void*, const ops::KernelEnv::PendingReorder*> queued;
  for (const auto& r : impl->env.pending_reorders) queued[r.dst.get_data_handle()] = &r;
  struct Staging {
    std::mutex mu;
    PageBuffer bytes;
  };
  auto staging = std::make_shared<Staging>();
  size_t packed = 0;
  for (const auto& s : impl->steps) {
    if (s.kind != StepKind::Kernel || !s.kernel) continue;
    for (const ops::PackedInput& p : s.kernel->packedInputs()) {
      if (p.input >= s.ins.size() || s.ins[p.input] < 0) continue;
      const Slot& slot = impl->slots[s.ins[p.input]];
      const ir::Value* seen = slot.value;
      ir::Value* v = seen ? graph.findValue(seen->name) : nullptr;
      // Only an fp32 constant read by this one node: its copy must mean the same bytes to
      // whoever reads it, and a kernel reads fp32 weights.
      if (!candidate(v) || users.at(v)[0]->name != s.node->name) continue;
      auto q = queued.find(p.data);
      const bool zeros = impl->standsIn(slot.external);  // the kernel saw a stand-in
      if (q == queued.end()) {
        if (zeros) continue;
        // Reordered already: the kernel's own buffer, kept alive by the graph until the OM is
        // written.
        v->packed = std::make_shared<ir::Blob>(p.data, p.bytes, impl);
      } else {
        const ops::KernelEnv::PendingReorder& r = *q->second;
        const void* from = r.src.get_data_handle();
        const bool from_value = impl->standsIn(from);
        // A kernel that reordered a copy it made of the stand-in's zeros, or a view of part of
        // it, packed nothing real.
        if (zeros && (!from_value || r.src.get_desc().get_size() != v->data->size())) continue;
        std::shared_ptr<const ir::Blob> source = from_value ? v->data : nullptr;
        v->packed = ir::Blob::lazy(p.bytes, [impl, staging, source, from, have = r.src.get_desc(),
                                             want = r.dst.get_desc()](uint8_t* out) {
          std::lock_guard<std::mutex> lock(staging->mu);
          const void* src = from;
          if (source && source->ready()) {
            src = source->data();
          } else if (source) {
            if (!staging->bytes) {
              staging->bytes = pageBuffer(impl->zeros_bytes);
              if (!staging->bytes) throw std::bad_alloc();
              populatePages(staging->bytes.get(), impl->zeros_bytes);
            }
            source->copyTo(staging->bytes.get());
            src = staging->bytes.get();
          }
          // On this thread alone: the writer CRCs on the other core meanwhile, and an
          // OpenMP team would spin between reorders (30 % of atc's samples on 2 cores).
          const int threads = omp_get_max_threads();
          omp_set_num_threads(1);
          struct Restore {
            int n;
            ~Restore() { omp_set_num_threads(n); }
          } restore{threads};
          const dnnl::engine& eng = impl->env.engine;
          dnnl::memory in(have, eng, const_cast<void*>(src)), to(want, eng, out);
          dnnl::stream st(eng);
          dnnl::reorder(in, to).execute(st, in, to);
          st.wait();
        });
      }
      v->packing = p.packing;
      ++packed;
    }
  }
  return packed;
}

}  // namespace asc::runtime
