// host_kernel.cpp: the kernel of an Ascend C operator registered through its op_host code: at
// build, the operator's tiling function on the node's shapes and attributes picks the kernel
// entry for the dtypes and fills the tiling data and key; at run, the CPU twin runs the kernel
// on every block, inputs and outputs converted where the entry's dtypes differ from the graph's.
#include <cstring>
#include <memory>
#include <new>

#include <fmt/format.h>

#include "asc/ascendc/kernel_context.h"
#include "asc/ascendc/launch.h"
#include "asc/support/fp16.h"
#include "asc/support/log.h"
#include "ophost/ophost_detail.h"

namespace asc::ophost::detail {

// --- the kernel ----------------------------------------------------------------------------------

/// A tensor as the kernel sees it: the runtime's buffer, or a converted copy when the column
/// holds another float type.
struct Arg {
  void* data = nullptr;
  ir::DType have = ir::DType::Undefined, want = ir::DType::Undefined;
  int64_t numel = 0;
  ir::Shape shape;  // for a DYNAMIC input's list description
  std::vector<uint8_t> scratch;
};

/// A prototype input's node inputs: the first, how many, and whether they form a DYNAMIC input's
/// list (one kernel argument, its description) or are one tensor.
struct InputSpan {
  uint32_t first = 0, count = 1;
  bool list = false;
};

void convert(const void* src, ir::DType from, void* dst, ir::DType to, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    float f = 0;
    switch (from) {
      case ir::DType::F16:
        f = halfToFloat(static_cast<const uint16_t*>(src)[i]);
        break;
      case ir::DType::BF16:
        f = bf16ToFloat(static_cast<const uint16_t*>(src)[i]);
        break;
      default:
        f = static_cast<const float*>(src)[i];
        break;
    }
    switch (to) {
      case ir::DType::F16:
        static_cast<uint16_t*>(dst)[i] = floatToHalf(f);
        break;
      case ir::DType::BF16:
        static_cast<uint16_t*>(dst)[i] = floatToBf16(f);
        break;
      default:
        static_cast<float*>(dst)[i] = f;
        break;
    }
  }
}

class HostOpKernel : public ops::Kernel {
 public:
  HostOpKernel(const Entry& e, std::string node, uint32_t block_dim, uint64_t tiling_key,
               std::vector<uint8_t> tiling, size_t workspace, std::vector<Arg> ins,
               std::vector<Arg> outs, bool parallel, bool check_unwritten,
               std::vector<InputSpan> layout = {})
      : entry_(e),
        node_(std::move(node)),
        check_unwritten_(check_unwritten),
        parallel_(parallel),
        block_dim_(block_dim),
        tiling_key_(tiling_key),
        tiling_(std::move(tiling)),
        workspace_(std::max<size_t>(workspace, 32)),
        ins_(std::move(ins)),
        outs_(std::move(outs)) {
    std::vector<uint8_t*> seen;  // what the kernel reads of each tensor
    for (auto* list : {&ins_, &outs_})
      for (Arg& a : *list) {
        if (a.have != a.want) a.scratch.assign(a.numel * ir::dtypeSize(a.want), 0);
        seen.push_back(static_cast<uint8_t*>(a.have != a.want ? a.scratch.data() : a.data));
      }
    // One argument per prototype input: a DYNAMIC input's is its tensors' list description
    // (ListTensorDesc's layout), in GmAlloc memory so that the kernel knows its length.
    if (layout.empty())
      for (size_t i = 0; i < ins_.size(); ++i) layout.push_back({uint32_t(i), 1, false});
    for (const InputSpan& span : layout) {
      const uint32_t first = span.first, count = span.count;
      if (!span.list) {
        args_.push_back(seen[first]);
        continue;
      }
      std::vector<uint64_t> words{0};
      for (uint32_t k = 0; k < count; ++k) {
        const Arg& a = ins_[first + k];
        words.push_back(uint64_t(a.shape.size()) | uint64_t(k) << 32);
        for (int64_t d : a.shape) words.push_back(uint64_t(d));
      }
      words[0] = words.size() * 8;
      for (uint32_t k = 0; k < count; ++k) words.push_back(uint64_t(uintptr_t(seen[first + k])));
      void* blob = ascendc::detail::gmAlloc(words.size() * 8);
      if (!blob) throw std::bad_alloc();
      std::memcpy(blob, words.data(), words.size() * 8);
      lists_.emplace_back(blob, [](void* b) { ascendc::detail::gmFree(b); });
      args_.push_back(static_cast<uint8_t*>(blob));
    }
    in_args_ = args_.size();
    for (size_t i = ins_.size(); i < seen.size(); ++i) args_.push_back(seen[i]);
    args_.push_back(workspace_.data());
    args_.push_back(tiling_.data());
  }

