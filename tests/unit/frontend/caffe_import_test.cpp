// caffe_import_test.cpp: the Caffe importer (importCaffe): layer mapping and names, the V1 form,
// Caffe's pooling rounding, BatchNorm+Scale merging, --input_shape, and the errors of bad files
// (syntax, missing or mismatched weights, unknown layers, hostile sizes).
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <string>

#include <unistd.h>

#include "asc/frontend/caffe.h"
#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "caffe.pb.h"
#include "frontend/caffe/caffe_converter.h"

using namespace asc;

namespace {

// Per process: CTest runs each test case as a process of its own, two at once, and several
// cases write files of the same name.
std::string tmpPath(const std::string& name) {
  const std::string d = ASC_TEST_TMP "/caffe_import-" + std::to_string(getpid());
  REQUIRE(makeDirs(d).isOk());
  return d + "/" + name;
}

std::string writeText(const std::string& name, const std::string& text) {
  const std::string p = tmpPath(name);
  std::ofstream(p) << text;
  return p;
}

// A blob of `shape` filled with 0.01 * (i + 1).
void addBlob(caffe::LayerParameter* l, const std::vector<int64_t>& shape) {
  auto* b = l->add_blobs();
  int64_t n = 1;
  for (auto d : shape) {
    b->mutable_shape()->add_dim(d);
    n *= d;
  }
  for (int64_t i = 0; i < n; ++i) b->add_data(0.01f * static_cast<float>(i % 17 + 1));
}

std::string writeModel(const std::string& name, const caffe::NetParameter& net) {
  const std::string p = tmpPath(name);
  std::ofstream f(p, std::ios::binary);
  net.SerializeToOstream(&f);
  return p;
}

caffe::LayerParameter* layer(caffe::NetParameter& net, const std::string& name) {
  auto* l = net.add_layer();
  l->set_name(name);
  return l;
}

const char* kSmallNet = R"(name: "small"
layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 2 dim: 6 dim: 6 } } }
layer { name: "conv" type: "Convolution" bottom: "data" top: "conv"
        convolution_param { num_output: 4 kernel_size: 3 pad: 1 } }
layer { name: "bn" type: "BatchNorm" bottom: "conv" top: "conv" }
layer { name: "sc" type: "Scale" bottom: "conv" top: "conv" scale_param { bias_term: true } }
layer { name: "relu" type: "ReLU" bottom: "conv" top: "conv" }
layer { name: "pool" type: "Pooling" bottom: "conv" top: "pool"
        pooling_param { pool: MAX kernel_size: 3 stride: 2 } }
layer { name: "fc" type: "InnerProduct" bottom: "pool" top: "fc" inner_product_param { num_output: 3 } }
layer { name: "prob" type: "Softmax" bottom: "fc" top: "prob" }
)";

caffe::NetParameter smallWeights() {
  caffe::NetParameter w;
  auto* conv = layer(w, "conv");
  addBlob(conv, {4, 2, 3, 3});
  addBlob(conv, {4});
  auto* bn = layer(w, "bn");
  addBlob(bn, {4});
  addBlob(bn, {4});
  addBlob(bn, {1});
  auto* sc = layer(w, "sc");
  addBlob(sc, {4});
  addBlob(sc, {4});
  auto* fc = layer(w, "fc");
  addBlob(fc, {3, 4 * 3 * 3});  // pool: ceil((6 - 3) / 2) + 1 = 3
  addBlob(fc, {3});
  return w;
}

const ir::Node* nodeNamed(const ir::Graph& g, const std::string& name) { return g.findNode(name); }

}  // namespace

TEST_CASE("Caffe import maps layers onto IR ops and keeps the layer names", "[caffe]") {
  const auto proto = writeText("small.prototxt", kSmallNet);
  const auto model = writeModel("small.caffemodel", smallWeights());
  auto g = frontend::importCaffe(proto, model);
  REQUIRE(g.isOk());
  REQUIRE(g->inputs.size() == 1);
  CHECK(g->inputs[0]->shape == ir::Shape{1, 2, 6, 6});
  REQUIRE(g->outputs.size() == 1);
  CHECK(g->outputs[0]->shape == ir::Shape{1, 3});
  CHECK(g->outputs[0]->name == "prob");
  const ir::Node* conv = nodeNamed(*g, "conv");
  REQUIRE(conv);
  CHECK(conv->op_type == "Conv");
  CHECK(conv->attrs.getInts("pads") == std::vector<int64_t>{1, 1, 1, 1});
  // BatchNorm + Scale: one BatchNormalization naming both layers.
  const ir::Node* bn = nodeNamed(*g, "bn");
  REQUIRE(bn);
  CHECK(bn->op_type == "BatchNormalization");
  CHECK(bn->original_names == std::vector<std::string>{"bn", "sc"});
  CHECK(!nodeNamed(*g, "sc"));
  // Caffe's ceil rounding: 6 -> 3 with kernel 3, stride 2.
  const ir::Node* pool = nodeNamed(*g, "pool");
  REQUIRE(pool);
  CHECK(pool->op_type == "MaxPool");
  CHECK(pool->outputs[0]->shape == ir::Shape{1, 4, 3, 3});
  CHECK(nodeNamed(*g, "fc")->op_type == "Gemm");
  CHECK(nodeNamed(*g, "relu")->original_names == std::vector<std::string>{"relu"});
}

