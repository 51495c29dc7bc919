// debug_commands.cpp: mscompare debug_precision and debug_reduce: the command lines, the table
// printed round by round, and the files written at the end (nothing is written on an error).
#include <fmt/format.h>

#include <cxxopts.hpp>
#include <iostream>
#include <sstream>

#include "asc/cli/common.h"
#include "asc/debug/precision_debug.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "asc/tensorio/tensor_file.h"
#include "mscompare_commands.h"

namespace asc::mscompare {
namespace {

struct DebugArgs {
  debug::DebugOptions o;
  std::string output;
  int max_rounds = 60;
  bool help = false;
};

std::string debugUsage(const std::string& cmd) {
  const bool search = cmd == "debug_precision";
  std::string u = fmt::format(
      "usage: mscompare {} --model M.onnx [--input IN.npy[,...]] --output DIR [options]\n\n", cmd);
  u += search ? "Searches for a small set of nodes that must stay fp32 so that every model output\n"
                "reaches the target cosine against the fp32 run, compiling and running the model\n"
                "in process round after round. Writes DIR/keep_dtype.cfg (atc --keep_dtype) and\n"
                "DIR/report.json. Exit 0 when the target is reached (also when nothing needs to\n"
                "stay fp32), 1 when it is not (the best set found is written), 2 on error.\n"
              : "Cuts the smallest connected part of the model that still diverges under the\n"
                "precision mode. Writes DIR/reduced.onnx, its inputs DIR/input_<i>.npy (the fp32\n"
                "run's values that flow into it), its fp32 outputs DIR/golden_<i>.npy and\n"
                "DIR/report.json. Exit 0 when a cut was written, 1 when nothing diverges (or no\n"
                "cut reproduces it), 2 on error.\n";
  u += "\noptions:\n"
       "  --model=FILE           the ONNX model (static shapes)\n"
       "  --input=FILES          .npy per model input, comma-separated, in input order\n"
       "                         [default: random, as msame --random_input SEED]\n"
       "  --seed=N               seed of the random inputs [default: 1]\n"
       "  --output=DIR           folder for the files (created if missing)\n"
       "  --precision_mode=MODE  force_fp16, allow_fp32_to_fp16 or allow_mix_precision\n"
       "                         [default: force_fp16]\n"
       "  --target_cosine=X      every output's cosine against fp32 must reach X, in (0, 1]\n"
       "                         [default: 0.999]\n"
       "  --soc_version=CHIP     the chip compiled for [default: Ascend310P3]\n";
  if (search) u += "  --max_rounds=N         stop after N compile+run rounds [default: 60]\n";
  u += "  --threads=N            threads per run [default: all cores]\n"
       "  --log=LEVEL            debug, info, warning, error or null\n"
       "  --help                 show this help\n";
  return u;
}

Result<DebugArgs> parseDebug(const std::string& cmd, int argc, const char* const* argv) {
  cxxopts::Options parser("mscompare " + cmd, "");
  auto add = parser.add_options();
  for (const char* n : {"model", "input", "seed", "output", "precision_mode", "target_cosine",
                        "soc_version", "max_rounds", "threads", "log"})
    add(n, "", cxxopts::value<std::string>());
  add("help", "");
  DebugArgs a;
  try {
    auto r = parser.parse(argc, argv);
    if (!r.unmatched().empty())
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter (positional) is invalid. Reason: mscompare {} "
                           "takes only options; see 'mscompare {} --help'",
                           r.unmatched().front(), cmd, cmd);
    a.help = r.count("help") > 0;
    if (a.help) return a;
    auto get = [&](const char* n) { return r.count(n) ? r[n].as<std::string>() : std::string(); };
    for (const char* n : {"model", "input", "seed", "output", "precision_mode", "target_cosine",
                          "soc_version", "max_rounds", "threads", "log"})
      if (r.count(n) && get(n).empty())
        return Status::error(ErrorCode::EmptyParam, "Value for --{} is empty.", n);
    if (r.count("max_rounds") && cmd != "debug_precision")
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --max_rounds is invalid. Reason: only "
                           "debug_precision takes it",
                           get("max_rounds"));
    for (const char* req : {"model", "output"})
      if (!r.count(req))
        return Status::error(ErrorCode::RequiredParam, "mscompare {}: --{} is required", cmd, req);
    a.o.model = get("model");
    a.output = get("output");
    if (r.count("input")) a.o.inputs = splitString(get("input"), ',');
    if (r.count("seed")) {
      ASC_TRY(int64_t s, cli::parseInt("seed", get("seed"), 0, UINT32_MAX));
      a.o.seed = static_cast<uint64_t>(s);
    }
    if (r.count("precision_mode")) a.o.precision_mode = get("precision_mode");
    if (r.count("soc_version")) a.o.soc_version = get("soc_version");
    if (r.count("target_cosine")) {
      const std::string v = get("target_cosine");
      char* end = nullptr;
      const double c = std::strtod(v.c_str(), &end);
      if (*end || !(c > 0 && c <= 1))
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --target_cosine is invalid. Reason: a cosine "
                             "similarity target lies in (0, 1], e.g. 0.999",
                             v);
      a.o.target_cosine = c;
    }
    if (r.count("max_rounds")) {
      ASC_TRY(int64_t m, cli::parseInt("max_rounds", get("max_rounds"), 2, 100000));
      a.max_rounds = static_cast<int>(m);
    }
    if (r.count("threads")) {
      ASC_TRY(a.o.threads, cli::parseThreads(get("threads")));
    }
    ASC_RETURN_IF_ERROR(cli::applyLogOption(get("log"), r.count("log") > 0));
  } catch (const cxxopts::exceptions::exception& e) {
    return Status::error(ErrorCode::InvalidParam,
                         "invalid command line: {}; see 'mscompare {} --help'", e.what(), cmd);
  }
  if (!fileExists(a.o.model))
    return Status::error(ErrorCode::FileOpenFailed, "--model '{}' does not exist", a.o.model);
  for (const auto& in : a.o.inputs)
    if (!fileExists(in))
      return Status::error(ErrorCode::FileOpenFailed, "--input '{}' does not exist", in);
  if (fileExists(a.output) && !isDirectory(a.output))
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --output is invalid. Reason: it is a file; give "
                         "a folder",
                         a.output);
  return a;
}

