// dnnl_util.cpp: oneDNN descriptors for asc tensors.
#include "dnnl_util.h"

#include <fmt/format.h>

#include "asc/support/log.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>

namespace asc::cpu {

memory::dims dimsOf(const ir::Shape& s) {
  if (s.empty()) return {1};
  return memory::dims(s.begin(), s.end());
}

memory::format_tag plainTag(size_t rank) {
  using tag = memory::format_tag;
  switch (rank) {
    case 0:
    case 1:
      return tag::a;
    case 2:
      return tag::ab;
    case 3:
      return tag::abc;
    case 4:
      return tag::abcd;
    case 5:
      return tag::abcde;
    case 6:
      return tag::abcdef;
    default:
      return tag::undef;
  }
}

memory::format_tag blockedTag(size_t rank) {
  using tag = memory::format_tag;
  const bool cl = ops::channelsLast();
  switch (rank) {
    case 3:
      return cl ? tag::nwc : tag::nCw8c;
    case 4:
      return cl ? tag::nhwc : tag::nChw8c;
    case 5:
      return cl ? tag::ndhwc : tag::nCdhw8c;
    default:
      return tag::undef;
  }
}

memory::data_type dnnlType(ir::DType t) {
  using dt = memory::data_type;
  switch (t) {
    case ir::DType::F32:
      return dt::f32;
    case ir::DType::F16:
      return dt::f16;
    case ir::DType::BF16:
      return dt::bf16;
    case ir::DType::I32:
      return dt::s32;
    case ir::DType::I8:
      return dt::s8;
    case ir::DType::U8:
      return dt::u8;
    default:
      return dt::undef;
  }
}

memory::desc descOf(const ir::Shape& shape, ir::DType dtype, ops::Layout layout) {
  auto dims = dimsOf(shape);
  auto tag = layout == ops::Layout::Blocked ? blockedTag(dims.size()) : plainTag(dims.size());
  return memory::desc(dims, dnnlType(dtype), tag);
}

memory::desc descOf(const ops::TensorRef& t) { return descOf(t.shape(), t.dtype(), t.layout); }

memory memOf(const ops::TensorRef& t, const dnnl::engine& eng) {
  return memory(descOf(t), eng, t.data);
}

void execute(ops::KernelEnv& env, const dnnl::primitive& p,
             const std::unordered_map<int, memory>& args) {
  p.execute(env.stream, args);
  env.stream.wait();
}

Status dnnlError(const ir::Node& n, const dnnl::error& e) {
  return Status::error(ErrorCode::Internal, "node '{}' ({}): oneDNN could not build the kernel: {}",
                       n.name, n.op_type, e.what());
}

}  // namespace asc::cpu

