// project.cpp: opgen gen: checks the options and the op JSON, then writes the project. Nothing
// is written before every check has passed; files are created without following symbolic links,
// and every path stays inside the output folder.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "asc/support/log.h"
#include "asc/opgen/opgen.h"
#include "asc/soc/soc.h"
#include "asc/support/file.h"
#include "onnx/onnx.pb.h"
#include "opgen/templates.h"

namespace asc::opgen {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Status failWith(int* exit_code, int code, ErrorCode ec, std::string message) {
  *exit_code = code;
  return Status::error(ec, "{}", message);
}

bool lexists(const std::string& p, struct stat* st) { return ::lstat(p.c_str(), st) == 0; }

/// A relative path of the project: no '..', no absolute path, no empty component.
bool safeRelative(const std::string& rel) {
  if (rel.empty() || rel[0] == '/') return false;
  std::stringstream ss(rel);
  std::string part;
  while (std::getline(ss, part, '/'))
    if (part.empty() || part == "." || part == "..") return false;
  return true;
}

/// Creates the folders of `rel` under `root`, refusing a symbolic link on the way.
Status makeParents(const std::string& root, const std::string& rel, int* exit_code) {
  size_t at = 0;
  while ((at = rel.find('/', at)) != std::string::npos) {
    const std::string dir = root + "/" + rel.substr(0, at);
    struct stat st;
    if (lexists(dir, &st)) {
      if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode))
        return failWith(exit_code, kInvalidOutputPath, ErrorCode::InvalidParam,
                        fmt::format("{} exists and is no folder (a symbolic link is not "
                                    "followed); remove it or choose another -out",
                                    dir));
    } else if (::mkdir(dir.c_str(), 0755) != 0) {
      return failWith(exit_code, kInvalidOutputPath, ErrorCode::FileWriteFailed,
                      fmt::format("cannot create folder {}: {}", dir, std::strerror(errno)));
    }
    ++at;
  }
  return Status::ok();
}

Status writeFile(const std::string& root, const std::string& rel, const std::string& data,
                 bool executable, bool overwrite, int* exit_code) {
  if (!safeRelative(rel))
    return failWith(exit_code, kInvalidOutputPath, ErrorCode::InvalidParam,
                    fmt::format("refusing to write '{}' outside the output folder", rel));
  ASC_RETURN_IF_ERROR(makeParents(root, rel, exit_code));
  const std::string path = root + "/" + rel;
  struct stat st;
  if (lexists(path, &st) && (!overwrite || S_ISLNK(st.st_mode)))
    return failWith(exit_code, kInvalidOutputPath, ErrorCode::InvalidParam,
                    fmt::format("{} exists{}; opgen does not overwrite it", path,
                                S_ISLNK(st.st_mode) ? " as a symbolic link" : ""));
  // Written beside and renamed (support/file.h): never through a link, never half a file.
  if (Status s = writeFileAtomic(path, data.data(), data.size()); !s) {
    *exit_code = kInvalidOutputPath;
    return s;
  }
  if (executable && ::chmod(path.c_str(), 0755) != 0)
    return failWith(exit_code, kInvalidOutputPath, ErrorCode::FileWriteFailed,
                    fmt::format("cannot make {} executable: {}", path, std::strerror(errno)));
  return Status::ok();
}

int onnxType(const std::string& ge) {
  static const std::pair<const char*, int> kMap[] = {
      {"DT_FLOAT", 1},   {"DT_UINT8", 2},   {"DT_INT8", 3},  {"DT_UINT16", 4},   {"DT_INT16", 5},
      {"DT_INT32", 6},   {"DT_INT64", 7},   {"DT_BOOL", 9},  {"DT_FLOAT16", 10}, {"DT_DOUBLE", 11},
      {"DT_UINT32", 12}, {"DT_UINT64", 13}, {"DT_BF16", 16},
  };
  for (const auto& [g, t] : kMap)
    if (ge == g) return t;
  return 1;
}

