// caffe_importer.cpp: caffe.NetParameter -> ir::Graph. Layers are converted in file order; each
// becomes one or a few IR nodes (ONNX op names) named after the layer, with the layer name in
// original_names, and is shape-inferred at once so that the next layer's parameters (Reshape,
// Crop, InnerProduct's axis, Caffe's pooling rounding) can be resolved against real shapes. Blob
// names are Caffe's "tops": an in-place layer (top == bottom) gives the blob a new value, so each
// bottom reads the latest one. Weights come from the caffemodel by layer name (or from blobs
// written in the prototxt); their counts and sizes are checked against the layer.
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "asc/frontend/caffe.h"
#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "caffe_model.h"

namespace asc::frontend {
namespace {

using caffe_import::inTestPhase;

Status invalid(const caffe::LayerParameter& l, const std::string& msg) {
  return Status::error(ErrorCode::InvalidModel, "Caffe layer '{}' ({}): {}", l.name(), l.type(),
                       msg);
}
Status unsupported(const caffe::LayerParameter& l, const std::string& msg) {
  return Status::error(ErrorCode::NotImplemented,
                       "The operation is not supported. Reason: Caffe layer '{}' ({}): {}",
                       l.name(), l.type(), msg);
}

class Converter {
 public:
  Converter(const caffe::NetParameter& net, const CaffeImportOptions& opts)
      : net_(net), opts_(opts) {
    g_.opset = 13;  // the IR ops' semantics (Softmax over one axis, ReduceX axes attributes)
    g_.name = net.name().empty() ? "caffe" : net.name();
  }

  Status addWeights(const caffe::NetParameter& model, const std::string& source) {
    source_ = source;
    for (const auto& l : model.layer())
      if (l.blobs_size() && !weights_.emplace(l.name(), &l.blobs()).second)
        ASC_LOG_WARN("{}: layer '{}' has blobs twice; the first are used", source, l.name());
    return Status::ok();
  }

  Result<ir::Graph> run();

 private:
  // ---- values and nodes ----
  Result<ir::Value*> bottom(const caffe::LayerParameter& l, int i) {
    if (i >= l.bottom_size())
      return invalid(l, fmt::format("needs bottom {}, it has {}", i, l.bottom_size()));
    auto it = blobs_.find(l.bottom(i));
    if (it == blobs_.end())
      return invalid(
          l, fmt::format("bottom '{}' is produced by no earlier layer or input", l.bottom(i)));
    consumed_.insert(it->second);
    return it->second;
  }
  // The value a top blob gets (the blob name for a new blob; a layer-named one when in place).
  ir::Value* top(const caffe::LayerParameter& l, int i) {
    const std::string& name = l.top(i);
    ir::Value* v = g_.addValue(blobs_.count(name) ? l.name() : name);
    blobs_[name] = v;
    produced_.push_back(v);
    return v;
  }
  ir::Value* temp(const std::string& base) { return g_.addValue(base); }
  ir::Value* constant(const std::string& name, ir::Shape shape, const std::vector<float>& data) {
    std::vector<uint8_t> bytes(data.size() * sizeof(float));
    if (!data.empty()) std::memcpy(bytes.data(), data.data(), bytes.size());
    ir::Tensor t{ir::DType::F32, std::move(shape), ir::Blob::fromVector(std::move(bytes))};
    return g_.addConstant(name, t);
  }
  Result<ir::Node*> node(const caffe::LayerParameter& l, const std::string& op,
                         std::vector<ir::Value*> ins, std::vector<ir::Value*> outs,
                         ir::Attrs attrs = {}) {
    // The op writing the layer's top carries the layer's name; helpers are "<layer>/<op>".
    const bool writes_top = std::any_of(outs.begin(), outs.end(), [&](const ir::Value* v) {
      return std::find(produced_.begin(), produced_.end(), v) != produced_.end();
    });
    const std::string base = l.name().empty() ? op : l.name();
    const std::string name = g_.uniqueNodeName(writes_top ? base : base + "/" + op);
    ir::Node* n = g_.addNode(op, name, std::move(ins), std::move(outs));
    n->attrs = std::move(attrs);
    // Dumps of the layer's top compare with the Caffe layer's output; a helper's output is no
    // Caffe blob, so it names only itself (a fusion with the main op keeps the layer's name last).
    n->original_names = {writes_top ? l.name() : name};
    const ops::OpDef* d = ops::lookup(op);
    if (!d) return Status::error(ErrorCode::Internal, "IR op '{}' is not registered", op);
    ops::InferContext ctx(g_, *n);
    Status st = d->canonicalizeFn() ? d->canonicalizeFn()(ctx) : Status::ok();
    if (st.isOk()) st = d->inferFn()(ctx);
    if (!st.isOk())
      return Status::error(st.code(), "Caffe layer '{}' ({}): {}", l.name(), l.type(),
                           st.message());
    for (const ir::Value* out : n->outputs) {
      uint64_t bytes;
      if (!ir::checkedByteSize(out->shape, out->dtype, &bytes))
        return invalid(l, fmt::format("its output '{}': {}", out->name,
                                      ir::shapeLimitReason(out->shape, out->dtype)));
    }
    return n;
  }
  // A one-input, one-output op on bottom 0 into top 0.
  Status unary(const caffe::LayerParameter& l, const std::string& op, ir::Attrs a = {}) {
    ASC_TRY(ir::Value * x, bottom(l, 0));
    ASC_TRY(ir::Node * n, node(l, op, {x}, {top(l, 0)}, std::move(a)));
    (void)n;
    return Status::ok();
  }

  // A one-input, one-output op on `x` into top 0.
  Status unaryOn(const caffe::LayerParameter& l, ir::Value* x, const std::string& op, ir::Attrs a) {
    ASC_TRY(ir::Node * n, node(l, op, {x}, {top(l, 0)}, std::move(a)));
    (void)n;
    return Status::ok();
  }

  // ---- weights ----
  // The layer's blobs: from the caffemodel by name, else from the prototxt. Exactly `want` of
  // them (a range [lo, hi] when optional ones exist).
  Result<std::vector<const caffe::BlobProto*>> layerBlobs(const caffe::LayerParameter& l, int lo,
                                                          int hi) {
    const google::protobuf::RepeatedPtrField<caffe::BlobProto>* src = nullptr;
    if (auto it = weights_.find(l.name()); it != weights_.end())
      src = it->second;
    else if (l.blobs_size())
      src = &l.blobs();
    const int have = src ? src->size() : 0;
    if (have == 0 && lo > 0)
      return invalid(l, fmt::format("has no weights in {}: the caffemodel has no layer of this "
                                    "name with blobs; give the caffemodel trained for this "
                                    "prototxt",
                                    source_));
    if (have < lo || have > hi)
      return invalid(
          l, fmt::format("has {} weight blobs in {}, the layer takes {}", have, source_,
                         lo == hi ? fmt::format("{}", lo) : fmt::format("{} to {}", lo, hi)));
    std::vector<const caffe::BlobProto*> out;
    for (int i = 0; i < have; ++i) out.push_back(&src->Get(i));
    return out;
  }
  // A blob's values with the shape `want` (its own shape must hold the same count).
  Result<ir::Value*> weight(const caffe::LayerParameter& l, const caffe::BlobProto& b, int index,
                            const ir::Shape& want) {
    ir::Shape own;
    if (b.has_shape()) {
      if (b.shape().dim_size() > static_cast<int>(ir::kMaxRank))
        return invalid(l, fmt::format("weight blob {} has {} dims", index, b.shape().dim_size()));
      for (auto d : b.shape().dim()) own.push_back(d);
    } else {
      own = {b.num(), b.channels(), b.height(), b.width()};
      // The old 4-D form pads with 1s in front; 0s mean "unset".
      for (auto& d : own)
        if (d == 0) d = 1;
    }
    for (auto d : own)
      if (d < 0) return invalid(l, fmt::format("weight blob {} has a negative dim", index));
    uint64_t bytes;
    if (!ir::checkedByteSize(own, ir::DType::F32, &bytes))
      return invalid(
          l, fmt::format("weight blob {}: {}", index, ir::shapeLimitReason(own, ir::DType::F32)));
    if (!ir::checkedByteSize(want, ir::DType::F32, &bytes))
      return invalid(
          l, fmt::format("its weight blob {} would be [{}]: {}", index, ir::shapeToString(want),
                         ir::shapeLimitReason(want, ir::DType::F32)));
    const int64_t n = ir::numElements(want);
    if (ir::numElements(own) != n)
      return invalid(l, fmt::format("weight blob {} has shape [{}] ({} values), the layer needs "
                                    "[{}] ({} values); the caffemodel does not match the prototxt",
                                    index, ir::shapeToString(own), ir::numElements(own),
                                    ir::shapeToString(want), n));
    std::vector<float> data(static_cast<size_t>(n));
    if (b.data_size() == n) {
      std::copy(b.data().begin(), b.data().end(), data.begin());
    } else if (b.double_data_size() == n) {
      for (int64_t i = 0; i < n; ++i)
        data[i] = static_cast<float>(b.double_data(static_cast<int>(i)));
    } else {
      return invalid(l, fmt::format("weight blob {} declares {} values but holds {}", index, n,
                                    std::max(b.data_size(), b.double_data_size())));
    }
    return constant(fmt::format("{}/blob{}", l.name(), index), want, data);
  }
  static std::vector<float> blobFloats(const ir::Value* v) {
    const float* p = v->data->as<float>();
    return std::vector<float>(p, p + v->numel());
  }

