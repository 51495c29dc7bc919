// kernel_layouts.cpp: the constants this CPU's kernels read in a layout of their own (oneDNN's
// blocked weights, Winograd transforms), for atc to store in the OM (compiler/pack_weights.cpp
// decides which) so that a load reads them in place.
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

Result<std::vector<KernelLayout>> kernelLayouts(const ir::Graph& graph,
                                                const std::function<bool(const ir::Value&)>& wanted,
                                                const SessionOptions& opts) {
  std::vector<KernelLayout> out;
  if (graph.dynamic) return out;
  bool any = false;
  for (const auto& v : graph.values()) any = any || (v->isConstant() && wanted(*v));
  if (!any) return out;  // builds no kernels for nothing (an fp16 model, say)
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
  for (const auto& s : impl->steps) {
    if (s.kind != StepKind::Kernel || !s.kernel) continue;
    for (const ops::PackedInput& p : s.kernel->packedInputs()) {
      if (p.input >= s.ins.size() || s.ins[p.input] < 0) continue;
      const Slot& slot = impl->slots[s.ins[p.input]];
      const ir::Value* seen = slot.value;
      const ir::Value* v = seen ? graph.findValue(seen->name) : nullptr;
      if (!v || !v->isConstant() || v->dtype != ir::DType::F32 || !wanted(*v)) continue;
      KernelLayout layout;
      layout.value = v->name;
      layout.node = s.node->name;
      layout.packing = p.packing;
      auto q = queued.find(p.data);
      const bool zeros = impl->standsIn(slot.external);  // the kernel saw a stand-in
      if (q == queued.end()) {
        // Reordered already: the kernel's own buffer, kept alive by the blob until the OM is
        // written.
        if (!zeros) layout.bytes = std::make_shared<ir::Blob>(p.data, p.bytes, impl);
      } else {
        const ops::KernelEnv::PendingReorder& r = *q->second;
        const void* from = r.src.get_data_handle();
        const bool from_value = impl->standsIn(from);
        // A kernel that reordered a copy it made of the stand-in's zeros, or a view of part of
        // it, packed nothing real.
        const bool real = !zeros || (from_value && r.src.get_desc().get_size() == v->data->size());
        std::shared_ptr<const ir::Blob> source = from_value ? v->data : nullptr;
        if (real)
          layout.bytes =
              ir::Blob::lazy(p.bytes, [impl, staging, source, from, have = r.src.get_desc(),
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
                OmpThreadsScope alone(1);
                const dnnl::engine& eng = impl->env.engine;
                dnnl::memory in(have, eng, const_cast<void*>(src)), to(want, eng, out);
                dnnl::stream st(eng);
                dnnl::reorder(in, to).execute(st, in, to);
                st.wait();
              });
      }
      out.push_back(std::move(layout));
    }
  }
  return out;
}

}  // namespace asc::runtime
