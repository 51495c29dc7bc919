// single_op_test.cpp: the --singleop description (single_op.h): what the parser takes and
// refuses with which code, CANN's file names, matching a call against a compiled op, and a
// static and a dynamic op compiled, written, read back and run on the CPU runtime.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "asc/compiler/single_op.h"
#include "asc/om/om_file.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "asc/support/fp16.h"

using namespace asc;

namespace {

const char* kAdd = R"([
  {"op": "Add",
   "input_desc": [{"name": "x1", "param_type": "required", "format": "nd", "shape": [8, 16],
                   "type": "FLOAT32"},
                  {"format": "ND", "shape": [8, 16], "type": "float"}],
   "output_desc": [{"name": "y", "format": "ND", "shape": [8, 16], "type": "float"}]},
  {"op": "Add",
   "input_desc": [{"format": "ND", "shape": [-1, 16], "shape_range": [[1, 64]], "type": "half"},
                  {"format": "ND", "shape": [-1, 16], "shape_range": [[1, 64], [16, 16]],
                   "type": "fp16"}],
   "output_desc": [{"format": "ND", "shape": [-1, 16], "type": "float16"}],
   "attr": [{"name": "flag", "type": "bool", "value": true},
            {"name": "n", "type": "int", "value": 3},
            {"name": "f", "type": "float", "value": 0.25},
            {"name": "s", "type": "string", "value": "a\"b"},
            {"name": "li", "type": "list_int", "value": [1, 2]},
            {"name": "lb", "type": "list_bool", "value": [true, false]},
            {"name": "lf", "type": "list_float", "value": [0.5]},
            {"name": "ls", "type": "list_string", "value": ["x"]},
            {"name": "dt", "type": "data_type", "value": "DT_FLOAT16"}]}
])";

ErrorCode codeOf(const std::string& text) {
  return singleop::parseJson(text, "t.json").status().code();
}

std::string withTensor(const std::string& tensor) {
  return R"([{"op": "Add", "input_desc": [)" + tensor +
         R"(], "output_desc": [{"format": "ND", "shape": [2], "type": "float"}]}])";
}

}  // namespace

TEST_CASE("A --singleop file's ops, tensors and attributes", "[compiler][singleop]") {
  auto ops = singleop::parseJson(kAdd, "add.json");
  REQUIRE(ops.isOk());
  REQUIRE(ops->size() == 2);
  const singleop::OpDesc& a = (*ops)[0];
  CHECK(a.op == "Add");
  REQUIRE(a.inputs.size() == 2);
  CHECK(a.inputs[0].name == "x1");
  CHECK(a.inputs[0].dtype == ir::DType::F32);
  CHECK(a.inputs[0].format == "ND");
  CHECK(a.inputs[1].dims == ir::Shape{8, 16});
  CHECK(a.inputs[0].ranges.empty());
  CHECK_FALSE(a.dynamic());
  const singleop::OpDesc& b = (*ops)[1];
  CHECK(b.dynamic());
  CHECK(b.inputs[0].dtype == ir::DType::F16);
  // Ranges of the -1 dims only, or of every dim: the same ranges.
  REQUIRE(b.inputs[0].ranges.size() == 2);
  CHECK(b.inputs[0].ranges[0].min == 1);
  CHECK(b.inputs[0].ranges[0].max == 64);
  CHECK(b.inputs[0].ranges[1].min == 16);
  CHECK(b.inputs[1].ranges[1].max == 16);
  CHECK(b.attrs.getInt("flag", 0) == 1);
  CHECK(b.attrs.getInt("n", 0) == 3);
  CHECK(b.attrs.getFloat("f", 0) == 0.25f);
  CHECK(b.attrs.getString("s", "") == "a\"b");
  CHECK(b.attrs.getInts("li") == std::vector<int64_t>{1, 2});
  CHECK(b.attrs.getInts("lb") == std::vector<int64_t>{1, 0});
  CHECK(b.attrs.getFloats("lf") == std::vector<float>{0.5f});
  CHECK(b.attrs.getInt("dt", -1) == 1);  // ACL_FLOAT16

  // What the OM records reads back as the same op.
  auto again = singleop::parseJson(singleop::toJson(b), "om");
  REQUIRE(again.isOk());
  REQUIRE(again->size() == 1);
  std::string why;
  CHECK(singleop::match((*again)[0], b, &why) == singleop::Mismatch::None);
  CHECK((*again)[0].attrs == b.attrs);
}