  // ---- layers ----
  Status input(const caffe::LayerParameter& l);
  Status addInput(const std::string& name, ir::Shape shape);
  Status convolution(const caffe::LayerParameter& l, bool deconv);
  Status pooling(const caffe::LayerParameter& l);
  Status innerProduct(const caffe::LayerParameter& l);
  Status batchNorm(const caffe::LayerParameter& l);
  Status scale(const caffe::LayerParameter& l, bool bias_only);
  Status eltwise(const caffe::LayerParameter& l);
  Status reshape(const caffe::LayerParameter& l);
  Status flatten(const caffe::LayerParameter& l);
  Status slice(const caffe::LayerParameter& l);
  Status crop(const caffe::LayerParameter& l);
  Status argmax(const caffe::LayerParameter& l);
  Status power(const caffe::LayerParameter& l, float power, float scale, float shift);
  Status expLog(const caffe::LayerParameter& l, bool is_log);
  Status prelu(const caffe::LayerParameter& l);
  Status normalize(const caffe::LayerParameter& l);
  Status priorBox(const caffe::LayerParameter& l);
  Status convertLayer(const caffe::LayerParameter& l);
  void mergeBatchNormScale();

  const caffe::NetParameter& net_;
  CaffeImportOptions opts_;
  std::string source_ = "the caffemodel";
  ir::Graph g_;
  std::map<std::string, ir::Shape> overrides_;
  std::set<std::string> overrides_used_;
  std::unordered_map<std::string, ir::Value*> blobs_;
  std::unordered_map<std::string, const google::protobuf::RepeatedPtrField<caffe::BlobProto>*>
      weights_;
  std::unordered_set<const ir::Value*> consumed_;
  std::vector<ir::Value*> produced_;
};

// Normalizes a Caffe axis (negative counts from the end) against rank r.
Result<int64_t> caffeAxis(const caffe::LayerParameter& l, int64_t axis, int64_t r,
                          const char* what = "axis") {
  int64_t a = axis < 0 ? axis + r : axis;
  if (a < 0 || a >= r)
    return invalid(l, fmt::format("{} {} is out of range for a blob of {} axes", what, axis, r));
  return a;
}

Status Converter::addInput(const std::string& name, ir::Shape shape) {
  if (blobs_.count(name))
    return Status::error(ErrorCode::InvalidModel, "Caffe input '{}' is declared twice", name);
  if (auto it = overrides_.find(name); it != overrides_.end()) {
    if (!shape.empty() && it->second.size() != shape.size())
      return Status::error(ErrorCode::InputShapeMismatch,
                           "--input_shape gives input '{}' {} dims [{}], the model's input has {} "
                           "dims [{}]; give exactly {} dims",
                           name, it->second.size(), ir::shapeToString(it->second), shape.size(),
                           ir::shapeToString(shape), shape.size());
    shape = it->second;
    overrides_used_.insert(name);
  }
  if (shape.empty())
    return Status::error(ErrorCode::InputShapeMismatch,
                         "input '{}' has no shape in the prototxt; give it with "
                         "--input_shape=\"{}:d0,d1,...\"",
                         name, name);
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] <= 0)
      return Status::error(ErrorCode::InputShapeMismatch,
                           "input '{}' has the dim {} at position {}; dims must be positive "
                           "integers (give them with --input_shape)",
                           name, shape[i], i);
  if (std::string why = ir::shapeLimitReason(shape, ir::DType::F32); !why.empty())
    return Status::error(ErrorCode::ModelTooLarge, "graph input '{}': {}", name, why);
  ir::Value* v = g_.addValue(name);
  v->dtype = ir::DType::F32;
  v->shape = std::move(shape);
  v->format = v->shape.size() == 4 && opts_.input_format == "NCHW" ? "NCHW" : "ND";
  g_.inputs.push_back(v);
  blobs_[name] = v;
  return Status::ok();
}

Status Converter::input(const caffe::LayerParameter& l) {
  const auto& p = l.input_param();
  if (p.shape_size() > 1 && p.shape_size() != l.top_size())
    return invalid(l, fmt::format("gives {} shapes for {} tops", p.shape_size(), l.top_size()));
  for (int i = 0; i < l.top_size(); ++i) {
    ir::Shape s;
    if (p.shape_size())
      for (auto d : p.shape(p.shape_size() == 1 ? 0 : i).dim()) s.push_back(d);
    if (s.size() > ir::kMaxRank) return invalid(l, "the input shape has too many dims");
    ASC_RETURN_IF_ERROR(addInput(l.top(i), s));
  }
  return Status::ok();
}

// Caffe's kernel/pad/stride spellings: the _h/_w pair, or a repeated value (one for both dims,
// or one per dim).
Result<std::vector<int64_t>> spatial(const caffe::LayerParameter& l, const char* what,
                                     const google::protobuf::RepeatedField<uint32_t>& rep,
                                     bool has_h, uint32_t h, bool has_w, uint32_t w, int64_t def) {
  if (has_h || has_w) {
    if (rep.size())
      return invalid(l,
                     fmt::format("gives {} both as {}_h/{}_w and as {}", what, what, what, what));
    return std::vector<int64_t>{has_h ? int64_t{h} : def, has_w ? int64_t{w} : def};
  }
  if (rep.size() == 0) return std::vector<int64_t>{def, def};
  if (rep.size() == 1) return std::vector<int64_t>{rep[0], rep[0]};
  if (rep.size() == 2) return std::vector<int64_t>{rep[0], rep[1]};
  return Status::error(ErrorCode::NotImplemented,
                       "The operation is not supported. Reason: Caffe layer '{}' ({}): {} has {} "
                       "values; asc-tools converts 2-D convolutions only",
                       l.name(), l.type(), what, rep.size());
}

