// msame_runner.h: msame's Runner, the one object behind a command line (private to msame):
// msame.cpp loads the model, runs it and writes outputs and reports; msame_inputs.cpp feeds its
// inputs (files, random values, dynamic shapes); msame_batch.cpp runs folders of inputs and
// --shard's resumable batches.
#pragma once

#include <fmt/ostream.h>
#include <sys/time.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "asc/runtime/dump.h"
#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "asc/tensorio/tensor_file.h"
#include "msame.h"
#include "msame_options.h"

namespace asc::msame::detail {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

inline std::vector<std::string> listFiles(const std::string& dir) {
  std::vector<std::string> out;
  auto names = listDir(dir);
  for (const auto& n : names ? *names : std::vector<std::string>{})
    if (!isDirectory(dir + "/" + n)) out.push_back(dir + "/" + n);
  return out;
}

// <year><month><day>_<hour>_<min>_<sec>_<usec>, no zero padding (as the real msame names it).
inline std::string timestampFolder() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  tm t;
  localtime_r(&tv.tv_sec, &t);
  return fmt::format("{}{}{}_{}_{}_{}_{}", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday, t.tm_hour,
                     t.tm_min, t.tm_sec, tv.tv_usec);
}

inline double percentile(std::vector<double> v, double p) {
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
  bool readsValues() const override {
    return first_->readsValues() || (second_ && second_->readsValues());
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
    if (o_.debug) describe();
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
  Status checkOptions();

  Status checkDumpOptions();

  // {output}/dump/{YYYYMMDDhhmmss}/{device}/{model name}/{model id}: the real offline-model dump
  // layout; each run adds /{data_index}.
  std::string dumpRoot() const;

  // Another session over the same model, for --concurrency (.om only; no observers).
  Result<std::unique_ptr<runtime::Session>> loadSession();

  Status load();

  void describeOutputs();

  void describe();

  bool dymGiven() const;

  // --dymBatch N, --dymHW h,w, --dymDims / --dymShape "name:d0,d1;...": the input shapes of a
  // dynamic model (the runtime checks them against its profiles and ranges).
  Status applyDynamicOptions();

  // An int4/uint4 input (one value per byte, from a raw file or an .npy of int8/uint8): every
  // value must fit 4 bits.
  static Status checkNarrow(const ir::Tensor& t, ir::DType want, const std::string& path);

  // Reads one input file for model input i and checks it against the model.
  Status feed(size_t i, const std::string& path);

  // --random_input: each input from its own generator (seed + index), so the values do not
  // depend on the other inputs' sizes or on the stored dtype (fp16 inputs get the same numbers
  // rounded).
  Status randomInputs(uint32_t seed);

  Status runAll();

  // --debug: where the time went, slowest steps first.
  void profile();

  /// The files of each input folder, sorted by name, the same count in each.
  Result<std::vector<std::vector<std::string>>> folderFiles(const std::vector<std::string>& dirs);

  /// --shard i/N: the files k with k mod N == i. Each input set's outputs, time and status go to
  /// the shard's manifest.jsonl as it finishes (a killed run keeps what it did); a failed input
  /// is recorded and the shard goes on. --resume skips the inputs recorded "ok" whose outputs
  /// are all there.
  Status runShard(const std::vector<std::string>& dirs);

  Status runDirectories(const std::vector<std::string>& dirs);

  Status runOnce();

  Status writeOutputs(const std::string& name);

  void summary();

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

}  // namespace asc::msame::detail
