// avx2_conv.cpp: see avx2_conv.h.
#include "ops/conv/avx2_conv.h"

#include <string>

#include "cpu/features.h"

namespace asc::ops {

bool avx2BlockedConv(const KernelInit& k) {
  static const bool cpu_ok = cpu::hasAvx2Fma();
  const ir::Node& n = k.node;
  if (!cpu_ok || n.op_type != "Conv" || channelsLast() || blockSize() != 8 || k.inputs.size() < 2 ||
      k.outputs.size() != 1)
    return false;
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
  const int64_t c = x.shape()[1], kk = y.shape()[1];
  return c % 8 == 0 && kk % 16 == 0 && ws[0] == kk && ws[1] == c;
}

}  // namespace asc::ops
