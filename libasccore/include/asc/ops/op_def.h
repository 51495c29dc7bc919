// op_def.h: everything the system knows about one operator, in one object: its ONNX mapping,
// the CANN op type it becomes in the OM, its engine, how parameters given as constant inputs
// become attributes (canonicalize), shape inference, constant evaluation (for the shape
// arithmetic PyTorch exports) and its FLOP count. One sorted line in src/ops/ops.def wires it in.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "asc/asc.h"
#include "asc/ir/graph.h"
#include "asc/ops/kernel.h"
#include "asc/support/status.h"

namespace asc::ops {

enum class Engine { AiCore, AiCpu };

/// How an op works on NC1HWC0 feature maps on the chip (the layout pass asks this).
enum class FiveHd {
  No,           // NCHW / ND only: TransData converts in front of it
  Elementwise,  // every non-constant input has the output's shape (Relu, Add ...)
  Windowed,     // a window or channel walk over the map (Conv, pooling, Concat on C ...)
};
/// How --precision_mode=allow_mix_precision treats an op.
enum class PrecisionClass {
  Normal,     // fp16
  Sensitive,  // accuracy suffers most in fp16 (Softmax, reductions, Exp ...): stays fp32
};
/// Which fused activations an op's kernel can apply to its output (fuse-conv-activation).
enum class ActivationPostOps { None, ReluOnly, Any };

/// The node attribute carrying an implementation choice (--op_select_implmode, the per-op form
/// of --op_blacklist): "high_precision" (fp32, the most accurate kernel) or "high_performance".
/// Kernels read it; the OM keeps it.
constexpr const char* kImplModeAttr = "_asc_impl_mode";
ASC_API const char* engineName(Engine e);  // "AI_CORE" / "AI_CPU"

/// What canonicalize and infer functions see of one node.
class ASC_API InferContext {
 public:
  InferContext(ir::Graph& g, ir::Node& n) : graph_(g), node_(n) {}
  ir::Graph& graph() { return graph_; }
  ir::Node& node() { return node_; }
  ir::Attrs& attrs() { return node_.attrs; }
  int opset() const { return graph_.opset; }

  size_t numInputs() const { return node_.inputs.size(); }
  bool hasInput(size_t i) const { return node_.input(i) != nullptr; }
  const ir::Value& input(size_t i) const { return *node_.inputs.at(i); }
  const ir::Shape& shape(size_t i) const { return input(i).shape; }
  ir::DType dtype(size_t i) const { return input(i).dtype; }
  int64_t rank(size_t i) const { return static_cast<int64_t>(shape(i).size()); }
  /// The constant data of input i, or nullptr when it is absent or not known at compile time.
  /// Asking for an input that is present but not constant records it (wantedValue()): when the
  /// node then fails, inferGraph reports it as the value the node needs (InferOptions::
  /// needs_value), and the runtime can bind it from the actual run (runtime/dynamic.h).
  const ir::Value* constInput(size_t i) const {
    auto* v = node_.input(i);
    if (v && !v->isConstant() && !wanted_) wanted_ = v;
    return v && v->isConstant() ? v : nullptr;
  }
  /// The first input asked for through constInput() that was not a constant, or nullptr.
  const ir::Value* wantedValue() const { return wanted_; }
  /// Moves constant input i into attribute `attr` as ints (or fails when it is not constant),
  /// and marks the input for removal. Absent inputs leave the attribute untouched.
  Status moveInputToInts(size_t i, const char* attr);
  Status moveInputToFloat(size_t i, const char* attr);
  /// Drops trailing inputs from index i on (after moving them into attributes).
  void truncateInputs(size_t n);

  void setOutput(size_t i, ir::DType dtype, ir::Shape shape);

  /// E10055: a valid model uses something asc-tools does not support (yet).
  template <typename... Args>
  Status unsupported(fmt::format_string<Args...> f, Args&&... args) const {
    return Status::error(ErrorCode::NotImplemented, "node '{}' ({}): {}", node_.name, node_.op_type,
                         fmt::format(f, std::forward<Args>(args)...));
  }

