// binary.cpp: broadcasting element-wise ops with two or more inputs: Add, Sub, Mul, Div (-> CANN
// RealDiv), Pow, Mod (-> FloorMod), BitShift, the comparisons Equal, Greater, Less,
// GreaterOrEqual and LessOrEqual (bool output), And/Or/Xor (bool), the variadic Sum (-> AddN),
// Mean, Max (-> Maximum) and Min (-> Minimum), and Where (-> SelectV2). All follow numpy
// broadcasting; the legacy (opset < 7) `broadcast`/`axis` attributes are accepted when they mean
// the same thing and then dropped. All fold on constant inputs; integer math wraps like two's
// complement and Div truncates toward zero like C (dividing by zero is an error).
#include <cmath>
#include <functional>
#include <limits>

#include "ops/op_util.h"
#include "binary_kernel.h"

namespace asc::ops {
namespace {

template <typename... Args>
Status evalFail(const ir::Node& n, fmt::format_string<Args...> f, Args&&... args) {
  return Status::error(ErrorCode::InvalidModel, "node '{}' ({}): {}", n.name, n.op_type,
                       fmt::format(f, std::forward<Args>(args)...));
}

int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

int64_t intPow(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 1) return 1;
    if (base == -1) return exp % 2 == 0 ? 1 : -1;
    return 0;  // |base| > 1: the exact result rounds to 0 (base 0: undefined, 0 chosen)
  }
  int64_t r = 1;
  while (exp > 0) {
    if (exp & 1) r = wrapMul(r, base);
    base = wrapMul(base, base);
    exp >>= 1;
  }
  return r;
}

// Opset < 7 Add/Sub/Mul/Div/Pow/Equal: broadcast=1 with axis=k aligns B's dims with A's from k
// on. That equals numpy broadcasting only when B's dims end at A's last dim.
Status canonLegacyBroadcast(InferContext& ctx) {
  if (ctx.opset() >= 7) return Status::ok();
  if (ctx.attrs().getInt("broadcast", 0) != 0 && ctx.attrs().has("axis")) {
    int64_t ra = ctx.rank(0), rb = ctx.rank(1);
    int64_t axis = ctx.attrs().getInt("axis", 0);
    auto a = normalizeAxis(axis, ra);
    if (!a) return ctx.fail("legacy broadcast axis {} is out of range for rank {}", axis, ra);
    if (*a + rb != ra)
      return ctx.fail(
          "legacy broadcast of [{}] to [{}] at axis {} is not numpy broadcasting "
          "and is not supported; export the model with opset >= 7",
          ir::shapeToString(ctx.shape(1)), ir::shapeToString(ctx.shape(0)), axis);
  }
  ctx.attrs().erase("broadcast");
  ctx.attrs().erase("axis");
  ctx.attrs().erase("consumed_inputs");
  return Status::ok();
}

// Checks that inputs [first, numInputs) share one dtype.
Status checkSameDtypes(InferContext& ctx, size_t first) {
  for (size_t i = first + 1; i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i) && ctx.dtype(i) != ctx.dtype(first))
      return ctx.fail("input {} has dtype {}, input {} has {}; they must match", i,
                      ir::dtypeName(ctx.dtype(i)), first, ir::dtypeName(ctx.dtype(first)));
  return Status::ok();
}

Status inferArith(InferContext& ctx) {
  size_t k = ctx.numInputs();
  while (k > 0 && !ctx.hasInput(k - 1)) --k;
  for (size_t i = 0; i < k; ++i)  // Sum/Max/Min: no gaps in the input list
    if (!ctx.hasInput(i)) return ctx.fail("input {} is empty (omitted)", i);
  ASC_RETURN_IF_ERROR(checkSameDtypes(ctx, 0));
  if (ctx.dtype(0) == ir::DType::Bool)
    return ctx.fail("arithmetic on bool inputs is not supported");
  return inferBroadcast(ctx);
}

Status inferPow(InferContext& ctx) {
  if (ctx.dtype(0) == ir::DType::Bool || ctx.dtype(1) == ir::DType::Bool)
    return ctx.fail("Pow does not take bool inputs");
  return inferBroadcast(ctx);  // the exponent may have another dtype (opset 12+)
}