TEST_CASE("CANN's single-op file names", "[compiler][singleop]") {
  auto ops = singleop::parseJson(kAdd, "add.json");
  REQUIRE(ops.isOk());
  CHECK(singleop::fileName((*ops)[0], 0) == "0_Add_0_2_8_16_0_2_8_16_0_2_8_16.om");
  CHECK(singleop::fileName((*ops)[1], 1) == "1_Add_1_2_-1_16_1_2_-1_16_1_2_-1_16.om");
  singleop::OpDesc longer = (*ops)[0];
  longer.inputs[0].dims.assign(80, 7);
  const std::string name = singleop::fileName(longer, 3);
  CHECK(name.size() == 128 + 3);
  CHECK(name.substr(name.size() - 3) == ".om");
  CHECK(singleop::aclDtype(ir::DType::BF16) == 27);
  CHECK(singleop::dtypeFromAcl(9) == ir::DType::I64);
  CHECK(singleop::aclFormat("NCHW") == 0);
  CHECK(singleop::formatFromAcl(2) == "ND");
  CHECK(singleop::formatFromAcl(99).empty());
}

TEST_CASE("A --singleop file that is not valid gets GE's codes", "[compiler][singleop]") {
  CHECK(codeOf("{\"op\": \"Add\"}") == ErrorCode::SingleOpParse);
  CHECK(codeOf("[1, 2") == ErrorCode::SingleOpParse);
  CHECK(codeOf("[]") == ErrorCode::SingleOpParse);
  CHECK(codeOf(R"([{"input_desc": []}])") == ErrorCode::SingleOpNoOp);
  CHECK(codeOf(withTensor(R"({"format": "ND", "shape": [2], "type": "float7"})")) ==
        ErrorCode::SingleOpTensor);
  CHECK(codeOf(withTensor(R"({"format": "NWHC", "shape": [2], "type": "float"})")) ==
        ErrorCode::SingleOpTensor);
  CHECK(codeOf(withTensor(R"({"format": "ND", "shape": [2.5], "type": "float"})")) ==
        ErrorCode::SingleOpTensor);
  CHECK(codeOf(withTensor(R"({"format": "ND", "shape": [-3], "type": "float"})")) ==
        ErrorCode::SingleOpTensor);
  CHECK(codeOf(withTensor(R"({"format": "ND", "type": "float"})")) == ErrorCode::SingleOpTensor);
  CHECK(codeOf(withTensor(
            R"({"format": "ND", "shape": [-1], "shape_range": [[4, 2]], "type": "float"})")) ==
        ErrorCode::SingleOpTensor);
  CHECK(codeOf(withTensor(R"({"format": "ND", "shape": [-1, -1], "shape_range": [[1, 2], [1, 2],
        [1, 2]], "type": "float"})")) == ErrorCode::SingleOpTensor);
  // What asc-tools does not implement is named, not ignored.
  CHECK(codeOf(withTensor(R"({"format": "NC1HWC0", "shape": [2], "type": "float"})")) ==
        ErrorCode::NotImplemented);
  CHECK(codeOf(withTensor(R"({"format": "ND", "shape": [-2], "type": "float"})")) ==
        ErrorCode::NotImplemented);
  CHECK(
      codeOf(withTensor(R"({"format": "ND", "shape": [2], "type": "float", "is_const": true})")) ==
      ErrorCode::NotImplemented);
  CHECK(codeOf(withTensor(R"({"format": "ND", "shape": [2], "type": "complex64"})")) ==
        ErrorCode::NotImplemented);
  const std::string op = R"([{"op": "Add", "output_desc": [{"format": "ND", "shape": [2],
      "type": "float"}], "attr": [)";
  CHECK(codeOf(op + R"({"type": "int", "value": 1}]}])") == ErrorCode::SingleOpAttrName);
  CHECK(codeOf(op + R"({"name": "a", "type": "int"}]}])") == ErrorCode::SingleOpAttrValue);
  CHECK(codeOf(op + R"({"name": "a", "type": "int", "value": 1.5}]}])") ==
        ErrorCode::SingleOpAttrValue);
  CHECK(codeOf(op + R"({"name": "a", "type": "tensor", "value": 1}]}])") ==
        ErrorCode::SingleOpAttrValue);
  CHECK(codeOf(op + R"({"name": "a", "type": "list_list_int", "value": [[1]]}]}])") ==
        ErrorCode::NotImplemented);
  CHECK(codeOf(op + R"({"name": "a", "type": "float", "value": 1e300}]}])") ==
        ErrorCode::SingleOpAttrValue);  // no float holds it
  CHECK(codeOf(op + R"({"name": "a", "type": "list_float", "value": [1, -1e40]}]}])") ==
        ErrorCode::SingleOpAttrValue);
  // Names with quotes and backslashes read back from what the OM records.
  auto quoted = singleop::parseJson(
      R"([{"op": "A\"dd", "input_desc": [{"name": "x\"1\\", "format": "ND", "shape": [2],
      "type": "float"}], "output_desc": [{"name": "y\n", "format": "ND", "shape": [2],
      "type": "float"}], "attr": [{"name": "s\"", "type": "string", "value": "v\"\u0001"}]}])",
      "q.json");
  REQUIRE(quoted.isOk());
  auto again = singleop::parseJson(singleop::toJson((*quoted)[0]), "om");
  REQUIRE(again.isOk());
  CHECK((*again)[0].op == "A\"dd");
  CHECK((*again)[0].inputs[0].name == "x\"1\\");
  CHECK((*again)[0].outputs[0].name == "y\n");
  CHECK(singleop::match((*again)[0], (*quoted)[0], nullptr) == singleop::Mismatch::None);
  auto st =
      singleop::parseJson(withTensor(R"({"format": "ND", "shape": [2], "type": "x"})"), "ops.json")
          .status();
  CHECK(st.toString().find("ops.json: op 0 (Add) input 0") != std::string::npos);
}

