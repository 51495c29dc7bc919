// onnx_versions.cpp: see onnx_versions.h.
#include "frontend/onnx/onnx_versions.h"

#include <cstring>
#include <vector>

#include "asc/ir/attr.h"
#include "onnx/onnx.pb.h"

namespace asc::frontend {
namespace {

enum class Rule {
  Accept,        // only types were added (the ops' dtype checks keep to what is supported), or the
                 // new attribute value is one the op's checks refuse by name
  Defaults,      // accepted when the attributes named keep their defaults
  GridSample20,  // modes renamed: linear -> bilinear, cubic -> bicubic (images and volumes)
  PerChannelAffine,  // GroupNormalization-21: scale and bias per channel (marked on the node)
  Refuse,            // the computation changed, or an attribute became an input
};

struct Later {
  const char* op;
  int version;
  Rule rule;
  const char* detail;  // Defaults: "name=default,..."; Refuse: why
};

// Versions after 18 of the ops asc-tools reads (an op it does not read fails by name anyway).
const std::vector<Later>& table() {
  static const std::vector<Later> t = {
      // opset 19 (ONNX 1.14)
      {"AveragePool", 19, Rule::Accept, ""},  // dilations: the pooling kernels take them
      {"Cast", 19, Rule::Accept, ""},         // float8 and saturate (float8 only)
      {"CastLike", 19, Rule::Accept, ""},
      {"Constant", 19, Rule::Accept, ""},
      {"DequantizeLinear", 19, Rule::Accept, ""},  // float8, float16/bfloat16 scales (dtype checks)
      {"Equal", 19, Rule::Accept, ""},
      {"Identity", 19, Rule::Accept, ""},
      {"Pad", 19, Rule::Accept, ""},             // mode "wrap": read by Pad
      {"QuantizeLinear", 19, Rule::Accept, ""},  // saturate matters for float8 only
      {"Reshape", 19, Rule::Accept, ""},
      {"Resize", 19, Rule::Accept, ""},  // half_pixel_symmetric: read by Resize
      {"Shape", 19, Rule::Accept, ""},
      {"Size", 19, Rule::Accept, ""},
      // opset 20 (ONNX 1.15)
      {"ConstantOfShape", 20, Rule::Accept, ""},
      {"DFT", 20, Rule::Accept, ""},  // axis as input 2 (default -2): read by DFT
      {"GridSample", 20, Rule::GridSample20, ""},
      {"IsInf", 20, Rule::Accept, ""},
      {"IsNaN", 20, Rule::Accept, ""},
      {"ReduceMax", 20, Rule::Accept, ""},  // bool
      {"ReduceMin", 20, Rule::Accept, ""},
      // opset 21 (ONNX 1.16)
      {"Cast", 21, Rule::Accept, ""},
      {"CastLike", 21, Rule::Accept, ""},
      {"Constant", 21, Rule::Accept, ""},
      {"ConstantOfShape", 21, Rule::Accept, ""},
      {"DequantizeLinear", 21, Rule::Accept, ""},  // block_size read by the op
      {"Flatten", 21, Rule::Accept, ""},
      {"GroupNormalization", 21, Rule::PerChannelAffine, ""},  // scale, bias: [C], not [groups]
      {"Identity", 21, Rule::Accept, ""},
      {"Pad", 21, Rule::Accept, ""},
      {"QLinearMatMul", 21, Rule::Accept, ""},
      {"QuantizeLinear", 21, Rule::Accept, ""},  // output_dtype read by the op
      {"Reshape", 21, Rule::Accept, ""},
      {"Shape", 21, Rule::Accept, ""},
      {"Size", 21, Rule::Accept, ""},
      {"Squeeze", 21, Rule::Accept, ""},
      {"Transpose", 21, Rule::Accept, ""},
      {"Unsqueeze", 21, Rule::Accept, ""},
      // opset 22 (ONNX 1.17): bfloat16 added, nothing else
      {"Acos", 22, Rule::Accept, ""},
      {"Asin", 22, Rule::Accept, ""},
      {"Atan", 22, Rule::Accept, ""},
      {"Cos", 22, Rule::Accept, ""},
      {"Sin", 22, Rule::Accept, ""},
      {"Tan", 22, Rule::Accept, ""},
      {"Acosh", 22, Rule::Accept, ""},
      {"Asinh", 22, Rule::Accept, ""},
      {"Atanh", 22, Rule::Accept, ""},
      {"Cosh", 22, Rule::Accept, ""},
      {"Sinh", 22, Rule::Accept, ""},
      {"AveragePool", 22, Rule::Accept, ""},
      {"MaxPool", 22, Rule::Accept, ""},
      {"Bernoulli", 22, Rule::Accept, ""},
      {"Conv", 22, Rule::Accept, ""},
      {"ConvTranspose", 22, Rule::Accept, ""},
      {"DeformConv", 22, Rule::Accept, ""},
      {"Det", 22, Rule::Accept, ""},
      {"Dropout", 22, Rule::Accept, ""},
      {"Elu", 22, Rule::Accept, ""},
      {"HardSigmoid", 22, Rule::Accept, ""},
      {"Selu", 22, Rule::Accept, ""},
      {"ThresholdedRelu", 22, Rule::Accept, ""},
      {"HardSwish", 22, Rule::Accept, ""},
      {"Mish", 22, Rule::Accept, ""},
      {"Softplus", 22, Rule::Accept, ""},
      {"Softsign", 22, Rule::Accept, ""},
      {"EyeLike", 22, Rule::Accept, ""},
      {"GRU", 22, Rule::Accept, ""},
      {"LSTM", 22, Rule::Accept, ""},
      {"RNN", 22, Rule::Accept, ""},
      {"GlobalAveragePool", 22, Rule::Accept, ""},
      {"GlobalLpPool", 22, Rule::Accept, ""},
      {"GlobalMaxPool", 22, Rule::Accept, ""},
      {"GridSample", 22, Rule::GridSample20, ""},
      {"InstanceNormalization", 22, Rule::Accept, ""},
      {"LpNormalization", 22, Rule::Accept, ""},
      {"LpPool", 22, Rule::Accept, ""},
      {"MaxRoiPool", 22, Rule::Accept, ""},
      {"RoiAlign", 22, Rule::Accept, ""},
      {"MaxUnpool", 22, Rule::Accept, ""},
      {"Multinomial", 22, Rule::Accept, ""},
      {"NegativeLogLikelihoodLoss", 22, Rule::Accept, ""},
      {"RandomNormal", 22, Rule::Accept, ""},
      {"RandomUniform", 22, Rule::Accept, ""},
      {"RandomNormalLike", 22, Rule::Accept, ""},
      {"RandomUniformLike", 22, Rule::Accept, ""},
      {"Round", 22, Rule::Accept, ""},
      // opset 23 (ONNX 1.18)
      {"Cast", 23, Rule::Accept, ""},
      {"CastLike", 23, Rule::Accept, ""},
      {"Constant", 23, Rule::Accept, ""},
      {"ConstantOfShape", 23, Rule::Accept, ""},
      {"DequantizeLinear", 23, Rule::Accept, ""},  // output_dtype read by the op
      {"Flatten", 23, Rule::Accept, ""},
      {"Identity", 23, Rule::Accept, ""},
      {"Pad", 23, Rule::Accept, ""},
      {"QuantizeLinear", 23, Rule::Accept, ""},  // precision: read by the op
      {"Reshape", 23, Rule::Accept, ""},
      {"Shape", 23, Rule::Accept, ""},
      {"Size", 23, Rule::Accept, ""},
      {"Squeeze", 23, Rule::Accept, ""},
      {"Transpose", 23, Rule::Accept, ""},
      {"Unsqueeze", 23, Rule::Accept, ""},
      // opset 24 (ONNX 1.19)
      {"Cast", 24, Rule::Accept, ""},  // the change concerns float8 targets only
      {"CastLike", 24, Rule::Accept, ""},
      {"Constant", 24, Rule::Accept, ""},
      {"ConstantOfShape", 24, Rule::Accept, ""},
      {"DequantizeLinear", 24, Rule::Accept, ""},  // output_dtype read by the op
      {"Flatten", 24, Rule::Accept, ""},
      {"Identity", 24, Rule::Accept, ""},
      {"Pad", 24, Rule::Accept, ""},
      {"QuantizeLinear", 24, Rule::Accept, ""},
      {"Reshape", 24, Rule::Accept, ""},
      {"Shape", 24, Rule::Accept, ""},
      {"Size", 24, Rule::Accept, ""},
      {"Squeeze", 24, Rule::Accept, ""},
      {"TopK", 24, Rule::Accept, ""},
      {"Transpose", 24, Rule::Accept, ""},
      {"Unsqueeze", 24, Rule::Accept, ""},
      {"Swish", 24, Rule::Accept, ""},
  };
  return t;
}

const Later* inForce(const std::string& op, int opset) {
  const Later* best = nullptr;
  for (const Later& l : table())
    if (op == l.op && l.version <= opset && (!best || l.version > best->version)) best = &l;
  return best;
}

const onnx::AttributeProto* attr(const onnx::NodeProto& np, const std::string& name) {
  for (const auto& a : np.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

}  // namespace

int laterOnnxVersion(const std::string& op_type, int opset) {
  const Later* l = inForce(op_type, opset);
  return l ? l->version : 0;
}

Status checkLaterOnnxVersion(const onnx::NodeProto& np, const std::string& op_type,
                             const std::string& name, int opset) {
  const Later* l = inForce(op_type, opset);
  if (!l) return Status::ok();
  switch (l->rule) {
    case Rule::Accept:
    case Rule::PerChannelAffine:
      return Status::ok();
    case Rule::Refuse:
      return Status::error(ErrorCode::NotImplemented,
                           "node '{}': {}-{} (the version at opset {}) is not supported yet: {}; "
                           "re-export the model at opset {} or lower",
                           name, op_type, l->version, opset, l->detail, l->version - 1);
    case Rule::Defaults: {
      // "name=default,...": each attribute given must hold its default (ints only here).
      std::string spec = l->detail;
      size_t pos = 0;
      while (pos < spec.size()) {
        size_t comma = spec.find(',', pos);
        if (comma == std::string::npos) comma = spec.size();
        const std::string item = spec.substr(pos, comma - pos);
        pos = comma + 1;
        const size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        const long long def = std::atoll(item.c_str() + eq + 1);
        const onnx::AttributeProto* a = attr(np, key);
        if (a && a->i() != def)
          return Status::error(ErrorCode::NotImplemented,
                               "node '{}': {}-{} attribute {}={} is not supported yet (only its "
                               "default, {})",
                               name, op_type, l->version, key, a->i(), def);
      }
      return Status::ok();
    }
    case Rule::GridSample20: {
      const onnx::AttributeProto* mode = attr(np, "mode");
      const std::string m = mode ? mode->s() : "linear";
      if (m != "linear" && m != "nearest" && m != "cubic")
        return Status::error(ErrorCode::NotImplemented,
                             "node '{}': GridSample-{} mode '{}' is not one of linear, nearest, "
                             "cubic",
                             name, l->version, m);
      return Status::ok();
    }
  }
  return Status::ok();
}

void mapLaterOnnxAttrs(const std::string& op_type, int opset, ir::Attrs* attrs) {
  const Later* l = inForce(op_type, opset);
  if (l && l->rule == Rule::PerChannelAffine) {
    attrs->set("_asc_affine_per_channel", int64_t{1});
    return;
  }
  if (!l || l->rule != Rule::GridSample20) return;
  // Version 20 renamed the modes and made "linear" the default; the op definition reads
  // GridSample-16's names.
  const std::string m = attrs->getString("mode", "linear");
  attrs->set("mode", std::string(m == "linear" ? "bilinear" : m == "cubic" ? "bicubic" : m));
}

}  // namespace asc::frontend