Status inferEqual(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkSameDtypes(ctx, 0));
  ASC_RETURN_IF_ERROR(inferBroadcast(ctx));
  ctx.setOutput(0, ir::DType::Bool, ctx.node().outputs[0]->shape);
  return Status::ok();
}

Status inferLogic(InferContext& ctx) {
  for (size_t i = 0; i < 2; ++i)
    if (ctx.dtype(i) != ir::DType::Bool)
      return ctx.fail("input {} has dtype {}, expected bool", i, ir::dtypeName(ctx.dtype(i)));
  return inferBroadcast(ctx);
}

Status inferBitwise(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkSameDtypes(ctx, 0));
  if (!ir::isInteger(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not an integer type", ir::dtypeName(ctx.dtype(0)));
  return inferBroadcast(ctx);
}

Status inferBitShift(InferContext& ctx) {
  ASC_RETURN_IF_ERROR(checkSameDtypes(ctx, 0));
  const ir::DType t = ctx.dtype(0);
  if (t != ir::DType::U8 && t != ir::DType::U16 && t != ir::DType::U32 && t != ir::DType::U64)
    return ctx.fail("input dtype {} is not an unsigned integer type", ir::dtypeName(t));
  const std::string dir = ctx.attrs().getString("direction", "");
  if (dir != "LEFT" && dir != "RIGHT") return ctx.fail("direction '{}' must be LEFT or RIGHT", dir);
  return inferBroadcast(ctx);
}

Status inferMod(InferContext& ctx) {
  const int64_t fmod = ctx.attrs().getInt("fmod", 0);
  if (fmod != 0 && fmod != 1) return ctx.fail("fmod {} must be 0 or 1", fmod);
  if (ir::isFloat(ctx.dtype(0)) && fmod == 0)
    return ctx.fail("a float Mod needs fmod=1 (the ONNX rule)");
  return inferArith(ctx);
}

Status inferWhere(InferContext& ctx) {
  if (ctx.dtype(0) != ir::DType::Bool)
    return ctx.fail("condition (input 0) has dtype {}, expected bool", ir::dtypeName(ctx.dtype(0)));
  ASC_RETURN_IF_ERROR(checkSameDtypes(ctx, 1));
  ASC_RETURN_IF_ERROR(inferBroadcast(ctx));
  ctx.setOutput(0, ctx.dtype(1), ctx.node().outputs[0]->shape);
  return Status::ok();
}

// Number of inputs without the trailing omitted ones (they reach eval as empty tensors).
size_t presentInputs(const std::vector<ir::Tensor>& in) {
  size_t k = in.size();
  while (k > 0 && !in[k - 1].data) --k;
  return k;
}

Result<std::vector<ir::Tensor>> evalWith(const ir::Node& n, const std::vector<ir::Tensor>& in,
                                         const std::function<double(const double*)>& ff,
                                         const std::function<int64_t(const int64_t*)>& fi) {
  const ir::Value* out = n.outputs[0];
  std::vector<ir::Tensor> args(in.begin(), in.begin() + presentInputs(in));
  auto r = evalBroadcast(args, out->dtype, out->shape, ff, fi);
  if (!r) return r.status();
  return std::vector<ir::Tensor>{*r};
}

Result<std::vector<ir::Tensor>> evalAdd(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return evalWith(
      n, in, [](const double* a) { return a[0] + a[1]; },
      [](const int64_t* a) { return wrapAdd(a[0], a[1]); });
}

Result<std::vector<ir::Tensor>> evalSub(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return evalWith(
      n, in, [](const double* a) { return a[0] - a[1]; },
      [](const int64_t* a) { return wrapSub(a[0], a[1]); });
}

Result<std::vector<ir::Tensor>> evalMul(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return evalWith(
      n, in, [](const double* a) { return a[0] * a[1]; },
      [](const int64_t* a) { return wrapMul(a[0], a[1]); });
}

Result<std::vector<ir::Tensor>> evalDiv(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  bool by_zero = false;
  auto r = evalWith(
      n, in, [](const double* a) { return a[0] / a[1]; },
      [&by_zero](const int64_t* a) -> int64_t {
        if (a[1] == 0) {
          by_zero = true;
          return 0;
        }
        if (a[1] == -1) return wrapSub(0, a[0]);  // INT64_MIN / -1 wraps
        return a[0] / a[1];
      });
  if (by_zero) return evalFail(n, "integer division by zero in constant inputs");
  return r;
}

Result<std::vector<ir::Tensor>> evalPow(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return evalWith(
      n, in, [](const double* a) { return std::pow(a[0], a[1]); },
      [](const int64_t* a) { return intPow(a[0], a[1]); });
}

Result<std::vector<ir::Tensor>> evalEqual(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return evalWith(
      n, in, [](const double* a) { return a[0] == a[1] ? 1.0 : 0.0; },
      [](const int64_t* a) -> int64_t { return a[0] == a[1]; });
}

template <typename Cmp>
Result<std::vector<ir::Tensor>> evalCompare(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return evalWith(
      n, in, [](const double* a) { return Cmp()(a[0], a[1]) ? 1.0 : 0.0; },
      [](const int64_t* a) -> int64_t { return Cmp()(a[0], a[1]); });
}

Result<std::vector<ir::Tensor>> evalLogic(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const std::string& t = n.op_type;
  return evalWith(
      n, in, [](const double*) { return 0.0; },
      [&t](const int64_t* a) -> int64_t {
        const bool x = a[0] != 0, y = a[1] != 0;
        return t == "And" ? x && y : t == "Or" ? x || y : x != y;
      });
}

Result<std::vector<ir::Tensor>> evalMod(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const bool c_fmod = n.attrs.getInt("fmod", 0) != 0;
  return evalWith(
      n, in,
      [c_fmod](const double* a) {
        double r = std::fmod(a[0], a[1]);
        if (!c_fmod && r != 0 && ((r < 0) != (a[1] < 0))) r += a[1];
        return r;
      },
      [c_fmod](const int64_t* a) -> int64_t {
        if (a[1] == 0 || a[1] == -1) return 0;
        int64_t r = a[0] % a[1];
        if (!c_fmod && r != 0 && ((r < 0) != (a[1] < 0))) r += a[1];
        return r;
      });
}

Result<std::vector<ir::Tensor>> evalBitwise(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const std::string& t = n.op_type;
  return evalWith(
      n, in, [](const double*) { return 0.0; },
      [&t](const int64_t* a) -> int64_t {
        return t == "BitwiseAnd" ? a[0] & a[1] : t == "BitwiseOr" ? a[0] | a[1] : a[0] ^ a[1];
      });
}

Result<std::vector<ir::Tensor>> evalBitShift(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const bool left = n.attrs.getString("direction", "") == "LEFT";
  const int bits = static_cast<int>(ir::dtypeSize(n.outputs[0]->dtype) * 8);
  return evalWith(
      n, in, [](const double*) { return 0.0; },
      [left, bits](const int64_t* a) -> int64_t {
        const uint64_t x = static_cast<uint64_t>(a[0]), s = static_cast<uint64_t>(a[1]);
        if (s >= static_cast<uint64_t>(bits)) return 0;
        uint64_t r = left ? x << s : x >> s;
        if (bits < 64) r &= (uint64_t{1} << bits) - 1;
        return static_cast<int64_t>(r);
      });
}

Result<std::vector<ir::Tensor>> evalWhere(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  return evalWith(
      n, in, [](const double* a) { return a[0] != 0 ? a[1] : a[2]; },
      [](const int64_t* a) { return a[0] != 0 ? a[1] : a[2]; });
}

Result<std::vector<ir::Tensor>> evalSum(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const size_t k = presentInputs(in);
  return evalWith(
      n, in,
      [k](const double* a) {
        double s = 0;
        for (size_t i = 0; i < k; ++i) s += a[i];
        return s;
      },
      [k](const int64_t* a) {
        int64_t s = 0;
        for (size_t i = 0; i < k; ++i) s = wrapAdd(s, a[i]);
        return s;
      });
}

Result<std::vector<ir::Tensor>> evalMean(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const size_t k = presentInputs(in);
  return evalWith(
      n, in,
      [k](const double* a) {
        double s = 0;
        for (size_t i = 0; i < k; ++i) s += a[i];
        return s / static_cast<double>(k);
      },
      [](const int64_t*) -> int64_t { return 0; });
}

template <bool kMax>
Result<std::vector<ir::Tensor>> evalExtreme(const ir::Node& n, const std::vector<ir::Tensor>& in) {
  const size_t k = presentInputs(in);
  return evalWith(
      n, in,
      [k](const double* a) {
        double m = a[0];
        for (size_t i = 1; i < k; ++i) {
          if (std::isnan(a[i]) || std::isnan(m)) return std::numeric_limits<double>::quiet_NaN();
          if (kMax ? a[i] > m : a[i] < m) m = a[i];
        }
        return m;
      },
      [k](const int64_t* a) {
        int64_t m = a[0];
        for (size_t i = 1; i < k; ++i)
          if (kMax ? a[i] > m : a[i] < m) m = a[i];
        return m;
      });
}

int64_t perOutput(const ir::Node& n) { return n.outputs[0]->numel(); }
int64_t variadicFlops(const ir::Node& n) {
  int64_t k = static_cast<int64_t>(n.inputs.size());
  return n.outputs[0]->numel() * (k > 1 ? k - 1 : 0);
}

constexpr int kVariadic = 1 << 20;

/// What every two-input broadcasting op shares: the binary kernel and layout, opset-6 broadcast
/// attributes canonicalized, one operation per output element.
OpDef binaryOp(const char* name, int since, InferFn infer, EvalFn eval, const char* summary) {
  return OpDef(name)
      .kernel(createBinaryKernel)
      .layout(binaryLayout)
      .onnx(since)
      .inputs(2, 2)
      .canonicalize(canonLegacyBroadcast)
      .inferShape(infer)
      .evalConst(eval)
      .flops(perOutput)
      .summary(summary);
}

OpDef arith(const char* name, const char* cann, EvalFn eval, const char* summary) {
  return binaryOp(name, 1, inferArith, eval, summary).works5hd(FiveHd::Elementwise).cann(cann);
}

/// Sum, Mean, Max and Min: one or more inputs, broadcasting, one operation per input element.
OpDef variadicOp(const char* name, const char* cann, InferFn infer, EvalFn eval,
                 const char* summary) {
  OpDef d = OpDef(name)
                .kernel(createBinaryKernel)
                .layout(binaryLayout)
                .onnx(1)
                .inputs(1, kVariadic)
                .inferShape(infer)
                .evalConst(eval)
                .flops(variadicFlops)
                .summary(summary);
  if (*cann) d.cann(cann);
  return d;
}

}  // namespace

