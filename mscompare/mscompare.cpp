// mscompare.cpp: collect tensors on both sides (dump files, golden .npy, msame outputs, plain
// tensor files: read by mscompare_tensors.cpp), pair them by op name and output index (through the
// fusion rule file when given; dump inputs by op name and input index when both sides have them),
// put them in execution order, bring dump tensors stored in a device layout (NC1HWC0, FRACTAL_Z,
// FRACTAL_NZ) back to their origin layout, compare each pair with asc::compare, then write
// result_<ts>.csv atomically and print a summary. Exit 0 all pass, 1 any fails, 2 on error.
#include "mscompare.h"

#include <dirent.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <limits>
#include <map>
#include <tuple>
#include <memory>

#include "asc/cli/common.h"
#include "asc/compare/advisor.h"
#include "asc/compare/fusion_rule.h"
#include "asc/compare/metrics.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "asc/tensorio/dump_file.h"
#include "asc/tensorio/layout_convert.h"
#include "asc/tensorio/tensor_file.h"
#include "html_report.h"
#include "mscompare_commands.h"
#include "mscompare_options.h"
#include "mscompare_tensors.h"

namespace asc::mscompare {

Status walkFiles(const std::string& dir, std::vector<std::string>* files) {
  ASC_TRY(std::vector<std::string> names, listDir(dir));
  for (const auto& n : names) {
    std::string p = dir + "/" + n;
    if (isDirectory(p))
      ASC_RETURN_IF_ERROR(walkFiles(p, files));
    else
      files->push_back(p);
  }
  return Status::ok();
}

namespace {

using compare::Metric;

std::string jsonNumber(double v) {
  if (std::isnan(v) || std::isinf(v)) return "null";
  return fmt::format("{}", v);
}

std::string shapeText(const ir::Shape& s) {
  std::string o = "[";
  for (size_t i = 0; i < s.size(); ++i) o += (i ? ", " : "") + std::to_string(s[i]);
  return o + "]";
}

std::string timestampNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  return buf;
}

// One result row.
struct Row {
  const Entry* my = nullptr;
  const Entry* golden = nullptr;
  std::string golden_names;  // GroundTruth column
  std::string my_dtype = "NaN", golden_dtype = "NaN", my_address = "NaN", shape = "NaN";
  ir::DType my_type = ir::DType::Undefined;
  compare::CompareResult result;
  bool compared = false, failed = false;
  std::string reason;  // when not compared
};

class Runner {
 public:
  Runner(const Options& o, std::ostream& out) : o_(o), out_(out) {}

  // Returns 0/1 through *exit_code, or an error.
  Status run(int* exit_code);

 private:
  Status collect(const std::string& path, bool is_dir, std::vector<Entry>* out);
  void order();
  Status compareAll(bool file_mode);
  Status writeCsv();
  void printTable(int exit_code) const;
  void printJson(int exit_code) const;

