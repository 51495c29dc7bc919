// launch.cpp: launchKernel runs a kernel's body once per block, sequentially or on a small
// thread pool, with each block's context (index, count, chip, tiling key) set for the thread
// running it, and turns the first broken rule into a Status naming kernel, block and call.
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "asc/ascendc/launch.h"
#include "asc/soc/soc.h"
#include "asc/support/log.h"
#include "ascendc/launch_internal.h"

namespace asc::ascendc {
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
  if (block_dim == 0 || block_dim > 65535)
    return Status::error(ErrorCode::InvalidParam,
                         "Value {} for parameter blockDim of kernel '{}' is invalid. Reason: "
                         "it must be 1..65535",
                         block_dim, name);
  if (!body) return Status::error(ErrorCode::InvalidParam, "kernel '{}' has no body to run", name);

  detail::BlockContext base;
  base.block_num = block_dim;
  base.soc = soc_name;
  base.ub_bytes = (*chip)->ub_bytes;
  base.tiling_key = opt.tiling_key;
  std::atomic<bool> key_tested{false}, key_taken{false};
  base.key_tested = &key_tested;
  base.key_taken = &key_taken;

  std::vector<std::string> errors(block_dim);
  if (!opt.parallel || block_dim == 1) {
    for (uint32_t b = 0; b < block_dim; ++b) {
      base.block_idx = b;
      errors[b] = runBlock(name, body, base);
      if (!errors[b].empty()) break;
    }
  } else {
    // Blocks are taken in index order; after a failure no new block starts, so every block
    // below a failed one has run and the lowest failure is the same run after run.
    std::atomic<uint32_t> next{0};
    std::atomic<bool> failed{false};
    unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    unsigned workers = std::min<unsigned>(hw, block_dim);
    auto work = [&]() {
      for (;;) {
        if (failed.load()) return;
        uint32_t b = next.fetch_add(1);
        if (b >= block_dim) return;
        detail::BlockContext ctx = base;
        ctx.block_idx = b;
        errors[b] = runBlock(name, body, ctx);
        if (!errors[b].empty()) failed = true;
      }
    };
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < workers; ++i) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
  }
  for (const auto& e : errors)
    if (!e.empty()) return Status::error(ErrorCode::KernelCheckFailed, e);
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
  Status st = launchKernel(
      kernel_name, block_dim, [&]() { body(body_arg); }, opt);
  if (!st.isOk()) ASC_LOG_ERROR("ICPU_RUN_KF: {}", st.toString());
}

}  // namespace detail
}  // namespace asc::ascendc
