// dynamic.cpp: DynamicModel (see dynamic.h).
#include "runtime/dynamic.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <unordered_set>

#include "asc/support/log.h"
#include "runtime/session_internal.h"

namespace asc::runtime {
namespace {

// Plans kept per model: a model whose shapes follow data (NonZero, a Range's limit) could
// otherwise grow without bound; the oldest plan goes first.
constexpr size_t kMaxPlans = 64;

std::string shapesKey(const std::vector<ir::Shape>& shapes) {
  std::string key;
  for (const auto& s : shapes) key += ir::shapeToString(s) + ";";
  return key;
}

bool known(const ir::Shape& s) {
  return std::none_of(s.begin(), s.end(), [](int64_t d) { return d < 0; });
}

// Removes the nodes no graph output depends on, then the values nothing uses.
void removeDeadNodes(ir::Graph& g) {
  std::unordered_set<const ir::Value*> needed(g.outputs.begin(), g.outputs.end());
  std::unordered_set<const ir::Node*> live;
  for (auto it = g.nodes().rbegin(); it != g.nodes().rend(); ++it) {
    const ir::Node* n = it->get();
    if (std::none_of(n->outputs.begin(), n->outputs.end(),
                     [&](const ir::Value* v) { return needed.count(v) != 0; }))
      continue;
    live.insert(n);
    for (const ir::Value* in : n->inputs)
      if (in) needed.insert(in);
  }
  g.removeNodesIf([&](const ir::Node& n) { return live.count(&n) == 0; });
  g.pruneValues();
}

}  // namespace

Result<std::unique_ptr<DynamicModel>> DynamicModel::create(ir::Graph raw, om::DynamicShapes dyn,
                                                           ShapeSettings settings,
                                                           const SessionOptions& opts,
                                                           std::string model_name,
                                                           std::string soc) {
  std::unique_ptr<DynamicModel> m(new DynamicModel());
  m->raw_ = std::move(raw);
  m->dyn_ = std::move(dyn);
  m->opts_ = opts;
  m->model_name_ = std::move(model_name);
  m->soc_ = std::move(soc);
  m->compiler_ = shapeCompiler();
  if (!m->compiler_)
    return Status::error(ErrorCode::Internal,
                         "model '{}' has dynamic shapes and no compiler is installed to compile "
                         "it per shape (the compiler module of libasccore installs one)",
                         m->model_name_);
  m->settings_ = std::move(settings);
  ASC_RETURN_IF_ERROR(m->compiler_->check(m->settings_));
  if (!m->dyn_.ranges.empty() && m->dyn_.ranges.size() != m->raw_.inputs.size())
    return Status::error(ErrorCode::ModelLoadFailed,
                         "the model records ranges for {} inputs; it has {} inputs",
                         m->dyn_.ranges.size(), m->raw_.inputs.size());
  for (size_t i = 0; i < m->raw_.inputs.size(); ++i) {
    const ir::Value* v = m->raw_.inputs[i];
    TensorInfo t;
    t.name = v->name;
    t.dtype = v->dtype;
    t.shape = v->shape;
    t.bytes = known(v->shape) ? v->byteSize() : 0;
    if (!m->dyn_.ranges.empty() && m->dyn_.ranges[i].size() != v->shape.size())
      return Status::error(ErrorCode::ModelLoadFailed,
                           "the model records a range of {} dims for input '{}' of {} dims",
                           m->dyn_.ranges[i].size(), v->name, v->shape.size());
    m->inputs_.push_back(t);
    m->input_data_.emplace_back(t.bytes, 0);
  }
  for (const ir::Value* v : m->raw_.outputs) {
    TensorInfo t;
    t.name = v->name;
    t.dtype = v->dtype;
    m->declared_outputs_.push_back(t);
  }
  // Each profile is compiled once, now: switching between them later rebuilds nothing. They run
  // one at a time, so they share one arena, sized by the largest (compiled first).
  m->opts_.shared_arena = std::make_shared<SharedArena>();
  std::vector<size_t> order(m->dyn_.gears.size());
  std::iota(order.begin(), order.end(), 0);
  auto elements = [&](size_t k) {
    int64_t n = 0;
    for (const auto& s : m->dyn_.gears[k]) n += ir::numElements(s);
    return n;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return elements(a) > elements(b); });
  std::vector<TensorInfo> largest = m->declared_outputs_;
  bool all_known = !m->dyn_.gears.empty();
  for (size_t k : order) {
    const auto& gear = m->dyn_.gears[k];
    std::string needs;
    auto s = m->compile(gear, {}, &needs);
    if (!s && needs.empty())
      return s.status().withContext(fmt::format("profile {} ({})", k + 1, shapesKey(gear)));
    if (!s) {  // a value computed at run time decides more: compiled when it is known
      all_known = false;
      continue;
    }
    for (size_t i = 0; i < (*s)->outputs().size() && i < largest.size(); ++i)
      if ((*s)->outputs()[i].bytes > largest[i].bytes) largest[i] = (*s)->outputs()[i];
    const std::string key = shapesKey(gear) + "|";
    m->plan_order_.push_back(key);
    m->plans_[key] = std::move(*s);
    m->recipes_[shapesKey(gear)];
    ++m->compiled_;
  }
  m->largest_outputs_ = all_known ? std::move(largest) : m->declared_outputs_;
  return m;
}