  /// E16001 "node 'n' (Op): <message>".
  template <typename... Args>
  Status fail(fmt::format_string<Args...> f, Args&&... args) const {
    return Status::error(ErrorCode::InvalidModel, "node '{}' ({}): {}", node_.name, node_.op_type,
                         fmt::format(f, std::forward<Args>(args)...));
  }

 private:
  ir::Graph& graph_;
  ir::Node& node_;
  mutable const ir::Value* wanted_ = nullptr;
};

using InferFn = Status (*)(InferContext&);
/// Evaluates a node whose inputs are all constant; returns one tensor per output.
using EvalFn = Result<std::vector<ir::Tensor>> (*)(const ir::Node&,
                                                   const std::vector<ir::Tensor>& inputs);
/// Floating-point operations of one execution (multiply-add = 2).
using FlopsFn = int64_t (*)(const ir::Node&);
/// Whether output 0, stored in layout `out`, is its inputs' bytes one after another in input
/// order (Concat when every dim before the axis is 1).
using JoinsFn = bool (*)(const ir::Node&, Layout out);

/// CANN's own spelling of one node, as a real OM has it (docs/om-format.md, "Op spellings"):
/// the op type, when it depends on the node (BatchMatMulV2 for a batched MatMul; empty: the
/// OpDef's cannType), and the attributes with CANN's names, ranks and encodings (Conv2D's
/// 4-element strides in data_format order, Cast's dst_type ...). The OM keeps the IR's own
/// attributes beside them under `_asc_ir_<name>`; our reader reads those.
using CannAttr = std::variant<int64_t, float, bool, std::string, std::vector<int64_t>,
                              std::vector<std::vector<int64_t>>>;
/// What a pooling op reduces each window with; the pool family's kernels read it from the OpDef
/// (never from the op's name). Global ops take the whole spatial extent as one window.
enum class PoolKind : uint8_t { None, Max, Average, Lp };
/// A recurrent op's cell; the rnn family's kernels read it from the OpDef.
enum class CellKind : uint8_t { None, Rnn, Gru, Lstm };
/// The per-element function of a one-input element-wise op (the math family, math_fn.h, and
/// the unary family); their kernels and constant folding apply the one the OpDef names (never
/// chosen by the op's name). The math family's float-only functions first, then those on
/// every numeric type, the float -> bool tests and the logical Not; then the unary family's.
enum class ScalarFn : uint8_t {
  None,
  Ceil,
  Floor,
  Round,
  Reciprocal,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Asinh,
  Acosh,
  Atanh,
  Softsign,
  Softplus,
  Mish,
  Elu,
  Celu,
  Selu,
  ThresholdedRelu,
  Shrink,  // float types
  Abs,
  Neg,
  BitwiseNot,
  Sign,  // every numeric type, integers exactly
  IsNaN,
  IsInf,  // float -> bool
  Not,    // bool -> bool
  // The unary family (float32, oneDNN's eltwise or a loop; unary_kernel.cpp).
  Relu,
  LeakyRelu,
  Sigmoid,
  Tanh,
  Erf,
  HardSigmoid,
  HardSwish,
  Clip,
  Gelu,
  Swish,
  Sqrt,
  Exp,
  Log,
};

struct CannSpelling {
  std::string type;
  std::vector<std::pair<std::string, CannAttr>> attrs;
  /// Parameters CANN takes as inputs where the IR has attributes (ClipByValue's bounds, TopKV2's
  /// k): the OM writes them as Const inputs after the node's own, and records how many of the
  /// inputs are the IR's.
  std::vector<std::pair<std::string, ir::Tensor>> const_inputs;
};
using CannSpellingFn = CannSpelling (*)(const ir::Node&);

class ASC_API OpDef {
 public:
  explicit OpDef(std::string name) : name_(name), cann_type_(std::move(name)) {}
  OpDef& onnx(int since_opset) {
    onnx_since_ = since_opset;
    return *this;
  }
  /// The ONNX domain of the operator's nodes ("" = the default domain; custom operators may
  /// have their own).
  OpDef& onnxDomain(std::string domain) {
    onnx_domain_ = std::move(domain);
    return *this;
  }
  OpDef& cann(std::string type) {
    cann_type_ = std::move(type);
    return *this;
  }
  OpDef& cannSpelling(CannSpellingFn f) {
    cann_spelling_ = f;
    return *this;
  }
  OpDef& engine(Engine e) {
    engine_ = e;
    return *this;
  }
  OpDef& inputs(int min, int max) {
    min_in_ = min;
    max_in_ = max;
    return *this;
  }
  OpDef& outputs(int min, int max) {
    min_out_ = min;
    max_out_ = max;
    return *this;
  }
  OpDef& canonicalize(InferFn f) {
    canon_ = f;
    return *this;
  }
  OpDef& inferShape(InferFn f) {
    infer_ = f;
    return *this;
  }
  OpDef& evalConst(EvalFn f) {
    eval_ = f;
    return *this;
  }
  /// The EvalFn reads only the dtypes and shapes of its inputs (Shape), so the node folds even
  /// when they are not constant; such inputs reach it as Tensors without data.
  OpDef& evalFromShapes() {
    eval_shapes_only_ = true;
    return *this;
  }
  OpDef& flops(FlopsFn f) {
    flops_ = f;
    return *this;
  }
  OpDef& summary(std::string s) {
    summary_ = std::move(s);
    return *this;
  }
  OpDef& kernel(KernelFactory f) {
    kernel_ = f;
    return *this;
  }
  OpDef& layout(LayoutFn f) {
    layout_ = f;
    return *this;
  }
  /// The kernel reads and writes every dtype itself (data movement, Cast): the runtime passes
  /// fp16 tensors through unconverted.
  OpDef& nativeDtypes() {
    native_dtypes_ = true;
    return *this;
  }
  /// The op reads or writes the float8 and int4/uint4 types by value (QuantizeLinear,
  /// DequantizeLinear). Besides these, only nativeDtypes ops (which move or convert elements)
  /// take them; inference refuses them for any other op, naming the node and the type.
  OpDef& narrowTypes() {
    narrow_types_ = true;
    return *this;
  }
  /// Output 0 has exactly the bytes of input 0 (Reshape, Flatten, Squeeze, Identity...): on
  /// plain tensors the runtime gives the output the input's buffer and runs nothing.
  OpDef& aliasesInput() {
    alias_ = true;
    return *this;
  }
  /// A Cube-unit op on the chip (matrix multiply: Conv, MatMul...): what a Vector Core cannot run
  /// and what allow_fp32_to_fp16 puts in fp16.
  OpDef& cube() {
    cube_ = true;
    return *this;
  }
  /// No model names this op: passes make it (Swish, TransData). Never read from ONNX.
  OpDef& internal() {
    internal_ = true;
    onnx_since_ = kNoOnnx;
    return *this;
  }
  /// An activation that fuses into a producer that takes activations (fuse-conv-activation).
  OpDef& fusableActivation() {
    fusable_activation_ = true;
    return *this;
  }
  /// The activations this op's kernel applies as a post-op.
  OpDef& takesActivations(ActivationPostOps p) {
    post_ops_ = p;
    return *this;
  }
  /// How the op works on NC1HWC0 (the layout pass).
  OpDef& works5hd(FiveHd f) {
    five_hd_ = f;
    return *this;
  }
  /// How allow_mix_precision treats the op.
  OpDef& precisionClass(PrecisionClass c) {
    precision_class_ = c;
    return *this;
  }
  /// The kernel can accumulate into input `i` (Conv's fused residual, a sum post-op), so its
  /// output may take that input's buffer when nothing reads it later (om/inplace.h).
  OpDef& accumulatesInto(int i) {
    accumulate_input_ = i;
    return *this;
  }

