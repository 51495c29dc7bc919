// throughput.cpp: see throughput.h.
#include "throughput.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "asc/support/file.h"

namespace asc::msame {
namespace {

using Clock = std::chrono::steady_clock;

double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double pct(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(rank), hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - static_cast<double>(lo));
}

// Copies the inputs of `from` into `to` (both over the same model).
Status copyInputs(const runtime::Session& from, runtime::Session& to) {
  for (size_t i = 0; i < from.inputs().size(); ++i) {
    std::vector<uint8_t> buf(from.inputs()[i].bytes);
    ASC_RETURN_IF_ERROR(from.readValue(from.graph().inputs[i], buf.data()));
    ASC_RETURN_IF_ERROR(to.setInput(i, buf.data(), buf.size()));
  }
  return Status::ok();
}

}  // namespace

bool throughputMode(int warmup, double duration_s, int concurrency, const std::string& json) {
  return warmup > 0 || duration_s > 0 || concurrency > 1 || !json.empty();
}

Status runThroughput(runtime::Session& first,
                     const std::function<Result<std::unique_ptr<runtime::Session>>()>& load_more,
                     const ThroughputOptions& o, std::ostream& out) {
  std::vector<std::unique_ptr<runtime::Session>> extra;
  std::vector<runtime::Session*> sessions{&first};
  for (int k = 1; k < o.concurrency; ++k) {
    ASC_TRY(auto s, load_more());
    ASC_RETURN_IF_ERROR(copyInputs(first, *s));
    sessions.push_back(s.get());
    extra.push_back(std::move(s));
  }
  // Warm-up, untimed: every session, in turn (the first run's one-time costs are paid here).
  double first_ms = 0;
  for (auto* s : sessions)
    for (int w = 0; w < o.warmup; ++w) {
      const auto t0 = Clock::now();
      ASC_RETURN_IF_ERROR(s->run());
      if (s == sessions[0] && w == 0) first_ms = ms(t0, Clock::now());
    }
  std::vector<std::vector<double>> lat(sessions.size());
  std::vector<Status> status(sessions.size());
  std::atomic<bool> failed{false};
  const auto start = Clock::now();
  const auto until = start + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(o.duration_s));
  auto worker = [&](size_t k) {
    for (int i = 0;; ++i) {
      if (failed) return;
      if (o.duration_s > 0 ? Clock::now() >= until && i > 0 : i >= o.loop) return;
      const auto t0 = Clock::now();
      Status st = sessions[k]->run();
      if (!st) {
        status[k] = st;
        failed = true;
        return;
      }
      lat[k].push_back(ms(t0, Clock::now()));
    }
  };
  std::vector<std::thread> threads;
  for (size_t k = 1; k < sessions.size(); ++k) threads.emplace_back(worker, k);
  worker(0);
  for (auto& t : threads) t.join();
  const double wall_ms = ms(start, Clock::now());
  for (const Status& st : status) ASC_RETURN_IF_ERROR(st);
  std::vector<double> all;
  for (const auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  if (o.warmup == 0 && !lat[0].empty()) first_ms = lat[0].front();
  double mean = 0;
  for (double v : all) mean += v;
  mean /= std::max<size_t>(all.size(), 1);
  const double fps = wall_ms > 0 ? 1000.0 * static_cast<double>(all.size()) / wall_ms : 0;
  const int threads_per = first.threads();
  out << "[INFO] -----------------Performance Summary------------------\n";
  out << fmt::format(
      "[INFO] compute_time (ms): min = {:.3f}, max = {:.3f}, mean = {:.3f}, median = {:.3f}, "
      "percentile(90%) = {:.3f}, percentile(99%) = {:.3f}\n",
      all.empty() ? 0 : all.front(), all.empty() ? 0 : all.back(), mean, pct(all, 50), pct(all, 90),
      pct(all, 99));
  out << fmt::format(
      "[INFO] throughput: {:.2f} fps ({} runs in {:.3f} s, concurrency {}, {} threads each, "
      "warmup {})\n",
      fps, all.size(), wall_ms / 1000, o.concurrency, threads_per, o.warmup);
  out << "[INFO] ------------------------------------------------------\n";
  if (!o.summary_json.empty()) {
    const std::string json = fmt::format(
        "{{\n  \"throughput_fps\": {:.3f},\n  \"latency_ms\": {{\"mean\": {:.4f}, \"p50\": {:.4f}, "
        "\"p90\": {:.4f}, \"p99\": {:.4f}, \"max\": {:.4f}, \"min\": {:.4f}}},\n"
        "  \"load_ms\": {:.3f},\n  \"first_ms\": {:.3f},\n  \"runs\": {},\n  \"wall_s\": {:.4f},\n"
        "  \"threads\": {},\n  \"concurrency\": {},\n  \"warmup\": {},\n  \"duration_s\": "
        "{:g}\n}}\n",
        fps, mean, pct(all, 50), pct(all, 90), pct(all, 99), all.empty() ? 0 : all.back(),
        all.empty() ? 0 : all.front(), o.load_ms, first_ms, all.size(), wall_ms / 1000, threads_per,
        o.concurrency, o.warmup, o.duration_s);
    ASC_RETURN_IF_ERROR(writeFileAtomic(o.summary_json, json.data(), json.size()));
  }
  return Status::ok();
}

}  // namespace asc::msame
