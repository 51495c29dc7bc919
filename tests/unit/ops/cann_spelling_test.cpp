// cann_spelling_test.cpp: OpDef::cannSpelling, CANN's op types and attributes as the OM writes
// them (docs/om-format.md, "Op spellings"), checked against CANN's conventions by hand: lists
// in data_format order, pads as [top, bottom, left, right], TensorFlow's LRN alpha.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "asc/ops/registry.h"

using namespace asc;

namespace {

ir::Value* value(ir::Graph& g, const char* name, ir::Shape shape) {
  ir::Value* v = g.addValue(name);
  v->dtype = ir::DType::F32;
  v->shape = std::move(shape);
  return v;
}

std::map<std::string, ops::CannAttr> spell(const ir::Node& n, std::string* type = nullptr) {
  const ops::OpDef* d = ops::lookup(n.op_type);
  REQUIRE(d);
  REQUIRE(d->cannSpellingFn());
  ops::CannSpelling s = d->cannSpellingFn()(n);
  if (type) *type = s.type.empty() ? d->cannType() : s.type;
  CHECK(ops::cannTypeOf(n) == (s.type.empty() ? d->cannType() : s.type));
  return {s.attrs.begin(), s.attrs.end()};
}

using Ints = std::vector<int64_t>;

}  // namespace

TEST_CASE("Conv and ConvTranspose in CANN's spelling", "[ops][cann]") {
  ir::Graph g;
  ir::Node* c = g.addNode("Conv", "c", {value(g, "x", {1, 8, 10, 12}), value(g, "w", {4, 2, 3, 3})},
                          {value(g, "y", {1, 4, 5, 12})});
  c->attrs.set("strides", Ints{2, 1});
  c->attrs.set("dilations", Ints{1, 2});
  c->attrs.set("pads", Ints{1, 2, 3, 4});  // h begin, w begin, h end, w end
  c->attrs.set("group", int64_t{4});
  std::string type;
  auto a = spell(*c, &type);
  CHECK(type == "Conv2D");
  CHECK(std::get<Ints>(a["strides"]) == Ints{1, 1, 2, 1});
  CHECK(std::get<Ints>(a["dilations"]) == Ints{1, 1, 1, 2});
  CHECK(std::get<Ints>(a["pads"]) == Ints{1, 3, 2, 4});  // top, bottom, left, right
  CHECK(std::get<int64_t>(a["groups"]) == 4);
  CHECK(std::get<std::string>(a["data_format"]) == "NCHW");
  CHECK(std::get<int64_t>(a["offset_x"]) == 0);

  ir::Node* t =
      g.addNode("ConvTranspose", "t", {value(g, "x2", {1, 4, 5, 5}), value(g, "w2", {4, 3, 2, 2})},
                {value(g, "y2", {1, 3, 11, 11})});
  t->attrs.set("strides", Ints{2, 2});
  t->attrs.set("output_padding", Ints{1, 1});
  a = spell(*t, &type);
  CHECK(type == "Conv2DTransposeD");
  CHECK(std::get<Ints>(a["input_size"]) == Ints{1, 3, 11, 11});
  CHECK(std::get<Ints>(a["output_padding"]) == Ints{1, 1, 1, 1});
}

