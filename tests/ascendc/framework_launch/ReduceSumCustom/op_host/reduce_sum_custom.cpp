// reduce_sum_custom.cpp: y = scale * sum(x) over all of x, as a two-phase reduction: each block
// sums its share into a slot of the workspace, then block 0 adds the slots up. Tiling key 1: a
// block's share fits in one tile; key 2: it takes several.
#include <algorithm>

#include "reduce_sum_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t kMaxTile = 2048;     // floats per tile
constexpr uint32_t kSlotBytes = 32;     // one block's partial sum, padded to a 32-byte unit
constexpr uint32_t kMinPerBlock = 256;  // fewer elements per block are not worth a core

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  ReduceSumCustomTilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
  if (total == 0) {
    return ge::GRAPH_FAILED;
  }
  const float* scale = context->GetAttrs()->GetFloat(0);
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  const uint32_t cores = platform.GetCoreNumAiv();
  uint32_t blocks =
      std::max<uint32_t>(1, std::min(cores, (total + kMinPerBlock - 1) / kMinPerBlock));
  uint32_t blockLength = (total + blocks - 1) / blocks;
  blockLength = (blockLength + 7) / 8 * 8;
  blocks = (total + blockLength - 1) / blockLength;

  tiling.set_totalLength(total);
  tiling.set_blockLength(blockLength);
  tiling.set_tileLength(std::min(blockLength, kMaxTile));
  tiling.set_scale(scale != nullptr ? *scale : 1.0f);
  context->SetBlockDim(blocks);
  context->SetTilingKey(blockLength <= kMaxTile ? 1 : 2);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = platform.GetLibApiWorkSpaceSize() + blocks * kSlotBytes;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  gert::Shape* y = context->GetOutputShape(0);
  *y = gert::Shape({1});
  return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, context->GetInputDataType(0));
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ReduceSumCustom : public OpDef {
 public:
  explicit ReduceSumCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
    this->AICore().AddConfig("ascend310p");
  }
};
OP_ADD(ReduceSumCustom);
}  // namespace ops
