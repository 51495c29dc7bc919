// tf_convert.h: the state of one GraphDef -> ir::Graph conversion, shared by the op converters
// (tf_ops_nn.cpp, tf_ops_shape.cpp, tf_ops_more.cpp). Protobuf types stay inside src/frontend/tf.
//
// Layout. A TensorFlow tensor is kept as TensorFlow computes it (TfValue::v). Ops the runtime
// computes in NCHW (Conv, pooling, BatchNorm, Resize) read an NHWC input through a Transpose
// made once per tensor and cached (TfValue::nchw), and give their result in NCHW; element-wise
// ops, BiasAdd, Pad, Concat and reductions whose inputs have an NCHW form compute in NCHW too,
// so a chain Conv -> BiasAdd -> Relu6 -> DepthwiseConv stays in NCHW. Every NCHW result also
// gets its NHWC Transpose at once (named after the TensorFlow node, so --out_nodes and dumps find
// the tensor in TensorFlow's layout); the transposes nobody reads are removed by the
// eliminate-dead pass.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "asc/frontend/tf.h"
#include "asc/ir/graph.h"
#include "asc/ops/registry.h"
#include "tf_graph.pb.h"

namespace asc::frontend::tf {

/// One output of a TensorFlow node.
struct TfValue {
  ir::Value* v = nullptr;     // as TensorFlow computes it
  ir::Value* nchw = nullptr;  // for a 4-D NHWC tensor: the same data in NCHW, when made
};

/// TensorFlow DataType number -> DType (Undefined when asc-tools has no such type).
ir::DType dtypeFromTf(int tf_type);
/// "DT_FLOAT", ... for messages.
std::string tfTypeName(int tf_type);
/// A TensorProto's value. `owner` keeps tensor_content alive (no copy). E16001 naming `what`.
Result<ir::Tensor> tensorFromTf(const tensorflow::TensorProto& t, const std::string& what,
                                const std::shared_ptr<const void>& owner);

class Converter;
using OpConverter = Status (*)(Converter&);
/// A TensorFlow op type's one declaration: its converter (nullptr for Placeholder, Const and
/// NoOp, which the importer handles itself), the IR ops it may write (a unit test checks they
/// are registered) and its row of docs/tensorflow.md (`shown` ops, `notes`; atc
/// --list_tf_ops, scripts/gen_docs.sh).
struct OpEntry {
  OpConverter convert = nullptr;
  const char* ir_ops = "";
  const char* shown = "";
  const char* notes = "";
};
using OpTable = std::map<std::string, OpEntry>;
/// The converter of a TensorFlow op type, or nullptr.
OpConverter findConverter(const std::string& op);
/// Every declared op type, sorted, with its entry.
const OpTable& opTable();
void addNnConverters(OpTable& table);
void addShapeConverters(OpTable& table);
void addMoreConverters(OpTable& table);

class Converter {
 public:
  Converter(ir::Graph& g, std::shared_ptr<const tensorflow::GraphDef> def, bool fold);

  // --- the node being converted -----------------------------------------------------------
  void begin(const tensorflow::NodeDef& n);
  const tensorflow::NodeDef& node() const { return *node_; }
  const std::string& name() const { return node_->name(); }
  const std::string& op() const { return node_->op(); }
  const std::shared_ptr<const tensorflow::GraphDef>& owner() const { return def_; }

  // Attributes (TensorFlow's defaults are passed by the caller).
  const tensorflow::AttrValue* attr(const char* key) const;
  int64_t intAttr(const char* key, int64_t def) const;
  float floatAttr(const char* key, float def) const;
  bool boolAttr(const char* key, bool def) const;
  std::string strAttr(const char* key, const std::string& def) const;
  std::vector<int64_t> intsAttr(const char* key) const;
  /// A type attribute as DType; E16001 when absent or not supported.
  Result<ir::DType> typeAttr(const char* key) const;

