// shape_kernel.cpp: kernels that move bytes: copies, transposes, concat/split, slice, gather,
// broadcast (Expand, Tile), DepthToSpace (Cast is in cast.cpp, Pad in pad.cpp). They work on any
// element size, so fp16 tensors pass through unconverted. General index maps walk the output row by
// row (the last dim) with a per-row source offset, in parallel over rows.
#include "shape_kernel.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "ops/op_util.h"
#include "asc/ops/registry.h"
#include "asc/support/fp16.h"
#include "cpu/blocked.h"
#include "cpu/convert.h"
#include "ops/dnnl_util.h"
#include "cpu/parallel.h"

namespace asc::ops {

namespace {
struct FnKernel : Kernel {
  std::function<void()> fn;
  std::string name;
  FnKernel(std::function<void()> f, std::string n) : fn(std::move(f)), name(std::move(n)) {}
  void run() override { fn(); }
  std::string implName() const override { return name; }
};
}  // namespace

std::unique_ptr<Kernel> fnKernel(std::function<void()> f, std::string name) {
  return std::make_unique<FnKernel>(std::move(f), std::move(name));
}

namespace {

using Bytes = uint8_t;

void copyElems(Bytes* dst, const Bytes* src, int64_t n, int64_t src_stride, size_t es) {
  if (src_stride == 1) {
    std::memcpy(dst, src, static_cast<size_t>(n) * es);
    return;
  }
  switch (es) {
    case 4: {
      auto* d = reinterpret_cast<uint32_t*>(dst);
      auto* s = reinterpret_cast<const uint32_t*>(src);
      for (int64_t j = 0; j < n; ++j) d[j] = s[j * src_stride];
      break;
    }
    case 8: {
      auto* d = reinterpret_cast<uint64_t*>(dst);
      auto* s = reinterpret_cast<const uint64_t*>(src);
      for (int64_t j = 0; j < n; ++j) d[j] = s[j * src_stride];
      break;
    }
    case 2: {
      auto* d = reinterpret_cast<uint16_t*>(dst);
      auto* s = reinterpret_cast<const uint16_t*>(src);
      for (int64_t j = 0; j < n; ++j) d[j] = s[j * src_stride];
      break;
    }
    default:
      for (int64_t j = 0; j < n; ++j) std::memcpy(dst + j * es, src + j * src_stride * es, es);
  }
}

// out[idx] = in[sum(idx[d] * stride[d]) + base] for an output shape; strides may be 0 or
// negative (as element counts). The workhorse of transpose, slice, expand and tile.
class StridedCopy : public Kernel {
  static constexpr int64_t kPiece = 8192;