/// The ST model: one node of the op on [8192] tensors of the first dtype column; optional
/// attributes keep their defaults, required ones take the prototype's zero value.
std::string stModel(const OpDesc& op) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("opgen");
  auto* os = m.add_opset_import();
  os->set_domain("");
  os->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name(op.snake + "_st");
  auto* n = g->add_node();
  n->set_op_type(op.op);
  n->set_name(op.snake);
  auto tensor = [](onnx::ValueInfoProto* v, const std::string& name, const std::string& ge,
                   bool shape) {
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnxType(ge));
    if (shape) t->mutable_shape()->add_dim()->set_dim_value(8192);
  };
  for (const auto& p : op.inputs) {
    if (p.param_type != "required") {
      n->add_input("");
      continue;
    }
    n->add_input(p.name);
    tensor(g->add_input(), p.name, p.types[0], true);
  }
  // Trailing omitted inputs are dropped.
  while (n->input_size() && n->input(n->input_size() - 1).empty()) n->mutable_input()->RemoveLast();
  for (const auto& p : op.outputs) {
    n->add_output(p.name);
    tensor(g->add_output(), p.name, p.types[0], true);
  }
  for (const auto& a : op.attrs) {
    if (a.param_type != "required") continue;
    auto* at = n->add_attribute();
    at->set_name(a.name);
    if (a.type == "float") {
      at->set_type(onnx::AttributeProto::FLOAT);
      at->set_f(0);
    } else if (a.type == "int" || a.type == "bool") {
      at->set_type(onnx::AttributeProto::INT);
      at->set_i(0);
    } else if (a.type == "str") {
      at->set_type(onnx::AttributeProto::STRING);
      at->set_s("");
    } else if (a.type == "list_int") {
      at->set_type(onnx::AttributeProto::INTS);
    } else {
      at->set_type(onnx::AttributeProto::FLOATS);
    }
  }
  return m.SerializeAsString();
}

/// -c ai_core-<soc> | vector_core-<soc> -> the chip of the ST and the name AddConfig uses.
Status computeUnit(const std::string& c, std::string* soc, std::string* unit, int* exit_code) {
  const std::string lc = lower(c);
  if (lc == "aicpu" || lc.rfind("aicpu", 0) == 0)
    return failWith(exit_code, kInvalidComputeUnit, ErrorCode::NotImplemented,
                    "-c aicpu: AI CPU operator projects are not generated by asc-tools yet; use "
                    "ai_core-<soc> or vector_core-<soc> (Ascend C vector operators)");
  std::string rest;
  for (const char* prefix : {"ai_core-", "vector_core-"})
    if (lc.rfind(prefix, 0) == 0) rest = c.substr(std::string(prefix).size());
  static const std::regex kSoc("^[aA]scend[A-Za-z0-9\\-_]{3,20}$");
  if (rest.empty() || !std::regex_match(rest, kSoc))
    return failWith(exit_code, kInvalidComputeUnit, ErrorCode::InvalidParam,
                    fmt::format("-c '{}' is not ai_core-<soc> or vector_core-<soc> with <soc> "
                                "like ascend310p or ascend910b",
                                c));
  std::string names;
  for (const auto& s : soc::allSocs()) {
    names += std::string(names.empty() ? "" : ", ") + s.name;
    if (soc->empty() && lower(s.name).rfind(lower(rest), 0) == 0) *soc = s.name;
  }
  if (soc->empty())
    return failWith(exit_code, kInvalidComputeUnit, ErrorCode::InvalidParam,
                    fmt::format("-c '{}': no chip asc-tools knows starts with '{}' (known: {})", c,
                                rest, names));
  *unit = lower(rest);
  return Status::ok();
}

/// Reads an existing project's op list from op_kernel/CMakeLists.txt.
std::vector<std::string> existingOps(const std::string& root) {
  std::vector<std::string> ops;
  std::ifstream f(root + "/op_kernel/CMakeLists.txt");
  std::string line;
  static const std::regex kLine("^asc_add_op_kernel\\(([a-z0-9_]+) TYPE ([A-Za-z0-9]+) .*");
  std::smatch m;
  while (std::getline(f, line))
    if (std::regex_match(line, m, kLine)) ops.push_back(m[2]);
  return ops;
}

}  // namespace

Result<std::string> detail::readText(const std::string& path) {
  ASC_TRY(auto file, MappedFile::open(path));
  return std::string(reinterpret_cast<const char*>(file->data()), file->size());
}