std::string jsonList(const std::vector<std::string>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + jsonQuote(v[i]);
  return s + "]";
}
std::string jsonNumbers(const std::vector<double>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += fmt::format("{}{:.9g}", i ? ", " : "", v[i]);
  return s + "]";
}

std::string roundsJson(const std::vector<debug::Round>& rounds, const char* set_name) {
  std::string s = "[";
  for (size_t i = 0; i < rounds.size(); ++i) {
    const auto& r = rounds[i];
    s += fmt::format(
        "{}\n    {{\"round\": {}, \"phase\": {}, \"{}\": {}, \"cosines\": {}, \"min_cosine\": "
        "{:.9g}, \"passed\": {}, \"ms\": {:.1f}}}",
        i ? "," : "", r.index, jsonQuote(r.phase), set_name, jsonList(r.keep),
        jsonNumbers(r.cosines), r.min_cosine, r.passed ? "true" : "false", r.ms);
  }
  return s + (rounds.empty() ? "]" : "\n  ]");
}

// One table row per round, printed as it finishes (the progress of a long search).
// `yes`/`no` name a round whose `passed` is true/false.
debug::Progress printer(std::ostream& out, const char* set_col, const char* yes, const char* no) {
  return [&out, set_col, yes, no](const debug::Round& r) {
    if (r.index == 1)  // the header once the model is read and checked
      out << fmt::format("{:>5}  {:<9} {:>5}  {:>10}  {:<8} {:>9}\n", "round", "phase", set_col,
                         "min cosine", "result", "ms");
    out << fmt::format("{:>5}  {:<9} {:>5}  {:>10.6f}  {:<8} {:>9.1f}\n", r.index, r.phase,
                       r.keep.size(), r.min_cosine, r.passed ? yes : no, r.ms)
        << std::flush;
  };
}

int fail(const Status& st) {
  std::cout.flush();
  std::cerr << "mscompare: error " << st.toString() << "\n";
  return cli::kExitUsage;
}

int runPrecision(const DebugArgs& a, std::ostream& out) {
  auto res = debug::searchKeepSet(a.o, a.max_rounds, printer(out, "kept", "pass", "fail"));
  if (!res) return fail(res.status());
  const auto& r = *res;
  std::string cfg;
  for (const auto& k : r.keep) cfg += k + "\n";
  std::string json = fmt::format(
      "{{\n  \"model\": {},\n  \"precision_mode\": {},\n  \"target_cosine\": {:.9g},\n"
      "  \"candidates\": {},\n  \"rounds\": {},\n  \"steps\": {},\n  \"keep\": {},\n"
      "  \"final_cosine\": {:.9g},\n  \"reached\": {},\n  \"round_limit\": {},\n"
      "  \"seconds\": {:.3f}\n}}\n",
      jsonQuote(a.o.model), jsonQuote(a.o.precision_mode), a.o.target_cosine, r.candidates.size(),
      r.rounds.size(), roundsJson(r.rounds, "keep"), jsonList(r.keep), r.final_cosine,
      r.reached ? "true" : "false", r.round_limit ? "true" : "false", r.seconds);
  const std::string cfg_path = a.output + "/keep_dtype.cfg", report = a.output + "/report.json";
  Status st = makeDirs(a.output);
  if (st) st = writeFileAtomic(cfg_path, cfg.data(), cfg.size());
  if (st) st = writeFileAtomic(report, json.data(), json.size());
  if (!st) return fail(st);
  out << fmt::format("{:<22}{} nodes compute in fp16 under {}\n", "candidates", r.candidates.size(),
                     a.o.precision_mode);
  out << fmt::format("{:<22}{}{}\n", "rounds", r.rounds.size(),
                     r.round_limit ? " (stopped at --max_rounds: the set may not be minimal)" : "");
  out << fmt::format("{:<22}{}{}\n", "keep fp32", r.keep.size(),
                     r.keep.empty() ? "" : ": " + fmt::format("{}", fmt::join(r.keep, ", ")));
  out << fmt::format("{:<22}{:.7f} (target {:g})\n", "final cosine", r.final_cosine,
                     a.o.target_cosine);
  out << fmt::format("{:<22}{:.2f} s\n", "time", r.seconds);
  out << fmt::format("{:<22}{}\n{:<22}{}\n", "keep_dtype", cfg_path, "report", report);
  if (!r.reached) {
    out << "mscompare: the target is not reached even with every candidate kept in fp32; the "
           "rest of the drift is not fp16 storage (check the inputs, or lower --target_cosine)\n";
    return cli::kExitFailed;
  }
  if (r.keep.empty())
    out << "mscompare: nothing to do: the model reaches the target under " << a.o.precision_mode
        << "\n";
  else
    out << "mscompare: target reached: convert with atc --precision_mode=" << a.o.precision_mode
        << " --keep_dtype=" << cfg_path << "\n";
  return 0;
}

