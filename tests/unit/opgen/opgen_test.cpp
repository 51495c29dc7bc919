// opgen_test.cpp: the op-definition JSON reader and the project generator (asc/opgen/opgen.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "asc/opgen/opgen.h"

namespace fs = std::filesystem;
using asc::opgen::OpDesc;

namespace {

std::vector<OpDesc> parse(const std::string& json, int* code, asc::Status* st) {
  std::vector<OpDesc> ops;
  *st = asc::opgen::parseOpJson(json, "t.json", &ops, code);
  return ops;
}

const char* kGood = R"([{"op": "ScaleAddCustom",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND", "NCHW"], "type": ["float", "fp16"]},
                 {"name": "bias", "param_type": "optional", "type": ["float32", "float16"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["fp32", "half"]}],
  "attr": [{"name": "alpha", "param_type": "optional", "type": "float", "default_value": "2"},
           {"name": "axes", "param_type": "optional", "type": "list_int", "default_value": [1, 2]},
           {"name": "mode", "param_type": "required", "type": "str"}]}])";

}  // namespace

TEST_CASE("opgen: msopgen's snake case of op types", "[opgen]") {
  CHECK(asc::opgen::snakeCase("AddCustom") == "add_custom");
  CHECK(asc::opgen::snakeCase("Conv2D") == "conv2_d");
  CHECK(asc::opgen::snakeCase("LeakyReluCustom") == "leaky_relu_custom");
  CHECK(asc::opgen::snakeCase("HTTPServer") == "http_server");
  CHECK(asc::opgen::snakeCase("A") == "a");
}

TEST_CASE("opgen: an op JSON's columns, types and attributes", "[opgen]") {
  int code = -1;
  asc::Status st;
  auto ops = parse(kGood, &code, &st);
  REQUIRE(st.isOk());
  REQUIRE(ops.size() == 1);
  const OpDesc& d = ops[0];
  CHECK(d.snake == "scale_add_custom");
  CHECK(d.columns() == 2);
  CHECK(d.inputs[0].types == std::vector<std::string>{"DT_FLOAT", "DT_FLOAT16"});
  CHECK(d.inputs[0].formats == std::vector<std::string>{"ND", "NCHW"});
  CHECK(d.inputs[1].param_type == "optional");
  CHECK(d.inputs[1].formats == std::vector<std::string>{"ND", "ND"});  // format defaults to ND
  CHECK(d.outputs[0].types == std::vector<std::string>{"DT_FLOAT", "DT_FLOAT16"});
  REQUIRE(d.attrs.size() == 3);
  CHECK(d.attrs[0].default_value == "2.0f");
  CHECK(d.attrs[1].default_value == "{1, 2}");
  CHECK(d.attrs[2].param_type == "required");
  CHECK(d.attrs[2].default_value.empty());
}

TEST_CASE("opgen: a type or format given as one string is a list of one", "[opgen]") {
  int code = -1;
  asc::Status st;
  auto ops = parse(R"([{"op": "ReluCustom", "input_desc": [{"name": "x", "param_type": "required",
      "type": "float16", "format": "ND"}], "output_desc": [{"name": "y", "type": "float16"}]}])",
                   &code, &st);
  REQUIRE(st.isOk());
  REQUIRE(ops.size() == 1);
  CHECK(ops[0].columns() == 1);
  CHECK(ops[0].inputs[0].types == std::vector<std::string>{"DT_FLOAT16"});
  CHECK(ops[0].inputs[0].formats == std::vector<std::string>{"ND"});
  CHECK(ops[0].outputs[0].types == std::vector<std::string>{"DT_FLOAT16"});
}

