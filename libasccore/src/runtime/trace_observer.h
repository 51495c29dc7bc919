// trace_observer.h: the step observer a Session installs when tracing is on (ASC_PROF_DIR, set
// by msprof). It records one task per step into a vector (no I/O, no allocation once the first
// run has sized it) and hands the vector to the trace buffer when the session ends. A user's
// observer is chained behind it, so dumps and profiling work together.
#pragma once

#include <string>
#include <vector>

#include "asc/runtime/session.h"
#include "asc/trace/trace.h"

namespace asc::runtime {

class TraceObserver final : public StepObserver {
 public:
  TraceObserver(std::string model, int threads) : model_(std::move(model)), threads_(threads) {}
  ~TraceObserver() override;
  void setNext(StepObserver* next) { next_ = next; }
  StepObserver* next() const { return next_; }
  void setModel(std::string model, std::string soc) {
    model_ = std::move(model);
    soc_ = std::move(soc);
  }
  void onStep(const Session& session, const StepEvent& e) override;
  bool readsValues() const override { return next_ && next_->readsValues(); }

 private:
  int opFor(const StepEvent& e);

  std::string model_, soc_;
  int threads_ = 0;
  int sid_ = 0;
  int run_ = -1;
  std::vector<int> op_of_step_;  // step index -> op id (-1: not seen yet)
  std::vector<trace::TaskRecord> tasks_;
  StepObserver* next_ = nullptr;
};

}  // namespace asc::runtime