const std::vector<TensorInfo>& DynamicModel::outputs() const {
  return current_ ? current_->outputs() : declared_outputs_;
}

Status DynamicModel::setInputShape(size_t i, const ir::Shape& shape) {
  if (i >= inputs_.size())
    return Status::error(ErrorCode::InputShapeMismatch, "the model has {} inputs, not {}",
                         inputs_.size(), i + 1);
  const ir::Shape& decl = raw_.inputs[i]->shape;
  const std::string& name = inputs_[i].name;
  if (shape.size() != decl.size())
    return Status::error(
        ErrorCode::InputShapeMismatch, "input '{}' has {} dims [{}], the shape given has {} [{}]",
        name, decl.size(), ir::shapeToString(decl), shape.size(), ir::shapeToString(shape));
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0)
      return Status::error(ErrorCode::InputShapeMismatch,
                           "input '{}': dim {} is {}; give a size of 0 or more", name, d, shape[d]);
    if (decl[d] >= 0 && shape[d] != decl[d])
      return Status::error(ErrorCode::InputShapeMismatch,
                           "input '{}' [{}]: dim {} is fixed at {}, the shape given [{}] has {}",
                           name, ir::shapeToString(decl), d, decl[d], ir::shapeToString(shape),
                           shape[d]);
    if (!dyn_.ranges.empty()) {
      const om::DimRange& r = dyn_.ranges[i][d];
      if (shape[d] < r.min || (r.max >= 0 && shape[d] > r.max))
        return Status::error(ErrorCode::InputShapeMismatch,
                             "input '{}': dim {} is {}, outside the range {}~{} the model was "
                             "compiled for ({})",
                             name, d, shape[d], r.min,
                             r.max < 0 ? std::string("unbounded") : std::to_string(r.max),
                             om::rangesToString({dyn_.ranges[i]}));
    }
  }
  uint64_t bytes = 0;
  if (!ir::checkedByteSize(shape, inputs_[i].dtype, &bytes))
    return Status::error(ErrorCode::InputShapeMismatch, "input '{}' [{}]: {}", name,
                         ir::shapeToString(shape), ir::shapeLimitReason(shape, inputs_[i].dtype));
  inputs_[i].shape = shape;
  inputs_[i].bytes = bytes;
  input_data_[i].assign(bytes, 0);
  return Status::ok();
}

Status DynamicModel::setInput(size_t i, const void* data, size_t bytes) {
  if (i >= inputs_.size())
    return Status::error(ErrorCode::InputShapeMismatch, "the model has {} inputs, not {}",
                         inputs_.size(), i + 1);
  const TensorInfo& info = inputs_[i];
  if (!known(info.shape))
    return Status::error(ErrorCode::InputShapeMismatch,
                         "input {} ('{}') has dynamic dims [{}]: set its shape first (msame: "
                         "--dymBatch, --dymHW, --dymDims or --dymShape, or an .npy input)",
                         i, info.name, ir::shapeToString(info.shape));
  if (bytes != info.bytes)
    return Status::error(ErrorCode::InputShapeMismatch,
                         "input {} ('{}') needs {} bytes ({} [{}]), the data has {} bytes", i,
                         info.name, info.bytes, ir::dtypeName(info.dtype),
                         ir::shapeToString(info.shape), bytes);
  if (bytes) std::memcpy(input_data_[i].data(), data, bytes);
  return Status::ok();
}

void DynamicModel::zeroInputs() {
  for (auto& d : input_data_) std::fill(d.begin(), d.end(), 0);
}

void DynamicModel::setObserver(StepObserver* observer) {
  opts_.observer = observer;
  for (auto& [key, s] : plans_) s->setObserver(observer);
}