TEST_CASE("pooling, matmul, norms and the rest in CANN's spelling", "[ops][cann]") {
  ir::Graph g;
  ir::Node* p =
      g.addNode("AveragePool", "p", {value(g, "x", {1, 3, 8, 8})}, {value(g, "y", {1, 3, 4, 4})});
  p->attrs.set("kernel_shape", Ints{3, 2});
  p->attrs.set("strides", Ints{2, 2});
  p->attrs.set("pads", Ints{1, 0, 1, 0});
  p->attrs.set("count_include_pad", int64_t{1});
  std::string type;
  auto a = spell(*p, &type);
  CHECK(type == "AvgPoolV2");
  CHECK(std::get<Ints>(a["ksize"]) == Ints{1, 1, 3, 2});
  CHECK(std::get<Ints>(a["pads"]) == Ints{1, 1, 0, 0});
  CHECK(std::get<std::string>(a["padding_mode"]) == "CALCULATED");
  CHECK_FALSE(std::get<bool>(a["exclusive"]));

  ir::Node* m2 = g.addNode("MatMul", "m2", {value(g, "a", {4, 6}), value(g, "b", {6, 2})},
                           {value(g, "c", {4, 2})});
  a = spell(*m2, &type);
  CHECK(type == "MatMulV2");
  CHECK_FALSE(std::get<bool>(a["transpose_x1"]));
  ir::Node* m3 = g.addNode("MatMul", "m3", {value(g, "a3", {2, 4, 6}), value(g, "b3", {6, 2})},
                           {value(g, "c3", {2, 4, 2})});
  a = spell(*m3, &type);
  CHECK(type == "BatchMatMulV2");
  CHECK(a.count("adj_x2"));

  ir::Node* gemm = g.addNode("Gemm", "gemm", {value(g, "ga", {6, 4}), value(g, "gb", {2, 6})},
                             {value(g, "gc", {4, 2})});
  gemm->attrs.set("transA", int64_t{1});
  gemm->attrs.set("transB", int64_t{1});
  a = spell(*gemm, &type);
  CHECK(type == "GEMM");
  CHECK(std::get<bool>(a["transpose_a"]));
  CHECK(std::get<bool>(a["transpose_b"]));

  ir::Node* lrn =
      g.addNode("LRN", "lrn", {value(g, "lx", {1, 8, 4, 4})}, {value(g, "ly", {1, 8, 4, 4})});
  lrn->attrs.set("size", int64_t{5});
  lrn->attrs.set("alpha", 1e-3f);
  a = spell(*lrn);
  CHECK(std::get<int64_t>(a["depth_radius"]) == 2);
  CHECK(std::get<float>(a["alpha"]) == Approx(2e-4f));

  ir::Node* ln =
      g.addNode("LayerNormalization", "ln", {value(g, "nx", {2, 3, 8}), value(g, "ns", {8})},
                {value(g, "ny", {2, 3, 8})});
  a = spell(*ln);
  CHECK(std::get<int64_t>(a["begin_norm_axis"]) == 2);

  ir::Node* cast = g.addNode("Cast", "cast", {value(g, "cx", {2})}, {value(g, "cy", {2})});
  cast->attrs.set("to", int64_t{10});  // ONNX FLOAT16
  a = spell(*cast);
  CHECK(std::get<int64_t>(a["dst_type"]) == 2);  // GE DT_FLOAT16

  ir::Node* split = g.addNode("Split", "split", {value(g, "sx", {2, 6})},
                              {value(g, "s0", {2, 2}), value(g, "s1", {2, 4})});
  split->attrs.set("split", Ints{2, 4});
  split->attrs.set("axis", int64_t{1});
  a = spell(*split, &type);
  CHECK(type == "SplitVD");
  CHECK(std::get<Ints>(a["size_splits"]) == Ints{2, 4});
  CHECK(std::get<int64_t>(a["split_dim"]) == 1);
  CHECK(std::get<int64_t>(a["num_split"]) == 2);

  ir::Node* r = g.addNode("ReduceMean", "r", {value(g, "rx", {2, 3})}, {value(g, "ry", {2})});
  r->attrs.set("axes", Ints{1});
  r->attrs.set("keepdims", int64_t{0});
  a = spell(*r, &type);
  CHECK(type == "ReduceMeanD");
  CHECK(std::get<Ints>(a["axes"]) == Ints{1});
  CHECK_FALSE(std::get<bool>(a["keep_dims"]));
}