Status generate(const GenOptions& o, GenReport* report, int* exit_code) {
  *exit_code = kOk;
  // Options, in msopgen's order of checks.
  const std::string fw = lower(o.framework);
  std::string framework;
  if (fw == "onnx" || fw == "pytorch")
    framework = "onnx";  // PyTorch models reach atc as ONNX exports
  else if (fw == "tf" || fw == "tensorflow")
    framework = "tf";
  else if (fw == "caffe")
    framework = "caffe";
  else if (fw == "aclnn")
    framework = "aclnn";  // the "simple" project: no framework plugin, its aclnn API to link
  else if (fw == "ms" || fw == "mindspore")
    return failWith(exit_code, kUnsupportedFramework, ErrorCode::NotImplemented,
                    fmt::format("-f {}: asc-tools generates onnx, pytorch, tf, caffe and aclnn "
                                "projects; {} is not supported yet",
                                o.framework, o.framework));
  else
    return failWith(exit_code, kUnsupportedFramework, ErrorCode::InvalidParam,
                    fmt::format("-f '{}' is no framework msopgen knows (tf, caffe, onnx, pytorch, "
                                "ms, aclnn)",
                                o.framework));
  if (lower(o.language) != "cpp")
    return failWith(exit_code, kInvalidParam, ErrorCode::NotImplemented,
                    fmt::format("-lan {}: asc-tools generates Ascend C projects only; pass -lan "
                                "cpp (TBE DSL/TIK 'py' projects need the NPU compiler)",
                                o.language));
  if (o.mode != 0 && o.mode != 1)
    return failWith(exit_code, kUnsupportedMode, ErrorCode::InvalidParam,
                    fmt::format("-m {}: the mode is 0 (a new project) or 1 (add operators to "
                                "an existing project)",
                                o.mode));
  ProjectInfo info;
  info.framework = framework;
  info.cann_path = o.cann_path.empty() ? "/usr/local/Ascend/latest" : o.cann_path;
  ASC_RETURN_IF_ERROR(computeUnit(o.compute_unit, &info.soc, &info.compute_unit, exit_code));
  report->soc = info.soc;

  // The op JSON.
  std::string ext = o.input.size() > 5 ? lower(o.input.substr(o.input.size() - 5)) : "";
  if (ext != ".json")
    return failWith(exit_code, kInvalidOpInfoFile, ErrorCode::InvalidParam,
                    fmt::format("-i {}: asc-tools reads op definitions from .json files (an IR "
                                "Excel .xlsx/.xls or .txt is not supported)",
                                o.input));
  auto text = detail::readText(o.input);
  if (!text.isOk())
    return failWith(exit_code, kInvalidOpInfoFile, ErrorCode::FileOpenFailed,
                    fmt::format("-i {}: cannot read the file; check the path", o.input));
  std::vector<OpDesc> ops;
  ASC_RETURN_IF_ERROR(parseOpJson(*text, o.input, &ops, exit_code));
  if (!o.op.empty()) {
    std::vector<OpDesc> one;
    for (auto& d : ops)
      if (d.op == o.op) one.push_back(d);
    if (one.empty())
      return failWith(exit_code, kOpDefineError, ErrorCode::InvalidParam,
                      fmt::format("-op {}: {} defines no such operator", o.op, o.input));
    ops.swap(one);
  }

  // The output folder.
  std::string root = o.output.empty() ? "." : o.output;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  struct stat st;
  const bool exists = ::stat(root.c_str(), &st) == 0;
  if (exists && !S_ISDIR(st.st_mode))
    return failWith(exit_code, kInvalidOutputPath, ErrorCode::InvalidParam,
                    fmt::format("-out {} exists and is no folder", root));
  const bool is_project = exists && ::access((root + "/CMakePresets.json").c_str(), F_OK) == 0 &&
                          ::access((root + "/op_kernel/CMakeLists.txt").c_str(), F_OK) == 0;
  std::vector<std::string> have;
  if (o.mode == 1) {
    if (!is_project)
      return failWith(exit_code, kInvalidOutputPath, ErrorCode::InvalidParam,
                      fmt::format("-m 1: {} is not an operator project made by opgen "
                                  "(CMakePresets.json and op_kernel/CMakeLists.txt); generate "
                                  "one with -m 0 first",
                                  root));
    have = existingOps(root);
    for (const auto& d : ops)
      if (std::find(have.begin(), have.end(), d.op) != have.end() ||
          ::access((root + "/op_host/" + d.snake + ".cpp").c_str(), F_OK) == 0)
        return failWith(exit_code, kOpDefineError, ErrorCode::InvalidParam,
                        fmt::format("-m 1: the project {} has operator {} already; remove it "
                                    "from the JSON or use -op to pick others",
                                    root, d.op));
  } else if (exists && !o.force) {
    bool empty = true;
    if (DIR* dir = ::opendir(root.c_str())) {
      while (dirent* e = ::readdir(dir))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") empty = false;
      ::closedir(dir);
    }
    if (!empty)
      return failWith(exit_code, kInvalidOutputPath, ErrorCode::InvalidParam,
                      fmt::format("-out {} is not empty; generate into a new folder, add "
                                  "operators to a project with -m 1, or pass --force to "
                                  "overwrite the project's files",
                                  root));
  }
  for (const auto& d : ops) report->ops.push_back(d.op);

  // The files, then one pass writing them.
  std::map<std::string, std::pair<std::string, bool>> files;  // path -> (text, executable)
  auto add = [&](const std::string& rel, std::string text, bool exe = false) {
    files[rel] = {std::move(text), exe};
  };
  std::string kernel_lines, ut_lines, st_lines;
  for (const auto& d : ops) {
    add("op_host/" + d.snake + "_tiling.h", tilingHeader(d));
    add("op_host/" + d.snake + ".cpp", opHost(d, info));
    add("op_kernel/" + d.snake + ".cpp", opKernel(d));
    if (framework != "aclnn") add(frameworkPluginPath(d, framework), frameworkPlugin(d, info));
    kernel_lines += kernelCmakeLine(d);
    // The generated UT and ST feed each input one tensor: an operator with a DYNAMIC input (a
    // tensor list) gets none (the project's own tests, like CANN's samples' AclNN folders, call
    // it).
    bool lists = false;
    for (const auto& p : d.inputs) lists |= p.param_type == "dynamic";
    if (lists) {
      ASC_LOG_INFO("op '{}' has a DYNAMIC input: no UT or ST is generated for it", d.op);
      continue;
    }
    add("testcases/common/" + d.snake + "_reference.h", referenceHeader(d));
    add("testcases/common/" + d.snake + "_harness.h", harnessHeader(d));
    add("testcases/ut/" + d.snake + "_ut.cpp", utSource(d));
    add("testcases/st/" + d.snake + "_st.cpp", stSource(d));
    add("testcases/st/" + d.snake + "/" + d.snake + ".onnx", stModel(d));
    ut_lines += utCmakeLine(d);
    st_lines += stCmakeLine(d);
  }
  const bool overwrite = o.force || o.mode == 1;
  if (o.mode == 1) {
    // Append the new operators' lines to the project's lists.
    for (const auto& [rel, lines] :
         {std::pair<std::string, std::string>{"op_kernel/CMakeLists.txt", kernel_lines},
          {"testcases/ut/CMakeLists.txt", ut_lines},
          {"testcases/st/CMakeLists.txt", st_lines}}) {
      auto old = detail::readText(root + "/" + rel);
      if (!old.isOk())
        return failWith(exit_code, kInvalidOutputPath, ErrorCode::FileOpenFailed,
                        fmt::format("-m 1: cannot read {}/{}", root, rel));
      add(rel, *old + lines);
    }
  } else {
    add("build.sh", buildSh(framework), true);
    add("CMakeLists.txt", cmakeLists());
    add("CMakePresets.json", cmakePresets(info));
    add("cmake/func.cmake", funcCmake());
    add("cmake/makeself.cmake", makeselfCmake());
    add("op_kernel/CMakeLists.txt", kernelCmakeHeader() + kernel_lines);
    add("testcases/CMakeLists.txt", testcasesCmake());
    add("testcases/ut/CMakeLists.txt", utCmakeHeader() + ut_lines);
    add("testcases/st/CMakeLists.txt", stCmakeHeader() + st_lines);
    add("testcases/st/run.sh", stRunSh(info), true);
    add("README.md", readme(info));
  }

  const bool created = !exists;
  if (created && ::mkdir(root.c_str(), 0755) != 0)
    return failWith(exit_code, kInvalidOutputPath, ErrorCode::FileWriteFailed,
                    fmt::format("cannot create -out {}: {}", root, std::strerror(errno)));
  for (const auto& [rel, f] : files) {
    // -m 1 rewrites only the lists; new operator files must not exist.
    const bool list = rel.find("CMakeLists.txt") != std::string::npos;
    Status s = writeFile(root, rel, f.first, f.second, overwrite && (o.force || list), exit_code);
    if (!s.isOk()) {
      if (created) {
        std::error_code ec;  // leave nothing of a half-written new project
        std::filesystem::remove_all(root, ec);
      }
      return s;
    }
    report->files.push_back(rel);
  }
  return Status::ok();
}

}  // namespace asc::opgen