const OpDef& defAdd() {
  static const OpDef d = arith("Add", "Add", evalAdd, "a + b, broadcasting");
  return d;
}

const OpDef& defSub() {
  static const OpDef d = arith("Sub", "Sub", evalSub, "a - b, broadcasting");
  return d;
}

const OpDef& defMul() {
  static const OpDef d = arith("Mul", "Mul", evalMul, "a * b, broadcasting");
  return d;
}

const OpDef& defDiv() {
  static const OpDef d =
      arith("Div", "RealDiv", evalDiv, "a / b, broadcasting; integers truncate toward zero")
          .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defPow() {
  static const OpDef d =
      binaryOp("Pow", 1, inferPow, evalPow, "a ^ b, broadcasting; output has a's dtype")
          .precisionClass(PrecisionClass::Sensitive);
  return d;
}

const OpDef& defEqual() {
  static const OpDef d =
      binaryOp("Equal", 1, inferEqual, evalEqual, "a == b, broadcasting; bool output");
  return d;
}

const OpDef& defSum() {
  static const OpDef d = variadicOp("Sum", "AddN", inferArith, evalSum,
                                    "element-wise sum of 1 or more inputs, broadcasting");
  return d;
}

// Mean runs as Sum then a scale by 1/k (the kernel's last step); float inputs only.
static Status inferMean(InferContext& ctx) {
  if (!ir::isFloat(ctx.dtype(0)))
    return ctx.fail("input dtype {} is not a float type", ir::dtypeName(ctx.dtype(0)));
  return inferArith(ctx);
}

const OpDef& defMean() {
  static const OpDef d = variadicOp("Mean", "", inferMean, evalMean,
                                    "element-wise mean of 1 or more inputs, broadcasting");
  return d;
}

const OpDef& defMax() {
  static const OpDef d = variadicOp("Max", "Maximum", inferArith, evalExtreme<true>,
                                    "element-wise maximum of 1 or more inputs, broadcasting");
  return d;
}

const OpDef& defMin() {
  static const OpDef d = variadicOp("Min", "Minimum", inferArith, evalExtreme<false>,
                                    "element-wise minimum of 1 or more inputs, broadcasting");
  return d;
}

const OpDef& defWhere() {
  static const OpDef d = OpDef("Where")
                             .kernel(createBinaryKernel)
                             .layout(binaryLayout)
                             .onnx(9)
                             .cann("SelectV2")
                             .inputs(3, 3)
                             .inferShape(inferWhere)
                             .evalConst(evalWhere)
                             .flops(perOutput)
                             .summary("cond ? x : y, broadcasting; cond is bool");
  return d;
}

}  // namespace asc::ops

