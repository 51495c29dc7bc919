// tf_import_test.cpp: TensorFlow GraphDef import: NHWC handling around NCHW ops, SAME padding,
// folding of shape chains, input references, constants, and the errors hostile files get.
#include <catch2/catch.hpp>

#include <cstring>

#include "asc/frontend/tf.h"
#include "asc/ops/registry.h"
#include "tf_graph.pb.h"

using namespace asc;

namespace {

using tensorflow::AttrValue;
using tensorflow::GraphDef;
using tensorflow::NodeDef;

NodeDef* addNode(GraphDef& g, const std::string& name, const std::string& op,
                 std::vector<std::string> inputs = {}) {
  NodeDef* n = g.add_node();
  n->set_name(name);
  n->set_op(op);
  for (const auto& i : inputs) n->add_input(i);
  return n;
}

void setType(NodeDef* n, const char* key, tensorflow::DataType t) {
  (*n->mutable_attr())[key].set_type(t);
}
void setInts(NodeDef* n, const char* key, std::vector<int64_t> v) {
  auto* l = (*n->mutable_attr())[key].mutable_list();
  for (auto x : v) l->add_i(x);
}
void setStr(NodeDef* n, const char* key, const std::string& s) {
  (*n->mutable_attr())[key].set_s(s);
}

void placeholder(GraphDef& g, const std::string& name, std::vector<int64_t> shape) {
  NodeDef* n = addNode(g, name, "Placeholder");
  setType(n, "dtype", tensorflow::DT_FLOAT);
  auto* s = (*n->mutable_attr())["shape"].mutable_shape();
  for (auto d : shape) s->add_dim()->set_size(d);
}

// A float constant given by tensor_content (or float_val when `splat`).
NodeDef* floatConst(GraphDef& g, const std::string& name, std::vector<int64_t> shape,
                    std::vector<float> values, bool splat = false) {
  NodeDef* n = addNode(g, name, "Const");
  setType(n, "dtype", tensorflow::DT_FLOAT);
  auto* t = (*n->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(tensorflow::DT_FLOAT);
  for (auto d : shape) t->mutable_tensor_shape()->add_dim()->set_size(d);
  if (splat) {
    for (float v : values) t->add_float_val(v);
  } else {
    t->set_tensor_content(
        std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float)));
  }
  return n;
}

NodeDef* intConst(GraphDef& g, const std::string& name, std::vector<int32_t> values,
                  bool scalar = false) {
  NodeDef* n = addNode(g, name, "Const");
  setType(n, "dtype", tensorflow::DT_INT32);
  auto* t = (*n->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(tensorflow::DT_INT32);
  if (!scalar) t->mutable_tensor_shape()->add_dim()->set_size(static_cast<int64_t>(values.size()));
  for (auto v : values) t->add_int_val(v);
  return n;
}

Result<ir::Graph> import(const GraphDef& g, frontend::TfImportOptions opts = {}) {
  std::string bytes = g.SerializeAsString();
  return frontend::importTfBytes(bytes.data(), bytes.size(), opts);
}

int count(const ir::Graph& g, const std::string& op) {
  int n = 0;
  for (const auto& node : g.nodes()) n += node->op_type == op;
  return n;
}

const ir::Node* find(const ir::Graph& g, const std::string& op) {
  for (const auto& node : g.nodes())
    if (node->op_type == op) return node.get();
  return nullptr;
}

// x [1, 7, 8, 3] -> Conv2D 3x3 stride 2 SAME (3 -> 4) -> BiasAdd -> Relu6 -> depthwise 3x3.
GraphDef convChain() {
  GraphDef g;
  placeholder(g, "x", {1, 7, 8, 3});
  floatConst(g, "w", {3, 3, 3, 4}, std::vector<float>(108, 0.1f));
  NodeDef* conv = addNode(g, "conv", "Conv2D", {"x", "w"});
  setInts(conv, "strides", {1, 2, 2, 1});
  setStr(conv, "padding", "SAME");
  floatConst(g, "b", {4}, {1, 2, 3, 4});
  addNode(g, "bias", "BiasAdd", {"conv", "b"});
  addNode(g, "relu6", "Relu6", {"bias"});
  floatConst(g, "dw_w", {3, 3, 4, 1}, std::vector<float>(36, 0.5f));
  NodeDef* dw = addNode(g, "dw", "DepthwiseConv2dNative", {"relu6", "dw_w"});
  setInts(dw, "strides", {1, 1, 1, 1});
  setStr(dw, "padding", "VALID");
  return g;
}

}  // namespace

