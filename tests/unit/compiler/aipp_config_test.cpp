// aipp_config_test.cpp: the AIPP step of asc::compile() (insertAipp). A valid configuration puts
// one Aipp op in front of the input it names, which becomes the raw uint8 image; every bad
// configuration is refused with its code, the field and the line: E13018 for text that does not
// parse, E10052 for a value AIPP cannot take, E10055 for what asc-tools does not implement. A
// refused configuration leaves the graph as it was.
#include <catch2/catch.hpp>

#include "asc/compiler/compile.h"
#include "asc/ops/registry.h"

using namespace asc;

namespace {

// x [1, 3, 8, 8] fp32 -> Relu -> y; a second input z [1, 1, 8, 8] -> Relu -> w.
ir::Graph model() {
  ir::Graph g;
  ir::Value* x = g.addValue("x");
  x->dtype = ir::DType::F32;
  x->shape = {1, 3, 8, 8};
  ir::Value* z = g.addValue("z");
  z->dtype = ir::DType::F32;
  z->shape = {1, 1, 8, 8};
  ir::Value* y = g.addValue("y");
  ir::Value* w = g.addValue("w");
  g.addNode("Relu", "relu", {x}, {y});
  g.addNode("Relu", "relu2", {z}, {w});
  g.inputs = {x, z};
  g.outputs = {y, w};
  REQUIRE(ops::inferGraph(g).isOk());
  return g;
}

struct Outcome {
  Status status;
  std::string graph_before, graph_after;
};

Outcome apply(const std::string& text) {
  ir::Graph g = model();
  Outcome o;
  o.graph_before = ir::printGraph(g);
  o.status = insertAipp(g, text, "aipp.cfg");
  o.graph_after = ir::printGraph(g);
  return o;
}

// The configuration fails with `code`, its message holds every fragment, and the graph is
// untouched.
void refused(const std::string& text, ErrorCode code, std::vector<std::string> fragments) {
  INFO(text);
  Outcome o = apply(text);
  REQUIRE_FALSE(o.status.isOk());
  INFO(o.status.message());
  CHECK(o.status.code() == code);
  for (const auto& f : fragments) CHECK(o.status.message().find(f) != std::string::npos);
  CHECK(o.graph_before == o.graph_after);
}

}  // namespace

TEST_CASE("insertAipp puts an Aipp op in front of the input", "[compiler][aipp]") {
  ir::Graph g = model();
  REQUIRE(insertAipp(g,
                     "# YUV420SP image for x\n"
                     "aipp_op {\n"
                     "  aipp_mode: static\n"
                     "  input_format: YUV420SP_U8\n"
                     "  csc_switch: true\n"
                     "  matrix_r0c0: 256 matrix_r0c2: 359 matrix_r1c0: 256 matrix_r1c1: -88\n"
                     "  matrix_r1c2: -183 matrix_r2c0: 256 matrix_r2c1: 454\n"
                     "  input_bias_1: 128 input_bias_2: 128\n"
                     "  mean_chn_0: 124 var_reci_chn_0: 0.5\n"
                     "}\n"
                     "aipp_op { aipp_mode: static related_input_name: \"z\" input_format: "
                     "YUV400_U8 src_image_size_w: 10 src_image_size_h: 9 crop: true "
                     "load_start_pos_w: 1 load_start_pos_h: 1 }\n",
                     "aipp.cfg")
              .isOk());
  REQUIRE(g.inputs.size() == 2);
  CHECK(g.inputs[0]->name == "x");
  CHECK(g.inputs[0]->dtype == ir::DType::U8);
  CHECK(g.inputs[0]->shape == ir::Shape{1, 12, 8, 1});  // NV12: 8 rows of Y, 4 of UV
  CHECK(g.inputs[1]->name == "z");
  CHECK(g.inputs[1]->shape == ir::Shape{1, 9, 10, 1});
  int aipps = 0;
  for (const auto& n : g.nodes()) {
    if (n->op_type != "Aipp") continue;
    ++aipps;
    CHECK(n->outputs[0]->dtype == ir::DType::F32);
    if (n->inputs[0]->name == "x") {
      CHECK(n->outputs[0]->shape == ir::Shape{1, 3, 8, 8});
      CHECK(n->outputs[0]->name == "x_aipp");
      CHECK(n->attrs.getString("input_format", "") == "YUV420SP_U8");
      CHECK(n->attrs.getInts("csc_matrix")[2] == 359);
      CHECK(n->attrs.getFloats("var_reci_chn")[0] == 0.5f);
      CHECK(n->attrs.getFloats("var_reci_chn")[1] == 1.f);  // the default
    } else {
      CHECK(n->outputs[0]->shape == ir::Shape{1, 1, 8, 8});
      CHECK(n->attrs.getInt("load_start_pos_w", -1) == 1);
      CHECK(n->attrs.getInt("crop_size_w", -1) == 8);  // 0: the model input's width
    }
  }
  CHECK(aipps == 2);
  CHECK(g.nodes().front()->op_type == "Aipp");  // executed before the layer it feeds
}