TEST_CASE("A call matches a compiled op by type, tensors, ranges and attributes",
          "[compiler][singleop]") {
  auto ops = singleop::parseJson(kAdd, "add.json");
  REQUIRE(ops.isOk());
  const singleop::OpDesc& dyn = (*ops)[1];
  singleop::OpDesc call = dyn;
  for (auto* list : {&call.inputs, &call.outputs})
    for (auto& t : *list) {
      t.dims = {5, 16};
      t.ranges.clear();
    }
  std::string why;
  CHECK(singleop::match(dyn, call, &why) == singleop::Mismatch::None);
  singleop::OpDesc c = call;
  c.op = "Sub";
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Type);
  c = call;
  c.inputs[0].dims = {65, 16};
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Input);
  CHECK(why.find("outside the model's range [1, 64]") != std::string::npos);
  c = call;
  c.inputs[1].dims = {5, 17};
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Input);
  c = call;
  c.inputs[0].dtype = ir::DType::F32;
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Input);
  c = call;
  c.inputs[0].format = "NCHW";
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Input);
  c = call;
  c.outputs.pop_back();
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Output);
  c = call;
  c.attrs.set("n", int64_t(4));
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Attr);
  CHECK(why.find("attr 'n' is 4, the model's 3") != std::string::npos);
  c = call;
  c.attrs.erase("s");
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Attr);
  c = call;
  c.attrs.set("extra", int64_t(1));
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Attr);
  c = call;
  c.attrs.set("f", 0.5f);
  CHECK(singleop::match(dyn, c, &why) == singleop::Mismatch::Attr);
}