  const Options& o_;
  std::ostream& out_;
  std::vector<Metric> metrics_;
  std::vector<Metric> extra_;  // computed, not printed: cosine for --min_cosine, more for --html
  compare::Advice advice_;     // for the first failing layer of an fp16 run
  void advise();
  Status writeHtml() const;
  ir::DType raw_dtype_ = ir::DType::F32;
  compare::FusionRule rule_;
  bool has_rule_ = false;
  std::map<std::string, size_t> rule_index_;  // sanitized device op name -> position in rule_
  std::vector<Entry> my_, golden_;
  std::vector<Row> rows_;
  std::string csv_path_;
  std::map<std::string, std::pair<compare::Tolerance, bool>>
      tolerances_;  // dtype -> (tol, default)
};

Status Runner::collect(const std::string& path, bool is_dir, std::vector<Entry>* out) {
  if (!is_dir) return classify(path, true, out);
  std::vector<std::string> files;
  ASC_RETURN_IF_ERROR(walkFiles(path, &files));
  for (const auto& f : files) ASC_RETURN_IF_ERROR(classify(f, false, out));
  // Several dumps of one op (data_index folders, loops): keep the latest of each tensor.
  std::map<std::tuple<std::string, bool, int>, size_t> seen;
  std::vector<Entry> unique;
  for (auto& e : *out) {
    auto k = std::make_tuple(e.key, e.input, e.index);
    auto it = seen.find(k);
    if (it == seen.end()) {
      seen[k] = unique.size();
      unique.push_back(e);
    } else {
      ASC_LOG_WARN("'{}' and '{}' hold the same tensor ({} {} {}); using the later one",
                   unique[it->second].path, e.path, e.op, kindName(e), e.index);
      if (e.timestamp >= unique[it->second].timestamp) unique[it->second] = e;
    }
  }
  *out = std::move(unique);
  return Status::ok();
}

void Runner::order() {
  auto pos = [&](const Entry& e) {
    auto it = rule_index_.find(e.key);
    return it == rule_index_.end() ? std::numeric_limits<size_t>::max() : it->second;
  };
  std::stable_sort(my_.begin(), my_.end(), [&](const Entry& a, const Entry& b) {
    if (has_rule_ && pos(a) != pos(b)) return pos(a) < pos(b);
    if (a.timestamp != b.timestamp) return a.timestamp < b.timestamp;
    if (a.key != b.key) return a.key < b.key;
    if (a.input != b.input) return a.input;  // a dump's inputs before its outputs
    return a.index < b.index;
  });
}

Status Runner::compareAll(bool file_mode) {
  std::map<std::tuple<std::string, bool, int>, const Entry*> golden_by_key;
  for (const auto& g : golden_) golden_by_key[{g.key, g.input, g.index}] = &g;
  // File mode pairs by position, inputs with inputs and outputs with outputs.
  std::vector<const Entry*> golden_inputs, golden_outputs;
  for (const auto& g : golden_) (g.input ? golden_inputs : golden_outputs).push_back(&g);
  size_t my_inputs_seen = 0, my_outputs_seen = 0;
  DumpCache my_cache, golden_cache;
  for (size_t i = 0; i < my_.size(); ++i) {
    const Entry& m = my_[i];
    Row row;
    row.my = &m;
    // Which golden tensor: the file given (file mode), the last original op of a fused op
    // (fusion rule), the dump's own OriginalOp, or the op's own name. A dump input is paired
    // with the same input of the golden dump of the same op.
    std::string gkey = m.key;
    int gindex = m.index;
    row.golden_names = m.op;
    auto rit = rule_index_.find(m.key);
    if (file_mode) {
      const auto& same_kind = m.input ? golden_inputs : golden_outputs;
      const size_t k = m.input ? my_inputs_seen++ : my_outputs_seen++;
      row.golden = k < same_kind.size() ? same_kind[k] : nullptr;
      if (row.golden) row.golden_names = row.golden->op;
    } else if (m.input) {
      auto git = golden_by_key.find({gkey, true, gindex});
      row.golden = git == golden_by_key.end() ? nullptr : git->second;
    } else {
      if (rit != rule_index_.end() && !rule_.ops[rit->second].original_names.empty()) {
        const auto& names = rule_.ops[rit->second].original_names;
        gkey = tensorio::dumpSafeName(names.back());
        row.golden_names.clear();
        for (size_t k = 0; k < names.size(); ++k) row.golden_names += (k ? "," : "") + names[k];
      } else if (!m.original_op.empty()) {
        gkey = tensorio::dumpSafeName(m.original_op);
        gindex = m.original_index;
        row.golden_names = m.original_op;
      }
      auto git = golden_by_key.find({gkey, false, gindex});
      row.golden = git == golden_by_key.end() ? nullptr : git->second;
    }
    if (!row.golden) {
      row.reason = fmt::format("There is no golden data for {} {} {}.", m.op, kindName(m), m.index);
      rows_.push_back(std::move(row));
      continue;
    }
    ASC_TRY(Loaded x, load(m, raw_dtype_, &my_cache));
    ASC_TRY(Loaded y, load(*row.golden, raw_dtype_, &golden_cache));
    row.my_type = x.view.dtype;
    row.my_dtype = ir::dtypeName(x.view.dtype);
    row.golden_dtype = ir::dtypeName(y.view.dtype);
    if (x.has_address) row.my_address = fmt::format("{}", x.address);
    // Device layouts back to the origin layout; a dump that cannot be converted is a failed
    // row in a folder (the rest still compare), an error for a single pair of files.
    Status conv = toOrigin(m, &x);
    if (conv) conv = toOrigin(*row.golden, &y);
    row.shape = shapeText(x.shape);
    if (!conv) {
      if (file_mode) return conv;
      ASC_LOG_WARN("{}", conv.toString());
      row.reason = conv.message();
      row.failed = true;
      rows_.push_back(std::move(row));
      continue;
    }
    compare::CompareOptions co;
    co.threads = o_.threads;
    co.metrics = metrics_;
    co.metrics.insert(co.metrics.end(), extra_.begin(), extra_.end());
    co.my_name = m.path;
    co.golden_name = row.golden->path;
    const ir::DType coarse = compare::lessPrecise(x.view.dtype, y.view.dtype);
    const compare::Tolerance def = compare::defaultTolerance(coarse);
    co.tolerance.atol = o_.atol ? *o_.atol : def.atol;
    co.tolerance.rtol = o_.rtol ? *o_.rtol : def.rtol;
    tolerances_[ir::dtypeName(coarse)] = {co.tolerance, !o_.atol || !o_.rtol};
    auto r = compare::compareTensors(x.view, y.view, co);
    if (!r) {
      if (file_mode) return r.status();
      // In a folder one bad pair is a failed row, not the end of the run.
      ASC_LOG_WARN("{}", r.status().toString());
      row.reason = r.status().message();
      row.failed = true;
      rows_.push_back(std::move(row));
      continue;
    }
    row.result = std::move(*r);
    row.compared = true;
    row.failed = !row.result.passed();
    const bool half = x.view.dtype == ir::DType::F16;
    if (o_.min_cosine) {
      const double cos = row.result.value[static_cast<size_t>(Metric::CosineSimilarity)];
      if (!std::isnan(cos) && cos < *o_.min_cosine) {
        row.failed = true;
        std::string& why = row.result.fail_reason;
        why += fmt::format("{}CosineSimilarity {} is below --min_cosine {:g}",
                           why.empty() ? "" : "; ", compare::formatValue(cos), *o_.min_cosine);
      }
    }
    // A diagnosis, not only a verdict: golden values that fp16 cannot represent.
    const double gmax = row.result.golden_max_abs;
    if (row.failed && half && std::isfinite(gmax)) {
      std::string& why = row.result.fail_reason;
      if (gmax < 6.103515625e-05)  // fp16's smallest normal number
        why += fmt::format(
            "{}fp16 underflow: every golden value is below fp16's smallest normal "
            "number (max |y| {:.3g}); keep this layer and the layers feeding it "
            "in fp32 (atc --keep_dtype)",
            why.empty() ? "" : "; ", gmax);
      else if (gmax > 65504.0)
        why += fmt::format(
            "{}fp16 overflow: golden values exceed fp16's largest number (max |y| "
            "{:.3g}); keep this layer in fp32 (atc --keep_dtype)",
            why.empty() ? "" : "; ", gmax);
    }
    rows_.push_back(std::move(row));
  }
  return Status::ok();
}

Status Runner::writeCsv() {
  std::string csv =
      "Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,Address,TensorIndex,Shape";
  for (Metric m : metrics_) csv += std::string(",") + compare::metricName(m);
  csv += ",CompareFailReason\n";
  for (size_t i = 0; i < rows_.size(); ++i) {
    const Row& r = rows_[i];
    std::vector<std::string> cells = {
        std::to_string(i),
        r.my->op_type.empty() ? "NaN" : r.my->op_type,
        r.my->op,
        r.my_dtype,
        r.my_address,
        r.golden ? r.golden_names : "*",
        r.golden_dtype,
        "NaN",
        fmt::format("{}:{}:{}", r.my->op, kindName(*r.my), r.my->index),
        r.shape};
    for (Metric m : metrics_)
      cells.push_back(r.compared ? r.result.text[static_cast<int>(m)] : "NaN");
    std::string reason = r.compared ? r.result.fail_reason : r.reason;
    cells.push_back(reason);
    for (size_t c = 0; c < cells.size(); ++c) csv += (c ? "," : "") + csvField(cells[c]);
    csv += '\n';
  }
  ASC_RETURN_IF_ERROR(makeDirs(o_.output));
  csv_path_ = o_.output + "/result_" + timestampNow() + ".csv";
  return writeFileAtomic(csv_path_, csv.data(), csv.size());
}

void Runner::printTable(int exit_code) const {
  size_t compared = 0, passed = 0, failed = 0, missing = 0;
  const Row* first = nullptr;
  for (const auto& r : rows_) {
    if (r.compared) ++compared;
    if (r.compared && !r.failed) ++passed;
    if (r.failed) {
      ++failed;
      if (!first) first = &r;
    }
    if (!r.golden) ++missing;
  }
  out_ << fmt::format("{:<22}{}\n", "tensors compared", compared);
  out_ << fmt::format("{:<22}{}\n", "passed", passed);
  out_ << fmt::format("{:<22}{}\n", "failed", failed);
  if (missing) out_ << fmt::format("{:<22}{}\n", "no golden data", missing);
  if (first) {
    std::string detail;
    if (first->compared) {
      const auto& res = first->result;
      if (res.violations > 0) {
        detail =
            fmt::format(": {} of {} elements outside tolerance, first at element {}, max |x-y| {}",
                        res.violations, res.count, res.first_violation,
                        compare::formatValue(res.max_violation_diff));
        if (!res.text[0].empty()) detail += ", CosineSimilarity " + res.text[0];
        if (!res.fail_reason.empty()) detail += "; " + res.fail_reason;
      } else {
        detail = ": " + res.fail_reason;  // within tolerance, failed on --min_cosine
      }
    } else {
      detail = ": " + first->reason;
    }
    out_ << fmt::format("{:<22}{} {} {} (golden {}){}\n", "first failing layer", first->my->op,
                        kindName(*first->my), first->my->index, first->golden_names, detail);
  } else {
    out_ << fmt::format("{:<22}none\n", "first failing layer");
  }
  if (!advice_.cause.empty()) {
    out_ << fmt::format("{:<22}{}\n", "likely cause", advice_.cause);
    out_ << fmt::format("{:<22}{}\n", "fix", advice_.fix);
  }
  if (!o_.html.empty()) out_ << fmt::format("{:<22}{}\n", "html", o_.html);
  for (const auto& [dtype, tol] : tolerances_)
    out_ << fmt::format("{:<22}atol={:g} rtol={:g} ({}{})\n", "tolerance", tol.first.atol,
                        tol.first.rtol, dtype, tol.second ? ", default for this dtype" : "");
  if (o_.min_cosine) out_ << fmt::format("{:<22}{:g}\n", "min cosine", *o_.min_cosine);
  out_ << fmt::format("{:<22}{}\n", "result", csv_path_);
  out_
      << (exit_code == 0
              ? "mscompare: all tensors within tolerance\n"
              : (o_.min_cosine
                     ? "mscompare: some tensors are outside tolerance or below the cosine minimum\n"
                     : "mscompare: some tensors are outside tolerance\n"));
}

void Runner::printJson(int exit_code) const {
  size_t compared = 0, passed = 0, failed = 0, missing = 0;
  const Row* first = nullptr;
  std::string tensors;
  for (const auto& r : rows_) {
    if (r.compared) ++compared;
    if (r.compared && !r.failed) ++passed;
    if (r.failed && !first) first = &r;
    if (r.failed) ++failed;
    if (!r.golden) ++missing;
    std::string t = fmt::format(
        "{{\"op\": {}, \"op_type\": {}, \"tensor\": \"{}\", \"output\": {}, \"golden\": {}, "
        "\"my_file\": {}, \"golden_file\": {}, \"compared\": {}, \"passed\": {}",
        jsonQuote(r.my->op), jsonQuote(r.my->op_type), kindName(*r.my), r.my->index,
        jsonQuote(r.golden_names), jsonQuote(r.my->path),
        r.golden ? jsonQuote(r.golden->path) : "null", r.compared ? "true" : "false",
        r.compared && !r.failed ? "true" : "false");
    if (r.compared) {
      const auto& res = r.result;
      t += fmt::format(
          ", \"elements\": {}, \"violations\": {}, \"first_violation\": {}, \"atol\": {}, "
          "\"rtol\": {}, \"nan\": [{}, {}], \"inf\": [{}, {}], \"metrics\": {{",
          res.count, res.violations, res.first_violation, jsonNumber(res.tolerance.atol),
          jsonNumber(res.tolerance.rtol), res.my.nan, res.golden.nan,
          res.my.pos_inf + res.my.neg_inf, res.golden.pos_inf + res.golden.neg_inf);
      for (size_t k = 0; k < metrics_.size(); ++k)
        t += fmt::format("{}{}: {}", k ? ", " : "", jsonQuote(compare::metricName(metrics_[k])),
                         jsonQuote(res.text[static_cast<int>(metrics_[k])]));
      t += "}";
    }
    std::string reason = r.compared ? r.result.fail_reason : r.reason;
    t += fmt::format(", \"reason\": {}}}", jsonQuote(reason));
    tensors += (tensors.empty() ? "\n    " : ",\n    ") + t;
  }
  out_ << "{\n";
  out_ << fmt::format("  \"compared\": {},\n  \"passed\": {},\n  \"failed\": {},\n", compared,
                      passed, failed);
  out_ << fmt::format("  \"no_golden\": {},\n", missing);
  if (first)
    out_ << fmt::format("  \"first_failing\": {{\"op\": {}, \"output\": {}, \"golden\": {}}},\n",
                        jsonQuote(first->my->op), first->my->index, jsonQuote(first->golden_names));
  else
    out_ << "  \"first_failing\": null,\n";
  if (!advice_.cause.empty())
    out_ << fmt::format("  \"advice\": {{\"cause\": {}, \"fix\": {}}},\n", jsonQuote(advice_.cause),
                        jsonQuote(advice_.fix));
  else
    out_ << "  \"advice\": null,\n";
  out_ << fmt::format("  \"result_csv\": {},\n  \"exit_code\": {},\n", jsonQuote(csv_path_),
                      exit_code);
  out_ << "  \"tensors\": [" << tensors << (tensors.empty() ? "]\n" : "\n  ]\n") << "}\n";
}

// The advice for the first failing layer (an fp16 run's only); the layers just before it
// stand for the values feeding it.
void Runner::advise() {
  constexpr size_t kFeeding = 3;
  std::vector<double> recent;
  for (const auto& r : rows_) {
    if (r.failed && r.compared) {
      compare::LayerFacts f;
      f.op_type = r.my->op_type;
      f.source_name = splitString(r.golden_names, ',').back();
      f.my_dtype = r.my_type;
      f.result = &r.result;
      for (double v : recent)
        if (std::isfinite(v) && !(f.feeding_max_abs >= v)) f.feeding_max_abs = v;
      advice_ = compare::adviseFp16(f);
      return;
    }
    if (r.failed) return;  // a failure the comparison could not measure: no advice
    if (r.compared) {
      recent.push_back(r.result.golden_max_abs);
      if (recent.size() > kFeeding) recent.erase(recent.begin());
    }
  }
}

Status Runner::writeHtml() const {
  std::vector<HtmlLayer> layers;
  for (const auto& r : rows_) {
    HtmlLayer l;
    l.label = fmt::format("{} {} {}", r.my->op, kindName(*r.my), r.my->index);
    l.op_type = r.my->op_type;
    l.golden = r.golden_names;
    l.compared = r.compared;
    if (r.compared) {
      l.cosine = r.result.value[static_cast<size_t>(Metric::CosineSimilarity)];
      l.max_rel = r.result.value[static_cast<size_t>(Metric::MaxRelativeError)];
    }
    l.failed = r.failed;
    l.reason = r.compared ? r.result.fail_reason : r.reason;
    layers.push_back(std::move(l));
  }
  std::string advice;
  if (!advice_.cause.empty())
    advice = "Likely cause: " + advice_.cause + ". Fix: " + advice_.fix + ".";
  return writeHtmlReport(o_.html, "mscompare: " + o_.my_path + " against " + o_.golden_path, layers,
                         advice);
}

Status Runner::run(int* exit_code) {
  ASC_TRY(metrics_, compare::parseMetricList(o_.algorithm));
  // --min_cosine needs the cosine even when -alg did not ask for it (it is not printed then).
  auto extra = [&](Metric m) {
    if (std::find(metrics_.begin(), metrics_.end(), m) == metrics_.end() &&
        std::find(extra_.begin(), extra_.end(), m) == extra_.end())
      extra_.push_back(m);
  };
  if (o_.min_cosine || !o_.html.empty()) extra(Metric::CosineSimilarity);
  if (!o_.html.empty()) extra(Metric::MaxRelativeError);
  ASC_TRY(raw_dtype_, parseDtype(o_.dtype));
  const bool my_dir = isDirectory(o_.my_path), golden_dir = isDirectory(o_.golden_path);
  for (const auto& [p, opt] : {std::make_pair(o_.my_path, "--my_dump_path"),
                               std::make_pair(o_.golden_path, "--golden_dump_path")})
    if (!isDirectory(p) && !fileExists(p))
      return Status::error(ErrorCode::FileOpenFailed,
                           "{} '{}' does not exist; give a folder or a tensor file", opt, p);
  if (my_dir != golden_dir)
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --golden_dump_path is invalid. Reason: {} is a "
                         "{}; give two folders or two files",
                         o_.golden_path, o_.my_path, my_dir ? "folder" : "file");
  if (!o_.fusion_rule_file.empty()) {
    ASC_TRY(rule_, compare::readFusionRule(o_.fusion_rule_file));
    has_rule_ = true;
    for (size_t i = 0; i < rule_.ops.size(); ++i)
      rule_index_.emplace(tensorio::dumpSafeName(rule_.ops[i].name), i);
  }
  ASC_RETURN_IF_ERROR(collect(o_.my_path, my_dir, &my_));
  ASC_RETURN_IF_ERROR(collect(o_.golden_path, golden_dir, &golden_));
  if (my_.empty())
    return Status::error(ErrorCode::FileReadFailed,
                         "no tensor found in '{}'; expected dump files, msame outputs "
                         "(<name>_output_<i>.bin/.txt) or .npy files",
                         o_.my_path);
  // Dump inputs are compared only when the golden side has inputs too (dumps against dumps);
  // golden .npy files hold outputs only.
  if (std::none_of(golden_.begin(), golden_.end(), [](const Entry& g) { return g.input; })) {
    const size_t before = my_.size();
    my_.erase(std::remove_if(my_.begin(), my_.end(), [](const Entry& e) { return e.input; }),
              my_.end());
    if (my_.size() != before)
      ASC_LOG_INFO("{} dump inputs not compared: '{}' has no inputs", before - my_.size(),
                   o_.golden_path);
  }
  for (auto& e : my_) {
    auto it = rule_index_.find(e.key);
    if (e.op_type.empty() && it != rule_index_.end()) e.op_type = rule_.ops[it->second].type;
  }
  if (my_dir) order();
  ASC_RETURN_IF_ERROR(compareAll(!my_dir));
  if (std::none_of(rows_.begin(), rows_.end(), [](const Row& r) { return r.golden != nullptr; }))
    return Status::error(ErrorCode::FileReadFailed,
                         "none of the {} tensors in '{}' has a golden tensor in '{}'; golden names "
                         "are {{op}}.{{output}}.{{timestamp}}.npy, dump names "
                         "{{op_type}}.{{op}}.{{task}}.{{stream}}.{{timestamp}}, msame names "
                         "<name>_output_<i>.bin (give -f for fused ops)",
                         my_.size(), o_.my_path, o_.golden_path);
  ASC_RETURN_IF_ERROR(writeCsv());
  advise();
  if (!o_.html.empty()) ASC_RETURN_IF_ERROR(writeHtml());
  const bool any_failed =
      std::any_of(rows_.begin(), rows_.end(), [](const Row& r) { return r.failed; });
  *exit_code = any_failed ? 1 : 0;
  if (o_.format == "json")
    printJson(*exit_code);
  else
    printTable(*exit_code);
  return Status::ok();
}

}  // namespace

