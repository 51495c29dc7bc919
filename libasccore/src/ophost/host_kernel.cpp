// host_kernel.cpp: the kernel of an Ascend C operator registered through its op_host code: at
// build, the operator's tiling function on the node's shapes and attributes picks the kernel
// entry for the dtypes and fills the tiling data and key; at run, the CPU twin runs the kernel
// on every block, inputs and outputs converted where the entry's dtypes differ from the graph's.
#include <cstring>

#include <fmt/format.h>

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
  std::vector<uint8_t> scratch;
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
               std::vector<Arg> outs, bool parallel, bool check_unwritten)
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
    for (auto* list : {&ins_, &outs_})
      for (Arg& a : *list) {
        if (a.have != a.want) a.scratch.assign(a.numel * ir::dtypeSize(a.want), 0);
        args_.push_back(static_cast<uint8_t*>(a.have != a.want ? a.scratch.data() : a.data));
      }
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
  uint8_t* outData(size_t i) { return args_[ins_.size() + i]; }
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
  for (const auto& p : op->def->inputs())
    if (p.paramType() == ::ops::DYNAMIC)
      return Status::error(ErrorCode::NotImplemented,
                           "node '{}': input '{}' of custom operator {} is DYNAMIC (a tensor "
                           "list); asc-tools runs such operators through their aclnn API, not "
                           "in models yet",
                           n.name, p.name(), n.op_type);
  LaunchQuery q;
  q.where = fmt::format("node '{}'", n.name);
  q.node_name = n.name;
  q.convert_floats = true;
  ASC_RETURN_IF_ERROR(fillAttrs(*op->def, n, &q.attrs));
  size_t idx = 0;
  for (auto* list : {&k.inputs, &k.outputs})
    for (const auto& t : *list) {
      q.dtypes.push_back(t.data ? toGe(t.dtype()) : ge::DT_UNDEFINED);
      gert::Shape s;
      if (t.value)
        ASC_RETURN_IF_ERROR(
            shapeOf(t.shape(), &s, fmt::format("node '{}' tensor {}", n.name, idx)));
      q.shapes.push_back(s);
      ++idx;
    }
  ASC_TRY(Launch l, planLaunch(*op, q));

  std::vector<Arg> ins, outs;
  idx = 0;
  for (auto* list : {&k.inputs, &k.outputs}) {
    for (const auto& t : *list) {
      Arg a;
      a.data = t.data;
      a.have = t.dtype();
      a.want = t.data ? toIr(l.entry->dtypes[idx]) : a.have;
      a.numel = t.value ? t.numel() : 0;
      (list == &k.inputs ? ins : outs).push_back(std::move(a));
      ++idx;
    }
  }
  return std::unique_ptr<ops::Kernel>(
      new HostOpKernel(*l.entry, n.name, l.blocks, l.tiling_key, std::move(l.tiling), l.workspace,
                       std::move(ins), std::move(outs), k.threads > 1, k.check_unwritten));
}

}  // namespace asc::ophost::detail
