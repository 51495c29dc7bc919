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
#include "asc/ops/plugin.h"
#include "asc/runtime/dump.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "asc/support/fp16.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "asc/tensorio/tensor_file.h"
#include "msame_options.h"
#include "throughput.h"

namespace asc::msame {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::vector<std::string> listFiles(const std::string& dir) {
  std::vector<std::string> out;
  auto names = listDir(dir);
  for (const auto& n : names ? *names : std::vector<std::string>{})
    if (!isDirectory(dir + "/" + n)) out.push_back(dir + "/" + n);
  return out;
}

// <year><month><day>_<hour>_<min>_<sec>_<usec>, no zero padding (as the real msame names it).
std::string timestampFolder() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  tm t;
  localtime_r(&tv.tv_sec, &t);
  return fmt::format("{}{}{}_{}_{}_{}_{}", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday, t.tm_hour,
                     t.tm_min, t.tm_sec, tv.tv_usec);
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double rank = p / 100.0 * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(rank);
  size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

// Calls two observers in turn (a Hooks observer, then the layer dumper).
class ObserverChain : public runtime::StepObserver {
 public:
  ObserverChain(runtime::StepObserver* first, runtime::StepObserver* second)
      : first_(first), second_(second) {}
  void onStep(const runtime::Session& s, const runtime::StepEvent& e) override {
    first_->onStep(s, e);
    if (second_) second_->onStep(s, e);
  }

 private:
  runtime::StepObserver* first_;
  runtime::StepObserver* second_;
};

class Runner {
 public:
  Runner(const Options& o, std::ostream& out, const Hooks& hooks)
      : o_(o), out_(out), hooks_(hooks) {}

  Status run() {
    ASC_RETURN_IF_ERROR(checkOptions());
    line("[INFO] acl init success");
    line(fmt::format("[INFO] open device {} success", o_.device));
    line("[INFO] create context success");
    line("[INFO] create stream success");
    line("[INFO] get run mode success");
    auto t0 = Clock::now();
    ASC_RETURN_IF_ERROR(load());
    load_ms_ = msSince(t0);
    line(fmt::format("[INFO] load model {} success", o_.model));
    ASC_RETURN_IF_ERROR(applyDynamicOptions());
    line("[INFO] create model description success");
    line("[INFO] create model output success");
    if (o_.debug == "true") describe();
    if (!o_.output.empty()) {
      ASC_RETURN_IF_ERROR(makeDirs(o_.output));
      // A shard's folder has a fixed name, so a re-run (--resume) finds what it wrote.
      out_dir_ = o_.output + (endsWith(o_.output, "/") ? "" : "/") +
                 (o_.shard_count > 0 ? fmt::format("shard_{}_of_{}", o_.shard_index, o_.shard_count)
                                     : timestampFolder());
      ASC_RETURN_IF_ERROR(makeDirs(out_dir_));
      line(out_dir_);
    }
    ASC_RETURN_IF_ERROR(runAll());
    line("[INFO] unload model success, model Id is 1");
    line("[INFO] end to destroy stream");
    line("[INFO] end to destroy context");
    line(fmt::format("[INFO] end to reset device is {}", o_.device));
    line("[INFO] end to finalize acl");
    return Status::ok();
  }

 private:
  void line(const std::string& s) { out_ << s << '\n'; }

