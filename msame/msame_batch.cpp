// msame_batch.cpp: msame's Runner over folders of inputs: one run per file index across the
// --input folders, outputs in one timestamped folder per run, and --shard's batches (a resumable
// manifest.jsonl of finished inputs, the files split across shards).
#include <fmt/ostream.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "asc/frontend/onnx.h"
#include "asc/support/fp16.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "msame_runner.h"

namespace asc::msame::detail {

/// The files of each input folder, sorted by name, the same count in each.
Result<std::vector<std::vector<std::string>>> Runner::folderFiles(
    const std::vector<std::string>& dirs) {
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
Status Runner::runShard(const std::vector<std::string>& dirs) {
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

Status Runner::runDirectories(const std::vector<std::string>& dirs) {
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
      out_ << fmt::format("Inference average time for input shape {}: {:.2f} ms ({} runs)\n", shape,
                          total / ms.size(), ms.size());
    }
  summary();
  return Status::ok();
}

}  // namespace asc::msame::detail
