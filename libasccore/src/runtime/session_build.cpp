// session_build.cpp: making a Session at load. The build walks the graph once: it picks each
// op's output layout (plain or the CPU's blocked layout), inserts the reorders and fp16<->fp32
// conversions the kernels need, plans one arena over every buffer's lifetime, allocates it, and
// creates the kernels on their fixed buffers. Also packWeights (atc's packed weights).
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
#include "support/memory_planner.h"

namespace asc::runtime {

int64_t graphFlops(const ir::Graph& g) {
  int64_t total = 0;
  for (const auto& n : g.nodes()) {
    const ops::OpDef* d = ops::lookup(n->op_type);
    if (d && d->flopsFn()) {
      total += d->flopsFn()(*n);
    } else {
      for (const ir::Value* v : n->outputs)
        if (v) total += v->numel();
    }
  }
  return total;
}

int Session::Impl::need(const ir::Value* v, Layout layout, ir::DType type, int use) {
  auto it = versions.find({v, layout, type});
  if (it != versions.end()) {
    slots[it->second].last = std::max(slots[it->second].last, use);
    return it->second;
  }
  int src = mainSlot(v);
  Slot base = slots[src];
  // The plain bytes, made now: of weights stored only packed, or standing in as zeros.
  if (packedOnly(v) || standsIn(base.external)) base.external = v->data->data();
  // Constants are converted once, here, into memory the session owns: kernels read them when
  // they are created (weight reorders), before any run.
  if (v->isConstant() && layout == Layout::Plain) {
    owned.emplace_back(static_cast<size_t>(v->numel()) * ir::dtypeSize(type));
    std::vector<uint8_t>& buf = owned.back();
    const size_t n = static_cast<size_t>(v->numel());
    const auto* src16 = static_cast<const uint16_t*>(base.external);
    if (base.type == ir::DType::F16 && type == ir::DType::F32)
      cpu::halfToFloat(src16, reinterpret_cast<float*>(buf.data()), n);
    else if (base.type == ir::DType::BF16 && type == ir::DType::F32)
      cpu::bf16ToFloat(src16, reinterpret_cast<float*>(buf.data()), n);
    else if (base.type == ir::DType::F32 && type == ir::DType::F16)
      cpu::floatToHalf(static_cast<const float*>(base.external),
                       reinterpret_cast<uint16_t*>(buf.data()), n);
    else
      std::memcpy(buf.data(), base.external, std::min(buf.size(), base.bytes));
    int id = newSlot(v, Layout::Plain, type, -1);
    slots[id].external = buf.data();
    return id;
  }
  // A version already in the wanted layout (fp32 preferred) only needs a dtype conversion.
  int from = -1;
  for (const auto& [key, id] : versions)
    if (std::get<0>(key) == v && std::get<1>(key) == layout &&
        (from < 0 || std::get<2>(key) == ir::DType::F32))
      from = id;
  if (from < 0) {
    // Reorders run in fp32: the fp32 version in the stored layout, reordered.
    int f32 = need(v, base.layout, ir::DType::F32, use);
    int step = static_cast<int>(steps.size());
    int dst = newSlot(v, layout, ir::DType::F32, step);
    slots[f32].last = std::max(slots[f32].last, step);
    Step st;
    st.kind = StepKind::Reorder;
    st.ins = {f32};
    st.outs = {dst};
    st.label =
        fmt::format("reorder {} to {}", v->name, layout == Layout::Plain ? "plain" : "blocked");
    steps.push_back(std::move(st));
    slots[dst].last = use;
    if (type == ir::DType::F32) return dst;
    from = dst;
  }
  int step = static_cast<int>(steps.size());
  int dst = newSlot(v, layout, type, step);
  slots[from].last = std::max(slots[from].last, step);
  Step st;
  st.kind = StepKind::Convert;
  st.ins = {from};
  st.outs = {dst};
  st.label = fmt::format("convert {} {} to {}", v->name, ir::dtypeName(slots[from].type),
                         ir::dtypeName(type));
  steps.push_back(std::move(st));
  slots[dst].last = use;
  return dst;
}

std::vector<uint64_t> Session::Impl::placeBuffers(const std::vector<int>& ids, bool reuse) {
  std::vector<uint64_t> offsets(ids.size(), 0);
  std::vector<char> from_om(ids.size(), 0);
  struct Placed {
    int first, last;
    uint64_t begin, end;
  };
  std::vector<Placed> placed;
  for (size_t k = 0; k < ids.size() && !om_offsets.empty(); ++k) {
    const Slot& s = slots[ids[k]];
    auto off = om_offsets.find(s.value);
    // A damaged plan may also put a buffer off its element size: kernels read typed arrays.
    if (off == om_offsets.end() || mainSlot(s.value) != ids[k] || s.type != s.value->dtype ||
        s.bytes > s.value->byteSize() ||
        off->second % std::max<size_t>(1, ir::dtypeSize(s.type)) != 0)
      continue;
    const Placed p{s.first, std::max(s.first, s.last), off->second, off->second + s.bytes};
    bool clash = false;  // a damaged plan must not make two live buffers share bytes
    for (const Placed& q : placed)
      clash =
          clash || (!(q.last < p.first || p.last < q.first) && q.begin < p.end && p.begin < q.end);
    if (clash) continue;
    placed.push_back(p);
    offsets[k] = off->second;
    from_om[k] = 1;
  }
  // The rest fit around the OM-placed buffers (in gaps where those are not live), so the
  // fp32 copies of an fp16 model reuse the plan's free space.
  std::vector<BufferRequest> reqs;
  for (size_t k = 0; k < ids.size(); ++k) {
    const Slot& s = slots[ids[k]];
    BufferRequest r{s.bytes, s.first, std::max(s.first, s.last)};
    if (from_om[k]) r.fixed_offset = offsets[k];
    reqs.push_back(r);
  }
  MemoryPlan plan = planMemory(reqs, kAlign, reuse);
  om_placed = placed.size();
  // Where the runtime's lifetimes differ from the OM's (an OM written before Concat inputs
  // were joined, or a CPU whose layout joins fewer), buffers placed around the OM's can take far
  // more than a plan of their own: DenseNet-121's arena was 20.3 MB around such an OM's 8.4 MB.
  // A plan of its own is kept when it saves more than a sixteenth.
  if (om_placed > 0) {
    for (auto& r : reqs) r.fixed_offset = SIZE_MAX;
    MemoryPlan own = planMemory(reqs, kAlign, reuse);
    if (own.arena_bytes + plan.arena_bytes / 16 < plan.arena_bytes) {
      plan = std::move(own);
      om_placed = 0;
    }
  }
  for (size_t k = 0; k < ids.size(); ++k) offsets[k] = plan.offsets[k];
  arena_bytes = plan.arena_bytes;
  buffers = ids.size();
  return offsets;
}

std::vector<std::pair<int, size_t>> Session::Impl::joinedInputs(const ir::Node& n,
                                                                const std::vector<int>& ins,
                                                                Layout out_layout,
                                                                ir::DType out_type) {
  std::vector<std::pair<int, size_t>> joined;
  if (!reuse_ || n.outputs.size() != 1 || !n.outputs[0]) return joined;
  // The rule the OM's plan follows too (om/inplace.h), asked about this session's slots, plus
  // this runtime's physical condition: a buffer a step writes, holding just the input, in the
  // output's layout and compute type.
  std::vector<char> may(ins.size(), 0);
  for (size_t i : om::joinedInputs(n, out_layout, joinQueries(n, ins)))
    if (i < ins.size()) may[i] = 1;
  ir::Value out;
  out.dtype = out_type;
  out.shape = n.outputs[0]->shape;
  size_t at = 0;
  for (size_t i = 0; i < ins.size(); ++i) {
    const int id = ins[i];
    if (id < 0) continue;
    const Slot& s = slots[id];
    if (may[i] && s.layout == out_layout && s.type == out_type && s.bytes > 0)
      joined.push_back({id, at});
    at += s.bytes;
  }
  // The inputs must fill the output exactly, or the offsets mean nothing.
  if (at != ops::physicalBytes(out, out_layout)) joined.clear();
  return joined;
}

om::JoinQueries Session::Impl::joinQueries(const ir::Node& n, const std::vector<int>& ins) const {
  om::JoinQueries q;
  q.buffer_of = [this, &n, &ins](const ir::Value* v) -> int {
    for (size_t i = 0; i < n.inputs.size() && i < ins.size(); ++i) {
      if (n.inputs[i] != v || ins[i] < 0) continue;
      const Slot& s = slots[ins[i]];
      const bool model_input =
          std::find(input_slots.begin(), input_slots.end(), ins[i]) != input_slots.end();
      return model_input || s.external || s.alias_of >= 0 || s.first < 0 ? -1 : ins[i];
    }
    return -1;
  };
  q.last_read = [this](const ir::Value* v) {
    auto it = last_consumer.find(v);
    return it == last_consumer.end() ? size_t(0) : it->second;
  };
  return q;
}

void Session::Impl::placePrefixes(const ir::Node& n, size_t node_index, const std::vector<int>& ins,
                                  const std::vector<int>& outs, Layout out_layout) {
  if (!reuse_ || outs.size() != 1 || n.outputs.size() != 1) return;
  // The Concats registered with this one: their outputs become its first bytes when it joined
  // all their inputs, in their order, from the very slots they read, and nothing else shares
  // their output's buffer (a Conv writing into it as its residual, an alias).
  auto pending = prefixes.find(node_index);
  if (pending != prefixes.end()) {
    for (const Prefix& p : pending->second) {
      const Slot& ps = slots[p.out];
      bool ok = ps.alias_of < 0 && !ps.external && ps.layout == slots[outs[0]].layout &&
                ps.type == slots[outs[0]].type && p.ins.size() <= ins.size();
      size_t at = 0;
      for (size_t t = 0; ok && t < p.ins.size(); ++t) {
        ok = p.ins[t] == ins[t] && slots[ins[t]].alias_of == outs[0] &&
             slots[ins[t]].alias_offset == at;
        at += slots[ins[t]].bytes;
      }
      ok = ok && ps.bytes == at;
      for (size_t i = 0; ok && i < slots.size(); ++i) ok = slots[i].alias_of != p.out;
      if (!ok) continue;
      slots[p.out].alias_of = outs[0];
      slots[p.out].alias_offset = 0;
    }
    prefixes.erase(pending);
  }
  if (main_slot[n.outputs[0]] != outs[0]) return;
  om::PrefixQueries q;
  q.join = joinQueries(n, ins);
  q.graph = &graph;
  q.readers = &readers;
  const int host = om::prefixHost(n, node_index, out_layout, q);
  if (host >= 0) prefixes[static_cast<size_t>(host)].push_back({outs[0], ins});
}

Status Session::Impl::build(bool reuse) {
  reuse_ = reuse;
  for (auto* v : graph.inputs) {
    int id = newSlot(v, Layout::Plain, v->dtype, -1);
    main_slot[v] = id;
    input_slots.push_back(id);
    input_info.push_back({v->name, v->dtype, v->shape, v->byteSize()});
  }
  // Only packing (atc): the constants not made yet are read from where they lie when their
  // reorders run, not copied now for kernels that only keep their address.
  auto deferred = [&](const ir::Value* v) {
    return pack_only && v->data && !v->data->ready() && !v->packed;
  };
  if (pack_only) {
    size_t most = 0;
    for (const auto& v : graph.values())
      if (v->isConstant() && deferred(v.get())) most = std::max(most, v->data->size());
    if (most) {
      zeros = pageBuffer(most);
      zeros_bytes = most;
    }
  }
  for (const auto& v : graph.values())
    if (v->isConstant()) {
      int id = newSlot(v.get(), Layout::Plain, v->dtype, -1);
      main_slot[v.get()] = id;
      // Weights the OM stores only packed: their plain bytes are made only if read (a kernel
      // that wants another layout, see createKernel). Until then the slot points at the
      // packed copy, which is at least as large.
      if (packedOnly(v.get()))
        slots[id].external = v->packed->data();
      else if (zeros && deferred(v.get()))
        slots[id].external = zeros.get();
      else
        slots[id].external = v->data->data();
    }
  // Each value's last consumer in execution order (graph outputs: past the end).
  last_consumer.clear();
  for (size_t i = 0; i < graph.nodes().size(); ++i)
    for (const ir::Value* v : graph.nodes()[i]->inputs)
      if (v) last_consumer[v] = i;
  for (const ir::Value* v : graph.outputs) last_consumer[v] = graph.nodes().size();
  readers = om::readerIndex(graph);
  prefixes.clear();
  size_t node_index = 0;
  for (const auto& up : graph.nodes()) {
    const ir::Node& n = *up;
    const size_t this_node = node_index++;
    const ops::OpDef* d = ops::lookup(n.op_type);
    if (!d || !d->kernelFactory())
      return Status::error(ErrorCode::UnsupportedOp,
                           "operator '{}' (node '{}') has no CPU kernel in this runtime", n.op_type,
                           n.name);
    std::vector<Layout> in_layouts;
    for (auto* in : n.inputs)
      in_layouts.push_back(in && mainSlot(in) >= 0 ? slots[mainSlot(in)].layout : Layout::Plain);
    Layout out_layout = d->layoutFn() ? d->layoutFn()(n, in_layouts) : Layout::Plain;
    for (auto* out : n.outputs)
      if (!ops::canBlock(*out) || computeType(out->dtype) != ir::DType::F32)
        out_layout = Layout::Plain;
    const bool native = d->hasNativeDtypes();
    // Reshape-like ops on plain tensors: the output is the input's bytes under another shape.
    if (d->aliasesInputBytes() && n.outputs.size() == 1 && n.inputs[0] &&
        mainSlot(n.inputs[0]) >= 0) {
      const int in = mainSlot(n.inputs[0]);
      // Plain bytes alias whatever the shape; a blocked buffer aliases only for an op whose
      // layout function keeps it (TransData: same logical shape).
      const Layout keep = slots[in].layout;
      const bool layout_ok = keep == Layout::Plain || out_layout == keep;
      if (layout_ok && slots[in].type == n.outputs[0]->dtype &&
          (keep != Layout::Plain || slots[in].bytes == n.outputs[0]->byteSize()) &&
          n.outputs[0]->shape ==
              (keep == Layout::Plain ? n.outputs[0]->shape : n.inputs[0]->shape)) {
        const int step = static_cast<int>(steps.size());
        slots[in].last = std::max(slots[in].last, step);
        int out = newSlot(n.outputs[0], keep, n.outputs[0]->dtype, step);
        slots[out].alias_of = in;
        main_slot[n.outputs[0]] = out;
        if (steps.empty())
          pending_complete.push_back(&n);  // shown with the first step
        else
          steps.back().completes.push_back(&n);
        continue;
      }
    }
    // Inputs: the kernel's step index is where it will be pushed, after any conversions;
    // conversions for input i are pushed now, so compute the index after each.
    std::vector<int> ins;
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      const ir::Value* in = n.inputs[i];
      if (!in) {
        ins.push_back(-1);
        continue;
      }
      Layout want = out_layout == Layout::Blocked ? in_layouts[i] : Layout::Plain;
      if (in->isConstant()) want = Layout::Plain;
      ir::DType type = native ? in->dtype : computeType(in->dtype);
      ins.push_back(need(in, want, type, static_cast<int>(steps.size())));
    }
    const int step = static_cast<int>(steps.size());
    for (int id : ins)
      if (id >= 0) slots[id].last = std::max(slots[id].last, step);
    std::vector<int> outs;
    std::vector<std::pair<int, int>> post;  // (compute slot, storage slot) conversions after
    const int in_place = inPlaceResidual(n, this_node, ins, out_layout, native);
    const auto joined = joinedInputs(
        n, ins, out_layout, native ? n.outputs[0]->dtype : computeType(n.outputs[0]->dtype));
    for (auto* out : n.outputs) {
      ir::DType ct = native ? out->dtype : computeType(out->dtype);
      if (in_place >= 0 && out == n.outputs[0]) {
        // The residual's buffer dies here: the Conv accumulates into it (a sum post-op).
        int id = newSlot(out, out_layout, ct, step);
        slots[id].alias_of = in_place;
        outs.push_back(id);
        if (ct == out->dtype)
          main_slot[out] = id;
        else
          post.push_back({id, -1});
      } else if (ct == out->dtype) {
        outs.push_back(newSlot(out, out_layout, out->dtype, step));
        main_slot[out] = outs.back();
      } else {
        int tmp = newSlot(out, out_layout, ct, step);
        outs.push_back(tmp);
        post.push_back({tmp, -1});
      }
    }
    // Inputs joined into the output: their buffers are parts of its buffer from now on.
    for (const auto& [id, at] : joined) {
      slots[id].alias_of = outs[0];
      slots[id].alias_offset = at;
    }
    placePrefixes(n, this_node, ins, outs, out_layout);
    Step s;
    s.kind = StepKind::Kernel;
    s.node = &n;
    s.ins = std::move(ins);
    s.outs = outs;
    s.label = fmt::format("{} ({})", n.name, d->cannType());
    s.completes = std::move(pending_complete);
    pending_complete.clear();
    steps.push_back(std::move(s));
    for (auto& [tmp, dst] : post) {
      const ir::Value* v = slots[tmp].value;
      int cstep = static_cast<int>(steps.size());
      dst = newSlot(v, slots[tmp].layout, v->dtype, cstep);
      slots[tmp].last = cstep;
      Step c;
      c.kind = StepKind::Convert;
      c.round_source = true;
      c.ins = {tmp};
      c.outs = {dst};
      c.label = fmt::format("convert {} float32 to {}", v->name, ir::dtypeName(v->dtype));
      steps.push_back(std::move(c));
      // The storage slot is the value's main version from now on.
      main_slot[v] = dst;
    }
    // The node is complete after its kernel and the conversions of its outputs.
    for (size_t i = steps.size(); i-- > 0;)
      if (steps[i].kind == StepKind::Kernel && steps[i].node == &n) {
        steps.back().completes.push_back(&n);
        break;
      }
  }
  const int end = static_cast<int>(steps.size());
  for (auto* v : graph.outputs) {
    int id = need(v, Layout::Plain, v->dtype, end);
    slots[id].last = end + 1;
    output_slots.push_back(id);
    output_info.push_back({v->name, v->dtype, v->shape, v->byteSize()});
  }
  // Inputs are written once by the caller and read by every run: they live throughout (their
  // bytes are never reused), so --loop reruns see the same data.
  for (int id : input_slots) slots[id].last = end + 1;

