// index_test.cpp: GatherElements, ScatterElements/Scatter, GatherND, ScatterND and OneHot kernels
// against the ONNX definitions worked by hand (the spec's examples and a few more), their shape
// checks and constant folding.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("GatherElements along each axis, negative indices", "[ops][index]") {
  const std::vector<float> data = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // [3, 3]
  const Ints idx = {1, 2, 0, 2, 0, -3};                         // [2, 3]
  // axis 0: out[i][j] = data[idx[i][j]][j]
  OpTester a0("GatherElements");
  a0.input(DType::F32, {3, 3}).input(DType::I64, {2, 3});
  CHECK(runKernel<float>(a0, {bytesOf(data), bytesOf(idx)}) ==
        std::vector<float>{4, 8, 3, 7, 2, 3});
  // axis 1: out[i][j] = data[i][idx[i][j]]
  OpTester a1("GatherElements");
  a1.input(DType::F32, {3, 3}).input(DType::I64, {2, 3}).attr("axis", int64_t{1});
  CHECK(runKernel<float>(a1, {bytesOf(data), bytesOf(idx)}) ==
        std::vector<float>{2, 3, 1, 6, 4, 4});
  const std::vector<int32_t> i32 = {0, 0, 1, 0};
  OpTester i("GatherElements");  // int32 indices, int64 data, [2, 2] of [2, 2]
  i.input(DType::I64, {2, 2}).input(DType::I32, {2, 2}).attr("axis", int64_t{1});
  CHECK(runKernel<int64_t>(i, {bytesOf(Ints{1, 2, 3, 4}), bytesOf(i32)}) == Ints{1, 1, 4, 3});
  OpTester bad("GatherElements");
  bad.input(DType::F32, {3, 3}).constInts({3, 0}, {1, 2});
  CHECK(mentions(bad.run(), "out of range"));
  OpTester rank("GatherElements");
  rank.input(DType::F32, {3, 3}).input(DType::I64, {3});
  CHECK(mentions(rank.run(), "rank"));
  OpTester f("GatherElements");
  f.constInts({1, 2, 3, 4}, {2, 2}).constInts({1, 0, 0, 0}, {2, 2});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().tensor().toInts() == Ints{3, 2, 1, 2});
}

TEST_CASE("ScatterElements: none, add (duplicates), mul; Scatter", "[ops][index]") {
  const std::vector<float> data = {1, 2, 3, 4, 5};  // [1, 5]
  const Ints idx = {1, 3};                          // [1, 2]
  const std::vector<float> upd = {1.1f, 2.1f};
  OpTester s("ScatterElements");
  s.input(DType::F32, {1, 5}).input(DType::I64, {1, 2}).input(DType::F32, {1, 2});
  s.attr("axis", int64_t{1});
  CHECK(runKernel<float>(s, {bytesOf(data), bytesOf(idx), bytesOf(upd)}) ==
        std::vector<float>{1, 1.1f, 3, 2.1f, 5});
  const Ints dup = {1, 1};
  OpTester add("ScatterElements", 16);
  add.input(DType::F32, {1, 5}).input(DType::I64, {1, 2}).input(DType::F32, {1, 2});
  add.attr("axis", int64_t{1}).attr("reduction", std::string("add"));
  CHECK(runKernel<float>(add, {bytesOf(data), bytesOf(dup), bytesOf(upd)}) ==
        std::vector<float>{1, 2 + 1.1f + 2.1f, 3, 4, 5});
  OpTester mul("ScatterElements", 16);
  mul.input(DType::I32, {1, 5}).input(DType::I64, {1, 2}).input(DType::I32, {1, 2});
  mul.attr("axis", int64_t{1}).attr("reduction", std::string("mul"));
  CHECK(runKernel<int32_t>(mul, {bytesOf(std::vector<int32_t>{1, 2, 3, 4, 5}), bytesOf(Ints{-1, 0}),
                                 bytesOf(std::vector<int32_t>{3, -2})}) ==
        std::vector<int32_t>{-2, 2, 3, 4, 15});
  // Scatter (opset 10), axis 0: out[idx[i][j]][j] = upd[i][j]
  OpTester old("Scatter", 10);
  old.input(DType::F32, {3, 3}).input(DType::I64, {2, 3}).input(DType::F32, {2, 3});
  const std::vector<float> z(9, 0.f), u = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f};
  CHECK(runKernel<float>(old, {bytesOf(z), bytesOf(Ints{1, 0, 2, 0, 2, 1}), bytesOf(u)}) ==
        std::vector<float>{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f});
  OpTester bad("ScatterElements", 16);
  bad.input(DType::F32, {1, 5}).input(DType::I64, {1, 2}).input(DType::F32, {1, 3});
  CHECK(mentions(bad.run(), "updates"));
  OpTester red("ScatterElements", 16);
  red.input(DType::F32, {1, 5}).input(DType::I64, {1, 2}).input(DType::F32, {1, 2});
  red.attr("reduction", std::string("avg"));
  CHECK(mentions(red.run(), "reduction"));
}

