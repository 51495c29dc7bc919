// direct_call.cpp: an Ascend C operator called directly, as the aclnn API calls it (no model):
// prepareCall checks the application's tensors and attributes against the prototype, runs the
// tiling function and keeps the launch; pluginOpDescs reads a built plugin's prototypes for
// op_build, which writes the aclnn sources from them.
#include <dlfcn.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "asc/ascendc/kernel_context.h"
#include "asc/ascendc/launch.h"
#include "asc/opgen/opgen.h"
#include "asc/support/log.h"
#include "ophost/ophost_detail.h"

namespace asc::ophost {

using namespace detail;

namespace {

/// An output of a direct call, for the unwritten-output check.
struct CallOutput {
  uint8_t* data = nullptr;
  int64_t numel = 0;
  size_t elem = 0;
};

class DirectCall : public PreparedCall {
 public:
  DirectCall(Launch l, std::vector<void*> data, std::string soc, std::string api,
             std::vector<CallOutput> check, std::vector<std::shared_ptr<void>> lists)
      : launch_(std::move(l)),
        data_(std::move(data)),
        soc_(std::move(soc)),
        api_(std::move(api)),
        check_(std::move(check)),
        lists_(std::move(lists)) {}

  uint64_t workspaceBytes() const override { return launch_.workspace; }

  Status run(void* workspace, uint64_t bytes) override {
    if (bytes < launch_.workspace)
      return Status::error(ErrorCode::InvalidParam,
                           "the workspace holds {} bytes; the operator's tiling asked for {} "
                           "(pass the workspaceSize GetWorkspaceSize returned)",
                           bytes, launch_.workspace);
    if (launch_.workspace > 0 && !workspace)
      return Status::error(ErrorCode::InvalidParam,
                           "the workspace is a null pointer; the operator needs {} bytes",
                           launch_.workspace);
    std::vector<uint8_t*> args;
    for (void* p : data_) args.push_back(static_cast<uint8_t*>(p));
    args.push_back(static_cast<uint8_t*>(workspace));
    args.push_back(launch_.tiling.data());
    const KernelEntry fn = launch_.entry->fn;
    uint8_t** a = args.data();
    ascendc::LaunchOptions opt;
    opt.soc = soc_;
    opt.tiling_key = launch_.tiling_key;
    opt.sub_blocks = ascendc::subBlocksFor(soc_, launch_.entry->mixed);
    for (const CallOutput& o : check_) fillUnwritten(o.data, o.numel, o.elem);
    Status st = ascendc::launchKernel(
        launch_.entry->kernel.c_str(), launch_.blocks, [fn, a] { fn(a); }, opt);
    for (size_t i = 0; st.isOk() && i < check_.size(); ++i)
      st = checkUnwritten(check_[i].data, check_[i].numel, check_[i].elem, api_,
                          launch_.entry->kernel, i);
    return st;
  }

