// register.h: the framework side of a custom operator, in CANN's spellings: which operator of
// the source framework becomes the custom operator. framework/onnx_plugin/<op>_plugin.cpp says
//
//   namespace domi {
//   REGISTER_CUSTOM_OP("LeakyReluCustom")
//       .FrameworkType(ONNX)
//       .OriginOpType("ai.onnx::11::LeakyReluCustom")
//       .ParseParamsByOperatorFn(AutoMappingByOpFn);
//   }
//
// OriginOpType is "<domain>::<opset>::<op type>" for ONNX. asc-tools maps attributes by name
// (AutoMappingByOpFn); the ONNX op type must be the custom operator's own type (a node of another
// type is not rewritten), and ONNX is the only framework atc reads custom operators from.
#pragma once

#include <string>
#include <vector>

#include "asc/asc.h"
#include "register/abi_string.h"

namespace domi {

enum FrameworkType { CAFFE = 0, MINDSPORE = 1, TENSORFLOW = 3, ANDROID_NN = 4, ONNX = 5 };
enum class ImplyType : unsigned int { BUILDIN = 0, TVM, CUSTOM, AI_CPU };

/// The only parse function asc-tools knows: ONNX attributes become the operator's attributes of
/// the same name.
struct AutoMappingTag {};
constexpr AutoMappingTag AutoMappingByOpFn{};
constexpr AutoMappingTag AutoMappingFn{};

class ASC_API OpRegistrationData {
 public:
  explicit OpRegistrationData(const char* om_type) : om_type_(om_type) {}
  OpRegistrationData& FrameworkType(domi::FrameworkType f) {
    framework_ = f;
    return *this;
  }
  OpRegistrationData& OriginOpType(const char* t) {
    origin_.emplace_back(t);
    return *this;
  }
  OpRegistrationData& OriginOpType(const std::vector<std::string>& t) {
    origin_.insert(origin_.end(), t.begin(), t.end());
    return *this;
  }
  OpRegistrationData& ParseParamsByOperatorFn(AutoMappingTag) { return *this; }
  OpRegistrationData& ParseParamsFn(AutoMappingTag) { return *this; }
  OpRegistrationData& ImplyType(domi::ImplyType t) {
    imply_ = t;
    return *this;
  }
  std::string omType() const { return om_type_.str(); }
  domi::FrameworkType framework() const { return framework_; }
  std::vector<std::string> originTypes() const {
    std::vector<std::string> v;
    for (const auto& s : origin_) v.push_back(s.str());
    return v;
  }

 private:
  asc::AbiString om_type_;
  domi::FrameworkType framework_ = ONNX;
  domi::ImplyType imply_ = domi::ImplyType::TVM;
  std::vector<asc::AbiString> origin_;
};

/// Keeps a registration until the plugin registers (asc::ophost::registerPlugin).
class ASC_API OpReceiver {
 public:
  OpReceiver(OpRegistrationData& reg);
};

}  // namespace domi

#define ASC_REG_CONCAT_(a, b) a##b
#define ASC_REG_CONCAT(a, b) ASC_REG_CONCAT_(a, b)
/// Registers how a framework's operator becomes the custom operator `name`.
#define REGISTER_CUSTOM_OP(name)                                            \
  static ::domi::OpReceiver ASC_REG_CONCAT(g_asc_op_receiver_, __COUNTER__) \
      __attribute__((unused)) = ::domi::OpRegistrationData(name)
