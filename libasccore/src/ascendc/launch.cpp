// launch.cpp: launchKernel runs a kernel's body once per block, sequentially or on a small
// thread pool, with each block's context (index, count, chip, tiling key) set for the thread
// running it, and turns the first broken rule into a Status naming kernel, block and call.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <exception>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "asc/ascendc/launch.h"
#include "asc/soc/soc.h"
#include "asc/support/log.h"
#include "asc/trace/trace.h"
#include "tiling/platform/platform_ascendc.h"
#include "ascendc/launch_internal.h"

namespace asc::ascendc {
namespace detail {

struct Launch {
  std::mutex mu;
  std::condition_variable cv;
  uint32_t block_dim = 1;
  // The blocks not started yet: pool thread t's own run [first, second), taken from the front
  // (the same blocks on the same thread launch after launch, so a block's slice of global memory
  // stays in that thread's caches, as a static OpenMP loop's would); a thread out of blocks
  // takes the last of the longest other run. No block at or above `limit` (the lowest failed
  // block) starts, so every block below a failure runs and the reported failure, the lowest,
  // is the same run after run.
  std::vector<std::pair<uint32_t, uint32_t>> runs;
  uint32_t limit = 0;
  uint32_t running = 0;   // started, not finished
  uint32_t finished = 0;  // returned (or failed)
  uint32_t waiting = 0;   // at SyncAll now
  uint32_t polling = 0;   // blocks in pollUntil now
  uint32_t helpers = 0;   // cube cores startCubeCore runs, not finished
  uint32_t helpers_polling = 0;
  std::atomic<uint64_t> progress{0};  // noteProgress's count
  std::vector<std::string> helper_errors;
  std::set<const void*> claimed;  // claimInLaunch's keys
  std::set<std::string> warned;   // the calls that warned (warnOnce)
  uint32_t starting = 0;          // threads spawned that have not taken a block yet
  uint64_t generation = 0;
  bool failed = false;
  std::function<void()> spawn;     // one more pool thread (called with mu held)
  std::vector<std::thread> extra;  // the threads spawn made
};

/// Whether any block below the limit has not started.
bool blocksLeft(const Launch& l) {
  for (const auto& r : l.runs)
    if (r.first < std::min(r.second, l.limit)) return true;
  return false;
}

/// The next block for pool thread `slot` (-1: a thread SyncAll added, which has no run of its
/// own); false when none is left. Called with l.mu held.
bool takeBlock(Launch& l, int slot, uint32_t* block) {
  if (slot >= 0 && size_t(slot) < l.runs.size()) {
    auto& own = l.runs[size_t(slot)];
    if (own.first < std::min(own.second, l.limit)) {
      *block = own.first++;
      return true;
    }
  }
  std::pair<uint32_t, uint32_t>* longest = nullptr;
  uint32_t most = 0;
  for (auto& r : l.runs) {
    const uint32_t end = std::min(r.second, l.limit);
    if (r.first < end && end - r.first > most) {
      most = end - r.first;
      longest = &r;
    }
  }
  if (!longest) return false;
  longest->second = std::min(longest->second, l.limit) - 1;
  *block = longest->second;
  return true;
}

/// While every block thread waits (at SyncAll or in pollUntil) and blocks remain to start,
/// starts one more thread for them. Called with l.mu held.
void startAnotherIfAllWait(Launch& l) {
  if (l.waiting + l.polling == l.running && l.starting == 0 && blocksLeft(l)) {
    ++l.starting;
    l.spawn();
  }
}

void syncAll(BlockContext& ctx) {
  Launch& l = *ctx.launch;
  std::unique_lock<std::mutex> lock(l.mu);
  const uint64_t gen = l.generation;
  if (++l.waiting == l.block_dim) {  // the last block to arrive releases the others
    l.waiting = 0;
    ++l.generation;
    l.cv.notify_all();
    return;
  }
  for (;;) {
    if (l.generation != gen) return;
    if (l.failed) {  // another block's error is the launch's
      --l.waiting;
      throw SyncAbandoned{};
    }
    if (l.finished > 0) {
      // A block that returned never reaches this SyncAll: the others would wait forever.
      --l.waiting;
      l.failed = true;
      l.cv.notify_all();
      fail("SyncAll", std::to_string(l.finished) +
                          " block(s) returned without reaching this SyncAll; every block must "
                          "call SyncAll the same number of times");
    }
    startAnotherIfAllWait(l);
    l.cv.wait(lock);
  }
}

void noteProgressIn(BlockContext& ctx) { ctx.launch->progress.fetch_add(1); }

void pollIn(BlockContext& ctx, const char* call, const char* what, bool (*ready)(void*),
            void* arg) {
  Launch& l = *ctx.launch;
  std::unique_lock<std::mutex> lock(l.mu);
  ++(ctx.helper ? l.helpers_polling : l.polling);
  struct Leave {  // counted out however the wait ends
    Launch& l;
    bool helper;
    ~Leave() { --(helper ? l.helpers_polling : l.polling); }
  } leave{l, ctx.helper};
  uint64_t seen = l.progress.load();
  auto since = std::chrono::steady_clock::now();
  for (int round = 0;; ++round) {
    if (l.failed) throw SyncAbandoned{};  // another block's or cube core's error is the launch's
    startAnotherIfAllWait(l);
    const bool all_waiting = !blocksLeft(l) && l.starting == 0 &&
                             l.waiting + l.polling == l.running && l.helpers_polling == l.helpers;
    // The blocks may have written and returned since the last look: look again before failing.
    if (all_waiting && l.running == 0 && ctx.helper && !ready(arg))
      fail(call, std::string(what) + ", but every block of the launch has returned: none can " +
                     "post it (each vector block that uses the group must end with SetQuit)");
    const uint64_t now_progress = l.progress.load();
    if (now_progress != seen || !all_waiting) {
      seen = now_progress;
      since = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - since > std::chrono::seconds(5) && !ready(arg)) {
      fail(call, std::string(what) +
                     ", and every block and cube core of the launch has waited 5 s with no "
                     "message posted or freed: none can go on (a message no block posts, or a "
                     "Wait on a message no cube core frees)");
    }
    lock.unlock();
    // Poll: spin briefly, then sleep, so waiting threads leave the cores to the ones working.
    for (int i = 0; i < (round < 64 ? 64 : 1); ++i) {
      if (ready(arg)) {
        lock.lock();
        return;
      }
      if (round >= 64)
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      else
        std::this_thread::yield();
    }
    lock.lock();
  }
}

bool firstWarningIn(BlockContext& ctx, const char* call) {
  std::lock_guard<std::mutex> lock(ctx.launch->mu);
  return ctx.launch->warned.insert(call).second;
}

bool claimIn(BlockContext& ctx, const void* key) {
  std::lock_guard<std::mutex> lock(ctx.launch->mu);
  return ctx.launch->claimed.insert(key).second;
}

void startHelper(BlockContext& ctx, int64_t aic_idx, void (*body)(void*), void* arg,
                 void (*destroy)(void*)) {
  Launch& l = *ctx.launch;
  BlockContext core = ctx;
  core.block_idx = aic_idx;
  core.cube = true;
  core.helper = true;
  core.sub_block_num = 1;
  core.block_num = ctx.block_num / std::max<int64_t>(1, ctx.sub_block_num);
  core.atomic_mode = 0;
  core.mask_counter = 0;
  core.mask_hi = core.mask_lo = ~uint64_t(0);
  std::lock_guard<std::mutex> lock(l.mu);
  ++l.helpers;
  l.extra.emplace_back([&l, core, aic_idx, body, arg, destroy]() mutable {
    std::string error;
    {
      ScopedBlockContext scope(&core);
      try {
        body(arg);
      } catch (const SyncAbandoned&) {
      } catch (const KernelError& e) {
        error = fmt::format("AIC {}: {}", aic_idx, e.what());
      } catch (const std::exception& e) {
        error = fmt::format("AIC {}: the kernel threw: {}", aic_idx, e.what());
      }
    }
    destroy(arg);
    std::lock_guard<std::mutex> lock2(l.mu);
    --l.helpers;
    if (!error.empty()) {
      l.helper_errors.push_back(std::move(error));
      l.failed = true;
      l.limit = 0;
    }
    l.cv.notify_all();
  });
}

}  // namespace detail

namespace {

thread_local Status t_last_status;

std::mutex g_icpu_mu;
LaunchOptions g_icpu_options;  // guarded by g_icpu_mu; tiling_key unused (ICPU_SET_TILING_KEY)

/// Runs one block; the error message, or an empty string.
std::string runBlock(const char* name, const std::function<void()>& body,
                     detail::BlockContext ctx) {
  detail::ScopedBlockContext scope(&ctx);
  try {
    body();
    return {};
  } catch (const detail::SyncAbandoned&) {
    return {};  // released from SyncAll by another block's failure, which is the launch's error
  } catch (const KernelError& e) {
    return fmt::format("kernel '{}' block {}: {}", name, ctx.block_idx, e.what());
  } catch (const std::exception& e) {
    return fmt::format("kernel '{}' block {}: the kernel threw: {}", name, ctx.block_idx, e.what());
  } catch (...) {
    return fmt::format("kernel '{}' block {}: the kernel threw an unknown exception", name,
                       ctx.block_idx);
  }
}

Status launch(const char* kernel_name, uint32_t block_dim, const std::function<void()>& body,
              const LaunchOptions& opt) {
  const char* name = kernel_name && *kernel_name ? kernel_name : "(unnamed)";
  std::string soc_name = opt.soc.empty() ? kDefaultSoc : opt.soc;
  auto chip = soc::findSoc(soc_name);
  if (!chip.isOk()) return chip.status().withContext(fmt::format("kernel '{}'", name));
  if (block_dim == 0 || block_dim > 65535 || opt.sub_blocks > 2)
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter blockDim of kernel '{}' is invalid. Reason: "
                         "it must be 1..65535 (with at most 2 vector sub-blocks each)",
                         block_dim, name);
  if (!body) return Status::error(ErrorCode::InvalidParam, "kernel '{}' has no body to run", name);

