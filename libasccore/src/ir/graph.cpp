// graph.cpp: graph construction, the verifier, the text printer and structural comparison.
#include "asc/ir/graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_set>

namespace asc::ir {

Value* Graph::addValue(const std::string& name) {
  std::string n = name;
  for (int i = 1; value_index_.count(n); ++i) n = fmt::format("{}_{}", name, i);
  values_.push_back(std::make_unique<Value>());
  Value* v = values_.back().get();
  v->name = n;
  value_index_[n] = v;
  return v;
}

Value* Graph::addConstant(const std::string& name, const Tensor& t) {
  Value* v = addValue(name);
  v->dtype = t.dtype;
  v->shape = t.shape;
  v->data = t.data;
  return v;
}

Graph Graph::clone() const {
  Graph c;
  c.name = name;
  c.opset = opset;
  c.dynamic = dynamic;
  std::unordered_map<const Value*, Value*> map;
  for (const auto& v : values_) {
    Value* n = c.addValue(v->name);
    n->dtype = v->dtype;
    n->shape = v->shape;
    n->format = v->format;
    n->data = v->data;  // constant data is immutable and shared
    n->packed = v->packed;
    n->packing = v->packing;
    map[v.get()] = n;
  }
  auto mapped = [&](const std::vector<Value*>& vs) {
    std::vector<Value*> out;
    for (Value* v : vs) out.push_back(v ? map.at(v) : nullptr);
    return out;
  };
  for (const auto& n : nodes_) {
    Node* m = c.addNode(n->op_type, n->name, mapped(n->inputs), mapped(n->outputs));
    m->attrs = n->attrs;
    m->original_names = n->original_names;
  }
  c.inputs = mapped(inputs);
  c.outputs = mapped(outputs);
  return c;
}

std::string Graph::uniqueNodeName(const std::string& base) {
  std::string n = base;
  for (int i = 1; node_index_.count(n); ++i) n = fmt::format("{}_{}", base, i);
  return n;
}

Node* Graph::addNode(const std::string& op_type, const std::string& name, std::vector<Value*> ins,
                     std::vector<Value*> outs) {
  nodes_.push_back(std::make_unique<Node>());
  Node* n = nodes_.back().get();
  n->op_type = op_type;
  n->name = uniqueNodeName(name.empty() ? op_type : name);
  n->inputs = std::move(ins);
  n->outputs = std::move(outs);
  for (size_t i = 0; i < n->outputs.size(); ++i) {
    if (!n->outputs[i]) continue;
    n->outputs[i]->producer = n;
    n->outputs[i]->producer_output = static_cast<int>(i);
  }
  node_index_[n->name] = n;
  return n;
}

Value* Graph::findValue(const std::string& name) const {
  auto it = value_index_.find(name);
  return it == value_index_.end() ? nullptr : it->second;
}

Node* Graph::findNode(const std::string& name) const {
  auto it = node_index_.find(name);
  return it == node_index_.end() ? nullptr : it->second;
}

std::unordered_map<const Value*, int> Graph::useCounts() const {
  std::unordered_map<const Value*, int> uses;
  for (const auto& n : nodes_)
    for (auto* v : n->inputs)
      if (v) ++uses[v];
  return uses;
}

std::unordered_map<const Value*, std::vector<Node*>> Graph::users() const {
  std::unordered_map<const Value*, std::vector<Node*>> u;
  for (const auto& n : nodes_)
    for (auto* v : n->inputs)
      if (v && (u[v].empty() || u[v].back() != n.get())) u[v].push_back(n.get());
  return u;
}

void Graph::swapValueNames(Value* a, Value* b) {
  std::swap(a->name, b->name);
  value_index_[a->name] = a;
  value_index_[b->name] = b;
}

bool Graph::isGraphOutput(const Value* v) const {
  return std::find(outputs.begin(), outputs.end(), v) != outputs.end();
}

Status Graph::topoSort() {
  const size_t n = nodes_.size();
  std::unordered_map<const Node*, size_t> index;
  for (size_t i = 0; i < n; ++i) index[nodes_[i].get()] = i;
  std::vector<int> missing(n, 0);
  std::vector<std::vector<size_t>> succ(n);
  for (size_t i = 0; i < n; ++i)
    for (auto* v : nodes_[i]->inputs) {
      if (!v || !v->producer) continue;
      auto it = index.find(v->producer);
      if (it == index.end()) continue;
      ++missing[i];
      succ[it->second].push_back(i);
    }
  std::vector<size_t> ready;
  for (size_t i = 0; i < n; ++i)
    if (missing[i] == 0) ready.push_back(i);
  std::make_heap(ready.begin(), ready.end(), std::greater<size_t>());
  std::vector<std::unique_ptr<Node>> sorted;
  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), std::greater<size_t>());
    size_t i = ready.back();
    ready.pop_back();
    for (size_t s : succ[i])
      if (--missing[s] == 0) {
        ready.push_back(s);
        std::push_heap(ready.begin(), ready.end(), std::greater<size_t>());
      }
    sorted.push_back(std::move(nodes_[i]));
  }
  if (sorted.size() != n) {
    for (auto& p : nodes_)
      if (p) sorted.push_back(std::move(p));
    nodes_ = std::move(sorted);
    return Status::error(ErrorCode::Internal, "the graph has a cycle after a rewrite");
  }
  nodes_ = std::move(sorted);
  return Status::ok();
}

