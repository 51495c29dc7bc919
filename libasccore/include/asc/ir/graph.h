// graph.h: the in-memory graph that every stage shares. A Graph owns its Values and Nodes; nodes
// are kept in a valid execution (topological) order. A Value is one tensor: a graph input, a
// constant (it has data) or a node output. Node op types use the ONNX names ("Conv"); the
// ops registry gives each its CANN type ("Conv2D") for the OM.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/attr.h"
#include "asc/ir/dtype.h"
#include "asc/ir/tensor.h"
#include "asc/support/status.h"

namespace asc::ir {

class Node;

class ASC_API Value {
 public:
  std::string name;
  DType dtype = DType::Undefined;
  Shape shape;
  std::string format = "ND";         // layout as the OM records it: NCHW, ND, NC1HWC0, ...
  std::shared_ptr<const Blob> data;  // set for constants
  // A constant may also carry a copy of its data already in the layout one CPU kernel reads
  // (atc packs it; docs/om-format.md, "Packed weights"). `packing` names that layout exactly
  // (cpu::packingOf); a kernel that wants the same layout reads `packed` in place, any other
  // reads `data`. An OM that stores only the packed copy gives `data` as a lazy Blob, made from
  // `packed` the first time it is read. Both empty for a plain constant.
  std::shared_ptr<const Blob> packed;
  std::string packing;
  Node* producer = nullptr;
  int producer_output = 0;

  bool isConstant() const { return data != nullptr; }
  /// A Tensor view of a constant's data (undefined for non-constants).
  Tensor tensor() const { return Tensor{dtype, shape, data}; }
  int64_t numel() const { return numElements(shape); }
  size_t byteSize() const { return static_cast<size_t>(numel()) * dtypeSize(dtype); }
};

class ASC_API Node {
 public:
  std::string name;
  std::string op_type;         // IR (ONNX) name, e.g. "Conv"
  std::vector<Value*> inputs;  // nullptr marks an omitted optional input
  std::vector<Value*> outputs;
  Attrs attrs;
  /// Source-model node names this node stands for (_datadump_original_op_names).
  std::vector<std::string> original_names;

  Value* input(size_t i) const { return i < inputs.size() ? inputs[i] : nullptr; }
  size_t numInputs() const { return inputs.size(); }
};

class ASC_API Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  std::string name;
  int opset = 13;  // default-domain opset of the source model
  /// Some shapes are known only at run time (a dynamic input dim, or a shape, axes or pads input
  /// that is no constant). Such a graph is kept as imported, not inferred: its intermediate
  /// values have no dtype or shape yet, and the runtime compiles it for the actual input shapes
  /// and values (runtime/dynamic.h). Graph inputs may then hold -1 dims.
  bool dynamic = false;
  std::vector<Value*> inputs;   // model inputs, in order
  std::vector<Value*> outputs;  // model outputs, in order

  /// Creates a value with a unique name (a suffix is added if `name` is taken).
  /// A deep copy: new nodes and values with the same names, types, edges and attributes
  /// (constant data is shared, as it is never written).
  Graph clone() const;

  Value* addValue(const std::string& name);
  Value* addConstant(const std::string& name, const Tensor& t);
  /// Appends a node (execution order = order of addition unless reordered).
  Node* addNode(const std::string& op_type, const std::string& name, std::vector<Value*> inputs,
                std::vector<Value*> outputs);
  Value* findValue(const std::string& name) const;
  Node* findNode(const std::string& name) const;

  const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }
  const std::vector<std::unique_ptr<Value>>& values() const { return values_; }
  /// Removes nodes for which `dead(node)` is true (their output values stay, unproduced).
  template <typename Pred>
  void removeNodesIf(Pred dead) {
    std::vector<std::unique_ptr<Node>> kept;
    for (auto& n : nodes_)
      if (!dead(*n))
        kept.push_back(std::move(n));
      else
        node_index_.erase(n->name);
    nodes_ = std::move(kept);
  }
  /// Drops values that are neither graph inputs/outputs nor used/produced by any node.
  void pruneValues();
  /// A node name not used yet, built from `base`.
  std::string uniqueNodeName(const std::string& base);
  /// Number of nodes consuming each value.
  std::unordered_map<const Value*, int> useCounts() const;
  /// The nodes consuming each value, in execution order.
  std::unordered_map<const Value*, std::vector<Node*>> users() const;
  /// Restores a valid execution order after a rewrite (stable: keeps the current order where
  /// it is already valid). E19999 if the graph has a cycle.
  Status topoSort();
  bool isGraphOutput(const Value* v) const;
  /// Exchanges the names of two values (keeps the name index consistent).
  void swapValueNames(Value* a, Value* b);

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Value>> values_;
  std::unordered_map<std::string, Value*> value_index_;
  std::unordered_map<std::string, Node*> node_index_;
};

/// Checks the structure: unique names, inputs produced before use, each value produced once,
/// outputs produced, known dtypes and non-negative dims. E19999 naming the first problem.
ASC_API Status verify(const Graph& g);
/// Readable text form of the graph (one line per node), for --dump-ir and tests.
ASC_API std::string printGraph(const Graph& g);
/// Structural equality (names, types, shapes, attrs, constant bytes); on a difference returns
/// false and describes it in *why.
ASC_API bool graphsEqual(const Graph& a, const Graph& b, std::string* why);

}  // namespace asc::ir