  const uint32_t sub_blocks = std::max<uint32_t>(1, opt.sub_blocks);
  const uint32_t launch_dim = block_dim;
  block_dim *= sub_blocks;  // the vector sub-blocks run as blocks of their own
  // msprof (op): the launch and each block's span, when tracing is on.
  const bool traced = trace::enabled();
  const int64_t launch_start = traced ? trace::nowNs() : 0;
  std::vector<std::pair<int64_t, int64_t>> spans(traced ? block_dim : 0);
  detail::BlockContext base;
  base.block_num = block_dim;
  base.sub_block_num = sub_blocks;
  base.cube = opt.cube;
  base.soc = soc_name;
  base.ub_bytes = (*chip)->ub_bytes;
  base.tiling_key = opt.tiling_key;
  std::atomic<bool> key_tested{false}, key_taken{false};
  base.key_tested = &key_tested;
  base.key_taken = &key_taken;

  std::vector<std::string> errors(block_dim);
  detail::Launch shared;
  shared.block_dim = block_dim;
  base.launch = &shared;
  base.kernel_name = name;
  // Each pool thread runs its own blocks first (Launch::runs); after a failure no block above the
  // lowest failed one starts. The pool grows by one thread whenever every running block waits
  // at SyncAll and blocks remain to start, so a barrier across all blocks completes with any
  // initial pool (one thread: sequential).
  std::function<void(int, bool)> work = [&](int slot, bool spawned) {
    for (;;) {
      uint32_t b;
      {
        std::lock_guard<std::mutex> lock(shared.mu);
        if (spawned) {
          --shared.starting;
          spawned = false;
        }
        if (!detail::takeBlock(shared, slot, &b)) {
          shared.cv.notify_all();
          return;
        }
        ++shared.running;
      }
      detail::BlockContext ctx = base;
      ctx.block_idx = b;
      const int64_t block_start = traced ? trace::nowNs() : 0;
      std::string error = runBlock(name, body, ctx);
      if (traced) spans[b] = {block_start, trace::nowNs()};
      std::lock_guard<std::mutex> lock(shared.mu);
      errors[b] = std::move(error);
      --shared.running;
      ++shared.finished;
      if (!errors[b].empty()) {
        shared.failed = true;
        shared.limit = std::min(shared.limit, b);
      }
      shared.cv.notify_all();
    }
  };
  shared.spawn = [&]() { shared.extra.emplace_back(work, -1, true); };  // called with mu held
  // The calling thread's OpenMP count (msame's --threads, a step's count, OMP_NUM_THREADS),
  // whose team outlives the launch: starting and joining a thread per launch took about as long
  // as a small kernel's whole run (a LeakyRelu over 4 MB).
  const int team = std::max(1, omp_get_max_threads());
  const int workers = static_cast<int>(opt.parallel ? std::min<uint32_t>(team, block_dim) : 1);
  shared.limit = block_dim;
  for (int t = 0; t < workers; ++t)
    shared.runs.emplace_back(uint32_t(uint64_t(block_dim) * t / workers),
                             uint32_t(uint64_t(block_dim) * (t + 1) / workers));
#pragma omp parallel num_threads(workers) if (workers > 1)
  work(omp_get_thread_num(), false);
  for (;;) {  // threads SyncAll added (each joins after its last block)
    std::vector<std::thread> extra;
    {
      std::lock_guard<std::mutex> lock(shared.mu);
      extra.swap(shared.extra);
    }
    if (extra.empty()) break;
    for (auto& t : extra) t.join();
  }
  if (traced) {
    // Blocks that never started (after a failure) have no span.
    while (!spans.empty() && spans.back().second == 0) spans.pop_back();
    trace::addKernel(name, launch_dim, launch_start, trace::nowNs(), spans);
  }
  for (const auto& e : errors)
    if (!e.empty()) return Status::error(ErrorCode::KernelCheckFailed, e);
  if (!shared.helper_errors.empty())
    return Status::error(ErrorCode::KernelCheckFailed,
                         fmt::format("kernel '{}' {}", name, shared.helper_errors.front()));
  // An NPU builds one kernel binary per key a TILING_KEY_IS names; a key none names has no
  // binary and the launch fails. Here the kernel ran, tested the key and took no branch: its
  // outputs hold nothing it meant to write.
  if (key_tested && !key_taken)
    return Status::error(
        ErrorCode::KernelCheckFailed,
        "kernel '{}': tiling key {} matches no TILING_KEY_IS branch of the kernel, "
        "so no branch ran; set a key the kernel handles (TilingContext::SetTilingKey "
        "in the host tiling, or ICPU_SET_TILING_KEY)",
        name, opt.tiling_key);
  return Status::ok();
}

}  // namespace