 private:
  Launch launch_;
  std::vector<void*> data_;
  std::string soc_;
  std::string api_;
  std::vector<CallOutput> check_;             // the outputs, with ASC_CHECK_UNWRITTEN=1; else empty
  std::vector<std::shared_ptr<void>> lists_;  // the DYNAMIC inputs' lists, kernel arguments
};

gert::RuntimeAttrs::Value attrValue(const ::ops::OpAttrDef& def, const CallAttr& a) {
  using V = gert::RuntimeAttrs::Value;
  V v = def.defaultValue();
  switch (v.kind) {
    case V::Int:
      v.i = a.i;
      break;
    case V::Float:
      v.f = static_cast<float>(a.f);
      break;
    case V::Bool:
      v.b = a.b;
      break;
    case V::Str:
      v.s = a.s;
      break;
    case V::ListInt:
      v.ints = a.ints;
      break;
    case V::ListFloat:
      v.floats = a.floats;
      break;
  }
  return v;
}

const char* attrType(const ::ops::OpAttrDef& a) {
  using V = gert::RuntimeAttrs::Value;
  switch (a.defaultValue().kind) {
    case V::Int:
      return "int";
    case V::Float:
      return "float";
    case V::Bool:
      return "bool";
    case V::Str:
      return "str";
    case V::ListInt:
      return "list_int";
    case V::ListFloat:
      return "list_float";
  }
  return "int";
}

/// The ge::DataType as opgen spells it ("DT_FLOAT16").
std::string dtName(ge::DataType t) {
  switch (t) {
    case ge::DT_FLOAT:
      return "DT_FLOAT";
    case ge::DT_FLOAT16:
      return "DT_FLOAT16";
    case ge::DT_BF16:
      return "DT_BF16";
    case ge::DT_INT8:
      return "DT_INT8";
    case ge::DT_UINT8:
      return "DT_UINT8";
    case ge::DT_INT16:
      return "DT_INT16";
    case ge::DT_UINT16:
      return "DT_UINT16";
    case ge::DT_INT32:
      return "DT_INT32";
    case ge::DT_UINT32:
      return "DT_UINT32";
    case ge::DT_INT64:
      return "DT_INT64";
    case ge::DT_UINT64:
      return "DT_UINT64";
    case ge::DT_DOUBLE:
      return "DT_DOUBLE";
    case ge::DT_BOOL:
      return "DT_BOOL";
    case ge::DT_COMPLEX64:
      return "DT_COMPLEX64";
    case ge::DT_COMPLEX128:
      return "DT_COMPLEX128";
    default:
      return "DT_UNDEFINED";
  }
}

std::string formatName(ge::Format f) {
  switch (f) {
    case ge::FORMAT_NCHW:
      return "NCHW";
    case ge::FORMAT_NHWC:
      return "NHWC";
    case ge::FORMAT_NC1HWC0:
      return "NC1HWC0";
    default:
      return "ND";
  }
}

/// An optional attribute's default as the ops-info file writes it.
std::string defaultText(const gert::RuntimeAttrs::Value& v) {
  using V = gert::RuntimeAttrs::Value;
  switch (v.kind) {
    case V::Int:
      return std::to_string(v.i);
    case V::Float:
      return fmt::format("{}", v.f);
    case V::Bool:
      return v.b ? "true" : "false";
    case V::Str:
      return v.s.str();
    case V::ListInt:
      return fmt::format("[{}]", fmt::join(v.ints, ","));
    case V::ListFloat:
      return fmt::format("[{}]", fmt::join(v.floats, ","));
  }
  return "";
}

}  // namespace

Result<std::unique_ptr<PreparedCall>> prepareCall(const std::string& api,
                                                  const std::string& op_type,
                                                  const std::vector<CallTensor>& inputs,
                                                  const std::vector<CallTensor>& outputs,
                                                  const std::vector<CallAttr>& attrs,
                                                  const std::string& soc) {
  const HostOp* op = findOp(op_type);
  if (!op)
    return Status::error(ErrorCode::UnsupportedOp,
                         "{}: the custom operator {} is not registered (its plugin, "
                         "lib<vendor>_ops.so beside op_api/, did not load)",
                         api, op_type);
  const ::ops::OpDef& d = *op->def;
  if (inputs.size() != d.inputs().size() || outputs.size() != d.outputs().size() ||
      attrs.size() != d.attrs().size())
    return Status::error(ErrorCode::InvalidParam,
                         "{}: {} takes {} inputs, {} outputs and {} attributes; the call passed "
                         "{}, {} and {} (regenerate the aclnn sources from this op_host)",
                         api, op_type, d.inputs().size(), d.outputs().size(), d.attrs().size(),
                         inputs.size(), outputs.size(), attrs.size());
  LaunchQuery q;
  q.where = api;
  q.node_name = op_type;
  q.soc = soc;
  std::vector<void*> data;
  // ASC_CHECK_UNWRITTEN=1: each output starts as a pattern, and one the kernel left in part is
  // an error of the launch (as msame's --check_unwritten).
  const char* env = std::getenv("ASC_CHECK_UNWRITTEN");
  const bool check_unwritten = env && (std::string(env) == "1" || std::string(env) == "true");
  std::vector<CallOutput> outs;
  std::vector<std::shared_ptr<void>> lists;  // the DYNAMIC inputs' list descriptions
  // A tensor's shape and element count, checked.
  auto checked = [&](const CallTensor& t, const std::string& what, gert::Shape* s,
                     int64_t* numel) -> Status {
    if (toIr(t.dtype) == ir::DType::Undefined)
      return Status::error(ErrorCode::InvalidParam,
                           "{}: {} has data type {}, which no Ascend C kernel takes", api, what,
                           t.dtype);
    if (t.dims.size() > gert::Shape::kMaxDimNum)
      return Status::error(ErrorCode::InvalidParam, "{}: {} has rank {}; at most {}", api, what,
                           t.dims.size(), gert::Shape::kMaxDimNum);
    *numel = 1;
    for (int64_t dim : t.dims) {
      if (dim < 0)
        return Status::error(ErrorCode::InvalidParam, "{}: {} has a negative dimension {}", api,
                             what, dim);
      s->AppendDim(dim);
      *numel *= dim;
    }
    if (!t.data && *numel > 0)
      return Status::error(ErrorCode::InvalidParam,
                           "{}: {} has {} elements and no data (aclCreateTensor's tensorData "
                           "is a null pointer)",
                           api, what, *numel);
    return Status::ok();
  };
  for (const auto* list : {&inputs, &outputs}) {
    const bool is_in = list == &inputs;
    for (size_t i = 0; i < list->size(); ++i) {
      const CallTensor& t = (*list)[i];
      const ::ops::OpParamDef& p = is_in ? d.inputs()[i] : d.outputs()[i];
      const std::string what = fmt::format("{} {} '{}'", is_in ? "input" : "output", i, p.name());
      const bool dynamic = p.paramType() == ::ops::DYNAMIC;
      if (dynamic != (t.present && t.is_list))
        return Status::error(ErrorCode::InvalidParam,
                             dynamic ? "{}: {} is a DYNAMIC parameter: pass an aclTensorList of "
                                       "its tensors"
                                     : "{}: {} takes one tensor, not a tensor list",
                             api, what);
      if (dynamic) {
        if (!is_in)
          return Status::error(ErrorCode::NotImplemented,
                               "{}: {} is a DYNAMIC output (a tensor list); asc-tools takes "
                               "DYNAMIC inputs only",
                               api, what);
        if (t.list.empty())
          return Status::error(ErrorCode::InvalidParam, "{}: {}'s tensor list is empty", api, what);
        if (q.list_shapes.size() < d.inputs().size()) {
          q.list_shapes.resize(d.inputs().size());
          q.list_data.resize(d.inputs().size());
        }
        // The list as a kernel reads it (kernel_operator_list_tensor_intf.h): the pointers'
        // offset; per tensor its rank and index, then its dims; the data pointers.
        std::vector<uint64_t> words{0};
        for (size_t k = 0; k < t.list.size(); ++k) {
          const CallTensor& e = t.list[k];
          const std::string ewhat = fmt::format("{} tensor {}", what, k);
          if (e.dtype != t.list[0].dtype)
            return Status::error(ErrorCode::InvalidParam,
                                 "{}: {} has data type {}, tensor 0 {}; a list holds one type", api,
                                 ewhat, e.dtype, t.list[0].dtype);
          gert::Shape s;
          int64_t numel = 0;
          ASC_RETURN_IF_ERROR(checked(e, ewhat, &s, &numel));
          q.list_shapes[i].push_back(s);
          q.list_data[i].push_back(e.data);
          words.push_back(uint64_t(e.dims.size()) | uint64_t(k) << 32);
          for (int64_t dim : e.dims) words.push_back(uint64_t(dim));
        }
        words[0] = words.size() * 8;
        for (const CallTensor& e : t.list) words.push_back(uint64_t(uintptr_t(e.data)));
        void* blob = ascendc::detail::gmAlloc(words.size() * 8);
        if (!blob)
          return Status::error(ErrorCode::MemoryExceeded, "{}: no memory for {}'s tensor list", api,
                               what);
        std::memcpy(blob, words.data(), words.size() * 8);
        lists.emplace_back(blob, [](void* b) { ascendc::detail::gmFree(b); });
        q.dtypes.push_back(t.list[0].dtype);
        q.shapes.emplace_back();
        q.data.push_back(nullptr);
        data.push_back(blob);
        continue;
      }
      if (!t.present) {
        if (!is_in || p.paramType() != ::ops::OPTIONAL)
          return Status::error(ErrorCode::InvalidParam, "{}: {} is a null pointer; it is required",
                               api, what);
        q.dtypes.push_back(ge::DT_UNDEFINED);
        q.shapes.emplace_back();
        q.data.push_back(nullptr);
        data.push_back(nullptr);
        continue;
      }
      gert::Shape s;
      int64_t numel = 0;
      ASC_RETURN_IF_ERROR(checked(t, what, &s, &numel));
      q.dtypes.push_back(t.dtype);
      q.shapes.push_back(s);
      q.data.push_back(t.data);
      data.push_back(t.data);
      if (!is_in && check_unwritten)
        outs.push_back({static_cast<uint8_t*>(t.data), numel, ir::dtypeSize(toIr(t.dtype))});
    }
  }
  for (size_t i = 0; i < attrs.size(); ++i)
    q.attrs.values().push_back(attrValue(d.attrs()[i], attrs[i]));
  ASC_TRY(Launch l, planLaunch(*op, q));
  // The launch is aclnn<Op>'s, the phase after aclnn<Op>GetWorkspaceSize.
  std::string launch_api = api;
  const std::string phase = "GetWorkspaceSize";
  if (launch_api.size() > phase.size() &&
      launch_api.compare(launch_api.size() - phase.size(), phase.size(), phase) == 0)
    launch_api.resize(launch_api.size() - phase.size());
  return std::unique_ptr<PreparedCall>(new DirectCall(
      std::move(l), std::move(data), soc, launch_api, std::move(outs), std::move(lists)));
}

Status loadCannVendor(const std::string& vendor, bool* found) {
  namespace fs = std::filesystem;
  std::error_code ec;
  struct utsname u {};
  uname(&u);
  const fs::path tbe = fs::path(vendor) / "op_impl" / "ai_core" / "tbe";
  const fs::path tiling =
      tbe / "op_tiling" / "lib" / "linux" / u.machine / "libcust_opmaster_rt2.0.so";
  *found = fs::exists(tiling, ec);
  if (!*found) return Status::ok();
  static std::mutex mu;
  static std::set<std::string> loaded;
  std::lock_guard<std::mutex> lock(mu);
  if (!loaded.insert(fs::weakly_canonical(vendor, ec).string()).second) return Status::ok();
  // The kernels of one compute unit: each object registers its entry when loaded.
  std::vector<fs::path> units;
  for (const auto& e : fs::directory_iterator(tbe / "kernel", ec))
    if (e.is_directory() && e.path().filename() != "config") units.push_back(e.path());
  std::sort(units.begin(), units.end());
  if (units.empty())
    return Status::error(ErrorCode::InvalidParam,
                         "{} has no compiled kernels (op_impl/ai_core/tbe/kernel/<unit>/): build "
                         "the project's binary target with asc-tools' opc",
                         vendor);
  // Each operator's kernels from one compute unit: ascend910b's where it has them, else the
  // first unit (by name) that does. Packages of several projects share a vendor folder, each
  // built for its own unit.
  std::map<std::string, fs::path> op_dirs;
  for (const auto& u2 : units)
    for (const auto& op_dir : fs::directory_iterator(u2, ec))
      if (op_dir.is_directory()) {
        const std::string name = op_dir.path().filename().string();
        if (!op_dirs.count(name) || u2.filename() == "ascend910b") op_dirs[name] = op_dir.path();
      }
  {
    std::lock_guard<std::mutex> state_lock(state().mu);
    state().pending_defs.clear();
    state().pending_entries.clear();
    state().pending_maps.clear();
  }
  if (!dlopen(tiling.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const char* why = dlerror();
    return Status::error(ErrorCode::InvalidParam, "{} could not be loaded: {}", tiling.string(),
                         why ? why : "unknown reason");
  }
  for (const auto& [name, op_dir] : op_dirs) {
    for (const auto& f : fs::directory_iterator(op_dir, ec)) {
      if (f.path().extension() != ".o") continue;
      if (!dlopen(f.path().c_str(), RTLD_NOW | RTLD_LOCAL)) {
        const char* why = dlerror();
        return Status::error(ErrorCode::InvalidParam,
                             "the kernel {} could not be loaded: {}; rebuild it with asc-tools' "
                             "opc",
                             f.path().string(), why ? why : "unknown reason");
      }
    }
  }
  // Framework plugins (REGISTER_CUSTOM_OP): CANN loads every library under a custom vendor's
  // framework/ folder and keeps the registrations of the framework being read, so a sample's
  // ONNX plugin installed under framework/tensorflow still serves ONNX models.
  std::vector<fs::path> parsers;
  std::error_code fec;
  for (auto it = fs::recursive_directory_iterator(fs::path(vendor) / "framework", fec);
       !fec && it != fs::recursive_directory_iterator(); it.increment(fec))
    if (it->is_regular_file() && it->path().extension() == ".so") parsers.push_back(it->path());
  std::sort(parsers.begin(), parsers.end());
  // One that does not load costs its framework mappings only (the aclnn API and OMs naming the
  // operator need none): a warning, as in CANN's loader.
  for (const auto& p : parsers)
    if (!dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      const char* why = dlerror();
      ASC_LOG_WARN(
          "the framework plugin {} could not be loaded: {}; its mappings are left out "
          "(rebuild it against this asc-tools SDK)",
          p.string(), why ? why : "unknown reason");
    }
  // Kernels of operators this tiling library does not declare (other projects' leftovers in
  // the same vendor folder) are dropped by the registration.
  {
    std::lock_guard<std::mutex> state_lock(state().mu);
    std::set<std::string> declared;
    for (const auto& d : state().pending_defs) declared.insert(d->type());
    auto& entries = state().pending_entries;
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [&](const Entry& e) { return !declared.count(e.op_type); }),
                  entries.end());
  }
  ops::PluginRegistrar r(vendor);
  registerPending(r);
  return r.status();
}

