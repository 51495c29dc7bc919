// core_latency.cpp: the round-trip time of one cache line between two cores, for
// scripts/bench/run.sh (not part of the CMake build). Two threads, pinned to the first two CPUs
// this process may run on (or argv[1] and argv[2]), pass a counter back and forth through one
// atomic; the median over 5 passes of 20000 round trips is printed as
// "core_rtt_ns=<ns> cpus=<a>,<b>".
//
// Why: on a shared VM the two vCPUs of the benchmark machine were seen alternating between two
// placements every few minutes: 100-113 ns a round trip (cores that share an L3) and 290-350 ns
// (cores that do not). In the slower one every figure that moves data between the threads
// (each step's output written by one thread and read by the other) gets slower, a 2-thread run
// by a quarter to a third, and the tables' ratios move with it (docs/benchmarks.md). A run
// records the probe beside each model, so a table says which placement its rows ran in.
// Build: c++ -O2 -pthread core_latency.cpp -o core_latency; run: ./core_latency [cpu_a cpu_b]
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr int kTrips = 20000;
constexpr int kPasses = 5;

// The line the threads pass, alone on its cache line (a neighbour written by either thread, a
// spilled loop counter on a stack, would add its own traffic to each trip).
struct alignas(64) Line {
  std::atomic<int> v{0};
  char pad[64 - sizeof(std::atomic<int>)];
};
Line g_line;

bool pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

// ns per round trip between the calling thread (on cpu a) and a thread on cpu b, one figure per
// pass, after a warm-up (both threads settled on their CPUs).
std::vector<double> passes(int a, int b) {
  std::atomic<int>& line = g_line.v;
  line.store(0);
  constexpr int kWarm = 2000, kAll = kWarm + kPasses * kTrips;
  std::thread other([&] {
    pin(b);
    for (int i = 0; i < kAll; ++i) {
      while (line.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      line.store(2 * i + 2, std::memory_order_release);
    }
  });
  pin(a);
  auto trip = [&](int i) {
    line.store(2 * i + 1, std::memory_order_release);
    while (line.load(std::memory_order_acquire) != 2 * i + 2) {
    }
  };
  for (int i = 0; i < kWarm; ++i) trip(i);
  std::vector<double> ns;
  for (int p = 0; p < kPasses; ++p) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kTrips; ++i) trip(kWarm + p * kTrips + i);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ns.push_back(s / kTrips * 1e9);
  }
  other.join();
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  int a = -1, b = -1;
  if (argc == 3) {
    a = std::atoi(argv[1]);
    b = std::atoi(argv[2]);
  } else {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    for (int c = 0; c < CPU_SETSIZE && b < 0; ++c)
      if (CPU_ISSET(c, &set)) (a < 0 ? a : b) = c;
  }
  if (a < 0 || b < 0 || a == b) {
    std::fprintf(stderr, "core_latency: needs two CPUs (this process may run on fewer)\n");
    return 1;
  }
  std::vector<double> ns = passes(a, b);
  std::sort(ns.begin(), ns.end());
  std::printf("core_rtt_ns=%.0f cpus=%d,%d\n", ns[kPasses / 2], a, b);
  return 0;
}