  OpDef& pooling(PoolKind k, bool global = false) {
    pool_kind_ = k;
    global_pool_ = global;
    return *this;
  }
  OpDef& recurrentCell(CellKind c) {
    cell_kind_ = c;
    return *this;
  }
  OpDef& scalarFunction(ScalarFn f) {
    scalar_fn_ = f;
    return *this;
  }
  /// Output 0 is its inputs' bytes one after another when `f` says so: the runtime may then
  /// place an input's buffer inside the output's, at its offset there, so that its producer
  /// writes the result and the kernel copies nothing for it (an input whose bytes are
  /// elsewhere, the kernel still copies).
  OpDef& joinsInputs(JoinsFn f) {
    joins_ = f;
    return *this;
  }

  const std::string& name() const { return name_; }
  const std::string& cannType() const { return cann_type_; }
  /// nullptr: the node's IR attributes are CANN's too (or CANN has no such op).
  CannSpellingFn cannSpellingFn() const { return cann_spelling_; }
  int onnxSince() const { return onnx_since_; }
  const std::string& onnxDomainName() const { return onnx_domain_; }
  Engine engineKind() const { return engine_; }
  int minInputs() const { return min_in_; }
  int maxInputs() const { return max_in_; }
  int minOutputs() const { return min_out_; }
  int maxOutputs() const { return max_out_; }
  InferFn canonicalizeFn() const { return canon_; }
  InferFn inferFn() const { return infer_; }
  EvalFn evalFn() const { return eval_; }
  bool evalNeedsOnlyShapes() const { return eval_shapes_only_; }
  FlopsFn flopsFn() const { return flops_; }
  const std::string& summaryText() const { return summary_; }
  KernelFactory kernelFactory() const { return kernel_; }
  /// nullptr: the op works on plain layouts only.
  LayoutFn layoutFn() const { return layout_; }
  bool hasNativeDtypes() const { return native_dtypes_; }
  bool takesNarrowTypes() const { return narrow_types_ || native_dtypes_; }
  bool aliasesInputBytes() const { return alias_; }
  bool isCube() const { return cube_; }
  bool isInternal() const { return internal_; }
  /// Registered at run time (registerOp), and by what ("" for an in-tree op).
  bool isRegistered() const { return !origin_.empty(); }
  const std::string& origin() const { return origin_; }
  void markRegistered(std::string origin) { origin_ = std::move(origin); }
  bool isFusableActivation() const { return fusable_activation_; }
  ActivationPostOps activationPostOps() const { return post_ops_; }
  FiveHd fiveHd() const { return five_hd_; }
  PrecisionClass precision() const { return precision_class_; }
  /// The input the kernel can accumulate into, or -1.
  int accumulateInput() const { return accumulate_input_; }
  /// nullptr: the output never holds its inputs' bytes in order.
  JoinsFn joinsInputsFn() const { return joins_; }
  PoolKind poolKind() const { return pool_kind_; }
  bool isGlobalPool() const { return global_pool_; }
  CellKind cellKind() const { return cell_kind_; }
  ScalarFn scalarFn() const { return scalar_fn_; }