namespace asc::cpu {

memory temporary(const memory::desc& md, int which, ops::KernelEnv& env) {
  if (!env.share_temporaries) return memory(md, env.engine);  // oneDNN owns this buffer
  memory m(md, env.engine, DNNL_MEMORY_NONE);
  env.temporaries[which].push_back(m);
  env.temporary_bytes[which] = std::max(env.temporary_bytes[which], md.get_size());
  return m;
}

Status AdaptedInput::init(const ir::Node& n, const ops::TensorRef& t, const memory::desc& want,
                          ops::KernelEnv& env, int which) {
  try {
    return init(n, memOf(t, env.engine).get_desc(), t.data, want, env, which);
  } catch (const dnnl::error& e) {
    return dnnlError(n, e);
  }
}

Status AdaptedInput::init(const ir::Node& n, const memory::desc& have, void* data,
                          const memory::desc& want, ops::KernelEnv& env, int which) {
  try {
    src_ = memory(have, env.engine, data);
    if (src_.get_desc() == want) {
      mem_ = src_;
      return Status::ok();
    }
    mem_ = temporary(want, which, env);
    reorder_ = dnnl::reorder(src_, mem_);
    needs_reorder_ = true;
    if (fastConversions()) conversion_ = blockedConversion(have, want);
  } catch (const dnnl::error& e) {
    return dnnlError(n, e);
  }
  return Status::ok();
}

void AdaptedInput::prepare(ops::KernelEnv& env) {
  if (!needs_reorder_) return;
  if (conversion_ != BlockedConversion::None) {
    const memory::dims d = src_.get_desc().dims();
    const auto* x = static_cast<const float*>(src_.get_data_handle());
    auto* y = static_cast<float*>(mem_.get_data_handle());
    if (conversion_ == BlockedConversion::ToPlain)
      blockedToPlain(x, y, d[0], d[1], d[2] * d[3]);
    else
      plainToBlocked(x, y, d[0], d[1], d[2] * d[3]);
    return;
  }
  reorder_.execute(env.stream, src_, mem_);
}

Result<memory> reorderConstant(const ir::Node& n, const memory::desc& have, const void* data,
                               const memory::desc& want, ops::KernelEnv& env) {
  try {
    memory src(have, env.engine, const_cast<void*>(data));
    // Already in the layout the primitive wants: use the constant where it is (a mapped OM or
    // weight file, or memory the session owns for as long as its kernels). Primitives only read
    // weights, so a read-only mapping serves, and the weights are never held twice.
    if (have == want) return src;
    if (env.defer_weight_reorders) {  // its buffer comes with the others' (runWeightReorders)
      memory dst(want, env.engine, DNNL_MEMORY_NONE);
      env.pending_reorders.push_back({&n, src, dst});
      return dst;
    }
    memory dst(want, env.engine);
    dnnl::reorder(src, dst).execute(env.stream, src, dst);
    env.stream.wait();
    return dst;
  } catch (const dnnl::error& e) {
    return dnnlError(n, e);
  }
}

Status runWeightReorders(ops::KernelEnv& env, int threads) {
  auto& list = env.pending_reorders;
  if (list.empty()) return Status::ok();
  // Largest first, handed out one at a time: the cores finish together. Inside the parallel
  // region each reorder runs on its one thread (oneDNN does not nest OpenMP teams).
  std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
    return a.dst.get_desc().get_size() > b.dst.get_desc().get_size();
  });
  // One buffer holds them all, in huge pages: ResNet-50's 100 MB of weights fault in as ~50
  // pages rather than ~25,000 (a fault costs microseconds, more in a virtual machine).
  constexpr size_t kAlign = 64;
  size_t total = 0;
  for (const auto& r : list) total += (r.dst.get_desc().get_size() + kAlign - 1) / kAlign * kAlign;
  PageBuffer pool = pageBuffer(total);
  if (!pool) {
    list.clear();
    return Status::error(ErrorCode::MemoryExceeded,
                         "cannot allocate {} bytes for the kernels' reordered weights", total);
  }
  size_t at = 0;
  for (auto& r : list) {
    r.dst.set_data_handle(pool.get() + at);
    at += (r.dst.get_desc().get_size() + kAlign - 1) / kAlign * kAlign;
  }
  env.weight_buffers.push_back(std::move(pool));
  const int64_t count = static_cast<int64_t>(list.size());
  std::vector<std::string> failed(list.size());
#pragma omp parallel for schedule(dynamic) num_threads(std::max(1, threads))
  for (int64_t i = 0; i < count; ++i) {
    auto& r = list[static_cast<size_t>(i)];
    try {
      dnnl::stream s(env.engine);
      dnnl::reorder(r.src, r.dst).execute(s, r.src, r.dst);
      s.wait();
    } catch (const dnnl::error& e) {
      failed[static_cast<size_t>(i)] = e.what();
    } catch (const std::exception& e) {  // nothing may leave an OpenMP region
      failed[static_cast<size_t>(i)] = e.what();
    }
  }
  Status st = Status::ok();
  for (size_t i = 0; i < list.size() && st.isOk(); ++i)
    if (!failed[i].empty())
      st = Status::error(ErrorCode::Internal,
                         "node '{}' ({}): oneDNN could not reorder its weights: {}",
                         list[i].node->name, list[i].node->op_type, failed[i]);
  list.clear();
  return st;
}

