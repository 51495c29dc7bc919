// threads.cpp: how many kernel threads a session runs on (docs/runtime.md, "Threads on a busy
// machine"). A count the caller gives wins, then ASC_NUM_THREADS; otherwise the count follows
// the model's work (a thread per kMinWorkPerThread floating-point operations of one run) and the
// cores that are free now: a core another process keeps busy gives a second thread only a
// share of a core, and a team's threads wait at every barrier for the slowest of them, so one
// thread on the free core runs faster (SqueezeNet beside one busy loop: 7.1 ms on one thread,
// 10.4 ms on two). The count is fixed when the session is built: oneDNN's kernels are made for
// it.
#include <dirent.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "cpu/features.h"
#include "runtime/session_impl.h"

namespace asc::runtime {
namespace {

// Waking and joining a team costs more than a small model's whole run (the digits MLP: 0.010 ms
// on one thread, 0.082 ms on two beside a busy process); the benchmark models have hundreds of
// MFLOP.
constexpr int64_t kMinWorkPerThread = 4'000'000;

// When other processes keep cores busy as a session with more than one thread is built, a step
// below this much work runs on one thread (more: one thread per this much, up to the session's
// count). Each parallel step ends at a barrier, and a barrier waits for the team's slowest
// thread: for one that another process holds off its core. ShuffleNet's 118 steps average
// 20 us at 2 threads; two msame processes side by side at --threads 2 took 10.1 ms a run
// (ONNX Runtime's pair 7.5 ms: its pool lets the calling thread take work a descheduled worker
// has not started), 4.2 ms with this (113 steps on one thread). On a quiet machine the same
// steps on one thread cost ShuffleNet 2.15 -> 3.4 ms, so a session built quiet keeps every
// step on its count (docs/runtime.md, "Threads on a busy machine").
constexpr int64_t kMinStepWork = 4'000'000;

// Threads running or ready to run on the machine now (/proc/loadavg's "running/total"), -1 if
// unknown.
int runnableOnMachine() {
  std::ifstream f("/proc/loadavg");
  double a, b, c;
  int running = -1;
  char slash = 0;
  if (!(f >> a >> b >> c >> running >> slash) || slash != '/') return -1;
  return running;
}

// This process's threads in state R (running or ready), from /proc/self/task/*/stat.
int runnableHere() {
  DIR* d = opendir("/proc/self/task");
  if (!d) return 1;
  int n = 0;
  while (const dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream f(std::string("/proc/self/task/") + e->d_name + "/stat");
    std::string stat;
    if (!std::getline(f, stat)) continue;
    const size_t close = stat.rfind(')');  // the state follows "(comm) "
    if (close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'R') ++n;
  }
  closedir(d);
  return std::max(n, 1);
}

}  // namespace

int busyElsewhere() {
  // The fewest over samples 0.8 ms apart, 4 ms in all: a process that runs for a moment (a
  // shell, a kernel worker, the pipe reading this one's output) is not load. Over 0.6 ms, 3 of 5
  // quiet loads saw such a thing in every sample. Between samples this thread spins rather than
  // sleeps: two processes started together (GNU parallel, a Slurm array) sample at the same
  // moments, and asleep each would miss the other.
  int fewest = INT_MAX;
  for (int i = 0; i < 6; ++i) {
    if (i) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(800);
      while (std::chrono::steady_clock::now() < until) {
      }
    }
    const int all = runnableOnMachine();
    if (all < 0) return 0;
    fewest = std::min(fewest, all - runnableHere());
  }
  return std::max(fewest, 0);
}

int threadsForWork(int64_t flops, int cores, int busy) {
  const int64_t by_work = std::clamp<int64_t>(flops / kMinWorkPerThread, 1, std::max(cores, 1));
  const int free_cores = std::max(1, cores - std::max(busy, 0));
  return static_cast<int>(std::min<int64_t>(by_work, free_cores));
}

