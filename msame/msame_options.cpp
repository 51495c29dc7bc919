// msame_options.cpp: msame's option table; the parser, --help and docs/options.md come from it.
#include "msame_options.h"

#include <fmt/format.h>

#include <climits>

#include "asc/cli/common.h"

namespace asc::msame {

const cli::OptionTable<Options>& optionTable() {
  static const cli::OptionTable<Options> t = [] {
    using O = Options;
    cli::OptionTable<O> t("msame", cli::Syntax::Getopt);
    t.text("--model", &O::model, "", "FILE",
           "offline model (.om), or an .onnx model run in fp32 without fusion");
    t.text("--input", &O::input, "", "FILES|DIRS",
           "input files (.bin raw or .npy), comma separated, one per model input; or folders, "
           "one per input, whose files are matched by sorted name. Omitted: all-zero inputs");
    t.text("--output", &O::output, "", "DIR",
           "folder for results; a timestamped subfolder is created in it");
    t.choice("--outfmt", &O::outfmt, "TXT|BIN", "BIN",
             "TXT writes text (.txt), BIN binary (.bin); upper case");
    // Integer options: strict syntax here, the real tool's range messages where the value is
    // used (msame.cpp).
    t.integer("--loop", &O::loop, "1", INT_MIN, INT_MAX, "N", "runs per input, 1..100",
              "from 1 to 100 (to --max_loop when given)");
    t.integer("--max_loop", &O::max_loop, "100", INT_MIN, INT_MAX, "N",
              "(asc-tools) raise the --loop cap for long benchmarks", ">= 1");
    t.integer("--device", &O::device, "0", INT_MIN, INT_MAX, "ID",
              "device id 0..255 (the CPU runtime has one device)", "from 0 to 255");
    t.boolean("--debug", &O::debug, "false",
              "true prints the model description and execution plan");
    t.integer("--threads", &O::threads, "", 1, cli::kMaxThreads, "N",
              "(asc-tools) kernel threads (default: ASC_NUM_THREADS, else one per 4 MFLOP of a "
              "run, at most the cores no other process keeps busy)");
    t.text("--log", &O::log, "", "LEVEL",
           "(asc-tools) debug, info, warning (default), error or null: what goes to stderr");
    t.text("--op_plugin_path", &O::op_plugin_path, "", "DIR[:DIR]",
           "(asc-tools) custom-operator plugins the model needs (default: "
           "ASCEND_CUSTOM_OPP_PATH)");
    t.text("--input_shape", &O::input_shape, "", "\"name:d0,d1;...\"",
           "(asc-tools) fixes dynamic dims of an .onnx model");
    t.integer("--random_input", &O::random_input, "", 0, INT_MAX, "SEED",
              "(asc-tools) uniform random inputs (floats in [-1,1), integers in [0,10)) instead "
              "of zeros; the same seed gives the same data for an .om and its .onnx, so their "
              "dumps compare",
              "seed >= 0");
    t.boolean("--dump", &O::dump, "false",
              "true writes every layer's outputs under <output>/dump/<time>/0/<model>/1/<run>/: "
              "Ascend dump files for an .om (fused ops name their source nodes), golden "
              "{node}.{output}.{time}.npy files for an .onnx (fp32, no fusion)");
    t.choice("--dump_mode", &O::dump_mode, "output|input|all", "output",
             "what --dump writes (.om only)");
    t.choice("--dump_format", &O::dump_format, "ascend|npy", "",
             "ascend (default for an .om) or npy ({dump file}.output.{i}.npy)");
    t.text("--dymBatch", &O::dym_batch, "", "N", "the batch of a --dynamic_batch_size model");
    t.text("--dymHW", &O::dym_hw, "", "H,W", "the image size of a --dynamic_image_size model");
    t.text("--dymDims", &O::dym_dims, "", "\"name:d0,d1;...\"",
           "the input shapes of a --dynamic_dims model");
    t.text("--dymShape", &O::dym_shape, "", "\"name:d0,d1;...\"",
           "the input shapes of a range model (needs --input and --outputSize); an .npy input "
           "sets its own shape (docs/dynamic-shapes.md)");
    t.text("--outputSize", &O::output_size, "", "N1,N2,...",
           "the bytes each output may take (an output larger is an error)");
    t.refused("--profiler", cli::Kind::Bool, "false",
              "the NPU profiler; run the command under msprof instead");
    t.boolean("--skip_verify", &O::skip_verify, "false",
              "(asc-tools) true skips checking every byte of the .om against its checksum at "
              "load (a damaged file is refused with E10041)");
    t.boolean("--check_unwritten", &O::check_unwritten, "false",
              "(asc-tools) true: before a custom operator's Ascend C kernel runs, fill its "
              "outputs with a NaN pattern; an output element the kernel did not write stops the "
              "run naming the node and the range");
    t.text("--shard", &O::shard, "", "i/N",
           "(asc-tools) folder mode: run only the files k (sorted by name) with k mod N == i, "
           "into <output>/shard_<i>_of_<N>/, recording each input's outputs, time and status in "
           "its manifest.jsonl; N processes on N machines cover a dataset exactly once "
           "(scripts/batch/merge.sh)");
    t.flag("--resume", &O::resume,
           "(asc-tools) with --shard: skip the inputs the shard's manifest records done");
    t.integer("--warmup", &O::warmup, "0", 0, 100000, "N",
              "(asc-tools) untimed runs before the timed ones");
    t.real("--duration", &O::duration_s, "", 1e-9, 86400, "S",
           "(asc-tools) run for S seconds instead of --loop runs",
           "seconds, above 0 and at most 86400, e.g. --duration 10");
    t.integer("--concurrency", &O::concurrency, "1", 1, 64, "K",
              "(asc-tools) K requests in flight on the one model (K sessions over the same "
              "mapped .om, one arena each; use with --threads)");
    t.text("--summary_json", &O::summary_json, "", "FILE",
           "(asc-tools) throughput_fps, latency mean/p50/p90/p99/max in ms, load_ms, first_ms, "
           "runs, threads, concurrency as JSON");
    t.flag("--options_markdown", &O::options_markdown,
           "(asc-tools) print this option table as Markdown (docs/options.md)");
    t.flag("--version", &O::version, "print the asc-tools version");
    t.flag("--help", &O::help, "show this help");
    return t;
  }();
  return t;
}

Result<Options> parseOptions(int argc, const char* const* argv) {
  ASC_TRY(Options o, optionTable().parse(argc, argv));
  if (o.given(o.shard)) {
    const size_t slash = o.shard.find('/');
    if (slash == std::string::npos)
      return Status::error(ErrorCode::InvalidParam,
                           "--shard takes i/N (shard i of N, 0 <= i < N), not '{}'", o.shard);
    ASC_TRY(int64_t n,
            cli::parseInt("shard", o.shard.substr(slash + 1), 1, 65536, "i/N, N from 1 to 65536"));
    ASC_TRY(int64_t i, cli::parseInt("shard", o.shard.substr(0, slash), 0, n - 1,
                                     fmt::format("i/N with i from 0 to {}", n - 1)));
    o.shard_index = static_cast<int>(i);
    o.shard_count = static_cast<int>(n);
  }
  if (o.resume && o.shard_count == 0)
    return Status::error(ErrorCode::InvalidParam,
                         "--resume needs --shard i/N (the shard's manifest says what is done)");
  return o;
}

std::string usage() {
  return "usage: msame --model <model.om|model.onnx> [--input a.bin,b.npy | dir1,dir2] "
         "[--output dir] [options]\n" +
         optionTable().help() +
         "example:\n"
         "  atc --model=resnet50.onnx --framework=5 --output=resnet50 --soc_version=Ascend310P3\n"
         "  msame --model resnet50.om --input img.npy --output out/ --loop 10\n";
}

}  // namespace asc::msame