  void run() override {
    for (Arg& a : ins_)
      if (a.have != a.want) convert(a.data, a.have, a.scratch.data(), a.want, a.numel);
    if (check_unwritten_)
      for (size_t i = 0; i < outs_.size(); ++i) fillPattern(i);
    const KernelEntry fn = entry_.fn;
    uint8_t** args = args_.data();
    ascendc::LaunchOptions opt;
    opt.parallel = parallel_;      // blocks on threads when the session has more than one
    opt.tiling_key = tiling_key_;  // TilingContext::SetTilingKey's, for TILING_KEY_IS
    opt.sub_blocks = ascendc::subBlocksFor("", entry_.mixed);  // the tiling's chip: the default
    Status st = ascendc::launchKernel(
        entry_.kernel.c_str(), block_dim_, [fn, args] { fn(args); }, opt);
    if (!st.isOk()) throw ops::KernelRunError(std::move(st));
    if (check_unwritten_)
      for (size_t i = 0; i < outs_.size(); ++i) checkPattern(i);
    for (Arg& a : outs_)
      if (a.have != a.want) convert(a.scratch.data(), a.want, a.data, a.have, a.numel);
  }
  std::string implName() const override { return "ascendc:" + entry_.kernel; }

 private:
  uint8_t* outData(size_t i) { return args_[in_args_ + i]; }
  // --check_unwritten (unwritten.cpp): outputs start as a pattern; what still holds it after
  // the launch was never written.
  void fillPattern(size_t i) {
    fillUnwritten(outData(i), outs_[i].numel, ir::dtypeSize(outs_[i].want));
  }
  void checkPattern(size_t i) {
    Status st = checkUnwritten(outData(i), outs_[i].numel, ir::dtypeSize(outs_[i].want),
                               fmt::format("node '{}'", node_), entry_.kernel, i);
    if (!st.isOk()) throw ops::KernelRunError(std::move(st));
  }

  Entry entry_;
  std::string node_;
  bool check_unwritten_;
  bool parallel_;
  uint32_t block_dim_;
  uint64_t tiling_key_;
  std::vector<uint8_t> tiling_, workspace_;
  std::vector<Arg> ins_, outs_;
  std::vector<uint8_t*> args_;
  size_t in_args_ = 0;                        // the kernel arguments of the inputs
  std::vector<std::shared_ptr<void>> lists_;  // DYNAMIC inputs' list descriptions
};

