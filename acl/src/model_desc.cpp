// model_desc.cpp: model descriptions (aclmdlDesc: inputs, outputs, dims, types, formats,
// profiles, ranges) and static AIPP information of asc-tools' AscendCL (docs/acl.md).
#include <algorithm>
#include <cstring>

#include "model_internal.h"

using namespace asc::acl;

namespace {
const IO* descIO(const aclmdlDesc* d, size_t i, bool input) {
  if (!d) return nullptr;
  const auto& v = input ? d->info.inputs : d->info.outputs;
  return i < v.size() ? &v[i] : nullptr;
}
aclError fillDims(const char* api, const aclmdlDesc* d, size_t i, bool input, aclmdlIODims* dims) {
  if (!d || !dims) return fail(ACL_ERROR_INVALID_PARAM, "{}: a null pointer", api);
  const IO* io = descIO(d, i, input);
  if (!io)
    return fail(ACL_ERROR_INVALID_PARAM, "{}: index {} is past the model's {} {}", api, i,
                input ? d->info.inputs.size() : d->info.outputs.size(),
                input ? "inputs" : "outputs");
  std::memset(dims, 0, sizeof *dims);
  std::strncpy(dims->name, io->name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  dims->dimCount = std::min<size_t>(io->dims.size(), ACL_MAX_DIM_CNT);
  for (size_t k = 0; k < dims->dimCount; ++k) dims->dims[k] = io->dims[k];
  return ACL_SUCCESS;
}
}  // namespace

extern "C" {

aclmdlDesc* aclmdlCreateDesc(void) { return new aclmdlDesc(); }

aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
  if (!modelDesc)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlDestroyDesc: modelDesc is a null pointer");
  delete modelDesc;
  return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
  if (!modelDesc)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetDesc: modelDesc is a null pointer");
  aclError e;
  auto m = findModel("aclmdlGetDesc", modelId, &e);
  if (!m) return e;
  modelDesc->info = m->info;
  modelDesc->filled = true;
  modelDesc->model_id = modelId;
  return ACL_SUCCESS;
}

aclError aclmdlGetDescFromFile(aclmdlDesc* modelDesc, const char* modelPath) {
  if (!modelDesc || !modelPath)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetDescFromFile: a null pointer");
  auto s = asc::runtime::Session::load(modelPath);
  if (!s) return loadError("aclmdlGetDescFromFile", s.status());
  modelDesc->info = describe(**s);
  modelDesc->filled = true;
  return ACL_SUCCESS;
}

size_t aclmdlGetNumInputs(aclmdlDesc* d) { return d ? d->info.inputs.size() : 0; }
size_t aclmdlGetNumOutputs(aclmdlDesc* d) { return d ? d->info.outputs.size() : 0; }
size_t aclmdlGetInputSizeByIndex(aclmdlDesc* d, size_t i) {
  const IO* io = descIO(d, i, true);
  return io ? io->bytes : 0;
}
size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* d, size_t i) {
  const IO* io = descIO(d, i, false);
  return io ? io->bytes : 0;
}
aclError aclmdlGetInputDims(const aclmdlDesc* d, size_t i, aclmdlIODims* dims) {
  return fillDims("aclmdlGetInputDims", d, i, true, dims);
}
aclError aclmdlGetInputDimsV2(const aclmdlDesc* d, size_t i, aclmdlIODims* dims) {
  return fillDims("aclmdlGetInputDimsV2", d, i, true, dims);
}
aclError aclmdlGetOutputDims(const aclmdlDesc* d, size_t i, aclmdlIODims* dims) {
  return fillDims("aclmdlGetOutputDims", d, i, false, dims);
}
aclError aclmdlGetCurOutputDims(const aclmdlDesc* d, size_t i, aclmdlIODims* dims) {
  // The dims of the latest execution of the model (a dynamic model's outputs change with its
  // profile); before one, the largest, as aclmdlGetOutputDims gives.
  if (aclError e = fillDims("aclmdlGetCurOutputDims", d, i, false, dims)) return e;
  if (!d->model_id) return ACL_SUCCESS;
  aclError e;
  auto m = findModel("aclmdlGetCurOutputDims", d->model_id, &e);
  if (!m) return e;
  std::lock_guard<std::mutex> lock(m->mu);
  if (i < m->last_outputs.size()) {
    dims->dimCount = std::min<size_t>(m->last_outputs[i].size(), ACL_MAX_DIM_CNT);
    for (size_t k = 0; k < dims->dimCount; ++k) dims->dims[k] = m->last_outputs[i][k];
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDimsRange(const aclmdlDesc* d, size_t i, aclmdlIODimsRange* r) {
  if (!d || !r) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetInputDimsRange: a null pointer");
  const IO* io = descIO(d, i, true);
  if (!io)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetInputDimsRange: index {} is past the inputs", i);
  std::memset(r, 0, sizeof *r);
  r->rangeCount = std::min<size_t>(io->dims.size(), ACL_MAX_DIM_CNT);
  for (size_t k = 0; k < r->rangeCount; ++k) {
    int64_t lo = io->dims[k], hi = io->dims[k];
    if (i < d->info.ranges.size() && k < d->info.ranges[i].size()) {
      lo = d->info.ranges[i][k].min;
      hi = d->info.ranges[i][k].max;
    }
    r->range[k][0] = lo;
    r->range[k][1] = hi;
  }
  return ACL_SUCCESS;
}

const char* aclmdlGetInputNameByIndex(const aclmdlDesc* d, size_t i) {
  const IO* io = descIO(d, i, true);
  return io ? io->name.c_str() : "";
}
const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* d, size_t i) {
  const IO* io = descIO(d, i, false);
  return io ? io->name.c_str() : "";
}
aclFormat aclmdlGetInputFormat(const aclmdlDesc* d, size_t i) {
  const IO* io = descIO(d, i, true);
  return io ? io->format : ACL_FORMAT_UNDEFINED;
}
aclFormat aclmdlGetOutputFormat(const aclmdlDesc* d, size_t i) {
  const IO* io = descIO(d, i, false);
  return io ? io->format : ACL_FORMAT_UNDEFINED;
}
aclDataType aclmdlGetInputDataType(const aclmdlDesc* d, size_t i) {
  const IO* io = descIO(d, i, true);
  return io ? toAclType(io->dtype) : ACL_DT_UNDEFINED;
}
aclDataType aclmdlGetOutputDataType(const aclmdlDesc* d, size_t i) {
  const IO* io = descIO(d, i, false);
  return io ? toAclType(io->dtype) : ACL_DT_UNDEFINED;
}

static aclError indexByName(const char* api, const aclmdlDesc* d, const char* name, size_t* index,
                            bool input) {
  if (!d || !name || !index) return fail(ACL_ERROR_INVALID_PARAM, "{}: a null pointer", api);
  const auto& v = input ? d->info.inputs : d->info.outputs;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i].name == name) {
      *index = i;
      return ACL_SUCCESS;
    }
  return fail(ACL_ERROR_INVALID_PARAM, "{}: the model has no {} named '{}'", api,
              input ? "input" : "output", name);
}
aclError aclmdlGetInputIndexByName(const aclmdlDesc* d, const char* name, size_t* index) {
  return indexByName("aclmdlGetInputIndexByName", d, name, index, true);
}
aclError aclmdlGetOutputIndexByName(const aclmdlDesc* d, const char* name, size_t* index) {
  return indexByName("aclmdlGetOutputIndexByName", d, name, index, false);
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc* d, aclmdlBatch* batch) {
  if (!d || !batch) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetDynamicBatch: a null pointer");
  std::memset(batch, 0, sizeof *batch);
  if (d->info.kind != "batch") return ACL_SUCCESS;  // not a dynamic-batch model: no profiles
  for (const auto& gear : d->info.gears) {
    if (batch->batchCount == ACL_MAX_BATCH_NUM) break;
    auto key = profileKey(d->info, gear);
    batch->batch[batch->batchCount++] = key.empty() ? 0 : uint64_t(key[0]);
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetDynamicHW(const aclmdlDesc* d, size_t, aclmdlHW* hw) {
  if (!d || !hw) return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetDynamicHW: a null pointer");
  std::memset(hw, 0, sizeof *hw);
  if (d->info.kind != "image_size") return ACL_SUCCESS;
  for (const auto& gear : d->info.gears) {
    if (hw->hwCount == ACL_MAX_HW_NUM) break;
    auto key = profileKey(d->info, gear);
    if (key.size() < 2) continue;
    hw->hw[hw->hwCount][0] = uint64_t(key[0]);
    hw->hw[hw->hwCount][1] = uint64_t(key[1]);
    ++hw->hwCount;
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* d, size_t, size_t* gearCount) {
  if (!d || !gearCount)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetInputDynamicGearCount: a null pointer");
  *gearCount = d->info.kind == "dims" ? d->info.gears.size() : 0;
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc* d, size_t, aclmdlIODims* dims,
                                   size_t gearCount) {
  if (!d || !dims)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetInputDynamicDims: a null pointer");
  if (d->info.kind != "dims" || gearCount < d->info.gears.size())
    return fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlGetInputDynamicDims: the model has {} dims profiles; gearCount is {}",
                d->info.kind == "dims" ? d->info.gears.size() : 0, gearCount);
  for (size_t g = 0; g < d->info.gears.size(); ++g) {
    std::memset(&dims[g], 0, sizeof dims[g]);
    auto key = profileKey(d->info, d->info.gears[g]);
    dims[g].dimCount = std::min<size_t>(key.size(), ACL_MAX_DIM_CNT);
    for (size_t k = 0; k < dims[g].dimCount; ++k) dims[g].dims[k] = key[k];
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType* type,
                           size_t* attachedIndex) {
  if (!type || !attachedIndex)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetAippType: a null pointer");
  aclError e;
  auto m = findModel("aclmdlGetAippType", modelId, &e);
  if (!m) return e;
  if (index >= m->info.inputs.size())
    return fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlGetAippType: index {} is past the model's {} inputs", index,
                m->info.inputs.size());
  const bool aipp = index < m->info.aipp.size() && m->info.aipp[index];
  *type = aipp ? ACL_DATA_WITH_STATIC_AIPP : ACL_DATA_WITHOUT_AIPP;
  *attachedIndex = ACL_INVALID_NODE_INDEX;
  return ACL_SUCCESS;
}

aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo* out) {
  if (!out)
    return fail(ACL_ERROR_INVALID_PARAM, "aclmdlGetFirstAippInfo: aippInfo is a null pointer");
  aclError e;
  auto m = findModel("aclmdlGetFirstAippInfo", modelId, &e);
  if (!m) return e;
  if (index >= m->info.aipp.size() || !m->info.aipp[index])
    return fail(ACL_ERROR_GE_AIPP_NOT_EXIST,
                "aclmdlGetFirstAippInfo: input {} of model {} has no AIPP", index, modelId);
  const asc::ir::Attrs& a = *m->info.aipp[index];
  std::memset(out, 0, sizeof *out);
  const std::string f = a.getString("input_format", "");
  out->inputFormat = f == "YUV420SP_U8"   ? ACL_YUV420SP_U8
                     : f == "XRGB8888_U8" ? ACL_XRGB8888_U8
                     : f == "RGB888_U8"   ? ACL_RGB888_U8
                     : f == "YUV400_U8"   ? ACL_YUV400_U8
                                          : ACL_AIPP_RESERVED;
  auto i32 = [&](const char* k) { return static_cast<int32_t>(a.getInt(k, 0)); };
  out->srcImageSizeW = i32("src_image_size_w");
  out->srcImageSizeH = i32("src_image_size_h");
  out->loadStartPosW = i32("load_start_pos_w");
  out->loadStartPosH = i32("load_start_pos_h");
  out->cropSizeW = i32("crop_size_w");
  out->cropSizeH = i32("crop_size_h");
  out->cropSwitch = out->cropSizeW != out->srcImageSizeW || out->cropSizeH != out->srcImageSizeH;
  out->leftPaddingSize = i32("left_padding_size");
  out->rightPaddingSize = i32("right_padding_size");
  out->topPaddingSize = i32("top_padding_size");
  out->bottomPaddingSize = i32("bottom_padding_size");
  out->paddingSwitch = out->leftPaddingSize || out->rightPaddingSize || out->topPaddingSize ||
                       out->bottomPaddingSize;
  out->cscSwitch = static_cast<int8_t>(a.getInt("csc_switch", 0));
  out->rbuvSwapSwitch = static_cast<int8_t>(a.getInt("rbuv_swap_switch", 0));
  out->axSwapSwitch = static_cast<int8_t>(a.getInt("ax_swap_switch", 0));
  const auto mx = a.getInts("csc_matrix");
  int32_t* cells[] = {&out->matrixR0C0, &out->matrixR0C1, &out->matrixR0C2,
                      &out->matrixR1C0, &out->matrixR1C1, &out->matrixR1C2,
                      &out->matrixR2C0, &out->matrixR2C1, &out->matrixR2C2};
  for (size_t k = 0; k < 9 && k < mx.size(); ++k) *cells[k] = static_cast<int32_t>(mx[k]);
  const auto ib = a.getInts("input_bias"), ob = a.getInts("output_bias");
  int32_t* ins[] = {&out->inputBias0, &out->inputBias1, &out->inputBias2};
  int32_t* outs[] = {&out->outputBias0, &out->outputBias1, &out->outputBias2};
  for (size_t k = 0; k < 3; ++k) {
    if (k < ib.size()) *ins[k] = static_cast<int32_t>(ib[k]);
    if (k < ob.size()) *outs[k] = static_cast<int32_t>(ob[k]);
  }
  const auto mean = a.getFloats("mean_chn"), mn = a.getFloats("min_chn"),
             var = a.getFloats("var_reci_chn");
  int32_t* means[] = {&out->meanChn0, &out->meanChn1, &out->meanChn2, &out->meanChn3};
  float* mins[] = {&out->minChn0, &out->minChn1, &out->minChn2, &out->minChn3};
  float* vars[] = {&out->varReciChn0, &out->varReciChn1, &out->varReciChn2, &out->varReciChn3};
  for (size_t k = 0; k < 4; ++k) {
    if (k < mean.size()) *means[k] = static_cast<int32_t>(mean[k]);
    if (k < mn.size()) *mins[k] = mn[k];
    if (k < var.size()) *vars[k] = var[k];
  }
  const IO& in = m->info.inputs[index];
  out->srcFormat = ACL_FORMAT_NHWC;
  out->srcDatatype = toAclType(in.dtype);
  out->srcDimNum = in.dims.size();
  out->shapeCount = 1;
  aclAippDims& od = out->outDims[0];
  std::strncpy(od.srcDims.name, in.name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  od.srcDims.dimCount = in.dims.size();
  for (size_t k = 0; k < in.dims.size() && k < ACL_MAX_DIM_CNT; ++k)
    od.srcDims.dims[k] = in.dims[k];
  od.srcSize = in.bytes;
  const auto& o = m->info.aipp_out_shapes[index];
  od.aippOutdims.dimCount = o.size();
  size_t n = 1;
  for (size_t k = 0; k < o.size() && k < ACL_MAX_DIM_CNT; ++k) {
    od.aippOutdims.dims[k] = o[k];
    n *= o[k] > 0 ? size_t(o[k]) : 0;
  }
  od.aippOutSize = n * 2;  // AIPP writes fp16 on an NPU
  return ACL_SUCCESS;
}

}  // extern "C"