  // A buffer holding aliases lives from the first one written to the last one read (a joined
  // input is written before the output it is part of).
  for (size_t i = 0; i < slots.size(); ++i)
    if (slots[i].alias_of >= 0) {
      Slot& root = slots[rootOf(static_cast<int>(i))];
      if (slots[i].first >= 0) root.first = std::min(root.first, slots[i].first);
      root.last = std::max(root.last, slots[i].last);
    }
  // One arena for every non-constant buffer.
  std::vector<BufferRequest> reqs;
  std::vector<int> ids;
  for (size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].external || slots[i].alias_of >= 0) continue;
    reqs.push_back({slots[i].bytes, slots[i].first, std::max(slots[i].first, slots[i].last)});
    ids.push_back(static_cast<int>(i));
  }
  const std::vector<uint64_t> offsets = placeBuffers(ids, reuse);
  // The arena size may come from a damaged OM's memory_size: refuse a size that would wrap.
  if (arena_bytes > SIZE_MAX - kAlign)
    return Status::error(ErrorCode::MemoryExceeded,
                         "the {}-byte activation arena cannot be allocated", arena_bytes);
  const size_t alloc_bytes = (std::max<size_t>(arena_bytes, kAlign) + kAlign - 1) / kAlign * kAlign;
  uint8_t* base = nullptr;
  if (shared_arena && shared_arena->bytes_ == 0) {  // the first (largest) sizes it
    shared_arena->data_ = static_cast<uint8_t*>(allocPages(alloc_bytes));
    if (shared_arena->data_) shared_arena->bytes_ = alloc_bytes;
  }
  if (shared_arena && alloc_bytes <= shared_arena->bytes_) {
    base = shared_arena->data_;
  } else {
    shared_arena.reset();
    arena = pageBuffer(alloc_bytes);
    base = arena.get();
  }
  if (!base)
    return Status::error(ErrorCode::MemoryExceeded,
                         "cannot allocate the {}-byte activation arena; free memory or use a "
                         "smaller input shape",
                         arena_bytes);
  for (size_t k = 0; k < ids.size(); ++k) slots[ids[k]].ptr = base + offsets[k];
  for (auto& s : slots)
    if (s.external) s.ptr = const_cast<void*>(s.external);
  for (auto& s : slots)
    if (s.alias_of >= 0) {  // chains: a Reshape of an input joined into a Concat's output
      size_t at = 0;
      const Slot* r = &s;
      for (; r->alias_of >= 0; r = &slots[r->alias_of]) at += r->alias_offset;
      s.ptr = static_cast<uint8_t*>(r->ptr) + at;
    }
  ASC_LOG_DEBUG("arena {} bytes, {} of {} buffers at the model's planned offsets, {} steps",
                arena_bytes, om_placed, buffers, steps.size());

  // Kernels and primitives on the fixed buffers; their weight reorders wait for the last one.
  env.defer_weight_reorders = true;
  env.share_temporaries = true;
  for (auto& s : steps) {
    if (s.kind == StepKind::Kernel) {
      ASC_RETURN_IF_ERROR(createKernel(s));
      s.label += " " + s.kernel->implName();
      usePacked(s);
    } else if (s.kind == StepKind::Reorder) {
      try {
        auto src = cpu::memOf(ref(s.ins[0]), env.engine);
        auto dst = cpu::memOf(ref(s.outs[0]), env.engine);
        s.reorder = dnnl::reorder(src, dst);
        // fp32 nChw8c <-> nchw: the runtime's own transposes (cpu/blocked.h) on AVX2 CPUs.
        if (cpu::fastConversions())
          s.conversion = cpu::blockedConversion(src.get_desc(), dst.get_desc());
      } catch (const dnnl::error& e) {
        return Status::error(ErrorCode::Internal, "{}: {}", s.label, e.what());
      }
    }
  }
  // The weights the kernels reordered, all at once (KernelEnv::defer_weight_reorders).
  env.defer_weight_reorders = false;
  if (pack_only) return cpu::reserveWeightReorders(env);
  ASC_RETURN_IF_ERROR(cpu::runWeightReorders(env, threads));
  ASC_RETURN_IF_ERROR(bindScratchpads(base, alloc_bytes));
  warmUp(base, alloc_bytes);
  return Status::ok();
}

