// cann_kernel.cpp: what asc-tools' opc does for a CANN-generated operator project's `binary`
// target (see asc/opgen/opgen.h, buildCannKernel): the kernel of one dtype column compiled with
// the host compiler into a shared object that registers its entry with libasccore, and the
// kernel's description (<bin>.json) in the shape the project's Python scripts read.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <xxhash.h>

#include <filesystem>
#include <regex>

#include "asc/opgen/opgen.h"
#include "asc/support/file.h"
#include "opgen/templates.h"

extern char** environ;

namespace asc::opgen {

namespace {

namespace fs = std::filesystem;
using detail::readText;
using google::protobuf::Value;

Status fail(const std::string& msg) {
  return Status::error(ErrorCode::InvalidParam, "opc: {}", msg);
}

/// `name = "value"` in the generated implementation file (read as text: importing it needs
/// CANN's Python packages).
std::string pyField(const std::string& py, const std::string& name) {
  std::smatch m;
  const std::regex re(name + R"(\s*=\s*"([^"]*)\")");
  return std::regex_search(py, m, re) ? m[1].str() : std::string();
}

const Value* member(const Value& v, const char* name) {
  if (v.kind_case() != Value::kStructValue) return nullptr;
  auto it = v.struct_value().fields().find(name);
  return it == v.struct_value().fields().end() ? nullptr : &it->second;
}

std::string text(const Value* v) {
  return v && v->kind_case() == Value::kStringValue ? v->string_value() : "";
}

struct Param {
  std::string name, dtype, format;
};

/// The ge::DataType name of an ops-info dtype: msopgen's spellings, and the complex types an
/// operator project can declare in its OpDef (complex64, complex128), which its kernel reads
/// through GM_ADDR as float or double pairs.
std::string kernelGeType(const std::string& dtype) {
  if (dtype == "complex64") return "DT_COMPLEX64";
  if (dtype == "complex128") return "DT_COMPLEX128";
  return detail::geTypeOf(dtype);
}
bool isComplex(const std::string& ge) { return ge == "DT_COMPLEX64" || ge == "DT_COMPLEX128"; }

Status params(const Value* list, const char* what, std::vector<Param>* out) {
  if (!list || list->kind_case() != Value::kListValue)
    return fail(fmt::format("the input_param JSON has no {} list", what));
  for (const Value& v : list->list_value().values()) {
    // A DYNAMIC parameter (a tensor list) is a list of its tensors' entries: one kernel argument
    // (the list's description), of the first entry's dtype.
    const Value& p = v.kind_case() == Value::kListValue && v.list_value().values_size() > 0
                         ? v.list_value().values(0)
                         : v;
    if (p.kind_case() == Value::kListValue)
      return fail(fmt::format("a DYNAMIC {} lists no tensor", what));
    Param q{text(member(p, "name")), text(member(p, "dtype")), text(member(p, "format"))};
    if (q.name.empty() || kernelGeType(q.dtype).empty())
      return fail(fmt::format("{} '{}' has dtype '{}', which the CPU layer does not know", what,
                              q.name, q.dtype));
    out->push_back(q);
  }
  return Status::ok();
}

/// The operator project's source folder: the CMAKE_HOME_DIRECTORY of the build tree holding
/// `dir` (opc runs in build_out/op_kernel/binary/<unit>).
std::string projectSource(fs::path dir) {
  for (; !dir.empty(); dir = dir.parent_path()) {
    auto cache = readText((dir / "CMakeCache.txt").string());
    if (cache.isOk()) {
      std::smatch m;
      if (std::regex_search(*cache, m, std::regex(R"(CMAKE_HOME_DIRECTORY:INTERNAL=([^\n]*))")))
        return m[1].str();
      return {};
    }
    if (dir == dir.root_path()) break;
  }
  return {};
}

/// The op_host header that registers `op_type`'s tiling class (REGISTER_TILING_DATA_CLASS).
std::string tilingHeader(const std::string& source, const std::string& op_type) {
  std::error_code ec;
  const std::regex re("REGISTER_TILING_DATA_CLASS\\s*\\(\\s*" + op_type + "\\s*,");
  for (const char* sub : {"op_host", "op_kernel"})
    for (const auto& e : fs::directory_iterator(fs::path(source) / sub, ec)) {
      if (e.path().extension() != ".h") continue;
      auto t = readText(e.path().string());
      if (t.isOk() && std::regex_search(*t, re)) return e.path().string();
    }
  return {};
}

Status run(const std::vector<std::string>& argv) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, a[0], nullptr, nullptr, a.data(), environ) != 0)
    return fail(fmt::format("cannot start {}", argv[0]));
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return fail(fmt::format("{} failed to compile the kernel (see its messages above)", argv[0]));
  return Status::ok();
}

}  // namespace