Result<Launch> planLaunch(const HostOp& op, const LaunchQuery& q) {
  const ::ops::OpDef& d = *op.def;
  // The kernel whose column matches the buffers' dtypes; else, where allowed, one that differs
  // in float types only (the tensors are converted around it).
  const Entry* pick = nullptr;
  for (int pass = 0; pass < (q.convert_floats ? 2 : 1) && !pick; ++pass)
    for (const Entry& e : op.entries) {
      bool ok = e.dtypes.size() == q.dtypes.size();
      for (size_t i = 0; ok && i < q.dtypes.size(); ++i)
        ok = q.dtypes[i] == ge::DT_UNDEFINED || e.dtypes[i] == q.dtypes[i] ||
             (pass == 1 && isFloat(e.dtypes[i]) && isFloat(q.dtypes[i]));
      if (ok) {
        pick = &e;
        break;
      }
    }
  if (!pick) {
    std::string built;
    for (const Entry& e : op.entries) built += " " + columnText(e.dtypes);
    return Status::error(ErrorCode::UnsupportedOp,
                         "{} ({}): no kernel of the custom operator takes the dtypes {}; the "
                         "plugin has kernels for{}",
                         q.where, d.type(), columnText(q.dtypes), built.empty() ? " none" : built);
  }

  // Tiling, on the kernel's own dtypes.
  if (!d.aicore().tiling())
    return Status::error(ErrorCode::UnsupportedOp,
                         "custom operator {} has no tiling function (AICore().SetTiling)",
                         d.type());
  gert::TilingContext tc;
  tc.node_name_ = q.node_name;
  tc.node_type_ = d.type();
  tc.attrs_ = q.attrs;
  if (!q.soc.empty()) tc.platform_info_ = fe::PlatFormInfos(q.soc.c_str());
  const size_t nin = d.inputs().size();
  bool lists = false;
  for (const auto& l : q.list_shapes) lists |= !l.empty();
  for (size_t i = 0; i < q.shapes.size(); ++i) {
    const ge::DataType dt = static_cast<ge::DataType>(pick->dtypes[i]);
    if (i >= nin) {
      tc.outputs_.emplace_back(q.shapes[i]);
      tc.output_descs_.emplace_back(dt, ge::FORMAT_ND);
      continue;
    }
    // A DYNAMIC input gives one instance per tensor of its list (TilingContext::
    // GetDynamicInputShape); any other, one.
    const bool is_list = i < q.list_shapes.size() && !q.list_shapes[i].empty();
    const size_t n = is_list ? q.list_shapes[i].size() : 1;
    if (lists) tc.ir_inputs_.emplace_back(uint32_t(tc.inputs_.size()), uint32_t(n));
    for (size_t k = 0; k < n; ++k) {
      const gert::Shape& shape = is_list ? q.list_shapes[i][k] : q.shapes[i];
      const void* data = is_list ? (k < q.list_data[i].size() ? q.list_data[i][k] : nullptr)
                                 : (i < q.data.size() ? q.data[i] : nullptr);
      tc.inputs_.emplace_back(shape);
      tc.input_descs_.emplace_back(dt, ge::FORMAT_ND);
      tc.input_tensors_.emplace_back(gert::StorageShape(shape),
                                     q.dtypes[i] == ge::DT_UNDEFINED ? ge::DT_UNDEFINED : dt, data);
    }
  }
  if (d.aicore().tiling()(&tc) != ge::GRAPH_SUCCESS)
    return Status::error(ErrorCode::InvalidParam, "{} ({}): the operator's tiling function failed",
                         q.where, d.type());
  Launch l;
  l.entry = pick;
  l.blocks = tc.GetBlockDim();
  if (l.blocks < 1 || l.blocks > 65535)
    return Status::error(ErrorCode::InvalidParam,
                         "{} ({}): the tiling function set block dim {}; it must be 1 to 65535",
                         q.where, d.type(), l.blocks);
  l.tiling_key = tc.GetTilingKey();
  gert::TilingData* raw = tc.GetRawTilingData();
  l.tiling.assign(static_cast<const uint8_t*>(raw->GetData()),
                  static_cast<const uint8_t*>(raw->GetData()) + raw->GetCapacity());
  for (size_t w : tc.workspaceSizes()) l.workspace += w;
  return l;
}