void Graph::pruneValues() {
  std::unordered_set<const Value*> live(inputs.begin(), inputs.end());
  live.insert(outputs.begin(), outputs.end());
  for (const auto& n : nodes_) {
    for (auto* v : n->inputs) live.insert(v);
    for (auto* v : n->outputs) live.insert(v);
  }
  std::vector<std::unique_ptr<Value>> kept;
  for (auto& v : values_) {
    if (live.count(v.get())) {
      kept.push_back(std::move(v));
    } else {
      value_index_.erase(v->name);
    }
  }
  values_ = std::move(kept);
}

Status verify(const Graph& g) {
  std::unordered_set<const Value*> available;
  std::unordered_set<std::string> names;
  auto bad = [](const std::string& what) {
    return Status::error(ErrorCode::Internal, "graph verifier: {}", what);
  };
  for (auto* v : g.inputs) {
    if (!v) return bad("null graph input");
    available.insert(v);
  }
  for (const auto& v : g.values())
    if (v->isConstant()) {
      if (v->data->size() != v->byteSize())
        return bad(fmt::format("constant '{}' holds {} bytes, its shape needs {}", v->name,
                               v->data->size(), v->byteSize()));
      available.insert(v.get());
    }
  for (const auto& n : g.nodes()) {
    if (!names.insert(n->name).second) return bad(fmt::format("node name '{}' repeats", n->name));
    for (size_t i = 0; i < n->inputs.size(); ++i) {
      const Value* v = n->inputs[i];
      if (v && !available.count(v))
        return bad(fmt::format("node '{}' input {} ('{}') is used before it is produced", n->name,
                               i, v->name));
    }
    for (auto* v : n->outputs) {
      if (!v) return bad(fmt::format("node '{}' has a null output", n->name));
      if (v->producer != n.get())
        return bad(fmt::format("value '{}' has the wrong producer", v->name));
      if (!available.insert(v).second)
        return bad(fmt::format("value '{}' is produced twice", v->name));
      if (g.dynamic) continue;  // inferred at run time
      if (v->dtype == DType::Undefined)
        return bad(fmt::format("value '{}' of node '{}' has no dtype", v->name, n->name));
      for (auto d : v->shape)
        if (d < 0) return bad(fmt::format("value '{}' has a negative dim", v->name));
    }
  }
  for (auto* v : g.outputs)
    if (!v || !available.count(v))
      return bad(fmt::format("graph output '{}' is never produced", v ? v->name : "?"));
  return Status::ok();
}