TEST_CASE("AIPP configurations that do not parse are E13018 with line and column",
          "[compiler][aipp]") {
  refused("aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  brightness: 3\n}\n",
          ErrorCode::TextProtoParseFailed, {"aipp.cfg", "line 4", "brightness"});
  refused("aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  mean_chn_0: 1.5\n}\n",
          ErrorCode::TextProtoParseFailed, {"line 4, column 15", "mean_chn_0"});
  refused("aipp_op {\n  aipp_mode: static\n  input_format: BGR_U8\n}\n",
          ErrorCode::TextProtoParseFailed, {"line 3", "BGR_U8", "input_format"});
  refused("aipp_op {\n  aipp_mode: static\n", ErrorCode::TextProtoParseFailed, {"line"});
  refused("aipp_op { src_image_size_w: 99999999999 }", ErrorCode::TextProtoParseFailed,
          {"src_image_size_w"});
}

TEST_CASE("AIPP values it cannot take are E10052 naming field and line", "[compiler][aipp]") {
  const std::string head = "aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n";
  refused("aipp_op {\n  aipp_mode: static\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:1", "input_format is missing"});
  refused("aipp_op {\n  input_format: RGB888_U8\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp_mode is not set"});
  refused(head + "  src_image_size_w: 5000\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:4", "src_image_size_w", "5000", "[0, 4096]"});
  refused(head + "  src_image_size_h: -1\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:4", "src_image_size_h"});
  refused(head + "  mean_chn_1: 300\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:4", "mean_chn_1", "[0, 255]"});
  refused(head + "  min_chn_2: -3\n}\n", ErrorCode::AippConfigInvalid, {"aipp.cfg:4", "min_chn_2"});
  refused(head + "  var_reci_chn_0: 70000\n}\n", ErrorCode::AippConfigInvalid,
          {"var_reci_chn_0", "65504"});
  refused(head + "  var_reci_chn_0: 1\n  var_reci_chn_0: 2\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:4", "takes one value"});
  refused(head + "  csc_switch: true\n  matrix_r1c1: 40000\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:5", "matrix_r1c1"});
  refused(head + "  csc_switch: true\n}\n", ErrorCode::AippConfigInvalid, {"matrix_r*c* is 0"});
  // The crop must lie inside the image: src_image_size >= crop_size + load_start_pos.
  refused(head +
              "  src_image_size_w: 10\n  src_image_size_h: 8\n  crop: true\n"
              "  load_start_pos_w: 4\n  crop_size_w: 8\n}\n",
          ErrorCode::AippConfigInvalid, {"aipp.cfg:8", "crop_size_w", "outside the image"});
  refused(head + "  crop: true\n  load_start_pos_h: 1\n}\n", ErrorCode::AippConfigInvalid,
          {"load_start_pos_h", "outside the image"});
  refused(
      "aipp_op {\n  aipp_mode: static\n  input_format: YUV420SP_U8\n  src_image_size_w: 10\n"
      "  crop: true\n  load_start_pos_w: 1\n}\n",
      ErrorCode::AippConfigInvalid, {"aipp.cfg:6", "load_start_pos_w", "even"});
  refused("aipp_op {\n  aipp_mode: static\n  input_format: YUV420SP_U8\n  src_image_size_w: 7\n}\n",
          ErrorCode::AippConfigInvalid, {"aipp.cfg:4", "even"});
  refused(head + "  related_input_rank: 2\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:4", "related_input_rank 2 is not a model input", "'x', 'z'"});
  refused(head + "  related_input_name: \"image\"\n}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:4", "'image' is not a model input"});
  refused(head + "}\n" + head + "}\n", ErrorCode::AippConfigInvalid,
          {"aipp.cfg:5", "already has an aipp_op block"});
  refused("aipp_op {\n  aipp_mode: static\n  input_format: YUV400_U8\n}\n",
          ErrorCode::AippConfigInvalid, {"aipp.cfg:3", "'x' has 3 channels", "at most 1"});
  refused(head + "  src_image_size_w: 16\n}\n", ErrorCode::AippConfigInvalid, {"does not resize"});
  refused(head + "  padding: true\n  left_padding_size: 40\n}\n", ErrorCode::AippConfigInvalid,
          {"left_padding_size", "[0, 32]"});
  refused("# nothing\n", ErrorCode::AippConfigInvalid, {"no aipp_op block"});
  refused(
      "aipp_op {\n  aipp_mode: static\n  input_format: YUV400_U8\n  related_input_rank: 1\n"
      "  csc_switch: true\n  matrix_r0c0: 1\n}\n",
      ErrorCode::AippConfigInvalid, {"aipp.cfg:5", "csc_switch"});
}

TEST_CASE("AIPP features asc-tools does not implement are E10055", "[compiler][aipp]") {
  refused("aipp_op {\n  aipp_mode: dynamic\n  max_src_image_size: 1000\n}\n",
          ErrorCode::NotImplemented, {"aipp.cfg:2", "dynamic AIPP"});
  refused(
      "aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  resize: true\n"
      "  resize_output_w: 8\n}\n",
      ErrorCode::NotImplemented, {"aipp.cfg:4", "resize"});
  refused("aipp_op {\n  aipp_mode: static\n  input_format: YUYV_U8\n}\n", ErrorCode::NotImplemented,
          {"aipp.cfg:3", "YUYV_U8"});
  refused("multi_shape_op { mode: batch batch_list: 1 }\n", ErrorCode::NotImplemented,
          {"multi_shape_op"});
}
