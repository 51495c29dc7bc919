// msame.cpp: load a model, feed inputs (files, folders or zeros), run it --loop times, write
// the outputs in the real msame's layout and print its lines, then one summary line with
// load time, first-run time and statistics of the later runs.
#include "msame.h"

#include <fmt/ostream.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <random>
#include <dirent.h>

#include "asc/cli/common.h"
#include "asc/frontend/onnx.h"
#include "asc/ophost/ophost.h"
#include "asc/ops/plugin.h"
#include "asc/runtime/dump.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "asc/support/fp16.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "asc/tensorio/tensor_file.h"
#include "msame_options.h"
#include "msame_runner.h"
#include "throughput.h"

namespace asc::msame {
namespace detail {

Status Runner::checkOptions() {
  if (o_.model.empty())
    return Status::error(ErrorCode::EmptyParam, "no --model given; see msame --help");
  if (o_.model.find(".om") == std::string::npos && !endsWith(o_.model, ".onnx"))
    return Status::error(ErrorCode::InvalidParam,
                         "input model file type is not .om , please check your model type! "
                         "(asc-tools also runs .onnx models)");
  if (o_.max_loop < 1)
    return Status::error(ErrorCode::InvalidParam, "--max_loop must be at least 1");
  if (o_.loop < 1 || o_.loop > o_.max_loop)
    return Status::error(ErrorCode::InvalidParam, "loop must in 1 to {}{}", o_.max_loop,
                         o_.max_loop == 100 ? " (use --max_loop N for longer runs)" : "");
  if (o_.device < 0 || o_.device > 255)
    return Status::error(ErrorCode::InvalidParam, "device id must in 0 to 255");
  int dyn =
      !o_.dym_batch.empty() + !o_.dym_hw.empty() + !o_.dym_dims.empty() + !o_.dym_shape.empty();
  if (dyn > 1)
    return Status::error(ErrorCode::InvalidParam,
                         "dymBatch dymDims dymHW dymShape cannot be set at the same time");
  auto refuse = [](const char* what) {
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: asc-tools msame does not "
                         "support {} yet",
                         what);
  };
  ASC_RETURN_IF_ERROR(checkDumpOptions());
  if (o_.random_input >= 0 && !o_.input.empty())
    return Status::error(ErrorCode::InvalidParam,
                         "--random_input and --input both give the inputs; use one");
  if (!o_.dym_shape.empty() && (o_.input.empty() || o_.output_size.empty()))
    return Status::error(ErrorCode::InvalidParam,
                         "--dymShape needs --input and --outputSize (the bytes of each output)");
  if (!o_.output_size.empty()) {
    for (const std::string& v : splitString(o_.output_size, ',')) {
      auto n = parseInt64(v);
      if (!n || *n <= 0)
        return Status::error(ErrorCode::InvalidParam,
                             "--outputSize '{}': '{}' is not a positive byte count", o_.output_size,
                             v);
      output_sizes_.push_back(static_cast<size_t>(*n));
    }
  }
  if (o_.shard_count > 0 && o_.output.empty())
    return Status::error(ErrorCode::InvalidParam,
                         "--shard needs --output: each shard writes under "
                         "<output>/shard_<i>_of_<N>/");
  if (throughputMode(o_.warmup, o_.duration_s, o_.concurrency, o_.summary_json)) {
    if (o_.dump || o_.debug)
      return Status::error(ErrorCode::InvalidParam,
                           "--warmup/--duration/--concurrency/--summary_json measure speed; "
                           "run --dump or --debug without them");
    if (o_.concurrency > 1 && endsWith(o_.model, ".onnx"))
      return refuse("--concurrency with an .onnx model (convert it with atc first)");
    if (!o_.dym_batch.empty() || !o_.dym_hw.empty() || !o_.dym_dims.empty() ||
        !o_.dym_shape.empty())
      return refuse("throughput mode on a dynamic-shape model");
  }
  if (!o_.input_shape.empty() && !endsWith(o_.model, ".onnx"))
    return Status::error(ErrorCode::InvalidParam,
                         "--input_shape applies to .onnx models; an .om has fixed shapes");
  return Status::ok();
}

Status Runner::checkDumpOptions() {
  if (!o_.dump) {
    if (o_.given(o_.dump_mode) || o_.given(o_.dump_format))
      return Status::error(ErrorCode::InvalidParam,
                           "--dump_mode and --dump_format need --dump true");
    return Status::ok();
  }
  if (o_.output.empty())
    return Status::error(ErrorCode::EmptyParam,
                         "--dump true needs --output: dumps are written to <output>/dump");
  if (endsWith(o_.model, ".onnx")) {
    if (o_.dump_mode != "output")
      return Status::error(ErrorCode::InvalidParam,
                           "--dump_mode {} applies to .om models; golden dumps of an .onnx "
                           "model hold each node's outputs",
                           o_.dump_mode);
    if (o_.dump_format == "ascend")
      return Status::error(ErrorCode::InvalidParam,
                           "--dump_format ascend applies to .om models; golden dumps of an "
                           ".onnx model are .npy files");
  }
  return Status::ok();
}

// {output}/dump/{YYYYMMDDhhmmss}/{device}/{model name}/{model id}: the real offline-model dump
// layout; each run adds /{data_index}.
std::string Runner::dumpRoot() const {
  std::string name = session_->graph().name.empty() || endsWith(o_.model, ".onnx")
                         ? fileStem(o_.model)
                         : session_->graph().name;
  for (char& c : name)
    if (c == '.' || c == '/' || c == '\\' || c == ' ') c = '_';
  std::time_t now = std::time(nullptr);
  std::tm t;
  localtime_r(&now, &t);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &t);
  return fmt::format("{}{}dump/{}/{}/{}/1", o_.output, endsWith(o_.output, "/") ? "" : "/", stamp,
                     o_.device, name);
}