Status buildCannKernel(const CannKernelRequest& r, std::string* object) {
  auto py = readText(r.impl_py);
  if (!py.isOk()) return fail("cannot read " + r.impl_py);
  const std::string src_file = pyField(*py, "ascendc_src_file");
  const std::string op_type = pyField(*py, "op_type");
  const std::string func = r.main_func.empty() ? pyField(*py, "origin_func_name") : r.main_func;
  if (src_file.empty() || op_type.empty() || func.empty())
    return fail(r.impl_py + " names no op_type, ascendc_src_file or origin_func_name");
  // Where the implementation file's own get_kernel_source looks, in its order: the source
  // folder ascendc/<ascendc_src_dir_ex>/ beside the file's folder, $BUILD_KERNEL_SRC, then
  // ascendc/<ascendc_src_dir>/, the file's own folder, and the folders' <dir>.cpp. Older
  // implementation files name no folders: the op's snake-case name stands for both.
  const fs::path py_dir = fs::absolute(r.impl_py).parent_path();
  const fs::path src_root = py_dir.parent_path() / "ascendc";
  std::string dir = pyField(*py, "ascendc_src_dir");
  std::string dir_ex = pyField(*py, "ascendc_src_dir_ex");
  if (dir.empty()) dir = snakeCase(op_type);
  if (dir_ex.empty()) dir_ex = dir;
  std::vector<fs::path> candidates = {src_root / dir_ex / src_file};
  if (!r.kernel_src.empty()) candidates.push_back(r.kernel_src);
  for (const fs::path& c :
       {src_root / dir / src_file, py_dir / src_file, src_root / dir / (dir + ".cpp"),
        src_root / dir_ex / (dir_ex + ".cpp"), src_root / fs::path(src_file).stem() / src_file})
    candidates.push_back(c);
  fs::path kernel;
  for (const fs::path& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) {
      kernel = c;
      break;
    }
  }
  if (kernel.empty())
    return fail("the kernel source " + src_file + " is not where " + r.impl_py + " looks for it (" +
                (py_dir / src_file).string() + ", " + (src_root / dir / src_file).string() +
                (r.kernel_src.empty() ? "" : ", $BUILD_KERNEL_SRC " + r.kernel_src) + ", ...)");

  auto json = readText(r.input_param);
  if (!json.isOk()) return fail("cannot read " + r.input_param);
  Value root;
  if (!google::protobuf::util::JsonStringToMessage(*json, &root).ok())
    return fail(r.input_param + " is no JSON");
  const Value* list = member(root, "op_list");
  if (!list || list->kind_case() != Value::kListValue || list->list_value().values_size() != 1)
    return fail(r.input_param + " has no op_list of one entry");
  const Value& op = list->list_value().values(0);
  const std::string bin = text(member(op, "bin_filename"));
  if (bin.empty() || bin.find('/') != std::string::npos)
    return fail(r.input_param + " has no usable bin_filename");
  std::vector<Param> ins, outs;
  ASC_RETURN_IF_ERROR(params(member(op, "inputs"), "input", &ins));
  ASC_RETURN_IF_ERROR(params(member(op, "outputs"), "output", &outs));

  const std::string source = projectSource(fs::absolute(r.cwd));
  const std::string tiling = source.empty() ? "" : tilingHeader(source, op_type);
  if (tiling.empty())
    return fail(fmt::format(
        "no header of the project registers {}'s tiling (REGISTER_TILING_DATA_CLASS({}, ...) in "
        "op_host/*.h); opc finds the project through the build tree's CMakeCache.txt",
        op_type, op_type));

  // The wrapper: the tiling structure first, the kernel in a namespace of its own, and the entry
  // that registers it (asc::ophost::addKernelEntry) when the object is loaded.
  const fs::path work = fs::absolute(r.cwd) / "kernel_meta" / bin;
  std::error_code ec;
  fs::create_directories(work, ec);
  fs::create_directories(r.output, ec);
  std::vector<Param> all = ins;
  all.insert(all.end(), outs.begin(), outs.end());
  std::string codes, args;
  for (size_t i = 0; i < all.size(); ++i)
    codes += (i ? ", " : "") + std::to_string(detail::geCode(kernelGeType(all[i].dtype)));
  for (size_t i = 0; i < all.size() + 2; ++i) args += (i ? ", " : "") + fmt::format("a[{}]", i);
  const std::string ns = "asc_cann_" + bin;
  // The kernel's own system headers and the SDK's (kernel_operator*.h, the high-level APIs of
  // lib/, kernel_tiling/) go before its namespace (inside it they would declare the standard
  // library, or AscendC and matmul, again); inside, optiling's names are visible unqualified, as
  // CANN's generated kernel-side tiling structures are.
  std::string system_includes;
  {
    auto ktext = readText(kernel.string());
    const std::regex inc(
        R"re(\s*#\s*include\s*(<[^>]+>|"(lib/[^"]+|kernel_operator[^"/]*|kernel_tiling/[^"]+)").*)re");
    std::string line;
    for (size_t at = 0; ktext.isOk() && at < ktext->size();) {
      const size_t nl = ktext->find('\n', at);
      line = ktext->substr(at, nl == std::string::npos ? std::string::npos : nl - at);
      at = nl == std::string::npos ? ktext->size() : nl + 1;
      if (std::regex_match(line, inc)) system_includes += line + "\n";
    }
  }
  // A kernel template (tiling templates, ascendc/host_api/tiling/template_argument.h): every
  // combination ASCENDC_TPL_SEL selects is instantiated, and a launch runs the one its tiling
  // key names.
  bool is_template = false;
  {
    auto ktext = readText(kernel.string());
    const std::regex tpl("template\\s*<[^>]*>\\s*(__global__\\s+)?(__aicore__\\s+)?void\\s+" +
                         func + "\\s*\\(");
    is_template = ktext.isOk() && std::regex_search(*ktext, tpl);
  }
  const std::string call =
      is_template ? fmt::format(
                        "if (!ascTplDispatch(asc::ascendc::detail::tilingKey(), a,\n"
                        "                        "
                        "std::make_index_sequence<{ns}::asc_tpl_sel.combinations()>{{}}))\n"
                        "      asc::ascendc::detail::fail(\"{func}\", \"tiling key \" +\n"
                        "          std::to_string(asc::ascendc::detail::tilingKey()) +\n"
                        "          \" is none of the kernel template's combinations "
                        "(ASCENDC_TPL_SEL); set it \"\n"
                        "          \"with GET_TPL_TILING_KEY\");",
                        fmt::arg("ns", ns), fmt::arg("func", func))
                  : fmt::format("{ns}::{func}({args});", fmt::arg("ns", ns), fmt::arg("func", func),
                                fmt::arg("args", args));
  const std::string dispatch =
      !is_template
          ? std::string()
          : fmt::format(
                "template <uint64_t K, size_t... P>\n"
                "bool ascTplRun(uint64_t key, uint8_t** a, std::index_sequence<P...>) {{\n"
                "  constexpr uint64_t values[] = {{{ns}::asc_tpl_sel.value(K, int(P))...}};\n"
                "  constexpr uint64_t k = ::asc_tpl::keyOf({ns}::asc_tpl_decl, {ns}::asc_tpl_sel, "
                "values, int(sizeof...(P)));\n"
                "  if (k != key) return false;\n"
                "  {ns}::{func}<{ns}::asc_tpl_sel.value(K, int(P))...>({args});\n"
                "  return true;\n}}\n"
                "template <size_t... K>\n"
                "bool ascTplDispatch(uint64_t key, uint8_t** a, std::index_sequence<K...>) {{\n"
                "  return (ascTplRun<K>(key, a, "
                "std::make_index_sequence<{ns}::asc_tpl_decl.n>{{}}) "
                "|| ...);\n}}\n",
                fmt::arg("ns", ns), fmt::arg("func", func), fmt::arg("args", args));
  const std::string wrapper = fmt::format(
      "// Generated by opc (asc-tools): {op}'s kernel {bin}.\n"
      "{system}#include \"kernel_operator.h\"\n"
      "#include \"ascendc/host_api/tiling/template_argument.h\"\n#include \"{tiling}\"\n"
      "#include \"asc/ophost/ophost.h\"\n#include <string>\n#include <utility>\n\n"
      "namespace {ns} {{\nusing namespace optiling;\n#include \"{kernel}\"\n}}\n\n"
      "// A kernel that uses the cube (lib/matmul_intf.h) is a mixed one.\n"
      "#ifdef ASC_KERNEL_USES_CUBE\n#define ASC_OPC_ADD_ENTRY asc::ophost::addMixedKernelEntry\n"
      "#else\n#define ASC_OPC_ADD_ENTRY asc::ophost::addKernelEntry\n#endif\n"
      "namespace {{\n{dispatch}const int registered = [] {{\n"
      "  ASC_OPC_ADD_ENTRY(\"{op}\", \"{func}\", {{{codes}}},\n"
      "                    [](uint8_t** a) {{ {call} }});\n"
      "  return 0;\n}}();\n}}  // namespace\n",
      fmt::arg("system", system_includes), fmt::arg("op", op_type), fmt::arg("bin", bin),
      fmt::arg("tiling", tiling), fmt::arg("ns", ns), fmt::arg("kernel", kernel.string()),
      fmt::arg("func", func), fmt::arg("codes", codes), fmt::arg("dispatch", dispatch),
      fmt::arg("call", call));
  const std::string wrapper_file = (work / (bin + ".cpp")).string();
  ASC_RETURN_IF_ERROR(writeFileAtomic(wrapper_file, wrapper.data(), wrapper.size()));

  const char* cxx = std::getenv("CXX");
  std::vector<std::string> cmd = {cxx && *cxx ? cxx : "g++",
                                  "-std=c++17",
                                  "-O2",
                                  "-fPIC",
                                  "-shared",
                                  "-fno-trapping-math",
                                  "-mavx2",
                                  "-mf16c",
                                  "-DASCENDC_CPU_DEBUG=1",
                                  "-DASC_OPC_KERNEL=1"};
  for (const Param& p : all) {
    const std::string up = detail::upper(p.name);
    const std::string ge = kernelGeType(p.dtype);
    // Ascend C has no complex element type here: DTYPE_<NAME> is left undefined for a complex
    // parameter, so a kernel that uses it fails to compile rather than read pairs as one float.
    if (!isComplex(ge)) cmd.push_back("-DDTYPE_" + up + "=" + ctype(ge));
    cmd.push_back("-DORIG_DTYPE_" + up + "=" + ge);
    cmd.push_back("-DFORMAT_" + up + "=FORMAT_" + (p.format.empty() ? "ND" : p.format));
  }
  const std::string out = (fs::path(r.output) / (bin + ".o")).string();
  for (const std::string& s :
       {"-I" + r.sdk_prefix + "/include/ascendc", "-I" + r.sdk_prefix + "/include",
        "-I" + kernel.parent_path().string(), wrapper_file, "-L" + r.sdk_prefix + "/lib",
        std::string("-lasccore"), "-Wl,-rpath," + r.sdk_prefix + "/lib", std::string("-o"), out})
    cmd.push_back(s);
  ASC_RETURN_IF_ERROR(run(cmd));

  // The description. staticKey is the object's XXH3-64 (CANN's is a SHA-256); simplifiedKey a
  // list, one per deterministic mode, of the inputs' ge dtype and format codes.
  auto bytes = readText(out);
  const uint64_t h = bytes.isOk() ? XXH3_64bits(bytes->data(), bytes->size()) : 0;
  std::string key_tail;
  for (const Param& p : ins)
    key_tail += fmt::format("/{},{}", detail::geCode(kernelGeType(p.dtype)), 2);
  std::string inputs, outputs;
  google::protobuf::util::JsonPrintOptions opts;
  auto dump = [&](const Value* v) {
    std::string s;
    if (v) (void)google::protobuf::util::MessageToJsonString(*v, &s, opts);
    return s.empty() ? std::string("[]") : s;
  };
  const std::string desc = fmt::format(
      "{{\n"
      "  \"binFileName\": \"{bin}\",\n"
      "  \"binFileSuffix\": \".o\",\n"
      "  \"blockDim\": -1,\n"
      "  \"coreType\": \"VectorCore\",\n"
      "  \"core_type\": \"AIV\",\n"
      "  \"kernelName\": \"{func}\",\n"
      "  \"magic\": \"RT_DEV_BINARY_MAGIC_ELF\",\n"
      "  \"opParaSize\": 0,\n"
      "  \"workspace\": {{\"num\": 1, \"size\": [-1], \"type\": [0]}},\n"
      "  \"kernelList\": [{{\"kernelName\": \"{func}\"}}],\n"
      "  \"compileInfo\": {{}},\n"
      "  \"supportInfo\": {{\n"
      "    \"implMode\": \"\",\n"
      "    \"int64Mode\": false,\n"
      "    \"simplifiedKeyMode\": 0,\n"
      "    \"simplifiedKey\": [\"{op}/d=0,p=0{tail}\", \"{op}/d=1,p=0{tail}\"],\n"
      "    \"staticKey\": \"{key:016x}\",\n"
      "    \"inputs\": {inputs},\n"
      "    \"outputs\": {outputs},\n"
      "    \"attrs\": {attrs},\n"
      "    \"opMode\": \"dynamic\",\n"
      "    \"deterministic\": \"ignore\"\n"
      "  }}\n"
      "}}\n",
      fmt::arg("bin", bin), fmt::arg("func", func), fmt::arg("op", op_type),
      fmt::arg("tail", key_tail), fmt::arg("key", h),
      fmt::arg("inputs", dump(member(op, "inputs"))),
      fmt::arg("outputs", dump(member(op, "outputs"))),
      fmt::arg("attrs", dump(member(op, "attrs"))));
  ASC_RETURN_IF_ERROR(
      writeFileAtomic((fs::path(r.output) / (bin + ".json")).string(), desc.data(), desc.size()));
  if (object) *object = out;
  return Status::ok();
}

}  // namespace asc::opgen
