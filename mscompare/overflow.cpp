// overflow.cpp: mscompare overflow -m DUMP_DIR: the layers of an OM's dump (msame --dump, or a
// device's) whose outputs overflowed: an fp16 output holding inf, NaN or |x| >= 65504, or any
// float output holding inf or NaN. Listed in execution order, first one first, with the source
// model's node names of fused ops. Exit 1 when anything overflowed, 0 when nothing did.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>

#include "asc/cli/common.h"
#include "asc/cli/options.h"
#include "asc/support/fp16.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "asc/tensorio/dump_file.h"
#include "mscompare_commands.h"

namespace asc::mscompare {
namespace {

constexpr double kFp16Max = 65504.0;

struct Hit {
  uint64_t timestamp = 0;
  std::string file, op, op_type, original;
  size_t output = 0;
  std::string dtype;
  uint64_t elements = 0, nan = 0, inf = 0, saturated = 0;
  double max_abs = 0;  // the largest finite |x|
};

// Counts the overflowed elements of one float output; false when it has none.
bool scan(const ir::Tensor& t, Hit* h) {
  const int64_t n = t.numel();
  const uint8_t* p = t.data ? t.data->data() : nullptr;
  if (!p) return false;
  const bool half = t.dtype == ir::DType::F16;
  for (int64_t i = 0; i < n; ++i) {
    // Tensors stay where they lie in the mapped dump file, at any alignment: read by copy.
    double x;
    if (half) {
      uint16_t h;
      std::memcpy(&h, p + i * 2, 2);
      x = halfToFloat(h);
    } else if (t.dtype == ir::DType::F32) {
      float f;
      std::memcpy(&f, p + i * 4, 4);
      x = f;
    } else if (t.dtype == ir::DType::F64) {
      std::memcpy(&x, p + i * 8, 8);
    } else {
      return false;
    }
    if (std::isnan(x)) {
      ++h->nan;
    } else if (std::isinf(x)) {
      ++h->inf;
    } else {
      h->max_abs = std::max(h->max_abs, std::fabs(x));
      if (half && std::fabs(x) >= kFp16Max) ++h->saturated;
    }
  }
  h->elements = static_cast<uint64_t>(n);
  h->dtype = ir::dtypeName(t.dtype);
  return h->nan + h->inf + h->saturated > 0;
}

struct OverflowLine : cli::Given {
  std::string dir, format, log;
  bool help = false;
};

const cli::OptionTable<OverflowLine>& overflowTable() {
  static const cli::OptionTable<OverflowLine> t = [] {
    using L = OverflowLine;
    cli::OptionTable<L> t("mscompare overflow", cli::Syntax::Argparse);
    t.text("--my_dump_path -m", &L::dir, "", "DIR", "the dump folder (searched recursively)");
    t.choice("--format", &L::format, "table|json", "table", "the list on stdout");
    t.text("--log", &L::log, "", "LEVEL", "debug, info, warning, error or null");
    t.flag("--help -h", &L::help, "show this help");
    return t;
  }();
  return t;
}

std::string usage() {
  return "usage: mscompare overflow -m DUMP_DIR [--format table|json]\n\n"
         "Lists the layers of a dump (msame --dump true, or an NPU's) whose outputs overflowed:\n"
         "fp16 outputs holding inf, NaN or |x| >= 65504, other float outputs holding inf or NaN.\n"
         "Execution order (the dump's timestamps), first one first, with the source model's\n"
         "node names of fused ops. Exit 0 when nothing overflowed, 1 when something did, 2 on\n"
         "error.\n\n"
         "options:\n" +
         overflowTable().help();
}

}  // namespace

int overflowMain(int argc, const char* const* argv, std::ostream& out) {
  auto line = overflowTable().parse(argc, argv);
  if (!line) return fail(line.status());
  if (line->help) {
    out << usage();
    return 0;
  }
  if (line->dir.empty())
    return fail(Status::error(ErrorCode::RequiredParam,
                              "mscompare overflow: -m (--my_dump_path) is required: the dump "
                              "folder of msame --dump true"));
  if (Status st = cli::applyLogOption(line->log, line->given(line->log)); !st) return fail(st);
  const std::string dir = line->dir, format = line->format;
  if (!isDirectory(dir))
    return fail(Status::error(ErrorCode::FileOpenFailed,
                              "-m '{}' is no folder; give the dump folder of msame --dump true",
                              dir));
  std::vector<std::string> files;
  if (Status st = walkFiles(dir, &files); !st) return fail(st);
  std::vector<Hit> hits;
  size_t dumps = 0, outputs = 0;
  for (const auto& f : files) {
    tensorio::DumpName name;
    if (!tensorio::parseDumpFileName(baseName(f), &name)) continue;
    auto d = tensorio::readDumpFile(f);
    if (!d) return fail(d.status().withContext(f));
    ++dumps;
    std::string original;
    for (const auto& [k, v] : d->attrs)
      if (k == "_datadump_original_op_names") original = v;
    for (size_t i = 0; i < d->outputs.size(); ++i) {
      ++outputs;
      Hit h;
      h.timestamp = name.timestamp;
      h.file = f;
      h.op = d->op_name.empty() ? name.op_name : d->op_name;
      h.op_type = name.op_type;
      h.output = i;
      h.original = original.empty() ? d->outputs[i].original_op_name : original;
      if (scan(d->outputs[i].tensor, &h)) hits.push_back(std::move(h));
    }
  }
  if (dumps == 0)
    return fail(Status::error(ErrorCode::FileReadFailed,
                              "no dump file in '{}'; dump files are named "
                              "{{op_type}}.{{op}}.{{task}}.{{stream}}.{{timestamp}} (msame --dump "
                              "true writes them)",
                              dir));
  std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    return std::tie(a.timestamp, a.file, a.output) < std::tie(b.timestamp, b.file, b.output);
  });
  const int code = hits.empty() ? 0 : cli::kExitFailed;
  if (format == "json") {
    std::string list;
    for (const auto& h : hits)
      list += fmt::format(
          "{}\n    {{\"op\": {}, \"op_type\": {}, \"output\": {}, \"original_ops\": {}, "
          "\"dtype\": {}, \"elements\": {}, \"nan\": {}, \"inf\": {}, \"fp16_saturated\": {}, "
          "\"max_abs_finite\": {:.9g}, \"file\": {}}}",
          list.empty() ? "" : ",", jsonQuote(h.op), jsonQuote(h.op_type), h.output,
          jsonQuote(h.original), jsonQuote(h.dtype), h.elements, h.nan, h.inf, h.saturated,
          h.max_abs, jsonQuote(h.file));
    out << fmt::format(
        "{{\n  \"dump_files\": {},\n  \"outputs\": {},\n  \"overflowed\": {},\n  \"first\": {},\n"
        "  \"layers\": [{}{}],\n  \"exit_code\": {}\n}}\n",
        dumps, outputs, hits.size(), hits.empty() ? "null" : jsonQuote(hits.front().op), list,
        list.empty() ? "" : "\n  ", code);
    return code;
  }
  out << fmt::format("{:<22}{}\n{:<22}{}\n{:<22}{}\n", "dump files", dumps, "outputs checked",
                     outputs, "overflowed", hits.size());
  if (!hits.empty()) {
    out << fmt::format("{:>3}  {:<32} {:<14} {:>3}  {:>8} {:>8} {:>10}  {:>12}  {}\n", "#", "op",
                       "type", "out", "nan", "inf", ">=65504", "max |x|", "original ops");
    for (size_t i = 0; i < hits.size(); ++i) {
      const Hit& h = hits[i];
      out << fmt::format("{:>3}  {:<32} {:<14} {:>3}  {:>8} {:>8} {:>10}  {:>12.6g}  {}\n", i + 1,
                         h.op, h.op_type, h.output, h.nan, h.inf, h.saturated, h.max_abs,
                         h.original);
    }
    out << fmt::format(
        "mscompare: {} overflowed first ({} output {}): keep it in fp32 (atc --keep_dtype with "
        "the line '{}') or use --precision_mode=allow_mix_precision\n",
        hits.front().op, hits.front().dtype, hits.front().output,
        hits.front().original.empty() ? hits.front().op
                                      : splitString(hits.front().original, ',').back());
  } else {
    out << "mscompare: no output overflowed\n";
  }
  return code;
}

}  // namespace asc::mscompare
