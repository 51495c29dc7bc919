// datadep_test.cpp: NonZero, Compress, Unique and NonMaxSuppression fold on constant inputs to
// the outputs of the ONNX backend node tests (their data, copied here), and agree with naive
// references on random inputs; a non-constant input fails with the message that names it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <limits>
#include <random>

#include "testkit/op_tester.h"

using namespace asc;
using asc::test::doublesOf;
using asc::test::mentions;
using asc::test::OpTester;
using ir::DType;
using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;

namespace {

OpTester& constBools(OpTester& t, const std::vector<uint8_t>& v, ir::Shape s) {
  return t.constant(DType::Bool, std::move(s), v.data(), v.size());
}

Ints intsOf(const OpTester& t, int i) {
  REQUIRE(t.out(i).isConstant());
  return t.out(i).tensor().toInts();
}

Floats floatsOf(const OpTester& t, int i) {
  REQUIRE(t.out(i).isConstant());
  Floats f;
  for (double d : doublesOf(t.out(i))) f.push_back(static_cast<float>(d));
  return f;
}

// ONNX's NonMaxSuppression node tests share these boxes and scores.
const Floats kBoxes = {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                       0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101};
const Floats kScores = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};

OpTester nms(const Floats& boxes, ir::Shape bs, const Floats& scores, ir::Shape ss, int64_t max_out,
             float iou, float score_thr, int64_t center = 0) {
  OpTester t("NonMaxSuppression", 11);
  t.constFloats(boxes, std::move(bs)).constFloats(scores, std::move(ss));
  t.constInts({max_out}, {1}).constFloats({iou}, {1}).constFloats({score_thr}, {1});
  if (center) t.attr("center_point_box", center);
  return t;
}

}  // namespace

TEST_CASE("NonZero: the node test, scalars, a naive walk", "[ops][datadep]") {
  OpTester t("NonZero", 13);
  constBools(t, {1, 0, 1, 1}, {2, 2});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 3});
  CHECK(intsOf(t, 0) == Ints{0, 1, 1, 0, 0, 1});

  OpTester s("NonZero", 13);
  s.constFloats({2.5f}, {});
  REQUIRE(s.run().isOk());
  CHECK(s.out().shape == ir::Shape{1, 1});

  std::mt19937 rng(7767517);
  Floats x(3 * 4 * 5);
  for (auto& v : x) v = rng() % 3 == 0 ? 0.f : static_cast<float>(rng() % 7) - 3.f;
  OpTester r("NonZero", 13);
  r.constFloats(x, {3, 4, 5});
  REQUIRE(r.run().isOk());
  Ints want[3];
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 5; ++k)
        if (x[(i * 4 + j) * 5 + k] != 0) {
          want[0].push_back(i);
          want[1].push_back(j);
          want[2].push_back(k);
        }
  Ints flat;
  for (auto& w : want) flat.insert(flat.end(), w.begin(), w.end());
  CHECK(r.out().shape == ir::Shape{3, static_cast<int64_t>(want[0].size())});
  CHECK(intsOf(r, 0) == flat);

  OpTester dyn("NonZero", 13);
  dyn.input(DType::F32, {2, 2});
  CHECK(mentions(dyn.run(), "input 0 ('in0') must be known at compile time (a constant)"));
}

