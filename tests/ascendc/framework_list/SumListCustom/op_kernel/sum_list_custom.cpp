// sum_list_custom.cpp: the SumListCustom kernel. x is a tensor list (ListTensorDesc): each block
// adds its share of every tensor, tile by tile, in the unified buffer.
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"

using namespace AscendC;

class KernelSumList {
 public:
  __aicore__ inline KernelSumList() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t count, uint32_t total,
                              uint32_t blockLength, uint32_t tileLength) {
    ListTensorDesc list(reinterpret_cast<__gm__ void*>(x));
    count_ = count;
    const uint32_t start = GetBlockIdx() * blockLength;
    length_ = start >= total ? 0 : (total - start < blockLength ? total - start : blockLength);
    tile_ = tileLength;
    for (uint32_t i = 0; i < count_; ++i)
      xGm_[i].SetGlobalBuffer(list.GetDataPtr<float>(i) + start, length_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + start, length_);
    pipe_.InitBuffer(inQueue_, 2, tile_ * sizeof(float));
    pipe_.InitBuffer(acc_, tile_ * sizeof(float));
    pipe_.InitBuffer(outQueue_, 1, tile_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t at = 0; at < length_; at += tile_) {
      const uint32_t n = length_ - at < tile_ ? length_ - at : tile_;
      const uint32_t padded = (n + 7) / 8 * 8;
      LocalTensor<float> sum = acc_.Get<float>();
      Duplicate(sum, 0.0f, padded);
      for (uint32_t i = 0; i < count_; ++i) {
        LocalTensor<float> in = inQueue_.AllocTensor<float>();
        DataCopyPad(in, xGm_[i][at], {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                    {false, 0, 0, 0});
        inQueue_.EnQue(in);
        in = inQueue_.DeQue<float>();
        Add(sum, sum, in, padded);
        inQueue_.FreeTensor(in);
      }
      LocalTensor<float> out = outQueue_.AllocTensor<float>();
      DataCopy(out, sum, padded);
      outQueue_.EnQue(out);
      out = outQueue_.DeQue<float>();
      DataCopyPad(yGm_[at], out, {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
      outQueue_.FreeTensor(out);
    }
  }

 private:
  static constexpr uint32_t kMaxList = 8;  // the host's tiling refuses longer lists
  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inQueue_;
  TQue<QuePosition::VECOUT, 1> outQueue_;
  TBuf<QuePosition::VECCALC> acc_;
  GlobalTensor<float> xGm_[kMaxList];
  GlobalTensor<float> yGm_;
  uint32_t count_ = 0, length_ = 0, tile_ = 0;
};

extern "C" __global__ __aicore__ void sum_list_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelSumList op;
  op.Init(x, y, tilingData.count, tilingData.totalLength, tilingData.blockLength,
          tilingData.tileLength);
  op.Process();
}