// Another session over the same model, for --concurrency (.om only; no observers).
Result<std::unique_ptr<runtime::Session>> Runner::loadSession() {
  runtime::SessionOptions so;
  so.threads = o_.threads;
  so.verify = om::Verify::Skip;  // the first session checked the file
  return runtime::Session::load(o_.model, so);
}

Status Runner::load() {
  runtime::SessionOptions so;
  so.threads = o_.threads;
  so.profile = o_.debug;
  so.verify = o_.skip_verify ? om::Verify::Skip : om::Verify::Whole;
  so.check_unwritten = o_.check_unwritten;
  if (o_.dump) {
    runtime::DumpOptions d;
    d.mode = o_.dump_mode == "input" ? runtime::DumpMode::Input
             : o_.dump_mode == "all" ? runtime::DumpMode::All
                                     : runtime::DumpMode::Output;
    d.format = endsWith(o_.model, ".onnx") ? runtime::DumpFormat::Golden
               : o_.dump_format == "npy"   ? runtime::DumpFormat::Npy
                                           : runtime::DumpFormat::Ascend;
    dumper_ = std::make_unique<runtime::LayerDumper>(d);
    so.observer = dumper_.get();
    // Input dumps read a node's inputs after later steps ran: keep every value.
    so.reuse_memory = !dumper_->needsAllValues();
  }
  if (endsWith(o_.model, ".onnx")) {
    frontend::OnnxImportOptions io;
    io.input_shape = o_.input_shape;
    io.allow_dynamic = true;  // shapes that need run-time values are compiled per run
    ASC_TRY(ir::Graph g, frontend::importOnnx(o_.model, io));
    ASC_TRY(session_, runtime::Session::fromGraph(std::move(g), so));
  } else {
    ASC_TRY(session_, runtime::Session::load(o_.model, so));
  }
  if (hooks_.observer) {
    if (runtime::StepObserver* first = hooks_.observer(*session_)) {
      chain_ = std::make_unique<ObserverChain>(first, dumper_.get());
      session_->setObserver(chain_.get());
    }
  }
  return Status::ok();
}

void Runner::describeOutputs() {
  for (size_t i = 0; i < session_->outputs().size(); ++i) {
    const auto& t = session_->outputs()[i];
    line(fmt::format("  output[{}] {} {} [{}] {} bytes", i, t.name, ir::dtypeName(t.dtype),
                     ir::shapeToString(t.shape), t.bytes));
  }
}

void Runner::describe() {
  line("[INFO] model description:");
  for (size_t i = 0; i < session_->inputs().size(); ++i) {
    const auto& t = session_->inputs()[i];
    line(fmt::format("  input[{}] {} {} [{}] {} bytes", i, t.name, ir::dtypeName(t.dtype),
                     ir::shapeToString(t.shape), t.bytes));
  }
  describeOutputs();
  line(
      fmt::format("  arena {} bytes ({} of {} buffers at the model's planned offsets), {} "
                  "threads, execution plan:",
                  session_->arenaBytes(), session_->modelPlacedBuffers(), session_->bufferCount(),
                  session_->threads()));
  const auto pw = session_->packedWeights();
  if (pw.in_place + pw.reordered + pw.sliced)
    line(fmt::format("  packed weights: {} read in place from the model{}{}", pw.in_place,
                     pw.reordered ? fmt::format("; {} packed for another CPU's kernels, "
                                                "reordered at load",
                                                pw.reordered)
                                  : "",
                     pw.sliced ? fmt::format("; {} unpacked at load for convolutions that read "
                                             "a Concat's inputs",
                                             pw.sliced)
                               : ""));
  out_ << session_->describe();
}