TEST_CASE("a Conv2D chain keeps NHWC at the model's edges and NCHW inside", "[tf][frontend]") {
  auto g = import(convChain());
  REQUIRE(g.isOk());
  REQUIRE(g->inputs.size() == 1);
  CHECK(g->inputs[0]->format == "NHWC");
  CHECK(g->inputs[0]->shape == ir::Shape{1, 7, 8, 3});
  REQUIRE(g->outputs.size() == 1);
  CHECK(g->outputs[0]->shape == ir::Shape{1, 2, 2, 4});  // NHWC, as TensorFlow gives it
  CHECK(g->outputs[0]->name == "dw:0");
  REQUIRE(count(*g, "Conv") == 2);
  const ir::Node* conv = find(*g, "Conv");
  CHECK(conv->original_names == std::vector<std::string>{"conv"});
  // SAME on 7x8 with stride 2: out 4x4, total pads 2 (rows) and 1 (cols), the odd one at the end.
  CHECK(conv->attrs.getInts("pads") == std::vector<int64_t>{1, 0, 1, 1});
  CHECK(conv->outputs[0]->shape == ir::Shape{1, 4, 4, 4});
  // BiasAdd and Relu6 run on the Conv's NCHW result, and the depthwise conv reads theirs.
  const ir::Node* add = find(*g, "Add");
  REQUIRE(add);
  CHECK(add->inputs[0] == conv->outputs[0]);
  const ir::Node* clip = find(*g, "Clip");
  REQUIRE(clip);
  CHECK(clip->inputs[0] == add->outputs[0]);
  CHECK(clip->attrs.getFloat("max", 0) == 6.0f);
  const ir::Node* dw = g->nodes()[0].get();
  for (const auto& n : g->nodes())
    if (n->op_type == "Conv" && n.get() != conv) dw = n.get();
  CHECK(dw->inputs[0] == clip->outputs[0]);
  CHECK(dw->attrs.getInt("group", 0) == 4);
  CHECK(dw->inputs[1]->shape == ir::Shape{4, 1, 3, 3});
  CHECK(dw->inputs[1]->isConstant());  // the filter's transpose and reshape folded
}

TEST_CASE("a Shape/StridedSlice/Pack chain folds into the Reshape", "[tf][frontend]") {
  GraphDef g;
  placeholder(g, "x", {-1, 4, 5});
  addNode(g, "shape", "Shape", {"x"});
  intConst(g, "begin", {0});
  intConst(g, "end", {1});
  intConst(g, "strides", {1});
  NodeDef* ss = addNode(g, "batch", "StridedSlice", {"shape", "begin", "end", "strides"});
  (*ss->mutable_attr())["shrink_axis_mask"].set_i(1);
  intConst(g, "minus1", {-1}, true);
  NodeDef* pack = addNode(g, "pack", "Pack", {"batch", "minus1", "^x"});
  (*pack->mutable_attr())["axis"].set_i(0);
  addNode(g, "reshape", "Reshape", {"x", "pack"});
  frontend::TfImportOptions o;
  o.input_shape = "x:3,4,5";
  auto r = import(g, o);
  REQUIRE(r.isOk());
  REQUIRE(r->nodes().size() == 1);
  CHECK(r->nodes()[0]->op_type == "Reshape");
  CHECK(r->outputs[0]->shape == ir::Shape{3, 20});
  CHECK(r->nodes()[0]->original_names == std::vector<std::string>{"reshape"});
}

TEST_CASE("'name:1' picks an output; control inputs are ignored", "[tf][frontend]") {
  GraphDef g;
  placeholder(g, "x", {2, 6});
  intConst(g, "axis", {1}, true);
  NodeDef* split = addNode(g, "split", "Split", {"axis", "x"});
  (*split->mutable_attr())["num_split"].set_i(3);
  addNode(g, "second", "Relu", {"split:1", "^split"});
  addNode(g, "third", "Neg", {"split:2"});
  auto r = import(g);
  REQUIRE(r.isOk());
  REQUIRE(r->outputs.size() == 2);
  const ir::Node* relu = find(*r, "Relu");
  REQUIRE(relu);
  const ir::Node* s = find(*r, "Split");
  REQUIRE(s);
  CHECK(relu->inputs[0] == s->outputs[1]);
  CHECK(find(*r, "Neg")->inputs[0] == s->outputs[2]);
}

TEST_CASE("a splat constant expands; a wrong tensor_content size is an error", "[tf][frontend]") {
  GraphDef g;
  placeholder(g, "x", {2, 3});
  floatConst(g, "c", {2, 3}, {0.5f}, true);
  addNode(g, "add", "Add", {"x", "c"});
  auto r = import(g);
  REQUIRE(r.isOk());
  const ir::Value* c = find(*r, "Add")->inputs[1];
  REQUIRE(c->isConstant());
  REQUIRE(c->data->size() == 6 * sizeof(float));
  for (int i = 0; i < 6; ++i) CHECK(c->data->as<float>()[i] == 0.5f);

  GraphDef bad;
  placeholder(bad, "x", {2, 3});
  floatConst(bad, "c", {2, 3}, {1, 2, 3, 4, 5});  // 5 of 6 values
  addNode(bad, "add", "Add", {"x", "c"});
  auto e = import(bad);
  REQUIRE(e.status().code() == ErrorCode::InvalidModel);
  CHECK(e.status().message().find("'c'") != std::string::npos);

  GraphDef huge;  // 2^40 floats from one value: refused, not allocated
  placeholder(huge, "x", {1});
  floatConst(huge, "c", {1 << 20, 1 << 20}, {1.0f}, true);
  addNode(huge, "add", "Add", {"x", "c"});
  CHECK_FALSE(import(huge).isOk());
}

