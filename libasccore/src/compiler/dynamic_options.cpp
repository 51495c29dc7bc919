// dynamic_options.cpp: atc's dynamic-shape options (--input_shape with -1 and ranges,
// --input_shape_range, --dynamic_batch_size, --dynamic_image_size, --dynamic_dims), checked by
// the real tool's rules (ascend-facts.md 1.4) and turned into the profiles and ranges of each
// graph input (om::DynamicShapes).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "asc/compiler/compile.h"
#include "asc/support/strings.h"

namespace asc {
namespace {

constexpr size_t kMinProfiles = 2, kMaxProfiles = 100;

// One dim of --input_shape or --input_shape_range: "8", "-1" or "1~16" ("1~-1": unbounded).
Result<om::DimRange> parseDim(const std::string& d, const std::string& input, size_t position,
                              const char* option) {
  const size_t tilde = d.find('~');
  auto lo = parseInt64(tilde == std::string::npos ? d : d.substr(0, tilde));
  auto hi = parseInt64(tilde == std::string::npos ? d : d.substr(tilde + 1));
  const ErrorCode code = tilde == std::string::npos && std::string(option) == "--input_shape"
                             ? ErrorCode::InputShapeFormat
                             : ErrorCode::InputShapeRange;
  if (!lo || !hi)
    return Status::error(code,
                         "{}: '{}' in the dims of input '{}' is not an integer{}; write it like "
                         "\"input:1,3,224,224\"",
                         option, d, input,
                         code == ErrorCode::InputShapeRange ? " or a range a~b" : "");
  if (tilde == std::string::npos) {
    if (*lo == -1) return om::DimRange{1, -1};
    if (*lo <= 0)
      return Status::error(ErrorCode::InputShapeMismatch,
                           "{} gives input '{}' the dim {} at position {}; dims must be positive "
                           "integers (-1 marks a dynamic dim)",
                           option, input, *lo, position);
    return om::DimRange{*lo, *lo};
  }
  if (*lo < 1 || (*hi != -1 && *hi < *lo))
    return Status::error(ErrorCode::InputShapeRange,
                         "{}: the range '{}' of input '{}' is not a~b with 1 <= a <= b (b = -1: "
                         "no upper bound)",
                         option, d, input);
  return om::DimRange{*lo, *hi};
}

bool isFixed(const om::DimRange& r) { return r.min == r.max; }

// "name:d,d;name2:d" into (name, ranges) pairs; the name may hold ':' (the last one splits).
Result<std::vector<std::pair<std::string, std::vector<om::DimRange>>>> parseShapeList(
    const std::string& text, const char* option, bool brackets) {
  std::vector<std::pair<std::string, std::vector<om::DimRange>>> out;
  for (const std::string& item : splitString(text, ';')) {
    const size_t colon = item.rfind(':');
    const ErrorCode code = brackets ? ErrorCode::InputShapeRange : ErrorCode::InputShapeFormat;
    if (colon == std::string::npos || colon == 0)
      return Status::error(code, "{} item '{}' is not name:{}", option, item,
                           brackets ? "[dims]" : "dims");
    const std::string name = item.substr(0, colon);
    std::string dims = item.substr(colon + 1);
    if (brackets) {
      if (dims.size() < 2 || dims.front() != '[' || dims.back() != ']')
        return Status::error(code,
                             "{} item '{}': write the dims in brackets, like {}:[1~16,3,224,224]",
                             option, item, name);
      dims = dims.substr(1, dims.size() - 2);
    }
    if (!dims.empty() && (dims.back() == ',' || dims.front() == ','))
      return Status::error(code, "{}: the dims of input '{}' start or end with ','", option, name);
    std::vector<om::DimRange> ranges;
    for (const std::string& d : splitString(dims, ',')) {
      ASC_TRY(om::DimRange r, parseDim(d, name, ranges.size(), option));
      ranges.push_back(r);
    }
    for (const auto& [seen, r] : out)
      if (seen == name) return Status::error(code, "{} names input '{}' twice", option, name);
    out.emplace_back(name, std::move(ranges));
  }
  return out;
}

// "1,2,4,8" (one value a profile) or "h,w;h,w" / "d,d;d,d" (several).
Result<std::vector<std::vector<int64_t>>> parseProfiles(const std::string& text, const char* option,
                                                        bool one_each) {
  std::vector<std::vector<int64_t>> profiles;
  for (const std::string& p : one_each ? splitString(text, ',') : splitString(text, ';')) {
    std::vector<int64_t> values;
    for (const std::string& v : one_each ? std::vector<std::string>{p} : splitString(p, ',')) {
      auto n = parseInt64(v);
      if (!n || *n <= 0)
        return Status::error(ErrorCode::ProfileDimValue,
                             "Value {} for parameter {} is invalid. Reason: '{}' is not a "
                             "positive whole number",
                             text, option, v);
      values.push_back(*n);
    }
    profiles.push_back(std::move(values));
  }
  if (profiles.size() < kMinProfiles)
    return Status::error(ErrorCode::TooFewProfiles,
                         "{} gives {} profile(s): give between {} and {}", option, profiles.size(),
                         kMinProfiles, kMaxProfiles);
  if (profiles.size() > kMaxProfiles)
    return Status::error(ErrorCode::TooManyProfiles, "{} gives {} profiles: at most {}", option,
                         profiles.size(), kMaxProfiles);
  std::set<std::vector<int64_t>> seen;
  for (const auto& p : profiles)
    if (!seen.insert(p).second)
      return Status::error(ErrorCode::DuplicateProfile, "{} gives the profile {} twice", option,
                           fmt::join(p, ","));
  return profiles;
}

}  // namespace

Result<DynamicRequest> parseDynamicOptions(const DynamicOptions& o, bool has_aipp) {
  DynamicRequest r;
  ASC_TRY(r.inputs, parseShapeList(o.input_shape, "--input_shape", false));
  const bool ranges_in_shape = o.input_shape.find('~') != std::string::npos;
  std::vector<const char*> given;
  if (!o.dynamic_batch_size.empty()) given.push_back("--dynamic_batch_size");
  if (!o.dynamic_image_size.empty()) given.push_back("--dynamic_image_size");
  if (!o.dynamic_dims.empty()) given.push_back("--dynamic_dims");
  if (!o.input_shape_range.empty()) given.push_back("--input_shape_range");
  if (ranges_in_shape) given.push_back("ranges (a~b) in --input_shape");
  if (given.size() > 1)
    return Status::error(ErrorCode::DynamicExclusive,
                         "{} and {} cannot be used together; choose one way to make shapes "
                         "dynamic",
                         given[0], given[1]);
  if (!o.input_shape_range.empty()) {
    ASC_TRY(auto ranges, parseShapeList(o.input_shape_range, "--input_shape_range", true));
    for (auto& [input, dims] : ranges) {
      const std::string& name = input;  // (a structured binding cannot be captured in C++17)
      auto it = std::find_if(r.inputs.begin(), r.inputs.end(),
                             [&](const auto& in) { return in.first == name; });
      if (it == r.inputs.end()) {
        r.inputs.emplace_back(name, dims);
        continue;
      }
      if (it->second.size() != dims.size())
        return Status::error(ErrorCode::InputShapeRange,
                             "--input_shape_range gives input '{}' {} dims, --input_shape {}", name,
                             dims.size(), it->second.size());
      it->second = dims;
    }
  }
  // The -1 dims, in --input_shape order: (input index in r.inputs, dim).
  std::vector<std::pair<size_t, size_t>> dynamic_dims;
  bool any_range = false;
  for (size_t i = 0; i < r.inputs.size(); ++i)
    for (size_t d = 0; d < r.inputs[i].second.size(); ++d)
      if (!isFixed(r.inputs[i].second[d])) {
        dynamic_dims.emplace_back(i, d);
        any_range = true;
      }

  auto profileCheck = [&](const char* option, ErrorCode code, auto allowed) -> Status {
    if (o.input_shape.empty())
      return Status::error(ErrorCode::RequiredParam,
                           "--input_shape is required with {}: mark the dynamic dims with -1",
                           option);
    for (const auto& [i, d] : dynamic_dims) {
      const auto& dims = r.inputs[i].second;
      if (dims[d].max != -1)
        return Status::error(ErrorCode::DynamicExclusive,
                             "{} takes -1 dims, not ranges (input '{}')", option,
                             r.inputs[i].first);
      if (!allowed(dims.size(), d))
        return Status::error(
            code, "{}: input '{}' has -1 at dim {} of {}; {}", option, r.inputs[i].first, d,
            dims.size(),
            code == ErrorCode::DynamicBatchDims
                ? "only the batch dim (0) may be -1"
                : "only H and W (dims 2 and 3 of NCHW, 1 and 2 of NHWC) may be -1");
    }
    if (dynamic_dims.empty())
      return Status::error(code, "{} needs -1 dims in --input_shape (none is -1: '{}')", option,
                           o.input_shape);
    return Status::ok();
  };

  if (!o.dynamic_batch_size.empty()) {
    r.kind = "batch";
    ASC_RETURN_IF_ERROR(profileCheck("--dynamic_batch_size", ErrorCode::DynamicBatchDims,
                                     [](size_t, size_t d) { return d == 0; }));
    ASC_TRY(auto batches, parseProfiles(o.dynamic_batch_size, "--dynamic_batch_size", true));
    for (const auto& b : batches)
      r.profiles.push_back(std::vector<int64_t>(dynamic_dims.size(), b[0]));
  } else if (!o.dynamic_image_size.empty()) {
    r.kind = "image_size";
    ASC_RETURN_IF_ERROR(profileCheck("--dynamic_image_size", ErrorCode::DynamicImageDims,
                                     [](size_t rank, size_t d) { return rank == 4 && d >= 1; }));
    // Each input has exactly two -1 dims: H and W.
    std::map<size_t, int> per_input;
    for (const auto& [i, d] : dynamic_dims) ++per_input[i];
    for (const auto& [i, n] : per_input)
      if (n != 2)
        return Status::error(ErrorCode::DynamicImageDims,
                             "--dynamic_image_size: input '{}' needs -1 at both H and W ({} -1 "
                             "dims given)",
                             r.inputs[i].first, n);
    for (const std::string& p : splitString(o.dynamic_image_size, ';'))
      if (splitString(p, ',').size() != 2)
        return Status::error(ErrorCode::DynamicImageFormat,
                             "Value {} for parameter --dynamic_image_size is invalid. Reason: the "
                             "profile '{}' is not \"h,w\"",
                             o.dynamic_image_size, p);
    ASC_TRY(auto sizes, parseProfiles(o.dynamic_image_size, "--dynamic_image_size", false));
    for (const auto& hw : sizes) {
      std::vector<int64_t> values;
      for (size_t k = 0; k < dynamic_dims.size(); ++k) values.push_back(hw[k % 2]);
      r.profiles.push_back(values);
    }
  } else if (!o.dynamic_dims.empty()) {
    r.kind = "dims";
    if (has_aipp)
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter --dynamic_dims is invalid. Reason: dynamic dims "
                           "function does not support aipp",
                           o.dynamic_dims);
    ASC_RETURN_IF_ERROR(profileCheck("--dynamic_dims", ErrorCode::DynamicDimsCount,
                                     [](size_t, size_t) { return true; }));
    ASC_TRY(auto dims, parseProfiles(o.dynamic_dims, "--dynamic_dims", false));
    for (const auto& p : dims) {
      if (p.size() != dims[0].size())
        return Status::error(ErrorCode::ProfileDimCount,
                             "--dynamic_dims: the profile {} has {} dims, the first has {}",
                             fmt::join(p, ","), p.size(), dims[0].size());
      if (p.size() != dynamic_dims.size())
        return Status::error(ErrorCode::DynamicDimsCount,
                             "--dynamic_dims: the profile {} gives {} dims; --input_shape has {} "
                             "-1 dims",
                             fmt::join(p, ","), p.size(), dynamic_dims.size());
    }
    r.profiles = dims;
  } else if (any_range) {
    r.kind = "range";
  }
  if (!r.profiles.empty()) r.profile_dims = dynamic_dims;
  // Profiles: each -1 dim ranges over the values its profiles give.
  for (size_t k = 0; k < dynamic_dims.size() && !r.profiles.empty(); ++k) {
    auto& range = r.inputs[dynamic_dims[k].first].second[dynamic_dims[k].second];
    range.min = range.max = r.profiles[0][k];
    for (const auto& p : r.profiles) {
      range.min = std::min(range.min, p[k]);
      range.max = std::max(range.max, p[k]);
    }
  }
  // The importer's form: fixed dims as they are, dynamic ones -1.
  std::vector<std::string> items;
  for (const auto& [name, dims] : r.inputs) {
    std::vector<std::string> ds;
    for (const auto& d : dims) ds.push_back(isFixed(d) ? std::to_string(d.min) : "-1");
    items.push_back(name + ":" + fmt::format("{}", fmt::join(ds, ",")));
  }
  r.import_shape = fmt::format("{}", fmt::join(items, ";"));
  return r;
}

