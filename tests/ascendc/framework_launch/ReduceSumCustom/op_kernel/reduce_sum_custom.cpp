// reduce_sum_custom.cpp: the ReduceSumCustom kernel (op_host/reduce_sum_custom.cpp says how the
// work is split). Each block sums its share of x tile by tile (ReduceSum), writes the partial sum
// to its 32-byte slot of the workspace, and waits for the others (SyncAll); block 0 then adds
// the slots in block order and writes scale * sum to y.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;  // floats per block slot (32 bytes)

class KernelReduceSum {
 public:
  __aicore__ inline KernelReduceSum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, uint32_t totalLength,
                              uint32_t blockLength, uint32_t tileLength, float scale) {
    const uint32_t start = blockLength * GetBlockIdx();
    this->length = totalLength - start < blockLength ? totalLength - start : blockLength;
    this->tileLength = tileLength;
    this->scale = scale;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, this->length);
    yGm.SetGlobalBuffer((__gm__ float*)y, 1);
    slotGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), GetBlockNum() * SLOT);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(workBuf, tileLength * sizeof(float));
    pipe.InitBuffer(sumBuf, SLOT * sizeof(float));
    pipe.InitBuffer(allBuf, GetBlockNum() * SLOT * sizeof(float));
  }
  // Tiling key 1: the block's share is one tile.
  __aicore__ inline void ProcessOneTile() {
    CopyIn(0, length);
    Finish(SumTile(length));
  }
  // Tiling key 2: several tiles, the last one possibly short.
  __aicore__ inline void ProcessTiles() {
    float acc = 0;
    const uint32_t tiles = (length + tileLength - 1) / tileLength;
    for (uint32_t t = 0; t < tiles; t++) {
      const uint32_t count = t + 1 < tiles ? tileLength : length - t * tileLength;
      CopyIn(t * tileLength, count);
      acc += SumTile(count);
    }
    Finish(acc);
  }

 private:
  __aicore__ inline void CopyIn(uint32_t offset, uint32_t count) {
    LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    DataCopyExtParams copy{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
    DataCopyPadExtParams<float> pad{false, 0, 0, 0};
    DataCopyPad(xLocal, xGm[offset], copy, pad);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline float SumTile(uint32_t count) {
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> sum = sumBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    ReduceSum(sum, xLocal, work, count);
    inQueueX.FreeTensor(xLocal);
    PipeBarrier<PIPE_ALL>();
    return sum.GetValue(0);
  }
  __aicore__ inline void Finish(float partial) {
    LocalTensor<float> slot = sumBuf.Get<float>();
    Duplicate(slot, 0.0f, SLOT);
    PipeBarrier<PIPE_ALL>();
    slot.SetValue(0, partial);
    PipeBarrier<PIPE_ALL>();
    DataCopy(slotGm[GetBlockIdx() * SLOT], slot, SLOT);
    SyncAll();
    if (GetBlockIdx() != 0) {
      return;
    }
    LocalTensor<float> all = allBuf.Get<float>();
    DataCopy(all, slotGm, GetBlockNum() * SLOT);
    PipeBarrier<PIPE_ALL>();
    float total = 0;
    for (uint32_t b = 0; b < GetBlockNum(); b++) {
      total += all.GetValue(b * SLOT);
    }
    slot.SetValue(0, total * scale);
    PipeBarrier<PIPE_ALL>();
    DataCopyExtParams copy{1, sizeof(float), 0, 0, 0};
    DataCopyPad(yGm, slot, copy);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TBuf<QuePosition::VECCALC> workBuf, sumBuf, allBuf;
  GlobalTensor<float> xGm, yGm, slotGm;
  uint32_t length = 0;
  uint32_t tileLength = 0;
  float scale = 1.0f;
};

extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelReduceSum op;
  op.Init(x, y, workspace, tilingData.totalLength, tilingData.blockLength, tilingData.tileLength,
          tilingData.scale);
  if (TILING_KEY_IS(1)) {
    op.ProcessOneTile();
  } else if (TILING_KEY_IS(2)) {
    op.ProcessTiles();
  }
}
