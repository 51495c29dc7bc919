// avx2_conv.cpp: see avx2_conv.h.
#include "ops/conv/avx2_conv.h"

#include <string>

#include "asc/ops/op_def.h"
#include "cpu/features.h"

namespace asc::ops {

bool ownConvOperands(const KernelInit& k) {
  const ir::Node& n = k.node;
  if (n.op_type != "Conv" || k.inputs.size() < 2 || k.outputs.size() != 1) return false;
  const TensorRef &x = k.inputs[0], &w = k.inputs[1], &y = k.outputs[0];
  auto blockedF32 = [](const TensorRef& t) {
    return t.data && t.layout == Layout::Blocked && t.type == ir::DType::F32 &&
           t.shape().size() == 4;
  };
  if (!blockedF32(x) || !blockedF32(y) || !w.data || !w.value->isConstant() ||
      w.type != ir::DType::F32 || w.layout != Layout::Plain || w.shape().size() != 4)
    return false;
  const std::string act = n.attrs.getString("activation", "");
  if (!act.empty() && act != "Relu") return false;
  if (k.inputs.size() > 2 && k.inputs[2].data &&
      (k.inputs[2].type != ir::DType::F32 || k.inputs[2].layout != Layout::Plain))
    return false;
  if (k.inputs.size() > 3 && k.inputs[3].data &&
      (k.inputs[3].layout != Layout::Blocked || k.inputs[3].type != ir::DType::F32))
    return false;
  if (n.attrs.getInt("group", 1) != 1 || n.attrs.getInts("strides", {1, 1}).size() != 2 ||
      n.attrs.getInts("dilations", {1, 1}).size() != 2 ||
      n.attrs.getInts("pads", {0, 0, 0, 0}).size() != 4)
    return false;
  const ir::Shape& ws = w.shape();
  return ws[0] == y.shape()[1] && ws[1] == x.shape()[1];
}

bool avx2BlockedConv(const KernelInit& k) {
  static const bool cpu_ok = cpu::hasAvx2Fma();
  if (!cpu_ok || channelsLast() || blockSize() != 8 || !ownConvOperands(k)) return false;
  return k.inputs[0].shape()[1] % 8 == 0 && k.outputs[0].shape()[1] % 16 == 0;
}

bool winogradGeometry(const KernelInit& k, int64_t min_outputs) {
  const ir::Node& n = k.node;
  if (n.attrs.getString(kImplModeAttr, "") == "high_precision") return false;
  const ir::Shape &xs = k.inputs[0].shape(), &ws = k.inputs[1].shape(), &ys = k.outputs[0].shape();
  if (ws[2] != 3 || ws[3] != 3) return false;
  for (int64_t v : n.attrs.getInts("strides", {1, 1}))
    if (v != 1) return false;
  for (int64_t v : n.attrs.getInts("dilations", {1, 1}))
    if (v != 1) return false;
  const auto pads = n.attrs.getInts("pads", {0, 0, 0, 0});
  for (int64_t p : pads)
    if (p < 0 || p > 2) return false;
  const int64_t oh = xs[2] + pads[0] + pads[2] - 2, ow = xs[3] + pads[1] + pads[3] - 2;
  if (oh != ys[2] || ow != ys[3] || oh <= 0 || ow <= 0) return false;
  return oh * ow >= min_outputs;
}

ConvExtents convExtents(const KernelInit& k) {
  const ir::Shape &xs = k.inputs[0].shape(), &ys = k.outputs[0].shape();
  const auto pads = k.node.attrs.getInts("pads", {0, 0, 0, 0});
  return ConvExtents{xs[0], xs[1], ys[1], xs[2], xs[3], ys[2], ys[3], pads[0], pads[1]};
}

WinogradTiles winogradTiles(const KernelInit& k) {
  WinogradTiles t{};
  static_cast<ConvExtents&>(t) = convExtents(k);
  t.th = (t.oh + 1) / 2;
  t.tw = (t.ow + 1) / 2;
  t.tiles = t.th * t.tw;
  return t;
}

}  // namespace asc::ops
