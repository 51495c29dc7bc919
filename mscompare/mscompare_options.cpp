// mscompare_options.cpp: the option table and parser. cxxopts knows only one-letter short
// options, so the real tool's -out and -alg (and --h) are rewritten to long forms first.
#include "mscompare_options.h"

#include "asc/cli/common.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cxxopts.hpp>
#include <vector>

namespace asc::mscompare {
namespace {

Result<double> parseTolerance(const std::string& name, const std::string& v) {
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !(d >= 0) || d == HUGE_VAL)
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --{} is invalid. Reason: expected a number >= 0, "
                         "e.g. --{}=1e-3",
                         v, name, name);
  return d;
}

// "-out=x" / "-out x" -> "--output=x" / "--output x"; same for -alg.
std::string rewrite(const std::string& a) {
  static const std::pair<const char*, const char*> kMulti[] = {{"-out", "--output"},
                                                               {"-alg", "--algorithm"}};
  if (a == "--h" || a == "-h") return "--help";
  for (const auto& [shortf, longf] : kMulti) {
    const std::string s = shortf;
    if (a == s) return longf;
    if (a.rfind(s + "=", 0) == 0) return std::string(longf) + a.substr(s.size());
  }
  return a;
}

}  // namespace

Result<Options> parseOptions(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) args.push_back(i ? rewrite(argv[i]) : std::string(argv[i]));
  cxxopts::Options parser("mscompare", "");
  auto adder = parser.add_options();
  auto text = [] { return cxxopts::value<std::string>(); };
  adder("m,my_dump_path", "my data: NPU dump folder or file (x)", text());
  adder("comparison", "same as --my_dump_path", text());
  adder("g,golden_dump_path", "golden data folder or file (y)", text());
  adder("baseline", "same as --golden_dump_path", text());
  adder("f,fusion_rule_file", "atc --mode=1 JSON of the OM", text());
  adder("output", "folder for result_<timestamp>.csv", text());
  adder("algorithm", "metrics", text());
  adder("compare_mode", "same as --algorithm", text());
  adder("atol", "absolute tolerance", text());
  adder("rtol", "relative tolerance", text());
  adder("min_cosine", "minimum cosine similarity", text());
  adder("dtype", "element type of raw .bin/.txt files", text());
  adder("format", "table or json", text());
  adder("log", "log level", text());
  adder("html", "HTML report file", text());
  adder("threads", "compare threads", text());
  adder("help", "show this help");
  adder("version", "print the version");
  std::vector<const char*> cargs;
  for (const auto& a : args) cargs.push_back(a.c_str());
  Options o;
  try {
    auto r = parser.parse(static_cast<int>(cargs.size()), cargs.data());
    if (!r.unmatched().empty())
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter (positional) is invalid. Reason: mscompare "
                           "takes only options; see 'mscompare --help'",
                           r.unmatched().front());
    o.help = r.count("help") > 0;
    o.version = r.count("version") > 0;
    auto take = [&](const char* a, const char* b, std::string* dst) -> Status {
      if (*b && r.count(a) && r.count(b))
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --{} is invalid. Reason: --{} was also "
                             "given; use one spelling",
                             r[b].as<std::string>(), b, a);
      for (const char* n : {a, b}) {
        if (!*n || !r.count(n)) continue;
        *dst = r[n].as<std::string>();
        if (dst->empty())
          return Status::error(ErrorCode::EmptyParam, "Value for --{} is empty.", n);
      }
      return Status::ok();
    };
    ASC_RETURN_IF_ERROR(take("my_dump_path", "comparison", &o.my_path));
    ASC_RETURN_IF_ERROR(take("golden_dump_path", "baseline", &o.golden_path));
    ASC_RETURN_IF_ERROR(take("algorithm", "compare_mode", &o.algorithm));
    ASC_RETURN_IF_ERROR(take("fusion_rule_file", "", &o.fusion_rule_file));
    ASC_RETURN_IF_ERROR(take("output", "", &o.output));
    ASC_RETURN_IF_ERROR(take("dtype", "", &o.dtype));
    ASC_RETURN_IF_ERROR(take("format", "", &o.format));
    ASC_RETURN_IF_ERROR(take("log", "", &o.log));
    ASC_RETURN_IF_ERROR(take("html", "", &o.html));
    if (r.count("threads")) {
      ASC_TRY(o.threads, cli::parseThreads(r["threads"].as<std::string>()));
    }
    if (r.count("min_cosine")) {
      const std::string v = r["min_cosine"].as<std::string>();
      char* end = nullptr;
      const double c = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(c >= -1 && c <= 1))
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --min_cosine is invalid. Reason: expected a "
                             "number in [-1, 1], e.g. --min_cosine=0.99",
                             v);
      o.min_cosine = c;
    }
    for (const char* t : {"atol", "rtol"}) {
      if (!r.count(t)) continue;
      ASC_TRY(double v, parseTolerance(t, r[t].as<std::string>()));
      (t[0] == 'a' ? o.atol : o.rtol) = v;
    }
  } catch (const cxxopts::exceptions::exception& e) {
    return Status::error(ErrorCode::InvalidParam,
                         "invalid command line: {}; see 'mscompare --help'", e.what());
  }
  if (o.help || o.version) return o;
  if (o.format != "table" && o.format != "json")
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter --format is invalid. Reason: use table or json",
                         o.format);
  if (o.my_path.empty())
    return Status::error(ErrorCode::RequiredParam,
                         "--my_dump_path (or --comparison) is required. The value must be a dump "
                         "folder or a tensor file.");
  if (o.golden_path.empty())
    return Status::error(ErrorCode::RequiredParam,
                         "--golden_dump_path (or --baseline) is required. The value must be a "
                         "golden folder or a tensor file.");
  return o;
}

