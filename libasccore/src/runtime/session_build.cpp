// session_build.cpp: making a Session at load. The build walks the graph once: it picks each
// op's output layout (plain or the CPU's blocked layout), inserts the reorders and fp16<->fp32
// conversions the kernels need, plans one arena over every buffer's lifetime, allocates it, and
// creates the kernels on their fixed buffers (session_kernels.cpp). atc's packed weights are
// pack_weights.cpp.
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
#include "cpu/features.h"
#include "runtime/session_impl.h"
#include "support/memory_planner.h"

namespace asc::runtime {

int64_t nodeWork(const ir::Node& n) {
  const ops::OpDef* d = ops::lookup(n.op_type);
  if (d && d->flopsFn()) return d->flopsFn()(n);
  int64_t total = 0;
  for (const ir::Value* v : n.outputs)
    if (v) total += v->numel();
  return total;
}

int64_t graphFlops(const ir::Graph& g) {
  int64_t total = 0;
  for (const auto& n : g.nodes()) total += nodeWork(*n);
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

namespace {
// A Conv the runtime may compute from a Concat's inputs (ops::createConcatConv): 1x1, no stride,
// padding, dilation or groups, constant 4-D weights, no fused residual.
bool pointwiseConv(const ir::Node& n) {
  if (n.op_type != "Conv" || n.inputs.size() < 2 || n.inputs.size() > 3 || !n.inputs[1] ||
      !n.inputs[1]->isConstant() || n.inputs[1]->dtype != ir::DType::F32 ||
      n.inputs[1]->shape.size() != 4 || n.inputs[1]->shape[2] != 1 || n.inputs[1]->shape[3] != 1 ||
      n.attrs.getInt("group", 1) != 1)
    return false;
  for (const char* a : {"strides", "dilations"})
    for (int64_t v : n.attrs.getInts(a, {1, 1}))
      if (v != 1) return false;
  for (int64_t v : n.attrs.getInts("pads", {0, 0, 0, 0}))
    if (v != 0) return false;
  return true;
}
}  // namespace

int Session::Impl::concatFeedingReader(const ir::Node& n, const std::vector<int>& ins) const {
  static const bool bn_enabled = cpu::switchedOn("ASC_CONCAT_BN");
  static const bool readers_enabled = cpu::switchedOn("ASC_CONCAT_READERS");
  // Values nobody observes only: with reuse off every value stays readable after a run.
  if (!reuse_ || !ops::channelsLast() || ins.empty() || ins[0] < 0 || n.outputs.size() != 1)
    return -1;
  if (n.op_type == "BatchNormalization") {
    if (!bn_enabled || ins.size() < 5) return -1;
    for (size_t i = 1; i < 5; ++i)  // the statistics, plain, are folded when the kernel is made
      if (!n.inputs[i] || !n.inputs[i]->isConstant() || packedOnly(n.inputs[i])) return -1;
  } else if (n.op_type == "MaxPool") {  // (no Indices: one output)
    if (!readers_enabled) return -1;
  } else if (!readers_enabled || !pointwiseConv(n)) {
    // (Its weights are read in slices from the plain bytes, so atc, which builds the kernels to
    // pack their weights, leaves these plain: no unpacking at load.)
    return -1;
  }
  const Slot& x = slots[ins[0]];
  if (x.alias_of >= 0 || x.layout != Layout::Blocked || x.type != ir::DType::F32 || !x.value ||
      x.value->shape.size() != 4 || x.first < 0 || x.first >= static_cast<int>(steps.size()))
    return -1;
  const Step& c = steps[x.first];
  if (c.kind != StepKind::Kernel || !c.node || c.node->op_type != "Concat" || c.outs.size() != 1 ||
      c.outs[0] != ins[0] || c.concat_inputs_of >= 0)
    return -1;
  int64_t axis = c.node->attrs.getInt("axis", 0);
  if (axis < 0) axis += 4;
  if (axis != 1) return -1;
  // Its output is read by this node alone, and is no model output.
  auto r = readers.find(x.value);
  if (r == readers.end() || r->second.size() != 1 || graph.nodes()[r->second[0]].get() != &n)
    return -1;
  for (const ir::Value* o : graph.outputs)
    if (o == x.value) return -1;
  for (int id : c.ins)
    if (id < 0 || slots[id].layout != Layout::Blocked || slots[id].type != ir::DType::F32)
      return -1;
  return x.first;
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
    const int concat_step = concatFeedingReader(n, ins);
    if (concat_step >= 0)  // its kernel reads the Concat's inputs: they live until it has run
      for (int id : steps[concat_step].ins) slots[id].last = std::max(slots[id].last, step);
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
    s.concat_inputs_of = concat_step;
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
    output_slots.push_back(need(v, Layout::Plain, v->dtype, end));
    output_info.push_back({v->name, v->dtype, v->shape, v->byteSize()});
  }
  // Outputs are read by the caller after the run, so they live past the last step, the
  // conversions that made the later outputs included: an output made at step `end` that lived
  // only to end + 1 shared its bytes with the third output's conversion (a channels-last model
  // whose three outputs each needed a reorder to plain returned another output's bytes). Inputs
  // are written once by the caller and read by every run: they live throughout (their bytes are
  // never reused), so --loop reruns see the same data.
  const int past = static_cast<int>(steps.size()) + 1;
  for (int id : output_slots) slots[id].last = past;
  for (int id : input_slots) slots[id].last = past;

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
  ASC_RETURN_IF_ERROR(createKernels());
  // The weights the kernels reordered, all at once (KernelEnv::defer_weight_reorders).
  env.defer_weight_reorders = false;
  if (pack_only) return cpu::reserveWeightReorders(env);
  ASC_RETURN_IF_ERROR(cpu::runWeightReorders(env, threads));
  ASC_RETURN_IF_ERROR(bindScratchpads(base, alloc_bytes));
  warmUp(base, alloc_bytes);
  return Status::ok();
}

Result<std::unique_ptr<Session::Impl>> buildImpl(ir::Graph graph, const SessionOptions& opts,
                                                 bool reuse, om::OmModel* plan, bool pack_only) {
  auto impl = std::make_unique<Session::Impl>();
  impl->pack_only = pack_only;
  impl->graph = std::move(graph);
  if (plan) {  // value pointers stay valid: the graph owns its values through unique_ptrs
    impl->om_offsets = std::move(plan->activation_offsets);
    impl->weights_being_checked = plan->pending != nullptr;
  }
  impl->threads = resolveThreads(opts.threads, graphFlops(impl->graph), &impl->busy_seen);
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

}  // namespace asc::runtime
