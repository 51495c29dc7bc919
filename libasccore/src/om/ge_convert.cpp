// ge_convert.cpp: ir <-> ge.proto tensor descriptors and attributes.
#include "ge_convert.h"

#include "format.h"

#include <algorithm>
#include <type_traits>
#include <variant>

#include "asc/om/om_file.h"

namespace asc::om {

void fillTensorDesc(const ir::Value& v, ge::proto::TensorDescriptor* td, int c0) {
  td->set_name(v.name);
  td->set_dtype(static_cast<ge::proto::DataType>(ir::dtypeToGe(v.dtype)));
  const bool known = v.dtype != ir::DType::Undefined &&
                     std::none_of(v.shape.begin(), v.shape.end(), [](int64_t d) { return d < 0; });
  if (!known) {  // a dynamic graph's value: GE's -1 (unknown dim) and [-2] (unknown rank)
    if (v.dtype == ir::DType::Undefined && v.shape.empty())
      td->mutable_shape()->add_dim(kUnknownRank);
    for (auto d : v.shape) td->mutable_shape()->add_dim(d);
    td->set_layout(v.format);
    td->set_size(0);
    td->set_real_dim_cnt(static_cast<int64_t>(v.shape.size()));
    td->set_device_type("NPU");
    return;
  }
  if (v.format == "NC1HWC0" && v.shape.size() == 4) {
    const int64_t n = v.shape[0], c = v.shape[1], h = v.shape[2], w = v.shape[3];
    for (int64_t d : {n, (c + c0 - 1) / c0, h, w, static_cast<int64_t>(c0)})
      td->mutable_shape()->add_dim(d);
    (*td->mutable_attr())["origin_format"] = makeStringAttr("NCHW");
    (*td->mutable_attr())["origin_shape"] = makeIntListAttr(v.shape);
  } else {
    for (auto d : v.shape) td->mutable_shape()->add_dim(d);
  }
  td->set_layout(v.format);
  td->set_size(static_cast<int64_t>(v.byteSize()));
  td->set_real_dim_cnt(static_cast<int64_t>(v.shape.size()));
  td->set_device_type("NPU");
}

// A descriptor whose shape is physical: NC1HWC0, or a weight stored only packed (its layout
// oneDNN's format tag); origin_shape / origin_format then give the tensor's own.
static bool physicalDesc(const ge::proto::TensorDescriptor& td) {
  return td.layout() == "NC1HWC0" || td.attr().count(kPackedOnlyAttr) != 0;
}

std::string logicalFormat(const ge::proto::TensorDescriptor& td) {
  auto it = td.attr().find("origin_format");
  if (td.attr().count(kPackedOnlyAttr) != 0 && it != td.attr().end() && !it->second.s().empty())
    return it->second.s();
  return td.layout().empty() ? "ND" : td.layout();
}

std::vector<int64_t> logicalShape(const ge::proto::TensorDescriptor& td) {
  auto it = td.attr().find("origin_shape");
  if (physicalDesc(td) && it != td.attr().end() && it->second.has_list())
    return std::vector<int64_t>(it->second.list().i().begin(), it->second.list().i().end());
  return std::vector<int64_t>(td.shape().dim().begin(), td.shape().dim().end());
}

void attrToGe(const ir::AttrValue& a, ge::proto::AttrDef* out) {
  using LV = ge::proto::AttrDef::ListValue;
  if (auto* i = std::get_if<int64_t>(&a)) {
    out->set_i(*i);
  } else if (auto* f = std::get_if<float>(&a)) {
    out->set_f(*f);
  } else if (auto* s = std::get_if<std::string>(&a)) {
    out->set_s(*s);
  } else if (auto* v = std::get_if<std::vector<int64_t>>(&a)) {
    auto* l = out->mutable_list();
    l->set_val_type(LV::VT_LIST_INT);
    for (auto x : *v) l->add_i(x);
  } else if (auto* v = std::get_if<std::vector<float>>(&a)) {
    auto* l = out->mutable_list();
    l->set_val_type(LV::VT_LIST_FLOAT);
    for (auto x : *v) l->add_f(x);
  } else if (auto* v = std::get_if<std::vector<std::string>>(&a)) {
    auto* l = out->mutable_list();
    l->set_val_type(LV::VT_LIST_STRING);
    for (const auto& x : *v) l->add_s(x);
  } else if (auto* t = std::get_if<ir::Tensor>(&a)) {
    auto* td = out->mutable_t();
    td->mutable_desc()->set_dtype(static_cast<ge::proto::DataType>(ir::dtypeToGe(t->dtype)));
    for (auto d : t->shape) td->mutable_desc()->mutable_shape()->add_dim(d);
    td->mutable_desc()->set_layout("ND");
    if (t->data) td->set_data(t->data->data(), t->data->size());
  }
}

void cannAttrToGe(const ops::CannAttr& a, ge::proto::AttrDef* out) {
  // bool and lists of lists are CANN's own; the rest are written as the IR's are.
  if (auto* b = std::get_if<bool>(&a)) {
    out->set_b(*b);
  } else if (auto* vv = std::get_if<std::vector<std::vector<int64_t>>>(&a)) {
    auto* ll = out->mutable_list_list_int();
    for (const auto& row : *vv) {
      auto* r = ll->add_list_list_i();
      for (auto x : row) r->add_list_i(x);
    }
  } else {
    std::visit(
        [out](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_constructible_v<ir::AttrValue, T>) attrToGe(ir::AttrValue(v), out);
        },
        a);
  }
}