TEST_CASE("Single ops compile, write, read back and run", "[compiler][singleop]") {
  auto ops = singleop::parseJson(kAdd, "add.json");
  REQUIRE(ops.isOk());
  const std::string dir = ASC_TEST_TMP "/singleop";
  REQUIRE(makeDirs(dir).isOk());
  CompileOptions c;
  c.soc_version = "Ascend910B1";
  c.precision.mode = "must_keep_origin_dtype";
  singleop::OpDesc dyn = (*ops)[1];
  dyn.attrs = {};  // Add takes none
  for (const singleop::OpDesc* d : {&(*ops)[0], &dyn}) {
    auto m = singleop::compileOp(*d, c);
    REQUIRE(m.isOk());
    const std::string path = dir + "/" + singleop::fileName(*d, d->dynamic());
    REQUIRE(om::writeOm(m->graph, m->info, path).isOk());
    auto summary = om::readOmSummary(path);
    REQUIRE(summary.isOk());
    auto back = singleop::parseJson(summary->attrs.at("_asc_single_op"), path);
    REQUIRE(back.isOk());
    CHECK(singleop::match((*back)[0], *d, nullptr) == singleop::Mismatch::None);

    auto s = runtime::Session::load(path);
    REQUIRE(s.isOk());
    const int64_t rows = d->dynamic() ? 5 : 8;
    const size_t n = size_t(rows) * 16;
    if (d->dynamic()) {
      CHECK((*s)->isDynamic());
      REQUIRE((*s)->setInputShape(0, {rows, 16}).isOk());
      REQUIRE((*s)->setInputShape(1, {rows, 16}).isOk());
      CHECK_FALSE((*s)->setInputShape(0, {65, 16}).isOk());  // outside its range
    }
    const bool half = d->inputs[0].dtype == ir::DType::F16;
    std::vector<uint16_t> h0(n), h1(n);
    std::vector<float> f0(n), f1(n);
    for (size_t i = 0; i < n; ++i) {
      f0[i] = float(i % 13) - 6;
      f1[i] = float(i % 7) * 0.5f;
      h0[i] = floatToHalf(f0[i]);
      h1[i] = floatToHalf(f1[i]);
    }
    REQUIRE(
        (*s)->setInput(0, half ? (void*)h0.data() : (void*)f0.data(), n * (half ? 2 : 4)).isOk());
    REQUIRE(
        (*s)->setInput(1, half ? (void*)h1.data() : (void*)f1.data(), n * (half ? 2 : 4)).isOk());
    REQUIRE((*s)->run().isOk());
    CHECK((*s)->outputs()[0].shape == ir::Shape{rows, 16});
    for (size_t i = 0; i < n; ++i) {
      const float got = half ? halfToFloat(static_cast<const uint16_t*>((*s)->outputData(0))[i])
                             : static_cast<const float*>((*s)->outputData(0))[i];
      REQUIRE(got == f0[i] + f1[i]);  // small whole numbers and halves: exact in fp16
    }
  }
}

TEST_CASE("Single ops that cannot be built say why", "[compiler][singleop]") {
  auto parse = [](const std::string& t) {
    auto ops = singleop::parseJson(t, "t.json");
    REQUIRE(ops.isOk());
    return (*ops)[0];
  };
  auto code = [](const singleop::OpDesc& d) { return singleop::buildGraph(d).status().code(); };
  CHECK(code(parse(R"([{"op": "NoSuchOpAnywhere", "input_desc": [{"format": "ND", "shape": [2],
      "type": "float"}], "output_desc": [{"format": "ND", "shape": [2], "type": "float"}]}])")) ==
        ErrorCode::UnsupportedOp);
  // The description's output differs from what the op computes.
  auto wrong = singleop::buildGraph(parse(
      R"([{"op": "Add", "input_desc": [{"format": "ND", "shape": [2, 3], "type": "float"},
      {"format": "ND", "shape": [2, 3], "type": "float"}], "output_desc": [{"format": "ND",
      "shape": [3, 2], "type": "float"}]}])"));
  CHECK(wrong.status().code() == ErrorCode::SingleOpTensor);
  CHECK(wrong.status().toString().find("the operator computes float [2,3]") != std::string::npos);
  // CANN spells LeakyRelu's slope negative_slope (default 0), the IR alpha (0.01): refused.
  CHECK(code(parse(R"([{"op": "LeakyRelu", "input_desc": [{"format": "ND", "shape": [2],
      "type": "float"}], "output_desc": [{"format": "ND", "shape": [2], "type": "float"}]}])")) ==
        ErrorCode::NotImplemented);
}