TEST_CASE("ops with constant parameters take CANN's attribute (D) forms", "[ops][cann]") {
  ir::Graph g;
  std::string type;
  ir::Node* slice =
      g.addNode("Slice", "slice", {value(g, "x", {2, 6, 8})}, {value(g, "y", {2, 2, 8})});
  slice->attrs.set("starts", Ints{1});
  slice->attrs.set("ends", Ints{5});
  slice->attrs.set("axes", Ints{-2});
  slice->attrs.set("steps", Ints{2});
  auto a = spell(*slice, &type);
  CHECK(type == "StridedSliceD");
  CHECK(std::get<Ints>(a["begin"]) == Ints{0, 1, 0});
  CHECK(std::get<Ints>(a["end"]) == Ints{2, 5, 8});
  CHECK(std::get<Ints>(a["strides"]) == Ints{1, 2, 1});

  ir::Node* pad =
      g.addNode("Pad", "pad", {value(g, "px", {1, 3, 4, 4})}, {value(g, "py", {1, 3, 7, 5})});
  pad->attrs.set("pads", Ints{0, 0, 1, 0, 0, 0, 2, 1});
  a = spell(*pad, &type);
  CHECK(type == "PadD");
  using Rows = std::vector<std::vector<int64_t>>;
  CHECK(std::get<Rows>(a["paddings"]) == Rows{{0, 0}, {0, 0}, {1, 2}, {0, 1}});
  pad->attrs.set("mode", std::string("reflect"));
  a = spell(*pad, &type);
  CHECK(type == "PadV3");
  CHECK(std::get<std::string>(a["mode"]) == "reflect");

  ir::Node* gather = g.addNode("Gather", "gather", {value(g, "gx", {5, 3}), value(g, "gi", {2})},
                               {value(g, "gy", {2, 3})});
  a = spell(*gather, &type);
  CHECK(type == "GatherV2D");
  CHECK(std::get<int64_t>(a["axis"]) == 0);

  ir::Value* idx = value(g, "ay", {2});
  idx->dtype = ir::DType::I64;
  ir::Node* arg = g.addNode("ArgMax", "arg", {value(g, "ax", {2, 5})}, {idx});
  arg->attrs.set("axis", int64_t{1});
  a = spell(*arg, &type);
  CHECK(type == "ArgMaxD");
  CHECK(std::get<int64_t>(a["dimension"]) == 1);

  ir::Node* resize =
      g.addNode("Resize", "resize", {value(g, "rx", {1, 3, 4, 4})}, {value(g, "ry", {1, 3, 8, 8})});
  resize->attrs.set("mode", std::string("linear"));
  resize->attrs.set("coordinate_transformation_mode", std::string("align_corners"));
  a = spell(*resize, &type);
  CHECK(type == "ResizeBilinearV2D");
  CHECK(std::get<Ints>(a["size"]) == Ints{8, 8});
  CHECK(std::get<bool>(a["align_corners"]));
  CHECK_FALSE(std::get<bool>(a["half_pixel_centers"]));
}

TEST_CASE("ClipByValue's bounds and TopKV2's k are CANN inputs", "[ops][cann]") {
  ir::Graph g;
  ir::Node* clip = g.addNode("Clip", "clip", {value(g, "x", {4})}, {value(g, "y", {4})});
  clip->attrs.set("min", -0.5f);
  const ops::OpDef* d = ops::lookup("Clip");
  REQUIRE(d->cannSpellingFn());
  ops::CannSpelling s = d->cannSpellingFn()(*clip);
  REQUIRE(s.const_inputs.size() == 2);
  CHECK(s.const_inputs[0].first == "clip_value_min");
  CHECK(s.const_inputs[0].second.dtype == ir::DType::F32);
  CHECK(*s.const_inputs[0].second.data->as<float>() == -0.5f);
  CHECK(std::isinf(*s.const_inputs[1].second.data->as<float>()));  // no max: +inf
  ir::Node* topk = g.addNode("TopK", "topk", {value(g, "t", {2, 6})},
                             {value(g, "tv", {2, 3}), value(g, "ti", {2, 3})});
  topk->attrs.set("k", int64_t{3});
  s = ops::lookup("TopK")->cannSpellingFn()(*topk);
  REQUIRE(s.const_inputs.size() == 1);
  CHECK(s.const_inputs[0].second.dtype == ir::DType::I32);
  CHECK(*s.const_inputs[0].second.data->as<int32_t>() == 3);
}