namespace asc::ops {
namespace {

OpDef compareOp(const char* name, int since, const char* cann, EvalFn eval, const char* summary) {
  return binaryOp(name, since, inferEqual, eval, summary).cann(cann);
}

OpDef logicOp(const char* name, const char* cann, const char* summary) {
  return binaryOp(name, 1, inferLogic, evalLogic, summary).cann(cann);
}

}  // namespace

const OpDef& defGreater() {
  static const OpDef d = compareOp("Greater", 1, "Greater", evalCompare<std::greater<>>,
                                   "a > b, broadcasting; bool output");
  return d;
}

const OpDef& defLess() {
  static const OpDef d =
      compareOp("Less", 1, "Less", evalCompare<std::less<>>, "a < b, broadcasting; bool output");
  return d;
}

const OpDef& defGreaterOrEqual() {
  static const OpDef d =
      compareOp("GreaterOrEqual", 12, "GreaterEqual", evalCompare<std::greater_equal<>>,
                "a >= b, broadcasting; bool output");
  return d;
}

const OpDef& defLessOrEqual() {
  static const OpDef d = compareOp("LessOrEqual", 12, "LessEqual", evalCompare<std::less_equal<>>,
                                   "a <= b, broadcasting; bool output");
  return d;
}

const OpDef& defAnd() {
  static const OpDef d = logicOp("And", "LogicalAnd", "a and b on bool tensors, broadcasting");
  return d;
}

const OpDef& defOr() {
  static const OpDef d = logicOp("Or", "LogicalOr", "a or b on bool tensors, broadcasting");
  return d;
}

const OpDef& defXor() {
  static const OpDef d = logicOp("Xor", "LogicalXor", "a xor b on bool tensors, broadcasting");
  return d;
}

const OpDef& defBitwiseAnd() {
  static const OpDef d =
      binaryOp("BitwiseAnd", 18, inferBitwise, evalBitwise, "a & b on integers, broadcasting")
          .cann("BitwiseAnd");
  return d;
}

const OpDef& defBitwiseOr() {
  static const OpDef d =
      binaryOp("BitwiseOr", 18, inferBitwise, evalBitwise, "a | b on integers, broadcasting")
          .cann("BitwiseOr");
  return d;
}

const OpDef& defBitwiseXor() {
  static const OpDef d =
      binaryOp("BitwiseXor", 18, inferBitwise, evalBitwise, "a ^ b on integers, broadcasting")
          .cann("BitwiseXor");
  return d;
}

const OpDef& defBitShift() {
  static const OpDef d = OpDef("BitShift")
                             .kernel(createBinaryKernel)
                             .layout(binaryLayout)
                             .onnx(11)
                             .inputs(2, 2)
                             .inferShape(inferBitShift)
                             .evalConst(evalBitShift)
                             .flops(perOutput)
                             .summary("x << y or x >> y (direction) on unsigned integers");
  return d;
}

const OpDef& defMod() {
  static const OpDef d =
      OpDef("Mod")
          .kernel(createBinaryKernel)
          .layout(binaryLayout)
          .onnx(10)
          .cann("FloorMod")
          .inputs(2, 2)
          .inferShape(inferMod)
          .evalConst(evalMod)
          .flops(perOutput)
          .summary("remainder, broadcasting: sign of the divisor (fmod=0) or of x (fmod=1)");
  return d;
}

}  // namespace asc::ops
