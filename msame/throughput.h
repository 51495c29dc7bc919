// throughput.h: msame's throughput mode (asc-tools; issue 34): --warmup N untimed runs,
// --duration S seconds of runs (else --loop runs), --concurrency K requests in flight on one
// model (K sessions over the same mapped .om: the weights' pages are shared, each session has
// its own arena), and --summary_json FILE. Latencies of every timed run of every session make
// one distribution; throughput is timed runs over the wall time.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "asc/runtime/session.h"
#include "asc/support/status.h"

namespace asc::msame {

struct ThroughputOptions {
  int warmup = 0;
  double duration_s = 0;  // 0: `loop` runs per session
  int loop = 1;
  int concurrency = 1;
  std::string summary_json;
  double load_ms = 0;
};

/// Whether the options ask for throughput mode.
bool throughputMode(int warmup, double duration_s, int concurrency, const std::string& json);

/// Runs the benchmark on `first` (inputs already set) and concurrency - 1 more sessions from
/// `load_more` (given `first`'s inputs), prints the summary on `out` and writes the JSON file.
Status runThroughput(runtime::Session& first,
                     const std::function<Result<std::unique_ptr<runtime::Session>>()>& load_more,
                     const ThroughputOptions& o, std::ostream& out);

}  // namespace asc::msame