Status Converter::convolution(const caffe::LayerParameter& l, bool deconv) {
  const auto& p = l.convolution_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (l.bottom_size() != 1 || l.top_size() != 1)
    return unsupported(l, "only one bottom and one top are converted");
  if (p.axis() != 1 && p.axis() != -3) return unsupported(l, "axis other than 1");
  if (x->shape.size() != 4)
    return unsupported(
        l, fmt::format("input of rank {}; 2-D (NCHW) convolution only", x->shape.size()));
  ASC_TRY(auto kernel, spatial(l, "kernel", p.kernel_size(), p.has_kernel_h(), p.kernel_h(),
                               p.has_kernel_w(), p.kernel_w(), 0));
  ASC_TRY(auto pad,
          spatial(l, "pad", p.pad(), p.has_pad_h(), p.pad_h(), p.has_pad_w(), p.pad_w(), 0));
  ASC_TRY(auto stride, spatial(l, "stride", p.stride(), p.has_stride_h(), p.stride_h(),
                               p.has_stride_w(), p.stride_w(), 1));
  std::vector<int64_t> dilation{1, 1};
  if (p.dilation_size() == 1)
    dilation = {p.dilation(0), p.dilation(0)};
  else if (p.dilation_size() == 2)
    dilation = {p.dilation(0), p.dilation(1)};
  else if (p.dilation_size() > 2)
    return unsupported(l, "3-D dilation");
  for (int i = 0; i < 2; ++i)
    if (kernel[i] <= 0 || stride[i] <= 0 || dilation[i] <= 0)
      return invalid(l,
                     "kernel size, stride and dilation must be positive (kernel_size is required)");
  const int64_t group = p.group(), num_output = p.num_output(), c = x->shape[1];
  if (group <= 0 || num_output <= 0 || c % group || num_output % group)
    return invalid(l, fmt::format("num_output {} and the {} input channels must be positive "
                                  "multiples of group {}",
                                  num_output, c, group));
  ASC_TRY(auto blobs, layerBlobs(l, p.bias_term() ? 2 : 1, p.bias_term() ? 2 : 1));
  ir::Shape wshape = deconv ? ir::Shape{c, num_output / group, kernel[0], kernel[1]}
                            : ir::Shape{num_output, c / group, kernel[0], kernel[1]};
  ASC_TRY(ir::Value * w, weight(l, *blobs[0], 0, wshape));
  std::vector<ir::Value*> ins{x, w};
  if (p.bias_term()) {
    ASC_TRY(ir::Value * b, weight(l, *blobs[1], 1, {num_output}));
    ins.push_back(b);
  }
  ir::Attrs a;
  a.set("kernel_shape", kernel);
  a.set("strides", stride);
  a.set("dilations", dilation);
  a.set("pads", std::vector<int64_t>{pad[0], pad[1], pad[0], pad[1]});
  a.set("group", group);
  ASC_TRY(ir::Node * n, node(l, deconv ? "ConvTranspose" : "Conv", ins, {top(l, 0)}, std::move(a)));
  (void)n;
  return Status::ok();
}

// Caffe's pooling output: ceil((in + 2p - k) / s) + 1 (floor with round_mode FLOOR), less one
// when the last window would start in the end padding (only checked with padding).
int64_t caffePoolDim(int64_t in, int64_t k, int64_t s, int64_t p, bool ceil_mode) {
  const int64_t span = in + 2 * p - k;
  int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (p > 0 && (out - 1) * s >= in + p) --out;
  return out;
}

Status Converter::pooling(const caffe::LayerParameter& l) {
  const auto& p = l.pooling_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (l.top_size() != 1) return unsupported(l, "a second top (the max positions) is not converted");
  if (x->shape.size() != 4) return unsupported(l, "input of rank other than 4");
  if (p.pool() == caffe::PoolingParameter::STOCHASTIC)
    return unsupported(l, "STOCHASTIC pooling (a training-time method)");
  const bool is_max = p.pool() == caffe::PoolingParameter::MAX;
  if (p.global_pooling()) {
    if (p.pad() || p.pad_h() || p.pad_w()) return invalid(l, "global pooling takes no padding");
    return unary(l, is_max ? "GlobalMaxPool" : "GlobalAveragePool");
  }
  std::vector<int64_t> kernel, pad, stride;
  if (p.has_kernel_h() || p.has_kernel_w()) {
    if (p.has_kernel_size()) return invalid(l, "gives kernel_size and kernel_h/kernel_w");
    kernel = {p.kernel_h(), p.kernel_w()};
  } else {
    kernel = {p.kernel_size(), p.kernel_size()};
  }
  if (p.has_pad_h() || p.has_pad_w())
    pad = {p.pad_h(), p.pad_w()};
  else
    pad = {p.pad(), p.pad()};
  if (p.has_stride_h() || p.has_stride_w())
    stride = {p.stride_h(), p.stride_w()};
  else
    stride = {p.stride(), p.stride()};
  const bool ceil_mode = p.round_mode() == caffe::PoolingParameter::CEIL;
  std::vector<int64_t> out(2), floor_out(2), in{x->shape[2], x->shape[3]};
  for (int i = 0; i < 2; ++i) {
    if (kernel[i] <= 0 || stride[i] <= 0)
      return invalid(l, "kernel size and stride must be positive");
    if (pad[i] >= kernel[i]) return invalid(l, "pad must be smaller than the kernel");
    if (in[i] + 2 * pad[i] < kernel[i])
      return invalid(
          l, fmt::format("the input [{}] is smaller than the kernel", ir::shapeToString(x->shape)));
    out[i] = caffePoolDim(in[i], kernel[i], stride[i], pad[i], ceil_mode);
    floor_out[i] = caffePoolDim(in[i], kernel[i], stride[i], pad[i], false);
    // A window entirely past the input (no padding, stride over the kernel): Caffe reads
    // nothing there; no IR pooling produces it.
    if ((out[i] - 1) * stride[i] >= in[i] + pad[i])
      return unsupported(l, "its last window lies entirely outside the input");
  }
  const bool overflow = out != floor_out;  // ceil rounding adds windows past the padding
  const bool padded = pad[0] || pad[1];
  ir::Attrs a;
  a.set("kernel_shape", kernel);
  a.set("strides", stride);
  ir::Value* src = x;
  if (!is_max && padded && overflow) {
    // Caffe divides an average by the window clipped to input + padding: pad explicitly with
    // zeros, then average excluding only the ceil overflow.
    ir::Attrs pa;
    pa.set("pads", std::vector<int64_t>{0, 0, pad[0], pad[1], 0, 0, pad[0], pad[1]});
    pa.set("mode", std::string("constant"));
    ir::Value* padded_v = temp(l.name() + "/pad");
    ASC_TRY(ir::Node * pn, node(l, "Pad", {x}, {padded_v}, std::move(pa)));
    (void)pn;
    src = padded_v;
    a.set("pads", std::vector<int64_t>{0, 0, 0, 0});
    a.set("ceil_mode", int64_t{1});
    a.set("count_include_pad", int64_t{0});
  } else {
    a.set("pads", std::vector<int64_t>{pad[0], pad[1], pad[0], pad[1]});
    a.set("ceil_mode", int64_t{overflow ? 1 : 0});
    // With padding and no overflow every window is whole: Caffe divides by the kernel size.
    if (!is_max) a.set("count_include_pad", int64_t{padded ? 1 : 0});
  }
  ir::Value* y = top(l, 0);
  ASC_TRY(ir::Node * n, node(l, is_max ? "MaxPool" : "AveragePool", {src}, {y}, std::move(a)));
  (void)n;
  if (y->shape[2] != out[0] || y->shape[3] != out[1])
    return unsupported(l, fmt::format("Caffe's output {}x{} differs from the IR pooling's {}x{}",
                                      out[0], out[1], y->shape[2], y->shape[3]));
  return Status::ok();
}

