// row_softmax_custom.cpp: y = softmax(x) over the last axis of a 2-D x, in float16 or float.
// The tiling splits the rows over up to 8 blocks and has SoftMaxTilingFunc tile one row.
#include "row_softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
  if (shape.GetDimNum() != 2) {
    return ge::GRAPH_FAILED;
  }
  const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
  const uint32_t cols = static_cast<uint32_t>(shape.GetDim(1));
  const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
  if (rows == 0 || cols * typeSize % 32 != 0) {
    return ge::GRAPH_FAILED;  // rows of whole 32-byte blocks only
  }
  const uint32_t blocks = rows < 8 ? rows : 8;
  RowSoftmaxCustomTilingData tiling;
  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_rowsPerBlock((rows + blocks - 1) / blocks);
  const ge::Shape row({1, static_cast<int64_t>(cols)});
  const uint32_t tmp = AscendC::GetSoftMaxMinTmpSize(row, typeSize, false);
  AscendC::SoftMaxTilingFunc(row, typeSize, tmp, tiling.softmaxTiling);
  context->SetBlockDim(blocks);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, context->GetInputDataType(0));
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class RowSoftmaxCustom : public OpDef {
 public:
  explicit RowSoftmaxCustom(const char* name) : OpDef(name) {
    this->Input("x")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(RowSoftmaxCustom);
}  // namespace ops
