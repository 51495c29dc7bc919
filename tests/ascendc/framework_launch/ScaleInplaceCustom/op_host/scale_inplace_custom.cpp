// scale_inplace_custom.cpp: y *= alpha, in place: the input and the output are both named "y",
// so the operator's aclnn API takes one writable tensor, yRef, and the kernel receives its
// address twice (the input y and the output y_ref). One block, tile by tile.
#include <algorithm>

#include "register/op_def_registry.h"
#include "scale_inplace_custom_tiling.h"

namespace optiling {
constexpr uint32_t kMaxTile = 1024;  // floats per tile

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  ScaleInplaceCustomTilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
  const float* alpha = context->GetAttrs()->GetFloat(0);
  if (total == 0 || alpha == nullptr) {
    return ge::GRAPH_FAILED;
  }
  tiling.set_totalLength(total);
  tiling.set_tileLength(std::min(total, kMaxTile));
  tiling.set_alpha(*alpha);
  context->SetBlockDim(1);
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
class ScaleInplaceCustom : public OpDef {
 public:
  explicit ScaleInplaceCustom(const char* name) : OpDef(name) {
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("alpha").Float();
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
    this->AICore().AddConfig("ascend310p");
  }
};
OP_ADD(ScaleInplaceCustom);
}  // namespace ops
