// main.cpp: the host program of a CANN 7 KernelLaunch project. The tiling comes from a file
// that the tiling program (custom_tiling/) wrote; in CPU mode (__CCE_KT_TEST__) global memory
// comes from GmAlloc and the launch from ICPU_RUN_KF, with no SetKernelMode: the kernel decides
// by g_coreType where it runs.
#include <cstdint>
#include <cstdio>
#include <vector>

#ifdef __CCE_KT_TEST__
#include "tikicpulib.h"
extern "C" void matmul_cann7(uint8_t* a, uint8_t* b, uint8_t* c, uint8_t* tiling);
#endif

namespace {

bool readFile(const char* path, std::vector<uint8_t>& out) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  uint8_t buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return true;
}

}  // namespace

int main() {
  constexpr size_t M = 96, N = 160, K = 64;
  std::vector<uint8_t> a, b, tiling;
  if (!readFile("input/x1_gm.bin", a) || !readFile("input/x2_gm.bin", b) ||
      !readFile("input/tiling.bin", tiling) || a.size() != M * K * 2 || b.size() != K * N * 2 ||
      tiling.size() < 4) {
    std::printf("[ERROR] cannot read the inputs (run the data and tiling programs first)\n");
    return 1;
  }
  const uint32_t blockDim = *reinterpret_cast<const uint32_t*>(tiling.data());  // usedCoreNum
#ifdef __CCE_KT_TEST__
  auto* aGm = static_cast<uint8_t*>(AscendC::GmAlloc(a.size()));
  auto* bGm = static_cast<uint8_t*>(AscendC::GmAlloc(b.size()));
  auto* cGm = static_cast<uint8_t*>(AscendC::GmAlloc(M * N * sizeof(float)));
  auto* tGm = static_cast<uint8_t*>(AscendC::GmAlloc(tiling.size()));
  std::copy(a.begin(), a.end(), aGm);
  std::copy(b.begin(), b.end(), bGm);
  std::copy(tiling.begin(), tiling.end(), tGm);
  ICPU_RUN_KF(matmul_cann7, blockDim, aGm, bGm, cGm, tGm);
  FILE* f = std::fopen("output/output.bin", "wb");
  if (!f || std::fwrite(cGm, sizeof(float), M * N, f) != M * N) return 1;
  std::fclose(f);
  AscendC::GmFree(aGm);
  AscendC::GmFree(bGm);
  AscendC::GmFree(cGm);
  AscendC::GmFree(tGm);
#else
  (void)blockDim;
  return 1;  // the NPU side is not part of this test project
#endif
  return 0;
}
