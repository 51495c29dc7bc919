// topk_custom.cpp: per block, the k largest of lengthPerBlock floats and their positions in the
// whole input, in descending order: scores and indices into sort records (Concat), a full Sort
// of the runs of 32, Extract back into values and indices, the first k copied out.
#include "kernel_operator.h"
#include "topk_custom_tiling.h"

using namespace AscendC;

namespace {

class KernelTopk {
 public:
  __aicore__ inline KernelTopk() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices,
                              const TopkCustomTilingData& tiling) {
    length_ = tiling.lengthPerBlock;
    k_ = tiling.k;
    const uint32_t block = GetBlockIdx();
    base_ = block * length_;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + base_, length_);
    valuesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(values) + block * k_, k_);
    indicesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(indices) + block * k_, k_);
    pipe_.InitBuffer(inQueue_, 1, length_ * sizeof(float));
    pipe_.InitBuffer(outValues_, 1, length_ * sizeof(float));
    pipe_.InitBuffer(outIndices_, 1, length_ * sizeof(uint32_t));
    pipe_.InitBuffer(indexBuf_, length_ * sizeof(uint32_t));
    pipe_.InitBuffer(sortedBuf_, GetSortLen<float>(length_) * sizeof(float));
    pipe_.InitBuffer(tmpBuf_, GetSortLen<float>(length_) * sizeof(float));
  }
  __aicore__ inline void Process() {
    CopyIn();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn() {
    LocalTensor<float> x = inQueue_.AllocTensor<float>();
    DataCopy(x, xGm_, length_);
    inQueue_.EnQue(x);
  }
  __aicore__ inline void Compute() {
    LocalTensor<float> x = inQueue_.DeQue<float>();
    LocalTensor<uint32_t> index = indexBuf_.Get<uint32_t>();
    for (uint32_t i = 0; i < length_; ++i) index.SetValue(i, base_ + i);
    LocalTensor<float> sorted = sortedBuf_.Get<float>();
    LocalTensor<float> tmp = tmpBuf_.Get<float>();
    LocalTensor<float> concat;
    Concat(concat, x, tmp, length_ / 16);
    Sort<float, true>(sorted, concat, index, tmp, length_ / 32);
    LocalTensor<float> values = outValues_.AllocTensor<float>();
    LocalTensor<uint32_t> indices = outIndices_.AllocTensor<uint32_t>();
    Extract(values, indices, sorted, length_ / 32);
    outValues_.EnQue(values);
    outIndices_.EnQue(indices);
    inQueue_.FreeTensor(x);
  }
  __aicore__ inline void CopyOut() {
    LocalTensor<float> values = outValues_.DeQue<float>();
    LocalTensor<uint32_t> indices = outIndices_.DeQue<uint32_t>();
    DataCopy(valuesGm_, values, k_);
    DataCopy(indicesGm_, indices, k_);
    outValues_.FreeTensor(values);
    outIndices_.FreeTensor(indices);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inQueue_;
  TQue<QuePosition::VECOUT, 1> outValues_, outIndices_;
  TBuf<QuePosition::VECCALC> indexBuf_, sortedBuf_, tmpBuf_;
  GlobalTensor<float> xGm_, valuesGm_;
  GlobalTensor<uint32_t> indicesGm_;
  uint32_t length_ = 0, k_ = 0, base_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void topk_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices,
                                                  GM_ADDR workspace, GM_ADDR tiling) {
  TopkCustomTilingData tilingData;
  auto src = reinterpret_cast<__gm__ uint32_t*>(tiling);
  tilingData.lengthPerBlock = src[0];
  tilingData.k = src[1];
  KernelTopk op;
  op.Init(x, values, indices, tilingData);
  op.Process();
  (void)workspace;
}