bool Session::Impl::packedOnly(const ir::Value* v) {
  return v->isConstant() && v->packed && v->data && !v->data->ready();
}

Status Session::Impl::createKernel(Step& s) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    // A discarded attempt's workspace goes with it: this step's is what the last one adds.
    s.scratch_from = env.scratchpads.size();
    for (int k = 0; k < ops::KernelEnv::kTemporaries; ++k)
      s.temp_from[k] = env.temporaries[k].size();
    ops::KernelInit init{*s.node, {}, {}, env, threads, check_unwritten};
    for (int id : s.ins) init.inputs.push_back(ref(id));
    for (int id : s.outs) init.outputs.push_back(ref(id));
    env.weights_read.clear();
    auto k = ops::lookup(s.node->op_type)->kernelFactory()(init);
    if (!k) return k.status();
    s.kernel = std::move(*k);
    s.scratch_to = env.scratchpads.size();
    for (int t = 0; t < ops::KernelEnv::kTemporaries; ++t) s.temp_to[t] = env.temporaries[t].size();
    bool rebuild = false;
    for (int id : s.ins) {
      if (id < 0) continue;
      Slot& slot = slots[id];
      const ir::Value* v = slot.value;
      if (!v || !v->packed || slot.external != v->packed->data() || v->data->ready() ||
          std::find(env.weights_read.begin(), env.weights_read.end(), v) != env.weights_read.end())
        continue;
      slot.external = v->data->data();
      slot.ptr = const_cast<void*>(slot.external);
      rebuild = true;
    }
    if (!rebuild) break;
    ASC_LOG_DEBUG("node '{}': its kernel reads weights stored packed as plain ones; unpacked",
                  s.node->name);
    // The discarded kernel's queued weight reorders may read buffers it owned: they go too.
    auto& q = env.pending_reorders;
    q.erase(std::remove_if(q.begin(), q.end(), [&](const auto& r) { return r.node == s.node; }),
            q.end());
    s.kernel.reset();
    env.scratchpads.resize(s.scratch_from);
    for (int t = 0; t < ops::KernelEnv::kTemporaries; ++t)
      env.temporaries[t].resize(s.temp_from[t]);
  }
  return Status::ok();
}