Status reserveWeightReorders(ops::KernelEnv& env) {
  constexpr size_t kAlign = 64;
  size_t total = 0;
  for (const auto& r : env.pending_reorders)
    total += (r.dst.get_desc().get_size() + kAlign - 1) / kAlign * kAlign;
  if (total == 0) return Status::ok();
  PageBuffer range = reservedPages(total);
  if (!range)
    return Status::error(ErrorCode::MemoryExceeded,
                         "cannot reserve {} bytes of address space for the packed weights", total);
  size_t at = 0;
  for (auto& r : env.pending_reorders) {
    r.dst.set_data_handle(range.get() + at);
    at += (r.dst.get_desc().get_size() + kAlign - 1) / kAlign * kAlign;
  }
  env.weight_buffers.push_back(std::move(range));
  return Status::ok();
}

void useSharedScratchpad(dnnl::primitive_attr& attr) {
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
}

memory sharedScratchpad(const memory::desc& md, const std::string& who, ops::KernelEnv& env) {
  const size_t bytes = md.get_size();
  if (bytes == 0) return memory();
  memory m(md, env.engine, DNNL_MEMORY_NONE);
  env.scratchpads.push_back(m);
  env.scratchpad_bytes = std::max(env.scratchpad_bytes, bytes);
  ASC_LOG_DEBUG("{}: scratchpad {} bytes", who, bytes);
  return m;
}

memory sharedScratchpad(const dnnl::primitive_desc_base& pd, ops::KernelEnv& env) {
  return sharedScratchpad(pd.scratchpad_desc(), pd.impl_info_str(), env);
}

std::string packingOf(const memory::desc& md) {
  const dnnl_memory_desc_t& d = md.data;
  auto list = [&](const auto* a, int n) { return fmt::format("{}", fmt::join(a, a + n, ",")); };
  const std::string head =
      fmt::format("{} dims={} padded={} offsets={} offset0={}", static_cast<int>(d.data_type),
                  list(d.dims, d.ndims), list(d.padded_dims, d.ndims),
                  list(d.padded_offsets, d.ndims), d.offset0);
  const std::string extra =
      fmt::format(" extra={},{},{},{}", d.extra.flags, d.extra.compensation_mask,
                  d.extra.scale_adjust, d.extra.asymm_compensation_mask);
  if (d.format_kind == dnnl_blocked) {
    const auto& b = d.format_desc.blocking;
    const std::string s =
        fmt::format("blocked {} strides={} inner={}:{}", head, list(b.strides, d.ndims),
                    list(b.inner_blks, b.inner_nblks), list(b.inner_idxs, b.inner_nblks)) +
        extra;
    // The plain row-major layout is what the constant already is: no packing.
    if (md == memory::desc(md.dims(), md.data_type(), plainTag(md.dims().size()))) return "";
    return s;
  }
  if (d.format_kind == dnnl_format_kind_wino) {
    const auto& w = d.format_desc.wino_desc;
    return fmt::format(
               "wino {} format={} r={} alpha={} ic={} oc={} blocks={},{},{},{} "
               "adj_scale={} size={}",
               head, static_cast<int>(w.wino_format), w.r, w.alpha, w.ic, w.oc, w.ic_block,
               w.oc_block, w.ic2_block, w.oc2_block, w.adj_scale, w.size) +
           extra;
  }
  return "";
}

namespace {

// "a,b,c" (or "") as integers; false on anything else.
bool parseInts(const std::string& text, std::vector<int64_t>& out) {
  out.clear();
  if (text.empty()) return true;
  size_t at = 0;
  while (true) {
    size_t end = text.find(',', at);
    const std::string item =
        text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (item.empty() || item.size() > 18) return false;
    size_t k = item[0] == '-' ? 1 : 0;
    if (k == item.size()) return false;
    for (size_t i = k; i < item.size(); ++i)
      if (item[i] < '0' || item[i] > '9') return false;
    out.push_back(std::stoll(item));
    if (end == std::string::npos) return true;
    at = end + 1;
  }
}

}  // namespace

