// kernel.h: the CPU kernel interface. The runtime decides every tensor's buffer and layout once,
// at load time; a kernel is created with those fixed buffers (so it can prepare oneDNN
// primitives, reorder weights and size its scratch memory up front) and run() then does no
// allocation. Kernels compute in fp32 (and integer types where the op has them); the runtime
// converts fp16 storage at op boundaries.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/support/status.h"

namespace asc::ops {

/// Physical layout of an activation buffer. Blocked is the layout this CPU's fastest oneDNN
/// convolutions use: channels-last (NHWC) on AVX-512 CPUs (the brgemm kernels), and nChw8c
/// (channels in blocks of 8, padded up to a multiple of 8) on AVX2 CPUs. Measured in
/// docs/runtime.md; see channelsLast() and blockSize().
enum class Layout : uint8_t { Plain, Blocked };

/// Whether Blocked means channels-last on this CPU.
ASC_API bool channelsLast();
/// The channel block of the Blocked layout (1 when it is channels-last).
ASC_API int blockSize();
/// The instruction set oneDNN's kernels use on this CPU ("avx512_core_vnni", "avx2", ...).
ASC_API std::string kernelIsa();

/// A packed weight's layout (ir::Value::packing) in words a viewer can follow (docs/om-format.md,
/// "Packed weights"): oneDNN's format tag, such as "ABcd16b16a" (the dims a, b, c, ... of the
/// tensor, outermost first, upper-case where the dim is also split into inner blocks, then each
/// inner block's size and dim), and the physical dims in that order, whose row-major elements
/// are exactly the stored bytes, padding included. Empty when the layout is not a dense blocking
/// of `shape` itself (of the same rank and dims).
struct PhysicalLayout {
  std::string tag;
  std::vector<int64_t> dims;
};
ASC_API std::optional<PhysicalLayout> physicalLayout(const std::string& packing,
                                                     const ir::Shape& shape, size_t bytes);

struct TensorRef {
  void* data = nullptr;              // nullptr for an omitted optional input
  const ir::Value* value = nullptr;  // dtype and logical shape
  Layout layout = Layout::Plain;
  ir::DType type = ir::DType::Undefined;  // element type in this buffer (may differ from the
                                          // value's storage type: fp16 values compute in fp32)
  size_t bytes = 0;                       // physical size of the buffer

  const float* f32() const { return static_cast<const float*>(data); }
  float* f32() { return static_cast<float*>(data); }
  const ir::Shape& shape() const { return value->shape; }
  ir::DType dtype() const { return type; }
  int64_t numel() const { return value->numel(); }
};

/// Per-session resources kernels share (the oneDNN engine and stream). Opaque here.
struct KernelEnv;

struct KernelInit {
  const ir::Node& node;
  std::vector<TensorRef> inputs;
  std::vector<TensorRef> outputs;
  KernelEnv& env;
  int threads = 1;
  /// A kernel that runs code it does not control (a custom operator's Ascend C kernel) checks
  /// that the code writes every element of its outputs (SessionOptions::check_unwritten).
  bool check_unwritten = false;
};

/// What a kernel's run() throws when it cannot finish (a custom operator's Ascend C kernel that
/// breaks a rule of the chip); Session::run returns the status.
class KernelRunError : public std::exception {
 public:
  explicit KernelRunError(Status st) : status_(std::move(st)) {}
  const Status& status() const { return status_; }
  const char* what() const noexcept override { return status_.message().c_str(); }

 private:
  Status status_;
};

/// A constant input a kernel rearranged at creation into the layout it reads (packed weights):
/// atc stores these bytes in the OM beside the plain data, so that the runtime on a CPU that
/// wants the same layout reads them in place (ir::Value::packed).
struct PackedInput {
  size_t input = 0;     // the kernel's input index
  std::string packing;  // the layout, as cpu::packingOf names it
  const void* data = nullptr;
  size_t bytes = 0;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  /// Runs the op on the buffers fixed at creation.
  virtual void run() = 0;
  /// A short description of the implementation chosen (e.g. oneDNN's "jit:avx2"), for logs.
  virtual std::string implName() const { return "cpu"; }
  /// The constant inputs this kernel rearranged at creation (none by default).
  virtual std::vector<PackedInput> packedInputs() const { return {}; }
};

using KernelFactory = Result<std::unique_ptr<Kernel>> (*)(const KernelInit&);

/// Chooses the layout of the op's outputs from its inputs' layouts. Returning Blocked means the
/// kernel takes the inputs as they are; returning Plain makes the runtime give the kernel plain
/// inputs (reordering blocked ones first).
using LayoutFn = Layout (*)(const ir::Node&, const std::vector<Layout>& inputs);

/// Bytes a value needs in `layout` (Blocked pads dim 1 up to a multiple of blockSize()).
ASC_API size_t physicalBytes(const ir::Value& v, Layout layout);
/// Whether a value can be stored Blocked at all (4-D or 5-D, fp32/fp16/bf16).
ASC_API bool canBlock(const ir::Value& v);

}  // namespace asc::ops
