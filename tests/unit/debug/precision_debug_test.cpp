// precision_debug_test.cpp: the debug layer (mscompare debug_precision / debug_reduce) on a
// model written here: y = sqrt((x*1000)^2) / 1000, whose square passes fp16's 65504. The only
// keep set that fixes it holds the square, the sum and the root (each reads the one before, so
// must read fp32 too); the only diverging cut is the square alone. Also the ONNX cut-out itself and
// the advisor's causes.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "asc/compare/advisor.h"
#include "asc/debug/precision_debug.h"
#include "asc/frontend/onnx.h"
#include "asc/support/file.h"
#include "onnx/onnx.pb.h"

using namespace asc;

namespace {

void io(onnx::ValueInfoProto* vi, const std::string& name, int64_t width) {
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_value(4);
  tt->mutable_shape()->add_dim()->set_dim_value(width);
}

void scalar(onnx::GraphProto* g, const std::string& name, float v) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_float_data(v);
}

// x [4,16] -> Mul(k) "scale" -> Mul(a, a) "square" -> ReduceSum "total" -> Sqrt "root" ->
// Mul(1/k) "unscale" -> y [4,1]: the Euclidean norm of each row, through squares near 1e6.
std::string writeModel() {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("sq");
  io(g->add_input(), "x", 16);
  io(g->add_output(), "y", 1);
  scalar(g, "k", 1000.f);
  scalar(g, "inv_k", 1e-3f);
  auto* axes = g->add_initializer();
  axes->set_name("axes");
  axes->set_data_type(onnx::TensorProto::INT64);
  axes->add_dims(1);
  axes->add_int64_data(1);
  auto node = [&](const char* op, const char* name, std::vector<std::string> in, const char* out) {
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (auto& i : in) n->add_input(i);
    n->add_output(out);
  };
  node("Mul", "scale", {"x", "k"}, "a");
  node("Mul", "square", {"a", "a"}, "sq");
  node("ReduceSum", "total", {"sq", "axes"}, "s");
  node("Sqrt", "root", {"s"}, "r");
  node("Mul", "unscale", {"r", "inv_k"}, "y");
  const std::string dir = ASC_TEST_TMP "/precision_debug";
  REQUIRE(makeDirs(dir).isOk());
  // A file of this process's own: ctest runs the test cases as separate processes at once, and
  // one of them reading the file while another rewrote it failed (seen under the sanitizers).
  const std::string path = dir + "/sq_" + std::to_string(getpid()) + ".onnx";
  std::ofstream(path, std::ios::binary) << m.SerializeAsString();
  return path;
}

}  // namespace

TEST_CASE("debug_precision finds the square and the root of an overflowing chain", "[debug]") {
  debug::DebugOptions o;
  o.model = writeModel();
  o.threads = 1;
  std::vector<debug::Round> seen;
  auto r = debug::searchKeepSet(o, 40, [&](const debug::Round& x) { seen.push_back(x); });
  REQUIRE(r.isOk());
  CHECK(r->candidates == std::vector<std::string>{"scale", "square", "total", "root", "unscale"});
  CHECK(r->keep == std::vector<std::string>{"square", "total", "root"});
  CHECK(r->reached);
  CHECK_FALSE(r->round_limit);
  CHECK(r->final_cosine >= 0.999);
  REQUIRE(r->rounds.size() == seen.size());
  CHECK(r->rounds.front().phase == "baseline");
  CHECK_FALSE(r->rounds.front().passed);
  CHECK(r->rounds.front().min_cosine < 0.5);
  REQUIRE(r->rounds.size() >= 2);
  CHECK(r->rounds[1].phase == "all fp32");
  CHECK(r->rounds[1].passed);
  CHECK(r->rounds.size() <= 14);  // (k + 1) * ceil(log2 n) + 2 for k = 3 of n = 5
}

TEST_CASE("debug_precision: nothing to do at force_fp32-safe values and bad options", "[debug]") {
  debug::DebugOptions o;
  o.model = writeModel();
  o.threads = 1;
  o.target_cosine = 1.5;
  auto bad = debug::searchKeepSet(o, 40);
  REQUIRE_FALSE(bad.isOk());
  CHECK(bad.status().code() == ErrorCode::InvalidParam);
  o.target_cosine = 0.999;
  o.precision_mode = "force_fp32";
  CHECK_FALSE(debug::searchKeepSet(o, 40).isOk());
  o.precision_mode = "force_fp16";
  CHECK_FALSE(debug::searchKeepSet(o, 1).isOk());
  o.model = ASC_TEST_TMP "/precision_debug/none.onnx";
  CHECK(debug::searchKeepSet(o, 40).status().code() == ErrorCode::FileOpenFailed);
}

