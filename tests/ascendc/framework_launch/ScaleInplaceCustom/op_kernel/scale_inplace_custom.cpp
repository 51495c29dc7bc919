// scale_inplace_custom.cpp: the ScaleInplaceCustom kernel: y = alpha * y tile by tile, read
// through the input's address and written through the output's (one tensor, given twice).
#include "kernel_operator.h"
using namespace AscendC;

class KernelScaleInplace {
 public:
  __aicore__ inline KernelScaleInplace() {}
  __aicore__ inline void Init(GM_ADDR y, GM_ADDR yRef, uint32_t totalLength, uint32_t tileLength,
                              float alpha) {
    this->totalLength = totalLength;
    this->tileLength = tileLength;
    this->alpha = alpha;
    inGm.SetGlobalBuffer((__gm__ float*)y, totalLength);
    outGm.SetGlobalBuffer((__gm__ float*)yRef, totalLength);
    pipe.InitBuffer(buf, tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> t = buf.Get<float>();
    for (uint32_t at = 0; at < totalLength; at += tileLength) {
      const uint32_t count = totalLength - at < tileLength ? totalLength - at : tileLength;
      DataCopyExtParams copy{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
      DataCopyPadExtParams<float> pad{false, 0, 0, 0};
      DataCopyPad(t, inGm[at], copy, pad);
      PipeBarrier<PIPE_ALL>();
      Muls(t, t, alpha, count);
      PipeBarrier<PIPE_ALL>();
      DataCopyPad(outGm[at], t, copy);
      PipeBarrier<PIPE_ALL>();
    }
  }

 private:
  TPipe pipe;
  TBuf<QuePosition::VECCALC> buf;
  GlobalTensor<float> inGm, outGm;
  uint32_t totalLength = 0, tileLength = 0;
  float alpha = 1.0f;
};

extern "C" __global__ __aicore__ void scale_inplace_custom(GM_ADDR y, GM_ADDR y_ref,
                                                           GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelScaleInplace op;
  op.Init(y, y_ref, tilingData.totalLength, tilingData.tileLength, tilingData.alpha);
  op.Process();
}