// The profiles as a user gives them: the values of the dynamic dims ("1, 2, 4, 8" for batches,
// "224,224; 448,448" for image sizes), or whole shapes when no dim is dynamic.
std::string DynamicModel::describeProfiles() const {
  std::vector<std::string> items;
  for (const auto& gear : dyn_.gears) {
    std::vector<int64_t> values;
    for (size_t i = 0; i < gear.size() && i < raw_.inputs.size(); ++i)
      for (size_t d = 0; d < gear[i].size() && d < raw_.inputs[i]->shape.size(); ++d)
        if (raw_.inputs[i]->shape[d] < 0) values.push_back(gear[i][d]);
    if (dyn_.kind == "batch" && !values.empty()) values.resize(1);  // every input's N is the same
    if (dyn_.kind == "image_size" && values.size() > 2) values.resize(2);
    if (!values.empty()) {
      items.push_back(fmt::format("{}", fmt::join(values, ",")));
      continue;
    }
    std::vector<std::string> shapes;
    for (const auto& s : gear) shapes.push_back("[" + ir::shapeToString(s) + "]");
    items.push_back(fmt::format("{}", fmt::join(shapes, " ")));
  }
  return fmt::format("{}", fmt::join(items, dyn_.kind == "batch" ? ", " : "; "));
}

Status DynamicModel::checkProfile(const std::vector<ir::Shape>& shapes) const {
  if (dyn_.gears.empty()) return Status::ok();
  for (const auto& gear : dyn_.gears)
    if (gear == shapes) return Status::ok();
  std::vector<std::string> given;
  for (const auto& s : shapes) given.push_back("[" + ir::shapeToString(s) + "]");
  const char* what = dyn_.kind == "batch"        ? "batch sizes"
                     : dyn_.kind == "image_size" ? "image sizes (h,w)"
                                                 : "dims profiles";
  return Status::error(ErrorCode::InputShapeMismatch,
                       "the input shapes {} are not one of the model's {} profiles; the {} it "
                       "was compiled for are: {}",
                       fmt::join(given, " "), dyn_.gears.size(), what, describeProfiles());
}

Result<std::unique_ptr<Session>> DynamicModel::compile(const std::vector<ir::Shape>& shapes,
                                                       const std::vector<Bound>& bound,
                                                       std::string* needs) {
  needs->clear();
  ir::Graph g = raw_.clone();
  g.dynamic = false;
  for (size_t i = 0; i < g.inputs.size() && i < shapes.size(); ++i) g.inputs[i]->shape = shapes[i];
  std::unordered_set<const ir::Value*> bound_inputs;
  for (const Bound& b : bound) {
    ir::Value* v = g.findValue(b.name);
    if (!v)
      return Status::error(ErrorCode::Internal, "run-time value '{}' is not in the graph", b.name);
    if (ir::Node* producer = v->producer) {  // the graph no longer computes it
      ir::Value* unused = g.addValue(v->name + ":bound");
      unused->producer = producer;
      unused->producer_output = v->producer_output;
      producer->outputs[v->producer_output] = unused;
      v->producer = nullptr;
    }
    v->dtype = b.dtype;
    v->shape = b.shape;
    v->data = b.data;
    if (std::count(g.inputs.begin(), g.inputs.end(), v)) bound_inputs.insert(v);
  }
  g.inputs.erase(std::remove_if(g.inputs.begin(), g.inputs.end(),
                                [&](const ir::Value* v) { return bound_inputs.count(v) != 0; }),
                 g.inputs.end());
  removeDeadNodes(g);

  if (Status st = compiler_->compile(g, settings_, needs); !st) {
    if (!needs->empty() && !raw_.findValue(*needs)) needs->clear();  // not one the model binds
    return st;
  }
  ASC_LOG_INFO("dynamic model '{}': compiled for input shapes {} ({} nodes)", model_name_,
               shapesKey(shapes), g.nodes().size());
  ASC_TRY(auto s, Session::fromGraph(std::move(g), opts_));
  setTraceModel(*s, model_name_, soc_);
  return s;
}