Result<std::unique_ptr<ops::Kernel>> makeHostKernel(const ops::KernelInit& k) {
  const ir::Node& n = k.node;
  const HostOp* op = findOp(n.op_type);
  if (!op)
    return Status::error(ErrorCode::UnsupportedOp,
                         "node '{}': the custom operator {}'s plugin is "
                         "not loaded",
                         n.name, n.op_type);
  LaunchQuery q;
  q.where = fmt::format("node '{}'", n.name);
  q.node_name = n.name;
  q.convert_floats = true;
  ASC_RETURN_IF_ERROR(fillAttrs(*op->def, n, &q.attrs));
  // The node's inputs per prototype input (a DYNAMIC one takes several).
  ASC_TRY(auto ir_inputs, irInputs(*op->def, k.inputs.size()));
  std::vector<InputSpan> spans;
  if (ir_inputs.empty())
    for (size_t i = 0; i < k.inputs.size(); ++i) spans.push_back({uint32_t(i), 1, false});
  for (size_t i = 0; i < ir_inputs.size(); ++i)
    spans.push_back({ir_inputs[i].first, ir_inputs[i].second,
                     op->def->inputs()[i].paramType() == ::ops::DYNAMIC});
  auto shapeAt = [&](const ops::TensorRef& t, size_t at, gert::Shape* s) -> Status {
    if (!t.value) return Status::ok();
    return shapeOf(t.shape(), s, fmt::format("node '{}' tensor {}", n.name, at));
  };
  for (const InputSpan& span : spans) {
    const auto& t0 = k.inputs[span.first];
    q.dtypes.push_back(t0.data ? toGe(t0.dtype()) : ge::DT_UNDEFINED);
    gert::Shape s;
    if (!span.list) {
      ASC_RETURN_IF_ERROR(shapeAt(t0, span.first, &s));
      q.shapes.push_back(s);
      continue;
    }
    q.shapes.emplace_back();
    q.list_shapes.resize(spans.size());
    q.list_data.resize(spans.size());
    const size_t i = size_t(&span - spans.data());
    for (uint32_t j = 0; j < span.count; ++j) {
      gert::Shape e;
      ASC_RETURN_IF_ERROR(shapeAt(k.inputs[span.first + j], span.first + j, &e));
      q.list_shapes[i].push_back(e);
      q.list_data[i].push_back(k.inputs[span.first + j].data);
    }
  }
  for (size_t i = 0; i < k.outputs.size(); ++i) {
    const auto& t = k.outputs[i];
    q.dtypes.push_back(t.data ? toGe(t.dtype()) : ge::DT_UNDEFINED);
    gert::Shape s;
    ASC_RETURN_IF_ERROR(shapeAt(t, k.inputs.size() + i, &s));
    q.shapes.push_back(s);
  }
  ASC_TRY(Launch l, planLaunch(*op, q));

  // Each node input and output, converted where the kernel's column holds another float type
  // (the column entry of a DYNAMIC input covers all its tensors).
  std::vector<Arg> ins, outs;
  for (size_t s = 0; s < spans.size(); ++s)
    for (uint32_t j = 0; j < spans[s].count; ++j) {
      const auto& t = k.inputs[spans[s].first + j];
      Arg a;
      a.data = t.data;
      a.have = t.dtype();
      a.want = t.data ? toIr(l.entry->dtypes[s]) : a.have;
      a.numel = t.value ? t.numel() : 0;
      if (t.value) a.shape = t.shape();
      ins.push_back(std::move(a));
    }
  for (size_t i = 0; i < k.outputs.size(); ++i) {
    const auto& t = k.outputs[i];
    Arg a;
    a.data = t.data;
    a.have = t.dtype();
    a.want = t.data ? toIr(l.entry->dtypes[spans.size() + i]) : a.have;
    a.numel = t.value ? t.numel() : 0;
    outs.push_back(std::move(a));
  }
  return std::unique_ptr<ops::Kernel>(new HostOpKernel(
      *l.entry, n.name, l.blocks, l.tiling_key, std::move(l.tiling), l.workspace, std::move(ins),
      std::move(outs), k.threads > 1, k.check_unwritten, std::move(spans)));
}

}  // namespace asc::ophost::detail