Status Converter::innerProduct(const caffe::LayerParameter& l) {
  const auto& p = l.inner_product_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  ASC_TRY(int64_t axis, caffeAxis(l, p.axis(), r));
  int64_t k = 1, m = 1;
  for (int64_t i = axis; i < r; ++i) k *= x->shape[i];
  for (int64_t i = 0; i < axis; ++i) m *= x->shape[i];
  const int64_t n_out = p.num_output();
  if (n_out <= 0) return invalid(l, "num_output must be positive");
  ASC_TRY(auto blobs, layerBlobs(l, p.bias_term() ? 2 : 1, p.bias_term() ? 2 : 1));
  ASC_TRY(ir::Value * w,
          weight(l, *blobs[0], 0, p.transpose() ? ir::Shape{k, n_out} : ir::Shape{n_out, k}));
  ir::Value* src = x;
  if (r != 2 || axis != 1) {
    ir::Attrs fa;
    fa.set("axis", axis);
    src = temp(l.name() + "/flatten");
    ASC_TRY(ir::Node * f, node(l, "Flatten", {x}, {src}, std::move(fa)));
    (void)f;
  }
  std::vector<ir::Value*> ins{src, w};
  if (p.bias_term()) {
    ASC_TRY(ir::Value * b, weight(l, *blobs[1], 1, {n_out}));
    ins.push_back(b);
  }
  ir::Attrs a;
  a.set("transB", int64_t{p.transpose() ? 0 : 1});
  if (axis == 1) {
    ASC_TRY(ir::Node * gn, node(l, "Gemm", ins, {top(l, 0)}, std::move(a)));
    (void)gn;
    return Status::ok();
  }
  ir::Value* flat = temp(l.name() + "/gemm");
  ASC_TRY(ir::Node * gn, node(l, "Gemm", ins, {flat}, std::move(a)));
  (void)gn;
  std::vector<int64_t> shape(x->shape.begin(), x->shape.begin() + axis);
  shape.push_back(n_out);
  (void)m;
  ir::Attrs ra;
  ra.set("shape", shape);
  ASC_TRY(ir::Node * rn, node(l, "Reshape", {flat}, {top(l, 0)}, std::move(ra)));
  (void)rn;
  return Status::ok();
}

Status Converter::batchNorm(const caffe::LayerParameter& l) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (x->shape.size() < 2) return invalid(l, "the input needs a channel axis");
  const int64_t c = x->shape[1];
  ASC_TRY(auto blobs, layerBlobs(l, 3, 3));
  ASC_TRY(ir::Value * mean, weight(l, *blobs[0], 0, {c}));
  ASC_TRY(ir::Value * var, weight(l, *blobs[1], 1, {c}));
  ASC_TRY(ir::Value * f, weight(l, *blobs[2], 2, {1}));
  // Caffe stores running sums: the statistics are blob / scale factor (0 means none yet).
  const float factor = blobFloats(f)[0];
  const float inv = factor == 0.f ? 0.f : 1.f / factor;
  std::vector<float> m = blobFloats(mean), v = blobFloats(var);
  for (auto& e : m) e *= inv;
  for (auto& e : v) e *= inv;
  ir::Value* mv = constant(l.name() + "/mean", {c}, m);
  ir::Value* vv = constant(l.name() + "/variance", {c}, v);
  ir::Value* sv = constant(l.name() + "/scale", {c}, std::vector<float>(c, 1.f));
  ir::Value* bv = constant(l.name() + "/bias", {c}, std::vector<float>(c, 0.f));
  ir::Attrs a;
  a.set("epsilon", l.batch_norm_param().eps());
  ASC_TRY(ir::Node * n,
          node(l, "BatchNormalization", {x, sv, bv, mv, vv}, {top(l, 0)}, std::move(a)));
  (void)n;
  return Status::ok();
}

// Scale (x * s [+ b]) and Bias (x + b): s and b cover the dims [axis, axis + num_axes) of x and
// are broadcast over the rest; from the layer's blobs, or from a second bottom.
Status Converter::scale(const caffe::LayerParameter& l, bool bias_only) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  const int64_t axis_raw = bias_only ? l.bias_param().axis() : l.scale_param().axis();
  const int64_t num_axes = bias_only ? l.bias_param().num_axes() : l.scale_param().num_axes();
  const bool bias_term = bias_only || l.scale_param().bias_term();
  ir::Value* factor = nullptr;
  ir::Value* second = nullptr;
  if (l.bottom_size() > 1) {
    ASC_TRY(second, bottom(l, 1));
  }
  ASC_TRY(int64_t axis, caffeAxis(l, axis_raw, r == 0 ? 1 : r));
  ir::Shape pshape;
  if (second) {
    pshape = second->shape;
    if (axis + static_cast<int64_t>(pshape.size()) > r)
      return invalid(l, "the second bottom has too many axes");
  } else {
    int64_t end = num_axes < 0 ? r : axis + num_axes;
    if (num_axes < -1 || end > r)
      return invalid(l, fmt::format("num_axes {} does not fit the input", num_axes));
    pshape.assign(x->shape.begin() + axis, x->shape.begin() + end);
  }
  ir::Shape bshape = pshape;  // broadcast form: trailing 1s up to the input's rank
  while (static_cast<int64_t>(bshape.size()) + axis < r) bshape.push_back(1);
  const int want_blobs =
      (second ? 0 : 1) + (bias_only ? 0 : (bias_term ? 1 : 0)) - (bias_only && second ? 1 : 0);
  std::vector<const caffe::BlobProto*> blobs;
  if (want_blobs > 0) {
    ASC_TRY(blobs, layerBlobs(l, want_blobs, want_blobs));
  }
  size_t next = 0;
  ir::Value* cur = x;
  auto reshaped = [&](ir::Value* v) -> Result<ir::Value*> {
    if (v->shape == bshape) return v;
    ir::Attrs ra;
    ra.set("shape", std::vector<int64_t>(bshape.begin(), bshape.end()));
    ir::Value* o = temp(l.name() + "/reshape");
    ASC_TRY(ir::Node * rn, node(l, "Reshape", {v}, {o}, std::move(ra)));
    (void)rn;
    return o;
  };
  ir::Value* out = top(l, 0);
  if (!bias_only) {
    if (second) {
      ASC_TRY(factor, reshaped(second));
    } else {
      ASC_TRY(factor, weight(l, *blobs[next], static_cast<int>(next), bshape));
      ++next;
    }
    ir::Value* prod = bias_term ? temp(l.name() + "/mul") : out;
    ASC_TRY(ir::Node * mn, node(l, "Mul", {cur, factor}, {prod}));
    (void)mn;
    cur = prod;
  }
  if (bias_term) {
    ir::Value* b;
    if (bias_only && second) {
      ASC_TRY(b, reshaped(second));
    } else {
      ASC_TRY(b, weight(l, *blobs[next], static_cast<int>(next), bshape));
    }
    ASC_TRY(ir::Node * an, node(l, "Add", {cur, b}, {out}));
    (void)an;
  }
  return Status::ok();
}

Status Converter::eltwise(const caffe::LayerParameter& l) {
  const auto& p = l.eltwise_param();
  if (l.bottom_size() < 2) return invalid(l, "needs at least two bottoms");
  std::vector<ir::Value*> xs;
  for (int i = 0; i < l.bottom_size(); ++i) {
    ASC_TRY(ir::Value * v, bottom(l, i));
    xs.push_back(v);
  }
  if (p.coeff_size() &&
      (p.operation() != caffe::EltwiseParameter::SUM || p.coeff_size() != l.bottom_size()))
    return invalid(
        l, fmt::format("coeff takes one value per bottom ({}) and only with SUM", l.bottom_size()));
  if (p.operation() == caffe::EltwiseParameter::MAX) {
    ASC_TRY(ir::Node * n, node(l, "Max", xs, {top(l, 0)}));
    (void)n;
    return Status::ok();
  }
  const std::string op = p.operation() == caffe::EltwiseParameter::PROD ? "Mul" : "Add";
  if (p.coeff_size())
    for (size_t i = 0; i < xs.size(); ++i) {
      const float c = p.coeff(static_cast<int>(i));
      if (c == 1.f) continue;
      ir::Value* cv = constant(fmt::format("{}/coeff{}", l.name(), i), {}, {c});
      ir::Value* o = temp(fmt::format("{}/scaled{}", l.name(), i));
      ASC_TRY(ir::Node * n, node(l, "Mul", {xs[i], cv}, {o}));
      (void)n;
      xs[i] = o;
    }
  ir::Value* acc = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) {
    ir::Value* o = i + 1 == xs.size() ? top(l, 0) : temp(fmt::format("{}/partial{}", l.name(), i));
    ASC_TRY(ir::Node * n, node(l, op, {acc, xs[i]}, {o}));
    (void)n;
    acc = o;
  }
  return Status::ok();
}

