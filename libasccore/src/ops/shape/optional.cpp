// optional.cpp: the Optional ops on tensors. asc-tools has no optional type: an optional that
// holds a tensor is that tensor. Optional (15) with a tensor input is its input; OptionalGetElement
// (18 on a tensor) is its input; OptionalHasElement (18 on a tensor) is true, and false with no
// input (an empty optional). An optional-typed graph input or an empty Optional (type attribute,
// no input) is refused where it is read.
#include <cstring>

#include "shape_kernel.h"
#include "shape_util.h"

namespace asc::ops {
namespace {

Status inferTensorOptional(InferContext& ctx) {
  if (ctx.numInputs() < 1 || !ctx.hasInput(0))
    return ctx.unsupported(
        "an empty optional (no input) is not supported: asc-tools models "
        "an optional as the tensor it holds");
  ctx.setOutput(0, ctx.dtype(0), ctx.shape(0));
  return Status::ok();
}

Status inferHasElement(InferContext& ctx) {
  ctx.setOutput(0, ir::DType::Bool, {});
  return Status::ok();
}

class HasElementKernel : public Kernel {
 public:
  HasElementKernel(void* out, bool has) : out_(static_cast<uint8_t*>(out)), has_(has) {}
  void run() override { *out_ = has_ ? 1 : 0; }
  std::string implName() const override { return "optional-has-element"; }

 private:
  uint8_t* out_;
  bool has_;
};

Result<std::unique_ptr<Kernel>> createHasElementKernel(const KernelInit& k) {
  const bool has = !k.inputs.empty() && k.inputs[0].data != nullptr;
  return std::unique_ptr<Kernel>(std::make_unique<HasElementKernel>(k.outputs[0].data, has));
}

Result<std::vector<ir::Tensor>> evalHasElement(const ir::Node& n,
                                               const std::vector<ir::Tensor>& in) {
  TensorBuilder b(ir::DType::Bool, {});
  b.setInt(0, !in.empty() && in[0].data ? 1 : 0);
  (void)n;
  return std::vector<ir::Tensor>{b.finish()};
}

Result<std::vector<ir::Tensor>> evalPassThrough(const ir::Node&,
                                                const std::vector<ir::Tensor>& in) {
  return std::vector<ir::Tensor>{in[0]};
}

}  // namespace

const OpDef& defOptional() {
  static const OpDef d = OpDef("Optional")
                             .kernel(createCopyKernel)
                             .nativeDtypes()
                             .aliasesInput()
                             .onnx(15)
                             .inputs(0, 1)
                             .inferShape(inferTensorOptional)
                             .evalConst(evalPassThrough)
                             .summary("an optional holding its input tensor (that tensor)");
  return d;
}

const OpDef& defOptionalGetElement() {
  static const OpDef d = OpDef("OptionalGetElement")
                             .kernel(createCopyKernel)
                             .nativeDtypes()
                             .aliasesInput()
                             .onnx(15)
                             .inputs(1, 1)
                             .inferShape(inferTensorOptional)
                             .evalConst(evalPassThrough)
                             .summary("the tensor an optional holds (the input tensor itself)");
  return d;
}

const OpDef& defOptionalHasElement() {
  static const OpDef d = OpDef("OptionalHasElement")
                             .kernel(createHasElementKernel)
                             .onnx(15)
                             .inputs(0, 1)
                             .inferShape(inferHasElement)
                             .evalConst(evalHasElement)
                             .summary("true when given a tensor, false with no input");
  return d;
}

}  // namespace asc::ops