TEST_CASE("Compress: the node tests and a naive selection", "[ops][datadep]") {
  const Floats x = {1, 2, 3, 4, 5, 6};  // [3, 2]
  struct Case {
    std::vector<uint8_t> cond;
    int64_t axis;  // 99: no axis
    ir::Shape shape;
    Floats want;
  };
  const Case cases[] = {
      {{0, 1, 1}, 0, {2, 2}, {3, 4, 5, 6}},                    // test_compress_0
      {{0, 1}, 1, {3, 1}, {2, 4, 6}},                          // test_compress_1
      {{0, 1, 0, 0, 1}, 99, {2}, {2, 5}},                      // test_compress_default_axis
      {{0, 1}, -1, {3, 1}, {2, 4, 6}},                         // test_compress_negative_axis
      {{1, 0, 1, 1, 1, 1, 1, 1, 1}, 0, {2, 2}, {1, 2, 5, 6}},  // longer than the axis
      {{}, 99, {0}, {}},                                       // nothing selected
  };
  for (const auto& c : cases) {
    OpTester t("Compress", 11);
    t.constFloats(x, {3, 2});
    constBools(t, c.cond, {static_cast<int64_t>(c.cond.size())});
    if (c.axis != 99) t.attr("axis", c.axis);
    REQUIRE(t.run().isOk());
    CHECK(t.out().shape == c.shape);
    if (!c.want.empty()) CHECK(floatsOf(t, 0) == c.want);
  }
  // Naive: int64 [4, 5, 6] along axis 1.
  std::mt19937 rng(11);
  Ints v(120);
  for (auto& e : v) e = static_cast<int64_t>(rng() % 1000);
  const std::vector<uint8_t> cond = {1, 0, 0, 1, 1};
  OpTester t("Compress", 11);
  t.constInts(v, {4, 5, 6});
  constBools(t, cond, {5});
  t.attr("axis", int64_t{1});
  REQUIRE(t.run().isOk());
  Ints want;
  for (int64_t a = 0; a < 4; ++a)
    for (int64_t b = 0; b < 5; ++b)
      if (cond[b])
        for (int64_t c = 0; c < 6; ++c) want.push_back(v[(a * 5 + b) * 6 + c]);
  CHECK(t.out().shape == ir::Shape{4, 3, 6});
  CHECK(intsOf(t, 0) == want);

  OpTester dyn("Compress", 11);
  dyn.input(DType::F32, {3, 2});
  constBools(dyn, {1, 0}, {2});
  CHECK(mentions(dyn.run(), "input 0 ('in0') must be known at compile time (a constant)"));
  OpTester bad_axis("Compress", 11);
  bad_axis.constFloats(x, {3, 2});
  constBools(bad_axis, {1}, {1});
  bad_axis.attr("axis", int64_t{2});
  CHECK(mentions(bad_axis.run(), "out of range"));
}

TEST_CASE("Unique: the node tests (4 outputs)", "[ops][datadep]") {
  struct Case {
    Floats x;
    ir::Shape xs;
    int64_t axis;  // 99: no axis
    int64_t sorted;
    ir::Shape ys;
    Floats y;
    Ints idx, inv, cnt;
  };
  const Case cases[] = {
      {{2, 1, 1, 3, 4, 3},
       {6},
       99,
       0,
       {4},
       {2, 1, 3, 4},
       {0, 1, 3, 4},
       {0, 1, 1, 2, 3, 2},
       {1, 2, 2, 1}},  // test_unique_not_sorted_without_axis
      {{2, 1, 1, 3, 4, 3},
       {6},
       99,
       1,
       {4},
       {1, 2, 3, 4},
       {1, 0, 3, 4},
       {1, 0, 0, 2, 3, 2},
       {2, 1, 2, 1}},  // test_unique_sorted_without_axis
      {{1, 0, 0, 1, 0, 0, 2, 3, 4},
       {3, 3},
       0,
       1,
       {2, 3},
       {1, 0, 0, 2, 3, 4},
       {0, 2},
       {0, 0, 1},
       {2, 1}},  // test_unique_sorted_with_axis
      {{1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1},
       {2, 4, 2},
       1,
       1,
       {2, 3, 2},
       {0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1},
       {1, 0, 2},
       {1, 0, 2, 0},
       {2, 1, 1}},  // test_unique_sorted_with_axis_3d
      {{1, 0, 0, 1, 0, 0, 2, 3, 3},
       {3, 3},
       -1,
       1,
       {3, 2},
       {0, 1, 0, 1, 3, 2},
       {1, 0},
       {1, 0, 0},
       {2, 1}},  // test_unique_sorted_with_negative_axis
  };
  for (const auto& c : cases) {
    OpTester t("Unique", 11);
    t.constFloats(c.x, c.xs).outputs(4).attr("sorted", c.sorted);
    if (c.axis != 99) t.attr("axis", c.axis);
    REQUIRE(t.run().isOk());
    CHECK(t.out(0).shape == c.ys);
    CHECK(floatsOf(t, 0) == c.y);
    CHECK(intsOf(t, 1) == c.idx);
    CHECK(intsOf(t, 2) == c.inv);
    CHECK(intsOf(t, 3) == c.cnt);
  }
}