int64_t Session::Impl::freeArenaBytes(int s, size_t bytes, const uint8_t* arena_base,
                                      size_t arena_size) const {
  // The arena bytes of the buffers live at step s (the planner's own lifetimes), in order.
  std::vector<std::pair<size_t, size_t>> busy;
  for (const Slot& slot : slots) {
    if (slot.external || slot.alias_of >= 0 || !slot.ptr) continue;
    const uint8_t* p = static_cast<const uint8_t*>(slot.ptr);
    if (p < arena_base || p >= arena_base + arena_size) continue;
    if (s < slot.first || s > std::max(slot.first, slot.last)) continue;
    const size_t at = static_cast<size_t>(p - arena_base);
    busy.emplace_back(at, at + slot.bytes);
  }
  std::sort(busy.begin(), busy.end());
  size_t at = 0;
  for (const auto& [begin, end] : busy) {
    if (begin >= at + bytes) break;
    at = std::max(at, (end + kAlign - 1) / kAlign * kAlign);
  }
  return at + bytes <= arena_size ? static_cast<int64_t>(at) : -1;
}

Status Session::Impl::bindScratchpads(uint8_t* arena_base, size_t arena_size) {
  auto aligned = [](size_t n) { return (n + kAlign - 1) / kAlign * kAlign; };
  // Each kernel's memories one after another from `p`.
  auto bind = [&](const Step& s, uint8_t* p) {
    for (size_t m = s.scratch_from; m < s.scratch_to; ++m) {
      env.scratchpads[m].set_data_handle(p);
      p += aligned(env.scratchpads[m].get_desc().get_size());
    }
    for (int k = 0; k < ops::KernelEnv::kTemporaries; ++k)
      for (size_t m = s.temp_from[k]; m < s.temp_to[k]; ++m) {
        env.temporaries[k][m].set_data_handle(p);
        p += aligned(env.temporaries[k][m].get_desc().get_size());
      }
  };
  std::vector<size_t> need(steps.size(), 0);
  std::vector<bool> placed(steps.size(), false);
  size_t shared = 0, in_arena = 0, with_workspace = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    if (s.kind != StepKind::Kernel) continue;
    for (size_t m = s.scratch_from; m < s.scratch_to; ++m)
      need[i] += aligned(env.scratchpads[m].get_desc().get_size());
    for (int k = 0; k < ops::KernelEnv::kTemporaries; ++k)
      for (size_t m = s.temp_from[k]; m < s.temp_to[k]; ++m)
        need[i] += aligned(env.temporaries[k][m].get_desc().get_size());
    if (need[i] == 0) continue;
    ++with_workspace;
    // With reuse off every value stays readable after the run: no bytes of the arena are free.
    const int64_t at =
        reuse_ ? freeArenaBytes(static_cast<int>(i), need[i], arena_base, arena_size) : -1;
    if (at >= 0) {
      bind(s, arena_base + at);
      placed[i] = true;
      ++in_arena;
    } else {
      shared = std::max(shared, need[i]);
    }
  }
  if (with_workspace)
    ASC_LOG_DEBUG("kernel workspaces: {} of {} in free bytes of the arena", in_arena,
                  with_workspace);
  if (shared == 0) return Status::ok();
  // The others share one buffer of the largest size (kernels run one at a time), faulted in
  // now rather than in the first run.
  workspace = pageBuffer(shared);
  if (!workspace)
    return Status::error(ErrorCode::MemoryExceeded, "cannot allocate the {}-byte kernel workspace",
                         shared);
  populatePages(workspace.get(), shared);
  for (size_t i = 0; i < steps.size(); ++i)
    if (need[i] && !placed[i]) bind(steps[i], workspace.get());
  ASC_LOG_DEBUG("kernel workspace {} bytes, shared by {} kernels", shared,
                with_workspace - in_arena);
  return Status::ok();
}

