// einsum.h: Einsum's equation, parsed against its inputs' shapes, and a naive evaluation (every
// combination of the labels; the output element accumulates the product of the inputs' elements
// in double). Labels are the letters a-z, A-Z and the dims an ellipsis stands for (numbered
// after the letters, aligned right and broadcast across the inputs like numpy).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "asc/ir/graph.h"

namespace asc::ops::einsum {

struct Plan {
  std::vector<std::vector<int>> inputs;  // each input's label per dim
  std::vector<int> output;               // the output's label per dim
  std::vector<int64_t> sizes;            // per label (1 for an unused one)
  int labels = 0;                        // label count
  ir::Shape outShape() const {
    ir::Shape s;
    for (int l : output) s.push_back(sizes[l]);
    return s;
  }
};

inline int letterLabel(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}

/// Parses `eq` for inputs of the given shapes; returns an error message or "" with *p filled.
inline std::string parse(std::string eq, const std::vector<ir::Shape>& shapes, Plan* p) {
  std::string clean;
  for (char c : eq)
    if (c != ' ') clean += c;
  eq = clean;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  size_t start = 0;
  for (;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != shapes.size())
    return "the equation has " + std::to_string(terms.size()) + " input terms for " +
           std::to_string(shapes.size()) + " inputs";
  // The ellipsis: its rank is the largest over the inputs; its dims broadcast, right-aligned.
  int64_t ell = 0;
  std::vector<int64_t> ell_of(terms.size(), 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    const size_t dots = terms[i].find("...");
    int64_t letters = 0;
    for (char c : terms[i])
      if (c != '.') {
        if (letterLabel(c) < 0) return std::string("'") + c + "' is not a label";
        ++letters;
      }
    const int64_t rank = static_cast<int64_t>(shapes[i].size());
    if (dots == std::string::npos ? letters != rank : letters > rank)
      return "term '" + terms[i] + "' does not match an input of rank " + std::to_string(rank);
    ell_of[i] = dots == std::string::npos ? 0 : rank - letters;
    ell = std::max(ell, ell_of[i]);
  }
  p->labels = 52 + static_cast<int>(ell);
  p->sizes.assign(p->labels, 1);
  std::vector<bool> seen(p->labels, false);
  std::vector<int> count(52, 0);
  p->inputs.assign(terms.size(), {});
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string& t = terms[i];
    int64_t dim = 0;
    for (size_t k = 0; k < t.size(); ++k) {
      if (t[k] == '.') {
        for (int64_t e = 0; e < ell_of[i]; ++e, ++dim) {
          const int l = 52 + static_cast<int>(ell - ell_of[i] + e);
          const int64_t s = shapes[i][dim];
          if (s != 1) {
            if (p->sizes[l] != 1 && p->sizes[l] != s) return "ellipsis dims do not broadcast";
            p->sizes[l] = s;
          }
          p->inputs[i].push_back(l);
        }
        k += 2;
        continue;
      }
      const int l = letterLabel(t[k]);
      const int64_t s = shapes[i][dim++];
      if (seen[l] && p->sizes[l] != s)
        return std::string("label '") + t[k] + "' has sizes " + std::to_string(p->sizes[l]) +
               " and " + std::to_string(s);
      seen[l] = true;
      p->sizes[l] = s;
      ++count[l];
      p->inputs[i].push_back(l);
    }
  }
  p->output.clear();
  if (arrow != std::string::npos) {
    const std::string rhs = eq.substr(arrow + 2);
    for (size_t k = 0; k < rhs.size(); ++k) {
      if (rhs[k] == '.') {
        for (int64_t e = 0; e < ell; ++e) p->output.push_back(52 + static_cast<int>(e));
        k += 2;
        continue;
      }
      const int l = letterLabel(rhs[k]);
      if (l < 0 || !seen[l]) return std::string("output label '") + rhs[k] + "' is not an input's";
      p->output.push_back(l);
    }
  } else {  // implicit: the ellipsis, then the labels seen once, in alphabetical order
    for (int64_t e = 0; e < ell; ++e) p->output.push_back(52 + static_cast<int>(e));
    for (int l = 0; l < 52; ++l)
      if (count[l] == 1) p->output.push_back(l);
  }
  return "";
}

/// out[...] = sum over the other labels of prod_i in_i[...]; get(i, flat) reads input i.
template <typename Get>
std::vector<double> evaluate(const Plan& p, const std::vector<ir::Shape>& shapes, Get get) {
  std::vector<int> all = p.output;  // output labels first, then the summed ones
  std::vector<bool> in_out(p.labels, false);
  for (int l : p.output) in_out[l] = true;
  for (const auto& in : p.inputs)
    for (int l : in)
      if (!in_out[l]) {
        in_out[l] = true;
        all.push_back(l);
      }
  int64_t out_n = 1, sum_n = 1;
  for (size_t k = 0; k < all.size(); ++k) (k < p.output.size() ? out_n : sum_n) *= p.sizes[all[k]];
  std::vector<double> out(static_cast<size_t>(out_n), 0.0);
  std::vector<int64_t> value(p.labels, 0);
  std::vector<std::vector<int64_t>> strides(shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i) {
    strides[i].assign(shapes[i].size(), 1);
    for (int64_t d = static_cast<int64_t>(shapes[i].size()) - 2; d >= 0; --d)
      strides[i][d] = strides[i][d + 1] * shapes[i][d + 1];
  }
  for (int64_t o = 0; o < out_n; ++o) {
    int64_t rem = o;
    for (int64_t k = static_cast<int64_t>(p.output.size()) - 1; k >= 0; --k) {
      value[p.output[k]] = rem % p.sizes[p.output[k]];
      rem /= p.sizes[p.output[k]];
    }
    double acc = 0;
    for (int64_t s = 0; s < sum_n; ++s) {
      int64_t r = s;
      for (int64_t k = static_cast<int64_t>(all.size()) - 1;
           k >= static_cast<int64_t>(p.output.size()); --k) {
        value[all[k]] = r % p.sizes[all[k]];
        r /= p.sizes[all[k]];
      }
      double prod = 1;
      for (size_t i = 0; i < p.inputs.size(); ++i) {
        int64_t off = 0;
        for (size_t d = 0; d < p.inputs[i].size(); ++d)
          off += (shapes[i][d] == 1 ? 0 : value[p.inputs[i][d]]) * strides[i][d];
        prod *= get(i, off);
      }
      acc += prod;
    }
    out[o] = acc;
  }
  return out;
}

}  // namespace asc::ops::einsum