Status Converter::reshape(const caffe::LayerParameter& l) {
  const auto& p = l.reshape_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const ir::Shape& in = x->shape;
  const int64_t r = static_cast<int64_t>(in.size());
  int64_t start = p.axis() < 0 ? p.axis() + r + 1 : p.axis();
  if (start < 0 || start > r) return invalid(l, fmt::format("axis {} is out of range", p.axis()));
  int64_t end = p.num_axes() == -1 ? r : start + p.num_axes();
  if (p.num_axes() < -1 || end > r)
    return invalid(l, fmt::format("num_axes {} is out of range", p.num_axes()));
  std::vector<int64_t> spec(p.shape().dim().begin(), p.shape().dim().end());
  if (spec.size() > ir::kMaxRank) return invalid(l, "the shape has too many dims");
  ir::Shape out(in.begin(), in.begin() + start);
  int64_t infer_at = -1;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == 0) {
      if (start + static_cast<int64_t>(i) >= r)
        return invalid(l, "a 0 dim copies past the input's axes");
      d = in[start + i];
    } else if (d == -1) {
      if (infer_at >= 0) return invalid(l, "the shape has more than one -1");
      infer_at = static_cast<int64_t>(out.size());
    } else if (d < -1) {
      return invalid(l, fmt::format("the shape has the dim {}", d));
    }
    out.push_back(d);
  }
  out.insert(out.end(), in.begin() + end, in.end());
  if (infer_at >= 0) {
    int64_t known = 1;
    for (size_t i = 0; i < out.size(); ++i)
      if (static_cast<int64_t>(i) != infer_at) known *= out[i];
    if (known == 0 || ir::numElements(in) % known)
      return invalid(l, fmt::format("cannot infer the -1 dim of [{}] from [{}]",
                                    ir::shapeToString(out), ir::shapeToString(in)));
    out[infer_at] = ir::numElements(in) / known;
  }
  if (ir::numElements(out) != ir::numElements(in))
    return invalid(
        l, fmt::format("the shape [{}] does not hold the {} values of [{}]", ir::shapeToString(out),
                       ir::numElements(in), ir::shapeToString(in)));
  ir::Attrs a;
  a.set("shape", std::vector<int64_t>(out.begin(), out.end()));
  return unaryOn(l, x, "Reshape", std::move(a));
}

Status Converter::flatten(const caffe::LayerParameter& l) {
  const auto& p = l.flatten_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  ASC_TRY(int64_t a0, caffeAxis(l, p.axis(), r));
  ASC_TRY(int64_t a1, caffeAxis(l, p.end_axis(), r, "end_axis"));
  if (a1 < a0) return invalid(l, "end_axis comes before axis");
  ir::Shape out(x->shape.begin(), x->shape.begin() + a0);
  int64_t prod = 1;
  for (int64_t i = a0; i <= a1; ++i) prod *= x->shape[i];
  out.push_back(prod);
  out.insert(out.end(), x->shape.begin() + a1 + 1, x->shape.end());
  ir::Attrs a;
  a.set("shape", std::vector<int64_t>(out.begin(), out.end()));
  return unaryOn(l, x, "Reshape", std::move(a));
}

Status Converter::slice(const caffe::LayerParameter& l) {
  const auto& p = l.slice_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  const int64_t axis_raw = p.has_axis() || !p.has_slice_dim() ? p.axis() : p.slice_dim();
  ASC_TRY(int64_t axis, caffeAxis(l, axis_raw, r));
  const int64_t dim = x->shape[axis], n = l.top_size();
  if (n < 1) return invalid(l, "has no tops");
  std::vector<int64_t> sizes;
  if (p.slice_point_size()) {
    if (p.slice_point_size() != n - 1)
      return invalid(
          l, fmt::format("{} slice points for {} tops (give one less)", p.slice_point_size(), n));
    int64_t prev = 0;
    for (auto s : p.slice_point()) {
      if (s <= prev || s >= dim)
        return invalid(l, fmt::format("slice points must increase within (0, {})", dim));
      sizes.push_back(s - prev);
      prev = s;
    }
    sizes.push_back(dim - prev);
  } else {
    if (dim % n)
      return invalid(
          l, fmt::format("axis {} of size {} does not split into {} equal parts", axis, dim, n));
    sizes.assign(n, dim / n);
  }
  std::vector<ir::Value*> outs;
  for (int i = 0; i < n; ++i) outs.push_back(top(l, i));
  ir::Attrs a;
  a.set("axis", axis);
  a.set("split", sizes);
  ASC_TRY(ir::Node * sn, node(l, "Split", {x}, outs, std::move(a)));
  (void)sn;
  return Status::ok();
}

Status Converter::crop(const caffe::LayerParameter& l) {
  const auto& p = l.crop_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  ASC_TRY(ir::Value * ref, bottom(l, 1));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  if (static_cast<int64_t>(ref->shape.size()) != r)
    return invalid(l, "the two bottoms differ in rank");
  ASC_TRY(int64_t axis, caffeAxis(l, p.axis(), r));
  const int64_t n = r - axis;
  if (p.offset_size() > 1 && p.offset_size() != n)
    return invalid(l, fmt::format("gives {} offsets for {} cropped axes", p.offset_size(), n));
  std::vector<int64_t> starts, ends, axes;
  for (int64_t i = axis; i < r; ++i) {
    int64_t off =
        p.offset_size() == 0 ? 0 : p.offset(p.offset_size() == 1 ? 0 : static_cast<int>(i - axis));
    if (off + ref->shape[i] > x->shape[i])
      return invalid(l, fmt::format("offset {} + size {} exceeds axis {} of size {}", off,
                                    ref->shape[i], i, x->shape[i]));
    starts.push_back(off);
    ends.push_back(off + ref->shape[i]);
    axes.push_back(i);
  }
  ir::Attrs a;
  a.set("starts", starts);
  a.set("ends", ends);
  a.set("axes", axes);
  return unaryOn(l, x, "Slice", std::move(a));
}

Status Converter::argmax(const caffe::LayerParameter& l) {
  const auto& p = l.argmax_param();
  if (p.out_max_val() || p.top_k() != 1) return unsupported(l, "out_max_val or top_k other than 1");
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  ir::Value* src = x;
  int64_t axis = 1;
  if (p.has_axis()) {
    ASC_TRY(axis, caffeAxis(l, p.axis(), r));
  } else {
    ir::Attrs fa;
    fa.set("axis", int64_t{1});
    src = temp(l.name() + "/flatten");
    ASC_TRY(ir::Node * f, node(l, "Flatten", {x}, {src}, std::move(fa)));
    (void)f;
  }
  ir::Attrs a;
  a.set("axis", axis);
  a.set("keepdims", int64_t{1});
  ir::Value* idx = temp(l.name() + "/index");
  ASC_TRY(ir::Node * an, node(l, "ArgMax", {src}, {idx}, std::move(a)));
  (void)an;
  ir::Attrs ca;
  ca.set("to", int64_t{1});  // float, as Caffe's blobs are
  if (p.has_axis()) {
    ASC_TRY(ir::Node * cn, node(l, "Cast", {idx}, {top(l, 0)}, std::move(ca)));
    (void)cn;
    return Status::ok();
  }
  ir::Value* f = temp(l.name() + "/cast");
  ASC_TRY(ir::Node * cn, node(l, "Cast", {idx}, {f}, std::move(ca)));
  (void)cn;
  ir::Attrs ra;
  ra.set("shape", std::vector<int64_t>{x->shape[0], 1, 1});
  ASC_TRY(ir::Node * rn, node(l, "Reshape", {f}, {top(l, 0)}, std::move(ra)));
  (void)rn;
  return Status::ok();
}

// y = (shift + scale * x) ^ power, as Mul, Add and Pow (each only when it changes something).
Status Converter::power(const caffe::LayerParameter& l, float pw, float sc, float sh) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  struct Step {
    const char* op;
    float v;
  };
  std::vector<Step> steps;
  if (sc != 1.f) steps.push_back({"Mul", sc});
  if (sh != 0.f) steps.push_back({"Add", sh});
  if (pw != 1.f) steps.push_back({"Pow", pw});
  if (steps.empty()) return unaryOn(l, x, "Identity", {});
  ir::Value* cur = x;
  for (size_t i = 0; i < steps.size(); ++i) {
    ir::Value* c = constant(fmt::format("{}/{}", l.name(), steps[i].op), {}, {steps[i].v});
    ir::Value* o =
        i + 1 == steps.size() ? top(l, 0) : temp(fmt::format("{}/{}", l.name(), steps[i].op));
    ASC_TRY(ir::Node * n, node(l, steps[i].op, {cur, c}, {o}));
    (void)n;
    cur = o;
  }
  return Status::ok();
}

