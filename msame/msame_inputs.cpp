// msame_inputs.cpp: how msame's Runner feeds a model: each input from a .bin or .npy file (its
// size, dtype and shape checked against the model's; int4 and float8 from their numpy carriers),
// random values (--random_input), and a dynamic model's shapes (--dymBatch, --dymHW, --dymDims,
// --dymShape).
#include <fmt/ostream.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "asc/frontend/onnx.h"
#include "asc/support/fp16.h"
#include "asc/support/log.h"
#include "asc/support/strings.h"
#include "msame_runner.h"

namespace asc::msame::detail {

bool Runner::dymGiven() const {
  return !o_.dym_batch.empty() || !o_.dym_hw.empty() || !o_.dym_dims.empty() ||
         !o_.dym_shape.empty();
}

// --dymBatch N, --dymHW h,w, --dymDims / --dymShape "name:d0,d1;...": the input shapes of a
// dynamic model (the runtime checks them against its profiles and ranges).
Status Runner::applyDynamicOptions() {
  if (!dymGiven()) return Status::ok();
  const char* option = !o_.dym_batch.empty()  ? "--dymBatch"
                       : !o_.dym_hw.empty()   ? "--dymHW"
                       : !o_.dym_dims.empty() ? "--dymDims"
                                              : "--dymShape";
  const om::DynamicShapes* dyn = session_->dynamicShapes();
  if (!dyn)
    return Status::error(ErrorCode::InvalidParam,
                         "{} needs a model with dynamic shapes; {} was converted with fixed "
                         "shapes (atc --dynamic_batch_size, --dynamic_image_size, --dynamic_dims "
                         "or --input_shape_range make them)",
                         option, o_.model);
  const auto& inputs = session_->inputs();
  std::vector<ir::Shape> shapes;
  for (const auto& in : inputs) shapes.push_back(in.shape);
  if (!o_.dym_batch.empty() || !o_.dym_hw.empty()) {
    std::vector<int64_t> values;
    for (const std::string& v :
         splitString(!o_.dym_batch.empty() ? o_.dym_batch : o_.dym_hw, ',')) {
      auto n = parseInt64(v);
      if (!n || *n <= 0 || (!o_.dym_batch.empty() && *n > 2048))
        return Status::error(ErrorCode::InvalidParam,
                             "{} '{}': '{}' is not a whole number in "
                             "1..2048",
                             option, !o_.dym_batch.empty() ? o_.dym_batch : o_.dym_hw, v);
      values.push_back(*n);
    }
    const bool batch = !o_.dym_batch.empty();
    if ((batch && values.size() != 1) || (!batch && values.size() != 2))
      return Status::error(ErrorCode::InvalidParam, "{} takes {}", option,
                           batch ? "one batch size" : "\"h,w\"");
    const std::string want = batch ? "batch" : "image_size";
    if (dyn->kind != want)
      return Status::error(ErrorCode::InvalidParam,
                           "{} needs a model converted with --dynamic_{}; this one's dynamic "
                           "shapes are of kind '{}'",
                           option, batch ? "batch_size" : "image_size", dyn->kind);
    for (auto& s : shapes) {
      size_t k = 0;
      for (auto& d : s)
        if (d < 0) d = values[batch ? 0 : k++ % 2];
    }
  } else {
    const std::string& text = !o_.dym_dims.empty() ? o_.dym_dims : o_.dym_shape;
    for (const std::string& item : splitString(text, ';')) {
      const size_t colon = item.rfind(':');
      const std::string name = colon == std::string::npos ? "" : item.substr(0, colon);
      size_t i = 0;
      while (i < inputs.size() && inputs[i].name != name) ++i;
      if (i == inputs.size())
        return Status::error(ErrorCode::InvalidParam,
                             "{} '{}': '{}' names no input of the model (write name:d0,d1;...)",
                             option, text, item);
      ir::Shape shape;
      for (const std::string& d : splitString(item.substr(colon + 1), ',')) {
        auto n = parseInt64(d);
        if (!n || *n < 0)
          return Status::error(ErrorCode::InvalidParam, "{} '{}': dim '{}' is not a whole number",
                               option, text, d);
        shape.push_back(*n);
      }
      shapes[i] = shape;
    }
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    Status st = session_->setInputShape(i, shapes[i]);
    if (!st.isOk()) return st.withContext(option);
  }
  line(fmt::format("[INFO] {} {}: input shapes set", option,
                   !o_.dym_batch.empty()  ? o_.dym_batch
                   : !o_.dym_hw.empty()   ? o_.dym_hw
                   : !o_.dym_dims.empty() ? o_.dym_dims
                                          : o_.dym_shape));
  return Status::ok();
}

// An int4/uint4 input (one value per byte, from a raw file or an .npy of int8/uint8): every
// value must fit 4 bits.
Status Runner::checkNarrow(const ir::Tensor& t, ir::DType want, const std::string& path) {
  if (!ir::isInt4(want)) return Status::ok();
  const int64_t lo = want == ir::DType::I4 ? -8 : 0, hi = want == ir::DType::I4 ? 7 : 15;
  for (int64_t k = 0; k < t.numel(); ++k)
    if (t.intAt(k) < lo || t.intAt(k) > hi)
      return Status::error(ErrorCode::InvalidParam,
                           "{}: element {} is {}, outside {}'s range [{}, {}]", path, k, t.intAt(k),
                           ir::dtypeName(want), lo, hi);
  return Status::ok();
}

// Reads one input file for model input i and checks it against the model.
Status Runner::feed(size_t i, const std::string& path) {
  ASC_TRY(tensorio::LoadedTensor lt, tensorio::readTensorFile(path));
  // A dynamic model takes an .npy input's own shape (unless a --dym option set it): a folder may
  // hold inputs of several shapes.
  if (session_->isDynamic() && lt.has_dtype && !dymGiven()) {
    Status st = session_->setInputShape(i, lt.tensor.shape);
    if (!st.isOk()) return st.withContext(path);
  }
  const auto& info = session_->inputs()[i];
  if (lt.has_dtype) {
    // numpy has no int4 or float8: an .npy of their carrier type (int8, uint8) holds them.
    if (lt.tensor.dtype != info.dtype && lt.tensor.dtype == tensorio::npyCarrier(info.dtype) &&
        info.dtype != ir::DType::BF16) {
      lt.tensor.dtype = info.dtype;
    }
    if (lt.tensor.dtype != info.dtype)
      return Status::error(ErrorCode::InputShapeMismatch,
                           "{}: holds {} data, model input {} ('{}') is {}", path,
                           ir::dtypeName(lt.tensor.dtype), i, info.name, ir::dtypeName(info.dtype));
    if (lt.tensor.numel() != ir::numElements(info.shape))
      return Status::error(ErrorCode::InputShapeMismatch,
                           "{}: shape [{}] has {} elements, model input {} ('{}') is [{}]", path,
                           ir::shapeToString(lt.tensor.shape), lt.tensor.numel(), i, info.name,
                           ir::shapeToString(info.shape));
  }
  if (ir::isInt4(info.dtype) && lt.tensor.data->size() == info.bytes)
    ASC_RETURN_IF_ERROR(
        checkNarrow(ir::Tensor{info.dtype, {static_cast<int64_t>(info.bytes)}, lt.tensor.data},
                    info.dtype, path));
  Status st = session_->setInput(i, lt.tensor.data->data(), lt.tensor.data->size());
  return st.isOk() ? st : st.withContext(path);
}

// --random_input: each input from its own generator (seed + index), so the values do not
// depend on the other inputs' sizes or on the stored dtype (fp16 inputs get the same numbers
// rounded).
Status Runner::randomInputs(uint32_t seed) {
  for (size_t i = 0; i < session_->inputs().size(); ++i) {
    const auto& info = session_->inputs()[i];
    std::mt19937 rng(seed + static_cast<uint32_t>(i));
    std::uniform_real_distribution<float> uf(-1.f, 1.f);
    std::uniform_int_distribution<int> ui(0, 9);
    const size_t n = static_cast<size_t>(ir::numElements(info.shape));
    std::vector<uint8_t> buf(info.bytes);
    for (size_t k = 0; k < n; ++k) {
      switch (info.dtype) {
        case ir::DType::F32:
          reinterpret_cast<float*>(buf.data())[k] = uf(rng);
          break;
        case ir::DType::F64:
          reinterpret_cast<double*>(buf.data())[k] = uf(rng);
          break;
        case ir::DType::F16:
          reinterpret_cast<uint16_t*>(buf.data())[k] = floatToHalf(uf(rng));
          break;
        case ir::DType::BF16:
          reinterpret_cast<uint16_t*>(buf.data())[k] = floatToBf16(uf(rng));
          break;
        case ir::DType::Bool:
          buf[k] = static_cast<uint8_t>(ui(rng) & 1);
          break;
        default: {
          const int64_t v = ui(rng);
          std::memcpy(buf.data() + k * ir::dtypeSize(info.dtype), &v, ir::dtypeSize(info.dtype));
        }
      }
    }
    ASC_RETURN_IF_ERROR(session_->setInput(i, buf.data(), buf.size()));
  }
  line(fmt::format("[INFO] random inputs, seed {}", seed));
  return Status::ok();
}

}  // namespace asc::msame::detail