int runReduce(const DebugArgs& a, std::ostream& out) {
  auto res = debug::reduceDivergence(a.o, printer(out, "nodes", "diverges", "holds"));
  if (!res) return fail(res.status());
  const auto& r = *res;
  std::vector<std::string> files;
  std::string json = fmt::format(
      "{{\n  \"model\": {},\n  \"precision_mode\": {},\n  \"target_cosine\": {:.9g},\n"
      "  \"first_diverging\": {},\n  \"diverges\": {},\n  \"rounds\": {},\n  \"steps\": {},\n"
      "  \"nodes\": {},\n  \"inputs\": {},\n  \"outputs\": {},\n  \"cosines\": {},\n"
      "  \"seconds\": {:.3f}\n}}\n",
      jsonQuote(a.o.model), jsonQuote(a.o.precision_mode), a.o.target_cosine,
      r.first_diverging.empty() ? "null" : jsonQuote(r.first_diverging),
      r.diverges ? "true" : "false", r.rounds.size(), roundsJson(r.rounds, "nodes"),
      jsonList(r.nodes), jsonList(r.input_names), jsonList(r.output_names), jsonNumbers(r.cosines),
      r.seconds);
  Status st = makeDirs(a.output);
  auto put = [&](const std::string& name, const std::string& bytes) {
    if (!st) return;
    files.push_back(a.output + "/" + name);
    st = writeFileAtomic(files.back(), bytes.data(), bytes.size());
  };
  if (r.diverges) {
    put("reduced.onnx", r.onnx);
    for (size_t i = 0; i < r.inputs.size(); ++i)
      put(fmt::format("input_{}.npy", i), tensorio::encodeNpy(r.inputs[i]));
    for (size_t i = 0; i < r.goldens.size(); ++i)
      put(fmt::format("golden_{}.npy", i), tensorio::encodeNpy(r.goldens[i]));
  }
  put("report.json", json);
  if (!st) return fail(st);
  out << fmt::format("{:<22}{}\n", "first diverging",
                     r.first_diverging.empty() ? "none" : r.first_diverging);
  if (r.diverges) {
    out << fmt::format("{:<22}{} nodes: {}\n", "reduced", r.nodes.size(),
                       fmt::format("{}", fmt::join(r.nodes, ", ")));
    out << fmt::format("{:<22}{}\n", "inputs", fmt::format("{}", fmt::join(r.input_names, ", ")));
    std::vector<std::string> c;
    for (size_t i = 0; i < r.cosines.size(); ++i)
      c.push_back(fmt::format("{} {:.6f}", r.output_names[i], r.cosines[i]));
    out << fmt::format("{:<22}{} (target {:g})\n", "outputs", fmt::format("{}", fmt::join(c, ", ")),
                       a.o.target_cosine);
  }
  out << fmt::format("{:<22}{:.2f} s\n", "time", r.seconds);
  for (const auto& f : files) out << fmt::format("{:<22}{}\n", "wrote", f);
  if (!r.diverges) {
    out << (r.first_diverging.empty()
                ? "mscompare: nothing diverges: the model reaches the target under " +
                      a.o.precision_mode + "\n"
                : "mscompare: no cut reproduces the divergence on its own\n");
    return cli::kExitFailed;
  }
  out << "mscompare: reproduce with atc --model=" << a.output << "/reduced.onnx --framework=5 "
      << "--precision_mode=" << a.o.precision_mode << ", then msame with the input_<i>.npy files "
      << "and mscompare against golden_<i>.npy\n";
  return 0;
}

}  // namespace

int debugMain(const std::string& cmd, int argc, const char* const* argv, std::ostream& out) {
  auto a = parseDebug(cmd, argc, argv);
  if (!a) return fail(a.status());
  if (a->help) {
    out << debugUsage(cmd);
    return 0;
  }
  return cmd == "debug_precision" ? runPrecision(*a, out) : runReduce(*a, out);
}

}  // namespace asc::mscompare