TEST_CASE("Caffe import takes --input_shape overrides", "[caffe]") {
  const auto proto = writeText("small.prototxt", kSmallNet);
  const auto model = writeModel("small.caffemodel", smallWeights());
  frontend::CaffeImportOptions o;
  o.input_shape = "data:3,2,6,6";
  auto g = frontend::importCaffe(proto, model, o);
  REQUIRE(g.isOk());
  CHECK(g->outputs[0]->shape == ir::Shape{3, 3});
  o.input_shape = "image:1,2,6,6";
  CHECK(frontend::importCaffe(proto, model, o).status().code() == ErrorCode::InputShapeMismatch);
  o.input_shape = "data:1,2,6";
  CHECK(frontend::importCaffe(proto, model, o).status().code() == ErrorCode::InputShapeMismatch);
}

TEST_CASE("Caffe import reads the V1 form with input_dim", "[caffe]") {
  const auto proto = writeText("v1.prototxt", R"(name: "v1"
input: "data"
input_dim: 1 input_dim: 3 input_dim: 4 input_dim: 4
layers { name: "conv" type: CONVOLUTION bottom: "data" top: "conv"
         convolution_param { num_output: 2 kernel_size: 1 bias_term: false } }
layers { name: "relu" type: RELU bottom: "conv" top: "conv" relu_param { negative_slope: 0.2 } }
layers { name: "pool" type: POOLING bottom: "conv" top: "pool"
         pooling_param { pool: AVE global_pooling: true } }
)");
  caffe::NetParameter w;
  auto* conv = w.add_layers();
  conv->set_name("conv");
  conv->set_type(caffe::V1LayerParameter::CONVOLUTION);
  auto* b = conv->add_blobs();  // the old 4-D blob form
  b->set_num(2);
  b->set_channels(3);
  b->set_height(1);
  b->set_width(1);
  for (int i = 0; i < 6; ++i) b->add_data(0.5f);
  auto g = frontend::importCaffe(proto, writeModel("v1.caffemodel", w));
  REQUIRE(g.isOk());
  CHECK(nodeNamed(*g, "conv")->op_type == "Conv");
  CHECK(nodeNamed(*g, "relu")->op_type == "LeakyRelu");
  CHECK(nodeNamed(*g, "pool")->op_type == "GlobalAveragePool");
  CHECK(g->outputs[0]->shape == ir::Shape{1, 2, 1, 1});
}

TEST_CASE("Caffe AVE pooling with padding and ceil overflow pads explicitly", "[caffe]") {
  const auto proto = writeText("ave.prototxt", R"(
layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 1 dim: 8 dim: 8 } } }
layer { name: "pool" type: "Pooling" bottom: "data" top: "pool"
        pooling_param { pool: AVE kernel_size: 3 stride: 2 pad: 1 } }
layer { name: "pool2" type: "Pooling" bottom: "data" top: "pool2"
        pooling_param { pool: MAX kernel_size: 3 stride: 2 round_mode: FLOOR } }
)");
  auto g = frontend::importCaffe(proto, "");
  REQUIRE(g.isOk());
  REQUIRE(g->outputs.size() == 2);
  CHECK(g->outputs[0]->shape == ir::Shape{1, 1, 5, 5});  // ceil((8 + 2 - 3) / 2) + 1
  CHECK(g->outputs[1]->shape == ir::Shape{1, 1, 3, 3});  // floor((8 - 3) / 2) + 1
  bool has_pad = false;
  for (const auto& n : g->nodes()) has_pad |= n->op_type == "Pad";
  CHECK(has_pad);
}

