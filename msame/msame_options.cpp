// msame_options.cpp: the option table and parser.
#include "msame_options.h"

#include <cxxopts.hpp>
#include <fmt/format.h>

#include <climits>
#include <cstdlib>

#include "asc/cli/common.h"

namespace asc::msame {

std::string usage() {
  return "usage: msame --model <model.om|model.onnx> [--input a.bin,b.npy | dir1,dir2] "
         "[--output dir] [options]\n"
         "  --model        offline model (.om), or an .onnx model run in fp32 without fusion\n"
         "  --input        input files (.bin raw or .npy), comma separated, one per model input;\n"
         "                 or folders, one per input, whose files are matched by sorted name.\n"
         "                 Omitted: all-zero inputs\n"
         "  --output       folder for results; a timestamped subfolder is created in it\n"
         "  --outfmt       TXT writes text (.txt), BIN (default) binary (.bin); upper case\n"
         "  --loop         runs per input, 1..100 (default 1)\n"
         "  --max_loop     raise the --loop cap for long benchmarks (default 100)\n"
         "  --device       device id 0..255 (the CPU runtime has one device)\n"
         "  --debug        true prints the model description and execution plan (true or false)\n"
         "  --threads      kernel threads, 1..1024 (default: ASC_NUM_THREADS, else one per 4 "
         "MFLOP\n"
         "                 of a run, at most the cores no other process keeps busy)\n"
         "  --log          debug, info, warning (default), error or null: what goes to stderr\n"
         "  --op_plugin_path DIR[:DIR]: custom-operator plugins the model needs (default:\n"
         "                 ASCEND_CUSTOM_OPP_PATH)\n"
         "  --input_shape  \"name:d0,d1;...\" fixes dynamic dims of an .onnx model\n"
         "  --random_input SEED: uniform random inputs (floats in [-1,1), integers in [0,10))\n"
         "                 instead of zeros; the same seed gives the same data for an .om and\n"
         "                 its .onnx, so their dumps compare\n"
         "  --dump         true writes every layer's outputs under "
         "<output>/dump/<time>/0/<model>/1/<run>/:\n"
         "                 Ascend dump files for an .om (fused ops name their source nodes), "
         "golden\n"
         "                 {node}.{output}.{time}.npy files for an .onnx (fp32, no fusion)\n"
         "  --dump_mode    output (default), input or all (.om only)\n"
         "  --dump_format  ascend (default) or npy ({dump file}.output.{i}.npy) for an .om\n"
         "  --dymBatch N   the batch of a --dynamic_batch_size model\n"
         "  --dymHW h,w    the image size of a --dynamic_image_size model\n"
         "  --dymDims \"name:d0,d1;...\" the input shapes of a --dynamic_dims model\n"
         "  --dymShape \"name:d0,d1;...\" the input shapes of a range model (needs --input and\n"
         "                 --outputSize); an .npy input sets its own shape "
         "(docs/dynamic-shapes.md)\n"
         "  --outputSize n1,n2,...: the bytes each output may take (an output larger is an error)\n"
         "  --profiler     accepted spelling, not supported (run the command under msprof)\n"
         "  --skip_verify  true skips checking every byte of the .om against its checksum at\n"
         "                 load (default false: a damaged file is refused with E10041)\n"
         "  --check_unwritten true: before a custom operator's Ascend C kernel runs, fill its\n"
         "                 outputs with a NaN pattern; an output element the kernel did not write\n"
         "                 stops the run naming the node and the range (default false)\n"
         "  --shard i/N    (asc-tools) folder mode: run only the files k (sorted by name) with\n"
         "                 k mod N == i, into <output>/shard_<i>_of_<N>/, recording each input's\n"
         "                 outputs, time and status in its manifest.jsonl; N processes on N\n"
         "                 machines cover a dataset exactly once (scripts/batch/merge.sh)\n"
         "  --resume       with --shard: skip the inputs the shard's manifest records done\n"
         "  --warmup N     (asc-tools) untimed runs before the timed ones\n"
         "  --duration S   (asc-tools) run for S seconds instead of --loop runs\n"
         "  --concurrency K (asc-tools) K requests in flight on the one model (K sessions over\n"
         "                 the same mapped .om, one arena each; use with --threads)\n"
         "  --summary_json FILE (asc-tools) throughput_fps, latency mean/p50/p90/p99/max in ms,\n"
         "                 load_ms, first_ms, runs, threads, concurrency as JSON\n"
         "  --version, --help\n"
         "example:\n"
         "  atc --model=resnet50.onnx --framework=5 --output=resnet50 --soc_version=Ascend310P3\n"
         "  msame --model resnet50.om --input img.npy --output out/ --loop 10\n";
}

Result<Options> parseOptions(int argc, const char* const* argv) {
  Options o;
  if (argc <= 1) {
    o.no_args = true;
    return o;
  }
  cxxopts::Options p("msame", "");
  p.add_options()("model", "", cxxopts::value<std::string>())(
      "input", "", cxxopts::value<std::string>())("output", "", cxxopts::value<std::string>())(
      "outfmt", "", cxxopts::value<std::string>())("loop", "", cxxopts::value<std::string>())(
      "max_loop", "", cxxopts::value<std::string>())("dump", "", cxxopts::value<std::string>())(
      "dump_mode", "", cxxopts::value<std::string>())("dump_format", "",
                                                      cxxopts::value<std::string>())(
      "profiler", "", cxxopts::value<std::string>())("device", "", cxxopts::value<std::string>())(
      "debug", "", cxxopts::value<std::string>())("outputSize", "", cxxopts::value<std::string>())(
      "dymBatch", "", cxxopts::value<std::string>())("dymHW", "", cxxopts::value<std::string>())(
      "dymDims", "", cxxopts::value<std::string>())("dymShape", "", cxxopts::value<std::string>())(
      "input_shape", "", cxxopts::value<std::string>())("threads", "",
                                                        cxxopts::value<std::string>())(
      "random_input", "", cxxopts::value<std::string>())("log", "", cxxopts::value<std::string>())(
      "op_plugin_path", "", cxxopts::value<std::string>())(
      "shard", "", cxxopts::value<std::string>())("skip_verify", "", cxxopts::value<std::string>())(
      "check_unwritten", "", cxxopts::value<std::string>())(
      "warmup", "", cxxopts::value<std::string>())("duration", "", cxxopts::value<std::string>())(
      "concurrency", "", cxxopts::value<std::string>())(
      "summary_json", "", cxxopts::value<std::string>())("resume", "")("version", "")("help", "");
  // Integer options: strict syntax here (asc::cli), the real tool's range messages where the
  // value is used (msame.cpp).
  auto toInt = [](const std::string& name, const std::string& v,
                  const char* accepted) -> Result<int> {
    ASC_TRY(int64_t n, cli::parseInt(name, v, INT_MIN, INT_MAX, accepted));
    return static_cast<int>(n);
  };
  try {
    auto r = p.parse(argc, argv);
    if (!r.unmatched().empty())
      return Status::error(ErrorCode::InvalidParam, "unknown paramenter '{}'", r.unmatched()[0]);
    auto get = [&](const char* k, std::string& dst) {
      if (r.count(k)) dst = r[k].as<std::string>();
    };
    get("model", o.model);
    get("input", o.input);
    get("output", o.output);
    get("outfmt", o.outfmt);
    get("dump", o.dump);
    get("dump_mode", o.dump_mode);
    get("dump_format", o.dump_format);
    get("profiler", o.profiler);
    get("debug", o.debug);
    get("outputSize", o.output_size);
    get("dymBatch", o.dym_batch);
    get("dymHW", o.dym_hw);
    get("dymDims", o.dym_dims);
    get("dymShape", o.dym_shape);
    get("input_shape", o.input_shape);
    get("skip_verify", o.skip_verify);
    get("check_unwritten", o.check_unwritten);
    if (r.count("loop")) {
      ASC_TRY(o.loop, toInt("loop", r["loop"].as<std::string>(),
                            "from 1 to 100 (to --max_loop when given)"));
    }
    if (r.count("max_loop")) {
      ASC_TRY(o.max_loop, toInt("max_loop", r["max_loop"].as<std::string>(), ">= 1"));
    }
    if (r.count("device")) {
      ASC_TRY(o.device, toInt("device", r["device"].as<std::string>(), "from 0 to 255"));
    }
    if (r.count("random_input")) {
      ASC_TRY(o.random_input,
              toInt("random_input", r["random_input"].as<std::string>(), "seed >= 0"));
      if (o.random_input < 0)
        return Status::error(ErrorCode::InvalidParam, "--random_input takes a seed >= 0, not {}",
                             o.random_input);
    }
    if (r.count("threads")) {
      ASC_TRY(o.threads, cli::parseThreads(r["threads"].as<std::string>()));
    }
    if (r.count("log")) o.log = r["log"].as<std::string>();
    if (r.count("op_plugin_path")) {
      o.op_plugin_path = r["op_plugin_path"].as<std::string>();
      if (o.op_plugin_path.empty())
        return Status::error(ErrorCode::EmptyParam, "Value for --op_plugin_path is empty.");
    }
    if (r.count("shard")) {
      const std::string v = r["shard"].as<std::string>();
      const size_t slash = v.find('/');
      if (slash == std::string::npos)
        return Status::error(ErrorCode::InvalidParam,
                             "--shard takes i/N (shard i of N, 0 <= i < N), not '{}'", v);
      ASC_TRY(int64_t n,
              cli::parseInt("shard", v.substr(slash + 1), 1, 65536, "i/N, N from 1 to 65536"));
      ASC_TRY(int64_t i, cli::parseInt("shard", v.substr(0, slash), 0, n - 1,
                                       fmt::format("i/N with i from 0 to {}", n - 1)));
      o.shard_index = static_cast<int>(i);
      o.shard_count = static_cast<int>(n);
    }
    if (r.count("warmup")) {
      ASC_TRY(int64_t w, cli::parseInt("warmup", r["warmup"].as<std::string>(), 0, 100000));
      o.warmup = static_cast<int>(w);
    }
    if (r.count("concurrency")) {
      ASC_TRY(int64_t c, cli::parseInt("concurrency", r["concurrency"].as<std::string>(), 1, 64));
      o.concurrency = static_cast<int>(c);
    }
    if (r.count("duration")) {
      const std::string v = r["duration"].as<std::string>();
      char* end = nullptr;
      o.duration_s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(o.duration_s > 0 && o.duration_s <= 86400))
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --duration is invalid. Reason: seconds, "
                             "above 0 and at most 86400, e.g. --duration 10",
                             v.empty() ? "(empty)" : v);
    }
    if (r.count("summary_json")) {
      o.summary_json = r["summary_json"].as<std::string>();
      if (o.summary_json.empty())
        return Status::error(ErrorCode::EmptyParam, "Value for --summary_json is empty.");
    }
    o.resume = r.count("resume") > 0;
    if (o.resume && o.shard_count == 0)
      return Status::error(ErrorCode::InvalidParam,
                           "--resume needs --shard i/N (the shard's manifest says what is done)");
    if (o.outfmt != "TXT" && o.outfmt != "BIN")
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --outfmt is invalid. Reason: use TXT or BIN "
                           "(upper case)",
                           o.outfmt.empty() ? "(empty)" : o.outfmt);
    ASC_RETURN_IF_ERROR(cli::parseBool("debug", o.debug).status());
    ASC_RETURN_IF_ERROR(cli::parseBool("profiler", o.profiler).status());
    ASC_RETURN_IF_ERROR(cli::parseBool("skip_verify", o.skip_verify).status());
    ASC_RETURN_IF_ERROR(cli::parseBool("check_unwritten", o.check_unwritten).status());
    o.help = r.count("help") > 0;
    o.version = r.count("version") > 0;
  } catch (const cxxopts::exceptions::exception& e) {
    return Status::error(ErrorCode::InvalidParam, "unknown paramenter ({})", e.what());
  }
  return o;
}

}  // namespace asc::msame