bool attrFromGe(const ge::proto::AttrDef& a, ir::AttrValue* out) {
  using AD = ge::proto::AttrDef;
  using LV = ge::proto::AttrDef::ListValue;
  switch (a.value_case()) {
    case AD::kI:
      *out = static_cast<int64_t>(a.i());
      return true;
    case AD::kF:
      *out = a.f();
      return true;
    case AD::kS:
      *out = a.s();
      return true;
    case AD::kB:
      *out = static_cast<int64_t>(a.b());
      return true;
    case AD::kList: {
      const LV& l = a.list();
      if (l.val_type() == LV::VT_LIST_INT || l.i_size() > 0) {
        *out = std::vector<int64_t>(l.i().begin(), l.i().end());
      } else if (l.val_type() == LV::VT_LIST_FLOAT || l.f_size() > 0) {
        *out = std::vector<float>(l.f().begin(), l.f().end());
      } else if (l.val_type() == LV::VT_LIST_STRING || l.s_size() > 0) {
        *out = std::vector<std::string>(l.s().begin(), l.s().end());
      } else {
        *out = std::vector<int64_t>();
      }
      return true;
    }
    case AD::kT: {
      ir::Tensor t;
      t.dtype = ir::dtypeFromGe(a.t().desc().dtype());
      for (auto d : a.t().desc().shape().dim()) {
        if (d < 0) return false;
        t.shape.push_back(d);
      }
      if (t.dtype == ir::DType::Undefined || a.t().data().size() != t.byteSize()) return false;
      t.data = ir::Blob::copyOf(a.t().data().data(), a.t().data().size());
      *out = std::move(t);
      return true;
    }
    default:
      return false;
  }
}

ge::proto::AttrDef makeIntAttr(int64_t v) {
  ge::proto::AttrDef a;
  a.set_i(v);
  return a;
}
ge::proto::AttrDef makeStringAttr(const std::string& v) {
  ge::proto::AttrDef a;
  a.set_s(v);
  return a;
}
ge::proto::AttrDef makeIntListAttr(const std::vector<int64_t>& v) {
  ge::proto::AttrDef a;
  attrToGe(v, &a);
  return a;
}
ge::proto::AttrDef makeStringListAttr(const std::vector<std::string>& v) {
  ge::proto::AttrDef a;
  attrToGe(v, &a);
  return a;
}

std::string rangesToString(const std::vector<std::vector<DimRange>>& ranges) {
  std::string out;
  for (const auto& dims : ranges) {
    if (!out.empty()) out += ';';
    out += '[';
    for (size_t i = 0; i < dims.size(); ++i) {
      if (i) out += ',';
      const DimRange& r = dims[i];
      out += r.min == r.max ? std::to_string(r.min)
                            : std::to_string(r.min) + "~" + std::to_string(r.max);
    }
    out += ']';
  }
  return out;
}

}  // namespace asc::om
