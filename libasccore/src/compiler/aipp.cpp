// aipp.cpp: the compiler's AIPP step (atc --insert_op_conf). Reads the configuration in
// protobuf text format (domi.InsertNewOps, src/proto/insert_op.proto), checks every aipp_op block
// against the model, and puts an Aipp op (src/ops/aipp) in front of the model input it names:
// that input becomes the raw uint8 image, and the Aipp output is the fp32 NCHW tensor the
// model's first layer read before. Errors name the file, the line and the field: E13018 when the
// text does not parse (unknown field, bad value type), E10052 for a value the AIPP unit cannot
// take, E10055 for what asc-tools does not implement (dynamic AIPP, resize, rotation ...).
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "asc/compiler/compile.h"
#include "support/text_proto_errors.h"
#include "asc/ops/registry.h"
#include "asc/support/file.h"
#include "asc/support/log.h"
#include "insert_op.pb.h"
#include "ops/aipp/aipp_params.h"

namespace asc {
namespace {

namespace pb = google::protobuf;
using Tree = pb::TextFormat::ParseInfoTree;

// Checks one aipp_op block; `where(field)` gives "file:line" of a field (or of the block).
class BlockChecker {
 public:
  BlockChecker(const domi::AippOpParams& op, const Tree* tree, std::string source, int block_line)
      : op_(op), tree_(tree), source_(std::move(source)), block_line_(block_line) {}

  std::string where(const char* field = nullptr, int index = -1) const {
    int line = block_line_;
    if (field && tree_) {
      const pb::FieldDescriptor* f = op_.GetDescriptor()->FindFieldByName(field);
      if (f) {
        const auto loc = tree_->GetLocation(f, f->is_repeated() ? std::max(index, 0) : -1);
        if (loc.line >= 0) line = loc.line;
      }
    }
    return fmt::format("{}:{}", source_, line + 1);
  }