void Session::Impl::warmUp(uint8_t* base, size_t bytes) {
#pragma omp parallel num_threads(threads)
  { omp_get_thread_num(); }
  populatePages(base, bytes);
  // oneDNN's gemm (MatMul, Gemm and inner products where no brgemm kernel serves: AVX2 CPUs)
  // generates its code at its first call, not at primitive creation: the benchmark
  // transformer's first MatMul took 25 ms against 0.6 ms later, ResNet-50's FC 5.7 ms against
  // 0.35 ms. Their outputs are written again by every run.
  for (auto& s : steps)
    if (s.kind == StepKind::Kernel && s.kernel->implName().find("gemm:jit") != std::string::npos)
      s.kernel->run();
}

void Session::Impl::usePacked(const Step& s) {
  bool any = false;
  for (int id : s.ins) any |= id >= 0 && slots[id].value && slots[id].value->packed;
  if (!any) return;
  const auto mine = s.kernel->packedInputs();
  for (int id : s.ins) {
    const ir::Value* v = id < 0 ? nullptr : slots[id].value;
    if (!v || !v->packed) continue;
    bool used = false;
    for (const auto& p : mine) used |= p.data == v->packed->data();
    ++(used ? packed.in_place : packed.reordered);
    // Page tables now (the pages are the page cache's, the very ones the run reads; nothing
    // is copied). In a virtual machine that shadows page tables, the first read still costs
    // a fault per page: reading them on a second thread here took longer than the load.
    if (used) prefaultForReading(v->packed->data(), v->packed->size());
  }
}