int fail(const Status& st, std::ostream* json) {
  std::cout.flush();
  if (json) json->flush();
  std::cerr << "mscompare: error " << st.toString() << "\n";
  if (json)
    *json << fmt::format("{{\"error\": {{\"code\": \"{}\", \"message\": {}}}, \"exit_code\": 2}}\n",
                         errorCodeString(st.code()), jsonQuote(st.message()));
  return cli::kExitUsage;
}

int main(int argc, const char* const* argv, std::ostream& out) {
  log::setProgram("mscompare");
  if (argc > 1) {
    const std::string cmd = argv[1];
    if (cmd == "debug_precision" || cmd == "debug_reduce")
      return debugMain(cmd, argc - 1, argv + 1, out);
    if (cmd == "overflow") return overflowMain(argc - 1, argv + 1, out);
  }
  auto opts = parseOptions(argc, argv);
  if (!opts) {
    bool json = false;
    for (int i = 1; i < argc; ++i) json = json || std::string(argv[i]) == "--format=json";
    return fail(opts.status(), json ? &out : nullptr);
  }
  if (opts->help) {
    out << usage();
    return 0;
  }
  if (opts->options_markdown) {
    out << optionTable().markdown();
    return 0;
  }
  if (opts->version) {
    out << cli::versionText("mscompare");
    return 0;
  }
  std::ostream* json = opts->format == "json" ? &out : nullptr;
  if (Status st = cli::applyLogOption(opts->log, true); !st) return fail(st, json);
  Runner r(*opts, out);
  int code = 0;
  Status st = r.run(&code);
  if (!st) return fail(st, json);
  out.flush();
  return code;
}

}  // namespace asc::mscompare