  // Inputs: the data inputs ("^name" control inputs are skipped), resolved to values.
  size_t numInputs() const { return inputs_.size(); }
  /// E16001 when the node has fewer than `n` data inputs.
  Status needInputs(size_t n) const;
  TfValue& in(size_t i) { return *inputs_.at(i); }
  ir::Value* x(size_t i) { return inputs_.at(i)->v; }
  /// Input i in NCHW (a 4-D NHWC tensor; the Transpose is made once and cached).
  Result<ir::Value*> nchw(size_t i);
  /// Input i, which must be a constant (a frozen graph's weights and shape arguments).
  Result<ir::Tensor> constIn(size_t i);
  Result<std::vector<int64_t>> constInts(size_t i);

  // --- building ---------------------------------------------------------------------------
  /// Adds an IR node for the current TensorFlow node (named after it, with `suffix` for helper
  /// nodes), infers it at once and folds it when its inputs are constants.
  Result<ir::Node*> emit(const std::string& op_type, std::vector<ir::Value*> inputs,
                         ir::Attrs attrs = {}, size_t outputs = 1, const std::string& suffix = "");
  /// emit() of a one-output node, returning the output.
  Result<ir::Value*> emit1(const std::string& op_type, std::vector<ir::Value*> inputs,
                           ir::Attrs attrs = {}, const std::string& suffix = "");
  Result<ir::Value*> transpose(ir::Value* v, std::vector<int64_t> perm, const std::string& suffix);
  Result<ir::Value*> reshape(ir::Value* v, std::vector<int64_t> shape, const std::string& suffix);
  ir::Value* constant(const ir::Tensor& t, const std::string& suffix);
  ir::Value* constInts64(const std::vector<int64_t>& v, const std::string& suffix);

  /// `v` as an operand of an op computed in NCHW next to a 4-D NCHW tensor: its NCHW form, a
  /// rank-0..4 constant rearranged (broadcast dims moved as NHWC -> NCHW), a scalar as it is,
  /// or a 4-D tensor transposed. nullptr when it cannot be (a non-constant of rank 1..3).
  Result<ir::Value*> nchwOperand(TfValue& t);

  // Outputs of the current node.
  void setOut(size_t i, TfValue t);
  void setOut(size_t i, ir::Value* v) { setOut(i, TfValue{v, nullptr}); }
  /// An output computed in NCHW: its NHWC Transpose is made now (it is what TensorFlow sees).
  Status setOutNchw(size_t i, ir::Value* nchw);

  // --- used by the importer ---------------------------------------------------------------
  /// Resolves the current node's inputs to TfValues. E16001 for an unknown name or index.
  Status bindInputs();
  std::vector<TfValue>& outputsOf(const std::string& node) { return outputs_[node]; }
  bool hasOutputs(const std::string& node) const { return outputs_.count(node) != 0; }
  /// Removes the nodes that folded into constants.
  void dropFolded();

  /// E16001 "node 'n' (Op): ...".
  template <typename... Args>
  Status fail(fmt::format_string<Args...> f, Args&&... args) const {
    return Status::error(ErrorCode::InvalidModel, "node '{}' ({}): {}", name(), op(),
                         fmt::format(f, std::forward<Args>(args)...));
  }
  /// E10055: a valid graph uses an attribute value asc-tools does not support.
  template <typename... Args>
  Status unsupported(fmt::format_string<Args...> f, Args&&... args) const {
    return Status::error(ErrorCode::NotImplemented, "node '{}' ({}): {}", name(), op(),
                         fmt::format(f, std::forward<Args>(args)...));
  }

 private:
  ir::Graph& g_;
  std::shared_ptr<const tensorflow::GraphDef> def_;
  ops::InferOptions infer_;
  const tensorflow::NodeDef* node_ = nullptr;
  std::vector<TfValue*> inputs_;
  std::unordered_map<std::string, std::vector<TfValue>> outputs_;
  std::unordered_set<const ir::Node*> folded_;
};

/// The NHWC axis `a` (0..3) of a 4-D tensor as an NCHW axis.
inline int64_t nhwcAxisToNchw(int64_t a) {
  static const int64_t map[4] = {0, 2, 3, 1};
  return map[a];
}

}  // namespace asc::frontend::tf