// Exp: y = base ^ (shift + scale * x); Log: y = log_base(shift + scale * x). base -1 is e.
Status Converter::expLog(const caffe::LayerParameter& l, bool is_log) {
  const float base = is_log ? l.log_param().base() : l.exp_param().base();
  const float sc = is_log ? l.log_param().scale() : l.exp_param().scale();
  const float sh = is_log ? l.log_param().shift() : l.exp_param().shift();
  if (base != -1.f && base <= 0.f)
    return invalid(l, fmt::format("base {} must be positive (or -1 for e)", base));
  const float ln_base = base == -1.f ? 1.f : std::log(base);
  ASC_TRY(ir::Value * x, bottom(l, 0));
  ir::Value* cur = x;
  auto step = [&](const char* op, float v, bool last) -> Status {
    ir::Value* o = last ? top(l, 0) : temp(fmt::format("{}/{}", l.name(), op));
    std::vector<ir::Value*> ins{cur};
    if (std::string(op) != "Exp" && std::string(op) != "Log")
      ins.push_back(constant(fmt::format("{}/{}", l.name(), op), {}, {v}));
    ASC_TRY(ir::Node * n, node(l, op, ins, {o}));
    (void)n;
    cur = o;
    return Status::ok();
  };
  if (!is_log) {
    const float a = sc * ln_base, b = sh * ln_base;
    if (a != 1.f) ASC_RETURN_IF_ERROR(step("Mul", a, false));
    if (b != 0.f) ASC_RETURN_IF_ERROR(step("Add", b, false));
    return step("Exp", 0, true);
  }
  if (sc != 1.f) ASC_RETURN_IF_ERROR(step("Mul", sc, false));
  if (sh != 0.f) ASC_RETURN_IF_ERROR(step("Add", sh, false));
  if (ln_base == 1.f) return step("Log", 0, true);
  ASC_RETURN_IF_ERROR(step("Log", 0, false));
  return step("Mul", 1.f / ln_base, true);
}

Status Converter::prelu(const caffe::LayerParameter& l) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  const int64_t r = static_cast<int64_t>(x->shape.size());
  if (r < 2) return invalid(l, "the input needs a channel axis");
  const bool shared = l.prelu_param().channel_shared();
  const int64_t c = shared ? 1 : x->shape[1];
  ASC_TRY(auto blobs, layerBlobs(l, 1, 1));
  ir::Shape s{c};
  while (static_cast<int64_t>(s.size()) < r - 1) s.push_back(1);
  ASC_TRY(ir::Value * slope, weight(l, *blobs[0], 0, s));
  ASC_TRY(ir::Node * n, node(l, "PRelu", {x, slope}, {top(l, 0)}));
  (void)n;
  return Status::ok();
}

// SSD's Normalize: x / sqrt(sum of squares + eps) over the channels (or the whole sample with
// across_spatial), times a learned scale per channel (or one shared).
Status Converter::normalize(const caffe::LayerParameter& l) {
  const auto& p = l.norm_param();
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (x->shape.size() != 4) return unsupported(l, "input of rank other than 4");
  const int64_t c = x->shape[1];
  ASC_TRY(auto blobs, layerBlobs(l, 1, 1));
  ASC_TRY(ir::Value * s,
          weight(l, *blobs[0], 0, p.channel_shared() ? ir::Shape{1} : ir::Shape{c, 1, 1}));
  ir::Attrs ra;
  ra.set("axes", p.across_spatial() ? std::vector<int64_t>{1, 2, 3} : std::vector<int64_t>{1});
  ra.set("keepdims", int64_t{1});
  ir::Value* ss = temp(l.name() + "/sumsq");
  ASC_TRY(ir::Node * n1, node(l, "ReduceSumSquare", {x}, {ss}, std::move(ra)));
  ir::Value* se = temp(l.name() + "/eps");
  ASC_TRY(ir::Node * n2, node(l, "Add", {ss, constant(l.name() + "/eps", {}, {p.eps()})}, {se}));
  ir::Value* nr = temp(l.name() + "/norm");
  ASC_TRY(ir::Node * n3, node(l, "Sqrt", {se}, {nr}));
  ir::Value* dv = temp(l.name() + "/div");
  ASC_TRY(ir::Node * n4, node(l, "Div", {x, nr}, {dv}));
  ASC_TRY(ir::Node * n5, node(l, "Mul", {dv, s}, {top(l, 0)}));
  (void)n1, (void)n2, (void)n3, (void)n4, (void)n5;
  return Status::ok();
}

// SSD's PriorBox: the default boxes of a feature map, which depend only on shapes and parameters,
// so they are computed here into a constant [1, 2, H * W * priors * 4]: the boxes (xmin, ymin,
// xmax, ymax, relative to the image), then their variances.
Status Converter::priorBox(const caffe::LayerParameter& l) {
  const auto& p = l.prior_box_param();
  ASC_TRY(ir::Value * feat, bottom(l, 0));
  ir::Value* img = nullptr;
  if (l.bottom_size() > 1) {
    ASC_TRY(img, bottom(l, 1));
  }
  if (feat->shape.size() != 4 || (img && img->shape.size() != 4))
    return invalid(l, "its bottoms must be 4-D (feature map, image)");
  if (p.min_size_size() == 0) return invalid(l, "min_size is required");
  if (p.max_size_size() && p.max_size_size() != p.min_size_size())
    return invalid(l, "max_size takes one value per min_size");
  const int64_t lh = feat->shape[2], lw = feat->shape[3];
  float img_h = p.has_img_h() ? p.img_h() : p.img_size(),
        img_w = p.has_img_w() ? p.img_w() : p.img_size();
  if (img_h == 0 || img_w == 0) {
    if (!img) return invalid(l, "give img_size (or img_h/img_w), or the image as a second bottom");
    img_h = static_cast<float>(img->shape[2]);
    img_w = static_cast<float>(img->shape[3]);
  }
  float step_h = p.has_step_h() ? p.step_h() : p.step(),
        step_w = p.has_step_w() ? p.step_w() : p.step();
  if (step_h == 0 || step_w == 0) {
    step_h = img_h / static_cast<float>(lh);
    step_w = img_w / static_cast<float>(lw);
  }
  std::vector<float> ratios{1.f};
  for (float r : p.aspect_ratio()) {
    if (!(r > 0.f)) return invalid(l, fmt::format("aspect_ratio {} must be positive", r));
    bool seen = false;
    for (float e : ratios) seen |= std::fabs(r - e) < 1e-6f;
    if (seen) continue;
    ratios.push_back(r);
    if (p.flip()) ratios.push_back(1.f / r);
  }
  const int64_t priors =
      static_cast<int64_t>(ratios.size()) * p.min_size_size() + p.max_size_size();
  const int64_t count = lh * lw * priors * 4;
  if (count > (int64_t{1} << 28)) return invalid(l, "too many prior boxes");
  if (p.variance_size() != 0 && p.variance_size() != 1 && p.variance_size() != 4)
    return invalid(l, "variance takes 1 or 4 values");
  std::vector<float> out(static_cast<size_t>(2 * count));
  size_t k = 0;
  auto box = [&](float cx, float cy, float bw, float bh) {
    const float v[4] = {(cx - bw / 2) / img_w, (cy - bh / 2) / img_h, (cx + bw / 2) / img_w,
                        (cy + bh / 2) / img_h};
    for (float e : v) out[k++] = p.clip() ? std::min(std::max(e, 0.f), 1.f) : e;
  };
  for (int64_t h = 0; h < lh; ++h)
    for (int64_t w = 0; w < lw; ++w) {
      const float cx = (static_cast<float>(w) + p.offset()) * step_w;
      const float cy = (static_cast<float>(h) + p.offset()) * step_h;
      for (int s = 0; s < p.min_size_size(); ++s) {
        const float mn = p.min_size(s);
        if (!(mn > 0.f)) return invalid(l, "min_size must be positive");
        box(cx, cy, mn, mn);
        if (p.max_size_size()) {
          const float mx = p.max_size(s);
          if (!(mx > mn)) return invalid(l, "max_size must be above min_size");
          box(cx, cy, std::sqrt(mn * mx), std::sqrt(mn * mx));
        }
        for (float r : ratios)
          if (std::fabs(r - 1.f) >= 1e-6f) box(cx, cy, mn * std::sqrt(r), mn / std::sqrt(r));
      }
    }
  for (int64_t i = 0; i < count; ++i)
    out[k++] = p.variance_size() == 0   ? 0.1f
               : p.variance_size() == 1 ? p.variance(0)
                                        : p.variance(static_cast<int>(i % 4));
  // The boxes are a constant: the top blob is that constant (no node runs).
  ir::Value* c = constant(l.top(0), {1, 2, count}, out);
  blobs_[l.top(0)] = c;
  return Status::ok();
}