TEST_CASE("an unknown op is E2002 naming node and type", "[tf][frontend]") {
  GraphDef g;
  placeholder(g, "x", {4});
  addNode(g, "strange", "Erfinv", {"x"});
  auto r = import(g);
  REQUIRE(r.status().code() == ErrorCode::UnsupportedOp);
  CHECK(r.status().message().find("'Erfinv'") != std::string::npos);
  CHECK(r.status().message().find("'strange'") != std::string::npos);
}

TEST_CASE("graph errors: unknown inputs, cycles, unknown dims, bad --input_shape",
          "[tf][frontend]") {
  GraphDef missing;
  placeholder(missing, "x", {4});
  addNode(missing, "y", "Relu", {"nowhere:0"});
  CHECK(import(missing).status().code() == ErrorCode::InvalidModel);

  GraphDef cycle;
  placeholder(cycle, "x", {4});
  addNode(cycle, "a", "Add", {"x", "b"});
  addNode(cycle, "b", "Relu", {"a"});
  auto c = import(cycle);
  REQUIRE_FALSE(c.isOk());
  CHECK(c.status().message().find("cycle") != std::string::npos);

  GraphDef unknown;
  placeholder(unknown, "x", {-1, 4});
  addNode(unknown, "y", "Relu", {"x"});
  CHECK(import(unknown).status().code() == ErrorCode::InputShapeMismatch);
  frontend::TfImportOptions o;
  o.input_shape = "y:1,4";
  CHECK(import(unknown, o).status().code() == ErrorCode::InputShapeMismatch);
  o.input_shape = "x:2,5";  // the model fixes dim 1 at 4
  CHECK(import(unknown, o).status().code() == ErrorCode::InputShapeMismatch);
  o.input_shape = "x:2,4";
  CHECK(import(unknown, o).isOk());

  GraphDef out_of_range;
  placeholder(out_of_range, "x", {4});
  addNode(out_of_range, "y", "Relu", {"x:3"});
  CHECK(import(out_of_range).status().code() == ErrorCode::InvalidModel);
}

TEST_CASE("every truncation of a GraphDef fails cleanly or imports", "[tf][frontend]") {
  const std::string bytes = convChain().SerializeAsString();
  REQUIRE(frontend::importTfBytes(bytes.data(), bytes.size()).isOk());
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto r = frontend::importTfBytes(bytes.data(), n);
    if (!r.isOk()) {
      const ErrorCode code = r.status().code();
      CHECK((code == ErrorCode::ModelParseFailed || code == ErrorCode::InvalidModel ||
             code == ErrorCode::InputShapeMismatch));
    }
  }
  // Flipped bytes: never a crash.
  for (size_t i = 0; i < bytes.size(); i += 7) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
    (void)frontend::importTfBytes(damaged.data(), damaged.size());
  }
}

TEST_CASE("the supported op list holds the issue's ops", "[tf][frontend]") {
  const auto ops = frontend::tfSupportedOps();
  for (const char* op : {"Placeholder",
                         "Const",
                         "Identity",
                         "NoOp",
                         "Conv2D",
                         "DepthwiseConv2dNative",
                         "Conv2DBackpropInput",
                         "BiasAdd",
                         "FusedBatchNorm",
                         "FusedBatchNormV3",
                         "Relu",
                         "Relu6",
                         "Elu",
                         "Sigmoid",
                         "Tanh",
                         "Softmax",
                         "MaxPool",
                         "AvgPool",
                         "MatMul",
                         "BatchMatMulV2",
                         "Add",
                         "AddV2",
                         "Sub",
                         "Mul",
                         "RealDiv",
                         "Maximum",
                         "Minimum",
                         "Rsqrt",
                         "Square",
                         "Mean",
                         "Sum",
                         "Max",
                         "Reshape",
                         "Squeeze",
                         "ExpandDims",
                         "ConcatV2",
                         "Pack",
                         "Pad",
                         "PadV2",
                         "MirrorPad",
                         "Transpose",
                         "StridedSlice",
                         "Slice",
                         "Split",
                         "Cast",
                         "ResizeBilinear",
                         "ResizeNearestNeighbor",
                         "Shape"})
    CHECK(std::binary_search(ops.begin(), ops.end(), std::string(op)));
}

TEST_CASE("every TensorFlow op's IR ops are registered ops", "[tf]") {
  // Each op is declared once, with its converter (frontend/tf): what it says it writes must
  // exist, and the list atc --mode=3 reads is the same table.
  REQUIRE(frontend::tfOps().size() == frontend::tfSupportedOps().size());
  for (const auto& o : frontend::tfOps()) {
    INFO(o.type);
    CHECK_FALSE(o.shown.empty());
    for (const std::string& op : o.ir_ops) {
      INFO(op);
      CHECK(ops::lookup(op) != nullptr);
    }
  }
}