TEST_CASE("opgen: a bad op JSON names the op and the field, with msopgen's code", "[opgen]") {
  struct Case {
    const char* json;
    int code;
    const char* text;
  } cases[] = {
      {"not json", 13, "not valid JSON"},
      {"[]", 13, "non-empty list"},
      {R"({"op": "A"})", 13, "non-empty list"},
      {R"([{"op": "lowerCase", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}]}])",
       16, "UpperCamelCase"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float", "fp16"]}]}])",
       16, "'y' lists 2 types"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"], "format": ["ND", "ND"]}], "output_desc": [{"name": "y", "type": ["float"]}]}])",
       16, "1 types and 2 formats"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"], "format": ["FRACTAL_NZ"]}], "output_desc": [{"name": "y", "type": ["float"]}]}])",
       16, "'FRACTAL_NZ' is not supported"},
      {R"([{"op": "A", "input_desc": [{"name": "x/y", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}]}])",
       16, "must be an identifier"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "param_type": "optional", "type": ["float"]}]}])",
       16, "output 'y' must be required"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}], "attr": [{"name": "k", "type": "tensor"}]}])",
       16, "attr[0] ('k').type"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}], "attr": [{"name": "k", "param_type": "optional", "type": "int"}]}])",
       16, "needs a default_value"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}]}, {"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}]}])",
       16, "defined twice"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}], "attr": [{"name": "k", "param_type": "optional", "type": "int", "default_value": 2e106}]}])",
       16, "attr[0] ('k').default_value does not fit type int"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}], "attr": [{"name": "k", "param_type": "optional", "type": "int", "default_value": "1.5"}]}])",
       16, "does not fit type int"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}], "attr": [{"name": "k", "param_type": "optional", "type": "float", "default_value": "nan"}]}])",
       16, "does not fit type float"},
      {R"([{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}], "output_desc": [{"name": "y", "type": ["float"]}], "attr": [{"name": "k", "param_type": "optional", "type": "list_int", "default_value": [1, 1e19]}]}])",
       16, "does not fit type list_int"},
  };
  for (const auto& c : cases) {
    int code = -1;
    asc::Status st;
    parse(c.json, &code, &st);
    INFO(c.json << "\n -> " << st.toString());
    CHECK_FALSE(st.isOk());
    CHECK(code == c.code);
    CHECK(st.message().find(c.text) != std::string::npos);
    CHECK(st.message().find("t.json") != std::string::npos);
  }
}

TEST_CASE("opgen: generate writes msopgen's project layout and refuses to overwrite it",
          "[opgen]") {
  const fs::path dir = fs::path(ASC_TEST_TMP) / "opgen_unit";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path json = dir / "ops.json";
  std::ofstream(json) << kGood;
  asc::opgen::GenOptions o;
  o.input = json.string();
  o.compute_unit = "ai_core-ascend910b";
  o.language = "cpp";
  o.framework = "onnx";
  o.output = (dir / "p").string();
  asc::opgen::GenReport r;
  int code = -1;
  asc::Status st = asc::opgen::generate(o, &r, &code);
  REQUIRE(st.isOk());
  CHECK(code == 0);
  CHECK(r.soc == "Ascend910B1");
  for (const char* f :
       {"build.sh", "CMakeLists.txt", "CMakePresets.json", "cmake/func.cmake",
        "op_host/scale_add_custom.cpp", "op_host/scale_add_custom_tiling.h",
        "op_kernel/scale_add_custom.cpp", "op_kernel/CMakeLists.txt",
        "framework/onnx_plugin/scale_add_custom_plugin.cpp", "testcases/ut/scale_add_custom_ut.cpp",
        "testcases/st/scale_add_custom/scale_add_custom.onnx"})
    CHECK(fs::exists(dir / "p" / f));
  CHECK((fs::status(dir / "p" / "build.sh").permissions() & fs::perms::owner_exec) !=
        fs::perms::none);
  // The prototype spells the JSON's columns and attributes in CANN's host API.
  std::ifstream host(dir / "p/op_host/scale_add_custom.cpp");
  std::string text((std::istreambuf_iterator<char>(host)), std::istreambuf_iterator<char>());
  CHECK(text.find(".DataType({ge::DT_FLOAT, ge::DT_FLOAT16})") != std::string::npos);
  CHECK(text.find("this->Attr(\"alpha\").AttrType(OPTIONAL).Float(2.0f);") != std::string::npos);
  CHECK(text.find("this->Attr(\"mode\").AttrType(REQUIRED).String();") != std::string::npos);
  CHECK(text.find("AddConfig(\"ascend910b\")") != std::string::npos);

  // Again into the same folder: E12, nothing changed.
  asc::opgen::GenReport r2;
  st = asc::opgen::generate(o, &r2, &code);
  CHECK_FALSE(st.isOk());
  CHECK(code == 12);
  // A bad -c: E14, and no folder is made.
  o.output = (dir / "q").string();
  o.compute_unit = "ai_core-ascendXYZ1";
  st = asc::opgen::generate(o, &r2, &code);
  CHECK(code == 14);
  CHECK_FALSE(fs::exists(dir / "q"));
}

