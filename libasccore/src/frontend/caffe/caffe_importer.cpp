// caffe_importer.cpp: caffe.NetParameter -> ir::Graph. Layers are converted in file order; each
// becomes one or a few IR nodes (ONNX op names) named after the layer, with the layer name in
// original_names, and is shape-inferred at once so that the next layer's parameters (Reshape,
// Crop, InnerProduct's axis, Caffe's pooling rounding) can be resolved against real shapes. Blob
// names are Caffe's "tops": an in-place layer (top == bottom) gives the blob a new value, so each
// bottom reads the latest one. Weights come from the caffemodel by layer name (or from blobs
// written in the prototxt); their counts and sizes are checked against the layer.
#include <algorithm>
#include <google/protobuf/util/json_util.h>

#include "asc/support/file.h"
#include "caffe_converter.h"

namespace asc::frontend {
namespace caffe_import {

Status invalid(const caffe::LayerParameter& l, const std::string& msg) {
  return Status::error(ErrorCode::InvalidModel, "Caffe layer '{}' ({}): {}", l.name(), l.type(),
                       msg);
}
Status unsupported(const caffe::LayerParameter& l, const std::string& msg) {
  return Status::error(ErrorCode::NotImplemented,
                       "The operation is not supported. Reason: Caffe layer '{}' ({}): {}",
                       l.name(), l.type(), msg);
}

// Normalizes a Caffe axis (negative counts from the end) against rank r.
Result<int64_t> caffeAxis(const caffe::LayerParameter& l, int64_t axis, int64_t r,
                          const char* what) {
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
    if (shape[i] == -1 && overrides_used_.count(name))
      return Status::error(ErrorCode::NotImplemented,
                           "The operation is not supported. Reason: input '{}' gets a dynamic dim "
                           "(-1, a range or a --dynamic_* option) at position {}; Caffe models "
                           "take fixed shapes in asc-tools for now, give fixed sizes",
                           name, i);
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

// ---- the layer table (caffe_layers.def) ----

enum class Tops { One, Any };
enum class Weights { Blobs, None };

struct Converter::Entry {
  const char* type;
  Status (Converter::*convert)(const caffe::LayerParameter&);
  Tops tops;
  Weights weights;
};

const Converter::Entry* Converter::entry(const std::string& type) {
  static const Entry kEntries[] = {
#define CAFFE_LAYER(Type, Method, TopsKind, WeightsKind, Ops, Shown, Notes) \
  {#Type, &Converter::Method, Tops::TopsKind, Weights::WeightsKind},
#include "caffe_layers.def"
#undef CAFFE_LAYER
  };
  for (const Entry& e : kEntries)
    if (type == e.type) return &e;
  return nullptr;
}

const std::vector<std::string>& layerTypes() {
  static const std::vector<std::string> kTypes = [] {
    std::vector<std::string> v;
    for (const auto& l : caffeLayers()) v.push_back(l.type);
    return v;
  }();
  return kTypes;
}

bool isLayerType(const std::string& type) {
  const auto& all = layerTypes();
  return std::find(all.begin(), all.end(), type) != all.end();
}

Status Converter::convertLayer(const caffe::LayerParameter& l) {
  layer_tops_.clear();
  const Entry* e = entry(l.type());
  if (!e)
    return Status::error(ErrorCode::UnsupportedOp,
                         "unsupported Caffe layer '{}' of type '{}' (E11009: no Caffe parser is "
                         "registered for this layer type); see docs/caffe.md for the supported "
                         "layers",
                         l.name(), l.type());
  if (e->tops == Tops::One && l.top_size() != 1)
    return invalid(l, fmt::format("has {} tops, the layer gives 1", l.top_size()));
  if (e->weights == Weights::None) {
    auto it = weights_.find(l.name());
    if ((it != weights_.end() && it->second->size()) || l.blobs_size())
      return invalid(l, fmt::format("has weight blobs in {}, but a {} layer takes none; the "
                                    "caffemodel does not match the prototxt",
                                    source_, l.type()));
  }
  return (this->*(e->convert))(l);
}

// ---- the layers converted here; the larger ones are in caffe_layers.cpp ----

Status Converter::splitLayer(const caffe::LayerParameter& l) {
  // Every top is the bottom. Split reads nothing itself: a bottom whose tops no layer reads
  // stays a net output, as in Caffe (a net may end in a Split).
  const bool read_before =
      l.bottom_size() > 0 && blobs_.count(l.bottom(0)) && consumed_.count(blobs_.at(l.bottom(0)));
  ASC_TRY(ir::Value * x, bottom(l, 0));
  if (!read_before) consumed_.erase(x);
  for (const auto& name : l.top()) blobs_[name] = x;
  return Status::ok();
}

Status Converter::silenceLayer(const caffe::LayerParameter& l) {
  for (int i = 0; i < l.bottom_size(); ++i) ASC_RETURN_IF_ERROR(bottom(l, i).status());
  return Status::ok();
}

Status Converter::convolution(const caffe::LayerParameter& l) { return convolutionLike(l, false); }
Status Converter::deconvolution(const caffe::LayerParameter& l) { return convolutionLike(l, true); }
Status Converter::scaleLayer(const caffe::LayerParameter& l) { return scale(l, false); }
Status Converter::biasLayer(const caffe::LayerParameter& l) { return scale(l, true); }

Status Converter::reluLayer(const caffe::LayerParameter& l) {
  const float slope = l.relu_param().negative_slope();
  if (slope == 0.f) return unary(l, "Relu");
  ir::Attrs a;
  a.set("alpha", slope);
  return unary(l, "LeakyRelu", std::move(a));
}

Status Converter::eluLayer(const caffe::LayerParameter& l) {
  ir::Attrs a;
  a.set("alpha", l.elu_param().alpha());
  return unary(l, "Elu", std::move(a));
}

Status Converter::sigmoidLayer(const caffe::LayerParameter& l) { return unary(l, "Sigmoid"); }
Status Converter::tanhLayer(const caffe::LayerParameter& l) { return unary(l, "Tanh"); }
Status Converter::absValLayer(const caffe::LayerParameter& l) { return unary(l, "Abs"); }
// Inference: Caffe scales at training time.
Status Converter::dropoutLayer(const caffe::LayerParameter& l) { return unary(l, "Identity"); }

Status Converter::powerLayer(const caffe::LayerParameter& l) {
  return power(l, l.power_param().power(), l.power_param().scale(), l.power_param().shift());
}
Status Converter::expLayer(const caffe::LayerParameter& l) { return expLog(l, false); }
Status Converter::logLayer(const caffe::LayerParameter& l) { return expLog(l, true); }

Status Converter::lrnLayer(const caffe::LayerParameter& l) {
  const auto& p = l.lrn_param();
  if (p.local_size() % 2 == 0) return invalid(l, "local_size must be odd");
  if (p.norm_region() != caffe::LRNParameter::ACROSS_CHANNELS) return lrnWithinChannel(l);
  ir::Attrs a;
  a.set("size", int64_t{p.local_size()});
  a.set("alpha", p.alpha());
  a.set("beta", p.beta());
  a.set("bias", p.k());
  return unary(l, "LRN", std::move(a));
}

Status Converter::softmaxLayer(const caffe::LayerParameter& l) {
  ASC_TRY(ir::Value * x, bottom(l, 0));
  ASC_TRY(int64_t axis,
          caffeAxis(l, l.softmax_param().axis(), static_cast<int64_t>(x->shape.size())));
  ir::Attrs a;
  a.set("axis", axis);
  return unaryOn(l, x, "Softmax", std::move(a));
}

Status Converter::concatLayer(const caffe::LayerParameter& l) {
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
  return node(l, "Concat", xs, {top(l, 0)}, std::move(a)).status();
}

Status Converter::permuteLayer(const caffe::LayerParameter& l) {
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

}  // namespace caffe_import

const std::vector<CaffeLayerInfo>& caffeLayers() {
  static const std::vector<CaffeLayerInfo> kLayers = [] {
    auto words = [](const char* text) {
      std::vector<std::string> out;
      std::string w;
      for (const char* p = text;; ++p) {
        if (*p && *p != ' ') {
          w += *p;
          continue;
        }
        if (!w.empty()) out.push_back(std::move(w));
        w.clear();
        if (!*p) break;
      }
      return out;
    };
    return std::vector<CaffeLayerInfo>{
#define CAFFE_LAYER(Type, Method, TopsKind, WeightsKind, Ops, Shown, Notes) \
  {#Type, words(Ops), Shown, Notes},
#include "caffe_layers.def"
#undef CAFFE_LAYER
    };
  }();
  return kLayers;
}

Result<ir::Graph> importCaffe(const std::string& prototxt, const std::string& caffemodel,
                              const CaffeImportOptions& opts) {
  ASC_TRY(caffe::NetParameter net, caffe_import::readPrototxt(prototxt));
  caffe_import::upgradeV1(net);
  caffe_import::Converter conv(net, opts);
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
  PrecheckReport r;
  r.model = fileStem(prototxt);
  std::unordered_set<std::string> names;
  for (const auto& l : net.layer()) {
    if (!caffe_import::inTestPhase(l)) continue;
    PrecheckOp op;
    op.name = l.name();
    op.type = l.type();
    if (!names.insert(l.name()).second) {
      op.cause = 9;
      op.message = "the layer name is used twice";
    } else if (!caffe_import::isLayerType(l.type())) {
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
