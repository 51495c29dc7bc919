// leaky_relu_custom.cpp: y = x >= 0 ? x : alpha * x on float, written for asc-tools' tests in the
// style of the Ascend C KernelLaunch samples. Two implementations chosen by the tiling key:
// key 1 streams whole tiles through double-buffered queues and the LeakyRelu instruction; key 2
// (a length that does not split into whole tiles) works element by element on global memory.
#include "kernel_operator.h"
#include "leaky_relu_custom_tiling.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLeakyRelu {
 public:
  __aicore__ inline KernelLeakyRelu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LeakyReluCustomTilingData& t) {
    blockLength = t.totalLength / GetBlockNum();
    tileLength = t.tileLength;
    alpha = t.alpha;
    xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * GetBlockIdx(), blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + blockLength * GetBlockIdx(), blockLength);
    pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < blockLength / tileLength; i++) {
      LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
      DataCopy(xLocal, xGm[i * tileLength], tileLength);
      inQueue.EnQue(xLocal);
      LocalTensor<float> in = inQueue.DeQue<float>();
      LocalTensor<float> out = outQueue.AllocTensor<float>();
      LeakyRelu(out, in, alpha, tileLength);
      outQueue.EnQue<float>(out);
      inQueue.FreeTensor(in);
      LocalTensor<float> yLocal = outQueue.DeQue<float>();
      DataCopy(yGm[i * tileLength], yLocal, tileLength);
      outQueue.FreeTensor(yLocal);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  GlobalTensor<float> xGm, yGm;
  uint32_t blockLength = 0, tileLength = 0;
  float alpha = 0.f;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  LeakyReluCustomTilingData t = *reinterpret_cast<__gm__ LeakyReluCustomTilingData*>(tiling);
  if (TILING_KEY_IS(1)) {
    KernelLeakyRelu op;
    op.Init(x, y, t);
    op.Process();
  } else if (TILING_KEY_IS(2)) {
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
    for (uint32_t i = GetBlockIdx(); i < t.totalLength; i += GetBlockNum()) {
      float v = xGm.GetValue(i);
      yGm.SetValue(i, v >= 0.f ? v : v * t.alpha);
    }
  }
}
