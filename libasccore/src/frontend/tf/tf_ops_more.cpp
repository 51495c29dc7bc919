// tf_ops_more.cpp: TensorFlow ops that classification and detection graphs add around their
// backbone: LRN (AlexNet-era), DepthToSpace/SpaceToDepth, ArgMax/ArgMin, LogSoftmax, GatherV2,
// Tile, the comparisons and Select/SelectV2.
#include "tf_convert.h"

namespace asc::frontend::tf {
namespace {

// TensorFlow's LRN sums squares over depth_radius channels on each side and scales by alpha;
// ONNX's LRN divides alpha by the window size, hence alpha * size.
Status convLrn(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  ASC_TRY(ir::Value * xin, c.nchw(0));
  const int64_t r = c.intAttr("depth_radius", 5);
  if (r < 0 || r > 1024) return c.fail("depth_radius {} is invalid", r);
  const int64_t size = 2 * r + 1;
  ir::Attrs a;
  a.set("size", size);
  a.set("alpha", c.floatAttr("alpha", 1.0f) * static_cast<float>(size));
  a.set("beta", c.floatAttr("beta", 0.5f));
  a.set("bias", c.floatAttr("bias", 1.0f));
  ASC_TRY(ir::Value * y, c.emit1("LRN", {xin}, std::move(a)));
  return c.setOutNchw(0, y);
}

// NHWC DepthToSpace / SpaceToDepth order depth as (block row, block column, channel): ONNX's
// DCR mode on NCHW.
Status convBlocks(Converter& c, const char* op_type) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  if (c.strAttr("data_format", "NHWC") != "NHWC")
    return c.unsupported("data_format '{}' (asc-tools takes NHWC)", c.strAttr("data_format", ""));
  ASC_TRY(ir::Value * xin, c.nchw(0));
  const int64_t bs = c.intAttr("block_size", 0);
  if (bs < 2) return c.fail("block_size {} must be 2 or more", bs);
  ir::Attrs a;
  a.set("blocksize", bs);
  if (std::string(op_type) == "DepthToSpace") a.set("mode", std::string("DCR"));
  ASC_TRY(ir::Value * y, c.emit1(op_type, {xin}, std::move(a)));
  return c.setOutNchw(0, y);
}

Status convArg(Converter& c, const char* op_type) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> axis, c.constInts(1));
  if (axis.size() != 1) return c.fail("dimension must hold one value");
  ir::Attrs a;
  a.set("axis", axis[0]);
  a.set("keepdims", int64_t{0});
  ir::DType to = ir::DType::I64;
  if (c.attr("output_type")) {
    ASC_TRY(to, c.typeAttr("output_type"));
  }
  ASC_TRY(ir::Value * y,
          c.emit1(op_type, {c.x(0)}, std::move(a), to == ir::DType::I64 ? "" : "i64"));
  if (to != ir::DType::I64) {
    ir::Attrs ca;
    ca.set("to", static_cast<int64_t>(ir::dtypeToOnnx(to)));
    ASC_TRY(y, c.emit1("Cast", {y}, std::move(ca)));
  }
  c.setOut(0, y);
  return Status::ok();
}

Status convLogSoftmax(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(1));
  ir::Attrs a;
  a.set("axis", int64_t{-1});
  ASC_TRY(ir::Value * y, c.emit1("LogSoftmax", {c.x(0)}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

Status convGather(Converter& c) {  // params, indices, axis
  ASC_RETURN_IF_ERROR(c.needInputs(3));
  ASC_TRY(std::vector<int64_t> axis, c.constInts(2));
  if (axis.size() != 1) return c.fail("axis must hold one value");
  if (c.intAttr("batch_dims", 0) != 0) return c.unsupported("batch_dims other than 0");
  ir::Attrs a;
  a.set("axis", axis[0]);
  ASC_TRY(ir::Value * y, c.emit1("Gather", {c.x(0), c.x(1)}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

Status convTile(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(std::vector<int64_t> reps, c.constInts(1));
  ir::Attrs a;
  a.set("repeats", reps);
  ASC_TRY(ir::Value * y, c.emit1("Tile", {c.x(0)}, std::move(a)));
  c.setOut(0, y);
  return Status::ok();
}

Status convCompare(Converter& c, const char* op_type) {
  ASC_RETURN_IF_ERROR(c.needInputs(2));
  ASC_TRY(ir::Value * y, c.emit1(op_type, {c.x(0), c.x(1)}));
  c.setOut(0, y);
  return Status::ok();
}

// SelectV2 broadcasts like numpy (ONNX Where); the older Select also takes a vector condition
// that picks rows, which is Where once the condition is reshaped to [n, 1, ...].
Status convSelect(Converter& c) {
  ASC_RETURN_IF_ERROR(c.needInputs(3));
  ir::Value* cond = c.x(0);
  ir::Value* t = c.x(1);
  if (c.op() == "Select" && cond->shape.size() == 1 && t->shape.size() > 1) {
    std::vector<int64_t> s(t->shape.size(), 1);
    s[0] = cond->shape[0];
    ASC_TRY(cond, c.reshape(cond, s, "cond"));
  }
  ASC_TRY(ir::Value * y, c.emit1("Where", {cond, t, c.x(2)}));
  c.setOut(0, y);
  return Status::ok();
}

}  // namespace

void addMoreConverters(OpTable& m) {
  m["LRN"] = {convLrn, "LRN Transpose", "LRN",
              "ONNX `alpha` = TensorFlow `alpha` * (2 * depth_radius + 1)"};
  m["DepthToSpace"] = {[](Converter& c) { return convBlocks(c, "DepthToSpace"); },
                       "DepthToSpace Transpose", "DepthToSpace (DCR)", "NHWC"};
  m["SpaceToDepth"] = {[](Converter& c) { return convBlocks(c, "SpaceToDepth"); },
                       "SpaceToDepth Transpose", "SpaceToDepth", "NHWC"};
  m["ArgMax"] = {[](Converter& c) { return convArg(c, "ArgMax"); }, "ArgMax Cast",
                 "ArgMax (+ Cast to `output_type`)", ""};
  m["ArgMin"] = {[](Converter& c) { return convArg(c, "ArgMin"); }, "ArgMin Cast",
                 "ArgMin (+ Cast to `output_type`)", ""};
  m["LogSoftmax"] = {convLogSoftmax, "LogSoftmax", "LogSoftmax (last axis)", ""};
  m["GatherV2"] = {convGather, "Gather", "Gather", "constant axis; `batch_dims` 0"};
  m["Tile"] = {convTile, "Tile", "Tile", "constant multiples"};
  m["Less"] = {[](Converter& c) { return convCompare(c, "Less"); }, "Less", "Less", ""};
  m["LessEqual"] = {[](Converter& c) { return convCompare(c, "LessOrEqual"); }, "LessOrEqual",
                    "LessOrEqual", ""};
  m["Greater"] = {[](Converter& c) { return convCompare(c, "Greater"); }, "Greater", "Greater", ""};
  m["GreaterEqual"] = {[](Converter& c) { return convCompare(c, "GreaterOrEqual"); },
                       "GreaterOrEqual", "GreaterOrEqual", ""};
  m["Equal"] = {[](Converter& c) { return convCompare(c, "Equal"); }, "Equal", "Equal", ""};
  m["Select"] = {convSelect, "Where Reshape", "Where", "a vector condition picks rows"};
  m["SelectV2"] = {convSelect, "Where", "Where", "numpy broadcasting"};
}

}  // namespace asc::frontend::tf