  Status checkOptions() {
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
    if (o_.dump == "true" && o_.profiler == "true")
      return Status::error(ErrorCode::InvalidParam, "dump and profiler can not both be true");
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
    if (o_.profiler == "true") return refuse("--profiler true (run the command under msprof)");
    if (!o_.dym_shape.empty() && (o_.input.empty() || o_.output_size.empty()))
      return Status::error(ErrorCode::InvalidParam,
                           "--dymShape needs --input and --outputSize (the bytes of each output)");
    if (!o_.output_size.empty()) {
      for (const std::string& v : splitString(o_.output_size, ',')) {
        auto n = parseInt64(v);
        if (!n || *n <= 0)
          return Status::error(ErrorCode::InvalidParam,
                               "--outputSize '{}': '{}' is not a positive byte count",
                               o_.output_size, v);
        output_sizes_.push_back(static_cast<size_t>(*n));
      }
    }
    if (o_.shard_count > 0 && o_.output.empty())
      return Status::error(ErrorCode::InvalidParam,
                           "--shard needs --output: each shard writes under "
                           "<output>/shard_<i>_of_<N>/");
    if (throughputMode(o_.warmup, o_.duration_s, o_.concurrency, o_.summary_json)) {
      if (o_.dump == "true" || o_.debug == "true")
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

  Status checkDumpOptions() {
    if (o_.dump != "true" && o_.dump != "false")
      return Status::error(ErrorCode::InvalidParam, "--dump must be true or false, not '{}'",
                           o_.dump);
    if (o_.dump_mode != "output" && o_.dump_mode != "input" && o_.dump_mode != "all")
      return Status::error(ErrorCode::InvalidParam,
                           "--dump_mode must be output, input or all, not '{}'", o_.dump_mode);
    if (!o_.dump_format.empty() && o_.dump_format != "ascend" && o_.dump_format != "npy")
      return Status::error(ErrorCode::InvalidParam, "--dump_format must be ascend or npy, not '{}'",
                           o_.dump_format);
    if (o_.dump != "true") {
      if (o_.dump_mode != "output" || !o_.dump_format.empty())
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
  std::string dumpRoot() const {
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
  Result<std::unique_ptr<runtime::Session>> loadSession() {
    runtime::SessionOptions so;
    so.threads = o_.threads;
    so.verify = om::Verify::Skip;  // the first session checked the file
    return runtime::Session::load(o_.model, so);
  }

  Status load() {
    runtime::SessionOptions so;
    so.threads = o_.threads;
    so.profile = o_.debug == "true";
    so.verify = o_.skip_verify == "true" ? om::Verify::Skip : om::Verify::Whole;
    so.check_unwritten = o_.check_unwritten == "true";
    if (o_.dump == "true") {
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

  void describeOutputs() {
    for (size_t i = 0; i < session_->outputs().size(); ++i) {
      const auto& t = session_->outputs()[i];
      line(fmt::format("  output[{}] {} {} [{}] {} bytes", i, t.name, ir::dtypeName(t.dtype),
                       ir::shapeToString(t.shape), t.bytes));
    }
  }

  void describe() {
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
    if (pw.in_place + pw.reordered)
      line(fmt::format("  packed weights: {} read in place from the model{}", pw.in_place,
                       pw.reordered ? fmt::format("; {} packed for another CPU's kernels, "
                                                  "reordered at load",
                                                  pw.reordered)
                                    : ""));
    out_ << session_->describe();
  }

  bool dymGiven() const {
    return !o_.dym_batch.empty() || !o_.dym_hw.empty() || !o_.dym_dims.empty() ||
           !o_.dym_shape.empty();
  }

  // --dymBatch N, --dymHW h,w, --dymDims / --dymShape "name:d0,d1;...": the input shapes of a
  // dynamic model (the runtime checks them against its profiles and ranges).
  Status applyDynamicOptions() {
    if (!dymGiven()) return Status::ok();
    const char* option = !o_.dym_batch.empty()  ? "--dymBatch"
                         : !o_.dym_hw.empty()   ? "--dymHW"
                         : !o_.dym_dims.empty() ? "--dymDims"
                                                : "--dymShape";
    const om::DynamicShapes* dyn = session_->dynamicShapes();
    if (!dyn)
      return Status::error(ErrorCode::InvalidParam,
                           "{} needs a model with dynamic shapes; {} was converted with fixed "
                           "shapes (atc --dynamic_batch_size, --dynamic_image_size, --dynamic_dims "
                           "or --input_shape_range make them)",
                           option, o_.model);
    const auto& inputs = session_->inputs();
    std::vector<ir::Shape> shapes;
    for (const auto& in : inputs) shapes.push_back(in.shape);
    if (!o_.dym_batch.empty() || !o_.dym_hw.empty()) {
      std::vector<int64_t> values;
      for (const std::string& v :
           splitString(!o_.dym_batch.empty() ? o_.dym_batch : o_.dym_hw, ',')) {
        auto n = parseInt64(v);
        if (!n || *n <= 0 || (!o_.dym_batch.empty() && *n > 2048))
          return Status::error(ErrorCode::InvalidParam,
                               "{} '{}': '{}' is not a whole number in "
                               "1..2048",
                               option, !o_.dym_batch.empty() ? o_.dym_batch : o_.dym_hw, v);
        values.push_back(*n);
      }
      const bool batch = !o_.dym_batch.empty();
      if ((batch && values.size() != 1) || (!batch && values.size() != 2))
        return Status::error(ErrorCode::InvalidParam, "{} takes {}", option,
                             batch ? "one batch size" : "\"h,w\"");
      const std::string want = batch ? "batch" : "image_size";
      if (dyn->kind != want)
        return Status::error(ErrorCode::InvalidParam,
                             "{} needs a model converted with --dynamic_{}; this one's dynamic "
                             "shapes are of kind '{}'",
                             option, batch ? "batch_size" : "image_size", dyn->kind);
      for (auto& s : shapes) {
        size_t k = 0;
        for (auto& d : s)
          if (d < 0) d = values[batch ? 0 : k++ % 2];
      }
    } else {
      const std::string& text = !o_.dym_dims.empty() ? o_.dym_dims : o_.dym_shape;
      for (const std::string& item : splitString(text, ';')) {
        const size_t colon = item.rfind(':');
        const std::string name = colon == std::string::npos ? "" : item.substr(0, colon);
        size_t i = 0;
        while (i < inputs.size() && inputs[i].name != name) ++i;
        if (i == inputs.size())
          return Status::error(ErrorCode::InvalidParam,
                               "{} '{}': '{}' names no input of the model (write name:d0,d1;...)",
                               option, text, item);
        ir::Shape shape;
        for (const std::string& d : splitString(item.substr(colon + 1), ',')) {
          auto n = parseInt64(d);
          if (!n || *n < 0)
            return Status::error(ErrorCode::InvalidParam, "{} '{}': dim '{}' is not a whole number",
                                 option, text, d);
          shape.push_back(*n);
        }
        shapes[i] = shape;
      }
    }
    for (size_t i = 0; i < shapes.size(); ++i) {
      Status st = session_->setInputShape(i, shapes[i]);
      if (!st.isOk()) return st.withContext(option);
    }
    line(fmt::format("[INFO] {} {}: input shapes set", option,
                     !o_.dym_batch.empty()  ? o_.dym_batch
                     : !o_.dym_hw.empty()   ? o_.dym_hw
                     : !o_.dym_dims.empty() ? o_.dym_dims
                                            : o_.dym_shape));
    return Status::ok();
  }

  // An int4/uint4 input (one value per byte, from a raw file or an .npy of int8/uint8): every
  // value must fit 4 bits.
  static Status checkNarrow(const ir::Tensor& t, ir::DType want, const std::string& path) {
    if (!ir::isInt4(want)) return Status::ok();
    const int64_t lo = want == ir::DType::I4 ? -8 : 0, hi = want == ir::DType::I4 ? 7 : 15;
    for (int64_t k = 0; k < t.numel(); ++k)
      if (t.intAt(k) < lo || t.intAt(k) > hi)
        return Status::error(ErrorCode::InvalidParam,
                             "{}: element {} is {}, outside {}'s range [{}, {}]", path, k,
                             t.intAt(k), ir::dtypeName(want), lo, hi);
    return Status::ok();
  }

  // Reads one input file for model input i and checks it against the model.
  Status feed(size_t i, const std::string& path) {
    ASC_TRY(tensorio::LoadedTensor lt, tensorio::readTensorFile(path));
    // A dynamic model takes an .npy input's own shape (unless a --dym option set it): a folder may
    // hold inputs of several shapes.
    if (session_->isDynamic() && lt.has_dtype && !dymGiven()) {
      Status st = session_->setInputShape(i, lt.tensor.shape);
      if (!st.isOk()) return st.withContext(path);
    }
    const auto& info = session_->inputs()[i];
    if (lt.has_dtype) {
      // numpy has no int4 or float8: an .npy of their carrier type (int8, uint8) holds them.
      if (lt.tensor.dtype != info.dtype && lt.tensor.dtype == tensorio::npyCarrier(info.dtype) &&
          info.dtype != ir::DType::BF16) {
        lt.tensor.dtype = info.dtype;
      }
      if (lt.tensor.dtype != info.dtype)
        return Status::error(
            ErrorCode::InputShapeMismatch, "{}: holds {} data, model input {} ('{}') is {}", path,
            ir::dtypeName(lt.tensor.dtype), i, info.name, ir::dtypeName(info.dtype));
      if (lt.tensor.numel() != ir::numElements(info.shape))
        return Status::error(ErrorCode::InputShapeMismatch,
                             "{}: shape [{}] has {} elements, model input {} ('{}') is [{}]", path,
                             ir::shapeToString(lt.tensor.shape), lt.tensor.numel(), i, info.name,
                             ir::shapeToString(info.shape));
    }
    if (ir::isInt4(info.dtype) && lt.tensor.data->size() == info.bytes)
      ASC_RETURN_IF_ERROR(
          checkNarrow(ir::Tensor{info.dtype, {static_cast<int64_t>(info.bytes)}, lt.tensor.data},
                      info.dtype, path));
    Status st = session_->setInput(i, lt.tensor.data->data(), lt.tensor.data->size());
    return st.isOk() ? st : st.withContext(path);
  }

  // --random_input: each input from its own generator (seed + index), so the values do not
  // depend on the other inputs' sizes or on the stored dtype (fp16 inputs get the same numbers
  // rounded).
  Status randomInputs(uint32_t seed) {
    for (size_t i = 0; i < session_->inputs().size(); ++i) {
      const auto& info = session_->inputs()[i];
      std::mt19937 rng(seed + static_cast<uint32_t>(i));
      std::uniform_real_distribution<float> uf(-1.f, 1.f);
      std::uniform_int_distribution<int> ui(0, 9);
      const size_t n = static_cast<size_t>(ir::numElements(info.shape));
      std::vector<uint8_t> buf(info.bytes);
      for (size_t k = 0; k < n; ++k) {
        switch (info.dtype) {
          case ir::DType::F32:
            reinterpret_cast<float*>(buf.data())[k] = uf(rng);
            break;
          case ir::DType::F64:
            reinterpret_cast<double*>(buf.data())[k] = uf(rng);
            break;
          case ir::DType::F16:
            reinterpret_cast<uint16_t*>(buf.data())[k] = floatToHalf(uf(rng));
            break;
          case ir::DType::BF16:
            reinterpret_cast<uint16_t*>(buf.data())[k] = floatToBf16(uf(rng));
            break;
          case ir::DType::Bool:
            buf[k] = static_cast<uint8_t>(ui(rng) & 1);
            break;
          default: {
            const int64_t v = ui(rng);
            std::memcpy(buf.data() + k * ir::dtypeSize(info.dtype), &v, ir::dtypeSize(info.dtype));
          }
        }
      }
      ASC_RETURN_IF_ERROR(session_->setInput(i, buf.data(), buf.size()));
    }
    line(fmt::format("[INFO] random inputs, seed {}", seed));
    return Status::ok();
  }

  Status runAll() {
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
    if (o_.debug == "true") profile();
    return Status::ok();
  }

  // --debug: where the time went, slowest steps first.
  void profile() {
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

  /// The files of each input folder, sorted by name, the same count in each.
  Result<std::vector<std::vector<std::string>>> folderFiles(const std::vector<std::string>& dirs) {
    std::vector<std::vector<std::string>> files;
    for (const auto& d : dirs) files.push_back(listFiles(d));
    for (size_t i = 1; i < files.size(); ++i)
      if (files[i].size() != files[0].size())
        return Status::error(ErrorCode::InputShapeMismatch,
                             "input folders hold different numbers of files ({} in {}, {} in {})",
                             files[0].size(), dirs[0], files[i].size(), dirs[i]);
    if (files[0].empty())
      return Status::error(ErrorCode::FileOpenFailed, "input folder {} has no files", dirs[0]);
    return files;
  }

  /// --shard i/N: the files k with k mod N == i. Each input set's outputs, time and status go to
  /// the shard's manifest.jsonl as it finishes (a killed run keeps what it did); a failed input
  /// is recorded and the shard goes on. --resume skips the inputs recorded "ok" whose outputs
  /// are all there.
  Status runShard(const std::vector<std::string>& dirs) {
    ASC_TRY(auto files, folderFiles(dirs));
    const std::string manifest = out_dir_ + "/manifest.jsonl";
    std::set<std::string> done;
    if (o_.resume) {
      std::ifstream in(manifest);
      std::string rec;
      while (std::getline(in, rec)) {
        if (rec.find("\"status\": \"ok\"") == std::string::npos) continue;
        const size_t a = rec.find("\"outputs\": [");
        const size_t b = a == std::string::npos ? a : rec.find(']', a);
        bool complete = a != std::string::npos && b != std::string::npos;
        for (size_t q = rec.find('[', a); complete && (q = rec.find('"', q + 1)) < b;) {
          const size_t e = rec.find('"', q + 1);
          complete = e < b && fileExists(out_dir_ + "/" + rec.substr(q + 1, e - q - 1));
          q = e;
        }
        const size_t k = rec.find("\"input\": [");
        if (complete && k != std::string::npos) done.insert(rec.substr(k, rec.find(']', k) - k));
      }
    }
    std::ofstream log(manifest, std::ios::app);
    if (!log)
      return Status::error(ErrorCode::FileWriteFailed, "cannot write the shard manifest {}",
                           manifest);
    size_t mine = 0, skipped = 0, failed = 0;
    ErrorCode first_error = ErrorCode::Ok;
    for (size_t k = static_cast<size_t>(o_.shard_index); k < files[0].size();
         k += static_cast<size_t>(o_.shard_count)) {
      ++mine;
      std::vector<std::string> quoted;
      for (size_t i = 0; i < files.size(); ++i) quoted.push_back(jsonQuote(files[i][k]));
      const std::string key = fmt::format("\"input\": [{}", fmt::join(quoted, ", "));
      if (done.count(key)) {
        ++skipped;
        continue;
      }
      const std::string name = fileStem(files[0][k]);
      auto t0 = Clock::now();
      Status st;
      for (size_t i = 0; i < files.size() && st.isOk(); ++i) {
        line(fmt::format("[INFO] start to process file:{}", files[i][k]));
        st = feed(i, files[i][k]);
      }
      if (st.isOk()) st = runOnce();
      if (st.isOk()) st = writeOutputs(name);
      std::vector<std::string> outs;
      for (size_t j = 0; j < session_->outputs().size(); ++j)
        outs.push_back(
            jsonQuote(fmt::format("{}_output_{}.{}", name, j, o_.outfmt == "TXT" ? "txt" : "bin")));
      log << fmt::format("{{{}], \"outputs\": [{}], \"ms\": {:.3f}, \"status\": {}{}}}\n", key,
                         st.isOk() ? fmt::to_string(fmt::join(outs, ", ")) : "", msSince(t0),
                         st.isOk() ? "\"ok\"" : "\"error\"",
                         st.isOk() ? "" : ", \"error\": " + jsonQuote(st.toString()));
      log.flush();
      if (!st.isOk()) {
        if (!failed++) first_error = st.code();
        line("[ERROR] " + st.toString());
      }
    }
    line(
        fmt::format("[INFO] shard {}/{}: {} of {} input sets, {} run, {} skipped (--resume), {} "
                    "failed; manifest {}",
                    o_.shard_index, o_.shard_count, mine, files[0].size(), mine - skipped - failed,
                    skipped, failed, manifest));
    if (!times_.empty()) summary();
    if (failed)
      return Status::error(first_error,
                           "{} of the shard's {} input sets failed (the first "
                           "error's code); see {}",
                           failed, mine, manifest);
    return Status::ok();
  }

  Status runDirectories(const std::vector<std::string>& dirs) {
    ASC_TRY(auto files, folderFiles(dirs));
    for (size_t k = 0; k < files[0].size(); ++k) {
      for (size_t i = 0; i < files.size(); ++i) {
        line(fmt::format("[INFO] start to process file:{}", files[i][k]));
        ASC_RETURN_IF_ERROR(feed(i, files[i][k]));
      }
      ASC_RETURN_IF_ERROR(runOnce());
      ASC_RETURN_IF_ERROR(writeOutputs(fileStem(files[0][k])));
    }
    double sum = 0;
    for (double t : times_) sum += t;
    out_ << fmt::format("Inference average time : {:.2f} ms\n", sum / times_.size());
    if (times_.size() > 1)
      out_ << fmt::format("Inference average time without first time: {:.2f} ms\n",
                          (sum - times_[0]) / (times_.size() - 1));
    // Beyond the real tool: a dynamic model fed several shapes gets its latency per shape.
    if (shape_times_.size() > 1)
      for (const auto& [shape, ms] : shape_times_) {
        double total = 0;
        for (double t : ms) total += t;
        out_ << fmt::format("Inference average time for input shape {}: {:.2f} ms ({} runs)\n",
                            shape, total / ms.size(), ms.size());
      }
    summary();
    return Status::ok();
  }

  Status runOnce() {
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

  Status writeOutputs(const std::string& name) {
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
    if (o_.debug == "true" && session_->isDynamic()) describeOutputs();
    line("[INFO] output data success");
    return Status::ok();
  }

  void summary() {
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

  const Options& o_;
  std::ostream& out_;
  std::unique_ptr<runtime::Session> session_;
  std::unique_ptr<runtime::LayerDumper> dumper_;  // declared after session_: destroyed first
  std::unique_ptr<ObserverChain> chain_;
  const Hooks& hooks_;
  std::string dump_root_;
  std::string out_dir_;
  std::vector<double> times_;
  std::map<std::string, std::vector<double>> shape_times_;  // a dynamic model: per input shapes
  std::vector<size_t> output_sizes_;                        // --outputSize
  double load_ms_ = 0;
};

}  // namespace

int main(int argc, const char* const* argv, std::ostream& out, const Hooks& hooks) {
  log::setProgram("msame");
  auto opts = parseOptions(argc, argv);
  if (opts && opts->no_args) {
    out << "[ERROR] Invalid params\n[ERROR] Execute sample failed\n" << usage();
    return 1;
  }
  if (!opts) {
    // "unknown paramenter" is the real tool's line, kept as it prints it; value errors carry
    // their code (E10001 a bad value, E10004 an empty one).
    const std::string& m = opts.status().message();
    out << "[ERROR] " << (m.rfind("unknown paramenter", 0) == 0 ? m : opts.status().toString())
        << "\n[ERROR] Execute sample failed\n"
        << usage();
    return 1;
  }
  if (opts->help) {
    out << usage();
    return 0;
  }
  if (Status st = cli::applyLogOption(opts->log, !opts->log.empty()); !st) {
    out << "[ERROR] " << st.toString() << "\n[ERROR] Execute sample failed\n";
    return cli::kExitFailed;
  }
  if (opts->version) {
    out << cli::versionText("msame");
    return 0;
  }
  if (Status st = ops::loadPluginsFromOptionOrEnv(opts->op_plugin_path); !st) {
    out << "[ERROR] " << st.toString() << "\n[ERROR] Execute sample failed\n";
    return cli::kExitFailed;
  }
  Runner r(*opts, out, hooks);
  Status st = r.run();
  if (!st) {
    out << "[ERROR] " << st.toString() << "\n[ERROR] Execute sample failed\n";
    out.flush();
    return 1;
  }
  out << fmt::format("[INFO] pid: {} Execute sample success\n", getpid());
  out.flush();
  return 0;
}

}  // namespace asc::msame