Result<std::vector<opgen::OpDesc>> pluginOpDescs(const std::string& file) {
  {
    std::lock_guard<std::mutex> lock(state().mu);
    state().pending_defs.clear();
    state().pending_entries.clear();
  }
  // Loading runs the library's static initializers (OP_ADD); it stays loaded, as the
  // prototypes' functions live in it. The kernels need not be in it (CANN's projects build
  // op_host alone into the library op_build reads).
  // A bare file name is the file here, not a library to look up on the search path.
  const std::string path = file.find('/') == std::string::npos ? "./" + file : file;
  if (!dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    const char* why = dlerror();
    return Status::error(ErrorCode::InvalidParam, "{} could not be loaded: {}", file,
                         why ? why : "unknown reason");
  }
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.pending_defs.empty())
    return Status::error(ErrorCode::InvalidParam,
                         "{} declares no operator (no OP_ADD in its op_host sources)", file);
  std::vector<opgen::OpDesc> out;
  for (const auto& def : s.pending_defs) {
    opgen::OpDesc o;
    o.op = def->type();
    o.snake = opgen::snakeCase(o.op);
    for (const auto* list : {&def->inputs(), &def->outputs()})
      for (const auto& p : *list) {
        if (p.paramType() == ::ops::DYNAMIC && list != &def->inputs())
          return Status::error(ErrorCode::NotImplemented,
                               "custom operator {}: output '{}' is DYNAMIC (a tensor list); "
                               "asc-tools' aclnn API takes DYNAMIC inputs only",
                               o.op, p.name());
        opgen::ParamDesc pd;
        pd.name = p.name();
        pd.param_type = p.paramType() == ::ops::OPTIONAL  ? "optional"
                        : p.paramType() == ::ops::DYNAMIC ? "dynamic"
                                                          : "required";
        for (ge::DataType t : p.types()) pd.types.push_back(dtName(t));
        for (size_t i = 0; i < p.types().size(); ++i)
          pd.formats.push_back(i < p.formats().size() ? formatName(p.formats()[i]) : "ND");
        (list == &def->inputs() ? o.inputs : o.outputs).push_back(std::move(pd));
      }
    for (const auto& a : def->attrs()) {
      opgen::AttrDesc ad;
      ad.name = a.name();
      ad.param_type = a.required() ? "required" : "optional";
      ad.type = attrType(a);
      if (!a.required()) ad.default_value = defaultText(a.defaultValue());
      o.attrs.push_back(std::move(ad));
    }
    o.socs = def->aicore().socs();
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace asc::ophost
