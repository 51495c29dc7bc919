// template_argument.h: tiling templates (CANN's "Tiling模板编程"). A header of the operator
// project declares the kernel's template parameters and their values (ASCENDC_TPL_ARGS_DECL:
// DTYPE, FORMAT, UINT and BOOL parameters) and the combinations built (ASCENDC_TPL_SEL); the
// host's tiling picks one with GET_TPL_TILING_KEY(values...), which encodes each value's position
// in its declaration in the declared bit width (DTYPE 8 bits, FORMAT 4, BOOL 1, UINT its own),
// the first parameter in the lowest bits (the order within the key is UNCONFIRMED: asc-tools' host
// and kernel sides share this one). opc instantiates the kernel template for every selected
// combination and runs the one the launch's key names (a key no combination has stops the launch,
// naming it). Compiles as C++11 (op_host) and C++17 (kernels: the tables are constexpr there).
#ifndef ASC_ASCENDC_TEMPLATE_ARGUMENT_H
#define ASC_ASCENDC_TEMPLATE_ARGUMENT_H

#include <cstdint>
#include <cstdio>
#include <initializer_list>

// Bit widths of UINT parameters.
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
// Parameter kinds.
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
// How a UINT parameter lists its values: ranges [a, b], a list, or ranges then a list.
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

#if __cplusplus >= 201402L
#define ASC_TPL_CONSTEXPR constexpr
#else
#define ASC_TPL_CONSTEXPR
#endif

