// caffe_converter.h: the Caffe layer converter shared by caffe_importer.cpp (the net: inputs,
// blobs, weights, outputs, the BatchNorm+Scale merge) and caffe_layers.cpp (one function per
// layer type). Private to the Caffe frontend.
#pragma once

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "asc/frontend/caffe.h"
#include "asc/ops/registry.h"
#include "asc/support/log.h"
#include "caffe_model.h"

namespace asc::frontend::caffe_import {

/// E16001 "Caffe layer 'name' (Type): msg".
Status invalid(const caffe::LayerParameter& l, const std::string& msg);
/// E10055 for a parameter value asc-tools does not convert.
Status unsupported(const caffe::LayerParameter& l, const std::string& msg);
/// A Caffe axis (negative counts from the end) normalized against rank r; E16001 out of range.
Result<int64_t> caffeAxis(const caffe::LayerParameter& l, int64_t axis, int64_t r,
                          const char* what = "axis");

/// The layer types Converter::convertLayer takes (caffe_layers.def), the one list the pre-check
/// (atc --mode=3), the dispatch and the docs read: a type missing from it is E11009 in both.
const std::vector<std::string>& layerTypes();
bool isLayerType(const std::string& type);

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
    layer_tops_.insert(v);
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
    const bool writes_top = std::any_of(
        outs.begin(), outs.end(), [&](const ir::Value* v) { return layer_tops_.count(v) != 0; });
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

  // ---- layers: one method per line of caffe_layers.def ----
  struct Entry;  // a line of caffe_layers.def with its method (caffe_importer.cpp)
  static const Entry* entry(const std::string& type);
#define CAFFE_LAYER(Type, Method, Tops, Weights, Ops, Shown, Notes) \
  Status Method(const caffe::LayerParameter& l);
#include "caffe_layers.def"
#undef CAFFE_LAYER
  // helpers the methods share
  Status addInput(const std::string& name, ir::Shape shape);
  Status convolutionLike(const caffe::LayerParameter& l, bool deconv);
  Status scale(const caffe::LayerParameter& l, bool bias_only);
  Status lrnWithinChannel(const caffe::LayerParameter& l);
  Status power(const caffe::LayerParameter& l, float power, float scale, float shift);
  Status expLog(const caffe::LayerParameter& l, bool is_log);
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
  std::unordered_set<const ir::Value*> layer_tops_;  // the tops of the layer being converted
};

}  // namespace asc::frontend::caffe_import