// When the session has more threads than the cores the others leave free, some of its threads
// share a core whatever a step's size, so no step runs on more threads than there are free
// cores (at least one). On 2 Zen 5 cores beside one busy loop at --threads 2, every step on one
// thread beat every mix tried (MobileNetV2 5.17 -> 3.20 ms, EfficientNet-B0 8.32 -> 6.11,
// DenseNet-121 30.0 -> 25.8, ResNet-18 15.1 -> 13.8 against the 4 MFLOP threshold alone).
StepThreads stepThreads(int threads, int busy_seen, int cores) {
  threads = std::max(threads, 1);
  if (const char* env = std::getenv("ASC_STEP_MIN_WORK"); env && *env)
    return {std::max<int64_t>(0, std::atoll(env)), threads};
  const char* follow = std::getenv("ASC_THREADS_FOLLOW_LOAD");
  if (threads <= 1 || (follow && std::string(follow) == "0")) return {0, threads};
  const int busy = busy_seen >= 0 ? busy_seen : busyElsewhere();
  if (busy <= 0) return {0, threads};
  if (cores <= 0) cores = omp_get_num_procs();
  return {kMinStepWork, std::clamp(cores - busy, 1, threads), true};
}

RunPlan::RunPlan(Way start, int first_trial)
    : current_(start), until_trial_(std::max(first_trial, 1)) {}

void RunPlan::keep(double ms) {
  if (held_ == kKeep) std::copy(recent_ + 1, recent_ + kKeep, recent_);
  held_ = std::min(held_ + 1, kKeep);
  recent_[held_ - 1] = ms;
}

double RunPlan::usualNow() const {
  double sum = 0;
  for (int i = 0; i < held_; ++i) sum += recent_[i];
  return held_ ? sum / held_ : 0;
}

int RunPlan::settle() {
  // Ways that keep trading places (one fast in most runs, very slow in a few: its recent mean
  // looks good until the slow run comes) are tried less and less often.
  const int64_t now = runs_[Wide] + runs_[Narrow];
  settle_ = now - last_switch_ < 4 * settle_ ? std::min(settle_ * 2, kMaxInterval) : kMinInterval;
  last_switch_ = now;
  return settle_;
}

void RunPlan::record(Way w, double ms) {
  ++runs_[w];
  // Each way's first run is cold (the session's first: page faults, a team starting; the other
  // way's first: its kernels and their weights never touched, its team just placed), and left
  // out; a trial goes on to the next run.
  if (!ran_[w]) {
    ran_[w] = true;
    return;
  }
  if (fixed_) return;
  if (w != current_) {  // a trial of the other way: kTrialRuns runs against the current's mean
    trial_ms_ += ms;
    if (++trial_done_ < kTrialRuns) return;
    const double theirs = trial_ms_ / trial_done_;
    trial_ms_ = 0;
    trial_done_ = 0;
    const double mine = usualNow();
    if (theirs < kSwitch * mine) {
      current_ = w;
      held_ = 0;  // what it did before it lost is old news
      keep(theirs);
      trial_interval_ = interval_;
      interval_ = settle();
      ++switches_;
      before_ = mine;
      probation_ = kConfirmRuns;
    } else {  // a wait twice as long, four times after a loss by kFarBehind
      interval_ = std::min(interval_ * (theirs > kFarBehind * mine ? 4 : 2), kMaxInterval);
    }
    until_trial_ = interval_;
    usual_ = 0;
    return;
  }
  keep(ms);
  --until_trial_;
  // Its next kConfirmRuns runs after taking over confirm the trial: no faster on average than
  // the way it replaced, and that way is back at once (one fast run happens by luck).
  if (probation_ > 0 && --probation_ == 0 && held_ > kConfirmRuns) {
    double last = 0;
    for (int i = held_ - kConfirmRuns; i < held_; ++i) last += recent_[i];
    if (last >= kConfirmRuns * before_) {
      current_ = other(current_);
      held_ = 0;
      keep(before_);
      interval_ = std::max(std::min(trial_interval_ * 2, kMaxInterval), settle());  // as a loss
      until_trial_ = interval_;
      ++switches_;
      usual_ = 0;
      return;
    }
  }
  if (usual_ <= 0) {
    if (held_ == kKeep) usual_ = usualNow();
    return;
  }
  // The last two runs together kChange times slower than usual: the machine changed; try the
  // other way now.
  if (recent_[kKeep - 1] + recent_[kKeep - 2] > 2 * kChange * usual_) until_trial_ = 0;
}