Result<memory::desc> parsePacking(const std::string& packing, const ir::Shape& shape,
                                  size_t bytes) {
  auto fail = [&](const std::string& why) -> Status {
    return Status::error(ErrorCode::InvalidModel, "packed layout '{}': {}", packing.substr(0, 200),
                         why);
  };
  // "blocked <dt> dims=.. padded=.. offsets=.. offset0=.. strides=.. inner=<blks>:<idxs>
  //  extra=<flags>,<mask>,<scale>,<mask>", as packingOf writes it.
  std::vector<std::string> tok;
  for (size_t at = 0; at <= packing.size();) {
    size_t end = packing.find(' ', at);
    if (end == std::string::npos) end = packing.size();
    tok.push_back(packing.substr(at, end - at));
    at = end + 1;
  }
  if (tok.size() != 9 || tok[0] != "blocked") return fail("not a blocked layout");
  std::vector<int64_t> dt, dims, padded, offsets, offset0, strides, blks, idxs;
  auto field = [&](size_t i, const char* key, std::string& value) {
    const std::string k = std::string(key) + "=";
    if (tok[i].compare(0, k.size(), k) != 0) return false;
    value = tok[i].substr(k.size());
    return true;
  };
  std::string v[7];
  const char* keys[7] = {"dims", "padded", "offsets", "offset0", "strides", "inner", "extra"};
  for (size_t i = 0; i < 7; ++i)
    if (!field(i + 2, keys[i], v[i])) return fail(fmt::format("no {}= field", keys[i]));
  const size_t colon = v[5].find(':');
  if (colon == std::string::npos) return fail("inner= has no ':'");
  if (!parseInts(tok[1], dt) || dt.size() != 1 || !parseInts(v[0], dims) ||
      !parseInts(v[1], padded) || !parseInts(v[2], offsets) || !parseInts(v[3], offset0) ||
      offset0.size() != 1 || !parseInts(v[4], strides) || !parseInts(v[5].substr(0, colon), blks) ||
      !parseInts(v[5].substr(colon + 1), idxs))
    return fail("a field is not a list of integers");
  // A kernel may view the tensor with other dims of the same elements (a grouped convolution's
  // weights as [g, O/g, I, kH, kW]): their plain row-major bytes are the tensor's all the same.
  const size_t n = dims.size();
  if (n == 0 || n > DNNL_MAX_NDIMS || padded.size() != n || offsets.size() != n ||
      strides.size() != n)
    return fail("its dims, padding, offsets and strides do not have one rank");
  unsigned __int128 elements = 1;
  for (int64_t d : dims) {
    if (d < 1 || d > (int64_t(1) << 40)) return fail("a dim is out of range");
    elements *= static_cast<unsigned __int128>(d);
    if (elements > (static_cast<unsigned __int128>(1) << 62)) return fail("too many elements");
  }
  if (elements != static_cast<unsigned __int128>(ir::numElements(shape)))
    return fail(
        fmt::format("its dims do not hold the tensor's {} elements", ir::numElements(shape)));
  if (dt[0] != dnnl_f32) return fail("not fp32");
  if (offset0[0] != 0) return fail("offset0 is not 0");
  if (blks.size() != idxs.size() || blks.size() > DNNL_MAX_NDIMS) return fail("bad inner blocks");
  std::vector<int64_t> per_dim(n, 1);
  int64_t inner = 1;
  for (size_t k = 0; k < blks.size(); ++k) {
    if (blks[k] < 1 || blks[k] > 256 || idxs[k] < 0 || idxs[k] >= int64_t(n))
      return fail("bad inner blocks");
    per_dim[static_cast<size_t>(idxs[k])] *= blks[k];
    inner *= blks[k];
    if (inner > (int64_t(1) << 20)) return fail("inner blocks too large");
  }
  // The furthest element: every outer index at its last block, and the whole inner block.
  unsigned __int128 last = static_cast<unsigned __int128>(inner - 1);
  for (size_t d = 0; d < n; ++d) {
    if (offsets[d] != 0) return fail("padded offsets are not 0");
    if (padded[d] < dims[d] || padded[d] % per_dim[d] != 0 || padded[d] - dims[d] >= per_dim[d])
      return fail(fmt::format("padded[{}] does not fit its blocks", d));
    if (strides[d] < 0 || strides[d] > int64_t(bytes)) return fail("a stride is out of range");
    last += static_cast<unsigned __int128>(padded[d] / per_dim[d] - 1) *
            static_cast<unsigned __int128>(strides[d]);
  }
  if ((last + 1) * sizeof(float) > bytes)
    return fail(fmt::format("its elements reach past its {} bytes", bytes));
  dnnl_memory_desc_t d;
  std::memset(&d, 0, sizeof(d));
  d.ndims = static_cast<int>(n);
  d.data_type = dnnl_f32;
  d.format_kind = dnnl_blocked;
  for (size_t i = 0; i < n; ++i) {
    d.dims[i] = dims[i];
    d.padded_dims[i] = padded[i];
    d.format_desc.blocking.strides[i] = strides[i];
  }
  d.format_desc.blocking.inner_nblks = static_cast<int>(blks.size());
  for (size_t k = 0; k < blks.size(); ++k) {
    d.format_desc.blocking.inner_blks[k] = blks[k];
    d.format_desc.blocking.inner_idxs[k] = idxs[k];
  }
  const memory::desc md(d);
  if (md.get_size() != bytes)
    return fail(fmt::format("oneDNN sizes it {} bytes, not {}", md.get_size(), bytes));
  if (packingOf(md) != packing) return fail("its name is not the one this layout has");
  return md;
}

}  // namespace asc::cpu