Status Runner::runAll() {
  const size_t nin = session_->inputs().size();
  std::vector<std::string> items = splitString(o_.input, ',');
  if (!o_.input.empty() && items.empty())
    return Status::error(ErrorCode::EmptyParam, "--input '{}' names no file or folder", o_.input);
  if (!items.empty() && items.size() != nin)
    return Status::error(ErrorCode::InputShapeMismatch,
                         "--input gives {} paths, the model has {} inputs", items.size(), nin);
  bool dirs = !items.empty() && isDirectory(items[0]);
  for (const auto& p : items)
    if (isDirectory(p) != dirs)
      return Status::error(ErrorCode::InvalidParam,
                           "--input mixes files and folders; give all files or all folders");
  if (dirs && throughputMode(o_.warmup, o_.duration_s, o_.concurrency, o_.summary_json))
    return Status::error(ErrorCode::InvalidParam,
                         "--warmup/--duration/--concurrency/--summary_json run one input set; "
                         "--input gives folders");
  if (dirs) return o_.shard_count > 0 ? runShard(items) : runDirectories(items);
  if (o_.shard_count > 0)
    return Status::error(ErrorCode::InvalidParam,
                         "--shard splits the files of --input folders; --input gives files");
  // File or zero-input mode: one input set, --loop runs, outputs written after the last.
  if (items.empty() && o_.random_input >= 0) {
    ASC_RETURN_IF_ERROR(randomInputs(static_cast<uint32_t>(o_.random_input)));
  } else if (items.empty()) {
    session_->zeroInputs();
  } else {
    for (size_t i = 0; i < nin; ++i) {
      line(fmt::format("[INFO] start to process file:{}", items[i]));
      ASC_RETURN_IF_ERROR(feed(i, items[i]));
    }
  }
  if (throughputMode(o_.warmup, o_.duration_s, o_.concurrency, o_.summary_json)) {
    ThroughputOptions t{o_.warmup,      o_.duration_s,   o_.loop,
                        o_.concurrency, o_.summary_json, load_ms_};
    ASC_RETURN_IF_ERROR(runThroughput(
        *session_, [this] { return loadSession(); }, t, out_));
    return writeOutputs(fileStem(o_.model));
  }
  for (int l = 0; l < o_.loop; ++l) ASC_RETURN_IF_ERROR(runOnce());
  ASC_RETURN_IF_ERROR(writeOutputs(fileStem(o_.model)));
  double sum = 0;
  for (double t : times_) sum += t;
  out_ << fmt::format("Inference average time: {:f} ms\n", sum / times_.size());
  if (times_.size() > 1)
    out_ << fmt::format("Inference average time without first time: {:f} ms\n",
                        (sum - times_[0]) / (times_.size() - 1));
  summary();
  if (o_.debug) profile();
  return Status::ok();
}

// --debug: where the time went, slowest steps first.
void Runner::profile() {
  auto steps = session_->stepProfile();
  double total = 0;
  for (const auto& s : steps) total += s.total_ms;
  std::sort(steps.begin(), steps.end(),
            [](const auto& a, const auto& b) { return a.total_ms > b.total_ms; });
  line(fmt::format("[INFO] step profile over {} runs (mean ms per run, share):",
                   steps.empty() ? 0 : steps[0].calls));
  for (size_t i = 0; i < steps.size() && i < 200; ++i)
    line(fmt::format("  {:8.3f} {:5.1f}%  {}",
                     steps[i].total_ms / std::max<int64_t>(1, steps[i].calls),
                     total > 0 ? 100.0 * steps[i].total_ms / total : 0.0, steps[i].label));
}

