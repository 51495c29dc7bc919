// matmul_custom.cpp: c[M, N] = a[M, K] * b[K, N], a and b in float16, c in float, with the Matmul
// high-level API; the host tiling splits M and N over two cores (MultiCoreMatmulTiling).
#include "matmul_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& aShape = context->GetInputShape(0)->GetOriginShape();
  const gert::Shape& bShape = context->GetInputShape(1)->GetOriginShape();
  if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
    return ge::GRAPH_FAILED;
  }
  const int32_t M = aShape.GetDim(0);
  const int32_t K = aShape.GetDim(1);
  const int32_t N = bShape.GetDim(1);
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
  cubeTiling.SetDim(2);
  cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, false);
  cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16, false);
  cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  cubeTiling.SetShape(M, N, K);
  cubeTiling.SetOrgShape(M, N, K);
  cubeTiling.SetBias(false);
  cubeTiling.SetBufferSpace(-1, -1, -1);
  MatmulCustomTilingData tiling;
  if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
    return ge::GRAPH_FAILED;
  }
  // A kernel that uses the cube runs mixed: where each AI Core pairs its cube core with two
  // vector cores (Ascend910B), one block is two vector blocks of the kernel, so half as many
  // blocks cover the cores the tiling uses.
  const uint32_t used = tiling.cubeTilingData.get_usedCoreNum();
  const bool split = ascendcPlatform.GetCoreNumAiv() == 2 * ascendcPlatform.GetCoreNumAic();
  context->SetBlockDim(split ? (used + 1) / 2 : used);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = ascendcPlatform.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  const gert::Shape* a = context->GetInputShape(0);
  const gert::Shape* b = context->GetInputShape(1);
  *context->GetOutputShape(0) = gert::Shape({a->GetDim(0), b->GetDim(1)});
  return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, ge::DT_FLOAT);
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MatmulCustom : public OpDef {
 public:
  explicit MatmulCustom(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(MatmulCustom);
}  // namespace ops