 public:
  StridedCopy(const void* in, void* out, ir::Shape out_shape, std::vector<int64_t> strides,
              int64_t base, size_t es, std::string name)
      : in_(static_cast<const Bytes*>(in)),
        out_(static_cast<Bytes*>(out)),
        shape_(std::move(out_shape)),
        strides_(std::move(strides)),
        base_(base),
        es_(es),
        name_(std::move(name)) {
    if (shape_.empty()) {
      shape_ = {1};
      strides_ = {0};
    }
    // Dims that walk the input contiguously with the next one merge into it (a channel slice
    // of [1, C, H, W] is one run of C'HW elements, not C'H rows of W).
    for (size_t d = shape_.size() - 1; d-- > 0;) {
      if (shape_[d] != 1 && strides_[d] != strides_[d + 1] * shape_[d + 1]) continue;
      shape_[d + 1] *= shape_[d];
      shape_.erase(shape_.begin() + static_cast<std::ptrdiff_t>(d));
      strides_.erase(strides_.begin() + static_cast<std::ptrdiff_t>(d));
    }
    // A long contiguous run is cut in equal pieces of at least 8K elements (a power of two of
    // them that divides it), so the threads share it.
    const int64_t run = shape_.back();
    int64_t pieces = 1;
    while (strides_.back() == 1 && run / (pieces * 2) >= kPiece && run % (pieces * 2) == 0)
      pieces *= 2;
    if (pieces > 1) {
      shape_.back() = pieces;
      shape_.push_back(run / pieces);
      strides_.back() = run / pieces;
      strides_.push_back(1);
    }
    inner_ = shape_.back();
    rows_ = inner_ ? ir::numElements(shape_) / inner_ : 0;
    // A transpose of 4-byte elements whose output rows gather (input stride != 1) while another
    // dim reads contiguously (attention's K^T, NCHW <-> NHWC): 8 x 8 tiles through registers,
    // so both sides move whole cache lines rather than one element per line read.
    if (es_ == 4 && strides_.back() > 1 && inner_ >= 8)
      for (size_t d = 0; d + 1 < shape_.size(); ++d)
        if (strides_[d] == 1 && shape_[d] >= 8) tile_dim_ = static_cast<int>(d);
  }
  void run() override {
    if (tile_dim_ >= 0) return runTiled();
    const size_t r = shape_.size();
    cpu::parallelFor(rows_, std::max<int64_t>(1, 4096 / std::max<int64_t>(1, inner_)),
                     [&](int64_t b, int64_t e) {
                       for (int64_t row = b; row < e; ++row) {
                         int64_t rem = row, off = base_;
                         for (int64_t d = static_cast<int64_t>(r) - 2; d >= 0; --d) {
                           off += (rem % shape_[d]) * strides_[d];
                           rem /= shape_[d];
                         }
                         copyElems(out_ + row * inner_ * es_, in_ + off * static_cast<int64_t>(es_),
                                   inner_, strides_.back(), es_);
                       }
                     });
  }
  std::string implName() const override { return tile_dim_ >= 0 ? name_ + ":tiled" : name_; }

 private:
  // Each task: one index of the dims other than tile_dim_ and the last, and 8 of tile_dim_'s
  // (an 8-row band of the output's [tile_dim_, last] plane), tiled along the last dim.
  void runTiled() {
    const int64_t r = static_cast<int64_t>(shape_.size()), u = tile_dim_;
    std::vector<int64_t> ostride(shape_.size(), 1);
    for (int64_t d = r - 2; d >= 0; --d) ostride[d] = ostride[d + 1] * shape_[d + 1];
    const int64_t bands = (shape_[u] + 7) / 8, outer = rows_ / shape_[u];
    const int64_t ld = strides_.back(), n = inner_, full = n / 8 * 8;
    const float* in = reinterpret_cast<const float*>(in_);
    float* out = reinterpret_cast<float*>(out_);
    cpu::parallelFor(outer * bands, std::max<int64_t>(1, 512 / n), [&](int64_t b, int64_t e) {
      for (int64_t task = b; task < e; ++task) {
        int64_t rem = task / bands, ioff = base_, ooff = 0;
        for (int64_t d = r - 2; d >= 0; --d) {
          if (d == u) continue;
          ioff += (rem % shape_[d]) * strides_[d];
          ooff += (rem % shape_[d]) * ostride[d];
          rem /= shape_[d];
        }
        const int64_t u0 = task % bands * 8, uc = std::min<int64_t>(8, shape_[u] - u0);
        const float* src = in + ioff + u0;  // src[l * ld + i]: output row u0 + i, column l
        float* dst = out + ooff + u0 * ostride[u];
        const int64_t dld = ostride[u];
        if (uc == 8)
          for (int64_t l = 0; l < full; l += 8) cpu::transposeTile8(src + l * ld, ld, dst + l, dld);
        for (int64_t i = 0; i < uc; ++i)
          for (int64_t l = uc == 8 ? full : 0; l < n; ++l) dst[i * dld + l] = src[l * ld + i];
      }
    });
  }