Status launchKernel(const char* kernel_name, uint32_t block_dim,
                    const std::function<void()>& block_body, const LaunchOptions& opt) {
  Status st = launch(kernel_name, block_dim, block_body, opt);
  t_last_status = st;
  return st;
}

const Status& lastLaunchStatus() { return t_last_status; }

uint32_t subBlocksFor(const std::string& soc, bool mixed) {
  const auto& chip =
      platform_ascendc::detail::chipOrDefault(soc.empty() ? kDefaultSoc : soc.c_str());
  return mixed && chip.split && chip.ai_core > 0 && chip.vector_core == 2 * chip.ai_core ? 2 : 1;
}

LaunchOptions icpuLaunchOptions() {
  std::lock_guard<std::mutex> lock(g_icpu_mu);
  LaunchOptions o = g_icpu_options;
  o.tiling_key = detail::icpuTilingKey();
  return o;
}

void setIcpuLaunchOptions(const LaunchOptions& opt) {
  std::lock_guard<std::mutex> lock(g_icpu_mu);
  g_icpu_options = opt;
  detail::setIcpuTilingKey(opt.tiling_key);
}

namespace detail {

void icpuRun(const char* kernel_name, uint32_t block_dim, void (*body)(void*), void* body_arg) {
  icpuRunOn(nullptr, kernel_name, block_dim, body, body_arg);
}

void icpuRunOn(const char* soc, const char* kernel_name, uint32_t block_dim, void (*body)(void*),
               void* body_arg) {
  LaunchOptions opt = icpuLaunchOptions();
  if (soc && *soc && opt.soc.empty()) opt.soc = soc;
  // A mixed kernel on a chip whose AI Cores pair one cube core with two vector cores runs on
  // both vector cores of each block. Without SetKernelMode, CANN compiles a kernel that uses
  // the cube as mixed; the program's use of the Matmul API stands for that here. CANN 7's
  // cube-side Matmul runs on the cube core, its kernels returning on the vector cores.
  const int mode = kernelMode() >= 0    ? kernelMode()
                   : cubeOnlyApiNoted() ? 0
                   : cubeApiNoted()     ? 2
                                        : 1;
  opt.sub_blocks = subBlocksFor(opt.soc, mode == 2);
  opt.cube = mode == 0;
  Status st = launchKernel(
      kernel_name, block_dim, [&]() { body(body_arg); }, opt);
  if (!st.isOk()) ASC_LOG_ERROR("ICPU_RUN_KF: {}", st.toString());
}

}  // namespace detail
}  // namespace asc::ascendc
