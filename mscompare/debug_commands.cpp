// debug_commands.cpp: mscompare debug_precision and debug_reduce: the command lines, the table
// printed round by round, and the files written at the end (nothing is written on an error).
#include <fmt/format.h>

#include <climits>
#include <iostream>
#include <sstream>

#include "asc/cli/common.h"
#include "asc/cli/options.h"
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

// The command line of either subcommand, as typed; DebugArgs is what runs.
struct DebugLine : cli::Given {
  std::string model, input, output, precision_mode, soc_version, log;
  int64_t seed = 1;
  double target_cosine = 0.999;
  int max_rounds = 60, threads = 0;
  bool help = false;
};

// One table per subcommand (debug_reduce has no --max_rounds).
const cli::OptionTable<DebugLine>& debugTable(bool search) {
  auto make = [](bool search) {
    using L = DebugLine;
    cli::OptionTable<L> t(search ? "mscompare debug_precision" : "mscompare debug_reduce",
                          cli::Syntax::Argparse);
    t.text("--model", &L::model, "", "FILE", "the ONNX model (static shapes)");
    t.text("--input", &L::input, "", "FILES",
           ".npy per model input, comma-separated, in input order (default: random, as msame "
           "--random_input SEED)");
    t.integer("--seed", &L::seed, "1", 0, UINT32_MAX, "N", "seed of the random inputs");
    t.text("--output", &L::output, "", "DIR", "folder for the files (created if missing)");
    t.choice("--precision_mode", &L::precision_mode,
             "force_fp16|allow_fp32_to_fp16|allow_mix_precision", "force_fp16",
             "the precision mode whose drift is examined");
    t.real("--target_cosine", &L::target_cosine, "0.999", 1e-300, 1, "X",
           "every output's cosine against fp32 must reach X, in (0, 1]",
           "a cosine similarity target in (0, 1], e.g. 0.999");
    t.text("--soc_version", &L::soc_version, "Ascend310P3", "CHIP", "the chip compiled for");
    if (search)
      t.integer("--max_rounds", &L::max_rounds, "60", 2, 100000, "N",
                "stop after N compile+run rounds");
    t.integer("--threads", &L::threads, "", 1, cli::kMaxThreads, "N",
              "threads per run (default: all cores)");
    t.text("--log", &L::log, "", "LEVEL", "debug, info, warning, error or null");
    t.flag("--help -h", &L::help, "show this help");
    return t;
  };
  static const cli::OptionTable<DebugLine> precision = make(true), reduce = make(false);
  return search ? precision : reduce;
}

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
  return u + "\noptions:\n" + debugTable(search).help();
}

Result<DebugArgs> parseDebug(const std::string& cmd, int argc, const char* const* argv) {
  ASC_TRY(DebugLine l, debugTable(cmd == "debug_precision").parse(argc, argv));
  DebugArgs a;
  a.help = l.help;
  if (a.help) return a;
  for (const char* req : {"model", "output"})
    if (!l.givenValues().count(req))
      return Status::error(ErrorCode::RequiredParam, "mscompare {}: --{} is required", cmd, req);
  a.o.model = l.model;
  a.output = l.output;
  if (!l.input.empty()) a.o.inputs = splitString(l.input, ',');
  a.o.seed = static_cast<uint64_t>(l.seed);
  a.o.precision_mode = l.precision_mode;
  a.o.soc_version = l.soc_version;
  a.o.target_cosine = l.target_cosine;
  a.o.threads = l.threads;
  a.max_rounds = l.max_rounds;
  ASC_RETURN_IF_ERROR(cli::applyLogOption(l.log, l.given(l.log)));
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