TEST_CASE("Caffe import errors name the file, line and layer", "[caffe]") {
  const auto model = writeModel("small.caffemodel", smallWeights());
  SECTION("syntax error") {
    std::string text = kSmallNet;
    text.replace(text.find("bottom: \"fc\""), 12, "bottom \"fc\"");
    auto g = frontend::importCaffe(writeText("syntax.prototxt", text), model);
    CHECK(g.status().code() == ErrorCode::TextProtoParseFailed);
    INFO(g.status().message());
    CHECK(g.status().message().find("line 11, column 45") != std::string::npos);
  }
  SECTION("unknown layer") {
    std::string text = kSmallNet;
    text.replace(text.find("\"ReLU\""), 6, "\"Mish\"");
    auto g = frontend::importCaffe(writeText("unknown.prototxt", text), model);
    CHECK(g.status().code() == ErrorCode::UnsupportedOp);
    CHECK(g.status().message().find("E11009") != std::string::npos);
    CHECK(g.status().message().find("'relu'") != std::string::npos);
    CHECK(g.status().message().find("'Mish'") != std::string::npos);
  }
  SECTION("missing weights") {
    caffe::NetParameter w = smallWeights();
    w.mutable_layer()->RemoveLast();  // fc
    auto g = frontend::importCaffe(writeText("small.prototxt", kSmallNet),
                                   writeModel("nofc.caffemodel", w));
    CHECK(g.status().code() == ErrorCode::InvalidModel);
    CHECK(g.status().message().find("'fc'") != std::string::npos);
    CHECK(g.status().message().find("has no weights") != std::string::npos);
  }
  SECTION("weights of the wrong size, or declared larger than held") {
    caffe::NetParameter w = smallWeights();
    w.mutable_layer(0)->mutable_blobs(0)->mutable_shape()->set_dim(0, 5);
    auto g = frontend::importCaffe(writeText("small.prototxt", kSmallNet),
                                   writeModel("bad.caffemodel", w));
    CHECK(g.status().code() == ErrorCode::InvalidModel);
    CHECK(g.status().message().find("does not match") != std::string::npos);
    w = smallWeights();
    w.mutable_layer(0)->mutable_blobs(1)->clear_data();
    g = frontend::importCaffe(writeText("small.prototxt", kSmallNet),
                              writeModel("empty.caffemodel", w));
    CHECK(g.status().code() == ErrorCode::InvalidModel);
  }
  SECTION("weights on a layer that takes none") {
    caffe::NetParameter w = smallWeights();
    addBlob(layer(w, "relu"), {4});
    auto g = frontend::importCaffe(writeText("small.prototxt", kSmallNet),
                                   writeModel("relu.caffemodel", w));
    CHECK(g.status().code() == ErrorCode::InvalidModel);
    CHECK(g.status().message().find("'relu'") != std::string::npos);
  }
  SECTION("hostile sizes") {
    caffe::NetParameter w = smallWeights();
    auto* s = w.mutable_layer(0)->mutable_blobs(0)->mutable_shape();
    s->set_dim(0, int64_t{1} << 40);
    auto g = frontend::importCaffe(writeText("small.prototxt", kSmallNet),
                                   writeModel("huge.caffemodel", w));
    CHECK(g.status().code() == ErrorCode::InvalidModel);
    std::string text = kSmallNet;
    text.replace(text.find("kernel_size: 3 pad"), 14, "kernel_size: 0");
    g = frontend::importCaffe(writeText("k0.prototxt", text), model);
    CHECK(!g.isOk());
    text = kSmallNet;
    text.replace(text.find("dim: 6 dim: 6"), 13, "dim: -6 dim: 6");
    g = frontend::importCaffe(writeText("neg.prototxt", text), model);
    CHECK(g.status().code() == ErrorCode::InputShapeMismatch);
  }
  SECTION("not a caffemodel") {
    auto g = frontend::importCaffe(writeText("small.prototxt", kSmallNet),
                                   writeText("junk.caffemodel", "\xff\xff\xff junk"));
    CHECK(g.status().code() == ErrorCode::ModelParseFailed);
  }
  SECTION("missing file") {
    auto g = frontend::importCaffe(tmpPath("no_such.prototxt"), model);
    CHECK(g.status().code() == ErrorCode::FileOpenFailed);
  }
}

TEST_CASE("Caffe prototxt renders as JSON and pre-checks", "[caffe]") {
  const auto proto = writeText("small.prototxt", kSmallNet);
  auto json = frontend::caffePrototxtToJson(proto);
  REQUIRE(json.isOk());
  CHECK(json->find("\"convolution_param\"") != std::string::npos);
  std::string text = kSmallNet;
  text.replace(text.find("\"ReLU\""), 6, "\"Mish\"");
  auto r = frontend::precheckCaffe(writeText("unknown.prototxt", text), "");
  REQUIRE(r.isOk());
  CHECK(r->failed() == 1);
}

