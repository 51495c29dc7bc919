// tiling_template_test.cpp: tiling templates (ascendc/host_api/tiling/template_argument.h): the
// declared values of each parameter kind (a UINT's ranges, list and both), the key
// GET_TPL_TILING_KEY makes of a combination, kNoKey for one that is not declared or selected,
// and the combinations the kernel side instantiates (constexpr, as opc's wrapper walks them).
#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "ascendc/host_api/tiling/template_argument.h"

namespace tpl_case {

#define T_HALF 10
#define T_FLOAT 20
#define T_ND 1
#define T_NZ 2

ASCENDC_TPL_ARGS_DECL(TplCase, ASCENDC_TPL_DTYPE_DECL(D, T_HALF, T_FLOAT),
                      ASCENDC_TPL_FORMAT_DECL(F, T_ND, T_NZ),
                      ASCENDC_TPL_UINT_DECL(U, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_MIX, 2, 0, 2, 5, 6,
                                            9, 8),
                      ASCENDC_TPL_BOOL_DECL(B, 0, 1), );

ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DTYPE_SEL(D, T_HALF),
                                     ASCENDC_TPL_FORMAT_SEL(F, T_ND),
                                     ASCENDC_TPL_UINT_SEL(U, ASCENDC_TPL_UI_LIST, 1, 9),
                                     ASCENDC_TPL_BOOL_SEL(B, 0, 1), ),
                ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DTYPE_SEL(D, T_FLOAT),
                                     ASCENDC_TPL_FORMAT_SEL(F, T_ND, T_NZ),
                                     ASCENDC_TPL_UINT_SEL(U, ASCENDC_TPL_UI_RANGE, 1, 5, 6),
                                     ASCENDC_TPL_BOOL_SEL(B, 1), ), );

// What opc's wrapper computes at compile time.
static_assert(asc_tpl_decl.n == 4, "four parameters");
static_assert(asc_tpl_sel.combinations() == 2 * 2 + 2 * 2, "the selections' combinations");
static_assert(asc_tpl_sel.value(0, 0) == T_HALF && asc_tpl_sel.value(7, 0) == T_FLOAT,
              "the first selection's combinations come first");

}  // namespace tpl_case

using namespace tpl_case;

TEST_CASE("A UINT parameter's values: ranges, a list, or ranges then a list", "[ascendc][tpl]") {
  const asc_tpl::Param& u = asc_tpl_decl.p[2];
  REQUIRE(u.count() == 7);  // 0 1 2, 5 6, then 9 8
  std::vector<uint64_t> got;
  for (int i = 0; i < u.count(); ++i) got.push_back(u.value(i));
  CHECK(got == std::vector<uint64_t>{0, 1, 2, 5, 6, 9, 8});
  CHECK(u.indexOf(9) == 5);
  CHECK(u.indexOf(3) == -1);
  CHECK(asc_tpl_decl.p[0].width() == 8);
  CHECK(asc_tpl_decl.p[1].width() == 4);
  CHECK(u.width() == 4);
  CHECK(asc_tpl_decl.p[3].width() == 1);
}

TEST_CASE("GET_TPL_TILING_KEY: each value's position in its declared width, first lowest",
          "[ascendc][tpl]") {
  // D float (1) | F nz (1) << 8 | U 6 (4) << 12 | B 1 << 16.
  CHECK(GET_TPL_TILING_KEY(T_FLOAT, T_NZ, 6, 1) == (1u | 1u << 8 | 4u << 12 | 1u << 16));
  CHECK(GET_TPL_TILING_KEY(T_HALF, T_ND, 9, 0) == (5u << 12));
  // Declared but in no selection, not declared, or the wrong count: no key.
  CHECK(GET_TPL_TILING_KEY(T_HALF, T_NZ, 9, 0) == asc_tpl::kNoKey);
  CHECK(GET_TPL_TILING_KEY(T_FLOAT, T_ND, 6, 0) == asc_tpl::kNoKey);
  CHECK(GET_TPL_TILING_KEY(T_HALF, T_ND, 3, 0) == asc_tpl::kNoKey);
  CHECK(GET_TPL_TILING_KEY(T_HALF, T_ND, 9) == asc_tpl::kNoKey);
}

TEST_CASE("Every selected combination has its own key, as the kernel side walks them",
          "[ascendc][tpl]") {
  std::set<uint64_t> keys;
  for (uint64_t k = 0; k < asc_tpl_sel.combinations(); ++k) {
    uint64_t v[4];
    for (int p = 0; p < 4; ++p) v[p] = asc_tpl_sel.value(k, p);
    const uint64_t key = asc_tpl::keyOf(asc_tpl_decl, asc_tpl_sel, v, 4);
    CHECK(key != asc_tpl::kNoKey);
    keys.insert(key);
  }
  CHECK(keys.size() == 8);
  CHECK(keys.count(GET_TPL_TILING_KEY(T_FLOAT, T_NZ, 6, 1)) == 1);
}