namespace asc::ops {

std::optional<PhysicalLayout> physicalLayout(const std::string& packing, const ir::Shape& shape,
                                             size_t bytes) {
  auto md = cpu::parsePacking(packing, shape, bytes);
  if (!md) return std::nullopt;
  const dnnl_memory_desc_t& d = md->data;
  const int n = d.ndims;
  if (n != static_cast<int>(shape.size()) || n > 26) return std::nullopt;
  for (int i = 0; i < n; ++i)
    if (d.dims[i] != shape[static_cast<size_t>(i)]) return std::nullopt;
  const auto& b = d.format_desc.blocking;
  std::vector<int64_t> block(static_cast<size_t>(n), 1);
  int64_t inner = 1;
  for (int k = 0; k < b.inner_nblks; ++k) {
    block[static_cast<size_t>(b.inner_idxs[k])] *= b.inner_blks[k];
    inner *= b.inner_blks[k];
  }
  // The outer dims, largest stride first; those of extent 1 (whose stride says nothing) last,
  // in their own order.
  auto outer = [&](int i) { return d.padded_dims[i] / block[static_cast<size_t>(i)]; };
  std::vector<int> order, ones;
  for (int i = 0; i < n; ++i) (outer(i) > 1 ? order : ones).push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return b.strides[x] > b.strides[y]; });
  order.insert(order.end(), ones.begin(), ones.end());
  // Dense: each outer dim's stride is the product of everything inside it.
  int64_t step = inner;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (outer(*it) > 1 && b.strides[*it] != step) return std::nullopt;
    step *= outer(*it);
  }
  if (static_cast<uint64_t>(step) * sizeof(float) != bytes) return std::nullopt;
  PhysicalLayout out;
  for (int i : order) {
    out.tag += static_cast<char>((block[static_cast<size_t>(i)] > 1 ? 'A' : 'a') + i);
    out.dims.push_back(outer(i));
  }
  for (int k = 0; k < b.inner_nblks; ++k) {
    out.tag += std::to_string(b.inner_blks[k]) + static_cast<char>('a' + b.inner_idxs[k]);
    out.dims.push_back(b.inner_blks[k]);
  }
  return out;
}

}  // namespace asc::ops