TEST_CASE("debug_reduce cuts the square alone, fed the fp32 values", "[debug]") {
  debug::DebugOptions o;
  o.model = writeModel();
  o.threads = 1;
  auto r = debug::reduceDivergence(o);
  REQUIRE(r.isOk());
  CHECK(r->diverges);
  CHECK(r->first_diverging == "square");
  CHECK(r->nodes == std::vector<std::string>{"square"});
  CHECK(r->input_names == std::vector<std::string>{"a"});
  CHECK(r->output_names == std::vector<std::string>{"sq"});
  REQUIRE(r->inputs.size() == 1);
  REQUIRE(r->goldens.size() == 1);
  // The fed values are the fp32 run's a = 1000 x, the golden output their squares.
  const float* a = r->inputs[0].data->as<float>();
  const float* sq = r->goldens[0].data->as<float>();
  for (int i = 0; i < 64; ++i) CHECK(sq[i] == Approx(a[i] * a[i]).epsilon(1e-6));
  CHECK(r->cosines.at(0) < 0.999);
  // The cut is a model of its own.
  auto g = frontend::importOnnxBytes(r->onnx.data(), r->onnx.size(), ".");
  REQUIRE(g.isOk());
  CHECK(g->nodes().size() == 1);
  CHECK(g->inputs.size() == 1);
}

TEST_CASE("ONNX cut-out: nodes by index, borders typed, unknown values refused", "[debug]") {
  const std::string path = writeModel();
  auto ref = frontend::describeOnnx(path);
  REQUIRE(ref.isOk());
  REQUIRE(ref->nodes.size() == 5);
  CHECK(ref->nodes[3].name == "root");
  CHECK(ref->inputs == std::vector<std::string>{"x"});
  CHECK(ref->opset == 13);
  // total + root + unscale, fed sq: the initializers axes and inv_k come along, k does not.
  auto bytes = frontend::extractOnnxSubgraph(path, {2, 3, 4}, {{"sq", ir::DType::F32, {4, 16}}},
                                             {{"y", ir::DType::F32, {4, 1}}});
  REQUIRE(bytes.isOk());
  onnx::ModelProto m;
  REQUIRE(m.ParseFromString(*bytes));
  CHECK(m.graph().node_size() == 3);
  REQUIRE(m.graph().initializer_size() == 2);
  CHECK(m.graph().initializer(0).name() == "axes");
  CHECK(m.graph().initializer(1).name() == "inv_k");
  CHECK(m.graph().input(0).type().tensor_type().shape().dim(1).dim_value() == 16);
  CHECK(m.opset_import(0).version() == 13);
  // unscale alone without r fed: refused, naming what is missing.
  auto missing = frontend::extractOnnxSubgraph(path, {4}, {}, {{"y", ir::DType::F32, {4, 1}}});
  REQUIRE_FALSE(missing.isOk());
  CHECK(missing.status().message().find("'r'") != std::string::npos);
  CHECK_FALSE(frontend::extractOnnxSubgraph(path, {9}, {}, {}).isOk());
}

TEST_CASE("advisor names each fp16 cause", "[debug]") {
  compare::CompareResult r;
  compare::LayerFacts f;
  f.result = &r;
  f.source_name = "n";
  f.my_dtype = ir::DType::F32;
  CHECK(compare::adviseFp16(f).cause.empty());  // not an fp16 run
  f.my_dtype = ir::DType::F16;
  r.golden_max_abs = 1e5;
  CHECK(compare::adviseFp16(f).cause.rfind("fp16 overflow", 0) == 0);
  CHECK(compare::adviseFp16(f).fix.find("'n'") != std::string::npos);
  r.golden_max_abs = 10;
  r.my.pos_inf = 3;
  CHECK(compare::adviseFp16(f).cause.rfind("fp16 overflow: 3 inf/NaN", 0) == 0);
  r.my.pos_inf = 0;
  r.golden_max_abs = 1e-6;
  CHECK(compare::adviseFp16(f).cause.rfind("fp16 underflow", 0) == 0);
  r.golden_max_abs = 2;
  f.op_type = "Sub";
  f.feeding_max_abs = 1000;
  CHECK(compare::adviseFp16(f).cause.rfind("loss in a large-offset subtraction", 0) == 0);
  f.feeding_max_abs = 20;  // only 10x: no cancellation
  CHECK(compare::adviseFp16(f).cause.rfind("fp16 rounding accumulated", 0) == 0);
  f.op_type = "SoftmaxV2";
  CHECK(compare::adviseFp16(f).cause.rfind("a precision-sensitive op (SoftmaxV2)", 0) == 0);
  CHECK(compare::adviseFp16(f).fix.find("allow_mix_precision") != std::string::npos);
}
