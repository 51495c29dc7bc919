/**
 * misaligned_main.cpp: a kernel that breaks an NPU rule in one block only (DataCopy of 15 halves,
 * 30 bytes, in block 3), launched with ICPU_RUN_KF: the launch must fail with the kernel, the
 * block and the call named, on stderr and in lastLaunchStatus(). Exit status 0 when it does.
 */
#include <unistd.h>

#include <cstdio>
#include <string>

#include "tikicpulib.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void copy_odd(GM_ADDR x, GM_ADDR y) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, 64 * sizeof(half));
  GlobalTensor<half> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ half*)x + 64 * GetBlockIdx(), 64);
  yGm.SetGlobalBuffer((__gm__ half*)y + 64 * GetBlockIdx(), 64);
  uint32_t count = GetBlockIdx() == 3 ? 15 : 16;
  LocalTensor<half> t = que.AllocTensor<half>();
  DataCopy(t, xGm, count);
  que.EnQue(t);
  LocalTensor<half> u = que.DeQue<half>();
  DataCopy(yGm, u, count);
  que.FreeTensor(u);
}

int32_t main() {
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(8 * 64 * sizeof(half));
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(8 * 64 * sizeof(half));
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  // Capture what ICPU_RUN_KF prints to stderr.
  std::FILE* log = std::tmpfile();
  std::fflush(stderr);
  int saved = dup(2);
  dup2(fileno(log), 2);
  ICPU_RUN_KF(copy_odd, 8, x, y);
  std::fflush(stderr);
  dup2(saved, 2);
  std::string printed;
  std::rewind(log);
  for (int c; (c = std::fgetc(log)) != EOF;) printed += char(c);
  std::fclose(log);
  AscendC::GmFree(x);
  AscendC::GmFree(y);

  const asc::Status& st = asc::ascendc::lastLaunchStatus();
  std::printf("status: %s\nstderr: %s", st.toString().c_str(), printed.c_str());
  const std::string want = "EZ9999: kernel 'copy_odd' block 3: DataCopy: length 30 bytes";
  bool ok = st.toString().rfind(want, 0) == 0 &&
            printed.find("error: ICPU_RUN_KF: " + want) != std::string::npos;
  return ok ? 0 : 1;
}