namespace asc::cpu {

bool unpackWeights(const memory::desc& md, const void* packed, void* plain) {
  try {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    memory src(md, eng, const_cast<void*>(packed));
    memory dst(memory::desc(md.dims(), md.data_type(), plainTag(md.dims().size())), eng, plain);
    dnnl::reorder(src, dst).execute(s, src, dst);
    s.wait();
    return true;
  } catch (const dnnl::error& e) {
    ASC_LOG_ERROR("packed weights could not be unpacked: {}", e.what());
    return false;
  }
}

Result<memory> constantWeights(const ir::Node& n, const ops::TensorRef& t, const memory::desc& have,
                               const memory::desc& want, ops::KernelEnv& env) {
  const ir::Value* v = t.value;
  if (v && v->packed) {
    env.weights_read.push_back(v);
    const std::string wanted = packingOf(want);
    // Only a packed copy of exactly the wanted layout and size is read: the descriptor used is
    // always the one this CPU's primitive chose, never one taken from the file.
    if (!wanted.empty() && wanted == v->packing && v->packed->size() == want.get_size()) {
      try {
        return memory(want, env.engine, const_cast<uint8_t*>(v->packed->data()));
      } catch (const dnnl::error& e) {
        return dnnlError(n, e);
      }
    }
    ASC_LOG_DEBUG(
        "node '{}': its weights '{}' were packed for another CPU ({}); this one wants "
        "{}, so they are reordered at load",
        n.name, v->name, v->packing, wanted.empty() ? "the plain layout" : wanted);
    // The plain bytes from the constant itself: for weights the OM stores only packed, the
    // session's pointer is the packed copy, and these are made (unpacked) here, on demand.
    if (v->data) return reorderConstant(n, have, v->data->data(), want, env);
  }
  return reorderConstant(n, have, t.data, want, env);
}

void notePacked(size_t input, const memory::desc& have, const memory& weights,
                std::vector<ops::PackedInput>* out) {
  const memory::desc md = weights.get_desc();
  if (md == have) return;
  std::string p = packingOf(md);
  if (p.empty()) return;
  out->push_back({input, std::move(p), weights.get_data_handle(), md.get_size()});
}

Status appendActivation(const ir::Node& n, dnnl::post_ops& po) {
  const std::string act = n.attrs.getString("activation", "");
  using alg = dnnl::algorithm;
  if (act.empty()) return Status::ok();
  if (act == "Relu")
    po.append_eltwise(1.f, alg::eltwise_relu, 0.f, 0.f);
  else if (act == "LeakyRelu")
    po.append_eltwise(1.f, alg::eltwise_relu, n.attrs.getFloat("activation_alpha", 0.01f), 0.f);
  else if (act == "Clip")
    po.append_eltwise(1.f, alg::eltwise_clip_v2,
                      n.attrs.getFloat("activation_min", -std::numeric_limits<float>::infinity()),
                      n.attrs.getFloat("activation_max", std::numeric_limits<float>::infinity()));
  else if (act == "Sigmoid")
    po.append_eltwise(1.f, alg::eltwise_logistic, 0.f, 0.f);
  else if (act == "Tanh")
    po.append_eltwise(1.f, alg::eltwise_tanh, 0.f, 0.f);
  else if (act == "HardSwish")
    po.append_eltwise(1.f, alg::eltwise_hardswish, 0.f, 0.f);
  else if (act == "HardSigmoid") {  // oneDNN 2.6 has none: alpha * x + beta, clipped to [0, 1]
    po.append_eltwise(1.f, alg::eltwise_linear, n.attrs.getFloat("activation_alpha", 0.2f),
                      n.attrs.getFloat("activation_beta", 0.5f));
    po.append_eltwise(1.f, alg::eltwise_clip_v2, 0.f, 1.f);
  } else if (act == "Gelu")
    po.append_eltwise(1.f,
                      n.attrs.getString("activation_approximate", "none") == "tanh"
                          ? alg::eltwise_gelu_tanh
                          : alg::eltwise_gelu_erf,
                      0.f, 0.f);
  else if (act == "Swish")
    po.append_eltwise(1.f, alg::eltwise_swish, n.attrs.getFloat("activation_alpha", 1.f), 0.f);
  else
    return Status::error(ErrorCode::InvalidModel, "node '{}': unknown fused activation '{}'",
                         n.name, act);
  return Status::ok();
}

}  // namespace asc::cpu

namespace asc::ops {

Result<std::function<void(uint8_t*)>> plainFromPacked(const std::string& packing,
                                                      const ir::Shape& shape,
                                                      std::shared_ptr<const ir::Blob> packed) {
  ASC_TRY(dnnl::memory::desc md, cpu::parsePacking(packing, shape, packed->size()));
  return std::function<void(uint8_t*)>([md, packed](uint8_t* out) {
    if (!cpu::unpackWeights(md, packed->data(), out)) {
      float* f = reinterpret_cast<float*>(out);
      std::fill(f, f + md.get_size() / sizeof(float), std::numeric_limits<float>::quiet_NaN());
    }
  });
}

}  // namespace asc::ops
