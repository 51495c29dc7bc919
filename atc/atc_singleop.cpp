// atc_singleop.cpp: see atc_singleop.h.
#include "atc_singleop.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "asc/compiler/single_op.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "atc_report.h"

namespace asc::atc {

Status buildSingleOps(const Options& o) {
  if (o.given(o.model) || o.given(o.framework))
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --singleop is invalid. Reason: --singleop builds "
                         "single-operator models from its own file; give it without --model and "
                         "--framework",
                         std::string(o.singleop));
  ASC_RETURN_IF_ERROR(requireValue(o.output, "output"));
  ASC_RETURN_IF_ERROR(requireValue(o.soc_version, "soc_version"));
  std::ifstream f(o.singleop);
  if (!f || isDirectory(o.singleop))
    return Status::error(ErrorCode::SingleOpOpen,
                         "cannot open --singleop file '{}'; check the path",
                         std::string(o.singleop));
  std::stringstream text;
  text << f.rdbuf();
  ASC_TRY(std::vector<singleop::OpDesc> ops, singleop::parseJson(text.str(), o.singleop));
  CompileOptions c;
  c.soc_version = o.soc_version;
  c.core_type = o.core_type;
  // The description gives each tensor's dtype: the op computes in those unless asked otherwise.
  c.precision.mode = o.given(o.precision_mode) ? std::string(o.precision_mode)
                                               : std::string("must_keep_origin_dtype");
  std::vector<std::pair<std::string, CompiledModel>> built;
  for (size_t i = 0; i < ops.size(); ++i) {
    auto m = singleop::compileOp(ops[i], c);
    if (!m) return m.status().withContext(fmt::format("--singleop {}: op {}", o.singleop, i));
    built.emplace_back(singleop::fileName(ops[i], i), std::move(*m));
  }
  std::string dir = o.output;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  ASC_RETURN_IF_ERROR(makeDirs(dir));
  for (auto& [name, m] : built) {
    m.info.atc_cmdline = o.cmdline;
    m.graph.name = name.substr(0, name.size() - 3);
    const std::string path = dir + "/" + name;
    ASC_RETURN_IF_ERROR(om::writeOm(m.graph, m.info, path));
    ASC_LOG_INFO("wrote {}", path);
  }
  return Status::ok();
}

}  // namespace asc::atc