TEST_CASE("opgen: -f aclnn makes the simple project: no framework plugin, build_out/op_api",
          "[opgen]") {
  const fs::path dir = fs::path(ASC_TEST_TMP) / "opgen_aclnn";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path json = dir / "ops.json";
  std::ofstream(json) << kGood;
  asc::opgen::GenOptions o;
  o.input = json.string();
  o.compute_unit = "ai_core-Ascend910B1";
  o.language = "cpp";
  o.framework = "aclnn";
  o.output = (dir / "p").string();
  asc::opgen::GenReport r;
  int code = -1;
  REQUIRE(asc::opgen::generate(o, &r, &code).isOk());
  CHECK(code == 0);
  CHECK(fs::exists(dir / "p/op_host/scale_add_custom.cpp"));
  CHECK_FALSE(fs::exists(dir / "p/framework"));
  std::ifstream sh(dir / "p/build.sh");
  std::string text((std::istreambuf_iterator<char>(sh)), std::istreambuf_iterator<char>());
  CHECK(text.find("ln -sfn \"vendors/${vendor:-customize}/op_api\" build_out/op_api") !=
        std::string::npos);
  // MindSpore stays refused, naming what is generated.
  o.framework = "ms";
  o.output = (dir / "q").string();
  CHECK(asc::opgen::generate(o, &r, &code).code() == asc::ErrorCode::NotImplemented);
  CHECK_FALSE(fs::exists(dir / "q"));
}

TEST_CASE("opgen: op_build's sources name CANN's dtypes, and a bad op leaves no file", "[opgen]") {
  int code = -1;
  asc::Status st;
  auto ops = parse(kGood, &code, &st);
  REQUIRE(st.isOk());
  ops[0].socs = {"ascend910b"};
  const fs::path dir = fs::path(ASC_TEST_TMP) / "opgen_aclnn_unit";
  fs::remove_all(dir);
  fs::create_directories(dir / "good");
  std::vector<std::string> written;
  REQUIRE(asc::opgen::writeAclnnSources(ops, (dir / "good").string(), &written).isOk());
  CHECK(written.size() == 5);
  for (const char* f : {"aic-ascend910b-ops-info.ini", "op_proto.h", "op_proto.cc",
                        "aclnn_scale_add_custom.h", "aclnn_scale_add_custom.cpp"})
    CHECK(fs::exists(dir / "good" / f));
  std::ifstream ini(dir / "good/aic-ascend910b-ops-info.ini");
  std::string text((std::istreambuf_iterator<char>(ini)), std::istreambuf_iterator<char>());
  CHECK(text.find("[ScaleAddCustom]") != std::string::npos);
  CHECK(text.find("float32,float16") != std::string::npos);

  // A DYNAMIC input is an aclTensorList, and the call goes through ascOpapiPrepareLists.
  std::vector<OpDesc> listed = {ops[0]};
  listed[0].inputs[0].param_type = "dynamic";
  fs::create_directories(dir / "list");
  REQUIRE(asc::opgen::writeAclnnSources(listed, (dir / "list").string(), nullptr).isOk());
  std::ifstream h(dir / "list/aclnn_scale_add_custom.h"),
      c(dir / "list/aclnn_scale_add_custom.cpp");
  const std::string header((std::istreambuf_iterator<char>(h)), std::istreambuf_iterator<char>());
  const std::string source((std::istreambuf_iterator<char>(c)), std::istreambuf_iterator<char>());
  CHECK(header.find("const aclTensorList *x,") != std::string::npos);
  CHECK(source.find("const AscOpapiInput inputs[] = {{nullptr, x}, {biasOptional, nullptr}};") !=
        std::string::npos);
  CHECK(source.find("ascOpapiPrepareLists(") != std::string::npos);

  // A second op whose input and attribute share a name: InvalidParam, and not even the first
  // op's files are written.
  OpDesc bad = ops[0];
  bad.op = "BadCustom";
  bad.snake = "bad_custom";
  bad.attrs[0].name = "x";
  ops.push_back(bad);
  fs::create_directories(dir / "bad");
  st = asc::opgen::writeAclnnSources(ops, (dir / "bad").string(), nullptr);
  CHECK_FALSE(st.isOk());
  CHECK(st.message().find("BadCustom") != std::string::npos);
  CHECK(fs::is_empty(dir / "bad"));
}
