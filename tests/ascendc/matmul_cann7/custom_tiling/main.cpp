// custom_tiling/main.cpp: the tiling program of a CANN 7 Matmul project: fills the TCubeTiling
// for the shape with matmul_tiling::MultiCoreMatmulTiling over two cores and writes it to
// input/tiling.bin (the kernel reads it word by word).
#include <cstdio>
#include <vector>

#include "tiling_api.h"

using namespace matmul_tiling;

int main() {
  constexpr int M = 96, N = 160, K = 64;
  optiling::TCubeTiling tilingData;
  MultiCoreMatmulTiling api;
  api.SetDim(2);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(M, N, K);
  api.SetShape(M, N, K);
  api.SetBias(false);
  api.SetBufferSpace(-1, -1, -1);
  if (api.GetTiling(tilingData) == -1) {
    std::printf("[ERROR] gen tiling failed\n");
    return 1;
  }
  std::vector<char> buf(tilingData.GetDataSize());
  tilingData.SaveToBuffer(buf.data(), buf.size());
  FILE* f = std::fopen("input/tiling.bin", "wb");
  if (!f || std::fwrite(buf.data(), 1, buf.size(), f) != buf.size()) return 1;
  std::fclose(f);
  std::printf("tiling: %d core(s), singleCoreM %d, singleCoreN %d\n", tilingData.usedCoreNum,
              tilingData.singleCoreM, tilingData.singleCoreN);
  return 0;
}