TEST_CASE("GatherND with and without batch_dims", "[ops][index]") {
  // data [2, 2]; indices [[0, 0], [1, 1]] -> [0, 3]
  OpTester a("GatherND");
  a.input(DType::I32, {2, 2}).input(DType::I64, {2, 2});
  CHECK(runKernel<int32_t>(a, {bytesOf(std::vector<int32_t>{0, 1, 2, 3}),
                               bytesOf(Ints{0, 0, 1, 1})}) == std::vector<int32_t>{0, 3});
  // indices [[1], [0]] -> rows
  OpTester rows("GatherND");
  rows.input(DType::I32, {2, 2}).input(DType::I64, {2, 1});
  CHECK(runKernel<int32_t>(rows, {bytesOf(std::vector<int32_t>{0, 1, 2, 3}),
                                  bytesOf(Ints{1, 0})}) == std::vector<int32_t>{2, 3, 0, 1});
  // batch_dims 1: data [2, 2, 2], indices [[1], [0]] -> [[2, 3], [4, 5]]
  OpTester b("GatherND");
  b.input(DType::I32, {2, 2, 2}).input(DType::I64, {2, 1}).attr("batch_dims", int64_t{1});
  CHECK(runKernel<int32_t>(b, {bytesOf(std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7}),
                               bytesOf(Ints{1, 0})}) == std::vector<int32_t>{2, 3, 4, 5});
  OpTester shape("GatherND");
  shape.input(DType::F32, {2, 3, 4}).input(DType::I64, {5, 2});
  REQUIRE(shape.run().isOk());
  CHECK(shape.out().shape == ir::Shape{5, 4});
  OpTester bad("GatherND");
  bad.input(DType::F32, {2, 3}).input(DType::I64, {5, 3});
  CHECK(mentions(bad.run(), "tuples"));
}

TEST_CASE("ScatterND replaces slices; add and mul", "[ops][index]") {
  // The spec's example 1: data [8], indices [[4], [3], [1], [7]], updates [9, 10, 11, 12].
  const std::vector<float> data = {1, 2, 3, 4, 5, 6, 7, 8};
  const Ints idx = {4, 3, 1, 7};
  const std::vector<float> upd = {9, 10, 11, 12};
  OpTester s("ScatterND");
  s.input(DType::F32, {8}).input(DType::I64, {4, 1}).input(DType::F32, {4});
  CHECK(runKernel<float>(s, {bytesOf(data), bytesOf(idx), bytesOf(upd)}) ==
        std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12});
  OpTester add("ScatterND", 16);
  add.input(DType::F32, {8}).input(DType::I64, {2, 1}).input(DType::F32, {2});
  add.attr("reduction", std::string("add"));
  CHECK(runKernel<float>(add,
                         {bytesOf(data), bytesOf(Ints{0, 0}), bytesOf(std::vector<float>{5, 6})}) ==
        std::vector<float>{12, 2, 3, 4, 5, 6, 7, 8});
  // Slices: data [2, 3], indices [[1]] -> row 1 replaced, with mul.
  OpTester mul("ScatterND", 16);
  mul.input(DType::F32, {2, 3}).input(DType::I64, {1, 1}).input(DType::F32, {1, 3});
  mul.attr("reduction", std::string("mul"));
  CHECK(runKernel<float>(mul, {bytesOf(std::vector<float>{1, 2, 3, 4, 5, 6}), bytesOf(Ints{1}),
                               bytesOf(std::vector<float>{2, 0, -1})}) ==
        std::vector<float>{1, 2, 3, 8, 0, -6});
  OpTester bad("ScatterND");
  bad.input(DType::F32, {8}).input(DType::I64, {4, 1}).input(DType::F32, {3});
  CHECK(mentions(bad.run(), "updates"));
  OpTester f("ScatterND");
  f.constInts({1, 2, 3}).constInts({2}, {1, 1}).constInts({9});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().tensor().toInts() == Ints{1, 2, 9});
}