namespace asc_tpl {

constexpr int kMaxRaw = 48, kMaxParams = 12, kMaxSels = 24;
constexpr uint64_t kNoKey = ~uint64_t(0);

/// One parameter as written: its kind, name, bit width and values (a UINT's in its spec form).
struct Param {
  int kind = 0;
  const char* name = "";
  int bits = 0;
  int n_raw = 0;
  uint64_t raw[kMaxRaw] = {};
  ASC_TPL_CONSTEXPR Param() {}
  ASC_TPL_CONSTEXPR Param(int k, const char* nm, int b, std::initializer_list<uint64_t> values)
      : kind(k), name(nm), bits(b) {
    for (uint64_t v : values)
      if (n_raw < kMaxRaw) raw[n_raw++] = v;
  }
  /// The number of values, and value i, in declaration order (a UINT's ranges expanded).
  ASC_TPL_CONSTEXPR int count() const {
    if (kind != ASCENDC_TPL_UINT) return n_raw;
    if (n_raw == 0) return 0;
    const int mode = int(raw[0]);
    if (mode == ASCENDC_TPL_UI_LIST) return n_raw - 1;
    const int ranges = n_raw > 1 ? int(raw[1]) : 0;
    int c = 0;
    for (int r = 0; r < ranges && 3 + 2 * r < n_raw; ++r)
      c += int(raw[3 + 2 * r] - raw[2 + 2 * r] + 1);
    if (mode == ASCENDC_TPL_UI_MIX) c += n_raw - 2 - 2 * ranges;
    return c;
  }
  ASC_TPL_CONSTEXPR uint64_t value(int i) const {
    if (kind != ASCENDC_TPL_UINT) return raw[i];
    const int mode = int(raw[0]);
    if (mode == ASCENDC_TPL_UI_LIST) return raw[1 + i];
    const int ranges = int(raw[1]);
    for (int r = 0; r < ranges; ++r) {
      const uint64_t lo = raw[2 + 2 * r], hi = raw[3 + 2 * r];
      if (uint64_t(i) <= hi - lo) return lo + uint64_t(i);
      i -= int(hi - lo + 1);
    }
    return raw[2 + 2 * ranges + i];
  }
  /// The position of value v, or -1.
  ASC_TPL_CONSTEXPR int indexOf(uint64_t v) const {
    for (int i = 0; i < count(); ++i)
      if (value(i) == v) return i;
    return -1;
  }
  ASC_TPL_CONSTEXPR int width() const {
    return kind == ASCENDC_TPL_DTYPE    ? 8
           : kind == ASCENDC_TPL_FORMAT ? 4
           : kind == ASCENDC_TPL_BOOL   ? 1
                                        : bits;
  }
};

/// A declaration (ASCENDC_TPL_ARGS_DECL) or one selection (ASCENDC_TPL_ARGS_SEL).
struct Args {
  int n = 0;
  Param p[kMaxParams];
  ASC_TPL_CONSTEXPR Args() {}
  ASC_TPL_CONSTEXPR Args(std::initializer_list<Param> params) {
    for (const Param& x : params)
      if (n < kMaxParams) p[n++] = x;
  }
  /// The combinations this selection makes.
  ASC_TPL_CONSTEXPR uint64_t combinations() const {
    uint64_t c = n ? 1 : 0;
    for (int i = 0; i < n; ++i) c *= uint64_t(p[i].count());
    return c;
  }
};

struct Sels {
  int n = 0;
  Args s[kMaxSels];
  ASC_TPL_CONSTEXPR Sels() {}
  ASC_TPL_CONSTEXPR Sels(std::initializer_list<Args> sels) {
    for (const Args& x : sels)
      if (n < kMaxSels) s[n++] = x;
  }
  ASC_TPL_CONSTEXPR uint64_t combinations() const {
    uint64_t c = 0;
    for (int i = 0; i < n; ++i) c += s[i].combinations();
    return c;
  }
  /// Parameter `param`'s value in combination k (selections in order, the last parameter
  /// fastest).
  ASC_TPL_CONSTEXPR uint64_t value(uint64_t k, int param) const {
    for (int i = 0; i < n; ++i) {
      const uint64_t c = s[i].combinations();
      if (k >= c) {
        k -= c;
        continue;
      }
      for (int j = s[i].n - 1; j >= 0; --j) {
        const uint64_t m = uint64_t(s[i].p[j].count());
        if (j == param) return s[i].p[j].value(int(k % m));
        k /= m;
      }
    }
    return 0;
  }
};

/// The key of `values` (one per declared parameter, in order): kNoKey when a value is not
/// declared, or the combination is in no selection.
ASC_TPL_CONSTEXPR inline uint64_t keyOf(const Args& decl, const Sels& sels, const uint64_t* values,
                                        int n_values) {
  if (n_values != decl.n) return kNoKey;
  uint64_t key = 0;
  int shift = 0;
  for (int i = 0; i < decl.n; ++i) {
    const int at = decl.p[i].indexOf(values[i]);
    if (at < 0) return kNoKey;
    key |= uint64_t(at) << shift;
    shift += decl.p[i].width();
  }
  for (int s = 0; s < sels.n; ++s) {
    bool all = sels.s[s].n == decl.n;
    for (int i = 0; all && i < decl.n; ++i) all = sels.s[s].p[i].indexOf(values[i]) >= 0;
    if (all) return key;
  }
  return kNoKey;
}

/// GET_TPL_TILING_KEY: the key, or kNoKey with the reason on stderr (no kernel takes it: the
/// launch stops naming it).
inline uint64_t encode(const Args& decl, const Sels& sels, std::initializer_list<uint64_t> v) {
  uint64_t values[kMaxParams] = {};
  int n = 0;
  for (uint64_t x : v)
    if (n < kMaxParams) values[n++] = x;
  const uint64_t key = keyOf(decl, sels, values, int(v.size()));
  if (key == kNoKey)
    std::fprintf(stderr,
                 "[ERROR] GET_TPL_TILING_KEY: %d values for %d parameters, or a combination "
                 "that ASCENDC_TPL_ARGS_DECL does not declare or no ASCENDC_TPL_ARGS_SEL "
                 "selects\n",
                 int(v.size()), decl.n);
  return key;
}

}  // namespace asc_tpl

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ::asc_tpl::Param(ASCENDC_TPL_DTYPE, #x, 8, {__VA_ARGS__})
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ::asc_tpl::Param(ASCENDC_TPL_FORMAT, #x, 4, {__VA_ARGS__})
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ::asc_tpl::Param(ASCENDC_TPL_UINT, #x, bw, {__VA_ARGS__})
#define ASCENDC_TPL_BOOL_DECL(x, ...) ::asc_tpl::Param(ASCENDC_TPL_BOOL, #x, 1, {__VA_ARGS__})
#define ASCENDC_TPL_DTYPE_SEL(x, ...) ::asc_tpl::Param(ASCENDC_TPL_DTYPE, #x, 8, {__VA_ARGS__})
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ::asc_tpl::Param(ASCENDC_TPL_FORMAT, #x, 4, {__VA_ARGS__})
#define ASCENDC_TPL_UINT_SEL(x, ...) ::asc_tpl::Param(ASCENDC_TPL_UINT, #x, 0, {__VA_ARGS__})
#define ASCENDC_TPL_BOOL_SEL(x, ...) ::asc_tpl::Param(ASCENDC_TPL_BOOL, #x, 1, {__VA_ARGS__})

#define ASCENDC_TPL_ARGS_DECL(op, ...) \
  static ASC_TPL_CONSTEXPR ::asc_tpl::Args asc_tpl_decl { __VA_ARGS__ }
#define ASCENDC_TPL_ARGS_SEL(...) \
  ::asc_tpl::Args { __VA_ARGS__ }
#define ASCENDC_TPL_SEL(...) \
  static ASC_TPL_CONSTEXPR ::asc_tpl::Sels asc_tpl_sel { __VA_ARGS__ }

#define GET_TPL_TILING_KEY(...) ::asc_tpl::encode(asc_tpl_decl, asc_tpl_sel, {__VA_ARGS__})

#endif  // ASC_ASCENDC_TEMPLATE_ARGUMENT_H