 private:
  std::string name_, cann_type_;
  CannSpellingFn cann_spelling_ = nullptr;
  std::string onnx_domain_;
  int onnx_since_ = 1;
  Engine engine_ = Engine::AiCore;
  int min_in_ = 1, max_in_ = 1, min_out_ = 1, max_out_ = 1;
  InferFn canon_ = nullptr, infer_ = nullptr;
  EvalFn eval_ = nullptr;
  bool eval_shapes_only_ = false;
  FlopsFn flops_ = nullptr;
  KernelFactory kernel_ = nullptr;
  LayoutFn layout_ = nullptr;
  bool native_dtypes_ = false;
  bool narrow_types_ = false;
  bool alias_ = false;
  bool cube_ = false;
  static constexpr int kNoOnnx = 1 << 30;
  bool internal_ = false;
  std::string origin_;
  bool fusable_activation_ = false;
  ActivationPostOps post_ops_ = ActivationPostOps::None;
  FiveHd five_hd_ = FiveHd::No;
  PrecisionClass precision_class_ = PrecisionClass::Normal;
  int accumulate_input_ = -1;
  std::string summary_;
  JoinsFn joins_ = nullptr;
  PoolKind pool_kind_ = PoolKind::None;
  bool global_pool_ = false;
  CellKind cell_kind_ = CellKind::None;
  ScalarFn scalar_fn_ = ScalarFn::None;
};

}  // namespace asc::ops