TEST_CASE("Unique agrees with a naive scan; NaNs; one output", "[ops][datadep]") {
  std::mt19937 rng(5);
  for (int64_t sorted = 0; sorted < 2; ++sorted) {
    Ints x(200);
    for (auto& v : x) v = static_cast<int64_t>(rng() % 23) - 11;
    // Naive: first occurrences in order, then (sorted) by value.
    Ints uniq;
    for (int64_t v : x)
      if (std::find(uniq.begin(), uniq.end(), v) == uniq.end()) uniq.push_back(v);
    if (sorted) std::sort(uniq.begin(), uniq.end());
    Ints idx, inv, cnt;
    for (int64_t u : uniq) {
      idx.push_back(std::find(x.begin(), x.end(), u) - x.begin());
      cnt.push_back(std::count(x.begin(), x.end(), u));
    }
    for (int64_t v : x) inv.push_back(std::find(uniq.begin(), uniq.end(), v) - uniq.begin());
    OpTester t("Unique", 11);
    t.constInts(x, {200}).outputs(4).attr("sorted", sorted);
    REQUIRE(t.run().isOk());
    CHECK(intsOf(t, 0) == uniq);
    CHECK(intsOf(t, 1) == idx);
    CHECK(intsOf(t, 2) == inv);
    CHECK(intsOf(t, 3) == cnt);
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  OpTester n("Unique", 11);
  n.constFloats({nan, 1, nan, -0.f, 0.f}, {5});
  REQUIRE(n.run().isOk());
  CHECK(n.out().shape == ir::Shape{3});  // 0 (= -0), 1, NaN
  OpTester dyn("Unique", 11);
  dyn.input(DType::F32, {4});
  CHECK(mentions(dyn.run(), "must be known at compile time"));
}

TEST_CASE("NonMaxSuppression: the node tests", "[ops][datadep]") {
  // test_nonmaxsuppression_suppress_by_IOU
  OpTester iou = nms(kBoxes, {1, 6, 4}, kScores, {1, 1, 6}, 3, 0.5f, 0.f);
  REQUIRE(iou.run().isOk());
  CHECK(intsOf(iou, 0) == Ints{0, 0, 3, 0, 0, 0, 0, 0, 5});
  // test_nonmaxsuppression_suppress_by_IOU_and_scores
  OpTester sc = nms(kBoxes, {1, 6, 4}, kScores, {1, 1, 6}, 3, 0.5f, 0.4f);
  REQUIRE(sc.run().isOk());
  CHECK(intsOf(sc, 0) == Ints{0, 0, 3, 0, 0, 0});
  // test_nonmaxsuppression_limit_output_size
  OpTester lim = nms(kBoxes, {1, 6, 4}, kScores, {1, 1, 6}, 2, 0.5f, 0.f);
  REQUIRE(lim.run().isOk());
  CHECK(intsOf(lim, 0) == Ints{0, 0, 3, 0, 0, 0});
  // test_nonmaxsuppression_flipped_coordinates
  const Floats flipped = {1, 1,  0, 0,  0, 0.1f,  1, 1.1f,  0, 0.9f, 1, -0.1f,
                          0, 10, 1, 11, 1, 10.1f, 0, 11.1f, 1, 101,  0, 100};
  OpTester fl = nms(flipped, {1, 6, 4}, kScores, {1, 1, 6}, 3, 0.5f, 0.f);
  REQUIRE(fl.run().isOk());
  CHECK(intsOf(fl, 0) == Ints{0, 0, 3, 0, 0, 0, 0, 0, 5});
  // test_nonmaxsuppression_center_point_box_format
  const Floats centers = {0.5f, 0.5f,  1, 1, 0.5f, 0.6f,  1, 1, 0.5f, 0.4f,   1, 1,
                          0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1};
  OpTester cp = nms(centers, {1, 6, 4}, kScores, {1, 1, 6}, 3, 0.5f, 0.f, 1);
  REQUIRE(cp.run().isOk());
  CHECK(intsOf(cp, 0) == Ints{0, 0, 3, 0, 0, 0, 0, 0, 5});
  // test_nonmaxsuppression_identical_boxes
  Floats same;
  for (int i = 0; i < 10; ++i) same.insert(same.end(), {0, 0, 1, 1});
  OpTester id = nms(same, {1, 10, 4}, Floats(10, 0.9f), {1, 1, 10}, 3, 0.5f, 0.f);
  REQUIRE(id.run().isOk());
  CHECK(intsOf(id, 0) == Ints{0, 0, 0});
  // test_nonmaxsuppression_single_box
  OpTester one = nms({0, 0, 1, 1}, {1, 1, 4}, {0.9f}, {1, 1, 1}, 3, 0.5f, 0.f);
  REQUIRE(one.run().isOk());
  CHECK(intsOf(one, 0) == Ints{0, 0, 0});
  // test_nonmaxsuppression_two_batches
  Floats b2 = kBoxes, s2 = kScores;
  b2.insert(b2.end(), kBoxes.begin(), kBoxes.end());
  s2.insert(s2.end(), kScores.begin(), kScores.end());
  OpTester tb = nms(b2, {2, 6, 4}, s2, {2, 1, 6}, 2, 0.5f, 0.f);
  REQUIRE(tb.run().isOk());
  CHECK(intsOf(tb, 0) == Ints{0, 0, 3, 0, 0, 0, 1, 0, 3, 1, 0, 0});
  // test_nonmaxsuppression_two_classes
  OpTester tc = nms(kBoxes, {1, 6, 4}, s2, {1, 2, 6}, 2, 0.5f, 0.f);
  REQUIRE(tc.run().isOk());
  CHECK(intsOf(tc, 0) == Ints{0, 0, 3, 0, 0, 0, 0, 1, 3, 0, 1, 0});
}

TEST_CASE("NonMaxSuppression: defaults, hostile values, non-constant inputs", "[ops][datadep]") {
  // Without max_output_boxes_per_class nothing is selected.
  OpTester none("NonMaxSuppression", 11);
  none.constFloats(kBoxes, {1, 6, 4}).constFloats(kScores, {1, 1, 6});
  REQUIRE(none.run().isOk());
  CHECK(none.out().shape == ir::Shape{0, 3});
  // NaN scores and boxes: no crash, NaN-scored boxes come last.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Floats boxes = kBoxes;
  boxes[4] = nan;
  OpTester n =
      nms(boxes, {1, 6, 4}, {nan, 0.75f, nan, 0.95f, 0.5f, 0.3f}, {1, 1, 6}, 100, 0.5f, -1.f);
  REQUIRE(n.run().isOk());  // score > -1 excludes the NaNs
  CHECK(intsOf(n, 0) == Ints{0, 0, 3, 0, 0, 1, 0, 0, 5});
  OpTester bad = nms(kBoxes, {1, 6, 4}, kScores, {1, 1, 6}, 3, 1.5f, 0.f);
  CHECK(mentions(bad.run(), "iou_threshold"));
  OpTester shape("NonMaxSuppression", 11);
  shape.constFloats(kBoxes, {1, 6, 4}).constFloats(kScores, {1, 1, 5});
  CHECK(mentions(shape.run(), "[B, N, 4]"));
  OpTester dyn("NonMaxSuppression", 11);
  dyn.constFloats(kBoxes, {1, 6, 4}).input(DType::F32, {1, 1, 6}).constInts({3}, {1});
  CHECK(mentions(dyn.run(), "input 1 ('in1') must be known at compile time (a constant)"));
}

TEST_CASE("Data-dependent ops on empty and extreme inputs", "[ops][datadep]") {
  OpTester nz("NonZero", 13);
  nz.constFloats({}, {2, 0, 3});
  REQUIRE(nz.run().isOk());
  CHECK(nz.out().shape == ir::Shape{3, 0});
  OpTester u("Unique", 11);
  u.constFloats({}, {0}).outputs(4);
  REQUIRE(u.run().isOk());
  CHECK(u.out(0).shape == ir::Shape{0});
  CHECK(u.out(2).shape == ir::Shape{0});
  // Slices of no element along axis 0 are all equal.
  OpTester ua("Unique", 11);
  ua.constFloats({}, {3, 0}).outputs(4).attr("axis", int64_t{0});
  REQUIRE(ua.run().isOk());
  CHECK(ua.out(0).shape == ir::Shape{1, 0});
  CHECK(intsOf(ua, 3) == Ints{3});
  OpTester ub("Unique", 11);
  ub.constFloats({1}, {1}).attr("axis", int64_t{3});
  CHECK(mentions(ub.run(), "out of range"));
  OpTester c("Compress", 11);
  c.constFloats({}, {0, 2});
  constBools(c, {1, 1}, {2});
  c.attr("axis", int64_t{1});
  REQUIRE(c.run().isOk());
  CHECK(c.out().shape == ir::Shape{0, 2});
  // No boxes; an enormous max_output_boxes_per_class; int32 scalars are not what the spec says
  // but read all the same.
  OpTester e("NonMaxSuppression", 11);
  e.constFloats({}, {1, 0, 4}).constFloats({}, {1, 3, 0}).constInts({INT64_MAX}, {});
  REQUIRE(e.run().isOk());
  CHECK(e.out().shape == ir::Shape{0, 3});
  OpTester big = nms(kBoxes, {1, 6, 4}, kScores, {1, 1, 6}, INT64_MAX, 1.f, 0.f);
  REQUIRE(big.run().isOk());
  CHECK(big.out().shape == ir::Shape{6, 3});  // iou 1 suppresses nothing
  OpTester two("NonMaxSuppression", 11);
  two.constFloats(kBoxes, {1, 6, 4}).constFloats(kScores, {1, 1, 6}).constInts({1, 2}, {2});
  CHECK(mentions(two.run(), "one value"));
}

TEST_CASE("NonMaxSuppression and Unique on special values finish", "[ops][datadep]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float special[] = {nan, inf, -inf, 1e30f, -1e30f, 0.f, 0.5f, -0.f, 1.f};
  std::mt19937 rng(3);
  for (int round = 0; round < 30; ++round) {
    Floats boxes(2 * 8 * 4), scores(2 * 3 * 8);
    for (auto& v : boxes) v = special[rng() % 9];
    for (auto& v : scores) v = special[rng() % 9];
    OpTester t = nms(boxes, {2, 8, 4}, scores, {2, 3, 8}, 5, 0.5f, special[rng() % 9],
                     static_cast<int64_t>(rng() % 2));
    REQUIRE(t.run().isOk());
    const Ints rows = intsOf(t, 0);
    REQUIRE(rows.size() % 3 == 0);
    for (size_t i = 0; i < rows.size(); i += 3) {
      CHECK(rows[i] < 2);
      CHECK(rows[i + 1] < 3);
      CHECK(rows[i + 2] < 8);
    }
    OpTester u("Unique", 11);
    u.constFloats(scores, {6, 8}).outputs(4).attr("axis", int64_t{round % 2});
    REQUIRE(u.run().isOk());
    const Ints counts = intsOf(u, 3);
    int64_t total = 0;
    for (int64_t c : counts) total += c;
    CHECK(total == (round % 2 ? 8 : 6));
  }
}