Status Converter::convertLayer(const caffe::LayerParameter& l) {
  const std::string& t = l.type();
  auto tops = [&](int n) -> Status {
    if (l.top_size() != n)
      return invalid(l, fmt::format("has {} tops, the layer gives {}", l.top_size(), n));
    return Status::ok();
  };
  auto noWeights = [&]() -> Status {
    auto it = weights_.find(l.name());
    if ((it != weights_.end() && it->second->size()) || l.blobs_size())
      return invalid(l, fmt::format("has weight blobs in {}, but a {} layer takes none; the "
                                    "caffemodel does not match the prototxt",
                                    source_, t));
    return Status::ok();
  };
  if (t == "Input") return input(l);
  if (t == "Split") {
    ASC_TRY(ir::Value * x, bottom(l, 0));
    for (const auto& name : l.top()) blobs_[name] = x;  // every top is the bottom
    return Status::ok();
  }
  if (t == "Silence") {
    for (int i = 0; i < l.bottom_size(); ++i) ASC_RETURN_IF_ERROR(bottom(l, i).status());
    return Status::ok();
  }
  const bool multi_top = t == "Slice";
  if (!multi_top) ASC_RETURN_IF_ERROR(tops(1));
  if (t == "Convolution") return convolution(l, false);
  if (t == "Deconvolution") return convolution(l, true);
  if (t == "InnerProduct") return innerProduct(l);
  if (t == "BatchNorm") return batchNorm(l);
  if (t == "Scale") return scale(l, false);
  if (t == "Bias") return scale(l, true);
  if (t == "PReLU") return prelu(l);
  if (t == "Normalize") return normalize(l);
  ASC_RETURN_IF_ERROR(noWeights());
  if (t == "PriorBox") return priorBox(l);
  if (t == "Pooling") return pooling(l);
  if (t == "ReLU") {
    const float slope = l.relu_param().negative_slope();
    if (slope == 0.f) return unary(l, "Relu");
    ir::Attrs a;
    a.set("alpha", slope);
    return unary(l, "LeakyRelu", std::move(a));
  }
  if (t == "ELU") {
    ir::Attrs a;
    a.set("alpha", l.elu_param().alpha());
    return unary(l, "Elu", std::move(a));
  }
  if (t == "Sigmoid") return unary(l, "Sigmoid");
  if (t == "TanH") return unary(l, "Tanh");
  if (t == "AbsVal") return unary(l, "Abs");
  if (t == "Dropout") return unary(l, "Identity");  // inference: Caffe scales at training time
  if (t == "Power")
    return power(l, l.power_param().power(), l.power_param().scale(), l.power_param().shift());
  if (t == "Exp") return expLog(l, false);
  if (t == "Log") return expLog(l, true);
  if (t == "LRN") {
    const auto& p = l.lrn_param();
    if (p.norm_region() != caffe::LRNParameter::ACROSS_CHANNELS)
      return unsupported(l, "norm_region WITHIN_CHANNEL");
    if (p.local_size() % 2 == 0) return invalid(l, "local_size must be odd");
    ir::Attrs a;
    a.set("size", int64_t{p.local_size()});
    a.set("alpha", p.alpha());
    a.set("beta", p.beta());
    a.set("bias", p.k());
    return unary(l, "LRN", std::move(a));
  }
  if (t == "Softmax") {
    ASC_TRY(ir::Value * x, bottom(l, 0));
    ASC_TRY(int64_t axis,
            caffeAxis(l, l.softmax_param().axis(), static_cast<int64_t>(x->shape.size())));
    ir::Attrs a;
    a.set("axis", axis);
    return unaryOn(l, x, "Softmax", std::move(a));
  }
  if (t == "Concat") {
    std::vector<ir::Value*> xs;
    for (int i = 0; i < l.bottom_size(); ++i) {
      ASC_TRY(ir::Value * v, bottom(l, i));
      xs.push_back(v);
    }
    if (xs.empty()) return invalid(l, "has no bottoms");
    const auto& p = l.concat_param();
    const int64_t raw = p.has_axis() || !p.has_concat_dim() ? p.axis() : p.concat_dim();
    ASC_TRY(int64_t axis, caffeAxis(l, raw, static_cast<int64_t>(xs[0]->shape.size())));
    ir::Attrs a;
    a.set("axis", axis);
    ASC_TRY(ir::Node * n, node(l, "Concat", xs, {top(l, 0)}, std::move(a)));
    (void)n;
    return Status::ok();
  }
  if (t == "Eltwise") return eltwise(l);
  if (t == "Flatten") return flatten(l);
  if (t == "Reshape") return reshape(l);
  if (t == "Slice") return slice(l);
  if (t == "Permute") {
    ASC_TRY(ir::Value * x, bottom(l, 0));
    const int64_t r = static_cast<int64_t>(x->shape.size());
    std::vector<int64_t> perm;
    std::vector<bool> seen(r, false);
    for (auto o : l.permute_param().order()) {
      if (o >= r || seen[o])
        return invalid(l, fmt::format("order names axis {} twice or out of range", o));
      seen[o] = true;
      perm.push_back(o);
    }
    for (int64_t i = 0; i < r; ++i)
      if (!seen[i]) perm.push_back(i);  // Caffe keeps the unnamed axes in order
    ir::Attrs a;
    a.set("perm", perm);
    return unaryOn(l, x, "Transpose", std::move(a));
  }
  if (t == "Crop") return crop(l);
  if (t == "ArgMax") return argmax(l);
  return Status::error(ErrorCode::UnsupportedOp,
                       "unsupported Caffe layer '{}' of type '{}' (E11009: no Caffe parser is "
                       "registered for this layer type); see docs/caffe.md for the supported "
                       "layers",
                       l.name(), t);
}

