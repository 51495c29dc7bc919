// test_op_plugin.cpp: a custom-operator plugin, built the way a user builds one against the SDK
// (asc/ops/plugin.h). Two element-wise fp32 operators:
//   AscScale       y = alpha * x   (attribute alpha, default 2)
//   AscSquarePlus  y = x * x + 1
// ASC_TEST_PLUGIN_VARIANT builds the broken variants the loader must refuse: 1 exports another
// plugin ABI, 2 registers an operator that already exists (Relu).
#include <memory>

#include "asc/ops/kernel.h"
#include "asc/ops/plugin.h"

namespace {

class ElementwiseKernel : public asc::ops::Kernel {
 public:
  ElementwiseKernel(const asc::ops::KernelInit& k, bool square)
      : in_(k.inputs[0]),
        out_(k.outputs[0]),
        square_(square),
        alpha_(k.node.attrs.getFloat("alpha", 2.f)) {}
  void run() override {
    const float* x = in_.f32();
    float* y = out_.f32();
    for (int64_t i = 0; i < out_.numel(); ++i) y[i] = square_ ? x[i] * x[i] + 1.f : alpha_ * x[i];
  }
  std::string implName() const override { return "test_plugin"; }

 private:
  asc::ops::TensorRef in_, out_;
  bool square_;
  float alpha_;
};

asc::Result<std::unique_ptr<asc::ops::Kernel>> make(const asc::ops::KernelInit& k, bool square) {
  if (k.inputs[0].dtype() != asc::ir::DType::F32 || k.outputs[0].dtype() != asc::ir::DType::F32)
    return asc::Status::error(asc::ErrorCode::UnsupportedOp, "the test plugin computes fp32 only");
  return std::unique_ptr<asc::ops::Kernel>(new ElementwiseKernel(k, square));
}
asc::Result<std::unique_ptr<asc::ops::Kernel>> makeScale(const asc::ops::KernelInit& k) {
  return make(k, false);
}
asc::Result<std::unique_ptr<asc::ops::Kernel>> makeSquarePlus(const asc::ops::KernelInit& k) {
  return make(k, true);
}

asc::Status sameAsInput(asc::ops::InferContext& c) {
  if (c.dtype(0) != asc::ir::DType::F32) return c.fail("takes float32, not another type");
  c.setOutput(0, c.dtype(0), c.shape(0));
  return asc::Status::ok();
}

void registerOps(asc::ops::PluginRegistrar& r) {
#if ASC_TEST_PLUGIN_VARIANT == 2
  r.add(
      asc::ops::OpDef("Relu").onnx(1).cann("ReluCustom").inferShape(sameAsInput).kernel(makeScale));
#else
  r.add(asc::ops::OpDef("AscScale")
            .onnx(1)
            .cann("AscScale")
            .inferShape(sameAsInput)
            .kernel(makeScale)
            .summary("custom: alpha * x"));
  r.add(asc::ops::OpDef("AscSquarePlus")
            .onnx(1)
            .cann("AscSquarePlus")
            .inferShape(sameAsInput)
            .kernel(makeSquarePlus)
            .summary("custom: x * x + 1"));
#endif
}

}  // namespace

#if ASC_TEST_PLUGIN_VARIANT == 1
extern "C" __attribute__((visibility("default"))) int asc_op_plugin_abi() { return 999; }
extern "C" __attribute__((visibility("default"))) void asc_op_plugin_register(
    asc::ops::PluginRegistrar* r) {
  registerOps(*r);
}
#else
ASC_OP_PLUGIN(registerOps)
#endif