Result<om::DynamicShapes> resolveDynamic(const DynamicRequest& r, const ir::Graph& g) {
  om::DynamicShapes out;
  if (r.kind.empty()) return out;  // no dynamic dims asked for
  out.kind = r.kind;
  for (const ir::Value* in : g.inputs) {
    auto it = std::find_if(r.inputs.begin(), r.inputs.end(),
                           [&](const auto& p) { return p.first == in->name; });
    if (it != r.inputs.end()) {
      out.ranges.push_back(it->second);
      continue;
    }
    std::vector<om::DimRange> fixed;
    for (int64_t d : in->shape) fixed.push_back({d, d});
    out.ranges.push_back(fixed);
  }
  for (const auto& profile : r.profiles) {
    std::vector<ir::Shape> shapes;
    // Values fill the -1 dims in --input_shape order; graph inputs keep their own order.
    std::vector<ir::Shape> named;
    for (const auto& [name, dims] : r.inputs) {
      ir::Shape s;
      for (const auto& d : dims) s.push_back(d.min);
      named.push_back(s);
    }
    for (size_t k = 0; k < r.profile_dims.size(); ++k)
      named[r.profile_dims[k].first][r.profile_dims[k].second] = profile[k];
    std::map<std::string, ir::Shape> by_name;
    for (size_t i = 0; i < r.inputs.size(); ++i) by_name[r.inputs[i].first] = named[i];
    for (const ir::Value* in : g.inputs) {
      auto it = by_name.find(in->name);
      shapes.push_back(it != by_name.end() ? it->second : in->shape);
    }
    out.gears.push_back(std::move(shapes));
  }
  return out;
}

}  // namespace asc
