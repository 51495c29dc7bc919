// collect.cpp: fork/exec with ASC_PROF_DIR set, and data sampling from /proc: CPU time and RSS
// of the whole process tree (a shell script's msame children included) and the machine's CPU
// use. Sampling runs in msprof, not in the profiled process, so it costs that process nothing.
#include "collect.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <immintrin.h>

#include <atomic>
#include <condition_variable>
#include <iostream>
#include <map>
#include <mutex>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>
#include <string_view>
#include <thread>

#include "asc/trace/trace.h"

namespace asc::msprof {
namespace {

std::vector<int> childrenOf(int pid) {
  std::vector<int> out;
  std::ifstream f(fmt::format("/proc/{}/task/{}/children", pid, pid));
  int c;
  while (f >> c) out.push_back(c);
  return out;
}

// utime+stime (clock ticks) and RSS pages of one process; false when it is gone.
bool procStat(int pid, int64_t* ticks, int64_t* rss_pages) {
  std::ifstream f(fmt::format("/proc/{}/stat", pid));
  std::string s;
  if (!std::getline(f, s)) return false;
  size_t rp = s.rfind(')');
  if (rp == std::string::npos) return false;
  std::istringstream in(s.substr(rp + 2));
  std::string tok;
  int64_t utime = 0, stime = 0, rss = 0;
  // Fields after "(comm)": state(3) ... utime(14) stime(15) ... rss(24).
  for (int field = 3; field <= 24 && in >> tok; ++field) {
    if (field == 14) utime = std::atoll(tok.c_str());
    if (field == 15) stime = std::atoll(tok.c_str());
    if (field == 24) rss = std::atoll(tok.c_str());
  }
  *ticks = utime + stime;
  *rss_pages = rss;
  return true;
}

// Busy and total jiffies of the machine.
void machineCpu(int64_t* busy, int64_t* total) {
  std::ifstream f("/proc/stat");
  std::string cpu;
  int64_t v[8] = {};
  f >> cpu >> v[0] >> v[1] >> v[2] >> v[3] >> v[4] >> v[5] >> v[6] >> v[7];
  *total = 0;
  for (int64_t x : v) *total += x;
  *busy = *total - v[3] - v[4];
}

class Sampler {
 public:
  explicit Sampler(int root) : root_(root) {
    machineCpu(&busy0_, &total0_);
    t0_ = trace::nowNs();
  }
  void sample(std::vector<trace::Sample>* out) {
    int64_t ticks = 0, pages = 0;
    std::vector<int> pending{root_};
    while (!pending.empty()) {
      int p = pending.back();
      pending.pop_back();
      int64_t t = 0, r = 0;
      if (procStat(p, &t, &r)) {
        // A process that ended took its ticks with it: keep the last reading of each.
        last_ticks_[p] = t;
        pages += r;
      }
      for (int c : childrenOf(p)) pending.push_back(c);
    }
    for (const auto& kv : last_ticks_) ticks += kv.second;
    int64_t busy = 0, total = 0;
    machineCpu(&busy, &total);
    const int64_t now = trace::nowNs();
    trace::Sample s;
    s.ts_ns = now;
    const double dt = static_cast<double>(now - t0_) / 1e9;
    const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
    s.app_cpu_percent = dt > 0 ? 100.0 * static_cast<double>(ticks - ticks0_) / hz / dt : 0;
    s.sys_cpu_percent =
        total > total0_ ? 100.0 * static_cast<double>(busy - busy0_) / double(total - total0_) : 0;
    s.rss_bytes = pages * sysconf(_SC_PAGESIZE);
    if (have_first_) out->push_back(s);
    have_first_ = true;
    ticks0_ = ticks;
    busy0_ = busy;
    total0_ = total;
    t0_ = now;
  }