Result<DynamicModel::Bound> DynamicModel::evaluate(const std::string& name) {
  const ir::Value* v = raw_.findValue(name);
  if (!v)
    return Status::error(ErrorCode::Internal, "run-time value '{}' is not in the graph", name);
  Bound b;
  b.name = name;
  for (size_t i = 0; i < raw_.inputs.size(); ++i)
    if (raw_.inputs[i] == v) {
      b.dtype = inputs_[i].dtype;
      b.shape = inputs_[i].shape;
      b.data = ir::Blob::copyOf(input_data_[i].data(), input_data_[i].size());
      return b;
    }
  // A value computed inside the graph: run the part of the graph that computes it.
  auto& prefix = prefixes_[name];
  if (!prefix) {
    ir::Graph p = raw_.clone();
    p.outputs = {p.findValue(name)};
    removeDeadNodes(p);
    auto uses = p.useCounts();
    p.inputs.erase(
        std::remove_if(p.inputs.begin(), p.inputs.end(),
                       [&](const ir::Value* in) { return uses[in] == 0 && !p.isGraphOutput(in); }),
        p.inputs.end());
    p.pruneValues();
    // The prefix computes a value exactly: no precision change, clean-ups only.
    ASC_TRY(prefix, create(std::move(p), {}, {{"level", {"O1"}}}, opts_, model_name_, soc_));
  }
  for (size_t k = 0; k < prefix->inputs().size(); ++k) {
    size_t i = 0;
    while (i < inputs_.size() && inputs_[i].name != prefix->inputs()[k].name) ++i;
    if (i == inputs_.size())
      return Status::error(ErrorCode::Internal, "prefix input '{}' is no model input",
                           prefix->inputs()[k].name);
    ASC_RETURN_IF_ERROR(prefix->setInputShape(k, inputs_[i].shape));
    ASC_RETURN_IF_ERROR(prefix->setInput(k, input_data_[i].data(), input_data_[i].size()));
  }
  ASC_RETURN_IF_ERROR(prefix->run());
  const TensorInfo& out = prefix->outputs().at(0);
  b.dtype = out.dtype;
  b.shape = out.shape;
  b.data = ir::Blob::copyOf(prefix->current()->outputData(0), out.bytes);
  return b;
}

Status DynamicModel::run() {
  std::vector<ir::Shape> shapes;
  for (const TensorInfo& in : inputs_) {
    if (!known(in.shape))
      return Status::error(ErrorCode::InputShapeMismatch,
                           "input '{}' has dynamic dims [{}]: set its shape first (msame: "
                           "--dymBatch, --dymHW, --dymDims or --dymShape, or an .npy input)",
                           in.name, ir::shapeToString(in.shape));
    shapes.push_back(in.shape);
  }
  ASC_RETURN_IF_ERROR(checkProfile(shapes));
  const std::string skey = shapesKey(shapes);
  std::vector<std::string>& recipe = recipes_[skey];
  std::vector<Bound> bound;
  for (const std::string& name : recipe) {
    ASC_TRY(Bound b, evaluate(name));
    bound.push_back(std::move(b));
  }
  for (;;) {
    std::string key = skey + "|";
    for (const Bound& b : bound) {
      key += b.name + ":" + ir::dtypeName(b.dtype) + "[" + ir::shapeToString(b.shape) + "]=";
      key.append(reinterpret_cast<const char*>(b.data->data()), b.data->size());
      key += '|';
    }
    Session* s = nullptr;
    if (auto it = plans_.find(key); it != plans_.end()) {
      s = it->second.get();
    } else {
      std::string needs;
      auto r = compile(shapes, bound, &needs);
      if (!r) {
        const bool again = std::any_of(bound.begin(), bound.end(),
                                       [&](const Bound& b) { return b.name == needs; });
        if (needs.empty() || again || recipe.size() >= raw_.values().size()) return r.status();
        ASC_LOG_INFO("dynamic model '{}': '{}' is needed as a value at run time", model_name_,
                     needs);
        recipe.push_back(needs);
        ASC_TRY(Bound b, evaluate(needs));
        bound.push_back(std::move(b));
        continue;
      }
      if (plans_.size() >= kMaxPlans) {
        if (plans_[plan_order_.front()].get() == current_) current_ = nullptr;
        plans_.erase(plan_order_.front());
        plan_order_.pop_front();
      }
      s = r->get();
      plans_[key] = std::move(*r);
      plan_order_.push_back(key);
      ++compiled_;
    }
    for (size_t j = 0; j < s->inputs().size(); ++j) {
      const TensorInfo& want = s->inputs()[j];
      size_t i = 0;
      while (i < inputs_.size() && inputs_[i].name != want.name) ++i;
      if (i == inputs_.size())
        return Status::error(ErrorCode::Internal, "compiled input '{}' is no model input",
                             want.name);
      ASC_RETURN_IF_ERROR(s->setInput(j, input_data_[i].data(), input_data_[i].size()));
    }
    current_ = s;
    return s->run();
  }
}

}  // namespace asc::runtime