  const Bytes* in_;
  Bytes* out_;
  ir::Shape shape_;
  std::vector<int64_t> strides_;
  int64_t base_;
  size_t es_;
  int64_t inner_ = 1, rows_ = 0;
  int tile_dim_ = -1;  // the dim read contiguously when the 8 x 8 tiled path serves
  std::string name_;
};

size_t elemSize(const TensorRef& t) { return ir::dtypeSize(t.dtype()); }

}  // namespace

Result<std::unique_ptr<Kernel>> createCopyKernel(const KernelInit& k) {
  const void* src = k.inputs[0].data;
  void* dst = k.outputs[0].data;
  size_t n = k.outputs[0].bytes;
  auto kern = fnKernel(
      [=] {
        if (src != dst) std::memcpy(dst, src, n);
      },
      "copy");
  // Dropout's optional mask output: all true (inference keeps every element).
  if (k.outputs.size() > 1) {
    void* mask = k.outputs[1].data;
    size_t mb = k.outputs[1].bytes;
    const bool is_bool = k.outputs[1].dtype() == ir::DType::Bool;
    return fnKernel(
        [=] {
          if (src != dst) std::memcpy(dst, src, n);
          if (is_bool)
            std::memset(mask, 1, mb);
          else
            std::memcpy(mask, src, mb);  // pre-opset-10 mask has the input's type
        },
        "copy");
  }
  return kern;
}

Result<std::unique_ptr<Kernel>> createTransposeKernel(const KernelInit& k) {
  const ir::Shape& in = k.inputs[0].shape();
  auto perm = k.node.attrs.getInts("perm");
  auto st = stridesOf(in);
  std::vector<int64_t> strides;
  for (auto p : perm) strides.push_back(st[p]);
  return std::unique_ptr<Kernel>(std::make_unique<StridedCopy>(k.inputs[0].data, k.outputs[0].data,
                                                               k.outputs[0].shape(), strides, 0,
                                                               elemSize(k.inputs[0]), "transpose"));
}

Result<std::unique_ptr<Kernel>> createSliceKernel(const KernelInit& k) {
  const ir::Shape& in = k.inputs[0].shape();
  auto starts = k.node.attrs.getInts("starts"), axes = k.node.attrs.getInts("axes"),
       steps = k.node.attrs.getInts("steps");
  const bool channels_last = k.outputs[0].layout == Layout::Blocked;
  // Where each logical dim steps in memory: row-major, or channels-last (N, spatial..., C).
  std::vector<int64_t> st = stridesOf(in);
  if (channels_last) {
    int64_t s = in[1];
    st[1] = 1;
    for (size_t d = in.size() - 1; d >= 2; --d) {
      st[d] = s;
      s *= in[d];
    }
    st[0] = s;
  }
  std::vector<int64_t> strides = st;
  int64_t base = 0;
  for (size_t i = 0; i < axes.size(); ++i) {
    base += starts[i] * st[axes[i]];
    strides[axes[i]] = st[axes[i]] * steps[i];
  }
  if (k.outputs[0].numel() == 0) return fnKernel([] {}, "slice");
  ir::Shape view = k.outputs[0].shape();
  if (channels_last) {  // walk the output in its memory order: channels innermost
    ir::Shape v = {view[0]};
    std::vector<int64_t> s = {strides[0]};
    for (size_t d = 2; d < view.size(); ++d) {
      v.push_back(view[d]);
      s.push_back(strides[d]);
    }
    v.push_back(view[1]);
    s.push_back(strides[1]);
    view = std::move(v);
    strides = std::move(s);
  }
  return std::unique_ptr<Kernel>(std::make_unique<StridedCopy>(
      k.inputs[0].data, k.outputs[0].data, view, strides, base, elemSize(k.inputs[0]), "slice"));
}

Layout sliceLayout(const ir::Node& n, const std::vector<Layout>& in) {
  // Channels-last tensors are sliced where they are (any axes and steps); nChw8c ones go plain.
  return !in.empty() && in[0] == Layout::Blocked && channelsLast() && !n.outputs.empty() &&
                 canBlock(*n.outputs[0])
             ? Layout::Blocked
             : Layout::Plain;
}

Result<std::unique_ptr<Kernel>> createExpandKernel(const KernelInit& k) {
  const ir::Shape& in = k.inputs[0].shape();
  const ir::Shape& out = k.outputs[0].shape();
  auto st = stridesOf(in);
  std::vector<int64_t> strides(out.size(), 0);
  for (size_t i = 0; i < in.size(); ++i) {
    size_t o = out.size() - in.size() + i;
    strides[o] = in[i] == 1 ? 0 : st[i];
  }
  if (k.outputs[0].numel() == 0) return fnKernel([] {}, "expand");
  return std::unique_ptr<Kernel>(std::make_unique<StridedCopy>(
      k.inputs[0].data, k.outputs[0].data, out, strides, 0, elemSize(k.inputs[0]), "expand"));
}

Result<std::unique_ptr<Kernel>> createTileKernel(const KernelInit& k) {
  // out[i] = in[i mod d]: view the output as [repeats_0, d_0, repeats_1, d_1, ...].
  const ir::Shape& in = k.inputs[0].shape();
  auto reps = k.node.attrs.getInts("repeats");
  auto st = stridesOf(in);
  ir::Shape view;
  std::vector<int64_t> strides;
  for (size_t i = 0; i < in.size(); ++i) {
    view.push_back(reps[i]);
    strides.push_back(0);
    view.push_back(in[i]);
    strides.push_back(st[i]);
  }
  if (k.outputs[0].numel() == 0) return fnKernel([] {}, "tile");
  return std::unique_ptr<Kernel>(std::make_unique<StridedCopy>(
      k.inputs[0].data, k.outputs[0].data, view, strides, 0, elemSize(k.inputs[0]), "tile"));
}

Result<std::unique_ptr<Kernel>> createDepthToSpaceKernel(const KernelInit& k) {
  const ir::Shape& x = k.inputs[0].shape();
  const int64_t b = k.node.attrs.getInt("blocksize", 1);
  const bool crd = k.node.attrs.getString("mode", "DCR") == "CRD";
  const int64_t N = x[0], C = x[1], H = x[2], W = x[3], c = C / (b * b);
  // View the input as 6-D and permute into [N, c, H, b, W, b].
  ir::Shape v = crd ? ir::Shape{N, c, b, b, H, W} : ir::Shape{N, b, b, c, H, W};
  auto st = stridesOf(v);
  std::vector<int64_t> perm =
      crd ? std::vector<int64_t>{0, 1, 4, 2, 5, 3} : std::vector<int64_t>{0, 3, 4, 1, 5, 2};
  ir::Shape out_view;
  std::vector<int64_t> strides;
  for (auto p : perm) {
    out_view.push_back(v[p]);
    strides.push_back(st[p]);
  }
  return std::unique_ptr<Kernel>(
      std::make_unique<StridedCopy>(k.inputs[0].data, k.outputs[0].data, out_view, strides, 0,
                                    elemSize(k.inputs[0]), "depth_to_space"));
}

// ShuffleChannel: output channel i * g + j is input channel j * (C / g) + i. Plain tensors move
// whole planes; channels-last ones permute the channels of each pixel.
Result<std::unique_ptr<Kernel>> createShuffleChannelKernel(const KernelInit& k) {
  const ir::Shape& x = k.inputs[0].shape();
  const int64_t g = k.node.attrs.getInt("group", 1);
  if (x.size() < 2 || g < 1 || x[1] % g != 0)
    return Status::error(ErrorCode::InvalidModel,
                         "node '{}' (ShuffleChannel): group {} does not divide the {} channels",
                         k.node.name, g, x.size() < 2 ? 0 : x[1]);
  const int64_t N = x[0], C = x[1], per = C / g;
  int64_t hw = 1;
  for (size_t d = 2; d < x.size(); ++d) hw *= x[d];
  ir::Shape view;
  std::vector<int64_t> strides;
  if (k.outputs[0].layout == Layout::Blocked) {  // channels-last: each pixel's C channels
    const size_t es = elemSize(k.inputs[0]);
    const auto* src = static_cast<const uint8_t*>(k.inputs[0].data);
    auto* dst = static_cast<uint8_t*>(k.outputs[0].data);
    const int64_t pixels = N * hw;
    return fnKernel(
        [=] {
          cpu::parallelFor(pixels, 64, [&](int64_t b, int64_t e) {
            for (int64_t p = b; p < e; ++p) {
              const uint8_t* in = src + p * C * es;
              uint8_t* out = dst + p * C * es;
              if (es == 4) {
                const auto* fi = reinterpret_cast<const uint32_t*>(in);
                auto* fo = reinterpret_cast<uint32_t*>(out);
                for (int64_t i = 0; i < per; ++i)
                  for (int64_t j = 0; j < g; ++j) fo[i * g + j] = fi[j * per + i];
              } else {
                for (int64_t i = 0; i < per; ++i)
                  for (int64_t j = 0; j < g; ++j)
                    std::memcpy(out + (i * g + j) * es, in + (j * per + i) * es, es);
              }
            }
          });
        },
        "shuffle_channel");
  } else {
    view = {N, per, g, hw};
    strides = {C * hw, hw, per * hw, 1};
  }
  return std::unique_ptr<Kernel>(
      std::make_unique<StridedCopy>(k.inputs[0].data, k.outputs[0].data, view, strides, 0,
                                    elemSize(k.inputs[0]), "shuffle_channel"));
}

Layout shuffleChannelLayout(const ir::Node&, const std::vector<Layout>& in) {
  return !in.empty() && in[0] == Layout::Blocked && channelsLast() ? Layout::Blocked
                                                                   : Layout::Plain;
}

Result<std::unique_ptr<Kernel>> createSpaceToDepthKernel(const KernelInit& k) {
  const ir::Shape& x = k.inputs[0].shape();
  const int64_t b = k.node.attrs.getInt("blocksize", 1);
  const int64_t N = x[0], C = x[1], h = x[2] / b, w = x[3] / b;
  // View the input as [N, C, h, b, w, b] and permute into [N, b, b, C, h, w].
  const ir::Shape v = {N, C, h, b, w, b};
  auto st = stridesOf(v);
  const std::vector<int64_t> perm = {0, 3, 5, 1, 2, 4};
  ir::Shape out_view;
  std::vector<int64_t> strides;
  for (auto p : perm) {
    out_view.push_back(v[p]);
    strides.push_back(st[p]);
  }
  return std::unique_ptr<Kernel>(
      std::make_unique<StridedCopy>(k.inputs[0].data, k.outputs[0].data, out_view, strides, 0,
                                    elemSize(k.inputs[0]), "space_to_depth"));
}

// nChw8c tensors along channels: oneDNN's concat.
class DnnlConcat : public cpu::PrimitiveKernel {
 public:
  using PrimitiveKernel::PrimitiveKernel;
  Status init(const KernelInit& k) {
    try {
      std::vector<dnnl::memory::desc> mds;
      std::unordered_map<int, dnnl::memory> args;
      for (size_t i = 0; i < k.inputs.size(); ++i) {
        auto m = cpu::memOf(k.inputs[i], env_.engine);
        mds.push_back(m.get_desc());
        args[DNNL_ARG_MULTIPLE_SRC + int(i)] = m;
      }
      auto dst = cpu::memOf(k.outputs[0], env_.engine);
      args[DNNL_ARG_DST] = dst;
      dnnl::concat::primitive_desc pd(dst.get_desc(), 1, mds, env_.engine);
      set(dnnl::concat(pd), pd, std::move(args));
    } catch (const dnnl::error& e) {
      return cpu::dnnlError(k.node, e);
    }
    return Status::ok();
  }
};

Result<std::unique_ptr<Kernel>> createConcatKernel(const KernelInit& k) {
  Bytes* dst = static_cast<Bytes*>(k.outputs[0].data);
  size_t total = 0;
  for (const auto& in : k.inputs) total += in.data ? in.bytes : 0;
  if (concatJoins(k.node, k.outputs[0].layout) && total == k.outputs[0].bytes) {
    // One run of each input, one after another. The runtime may have placed an input's buffer
    // at its place in the output (its producer wrote it there): nothing to copy for that one.
    struct Run {
      const Bytes* src;
      size_t at, bytes;
    };
    std::vector<Run> runs;
    size_t at = 0, copied = 0;
    for (const auto& in : k.inputs) {
      if (!in.data) continue;
      const auto* src = static_cast<const Bytes*>(in.data);
      if (src != dst + at) {
        runs.push_back({src, at, in.bytes});
        copied += in.bytes;
      }
      at += in.bytes;
    }
    if (runs.empty()) return fnKernel([] {}, "in_place");
    // Copied in 64 KiB pieces spread over the threads.
    constexpr size_t kPiece = size_t(1) << 16;
    std::vector<std::pair<size_t, size_t>> pieces;  // (run, offset in it)
    for (size_t r = 0; r < runs.size(); ++r)
      for (size_t o = 0; o < runs[r].bytes; o += kPiece) pieces.push_back({r, o});
    const bool partly = runs.size() < k.inputs.size();
    return fnKernel(
        [=] {
          cpu::parallelFor(static_cast<int64_t>(pieces.size()), copied > (1 << 18) ? 1 : 1 << 30,
                           [&](int64_t b, int64_t e) {
                             for (int64_t p = b; p < e; ++p) {
                               const Run& r = runs[pieces[p].first];
                               const size_t o = pieces[p].second;
                               std::memcpy(dst + r.at + o, r.src + o,
                                           std::min(kPiece, r.bytes - o));
                             }
                           });
        },
        partly ? "concat:partly_in_place" : "concat");
  }
  if (k.outputs[0].layout == Layout::Blocked && !channelsLast()) {
    auto c = std::make_unique<DnnlConcat>(k.env);
    ASC_RETURN_IF_ERROR(c->init(k));
    return std::unique_ptr<Kernel>(std::move(c));
  }
  // Per outer index each input contributes one contiguous chunk (plain layout; or channels-last
  // along channels, where the outer index is the pixel).
  const ir::Shape& out = k.outputs[0].shape();
  const int64_t axis = k.node.attrs.getInt("axis", 0);
  int64_t outer = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= out[i];
  // Channels-last along channels: every pixel holds one run of each input's channels.
  if (k.outputs[0].layout == Layout::Blocked) outer = out[1] ? k.outputs[0].numel() / out[1] : 0;
  std::vector<std::pair<const Bytes*, size_t>> chunks;
  for (const auto& in : k.inputs)
    if (in.data)
      chunks.push_back({static_cast<const Bytes*>(in.data), outer ? in.bytes / outer : 0});
  size_t row = outer ? k.outputs[0].bytes / outer : 0;
  return fnKernel(
      [=] {
        cpu::parallelFor(outer, 64, [&](int64_t b, int64_t e) {
          for (int64_t o = b; o < e; ++o) {
            size_t col = 0;
            for (const auto& [p, n] : chunks) {
              std::memcpy(dst + o * row + col, p + o * n, n);
              col += n;
            }
          }
        });
      },
      "concat");
}

Result<std::unique_ptr<Kernel>> createSplitKernel(const KernelInit& k) {
  const ir::Shape& in = k.inputs[0].shape();
  const int64_t axis = k.node.attrs.getInt("axis", 0);
  int64_t outer = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= in[i];
  std::vector<std::pair<Bytes*, size_t>> chunks;
  for (const auto& o : k.outputs)
    chunks.push_back({static_cast<Bytes*>(o.data), outer ? o.bytes / outer : 0});
  const Bytes* src = static_cast<const Bytes*>(k.inputs[0].data);
  size_t row = outer ? k.inputs[0].bytes / outer : 0;
  return fnKernel(
      [=] {
        for (int64_t o = 0; o < outer; ++o) {
          size_t col = 0;
          for (const auto& [p, n] : chunks) {
            std::memcpy(p + o * n, src + o * row + col, n);
            col += n;
          }
        }
      },
      "split");
}

Result<std::unique_ptr<Kernel>> createGatherKernel(const KernelInit& k) {
  const ir::Shape& x = k.inputs[0].shape();
  const int64_t axis = k.node.attrs.getInt("axis", 0);
  const int64_t n_idx = k.inputs[1].numel();
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= x[i];
  for (size_t i = axis + 1; i < x.size(); ++i) inner *= x[i];
  const int64_t dim = x[axis];
  const size_t es = elemSize(k.inputs[0]);
  const Bytes* src = static_cast<const Bytes*>(k.inputs[0].data);
  Bytes* dst = static_cast<Bytes*>(k.outputs[0].data);
  const void* idx = k.inputs[1].data;
  const bool i64 = k.inputs[1].dtype() == ir::DType::I64;
  const size_t chunk = static_cast<size_t>(inner) * es;
  return fnKernel(
      [=] {
        cpu::parallelFor(outer * n_idx, 64, [&](int64_t b, int64_t e) {
          for (int64_t t = b; t < e; ++t) {
            const int64_t o = t / n_idx, j = t % n_idx;
            int64_t v =
                i64 ? static_cast<const int64_t*>(idx)[j] : static_cast<const int32_t*>(idx)[j];
            if (v < 0) v += dim;
            Bytes* d = dst + t * chunk;
            if (v < 0 || v >= dim)
              std::memset(d, 0, chunk);  // out of range: zeros, never OOB
            else
              std::memcpy(d, src + (o * dim + v) * chunk, chunk);
          }
        });
      },
      "gather");
}

Result<std::unique_ptr<Kernel>> createConstKernel(const KernelInit& k) {
  // Outputs that depend only on attributes and shapes (normally folded at compile time, e.g.
  // when folding was off): evaluate once now and copy the bytes at run time.
  const OpDef* d = lookup(k.node.op_type);
  if (!d || !d->evalFn())
    return Status::error(ErrorCode::Internal, "node '{}' ({}) has no constant evaluation",
                         k.node.name, k.node.op_type);
  std::vector<ir::Tensor> ins;
  for (const auto& in : k.inputs)
    ins.push_back(in.value ? (in.value->isConstant()
                                  ? in.value->tensor()
                                  : ir::Tensor{in.value->dtype, in.value->shape, nullptr})
                           : ir::Tensor{});
  ASC_TRY(std::vector<ir::Tensor> outs, d->evalFn()(k.node, ins));
  std::vector<std::pair<ir::Tensor, void*>> copies;
  for (size_t i = 0; i < outs.size() && i < k.outputs.size(); ++i)
    copies.push_back({outs[i], k.outputs[i].data});
  return fnKernel(
      [copies] {
        for (const auto& [t, dst] : copies) std::memcpy(dst, t.data->data(), t.data->size());
      },
      "constant");
}

bool concatJoins(const ir::Node& n, Layout out) {
  if (n.outputs.empty() || !n.outputs[0]) return false;
  const ir::Shape& shape = n.outputs[0]->shape;
  const int64_t axis = n.attrs.getInt("axis", 0);
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size())) return false;
  if (out == Layout::Blocked && (channelsLast() || axis != 1)) return false;
  for (int64_t d = 0; d < axis; ++d)
    if (shape[d] != 1) return false;
  return true;
}

Layout concatLayout(const ir::Node& n, const std::vector<Layout>& in) {
  if (n.attrs.getInt("axis", 0) != 1) return Layout::Plain;
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    const ir::Value* v = n.inputs[i];
    // nChw8c concat is fast only when every input fills whole channel blocks.
    if (!v || v->isConstant() || in[i] != Layout::Blocked || v->shape[1] % blockSize() != 0 ||
        v->dtype != ir::DType::F32)
      return Layout::Plain;
  }
  return Layout::Blocked;
}

}  // namespace asc::ops
