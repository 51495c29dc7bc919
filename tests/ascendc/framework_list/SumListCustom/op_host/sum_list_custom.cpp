// sum_list_custom.cpp: y = x[0] + x[1] + ... over a DYNAMIC input (a tensor list of any length,
// all of one shape), elementwise, the elements split over blocks.
#include <algorithm>

#include "register/op_def_registry.h"
#include "sum_list_custom_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t kMaxTile = 1024;     // floats per tile
constexpr uint32_t kMinPerBlock = 512;  // fewer elements per block are not worth a core
constexpr uint32_t kMaxList = 8;        // tensors the kernel takes

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  uint32_t count = 0;
  while (context->GetDynamicInputShape(0, count) != nullptr) ++count;
  if (count == 0 || count > kMaxList) return ge::GRAPH_FAILED;
  const uint32_t total = context->GetDynamicInputShape(0, 0)->GetStorageShape().GetShapeSize();
  for (uint32_t i = 1; i < count; ++i)
    if (context->GetDynamicInputShape(0, i)->GetStorageShape().GetShapeSize() != total)
      return ge::GRAPH_FAILED;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint32_t blocks = std::max<uint32_t>(
      1, std::min(platform.GetCoreNumAiv(), (total + kMinPerBlock - 1) / kMinPerBlock));
  uint32_t blockLength = ((total + blocks - 1) / blocks + 7) / 8 * 8;
  blocks = (total + blockLength - 1) / blockLength;
  SumListCustomTilingData tiling;
  tiling.set_count(count);
  tiling.set_totalLength(total);
  tiling.set_blockLength(blockLength);
  tiling.set_tileLength(std::min(blockLength, kMaxTile));
  context->SetBlockDim(blocks);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetDynamicInputShape(0, 0);
  return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, context->GetDynamicInputDataType(0, 0));
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SumListCustom : public OpDef {
 public:
  explicit SumListCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(SumListCustom);
}  // namespace ops
