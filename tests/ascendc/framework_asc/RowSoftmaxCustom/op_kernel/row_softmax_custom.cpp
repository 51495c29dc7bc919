// row_softmax_custom.cpp: each block takes its rowsPerBlock rows, one at a time through the
// unified buffer: copy in, SoftMax (the high-level API, with the row's sum and max), copy out.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class RowSoftmax {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols,
                              uint32_t rowsPerBlock, const SoftMaxTiling& tiling) {
    cols_ = cols;
    first_ = GetBlockIdx() * rowsPerBlock;
    count_ = first_ >= rows ? 0 : (rows - first_ < rowsPerBlock ? rows - first_ : rowsPerBlock);
    tiling_ = tiling;
    xGm_.SetGlobalBuffer((__gm__ T*)x, static_cast<uint64_t>(rows) * cols);
    yGm_.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(rows) * cols);
    pipe_.InitBuffer(inQueue_, 2, cols * sizeof(T));
    pipe_.InitBuffer(outQueue_, 2, cols * sizeof(T));
    pipe_.InitBuffer(sumBuf_, 32);
    pipe_.InitBuffer(maxBuf_, 32);
  }
  __aicore__ inline void Process() {
    for (uint32_t r = 0; r < count_; ++r) {
      LocalTensor<T> x = inQueue_.AllocTensor<T>();
      DataCopy(x, xGm_[(first_ + r) * cols_], cols_);
      inQueue_.EnQue(x);
      x = inQueue_.DeQue<T>();
      LocalTensor<T> y = outQueue_.AllocTensor<T>();
      LocalTensor<T> sum = sumBuf_.Get<T>();
      LocalTensor<T> max = maxBuf_.Get<T>();
      SoftMaxShapeInfo shape = {1, cols_, 1, cols_};
      SoftMax<T>(y, sum, max, x, tiling_, shape);
      outQueue_.EnQue(y);
      inQueue_.FreeTensor(x);
      y = outQueue_.DeQue<T>();
      DataCopy(yGm_[(first_ + r) * cols_], y, cols_);
      outQueue_.FreeTensor(y);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inQueue_;
  TQue<QuePosition::VECOUT, 2> outQueue_;
  TBuf<QuePosition::VECCALC> sumBuf_, maxBuf_;
  GlobalTensor<T> xGm_, yGm_;
  SoftMaxTiling tiling_;
  uint32_t cols_ = 0, first_ = 0, count_ = 0;
};

extern "C" __global__ __aicore__ void row_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  RowSoftmax<DTYPE_X> op;
  op.Init(x, y, t.rows, t.cols, t.rowsPerBlock, t.softmaxTiling);
  op.Process();
}