Status Runner::runOnce() {
  if (dumper_) {
    if (dump_root_.empty()) {
      dump_root_ = dumpRoot();
      line(fmt::format("[INFO] dump data to {}", dump_root_));
    }
    ASC_RETURN_IF_ERROR(dumper_->beginRun(fmt::format("{}/{}", dump_root_, times_.size())));
  }
  auto t0 = Clock::now();
  ASC_RETURN_IF_ERROR(session_->run());
  if (dumper_) ASC_RETURN_IF_ERROR(dumper_->status());
  double ms = msSince(t0);
  times_.push_back(ms);
  if (session_->isDynamic()) {
    std::vector<std::string> shapes;
    for (const auto& in : session_->inputs())
      shapes.push_back("[" + ir::shapeToString(in.shape) + "]");
    shape_times_[fmt::format("{}", fmt::join(shapes, " "))].push_back(ms);
  }
  for (size_t i = 0; i < output_sizes_.size() && i < session_->outputs().size(); ++i)
    if (session_->outputs()[i].bytes > output_sizes_[i])
      return Status::error(ErrorCode::InvalidParam,
                           "output {} ('{}') has {} bytes, more than --outputSize gives ({})", i,
                           session_->outputs()[i].name, session_->outputs()[i].bytes,
                           output_sizes_[i]);
  line("[INFO] model execute success");
  out_ << fmt::format("Inference time: {:g}ms\n", ms);
  return Status::ok();
}

Status Runner::writeOutputs(const std::string& name) {
  if (out_dir_.empty()) return Status::ok();
  const bool txt = o_.outfmt == "TXT";
  for (size_t i = 0; i < session_->outputs().size(); ++i) {
    const auto& info = session_->outputs()[i];
    std::string path = fmt::format("{}/{}_output_{}.{}", out_dir_, name, i, txt ? "txt" : "bin");
    if (txt) {
      ir::Tensor t{info.dtype, info.shape,
                   std::make_shared<ir::Blob>(session_->outputData(i), info.bytes, nullptr)};
      std::string s = tensorio::formatTxt(t);
      ASC_RETURN_IF_ERROR(writeFileAtomic(path, s.data(), s.size()));
    } else {
      ASC_RETURN_IF_ERROR(writeFileAtomic(path, session_->outputData(i), info.bytes));
    }
  }
  // A dynamic model's outputs take their shapes from the run.
  if (o_.debug && session_->isDynamic()) describeOutputs();
  line("[INFO] output data success");
  return Status::ok();
}

void Runner::summary() {
  std::vector<double> later(times_.begin() + (times_.size() > 1 ? 1 : 0), times_.end());
  double mean = 0;
  for (double t : later) mean += t;
  mean /= later.size();
  out_ << fmt::format(
      "[INFO] summary: load_ms={:.3f} first_ms={:.3f} runs={} mean_ms={:.3f} median_ms={:.3f} "
      "p90_ms={:.3f} p99_ms={:.3f} threads={}\n",
      load_ms_, times_[0], times_.size(), mean, percentile(later, 50), percentile(later, 90),
      percentile(later, 99), session_->threads());
  if (dumper_)
    line(fmt::format("[INFO] layer dumps: {} files in {}", dumper_->filesWritten(), dump_root_));
}

}  // namespace detail

using detail::Runner;

namespace {

// msame's one way to report a failure, as the real tool prints it: "[ERROR] <what>" and
// "[ERROR] Execute sample failed" (the usage after a command-line error), exit 1. The real
// tool's own lines ("unknown paramenter ...") keep their text; ours carry their code.
int fail(std::ostream& out, const Status& st, bool with_usage = false) {
  const std::string& m = st.message();
  out << "[ERROR] " << (m.rfind("unknown paramenter", 0) == 0 ? m : st.toString())
      << "\n[ERROR] Execute sample failed\n";
  if (with_usage) out << usage();
  out.flush();
  return cli::kExitFailed;
}

}  // namespace

int main(int argc, const char* const* argv, std::ostream& out, const Hooks& hooks) {
  log::setProgram("msame");
  if (argc <= 1) {
    out << "[ERROR] Invalid params\n[ERROR] Execute sample failed\n" << usage();
    return cli::kExitFailed;
  }
  auto opts = parseOptions(argc, argv);
  if (!opts) return fail(out, opts.status(), /*with_usage=*/true);
  if (opts->help) {
    out << usage();
    return 0;
  }
  if (opts->options_markdown) {
    out << optionTable().markdown();
    return 0;
  }
  if (Status st = cli::applyLogOption(opts->log, !opts->log.empty()); !st) return fail(out, st);
  if (opts->version) {
    out << cli::versionText("msame");
    return 0;
  }
  if (Status st = ophost::loadCustomOperators(opts->op_plugin_path); !st) return fail(out, st);
  Runner r(*opts, out, hooks);
  if (Status st = r.run(); !st) return fail(out, st);
  out << fmt::format("[INFO] pid: {} Execute sample success\n", getpid());
  out.flush();
  return 0;
}

}  // namespace asc::msame
