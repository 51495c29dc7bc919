// onnx_mapping.cpp: see onnx_mapping.h.
#include "asc/ops/onnx_mapping.h"

#include <deque>
#include <mutex>

namespace asc::ops {
namespace {

struct Mappings {
  std::mutex mu;
  std::deque<OnnxCustomMapping> all;  // a deque: entries keep their addresses
};
Mappings& mappings() {
  static Mappings m;
  return m;
}
std::string plainDomain(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }

}  // namespace

Status addOnnxCustomMapping(OnnxCustomMapping m) {
  m.domain = plainDomain(m.domain);
  auto& s = mappings();
  std::lock_guard<std::mutex> lock(s.mu);
  for (const auto& e : s.all)
    if (e.domain == m.domain && e.onnx_type == m.onnx_type && e.opset_from <= m.opset_to &&
        m.opset_from <= e.opset_to)
      return Status::error(ErrorCode::InvalidParam,
                           "{} maps ONNX {}::{}::{} to {}, which {} maps to {} already", m.origin,
                           m.domain.empty() ? "ai.onnx" : m.domain, m.opset_from, m.onnx_type,
                           m.custom_type, e.origin, e.custom_type);
  s.all.push_back(std::move(m));
  return Status::ok();
}

const OnnxCustomMapping* findOnnxCustomMapping(const std::string& domain, int opset,
                                               const std::string& op_type) {
  const std::string d = plainDomain(domain);
  auto& s = mappings();
  std::lock_guard<std::mutex> lock(s.mu);
  for (const auto& e : s.all)
    if (e.domain == d && e.onnx_type == op_type && e.opset_from <= opset && opset <= e.opset_to)
      return &e;
  return nullptr;
}

std::vector<OnnxCustomMapping> onnxCustomMappings() {
  auto& s = mappings();
  std::lock_guard<std::mutex> lock(s.mu);
  return {s.all.begin(), s.all.end()};
}

}  // namespace asc::ops
