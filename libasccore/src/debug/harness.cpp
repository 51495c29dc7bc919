// harness.cpp: see harness.h.
#include "debug/harness.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <random>

#include "asc/compare/metrics.h"
#include "asc/compiler/compile.h"
#include "asc/frontend/onnx.h"
#include "asc/runtime/session.h"
#include "asc/tensorio/tensor_file.h"

namespace asc::debug::detail {
namespace {

ir::Tensor ownedTensor(ir::DType dtype, const ir::Shape& shape, const void* data, size_t bytes) {
  return ir::Tensor{dtype, shape, ir::Blob::copyOf(data, bytes)};
}

// Captures every value a step completes (a session with memory reuse off keeps them all).
class Capture : public runtime::StepObserver {
 public:
  explicit Capture(Values* out) : out_(out) {}
  Status status;
  void onStep(const runtime::Session& s, const runtime::StepEvent& e) override {
    if (!e.completes) return;
    for (const ir::Node* n : *e.completes)
      for (const ir::Value* v : n->outputs) {
        if (!v || out_->count(v->name)) continue;
        std::vector<uint8_t> buf(v->byteSize());
        Status st = s.readValue(v, buf.data());
        if (!st) {
          if (status.isOk()) status = st;
          continue;
        }
        (*out_)[v->name] = ir::Tensor{v->dtype, v->shape, ir::Blob::fromVector(std::move(buf))};
      }
  }

 private:
  Values* out_;
};

}  // namespace

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
double msSince(int64_t start_ns) { return static_cast<double>(nowNs() - start_ns) / 1e6; }

Result<std::vector<ir::Tensor>> readInputs(const ir::Graph& g, const DebugOptions& o) {
  std::vector<ir::Tensor> out;
  if (!o.inputs.empty() && o.inputs.size() != g.inputs.size()) {
    std::vector<std::string> names;
    for (auto* v : g.inputs) names.push_back(v->name);
    return Status::error(ErrorCode::InputShapeMismatch,
                         "--input gives {} files, the model has {} inputs ({}); give one .npy per "
                         "input, comma-separated, in this order",
                         o.inputs.size(), g.inputs.size(), fmt::join(names, ", "));
  }
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const ir::Value* v = g.inputs[i];
    if (!o.inputs.empty()) {
      ASC_TRY(auto lt, tensorio::readTensorFile(o.inputs[i]));
      if (!lt.has_dtype)
        return Status::error(ErrorCode::InputShapeMismatch,
                             "--input '{}' is no .npy file; give the inputs as .npy (numpy.save)",
                             o.inputs[i]);
      if (lt.tensor.dtype != v->dtype || lt.tensor.shape != v->shape)
        return Status::error(ErrorCode::InputShapeMismatch,
                             "--input '{}' holds {} [{}], model input '{}' takes {} [{}]; give "
                             "one .npy per input with the input's dtype and shape",
                             o.inputs[i], ir::dtypeName(lt.tensor.dtype),
                             ir::shapeToString(lt.tensor.shape), v->name, ir::dtypeName(v->dtype),
                             ir::shapeToString(v->shape));
      out.push_back(ownedTensor(v->dtype, v->shape, lt.tensor.data->data(), lt.tensor.byteSize()));
      continue;
    }
    // msame --random_input's values: a generator per input (seed + index).
    std::mt19937 rng(static_cast<uint32_t>(o.seed) + static_cast<uint32_t>(i));
    std::uniform_real_distribution<float> uf(-1.f, 1.f);
    std::uniform_int_distribution<int> ui(0, 9);
    const size_t n = static_cast<size_t>(v->numel());
    std::vector<uint8_t> buf(v->byteSize());
    for (size_t k = 0; k < n; ++k) {
      if (v->dtype == ir::DType::F32) {
        reinterpret_cast<float*>(buf.data())[k] = uf(rng);
      } else if (v->dtype == ir::DType::F64) {
        reinterpret_cast<double*>(buf.data())[k] = uf(rng);
      } else if (v->dtype == ir::DType::Bool) {
        buf[k] = static_cast<uint8_t>(ui(rng) & 1);
      } else if (ir::isInteger(v->dtype)) {
        const int64_t x = ui(rng);
        std::memcpy(buf.data() + k * ir::dtypeSize(v->dtype), &x, ir::dtypeSize(v->dtype));
      } else {
        return Status::error(ErrorCode::NotImplemented,
                             "model input '{}' is {}; random inputs are made for float, integer "
                             "and bool inputs only: give --input",
                             v->name, ir::dtypeName(v->dtype));
      }
    }
    out.push_back(ir::Tensor{v->dtype, v->shape, ir::Blob::fromVector(std::move(buf))});
  }
  return out;
}