 private:
  int root_;
  std::map<int, int64_t> last_ticks_;
  int64_t ticks0_ = 0, busy0_ = 0, total0_ = 0, t0_ = 0;
  bool have_first_ = false;
};

// Ten independent FMA chains hide the FMA latency, so this runs at the core's FMA throughput
// (AVX2: 8 lanes).
__attribute__((target("avx2,fma"))) double fmaLoop(int64_t iters) {
  __m256 acc[10];
  for (int k = 0; k < 10; ++k) acc[k] = _mm256_set1_ps(static_cast<float>(k) * 1e-3f);
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (int64_t i = 0; i < iters; ++i)
    for (int k = 0; k < 10; ++k) acc[k] = _mm256_fmadd_ps(acc[k], a, b);
  float s = 0;
  for (int k = 0; k < 10; ++k) s += _mm256_cvtss_f32(acc[k]);
  return s;
}

// The same with 16-lane FMAs, on CPUs with AVX-512 (oneDNN uses it there, so the peak must too).
__attribute__((target("avx512f"))) double fmaLoop512(int64_t iters) {
  __m512 acc[10];
  for (int k = 0; k < 10; ++k) acc[k] = _mm512_set1_ps(static_cast<float>(k) * 1e-3f);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (int64_t i = 0; i < iters; ++i)
    for (int k = 0; k < 10; ++k) acc[k] = _mm512_fmadd_ps(acc[k], a, b);
  float s = 0;
  for (int k = 0; k < 10; ++k) s += _mm512_cvtss_f32(acc[k]);
  return s;
}

}  // namespace

namespace {
// The local time now as YYYYMMDDhhmmss, and its milliseconds.
std::string localTimestamp(int* millis) {
  timeval tv;
  gettimeofday(&tv, nullptr);
  tm t;
  localtime_r(&tv.tv_sec, &t);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &t);
  *millis = static_cast<int>(tv.tv_usec / 1000);
  return buf;
}
// 16 random characters of `alphabet`.
std::string randomId(std::string_view alphabet) {
  std::random_device rd;
  std::mt19937 gen(rd());
  std::string id;
  for (int i = 0; i < 16; ++i) id += alphabet[gen() % alphabet.size()];
  return id;
}
}  // namespace

std::string profDirName(std::string* timestamp) {
  int ms = 0;
  *timestamp = localTimestamp(&ms);
  return fmt::format("PROF_{:06d}_{}{:03d}_{}", getpid() % 1000000, *timestamp, ms,
                     randomId("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"));
}

std::string opprofDirName() {
  int ms = 0;
  return "OPPROF_" + localTimestamp(&ms) + "_" + randomId("ABCDEFGHIJKLMNOPQRSTUVWXYZ");
}

std::string applicationCommand(const std::string& app) {
  const size_t start = app.find_first_not_of(" \t");
  if (start == std::string::npos) return app;
  const size_t end = app.find_first_of(" \t", start);
  const std::string first = app.substr(start, end == std::string::npos ? end : end - start);
  struct stat st {};
  if (first.find('/') == std::string::npos && ::stat(first.c_str(), &st) == 0 &&
      S_ISREG(st.st_mode) && ::access(first.c_str(), X_OK) == 0)
    return app.substr(0, start) + "./" + app.substr(start);
  return app;
}

double measureCorePeakGflops() {
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const int lanes = avx512 ? 16 : 8;
  const int64_t iters = 300'000;  // 10 FMAs per iteration: 48 (AVX2) or 96 (AVX-512) MFLOP
  double best = 0, sink = 0;
  for (int trial = 0; trial < 12; ++trial) {
    auto t0 = std::chrono::steady_clock::now();
    sink += avx512 ? fmaLoop512(iters) : fmaLoop(iters);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, double(iters) * 10 * lanes * 2 / sec / 1e9);
  }
  return sink == -1.0 ? 0 : best;
}

Result<int> launchAndWait(const Launch& l, std::vector<trace::Sample>* samples) {
  // Like time(1): the command gets Ctrl-C, msprof stays to write what was recorded.
  struct sigaction ign {
  }, old_int{}, old_quit{};
  ign.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ign, &old_int);
  sigaction(SIGQUIT, &ign, &old_quit);
  std::cout.flush();
  pid_t pid = fork();
  if (pid < 0) return Status::error(ErrorCode::Internal, "fork failed: {}", std::strerror(errno));
  if (pid == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    setenv(trace::kEnvDir, l.prof_dir.c_str(), 1);
    if (l.argv.empty()) {
      execl("/bin/sh", "sh", "-c", l.shell.c_str(), static_cast<char*>(nullptr));
    } else {
      std::vector<char*> args;
      for (const auto& a : l.argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execvp(args[0], args.data());
    }
    std::string msg = fmt::format("msprof: error E10001: cannot run '{}': {}\n",
                                  l.argv.empty() ? "/bin/sh" : l.argv[0], std::strerror(errno));
    if (write(2, msg.data(), msg.size()) < 0) _exit(127);
    _exit(127);
  }
  // The sampler wakes once per period; this thread blocks in waitpid.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::thread sampling([&] {
    if (!l.sampling) return;
    Sampler sampler(pid);
    const auto period = std::chrono::microseconds(1'000'000 / l.sampling_hz);
    auto next = std::chrono::steady_clock::now() + period;
    std::unique_lock<std::mutex> lock(mu);
    while (!cv.wait_until(lock, next, [&] { return done; })) {
      lock.unlock();
      sampler.sample(samples);
      lock.lock();
      next += period;
    }
  });
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    done = true;
  }
  cv.notify_all();
  sampling.join();
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace asc::msprof