TEST_CASE("OneHot: axis, negative indices, run-time values", "[ops][index]") {
  const std::vector<float> vals = {-1.f, 5.f};  // off, on
  OpTester t("OneHot", 11);
  t.input(DType::I64, {2, 2}).constInts({3}, {}).input(DType::F32, {2});
  // indices [[0, -1], [2, 7]] along a new last axis of 3: -1 -> 2, 7 out of range (all off)
  auto got = runKernel<float>(t, {bytesOf(Ints{0, -1, 2, 7}), bytesOf(vals)});
  CHECK(got == std::vector<float>{5, -1, -1, -1, -1, 5, -1, -1, 5, -1, -1, -1});
  OpTester a("OneHot", 11);
  a.input(DType::I32, {2}).constInts({3}, {}).input(DType::F32, {2}).attr("axis", int64_t{0});
  // output [3, 2]: out[idx[j]][j] = on
  CHECK(runKernel<float>(a, {bytesOf(std::vector<int32_t>{1, 0}), bytesOf(vals)}) ==
        std::vector<float>{-1, 5, 5, -1, -1, -1});
  OpTester dyn("OneHot", 11);
  dyn.input(DType::I64, {2}).input(DType::I64, {}).input(DType::F32, {2});
  CHECK(mentions(dyn.run(), "depth"));
}

TEST_CASE("TensorScatter: linear, circular, default indices, misfits", "[ops][index]") {
  // cache [2, 3, 2] (batch, sequence, width), update [2, 2, 2] along axis 1 (= -2)
  const std::vector<float> cache = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
  const std::vector<float> upd = {-1, -2, -3, -4, -5, -6, -7, -8};
  OpTester lin("TensorScatter", 24);
  lin.input(DType::F32, {2, 3, 2}).input(DType::F32, {2, 2, 2}).input(DType::I64, {2});
  CHECK(runKernel<float>(lin, {bytesOf(cache), bytesOf(upd), bytesOf(Ints{1, 0})}) ==
        std::vector<float>{0, 1, -1, -2, -3, -4, -5, -6, -7, -8, 14, 15});
  OpTester circ("TensorScatter", 24);
  circ.input(DType::F32, {2, 3, 2}).input(DType::F32, {2, 2, 2}).input(DType::I64, {2});
  circ.attr("mode", std::string("circular"));
  CHECK(runKernel<float>(circ, {bytesOf(cache), bytesOf(upd), bytesOf(Ints{2, 1})}) ==
        std::vector<float>{-3, -4, 2, 3, -1, -2, 10, 11, -5, -6, -7, -8});
  OpTester none("TensorScatter", 24);  // no write_indices: row 0; int8 rows copied as bytes
  none.input(DType::I8, {1, 3, 1}).input(DType::I8, {1, 1, 1}).attr("axis", int64_t{1});
  CHECK(runKernel<int8_t>(
            none, {bytesOf(std::vector<int8_t>{1, 2, 3}), bytesOf(std::vector<int8_t>{-128})}) ==
        std::vector<int8_t>{-128, 2, 3});
  OpTester longer("TensorScatter", 24);
  longer.input(DType::F32, {2, 3, 2}).input(DType::F32, {2, 4, 2});
  CHECK(mentions(longer.run(), "at most as long"));
  OpTester batch("TensorScatter", 24);
  batch.input(DType::F32, {2, 3, 2}).input(DType::F32, {2, 3, 2}).attr("axis", int64_t{0});
  CHECK(mentions(batch.run(), "batch dim"));
  OpTester mode("TensorScatter", 24);
  mode.input(DType::F32, {2, 3, 2}).input(DType::F32, {2, 1, 2});
  mode.attr("mode", std::string("ring"));
  CHECK(mentions(mode.run(), "linear or circular"));
}
