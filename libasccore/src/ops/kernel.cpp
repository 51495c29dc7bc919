// kernel.cpp: physical sizes of the two activation layouts.
#include "asc/ops/kernel.h"

#include <oneapi/dnnl/dnnl.hpp>

#include "cpu/features.h"

#include <cstdlib>
#include <string>

namespace asc::ops {

bool channelsLast() {
  // oneDNN 2.6's brgemm convolutions (AVX-512) run channels-last and beat its nChw16c direct
  // kernels on ResNet shapes by 1.0-2.6x on this machine; on AVX2 only the nChw8c JIT exists.
  static const bool cl = [] {
    if (const char* env = std::getenv("ASC_CPU_LAYOUT")) return std::string(env) == "nhwc";
    return cpu::avx512Isa();
  }();
  return cl;
}

int blockSize() { return channelsLast() ? 1 : 8; }

std::string kernelIsa() {
  using isa = dnnl::cpu_isa;
  switch (dnnl::get_effective_cpu_isa()) {
    case isa::sse41:
      return "sse41";
    case isa::avx:
      return "avx";
    case isa::avx2:
      return "avx2";
    case isa::avx2_vnni:
      return "avx2_vnni";
    case isa::avx512_mic:
      return "avx512_mic";
    case isa::avx512_mic_4ops:
      return "avx512_mic_4ops";
    case isa::avx512_core:
      return "avx512_core";
    case isa::avx512_core_vnni:
      return "avx512_core_vnni";
    case isa::avx512_core_bf16:
      return "avx512_core_bf16";
    case isa::avx512_core_amx:
      return "avx512_core_amx";
    default:
      return "other";
  }
}

bool canBlock(const ir::Value& v) {
  return ir::isFloat(v.dtype) && v.dtype != ir::DType::F64 &&
         (v.shape.size() == 4 || v.shape.size() == 5) && v.shape[1] >= 1;
}

size_t physicalBytes(const ir::Value& v, Layout layout) {
  if (layout == Layout::Plain || !canBlock(v)) return v.byteSize();
  ir::Shape s = v.shape;
  const int64_t b = blockSize();
  s[1] = (s[1] + b - 1) / b * b;
  return static_cast<size_t>(ir::numElements(s)) * ir::dtypeSize(v.dtype);
}

}  // namespace asc::ops