Result<Model> openModel(const DebugOptions& o) {
  if (!(o.target_cosine > 0 && o.target_cosine <= 1))
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --target_cosine is invalid. Reason: a cosine "
                         "similarity target lies in (0, 1], e.g. 0.999",
                         o.target_cosine);
  const std::string& m = o.precision_mode;
  if (m != "force_fp16" && m != "allow_fp32_to_fp16" && m != "allow_mix_precision")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --precision_mode is invalid. Reason: the search "
                         "looks for nodes to keep in fp32, so the mode must put some in fp16: "
                         "force_fp16, allow_fp32_to_fp16 or allow_mix_precision",
                         m);
  Model model;
  ASC_TRY(model.graph, frontend::importOnnx(o.model));
  if (model.graph.dynamic)
    return Status::error(ErrorCode::NotImplemented,
                         "'{}' has shapes known only at run time; precision debugging needs a "
                         "static model: fix the input shapes when exporting",
                         o.model);
  ASC_TRY(model.inputs, readInputs(model.graph, o));
  return model;
}

Result<ir::Graph> compileUnder(const ir::Graph& g, const DebugOptions& o,
                               const std::set<std::string>& keep) {
  CompileOptions c;
  c.soc_version = o.soc_version;
  c.precision.mode = o.precision_mode;
  c.precision.keep_fp32 = keep;
  c.pack_weights = false;
  ASC_TRY(auto compiled, compileGraph(g.clone(), c));
  return std::move(compiled.graph);
}

Result<std::vector<ir::Tensor>> runGraph(ir::Graph g, const std::vector<ir::Tensor>& inputs,
                                         int threads, Values* values) {
  runtime::SessionOptions so;
  so.threads = threads;
  so.verify = om::Verify::Skip;
  so.reuse_memory = values == nullptr;
  Capture capture(values);
  if (values) so.observer = &capture;
  if (values)
    for (size_t i = 0; i < g.inputs.size() && i < inputs.size(); ++i)
      (*values)[g.inputs[i]->name] = inputs[i];
  ASC_TRY(auto session, runtime::Session::fromGraph(std::move(g), so));
  for (size_t i = 0; i < inputs.size(); ++i)
    ASC_RETURN_IF_ERROR(session->setInput(i, inputs[i].data->data(), inputs[i].byteSize()));
  ASC_RETURN_IF_ERROR(session->run());
  ASC_RETURN_IF_ERROR(capture.status);
  std::vector<ir::Tensor> outs;
  for (size_t i = 0; i < session->outputs().size(); ++i) {
    const auto& info = session->outputs()[i];
    outs.push_back(ownedTensor(info.dtype, info.shape, session->outputData(i), info.bytes));
  }
  return outs;
}

double cosine(const ir::Tensor& mine, const ir::Tensor& golden) {
  if (mine.numel() != golden.numel()) return 0;
  compare::CompareOptions co;
  co.metrics = {compare::Metric::CosineSimilarity};
  co.threads = 1;
  auto view = [](const ir::Tensor& t) {
    compare::TensorView v;
    v.dtype = t.dtype;
    v.data = t.data ? t.data->data() : nullptr;
    v.count = static_cast<uint64_t>(t.numel());
    return v;
  };
  auto r = compare::compareTensors(view(mine), view(golden), co);
  if (!r) return 0;
  // Infinities or NaN on one side only never pass (a one-element tensor's cosine is 1 whatever
  // its value, as msaccucmp defines it, so this is what tells inf from a number there).
  if (r->my.nan + r->my.pos_inf + r->my.neg_inf !=
      r->golden.nan + r->golden.pos_inf + r->golden.neg_inf)
    return 0;
  const double c = r->value[static_cast<int>(compare::Metric::CosineSimilarity)];
  return std::isnan(c) ? 0 : c;
}

std::vector<double> cosines(const std::vector<ir::Tensor>& mine,
                            const std::vector<ir::Tensor>& golden, double* min_cosine) {
  std::vector<double> out;
  double lo = 1;
  for (size_t i = 0; i < golden.size(); ++i) {
    out.push_back(i < mine.size() ? cosine(mine[i], golden[i]) : 0);
    lo = std::min(lo, out.back());
  }
  if (min_cosine) *min_cosine = lo;
  return out;
}

}  // namespace asc::debug::detail
