// pad.cpp: Pad (opset 1's paddings attribute; from 11 the pads, value and, from 18, axes
// inputs, made attributes when constant) in every mode: constant, reflect, edge and, from
// opset 19, wrap (indices taken modulo the dim: the torus ONNX describes). Its kernel copies
// rows of any element size, so fp16 tensors pass through unconverted. CenterCropPad
// (crop_pad.cpp) runs on it too.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "ops/op_util.h"
#include "cpu/parallel.h"
#include "shape_kernel.h"
#include "shape_util.h"

namespace asc::ops {
namespace {

using namespace shape_detail;
using Bytes = uint8_t;
size_t elemSize(const TensorRef& t) { return ir::dtypeSize(t.dtype()); }

Status canonPad(InferContext& ctx) {
  ir::Attrs& a = ctx.attrs();
  if (a.has("paddings") && !a.has("pads")) {  // Pad-1
    a.set("pads", a.getInts("paddings"));
    a.erase("paddings");
  }
  if (ctx.opset() < 11 || ctx.numInputs() < 2) return Status::ok();
  if (ctx.hasInput(1)) ASC_RETURN_IF_ERROR(moveParam(ctx, 1, "pads"));
  if (ctx.hasInput(2)) {
    const ir::Value* cv = ctx.constInput(2);
    if (cv && cv->numel() == 0) {
      a.set("value", 0.0f);  // an empty constant_value means 0
    } else {
      ASC_RETURN_IF_ERROR(ctx.moveInputToFloat(2, "value"));
    }
  }
  if (ctx.hasInput(3)) {  // opset 18 axes: pads are given for these axes only
    const ir::Value* c = ctx.constInput(3);
    if (!c) return ctx.fail("axes (input 3) must be known at compile time (a constant)");
    const int64_t r = ctx.rank(0);
    ASC_TRY(std::vector<int64_t> axes, normalizeAxes(ctx, c->tensor().toInts(), r, false));
    std::vector<int64_t> p = a.getInts("pads"), full(2 * r, 0);
    if (p.size() != 2 * axes.size())
      return ctx.fail("pads [{}] must have 2 entries per axis of [{}]", ir::shapeToString(p),
                      ir::shapeToString(axes));
    for (size_t i = 0; i < axes.size(); ++i) {
      full[axes[i]] = p[i];
      full[r + axes[i]] = p[axes.size() + i];
    }
    a.set("pads", full);
  }
  ctx.truncateInputs(1);
  return Status::ok();
}

Status inferPad(InferContext& ctx) {
  const ir::Shape& x = ctx.shape(0);
  const int64_t r = ctx.rank(0);
  ir::Attrs& a = ctx.attrs();
  if (!a.has("pads")) return ctx.fail("pads are missing");
  std::vector<int64_t> pads = a.getInts("pads");
  if (static_cast<int64_t>(pads.size()) != 2 * r)
    return ctx.fail("pads [{}] has {} entries, expected 2 * rank = {}", ir::shapeToString(pads),
                    pads.size(), 2 * r);
  std::string mode = a.getString("mode", "constant");
  PadMode pm;
  if (!padModeOf(mode, &pm) || (pm == PadMode::Wrap && ctx.opset() < 19))
    return ctx.fail("mode '{}' is not one of Pad-{}'s: constant, reflect, edge{}", mode,
                    ctx.opset() < 19 ? 2 : 19, ctx.opset() < 19 ? "" : ", wrap");
  ir::Shape out(r);
  for (int64_t i = 0; i < r; ++i) {
    out[i] = x[i] + pads[i] + pads[r + i];
    if (out[i] < 0)
      return ctx.fail("pads [{}] remove more than dim {} of size {}", ir::shapeToString(pads), i,
                      x[i]);
    int64_t most = std::max(pads[i], pads[r + i]);
    if (mode == "reflect" && most > 0 && most >= x[i])
      return ctx.fail("reflect padding of {} needs dim {} larger than that, it is {}", most, i,
                      x[i]);
    if ((mode == "edge" || mode == "wrap") && most > 0 && x[i] == 0)
      return ctx.fail("{} padding of the empty dim {}", mode, i);
  }
  a.set("mode", mode);
  a.set("value", a.getFloat("value", 0.0f));
  ctx.setOutput(0, ctx.dtype(0), out);
  return Status::ok();
}

Eval evalPad(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const ir::Shape& x = in[0].shape;
  const int64_t r = static_cast<int64_t>(x.size());
  const std::vector<int64_t> pads = n.attrs.getInts("pads");
  PadMode mode = PadMode::Constant;
  padModeOf(n.attrs.getString("mode", "constant"), &mode);
  TensorBuilder fill(in[0].dtype, {1});
  fill.setFloat(0, n.attrs.getFloat("value", 0.0f));
  std::vector<int64_t> st = stridesOf(x);
  auto src = [&](const std::vector<int64_t>& idx) -> int64_t {
    int64_t off = 0;
    for (int64_t i = 0; i < r; ++i) {
      const int64_t s = padSource(idx[i] - pads[i], x[i], mode);
      if (s < 0) return -1;
      off += s * st[i];
    }
    return off;
  };
  return one(mapElements(in[0], n.outputs[0]->shape, src, fill.bytes.data()));
}

// PadD's paddings (constant mode) with the parameters constant; PadV3 keeps the others' mode.
CannSpelling padSpelling(const ir::Node& n) {
  CannSpelling c;
  const std::string mode = n.attrs.getString("mode", "constant");
  const std::vector<int64_t> pads = n.attrs.getInts("pads");
  if (mode != "constant") {
    c.attrs = {{"mode", mode}, {"paddings_contiguous", true}};
    return c;
  }
  c.type = "PadD";
  std::vector<std::vector<int64_t>> paddings;
  const size_t r = pads.size() / 2;
  for (size_t i = 0; i < r; ++i) paddings.push_back({pads[i], pads[i + r]});
  c.attrs = {{"paddings", paddings}};
  return c;
}

}  // namespace

bool padModeOf(const std::string& name, PadMode* mode) {
  static const std::pair<const char*, PadMode> kModes[] = {{"constant", PadMode::Constant},
                                                           {"reflect", PadMode::Reflect},
                                                           {"edge", PadMode::Edge},
                                                           {"wrap", PadMode::Wrap}};
  for (const auto& [n, m] : kModes)
    if (name == n) {
      *mode = m;
      return true;
    }
  return false;
}

Result<std::unique_ptr<Kernel>> createPadKernel(const KernelInit& k) {
  const ir::Shape& x = k.inputs[0].shape();
  const ir::Shape& y = k.outputs[0].shape();
  const auto pads = k.node.attrs.getInts("pads");
  PadMode mode = PadMode::Constant;
  padModeOf(k.node.attrs.getString("mode", "constant"), &mode);
  const int64_t r = static_cast<int64_t>(x.size());
  const size_t es = elemSize(k.inputs[0]);
  // The fill value in the tensor's own type.
  std::vector<Bytes> fill(es, 0);
  {
    TensorBuilder b(k.inputs[0].dtype(), {1});
    b.setFloat(0, k.node.attrs.getFloat("value", 0.f));
    std::memcpy(fill.data(), b.bytes.data(), es);
  }
  const Bytes* src = static_cast<const Bytes*>(k.inputs[0].data);
  Bytes* dst = static_cast<Bytes*>(k.outputs[0].data);
  const auto xs = stridesOf(x);
  const int64_t rows = y.empty() ? 1 : ir::numElements(y) / std::max<int64_t>(1, y.back());
  const int64_t inner = y.empty() ? 1 : y.back();
  if (ir::numElements(y) == 0) return fnKernel([] {}, "pad");
  auto srcIndex = [=](int64_t s, int64_t n) { return padSource(s, n, mode); };
  const bool nonneg = std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p >= 0; });
  if (nonneg && r >= 1) {
    // Rows of the last dim: find the source row once, then left pad, one memcpy, right pad.
    const int64_t lp = pads[r - 1], xin = x[r - 1];
    return fnKernel(
        [=] {
          cpu::parallelFor(rows, 16, [&](int64_t b, int64_t e) {
            for (int64_t row = b; row < e; ++row) {
              int64_t rem = row, off = 0;
              bool outside = false;
              for (int64_t d = r - 2; d >= 0; --d) {
                const int64_t s = srcIndex(rem % y[d] - pads[d], x[d]);
                rem /= y[d];
                if (s < 0)
                  outside = true;
                else
                  off += s * xs[d];
              }
              Bytes* d = dst + row * inner * es;
              if (outside) {
                for (int64_t j = 0; j < inner; ++j) std::memcpy(d + j * es, fill.data(), es);
                continue;
              }
              const Bytes* srow = src + off * es;
              for (int64_t j = 0; j < inner; ++j) {
                const int64_t sj = j - lp;
                if (sj >= 0 && sj < xin) {  // the middle run in one copy
                  const int64_t run = std::min(inner - j, xin - sj);
                  std::memcpy(d + j * es, srow + sj * es, static_cast<size_t>(run) * es);
                  j += run - 1;
                  continue;
                }
                const int64_t si = srcIndex(sj, xin);
                std::memcpy(d + j * es, si < 0 ? fill.data() : srow + si * es, es);
              }
            }
          });
        },
        "pad-rows");
  }
  return fnKernel(
      [=] {
        cpu::parallelFor(rows, 16, [&](int64_t b, int64_t e) {
          std::vector<int64_t> idx(r);
          for (int64_t row = b; row < e; ++row) {
            int64_t rem = row;
            for (int64_t d = r - 2; d >= 0; --d) {
              idx[d] = rem % y[d];
              rem /= y[d];
            }
            for (int64_t j = 0; j < inner; ++j) {
              if (r) idx[r - 1] = j;
              int64_t off = 0;
              bool outside = false;
              for (int64_t d = 0; d < r; ++d) {
                const int64_t s = srcIndex(idx[d] - pads[d], x[d]);
                if (s < 0) {
                  outside = true;
                  break;
                }
                off += s * xs[d];
              }
              Bytes* d = dst + (row * inner + j) * es;
              if (outside)
                std::memcpy(d, fill.data(), es);
              else
                std::memcpy(d, src + off * es, es);
            }
          }
        });
      },
      "pad");
}

const OpDef& defPad() {
  static const OpDef d =
      OpDef("Pad")
          .kernel(createPadKernel)
          .nativeDtypes()
          .onnx(2)  // the attribute is "paddings" before opset 2: that form is not read
          .cann("PadV3")
          .cannSpelling(padSpelling)
          .inputs(1, 4)
          .canonicalize(canonPad)
          .inferShape(inferPad)
          .evalConst(evalPad)
          .summary("pads (or crops) each dim; constant, reflect, edge or (Pad-19) wrap");
  return d;
}

}  // namespace asc::ops