std::string usage() {
  return "usage: mscompare -m MY -g GOLDEN [-f FUSION_JSON] [-out DIR] [-alg METRICS] [options]\n"
         "       mscompare --comparison=MY --baseline=GOLDEN --output=DIR "
         "--compare_mode=cosine_similarity --atol=1e-3 --rtol=1e-3\n"
         "\n"
         "Compares tensors layer by layer: x = my data (NPU dump, msame output), y = golden.\n"
         "Writes result_<YYYYMMDDhhmmss>.csv in the output folder; exit 0 when every tensor is\n"
         "within |x-y| <= atol + rtol*|y|, 1 when any is not, 2 on error.\n"
         "\n"
         "options:\n"
         "  -m, --my_dump_path=PATH, --comparison=PATH\n"
         "                       my data: a folder (dump files, msame outputs, .npy) or a file\n"
         "  -g, --golden_dump_path=PATH, --baseline=PATH\n"
         "                       golden data: a folder ({op}.{output}.{timestamp}.npy, ...) or a "
         "file\n"
         "  -f, --fusion_rule_file=JSON\n"
         "                       atc --mode=1 JSON of the OM: fused ops and execution order\n"
         "  -out, --output=DIR   folder for result_<timestamp>.csv [default: .]\n"
         "  -alg, --algorithm=LIST, --compare_mode=LIST\n"
         "                       all, or metric names (CosineSimilarity or cosine_similarity) or\n"
         "                       indices 0..9, comma separated [default: all]\n"
         "  --atol=X, --rtol=X   tolerances [default: per dtype: fp16 1e-3, bf16 8e-3, fp32 1e-5,\n"
         "                       fp64 atol 1e-8 rtol 1e-7, integers and bool exact]\n"
         "  --min_cosine=X       a tensor also fails when its cosine similarity is below X\n"
         "                       (for fp16 models against an fp32 golden, where drift is "
         "expected)\n"
         "  --dtype=T            element type of raw .bin and .txt files [default: float32]\n"
         "  --format=table|json  stdout summary [default: table]\n"
         "  --html=FILE          also write a self-contained page: cosine and maximum relative\n"
         "                       error per layer as charts, the first failing layer marked\n"
         "  --log=LEVEL          debug, info, warning, error or null\n"
         "  --threads=N          compare threads, 1..1024 (default: all cores; the figures do not\n"
         "                       depend on it)\n"
         "  --help, --h          show this help\n"
         "  --version            print the asc-tools version\n"
         "\n"
         "metrics (CSV order): CosineSimilarity, MaxAbsoluteError, AccumulatedRelativeError,\n"
         "  RelativeEuclideanDistance, KullbackLeiblerDivergence, StandardDeviation,\n"
         "  MeanAbsoluteError, RootMeanSquareError, MaxRelativeError, MeanRelativeError\n"
         "\n"
         "subcommands (each has --help):\n"
         "  mscompare debug_precision --model M.onnx --input IN.npy --output DIR\n"
         "                       search for the nodes to keep fp32 (writes keep_dtype.cfg)\n"
         "  mscompare debug_reduce --model M.onnx --input IN.npy --output DIR\n"
         "                       cut the smallest part of the model that still diverges\n"
         "  mscompare overflow -m DUMP_DIR\n"
         "                       list the layers whose fp16 outputs overflowed\n"
         "\n"
         "example:\n"
         "  msame --model m.om --input in.npy --output run/ --outfmt TXT\n"
         "  mscompare -m run/2026111_9_5_7_1234 -g golden/ -out cmp/\n";
}

}  // namespace asc::mscompare