int threadsForStep(int64_t work, const StepThreads& st) {
  const int max = std::max(st.max, 1);
  if (st.min_work <= 0) return max;
  return static_cast<int>(std::clamp<int64_t>(work / st.min_work, 1, max));
}

OmpThreadsScope::OmpThreadsScope(int n) : before_(omp_get_max_threads()) {
  if (n != before_) omp_set_num_threads(n);
}

OmpThreadsScope::~OmpThreadsScope() {
  if (omp_get_max_threads() != before_) omp_set_num_threads(before_);
}

namespace {
// The calling thread's spread team: its thread count and the CPU its master runs on.
thread_local int t_spread_for = 1;
thread_local int t_master_cpu = -1;
}  // namespace

void spreadTeam(int n) {
  if (n <= 1 || n == t_spread_for) return;
  // On by default in VMs, where a sleeping thread wakes onto its waker's CPU; off on bare metal
  // (not seen there, and a pinned thread cannot leave a core other work takes later).
  const int setting = cpu::switchSetting("ASC_SPREAD_THREADS");
  if (setting == 0 || (setting < 0 && !cpu::underHypervisor())) return;
  t_spread_for = n;
  t_master_cpu = -1;
  cpu_set_t mine;
  if (sched_getaffinity(0, sizeof mine, &mine) != 0 || CPU_COUNT(&mine) < n) return;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &mine)) cpus.push_back(c);
  // From the calling thread's CPU on, so that it need not move.
  const int here = sched_getcpu();
  const size_t start =
      size_t(std::find(cpus.begin(), cpus.end(), here) - cpus.begin()) % cpus.size();
  t_master_cpu = cpus[start];
#pragma omp parallel num_threads(n)
  {
    if (const int t = omp_get_thread_num(); t > 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpus[(start + size_t(t)) % cpus.size()], &one);
      pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    }
  }
}

void placeMaster() {
  if (t_master_cpu < 0 || omp_get_max_threads() != t_spread_for) return;
  if (sched_getcpu() == t_master_cpu) return;
  cpu_set_t own, one;
  if (pthread_getaffinity_np(pthread_self(), sizeof own, &own) != 0) return;
  CPU_ZERO(&one);
  CPU_SET(t_master_cpu, &one);
  if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0)
    pthread_setaffinity_np(pthread_self(), sizeof own, &own);
}

int resolveThreads(int requested, int64_t flops, int* busy_seen) {
  if (requested > 0) return requested;
  if (const char* env = std::getenv("ASC_NUM_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return n;
  }
  const int cores = omp_get_num_procs();
  if (flops < 0) return cores;
  const int by_work = threadsForWork(flops, cores, 0);
  // ASC_THREADS_FOLLOW_LOAD=0: the count follows the work only (scripts/test.sh sets it, so that
  // tests comparing two runs' bytes get one count whatever else runs).
  const char* follow = std::getenv("ASC_THREADS_FOLLOW_LOAD");
  if (by_work <= 1 || (follow && std::string(follow) == "0")) return by_work;
  const int busy = busyElsewhere();
  if (busy_seen) *busy_seen = busy;
  // Beside other load the count stays the work's: the steps held to the free cores are one way
  // of running, all of them on every thread the other (RunPlan). ASC_RUN_WAY=narrow keeps the
  // one way: no more threads than free cores.
  const char* way = std::getenv("ASC_RUN_WAY");
  if (way && std::string(way) == "narrow") return threadsForWork(flops, cores, busy);
  return by_work;
}

}  // namespace asc::runtime
