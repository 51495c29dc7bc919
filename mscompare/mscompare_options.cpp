// mscompare_options.cpp: the option table of mscompare's comparison (msaccucmp's spellings
// first, the seed's beside them); the parser, --help and docs/options.md come from it.
#include "mscompare_options.h"

#include "asc/cli/common.h"

#include <fmt/format.h>

namespace asc::mscompare {

const cli::OptionTable<Options>& optionTable() {
  static const cli::OptionTable<Options> t = [] {
    using O = Options;
    cli::OptionTable<O> t("mscompare", cli::Syntax::Argparse);
    t.text("--my_dump_path -m --comparison", &O::my_path, "", "PATH",
           "my data (x): a folder (dump files, msame outputs, .npy) or a file");
    t.text("--golden_dump_path -g --baseline", &O::golden_path, "", "PATH",
           "golden data (y): a folder ({op}.{output}.{timestamp}.npy, ...) or a file");
    t.text("--fusion_rule_file -f", &O::fusion_rule_file, "", "JSON",
           "atc --mode=1 JSON of the OM: fused ops and execution order");
    t.text("--output -out", &O::output, ".", "DIR", "folder for result_<timestamp>.csv");
    t.text("--algorithm -alg --compare_mode", &O::algorithm, "all", "LIST",
           "all, or metric names (CosineSimilarity or cosine_similarity) or indices 0..9, comma "
           "separated");
    t.real("--atol", &O::atol, "", 0, 1e308, "X",
           "absolute tolerance (default per dtype: fp16 1e-3, bf16 8e-3, fp32 1e-5, fp64 1e-8, "
           "integers and bool exact)",
           "a number >= 0, e.g. --atol=1e-3");
    t.real("--rtol", &O::rtol, "", 0, 1e308, "X",
           "relative tolerance (default per dtype: fp16 1e-3, bf16 8e-3, fp32 1e-5, fp64 1e-7, "
           "integers and bool exact)",
           "a number >= 0, e.g. --rtol=1e-3");
    t.real("--min_cosine", &O::min_cosine, "", -1, 1, "X",
           "a tensor also fails when its cosine similarity is below X (for fp16 models against "
           "an fp32 golden, where drift is expected)",
           "a number in [-1, 1], e.g. --min_cosine=0.99");
    t.text("--dtype", &O::dtype, "float32", "T", "element type of raw .bin and .txt files");
    t.choice("--format", &O::format, "table|json", "table", "the summary on stdout");
    t.text("--html", &O::html, "", "FILE",
           "also write a self-contained page: cosine and maximum relative error per layer as "
           "charts, the first failing layer marked");
    t.text("--log", &O::log, "warning", "LEVEL", "debug, info, warning, error or null");
    t.integer("--threads", &O::threads, "", 1, cli::kMaxThreads, "N",
              "compare threads (default: all cores; the figures do not depend on it)");
    t.flag("--options_markdown", &O::options_markdown,
           "print this option table as Markdown (docs/options.md)");
    t.flag("--help -h --h", &O::help, "show this help");
    t.flag("--version", &O::version, "print the asc-tools version");
    return t;
  }();
  return t;
}

Result<Options> parseOptions(int argc, const char* const* argv) {
  ASC_TRY(Options o, optionTable().parse(argc, argv));
  if (o.help || o.version || o.options_markdown) return o;
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
  return std::string(
             "usage: mscompare -m MY -g GOLDEN [-f FUSION_JSON] [-out DIR] [-alg METRICS] "
             "[options]\n"
             "       mscompare --comparison=MY --baseline=GOLDEN --output=DIR "
             "--compare_mode=cosine_similarity --atol=1e-3 --rtol=1e-3\n"
             "\n"
             "Compares tensors layer by layer: x = my data (NPU dump, msame output), y = golden.\n"
             "Writes result_<YYYYMMDDhhmmss>.csv in the output folder; exit 0 when every tensor "
             "is\n"
             "within |x-y| <= atol + rtol*|y|, 1 when any is not, 2 on error.\n"
             "\n"
             "options:\n") +
         optionTable().help() +
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