TEST_CASE("Caffe PriorBox becomes a constant of SSD's default boxes", "[caffe]") {
  const auto proto = writeText("prior.prototxt", R"(
layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 3 dim: 8 dim: 8 } } }
layer { name: "zeros" type: "Input" top: "zeros" input_param { shape { dim: 1 dim: 2 dim: 64 } } }
layer { name: "pool" type: "Pooling" bottom: "data" top: "pool" pooling_param { pool: MAX kernel_size: 4 stride: 4 } }
layer { name: "pb" type: "PriorBox" bottom: "pool" bottom: "data" top: "pb"
        prior_box_param { min_size: 4 max_size: 8 aspect_ratio: 2 flip: true
                          variance: 0.1 variance: 0.1 variance: 0.2 variance: 0.2 } }
layer { name: "sum" type: "Eltwise" bottom: "pb" bottom: "zeros" top: "sum" }
)");
  auto g = frontend::importCaffe(proto, "");
  REQUIRE(g.isOk());
  auto pre = frontend::precheckCaffe(proto, "");  // atc --mode=3 agrees with --mode=0
  REQUIRE(pre.isOk());
  CHECK(pre->failed() == 0);
  const ir::Node* sum = nodeNamed(*g, "sum");
  REQUIRE(sum);
  const ir::Value* pb = sum->inputs[0];
  REQUIRE(pb->isConstant());
  // 2x2 cells, 4 priors (min, sqrt(min*max), ratio 2, ratio 1/2), 4 coordinates.
  REQUIRE(pb->shape == ir::Shape{1, 2, 64});
  const float* v = pb->data->as<float>();
  const float s = std::sqrt(32.f) / 2;  // half the sqrt(min*max) box
  const float expect[12] = {0.f,         0.f,
                            0.5f,        0.5f,
                            (2 - s) / 8, (2 - s) / 8,
                            (2 + s) / 8, (2 + s) / 8,
                            (2 - s) / 8, (2 - s / 2) / 8,
                            (2 + s) / 8, (2 + s / 2) / 8};
  for (int i = 0; i < 12; ++i) CHECK(v[i] == Approx(expect[i]).margin(1e-6));
  CHECK(v[64] == Approx(0.1f));
  CHECK(v[66] == Approx(0.2f));
}

TEST_CASE("every Caffe layer type the importer lists is converted, and the pre-check agrees",
          "[caffe]") {
  // One list (caffe_import::layerTypes) feeds the dispatch and atc --mode=3: a listed type the
  // dispatch lacks would fail here as an internal error, and one the pre-check does not know
  // as a TYPE_UNSUPPORTED cause. Layers without their parameters or weights may still fail,
  // for those reasons.
  for (const std::string& t : frontend::caffe_import::layerTypes()) {
    INFO(t);
    const auto proto = writeText("one-" + t + ".prototxt", R"(
layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 3 dim: 8 dim: 8 } } }
layer { name: "l" type: ")" + t + R"(" bottom: "data" top: "out" })");
    auto g = frontend::importCaffe(proto, "");
    if (!g.isOk()) {
      CHECK(g.status().code() != ErrorCode::Internal);
      CHECK(g.status().message().find("E11009") == std::string::npos);
    }
    auto r = frontend::precheckCaffe(proto, "");
    REQUIRE(r.isOk());
    for (const auto& op : r->ops) CHECK(op.cause != 1);
  }
  const auto odd = writeText("one-odd.prototxt", R"(
layer { name: "data" type: "Input" top: "data" input_param { shape { dim: 1 dim: 3 dim: 8 dim: 8 } } }
layer { name: "l" type: "Mish" bottom: "data" top: "out" })");
  auto g = frontend::importCaffe(odd, "");
  REQUIRE_FALSE(g.isOk());
  CHECK(g.status().message().find("E11009") != std::string::npos);
  auto r = frontend::precheckCaffe(odd, "");
  REQUIRE(r.isOk());
  CHECK(r->failed() == 1);
}

TEST_CASE("every Caffe layer's IR ops are registered ops", "[caffe]") {
  // caffe_layers.def declares each layer once; what it says a layer writes must exist.
  REQUIRE(frontend::caffeLayers().size() == frontend::caffe_import::layerTypes().size());
  for (const auto& l : frontend::caffeLayers()) {
    INFO(l.type);
    CHECK_FALSE(l.shown.empty());
    for (const std::string& op : l.ops) {
      INFO(op);
      CHECK(ops::lookup(op) != nullptr);
    }
  }
}