Result<std::unique_ptr<Session::Impl>> buildImpl(ir::Graph graph, const SessionOptions& opts,
                                                 bool reuse, om::OmModel* plan, bool pack_only) {
  auto impl = std::make_unique<Session::Impl>();
  impl->pack_only = pack_only;
  impl->graph = std::move(graph);
  if (plan) {  // value pointers stay valid: the graph owns its values through unique_ptrs
    impl->om_offsets = std::move(plan->activation_offsets);
  }
  impl->threads = resolveThreads(opts.threads, graphFlops(impl->graph));
  {
    const char* spin = std::getenv("GOMP_SPINCOUNT");
    const char* wait = std::getenv("OMP_WAIT_POLICY");
    ASC_LOG_INFO("model '{}': {} kernel thread(s); OpenMP idle wait: {}", impl->graph.name,
                 impl->threads,
                 wait   ? fmt::format("OMP_WAIT_POLICY={}", wait)
                 : spin ? fmt::format("GOMP_SPINCOUNT={}", spin)
                        : std::string("the OpenMP runtime's default spin"));
  }
  impl->shared_arena = opts.shared_arena;
  impl->profile = opts.profile;
  impl->check_unwritten = opts.check_unwritten;
  impl->observer = opts.observer;
  if (trace::enabled()) {
    impl->tracer = std::make_unique<TraceObserver>(impl->graph.name, impl->threads);
    impl->tracer->setNext(opts.observer);
    impl->observer = impl->tracer.get();
  }
  omp_set_num_threads(impl->threads);
  try {
    ASC_RETURN_IF_ERROR(impl->build(reuse));
  } catch (const dnnl::error& e) {
    return Status::error(ErrorCode::Internal, "oneDNN: {}", e.what());
  }
  return impl;
}

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
  ASC_TRY(std::shared_ptr<Session::Impl> impl,
          buildImpl(graph.clone(), opts, opts.reuse_memory, nullptr, true));
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