namespace {
std::string attrToString(const AttrValue& a) {
  struct V {
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(float f) const { return fmt::format("{}", f); }
    std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
    std::string operator()(const std::vector<int64_t>& v) const {
      return fmt::format("[{}]", fmt::join(v, ","));
    }
    std::string operator()(const std::vector<float>& v) const {
      return fmt::format("[{}]", fmt::join(v, ","));
    }
    std::string operator()(const std::vector<std::string>& v) const {
      return fmt::format("[{}]", fmt::join(v, ","));
    }
    std::string operator()(const Tensor& t) const {
      return fmt::format("tensor<{}x{}>", dtypeName(t.dtype), shapeToString(t.shape));
    }
  };
  return std::visit(V{}, a);
}
std::string valueToString(const Value* v) {
  if (!v) return "<none>";
  return fmt::format("%{}:{}[{}]{}", v->name, dtypeName(v->dtype), shapeToString(v->shape),
                     v->isConstant() ? "=const" : "");
}
}  // namespace

std::string printGraph(const Graph& g) {
  std::string out = fmt::format("graph {} (opset {})\n", g.name, g.opset);
  for (auto* v : g.inputs) out += "  input " + valueToString(v) + "\n";
  for (const auto& n : g.nodes()) {
    std::vector<std::string> ins, outs, attrs;
    for (auto* v : n->inputs) ins.push_back(valueToString(v));
    for (auto* v : n->outputs) outs.push_back(valueToString(v));
    for (const auto& [k, a] : n->attrs.all()) attrs.push_back(k + "=" + attrToString(a));
    out += fmt::format("  {} = {}[{}]({}) {{{}}}\n", fmt::join(outs, ", "), n->op_type, n->name,
                       fmt::join(ins, ", "), fmt::join(attrs, ", "));
  }
  for (auto* v : g.outputs) out += "  output " + valueToString(v) + "\n";
  return out;
}

namespace {
bool valueEq(const Value* a, const Value* b, std::string* why) {
  if (!a || !b) {
    if (a != b) *why = "one side has an omitted input";
    return a == b;
  }
  if (a->name != b->name || a->dtype != b->dtype || a->shape != b->shape) {
    *why = fmt::format("value {} vs {}", valueToString(a), valueToString(b));
    return false;
  }
  if (a->isConstant() != b->isConstant()) {
    *why = fmt::format("value '{}' is constant on one side only", a->name);
    return false;
  }
  if (a->isConstant() && (a->data->size() != b->data->size() ||
                          std::memcmp(a->data->data(), b->data->data(), a->data->size()) != 0)) {
    *why = fmt::format("constant '{}' differs in its bytes", a->name);
    return false;
  }
  return true;
}
}  // namespace

bool graphsEqual(const Graph& a, const Graph& b, std::string* why) {
  std::string dummy;
  if (!why) why = &dummy;
  if (a.inputs.size() != b.inputs.size() || a.outputs.size() != b.outputs.size()) {
    *why = "different numbers of graph inputs or outputs";
    return false;
  }
  for (size_t i = 0; i < a.inputs.size(); ++i)
    if (!valueEq(a.inputs[i], b.inputs[i], why)) return false;
  for (size_t i = 0; i < a.outputs.size(); ++i)
    if (!valueEq(a.outputs[i], b.outputs[i], why)) return false;
  if (a.nodes().size() != b.nodes().size()) {
    *why = fmt::format("{} nodes vs {}", a.nodes().size(), b.nodes().size());
    return false;
  }
  for (size_t i = 0; i < a.nodes().size(); ++i) {
    const Node& x = *a.nodes()[i];
    const Node& y = *b.nodes()[i];
    if (x.name != y.name || x.op_type != y.op_type) {
      *why = fmt::format("node {} {}({}) vs {}({})", i, x.op_type, x.name, y.op_type, y.name);
      return false;
    }
    if (x.inputs.size() != y.inputs.size() || x.outputs.size() != y.outputs.size()) {
      *why = fmt::format("node '{}' has different input/output counts", x.name);
      return false;
    }
    for (size_t k = 0; k < x.inputs.size(); ++k)
      if (!valueEq(x.inputs[k], y.inputs[k], why)) return false;
    for (size_t k = 0; k < x.outputs.size(); ++k)
      if (!valueEq(x.outputs[k], y.outputs[k], why)) return false;
    if (!(x.attrs == y.attrs)) {
      *why = fmt::format("node '{}' attributes differ", x.name);
      return false;
    }
    if (x.original_names != y.original_names) {
      *why = fmt::format("node '{}' original names differ", x.name);
      return false;
    }
  }
  return true;
}

}  // namespace asc::ir