  template <typename... Args>
  Status invalid(const char* field, fmt::format_string<Args...> f, Args&&... args) const {
    return Status::error(ErrorCode::AippConfigInvalid,
                         "AIPP configuration is invalid. Reason: {}: {}. See docs/aipp.md",
                         where(field), fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  Status unsupported(const char* field, fmt::format_string<Args...> f, Args&&... args) const {
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: {}: {}", where(field),
                         fmt::format(f, std::forward<Args>(args)...));
  }

  // An int32 field within [lo, hi].
  Status range(const char* field, int64_t v, int64_t lo, int64_t hi) const {
    if (v < lo || v > hi) return invalid(field, "{} is {}, outside [{}, {}]", field, v, lo, hi);
    return Status::ok();
  }
  // A repeated field of static AIPP: at most one value (the default when absent).
  template <typename T>
  Result<T> single(const char* field, const pb::RepeatedField<T>& values, T def) const {
    if (values.size() > 1)
      return invalid(field, "{} takes one value in static AIPP, not {}", field, values.size());
    return values.empty() ? def : values[0];
  }

 private:
  const domi::AippOpParams& op_;
  const Tree* tree_;
  std::string source_;
  int block_line_;
};

// Which model input a block feeds.
Result<size_t> relatedInput(const ir::Graph& g, const domi::AippOpParams& op,
                            const BlockChecker& c) {
  auto names = [&] {
    std::string s;
    for (const auto* v : g.inputs) s += (s.empty() ? "'" : ", '") + v->name + "'";
    return s;
  };
  if (!op.related_input_name().empty()) {
    for (size_t i = 0; i < g.inputs.size(); ++i)
      if (g.inputs[i]->name == op.related_input_name()) {
        if (op.related_input_rank() != 0 && op.related_input_rank() != i)
          return c.invalid("related_input_rank",
                           "related_input_rank {} and related_input_name '{}' (input {}) name "
                           "different inputs",
                           op.related_input_rank(), op.related_input_name(), i);
        return i;
      }
    return c.invalid("related_input_name", "related_input_name '{}' is not a model input ({})",
                     op.related_input_name(), names());
  }
  if (op.related_input_rank() >= g.inputs.size())
    return c.invalid("related_input_rank",
                     "related_input_rank {} is not a model input: the model has {} input(s) "
                     "({})",
                     op.related_input_rank(), g.inputs.size(), names());
  return static_cast<size_t>(op.related_input_rank());
}

// The resolved parameters of one block for the model input `in`.
Result<ops::aipp::Params> resolve(const domi::AippOpParams& op, const ir::Value& in,
                                  const BlockChecker& c) {
  using F = domi::AippOpParams;
  if (op.aipp_mode() == F::dynamic)
    return c.unsupported("aipp_mode",
                         "aipp_mode: dynamic (dynamic AIPP) is not supported by asc-tools yet; "
                         "use aipp_mode: static");
  if (op.aipp_mode() != F::static_)
    return c.invalid(nullptr, "aipp_mode is not set; write aipp_mode: static");
  ops::aipp::Params p;
  switch (op.input_format()) {
    case F::UNDEFINED:
      return c.invalid(nullptr,
                       "input_format is missing; it is required (YUV420SP_U8, XRGB8888_U8, "
                       "RGB888_U8 or YUV400_U8)");
    case F::YUV420SP_U8:
      p.format = ops::aipp::Format::Yuv420sp;
      break;
    case F::XRGB8888_U8:
      p.format = ops::aipp::Format::Xrgb8888;
      break;
    case F::RGB888_U8:
      p.format = ops::aipp::Format::Rgb888;
      break;
    case F::YUV400_U8:
      p.format = ops::aipp::Format::Yuv400;
      break;
    default:
      return c.unsupported("input_format",
                           "input_format: {} is not supported by asc-tools; static AIPP takes "
                           "YUV420SP_U8, XRGB8888_U8, RGB888_U8 or YUV400_U8",
                           F::InputFormat_Name(op.input_format()));
  }
  // What asc-tools does not implement is refused, never ignored.
  if (op.resize())
    return c.unsupported("resize",
                         "resize: true (AIPP resizing) is not supported by asc-tools yet; resize "
                         "the image before inference or set --input_shape to its size");
  if (op.support_rotation())
    return c.unsupported("support_rotation", "support_rotation is not supported by asc-tools");
  if (op.single_line_mode())
    return c.unsupported("single_line_mode", "single_line_mode is not supported by asc-tools");
  if (op.input_edge_idx_size())
    return c.unsupported("input_edge_idx", "input_edge_idx is not supported by asc-tools");
  if (op.raw_rgbir_to_f16_n())
    return c.unsupported("raw_rgbir_to_f16_n", "raw_rgbir_to_f16_n is not supported");
  if (op.max_src_image_size())
    return c.invalid("max_src_image_size", "max_src_image_size belongs to dynamic AIPP");
  if (op.csc_switch() && p.format == ops::aipp::Format::Yuv400)
    return c.invalid("csc_switch", "csc_switch is not available for YUV400_U8 input");

  // The model input: fp32 NCHW with fixed dims.
  if (in.shape.size() != 4 || !ir::isFloat(in.dtype) ||
      std::any_of(in.shape.begin(), in.shape.end(), [](int64_t d) { return d <= 0; }))
    return c.invalid(nullptr,
                     "model input '{}' is {} [{}]; AIPP feeds a 4-D float NCHW input of fixed "
                     "size",
                     in.name, ir::dtypeName(in.dtype), ir::shapeToString(in.shape));
  const int64_t C = in.shape[1], H = in.shape[2], W = in.shape[3];
  if (C > ops::aipp::pixelChannels(p.format))
    return c.invalid("input_format", "model input '{}' has {} channels; {} gives at most {}",
                     in.name, C, F::InputFormat_Name(op.input_format()),
                     ops::aipp::pixelChannels(p.format));
  p.channels = C;

  // Switches, normalisation and CSC values (CANN's documented ranges).
  p.rbuv_swap = op.rbuv_swap_switch();
  p.ax_swap = op.ax_swap_switch();
  p.csc = op.csc_switch();
  const int32_t means[4] = {op.mean_chn_0(), op.mean_chn_1(), op.mean_chn_2(), op.mean_chn_3()};
  const float mins[4] = {op.min_chn_0(), op.min_chn_1(), op.min_chn_2(), op.min_chn_3()};
  const pb::RepeatedField<float>* vars[4] = {&op.var_reci_chn_0(), &op.var_reci_chn_1(),
                                             &op.var_reci_chn_2(), &op.var_reci_chn_3()};
  for (int i = 0; i < 4; ++i) {
    const std::string mean_f = fmt::format("mean_chn_{}", i);
    const std::string min_f = fmt::format("min_chn_{}", i);
    const std::string var_f = fmt::format("var_reci_chn_{}", i);
    ASC_RETURN_IF_ERROR(c.range(mean_f.c_str(), means[i], 0, 255));
    if (!(mins[i] >= 0.f && mins[i] <= 255.f))
      return c.invalid(min_f.c_str(), "{} is {}, outside [0, 255]", min_f, mins[i]);
    ASC_TRY(float var, c.single(var_f.c_str(), *vars[i], 1.f));
    if (!(var >= -65504.f && var <= 65504.f))
      return c.invalid(var_f.c_str(), "{} is {}, outside [-65504, 65504]", var_f, var);
    p.mean[i] = static_cast<float>(means[i]);
    p.min[i] = mins[i];
    p.var_reci[i] = var;
  }
  const pb::RepeatedField<int32_t>* matrix[9] = {
      &op.matrix_r0c0(), &op.matrix_r0c1(), &op.matrix_r0c2(), &op.matrix_r1c0(), &op.matrix_r1c1(),
      &op.matrix_r1c2(), &op.matrix_r2c0(), &op.matrix_r2c1(), &op.matrix_r2c2()};
  for (int i = 0; i < 9; ++i) {
    const std::string f = fmt::format("matrix_r{}c{}", i / 3, i % 3);
    ASC_TRY(p.matrix[i], c.single(f.c_str(), *matrix[i], 0));
    ASC_RETURN_IF_ERROR(c.range(f.c_str(), p.matrix[i], -32768, 32767));
  }
  const pb::RepeatedField<int32_t>* in_bias[3] = {&op.input_bias_0(), &op.input_bias_1(),
                                                  &op.input_bias_2()};
  const pb::RepeatedField<int32_t>* out_bias[3] = {&op.output_bias_0(), &op.output_bias_1(),
                                                   &op.output_bias_2()};
  for (int i = 0; i < 3; ++i) {
    const std::string fi = fmt::format("input_bias_{}", i), fo = fmt::format("output_bias_{}", i);
    ASC_TRY(p.input_bias[i], c.single(fi.c_str(), *in_bias[i], 0));
    ASC_RETURN_IF_ERROR(c.range(fi.c_str(), p.input_bias[i], 0, 255));
    ASC_TRY(p.output_bias[i], c.single(fo.c_str(), *out_bias[i], 0));
    ASC_RETURN_IF_ERROR(c.range(fo.c_str(), p.output_bias[i], 0, 255));
  }
  if (p.csc && std::all_of(p.matrix.begin(), p.matrix.end(), [](int32_t m) { return m == 0; }))
    return c.invalid("csc_switch", "csc_switch is true but every matrix_r*c* is 0");

  // Values whose switch is off do nothing, as on the NPU; say so, since it is usually a slip.
  if (!op.crop() &&
      (op.load_start_pos_w() || op.load_start_pos_h() || op.crop_size_w() || op.crop_size_h()))
    ASC_LOG_WARN("{}: load_start_pos/crop_size are set but crop is false: no crop",
                 c.where("crop"));
  if (!op.padding() && (op.left_padding_size() || op.right_padding_size() ||
                        op.top_padding_size() || op.bottom_padding_size()))
    ASC_LOG_WARN("{}: *_padding_size is set but padding is false: no padding", c.where("padding"));
  if (!p.csc && std::any_of(p.matrix.begin(), p.matrix.end(), [](int32_t m) { return m != 0; }))
    ASC_LOG_WARN("{}: matrix_r*c* is set but csc_switch is false: no colour-space conversion",
                 c.where("csc_switch"));
  if (op.cpadding_value() != 0.f)
    ASC_LOG_INFO("{}: cpadding_value fills the NPU's C0 channel padding; no effect on the CPU",
                 c.where("cpadding_value"));
  if (!std::isfinite(op.padding_value()))
    return c.invalid("padding_value", "padding_value must be a finite number");

  // Geometry: padding around the crop window gives the model input's H x W.
  if (op.padding()) {
    ASC_RETURN_IF_ERROR(c.range("top_padding_size", op.top_padding_size(), 0, 32));
    ASC_RETURN_IF_ERROR(c.range("bottom_padding_size", op.bottom_padding_size(), 0, 32));
    ASC_RETURN_IF_ERROR(c.range("left_padding_size", op.left_padding_size(), 0, 32));
    ASC_RETURN_IF_ERROR(c.range("right_padding_size", op.right_padding_size(), 0, 32));
    p.pad_top = op.top_padding_size();
    p.pad_bottom = op.bottom_padding_size();
    p.pad_left = op.left_padding_size();
    p.pad_right = op.right_padding_size();
    p.pad_value = op.padding_value();
  }
  const int64_t inner_h = H - p.pad_top - p.pad_bottom, inner_w = W - p.pad_left - p.pad_right;
  if (inner_h < 1 || inner_w < 1)
    return c.invalid("top_padding_size",
                     "the padding ({} + {} rows, {} + {} columns) leaves nothing of model input "
                     "'{}' ({}x{})",
                     p.pad_top, p.pad_bottom, p.pad_left, p.pad_right, in.name, H, W);
  ASC_RETURN_IF_ERROR(c.range("src_image_size_w", op.src_image_size_w(), 0, 4096));
  ASC_RETURN_IF_ERROR(c.range("src_image_size_h", op.src_image_size_h(), 0, 4096));
  if (op.crop()) {
    ASC_RETURN_IF_ERROR(c.range("load_start_pos_w", op.load_start_pos_w(), 0, 4095));
    ASC_RETURN_IF_ERROR(c.range("load_start_pos_h", op.load_start_pos_h(), 0, 4095));
    ASC_RETURN_IF_ERROR(c.range("crop_size_w", op.crop_size_w(), 0, 4096));
    ASC_RETURN_IF_ERROR(c.range("crop_size_h", op.crop_size_h(), 0, 4096));
    p.crop_x = op.load_start_pos_w();
    p.crop_y = op.load_start_pos_h();
    p.crop_w = op.crop_size_w() ? op.crop_size_w() : inner_w;
    p.crop_h = op.crop_size_h() ? op.crop_size_h() : inner_h;
    p.src_w = op.src_image_size_w() ? op.src_image_size_w() : W;
    p.src_h = op.src_image_size_h() ? op.src_image_size_h() : H;
  } else {
    p.src_w = op.src_image_size_w() ? op.src_image_size_w() : inner_w;
    p.src_h = op.src_image_size_h() ? op.src_image_size_h() : inner_h;
    p.crop_w = p.src_w;
    p.crop_h = p.src_h;
  }
  if (p.src_w < 2 || p.src_w > 4096)
    return c.invalid("src_image_size_w", "the image width is {}, outside [2, 4096]", p.src_w);
  if (p.src_h < 1 || p.src_h > 4096)
    return c.invalid("src_image_size_h", "the image height is {}, outside [1, 4096]", p.src_h);
  if (p.format == ops::aipp::Format::Yuv420sp) {
    if (p.src_w % 2 || p.src_h % 2)
      return c.invalid(p.src_w % 2 ? "src_image_size_w" : "src_image_size_h",
                       "a YUV420SP_U8 image has even sizes, not {}x{} (w x h)", p.src_w, p.src_h);
    if (p.crop_x % 2 || p.crop_y % 2)
      return c.invalid(p.crop_x % 2 ? "load_start_pos_w" : "load_start_pos_h",
                       "load_start_pos_w/h must be even for YUV420SP_U8, not {}/{}", p.crop_x,
                       p.crop_y);
  }
  if (p.crop_x + p.crop_w > p.src_w)
    return c.invalid(op.crop_size_w() ? "crop_size_w" : "load_start_pos_w",
                     "the crop is outside the image: load_start_pos_w {} + crop_size_w {} > "
                     "src_image_size_w {}",
                     p.crop_x, p.crop_w, p.src_w);
  if (p.crop_y + p.crop_h > p.src_h)
    return c.invalid(op.crop_size_h() ? "crop_size_h" : "load_start_pos_h",
                     "the crop is outside the image: load_start_pos_h {} + crop_size_h {} > "
                     "src_image_size_h {}",
                     p.crop_y, p.crop_h, p.src_h);
  if (p.outH() != H || p.outW() != W) {
    // The field to blame: the one that sets the size that is off.
    const bool h_off = p.outH() != H;
    const char* field = op.crop() ? (h_off ? "crop_size_h" : "crop_size_w")
                                  : (h_off ? "src_image_size_h" : "src_image_size_w");
    return c.invalid(field,
                     "AIPP gives {}x{} (h x w: the {} {}x{} plus padding {}+{} rows, {}+{} "
                     "columns) but model input '{}' is {}x{}; asc-tools does not resize",
                     p.outH(), p.outW(), op.crop() ? "crop" : "image", p.crop_h, p.crop_w,
                     p.pad_top, p.pad_bottom, p.pad_left, p.pad_right, in.name, H, W);
  }
  return p;
}

}  // namespace

Status insertAipp(ir::Graph& g, const std::string& text, const std::string& source) {
  domi::InsertNewOps cfg;
  pb::TextFormat::Parser parser;
  TextProtoErrors errors;
  Tree tree;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(&tree);
  if (!parser.ParseFromString(text, &cfg))
    return Status::error(ErrorCode::TextProtoParseFailed,
                         "Failed to parse the AIPP configuration {} (protobuf text format of "
                         "domi.InsertNewOps): {}",
                         source, errors.describe(text));
  if (cfg.multi_shape_op_size())
    return Status::error(ErrorCode::NotImplemented,
                         "The operation is not supported. Reason: {}: multi_shape_op is not "
                         "supported by asc-tools",
                         source);
  if (cfg.aipp_op_size() == 0)
    return Status::error(ErrorCode::AippConfigInvalid,
                         "AIPP configuration is invalid. Reason: {} has no aipp_op block", source);
  const pb::FieldDescriptor* aipp_field = cfg.GetDescriptor()->FindFieldByName("aipp_op");
  std::set<size_t> fed;
  std::vector<std::pair<size_t, ops::aipp::Params>> plan;
  for (int k = 0; k < cfg.aipp_op_size(); ++k) {
    const auto& op = cfg.aipp_op(k);
    BlockChecker c(op, tree.GetTreeForNested(aipp_field, k), source,
                   tree.GetLocation(aipp_field, k).line);
    ASC_TRY(size_t idx, relatedInput(g, op, c));
    if (!fed.insert(idx).second)
      return c.invalid(
          op.related_input_name().empty() ? "related_input_rank" : "related_input_name",
          "model input '{}' already has an aipp_op block", g.inputs[idx]->name);
    // An NHWC input (a TensorFlow model's) is checked as the NCHW tensor AIPP gives.
    const ir::Value& in = *g.inputs[idx];
    ir::Value nchw_view;
    nchw_view.name = in.name;
    nchw_view.dtype = in.dtype;
    nchw_view.shape = in.shape;
    if (in.format == "NHWC" && in.shape.size() == 4)
      nchw_view.shape = {in.shape[0], in.shape[3], in.shape[1], in.shape[2]};
    ASC_TRY(ops::aipp::Params p, resolve(op, nchw_view, c));
    plan.emplace_back(idx, p);
  }
  for (const auto& [idx, p] : plan) {
    // The raw image takes the input's name (what msame and the OM call it); the Aipp output,
    // which the first layer reads, becomes "<input>_aipp".
    ir::Value* model_in = g.inputs[idx];
    ir::Value* raw = g.addValue(model_in->name + "_aipp");
    g.swapValueNames(raw, model_in);
    raw->dtype = ir::DType::U8;
    raw->shape = p.rawShape(model_in->shape[0]);
    raw->format = "NHWC";
    // AIPP gives NCHW; an NHWC model input reads it through a Transpose.
    const bool nhwc = model_in->format == "NHWC" && model_in->shape.size() == 4;
    ir::Value* aipp_out = nhwc ? g.addValue(model_in->name + "_nchw") : model_in;
    ir::Node* n = g.addNode("Aipp", "aipp_" + raw->name, {raw}, {aipp_out});
    ops::aipp::toAttrs(p, &n->attrs);
    if (nhwc) {
      ir::Node* t = g.addNode("Transpose", "aipp_" + raw->name + "_nhwc", {aipp_out}, {model_in});
      t->attrs.set("perm", std::vector<int64_t>{0, 2, 3, 1});
    }
    g.inputs[idx] = raw;
    ASC_LOG_INFO("AIPP: input '{}' takes a {} image [{}] and gives [{}]", raw->name,
                 ops::aipp::formatName(p.format), ir::shapeToString(raw->shape),
                 ir::shapeToString(model_in->shape));
  }
  ASC_RETURN_IF_ERROR(g.topoSort());
  ASC_RETURN_IF_ERROR(ops::inferGraph(g));
  return ir::verify(g);
}

Status insertAippFromFile(ir::Graph& g, const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f || isDirectory(path))
    return Status::error(ErrorCode::FileOpenFailed,
                         "cannot open the --insert_op_conf file '{}' (AIPP configuration)", path);
  std::ostringstream text;
  text << f.rdbuf();
  if (f.bad())
    return Status::error(ErrorCode::FileReadFailed, "cannot read the --insert_op_conf file '{}'",
                         path);
  return insertAipp(g, text.str(), path);
}

}  // namespace asc
