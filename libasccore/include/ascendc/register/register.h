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
// OriginOpType is "<domain>::<opset>::<op type>" for ONNX, one or a list. An origin of the
// custom operator's own type reads such nodes from that opset on; an origin of another type
// ("ai.onnx::11::LeakyRelu") takes nodes of that type over when the model imports the domain at
// exactly that opset (CANN's matching), before atc's built-in reading of the type. The parse
// function gives the custom node's attributes: AutoMappingByOpFn copies the ONNX attributes by
// name; a function of the plugin's own, Status(const ge::Operator& op_src, ge::Operator&
// op_dest), reads op_src as CANN's parser fills it (graph/operator.h) and sets op_dest's. ONNX
// is the only framework atc reads custom operators from. C++11, as CANN's projects compile it.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "asc/asc.h"
#include "graph/ascend_string.h"
#include "graph/operator.h"
#include "register/abi_string.h"

namespace domi {

/// A parse function's result: SUCCESS, or anything else to fail the conversion.
using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;  // UNCONFIRMED: CANN's value; any non-zero fails

enum FrameworkType { CAFFE = 0, MINDSPORE = 1, TENSORFLOW = 3, ANDROID_NN = 4, ONNX = 5 };
enum class ImplyType : unsigned int { BUILDIN = 0, TVM, CUSTOM, AI_CPU };

using ParseParamByOpFunc = std::function<Status(const ge::Operator&, ge::Operator&)>;

/// The ONNX node's attributes become the custom operator's attributes of the same name.
ASC_API Status AutoMappingByOpFn(const ge::Operator& op_src, ge::Operator& op_dest);

/// ParseParamsFn's automatic mapping (CANN's takes the framework's protobuf message, which
/// asc-tools does not expose): the same as AutoMappingByOpFn.
struct AutoMappingTag {};
constexpr AutoMappingTag AutoMappingFn{};

class ASC_API OpRegistrationData {
 public:
  explicit OpRegistrationData(const char* om_type) : om_type_(om_type) {}
  OpRegistrationData(const ge::AscendString& om_type) : om_type_(om_type.GetString()) {}
  OpRegistrationData& FrameworkType(domi::FrameworkType f) {
    framework_ = f;
    return *this;
  }
  OpRegistrationData& OriginOpType(const char* t) {
    origin_.push_back(asc::AbiString(t));
    return *this;
  }
  OpRegistrationData& OriginOpType(const ge::AscendString& t) {
    return OriginOpType(t.GetString());
  }
  template <typename S,
            typename = typename std::enable_if<std::is_same<S, std::string>::value>::type>
  OpRegistrationData& OriginOpType(const S& t) {  // a std::string (a template: not for {...})
    return OriginOpType(t.c_str());
  }
  OpRegistrationData& OriginOpType(std::initializer_list<std::string> t) {
    for (const auto& e : t) origin_.push_back(asc::AbiString(e));
    return *this;
  }
  OpRegistrationData& OriginOpType(const std::vector<std::string>& t) {
    for (const auto& e : t) origin_.push_back(asc::AbiString(e));
    return *this;
  }
  OpRegistrationData& OriginOpType(const std::vector<ge::AscendString>& t) {
    for (const auto& e : t) origin_.push_back(asc::AbiString(e.GetString()));
    return *this;
  }
  OpRegistrationData& ParseParamsByOperatorFn(const ParseParamByOpFunc& fn) {
    parse_by_op_ = fn;
    return *this;
  }
  OpRegistrationData& ParseParamsFn(AutoMappingTag) {
    parse_by_op_ = AutoMappingByOpFn;
    return *this;
  }
  /// A parse function over the framework's protobuf message is not supported: write it with
  /// ParseParamsByOperatorFn (ge::Operator), which CANN also takes.
  template <typename F>
  OpRegistrationData& ParseParamsFn(const F&) {
    static_assert(!std::is_same<F, F>::value,
                  "asc-tools: ParseParamsFn with a function over the framework's protobuf message "
                  "is not supported; register it with ParseParamsByOperatorFn, reading the ONNX "
                  "node from the ge::Operator it is given (graph/operator.h)");
    return *this;
  }
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
  /// The parse function (empty: none was given, attributes map by name).
  const ParseParamByOpFunc& parseByOperator() const { return parse_by_op_; }

 private:
  asc::AbiString om_type_;
  domi::FrameworkType framework_ = ONNX;
  domi::ImplyType imply_ = domi::ImplyType::TVM;
  std::vector<asc::AbiString> origin_;
  ParseParamByOpFunc parse_by_op_;
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
