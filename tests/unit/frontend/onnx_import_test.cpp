// onnx_import_test.cpp: ONNX import: initializers (inline and external), shape overrides,
// folding of shape chains, and the errors users see.
#include <catch2/catch.hpp>

#include "asc/frontend/onnx.h"

using namespace asc;

namespace {
std::string data(const char* name) { return std::string(ASC_TEST_DATA) + "/" + name; }
}  // namespace

TEST_CASE("a small conv model imports with shapes and weights", "[frontend]") {
  auto g = frontend::importOnnx(data("tiny_conv.onnx"));
  REQUIRE(g.isOk());
  REQUIRE(g->nodes().size() == 2);
  CHECK(g->nodes()[0]->op_type == "Conv");
  CHECK(g->nodes()[0]->original_names == std::vector<std::string>{"conv1"});
  CHECK(g->inputs[0]->shape == ir::Shape{1, 3, 8, 8});
  CHECK(g->inputs[0]->format == "NCHW");
  CHECK(g->outputs[0]->shape == ir::Shape{1, 4, 8, 8});
  const ir::Value* w = g->nodes()[0]->inputs[1];
  REQUIRE(w->isConstant());
  CHECK(w->data->size() == 4 * 3 * 3 * 3 * 4);
}

TEST_CASE("an op used before the opset it exists from is E2002", "[frontend]") {
  auto r = frontend::importOnnx(data("layernorm_opset13.onnx"));
  REQUIRE(r.status().code() == ErrorCode::UnsupportedOp);
  CHECK(r.status().message().find("opset 17") != std::string::npos);
  CHECK(r.status().message().find("'ln'") != std::string::npos);
}

TEST_CASE("external data gives the same weights as inline data", "[frontend]") {
  auto a = frontend::importOnnx(data("tiny_conv.onnx"));
  auto b = frontend::importOnnx(data("tiny_external.onnx"));
  REQUIRE(a.isOk());
  REQUIRE(b.isOk());
  std::string why;
  CHECK(ir::graphsEqual(*a, *b, &why));
  INFO(why);
}

TEST_CASE("the PyTorch shape chain folds into a constant reshape", "[frontend]") {
  auto g = frontend::importOnnx(data("shape_chain.onnx"));
  REQUIRE(g.isOk());
  REQUIRE(g->nodes().size() == 2);
  CHECK(g->nodes()[0]->op_type == "Reshape");
  CHECK(g->nodes()[0]->outputs[0]->shape == ir::Shape{2, 48});
  CHECK(g->outputs[0]->shape == ir::Shape{2, 10});
}

TEST_CASE("input_shape option parsing", "[frontend]") {
  auto m = frontend::parseInputShapes("input:1,3,224,224;x:0:2,5");
  REQUIRE(m.isOk());
  CHECK(m->at("input") == ir::Shape{1, 3, 224, 224});
  CHECK(m->at("x:0") == ir::Shape{2, 5});  // TF-style names keep their ':'
  CHECK(frontend::parseInputShapes("scalar:")->at("scalar").empty());
  CHECK(frontend::parseInputShapes("").isOk());
  CHECK(frontend::parseInputShapes("input").status().code() == ErrorCode::InputShapeFormat);
  CHECK(frontend::parseInputShapes("a:1,b").status().code() == ErrorCode::InputShapeFormat);
  CHECK(frontend::parseInputShapes("a:1,").status().code() == ErrorCode::InputShapeFormat);
  CHECK(frontend::parseInputShapes("a:1;a:2").status().code() == ErrorCode::InputShapeFormat);
}

TEST_CASE("input shape errors are E1001 and name the input", "[frontend]") {
  frontend::OnnxImportOptions o;
  o.input_shape = "input:1,3,8";
  auto r = frontend::importOnnx(data("tiny_conv.onnx"), o);
  REQUIRE(r.status().code() == ErrorCode::InputShapeMismatch);
  CHECK(r.status().message().find("'input'") != std::string::npos);
  o.input_shape = "input:1,-3,8,8";
  CHECK(frontend::importOnnx(data("tiny_conv.onnx"), o).status().code() ==
        ErrorCode::InputShapeMismatch);
  o.input_shape = "nope:1";
  CHECK(frontend::importOnnx(data("tiny_conv.onnx"), o).status().code() ==
        ErrorCode::InputShapeMismatch);
  auto dyn = frontend::importOnnx(data("dynamic_batch.onnx"));
  CHECK(dyn.status().code() == ErrorCode::InputShapeMismatch);
  o.input_shape = "x:2,3,4,4";
  auto fixed = frontend::importOnnx(data("dynamic_batch.onnx"), o);
  REQUIRE(fixed.isOk());
  CHECK(fixed->outputs[0]->shape == ir::Shape{2, 3, 4, 4});
}

TEST_CASE("a bigger input shape propagates through the graph", "[frontend]") {
  frontend::OnnxImportOptions o;
  o.input_shape = "input:2,3,16,16";
  auto g = frontend::importOnnx(data("tiny_conv.onnx"), o);
  REQUIRE(g.isOk());
  CHECK(g->outputs[0]->shape == ir::Shape{2, 4, 16, 16});
}

TEST_CASE("bad files give clear errors", "[frontend]") {
  CHECK(frontend::importOnnx(data("not_a_model.onnx")).status().code() ==
        ErrorCode::ModelParseFailed);
  CHECK(frontend::importOnnx(data("missing.onnx")).status().code() == ErrorCode::FileOpenFailed);
  auto u = frontend::importOnnx(data("unsupported_op.onnx"));
  REQUIRE(u.status().code() == ErrorCode::UnsupportedOp);
  CHECK(u.status().message().find("Loop") != std::string::npos);
  CHECK(u.status().message().find("uq_3") != std::string::npos);
  // Truncated protobuf bytes never crash.
  auto f = frontend::importOnnx(data("tiny_conv.onnx"));
  REQUIRE(f.isOk());
  std::string bytes;
  {
    FILE* fp = std::fopen(data("tiny_conv.onnx").c_str(), "rb");
    REQUIRE(fp);
    char buf[4096];
    size_t n = std::fread(buf, 1, sizeof(buf), fp);
    std::fclose(fp);
    bytes.assign(buf, n);
  }
  for (size_t cut = 0; cut < bytes.size(); cut += 7) {
    auto r = frontend::importOnnxBytes(bytes.data(), cut, ASC_TEST_DATA);
    CHECK_FALSE(r.isOk());
  }
}