// BatchNorm followed by Scale (Caffe's pair for one batch normalization) becomes one
// BatchNormalization with the Scale's factor and bias, so the Conv+BN pass folds it whole.
void Converter::mergeBatchNormScale() {
  auto users = g_.users();
  std::unordered_set<const ir::Node*> dead;
  auto constVec = [](const ir::Value* v, int64_t c) {
    return v && v->isConstant() && v->dtype == ir::DType::F32 && v->numel() == c;
  };
  for (const auto& up : g_.nodes()) {
    ir::Node* bn = up.get();
    if (bn->op_type != "BatchNormalization" || bn->original_names.size() != 1) continue;
    ir::Value* y = bn->outputs[0];
    if (g_.isGraphOutput(y) || users[y].size() != 1) continue;
    ir::Node* mul = users[y][0];
    const int64_t c = bn->inputs[1]->numel();
    if (mul->op_type != "Mul" || mul->inputs[0] != y || !constVec(mul->inputs[1], c) ||
        mul->inputs[1]->shape.size() + 1 != y->shape.size() || dead.count(mul))
      continue;
    ir::Node* add = nullptr;
    ir::Value* out = mul->outputs[0];
    if (!g_.isGraphOutput(out) && users[out].size() == 1 && users[out][0]->op_type == "Add" &&
        users[out][0]->inputs[0] == out && constVec(users[out][0]->inputs[1], c) &&
        users[out][0]->name + "/Mul" == mul->name)
      add = users[out][0];
    ir::Tensor scale = mul->inputs[1]->tensor();
    scale.shape = {c};
    bn->inputs[1] = g_.addConstant(bn->name + "/gamma", scale);
    if (add) {
      ir::Tensor beta = add->inputs[1]->tensor();
      beta.shape = {c};
      bn->inputs[2] = g_.addConstant(bn->name + "/beta", beta);
      out = add->outputs[0];
      dead.insert(add);
    }
    dead.insert(mul);
    // The BN now writes what the Scale wrote.
    bn->outputs[0] = out;
    out->producer = bn;
    out->producer_output = 0;
    bn->original_names.push_back(add ? add->original_names[0] : mul->original_names[0]);
  }
  if (!dead.empty()) {
    g_.removeNodesIf([&](const ir::Node& n) { return dead.count(&n) != 0; });
    g_.pruneValues();
  }
}

Result<ir::Graph> Converter::run() {
  ASC_TRY(overrides_, parseInputShapes(opts_.input_shape));
  // The old input form: `input` names with `input_shape` or four `input_dim` values each.
  if (net_.input_dim_size() && net_.input_dim_size() != 4 * net_.input_size())
    return Status::error(ErrorCode::InvalidModel,
                         "the prototxt gives {} input_dim values for {} inputs (four each)",
                         net_.input_dim_size(), net_.input_size());
  if (net_.input_shape_size() && net_.input_shape_size() != net_.input_size())
    return Status::error(ErrorCode::InvalidModel, "the prototxt gives {} input_shape for {} inputs",
                         net_.input_shape_size(), net_.input_size());
  for (int i = 0; i < net_.input_size(); ++i) {
    ir::Shape s;
    if (net_.input_shape_size())
      for (auto d : net_.input_shape(i).dim()) s.push_back(d);
    else if (net_.input_dim_size())
      for (int k = 0; k < 4; ++k) s.push_back(net_.input_dim(4 * i + k));
    if (s.size() > ir::kMaxRank)
      return Status::error(ErrorCode::InvalidModel, "input '{}' has too many dims", net_.input(i));
    ASC_RETURN_IF_ERROR(addInput(net_.input(i), s));
  }
  // Weights of layers the prototxt does not have: Caffe ignores them; said once, up front.
  std::unordered_set<std::string> layer_names;
  for (const auto& l : net_.layer()) layer_names.insert(l.name());
  for (const auto& [name, blobs] : weights_)
    if (blobs->size() && !layer_names.count(name))
      ASC_LOG_WARN(
          "{}: layer '{}' has weights but the prototxt has no such layer; they are "
          "ignored",
          source_, name);
  std::unordered_set<std::string> names;
  for (const auto& l : net_.layer()) {
    if (!inTestPhase(l)) continue;
    if (!names.insert(l.name()).second)
      return Status::error(ErrorCode::InvalidModel,
                           "two Caffe layers are named '{}'; layer names must be unique (weights "
                           "are matched by name)",
                           l.name());
    ASC_RETURN_IF_ERROR(convertLayer(l));
  }
  for (const auto& [name, shape] : overrides_)
    if (!overrides_used_.count(name)) {
      std::vector<std::string> ins;
      for (auto* v : g_.inputs) ins.push_back(v->name);
      return Status::error(ErrorCode::InputShapeMismatch,
                           "--input_shape names input '{}', which the model does not have; its "
                           "inputs are: {}",
                           name, fmt::join(ins, ", "));
    }
  if (g_.inputs.empty())
    return Status::error(ErrorCode::InvalidModel,
                         "the prototxt declares no input (an Input layer, or input/input_shape)");
  // Outputs: every blob version no layer reads, in the order they were made.
  for (ir::Value* v : produced_)
    if (!consumed_.count(v) && v->producer) g_.outputs.push_back(v);
  if (g_.outputs.empty()) return Status::error(ErrorCode::InvalidModel, "the net has no outputs");
  mergeBatchNormScale();
  ops::InferOptions io;
  io.fold_constants = opts_.fold_constants;
  ASC_RETURN_IF_ERROR(ops::inferGraph(g_, io));
  for (const auto& v : g_.values())
    if (!v->isConstant() && v->format == "ND" && v->shape.size() == 4 && v->producer)
      v->format = "NCHW";
  ASC_RETURN_IF_ERROR(ir::verify(g_));
  return std::move(g_);
}

}  // namespace

Result<ir::Graph> importCaffe(const std::string& prototxt, const std::string& caffemodel,
                              const CaffeImportOptions& opts) {
  ASC_TRY(caffe::NetParameter net, caffe_import::readPrototxt(prototxt));
  caffe_import::upgradeV1(net);
  Converter conv(net, opts);
  caffe::NetParameter model;
  if (!caffemodel.empty()) {
    ASC_TRY(model, caffe_import::readCaffemodel(caffemodel));
    caffe_import::upgradeV1(model);
    ASC_RETURN_IF_ERROR(conv.addWeights(model, caffemodel));
  }
  auto g = conv.run();
  if (!g) return g.status().withContext(prototxt);
  return g;
}

Result<PrecheckReport> precheckCaffe(const std::string& prototxt, const std::string& caffemodel,
                                     const CaffeImportOptions& opts) {
  ASC_TRY(caffe::NetParameter net, caffe_import::readPrototxt(prototxt));
  caffe_import::upgradeV1(net);
  static const std::unordered_set<std::string> known = {
      "Input",   "Split",   "Silence", "Convolution", "Deconvolution", "InnerProduct", "BatchNorm",
      "Scale",   "Bias",    "PReLU",   "Normalize",   "Pooling",       "ReLU",         "ELU",
      "Sigmoid", "TanH",    "AbsVal",  "Dropout",     "Power",         "Exp",          "Log",
      "LRN",     "Softmax", "Concat",  "Eltwise",     "Flatten",       "Reshape",      "Slice",
      "Permute", "Crop",    "ArgMax"};
  PrecheckReport r;
  r.model = fileStem(prototxt);
  std::unordered_set<std::string> names;
  for (const auto& l : net.layer()) {
    if (!inTestPhase(l)) continue;
    PrecheckOp op;
    op.name = l.name();
    op.type = l.type();
    if (!names.insert(l.name()).second) {
      op.cause = 9;
      op.message = "the layer name is used twice";
    } else if (!known.count(l.type())) {
      op.cause = 1;
      op.message = fmt::format("layer type '{}' is not supported (E11009)", l.type());
    }
    r.ops.push_back(std::move(op));
  }
  // Parameters and weights: a full import names the first layer it fails on.
  if (r.failed() == 0 && !caffemodel.empty()) {
    auto g = importCaffe(prototxt, caffemodel, opts);
    if (!g) {
      const std::string& msg = g.status().message();
      for (auto& op : r.ops)
        if (msg.find("layer '" + op.name + "'") != std::string::npos) {
          op.cause = 2;
          op.message = msg.substr(
              msg.find("Caffe layer '") == std::string::npos ? 0 : msg.find("Caffe layer '"));
          break;
        }
    }
  }
  return r;
}

Result<std::string> caffePrototxtToJson(const std::string& prototxt) {
  ASC_TRY(caffe::NetParameter net, caffe_import::readPrototxt(prototxt));
  google::protobuf::util::JsonPrintOptions o;
  o.add_whitespace = true;
  o.preserve_proto_field_names = true;
  std::string json;
  auto st = google::protobuf::util::MessageToJsonString(net, &json, o);
  if (!st.ok())
    return Status::error(ErrorCode::Internal, "{}: JSON rendering failed: {}", prototxt,
                         st.ToString());
  return json;
}

}  // namespace asc::frontend
