// dynamic_options_test.cpp: atc's dynamic-shape options become profiles and ranges per input
// (parseDynamicOptions, resolveDynamic), and a dynamic-batch model compiled through compile()
// writes an OM whose profiles the runtime compiles at load and enforces at run time.
#include <catch2/catch.hpp>

#include "asc/compiler/compile.h"
#include "asc/om/om_file.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"

using namespace asc;

TEST_CASE("Dynamic batch profiles fill the -1 batch dim of each input", "[compiler][dynamic]") {
  DynamicOptions o;
  o.input_shape = "x:-1,3,4,4;y:-1,10";
  o.dynamic_batch_size = "1,2,8";
  auto r = parseDynamicOptions(o, false);
  REQUIRE(r.isOk());
  CHECK(r->kind == "batch");
  CHECK(r->import_shape == "x:-1,3,4,4;y:-1,10");
  CHECK(r->profiles == std::vector<std::vector<int64_t>>{{1, 1}, {2, 2}, {8, 8}});
  CHECK(r->inputs[0].second[0].min == 1);
  CHECK(r->inputs[0].second[0].max == 8);
}

TEST_CASE("Ranges in the input shape and the input_shape_range syntax", "[compiler][dynamic]") {
  DynamicOptions o;
  o.input_shape = "img:1,3,224~512,-1";
  auto r = parseDynamicOptions(o, false);
  REQUIRE(r.isOk());
  CHECK(r->kind == "range");
  CHECK(r->import_shape == "img:1,3,-1,-1");
  CHECK(om::rangesToString({r->inputs[0].second}) == "[1,3,224~512,1~-1]");
  DynamicOptions o2;
  o2.input_shape_range = "img:[1~16,3,224,224]";
  auto r2 = parseDynamicOptions(o2, false);
  REQUIRE(r2.isOk());
  CHECK(om::rangesToString({r2->inputs[0].second}) == "[1~16,3,224,224]");
}

TEST_CASE("The dynamic options' rules give atc's codes", "[compiler][dynamic]") {
  auto code = [](DynamicOptions o, bool aipp = false) {
    return parseDynamicOptions(o, aipp).status().code();
  };
  DynamicOptions both;
  both.input_shape = "x:-1,3";
  both.dynamic_batch_size = "1,2";
  both.dynamic_dims = "1;2";
  CHECK(code(both) == ErrorCode::DynamicExclusive);
  DynamicOptions one;
  one.input_shape = "x:-1,3";
  one.dynamic_batch_size = "4";
  CHECK(code(one) == ErrorCode::TooFewProfiles);
  DynamicOptions dup = one;
  dup.dynamic_batch_size = "1,4,4";
  CHECK(code(dup) == ErrorCode::DuplicateProfile);
  DynamicOptions notn;
  notn.input_shape = "x:2,-1";
  notn.dynamic_batch_size = "1,2";
  CHECK(code(notn) == ErrorCode::DynamicBatchDims);
  DynamicOptions dims;
  dims.input_shape = "x:-1,-1";
  dims.dynamic_dims = "1;2";
  CHECK(code(dims) == ErrorCode::DynamicDimsCount);
  dims.dynamic_dims = "1,2;3,4";
  CHECK(parseDynamicOptions(dims, false).isOk());
  CHECK(code(dims, true) == ErrorCode::InvalidParam);  // dynamic dims with AIPP
  DynamicOptions range;
  range.input_shape_range = "x:[4~2]";
  CHECK(code(range) == ErrorCode::InputShapeRange);
}

TEST_CASE("A dynamic-batch OM runs its profiles and refuses other batches", "[compiler][dynamic]") {
  CompileOptions o;
  o.model = std::string(ASC_TEST_DATA) + "/dynamic_batch.onnx";
  o.soc_version = "Ascend310P3";
  o.precision.mode = "force_fp32";
  o.shapes.input_shape = "x:-1,3,4,4";
  o.shapes.dynamic_batch_size = "1,4";
  auto m = compile(o);
  REQUIRE(m.isOk());
  CHECK(m->graph.dynamic);
  REQUIRE(m->info.dynamic.gears.size() == 2);
  CHECK(m->info.dynamic.gears[1] == std::vector<ir::Shape>{{4, 3, 4, 4}});
  REQUIRE(makeDirs(ASC_TEST_TMP "/dynamic").isOk());
  const std::string path = ASC_TEST_TMP "/dynamic/batch.om";
  REQUIRE(om::writeOm(m->graph, m->info, path).isOk());
  auto s = runtime::Session::load(path);
  REQUIRE(s.isOk());
  runtime::Session& sess = **s;
  REQUIRE(sess.isDynamic());
  CHECK(sess.compiledShapes() == 2);  // both profiles, at load
  // Outside the range 1~4: refused when set; inside it but no profile: refused at run.
  CHECK(sess.setInputShape(0, {5, 3, 4, 4}).code() == ErrorCode::InputShapeMismatch);
  REQUIRE(sess.setInputShape(0, {2, 3, 4, 4}).isOk());
  Status st = sess.run();
  CHECK(st.code() == ErrorCode::InputShapeMismatch);
  CHECK_THAT(st.message(), Catch::Contains("1, 4"));
  REQUIRE(sess.setInputShape(0, {4, 3, 4, 4}).isOk());
  REQUIRE(sess.run().isOk());
  CHECK(sess.outputs()[0].shape == ir::Shape{4, 3, 4, 4});
  CHECK(sess.compiledShapes() == 2);  // nothing compiled at run time
}
