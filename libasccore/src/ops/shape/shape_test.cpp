// shape_test.cpp: shape inference, canonical attributes and constant folding of the
// shape-manipulation ops, including a whole Shape -> Gather -> Unsqueeze -> Concat -> Reshape
// chain on a runtime input, which must fold down to one Reshape with a constant shape; Size,
// CastLike and the SpaceToDepth kernel (Constant, ConstantOfShape and Range: constant_test.cpp;
// Pad: pad_test.cpp).
#include <catch2/catch.hpp>

#include <limits>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("Shape gives the dims and folds even on a runtime input", "[ops][shape]") {
  OpTester t("Shape");
  t.input(DType::F32, {2, 3, 4});
  REQUIRE(t.run().isOk());
  REQUIRE(t.out().isConstant());
  CHECK(t.out().dtype == DType::I64);
  CHECK(t.out().tensor().toInts() == Ints{2, 3, 4});
  CHECK(t.node() == nullptr);  // folded away

  OpTester s("Shape", 15);
  s.input(DType::F32, {2, 3, 4, 5}).attr("start", int64_t{1}).attr("end", int64_t{-1});
  REQUIRE(s.run().isOk());
  CHECK(s.out().tensor().toInts() == Ints{3, 4});

  OpTester nf("Shape");
  nf.input(DType::F32, {7});
  REQUIRE(nf.run(false).isOk());
  CHECK(nf.out().shape == ir::Shape{1});
  CHECK_FALSE(nf.out().isConstant());
}

TEST_CASE("Shape->Gather->Unsqueeze->Concat->Reshape folds to one Reshape", "[ops][shape]") {
  ir::Graph g;
  g.opset = 13;
  auto add = [&](const std::string& name, DType t, ir::Shape s) {
    ir::Value* v = g.addValue(name);
    v->dtype = t;
    v->shape = std::move(s);
    return v;
  };
  ir::Value* x = add("x", DType::F32, {2, 3, 4});
  g.inputs.push_back(x);
  auto ints = [&](const std::string& name, Ints v, ir::Shape s) {
    return g.addConstant(name, ir::Tensor{DType::I64, s, ir::Blob::copyOf(v.data(), v.size() * 8)});
  };
  ir::Value* shape = g.addValue("shape");
  g.addNode("Shape", "shape", {x}, {shape});
  ir::Value* dim0 = g.addValue("dim0");
  g.addNode("Gather", "gather", {shape, ints("zero", {0}, {})}, {dim0});
  ir::Value* dim0v = g.addValue("dim0v");
  g.addNode("Unsqueeze", "unsq", {dim0, ints("axes", {0}, {1})}, {dim0v});
  ir::Value* target = g.addValue("target");
  ir::Node* cat = g.addNode("Concat", "cat", {dim0v, ints("minus1", {-1}, {1})}, {target});
  cat->attrs.set("axis", int64_t{0});
  ir::Value* y = g.addValue("y");
  g.addNode("Reshape", "reshape", {x, target}, {y});
  g.outputs.push_back(y);

  REQUIRE(ops::inferGraph(g).isOk());
  REQUIRE(g.nodes().size() == 1);
  const ir::Node& r = *g.nodes()[0];
  CHECK(r.op_type == "Reshape");
  CHECK(r.inputs.size() == 1);
  CHECK(r.attrs.getInts("shape") == Ints{2, 12});
  CHECK(y->shape == ir::Shape{2, 12});
  CHECK(ir::verify(g).isOk());
}

TEST_CASE("Reshape resolves 0 and -1 into the shape attribute", "[ops][shape]") {
  OpTester t("Reshape");
  t.input(DType::F32, {2, 3, 4}).constInts({0, -1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 12});
  CHECK(t.node()->inputs.size() == 1);
  CHECK(t.node()->attrs.getInts("shape") == Ints{2, 12});

  OpTester z("Reshape", 14);
  z.input(DType::F32, {0, 3}).constInts({3, 0}).attr("allowzero", int64_t{1});
  REQUIRE(z.run().isOk());
  CHECK(z.out().shape == ir::Shape{3, 0});

  OpTester old("Reshape", 4);  // shape was an attribute before opset 5
  old.input(DType::F32, {6}).attr("shape", Ints{2, -1});
  REQUIRE(old.run().isOk());
  CHECK(old.out().shape == ir::Shape{2, 3});

  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  OpTester c("Reshape");
  c.constFloats(data, {6}).constInts({3, 2});
  REQUIRE(c.run().isOk());
  REQUIRE(c.out().isConstant());
  CHECK(c.out().shape == ir::Shape{3, 2});
  CHECK(floatsOf(c.out()) == data);
}

TEST_CASE("Reshape rejects bad shapes and dynamic targets", "[ops][shape]") {
  OpTester n("Reshape");
  n.input(DType::F32, {2, 3}).constInts({4, 2});
  CHECK(mentions(n.run(), "cannot reshape"));
  OpTester two("Reshape");
  two.input(DType::F32, {2, 3}).constInts({-1, -1});
  CHECK(mentions(two.run(), "more than one -1"));
  OpTester zero("Reshape");
  zero.input(DType::F32, {2, 3}).constInts({1, 1, 0});
  CHECK(mentions(zero.run(), "only 2 dims"));
  OpTester dyn("Reshape");
  dyn.input(DType::F32, {2, 3}).input(DType::I64, {2});
  CHECK(mentions(dyn.run(), "compile time"));
}

TEST_CASE("Flatten and Transpose", "[ops][shape]") {
  OpTester f("Flatten");
  f.input(DType::F32, {2, 3, 4, 5}).attr("axis", int64_t{-2});
  REQUIRE(f.run().isOk());
  CHECK(f.out().shape == ir::Shape{6, 20});
  OpTester f0("Flatten");
  f0.input(DType::F32, {2, 3}).attr("axis", int64_t{0});
  REQUIRE(f0.run().isOk());
  CHECK(f0.out().shape == ir::Shape{1, 6});
  OpTester fb("Flatten");
  fb.input(DType::F32, {2, 3}).attr("axis", int64_t{3});
  CHECK(mentions(fb.run(), "axis 3"));

  OpTester t("Transpose");
  t.input(DType::F32, {2, 3, 4});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{4, 3, 2});
  CHECK(t.node()->attrs.getInts("perm") == Ints{2, 1, 0});
  OpTester bad("Transpose");
  bad.input(DType::F32, {2, 3, 4}).attr("perm", Ints{0, 0, 1});
  CHECK(mentions(bad.run(), "permutation"));
  OpTester len("Transpose");
  len.input(DType::F32, {2, 3}).attr("perm", Ints{0, 1, 2});
  CHECK(mentions(len.run(), "rank 2"));

  OpTester c("Transpose");
  c.constFloats({1, 2, 3, 4, 5, 6}, {2, 3}).attr("perm", Ints{1, 0});
  REQUIRE(c.run().isOk());
  CHECK(c.out().shape == ir::Shape{3, 2});
  CHECK(floatsOf(c.out()) == std::vector<float>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("Squeeze axes: attribute at opset 11, input at 13", "[ops][shape]") {
  OpTester a("Squeeze", 11);
  a.input(DType::F32, {1, 3, 1, 4}).attr("axes", Ints{-2});
  REQUIRE(a.run().isOk());
  CHECK(a.out().shape == ir::Shape{1, 3, 4});
  CHECK(a.node()->attrs.getInts("axes") == Ints{2});

  OpTester i("Squeeze", 13);
  i.input(DType::F32, {1, 3, 1, 4}).constInts({2, 0});
  REQUIRE(i.run().isOk());
  CHECK(i.out().shape == ir::Shape{3, 4});
  CHECK(i.node()->inputs.size() == 1);
  CHECK(i.node()->attrs.getInts("axes") == Ints{0, 2});

  OpTester all("Squeeze", 13);
  all.input(DType::F32, {1, 3, 1});
  REQUIRE(all.run().isOk());
  CHECK(all.out().shape == ir::Shape{3});

  OpTester not1("Squeeze", 13);
  not1.input(DType::F32, {1, 3}).constInts({1});
  CHECK(mentions(not1.run(), "not 1"));
  OpTester range("Squeeze", 11);
  range.input(DType::F32, {1, 3}).attr("axes", Ints{2});
  CHECK(mentions(range.run(), "out of range"));
  OpTester dyn("Squeeze", 13);
  dyn.input(DType::F32, {1, 3}).input(DType::I64, {1});
  CHECK(mentions(dyn.run(), "compile time"));
}

TEST_CASE("Unsqueeze axes count in the output rank and fold", "[ops][shape]") {
  OpTester a("Unsqueeze", 11);
  a.input(DType::F32, {3, 4}).attr("axes", Ints{0, -1});
  REQUIRE(a.run().isOk());
  CHECK(a.out().shape == ir::Shape{1, 3, 4, 1});
  CHECK(a.node()->attrs.getInts("axes") == Ints{0, 3});

  OpTester i("Unsqueeze", 13);
  i.constInts({5}, {}).constInts({0});
  REQUIRE(i.run().isOk());
  REQUIRE(i.out().isConstant());
  CHECK(i.out().shape == ir::Shape{1});
  CHECK(i.out().tensor().toInts() == Ints{5});

  OpTester dup("Unsqueeze", 13);
  dup.input(DType::F32, {3}).constInts({0, 0});
  CHECK(mentions(dup.run(), "twice"));
  OpTester none("Unsqueeze", 13);
  none.input(DType::F32, {3});
  CHECK(mentions(none.run(), "axes"));
}

TEST_CASE("Expand and Tile", "[ops][shape]") {
  OpTester e("Expand");
  e.input(DType::F32, {3, 1}).constInts({2, 1, 4});
  REQUIRE(e.run().isOk());
  CHECK(e.out().shape == ir::Shape{2, 3, 4});
  CHECK(e.node()->attrs.getInts("shape") == Ints{2, 3, 4});
  OpTester eb("Expand");
  eb.input(DType::F32, {3}).constInts({4});
  CHECK(mentions(eb.run(), "cannot be expanded"));
  OpTester ec("Expand");
  ec.constInts({1, 2}, {2, 1}).constInts({2, 3});
  REQUIRE(ec.run().isOk());
  CHECK(ec.out().tensor().toInts() == Ints{1, 1, 1, 2, 2, 2});

  OpTester t("Tile");
  t.input(DType::F32, {2, 3}).constInts({2, 1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{4, 3});
  OpTester tc("Tile");
  tc.constInts({1, 2}, {2}).constInts({3});
  REQUIRE(tc.run().isOk());
  CHECK(tc.out().tensor().toInts() == Ints{1, 2, 1, 2, 1, 2});
  OpTester tb("Tile");
  tb.input(DType::F32, {2, 3}).constInts({2});
  CHECK(mentions(tb.run(), "rank 2"));
}

TEST_CASE("Concat checks ranks and dims and folds", "[ops][shape]") {
  OpTester t("Concat");
  t.input(DType::F32, {2, 3}).input(DType::F32, {2, 5}).attr("axis", int64_t{-1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{2, 8});
  CHECK(t.node()->attrs.getInt("axis", -1) == 1);
  OpTester bad("Concat");
  bad.input(DType::F32, {2, 3}).input(DType::F32, {3, 3}).attr("axis", int64_t{1});
  CHECK(mentions(bad.run(), "does not match"));
  OpTester noaxis("Concat");
  noaxis.input(DType::F32, {2});
  CHECK(mentions(noaxis.run(), "axis is required"));
  OpTester range("Concat");
  range.input(DType::F32, {2}).attr("axis", int64_t{1});
  CHECK(mentions(range.run(), "out of range"));
  OpTester c("Concat");
  c.constInts({1, 2, 3, 4}, {2, 2}).constInts({5, 6}, {2, 1}).attr("axis", int64_t{1});
  REQUIRE(c.run().isOk());
  CHECK(c.out().tensor().toInts() == Ints{1, 2, 5, 3, 4, 6});
}

TEST_CASE("Split: attribute before 13, input since, equal parts otherwise", "[ops][shape]") {
  OpTester a("Split", 11);
  a.input(DType::F32, {2, 6}).attr("axis", int64_t{1}).attr("split", Ints{2, 4}).outputs(2);
  REQUIRE(a.run().isOk());
  CHECK(a.out(0).shape == ir::Shape{2, 2});
  CHECK(a.out(1).shape == ir::Shape{2, 4});
  OpTester i("Split", 13);
  i.input(DType::F32, {6}).constInts({1, 5}).outputs(2);
  REQUIRE(i.run().isOk());
  CHECK(i.out(1).shape == ir::Shape{5});
  CHECK(i.node()->attrs.getInts("split") == Ints{1, 5});
  OpTester eq("Split", 13);
  eq.input(DType::F32, {6, 2}).outputs(3);
  REQUIRE(eq.run().isOk());
  CHECK(eq.out(2).shape == ir::Shape{2, 2});
  OpTester uneven("Split", 13);
  uneven.input(DType::F32, {7}).outputs(2);
  CHECK(mentions(uneven.run(), "equal parts"));
  OpTester sum("Split", 13);
  sum.input(DType::F32, {6}).constInts({1, 2}).outputs(2);
  CHECK(mentions(sum.run(), "sums to 3"));
  OpTester c("Split", 13);
  c.constInts({1, 2, 3, 4, 5, 6}, {2, 3}).constInts({1, 2}).attr("axis", int64_t{1}).outputs(2);
  REQUIRE(c.run().isOk());
  CHECK(c.out(0).tensor().toInts() == Ints{1, 4});
  CHECK(c.out(1).tensor().toInts() == Ints{2, 3, 5, 6});
}

TEST_CASE("Slice normalizes starts/ends/axes/steps", "[ops][shape]") {
  const int64_t big = std::numeric_limits<int64_t>::max();
  OpTester t("Slice", 13);
  t.input(DType::F32, {10, 20}).constInts({1, -5}).constInts({big, -1}).constInts({0, -1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{9, 4});
  CHECK(t.node()->inputs.size() == 1);
  CHECK(t.node()->attrs.getInts("starts") == Ints{1, 15});
  CHECK(t.node()->attrs.getInts("ends") == Ints{10, 19});
  CHECK(t.node()->attrs.getInts("axes") == Ints{0, 1});
  CHECK(t.node()->attrs.getInts("steps") == Ints{1, 1});

  OpTester rev("Slice", 13);  // x[::-1] and x[::-2] along the two axes
  rev.input(DType::F32, {5, 6})
      .constInts({-1, big})
      .constInts({-big - 1, -big - 1})
      .constInts({0, 1})
      .constInts({-1, -2});
  REQUIRE(rev.run().isOk());
  CHECK(rev.out().shape == ir::Shape{5, 3});
  CHECK(rev.node()->attrs.getInts("starts") == Ints{4, 5});
  CHECK(rev.node()->attrs.getInts("ends") == Ints{-6, -7});

  OpTester old("Slice", 9);
  old.input(DType::F32, {4, 6}).attr("starts", Ints{1}).attr("ends", Ints{3}).attr("axes", Ints{1});
  REQUIRE(old.run().isOk());
  CHECK(old.out().shape == ir::Shape{4, 2});

  OpTester c("Slice", 13);
  c.constInts({0, 1, 2, 3, 4, 5}).constInts({-2}).constInts({0}).none().constInts({-2});
  REQUIRE(c.run().isOk());
  REQUIRE(c.out().isConstant());
  CHECK(c.out().tensor().toInts() == Ints{4, 2});

  OpTester zero("Slice", 13);
  zero.input(DType::F32, {4}).constInts({0}).constInts({4}).constInts({0}).constInts({0});
  CHECK(mentions(zero.run(), "0 step"));
  OpTester axis("Slice", 13);
  axis.input(DType::F32, {4}).constInts({0}).constInts({4}).constInts({1});
  CHECK(mentions(axis.run(), "out of range"));
  OpTester len("Slice", 13);
  len.input(DType::F32, {4, 4}).constInts({0, 0}).constInts({4});
  CHECK(mentions(len.run(), "differ in length"));
}

TEST_CASE("Slice re-inference on the canonical node is stable", "[ops][shape]") {
  const int64_t big = std::numeric_limits<int64_t>::max();
  OpTester t("Slice", 13);
  t.input(DType::F32, {5}).constInts({big}).constInts({-big - 1}).constInts({0}).constInts({-1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{5});
  ir::Attrs before = t.node()->attrs;
  REQUIRE(ops::inferGraph(t.graph()).isOk());
  CHECK(t.out().shape == ir::Shape{5});
  CHECK(t.node()->attrs == before);
}

TEST_CASE("Gather shapes, negative indices and range checks", "[ops][shape]") {
  OpTester t("Gather");
  t.input(DType::F32, {5, 6, 7}).input(DType::I64, {2, 3}).attr("axis", int64_t{1});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{5, 2, 3, 7});
  OpTester s("Gather");
  s.input(DType::F32, {5, 6}).constInts({-1}, {});
  REQUIRE(s.run().isOk());
  CHECK(s.out().shape == ir::Shape{6});
  OpTester c("Gather");
  c.constInts({10, 20, 30, 40}).constInts({-1, 0, 2}, {3});
  REQUIRE(c.run().isOk());
  CHECK(c.out().tensor().toInts() == Ints{40, 10, 30});
  OpTester oob("Gather");
  oob.input(DType::F32, {4}).constInts({4}, {1});
  CHECK(mentions(oob.run(), "out of range"));
  OpTester axis("Gather");
  axis.input(DType::F32, {4}).input(DType::I64, {1}).attr("axis", int64_t{1});
  CHECK(mentions(axis.run(), "axis 1"));
  OpTester fl("Gather");
  fl.input(DType::F32, {4}).input(DType::F32, {1});
  CHECK(mentions(fl.run(), "int32 or int64"));
}

TEST_CASE("Cast, Identity and Dropout", "[ops][shape]") {
  OpTester t("Cast");
  t.input(DType::F32, {2}).attr("to", int64_t{7});
  REQUIRE(t.run().isOk());
  CHECK(t.out().dtype == DType::I64);
  OpTester c("Cast");
  c.constFloats({1.7f, -2.5f, 0.0f}, {3}).attr("to", int64_t{9});
  REQUIRE(c.run().isOk());
  CHECK(c.out().dtype == DType::Bool);
  CHECK(c.out().tensor().toInts() == Ints{1, 1, 0});
  OpTester ci("Cast");
  ci.constFloats({1.7f, -2.5f}, {2}).attr("to", int64_t{6});
  REQUIRE(ci.run().isOk());
  CHECK(ci.out().tensor().toInts() == Ints{1, -2});
  OpTester s("Cast", 5);
  s.input(DType::I64, {2}).attr("to", std::string("FLOAT16"));
  REQUIRE(s.run().isOk());
  CHECK(s.out().dtype == DType::F16);
  OpTester str("Cast");
  str.input(DType::F32, {2}).attr("to", int64_t{8});
  CHECK(mentions(str.run(), "not a supported"));
  OpTester none("Cast");
  none.input(DType::F32, {2});
  CHECK(mentions(none.run(), "'to'"));

  OpTester id("Identity");
  id.constInts({3, 4});
  REQUIRE(id.run().isOk());
  CHECK(id.out().tensor().toInts() == Ints{3, 4});

  float ratio = 0.5f;
  uint8_t no = 0, yes = 1;
  OpTester d("Dropout", 13);
  d.input(DType::F32, {2, 3})
      .constant(DType::F32, {}, &ratio, 4)
      .constant(DType::Bool, {}, &no, 1)
      .outputs(2);
  REQUIRE(d.run().isOk());
  CHECK(d.node()->inputs.size() == 1);
  CHECK(d.out(0).shape == ir::Shape{2, 3});
  CHECK(d.out(1).dtype == DType::Bool);
  OpTester tr("Dropout", 13);
  tr.input(DType::F32, {2}).constant(DType::F32, {}, &ratio, 4).constant(DType::Bool, {}, &yes, 1);
  CHECK(mentions(tr.run(), "training"));
  // Ratio 0 keeps every element whatever training_mode is: a constant true (scalar or [1]), or
  // one computed at run time. The mask is all true.
  float zero = 0.0f;
  for (int form = 0; form < 3; ++form) {
    INFO("training_mode form " << form);
    OpTester z("Dropout", 13);
    z.input(DType::F32, {2, 3}).constant(DType::F32, {}, &zero, 4);
    if (form == 0) z.constant(DType::Bool, {}, &yes, 1);
    if (form == 1) z.constant(DType::Bool, {1}, &yes, 1);
    if (form == 2) z.input(DType::Bool, {});
    z.outputs(2);
    REQUIRE(z.run().isOk());
    CHECK(z.node()->inputs.size() == 1);
    CHECK(z.out(1).dtype == DType::Bool);
  }
  // A ratio computed at run time in training mode cannot be known to be 0: refused.
  OpTester rt("Dropout", 13);
  rt.input(DType::F32, {2}).input(DType::F32, {}).constant(DType::Bool, {}, &yes, 1);
  CHECK(mentions(rt.run(), "training"));
}

TEST_CASE("DepthToSpace DCR and CRD", "[ops][shape]") {
  OpTester t("DepthToSpace");
  t.input(DType::F32, {1, 8, 2, 3}).attr("blocksize", int64_t{2});
  REQUIRE(t.run().isOk());
  CHECK(t.out().shape == ir::Shape{1, 2, 4, 6});
  std::vector<float> x(8);
  for (int i = 0; i < 8; ++i) x[i] = static_cast<float>(i);
  OpTester dcr("DepthToSpace");
  dcr.constFloats(x, {1, 8, 1, 1}).attr("blocksize", int64_t{2});
  REQUIRE(dcr.run().isOk());
  CHECK(floatsOf(dcr.out()) == std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7});
  OpTester crd("DepthToSpace", 11);
  crd.constFloats(x, {1, 8, 1, 1}).attr("blocksize", int64_t{2}).attr("mode", std::string("CRD"));
  REQUIRE(crd.run().isOk());
  CHECK(floatsOf(crd.out()) == x);
  OpTester bad("DepthToSpace");
  bad.input(DType::F32, {1, 6, 2, 2}).attr("blocksize", int64_t{2});
  CHECK(mentions(bad.run(), "divisible"));
  OpTester rank("DepthToSpace");
  rank.input(DType::F32, {8, 2, 2}).attr("blocksize", int64_t{2});
  CHECK(mentions(rank.run(), "4-D"));
}

TEST_CASE("canonical shape ops re-infer to the same node", "[ops][shape]") {
  auto stable = [](OpTester& t) {
    REQUIRE(t.run().isOk());
    REQUIRE(t.node() != nullptr);
    const ir::Attrs attrs = t.node()->attrs;
    const size_t ins = t.node()->inputs.size();
    std::vector<ir::Shape> shapes;
    for (int i = 0; i < static_cast<int>(t.node()->outputs.size()); ++i)
      shapes.push_back(t.out(i).shape);
    REQUIRE(ops::inferGraph(t.graph()).isOk());
    CHECK(t.node()->attrs == attrs);
    CHECK(t.node()->inputs.size() == ins);
    for (size_t i = 0; i < shapes.size(); ++i) CHECK(t.out(static_cast<int>(i)).shape == shapes[i]);
  };
  OpTester r("Reshape", 13);
  r.input(DType::F32, {0, 3, 4}).constInts({0, 12});
  stable(r);
  OpTester sq("Squeeze", 13);
  sq.input(DType::F32, {1, 3, 1}).constInts({-1});
  stable(sq);
  OpTester un("Unsqueeze", 13);
  un.input(DType::F32, {3}).constInts({-1, 0});
  stable(un);
  OpTester ex("Expand");
  ex.input(DType::F32, {3, 1}).constInts({2, 1, 4});
  stable(ex);
  OpTester ti("Tile");
  ti.input(DType::F32, {3, 1}).constInts({1, 4});
  stable(ti);
  OpTester sp("Split", 13);
  sp.input(DType::F32, {6}).outputs(3);
  stable(sp);
  OpTester pa("Pad", 18);
  pa.input(DType::F32, {2, 3}).constInts({1, 2}).none().constInts({1});
  stable(pa);
  OpTester ca("Cast", 5);
  ca.input(DType::F32, {2}).attr("to", std::string("INT32"));
  stable(ca);
  OpTester dr("Dropout", 13);
  dr.input(DType::F32, {2}).constFloats({0.1f}, {}).outputs(2);
  stable(dr);
  OpTester tr("Transpose");
  tr.input(DType::F32, {2, 3, 4});
  stable(tr);
  OpTester ga("Gather");
  ga.input(DType::F32, {2, 3}).input(DType::I64, {5}).attr("axis", int64_t{-1});
  stable(ga);
}

TEST_CASE("Size folds from the shape", "[ops][shape]") {
  OpTester t("Size");
  t.input(DType::F32, {2, 3, 4});
  REQUIRE(t.run().isOk());
  REQUIRE(t.out().isConstant());
  CHECK(t.out().dtype == DType::I64);
  CHECK(t.out().shape == ir::Shape{});
  CHECK(t.out().tensor().intAt(0) == 24);
}

TEST_CASE("CastLike casts to the second input's dtype", "[ops][shape]") {
  OpTester t("CastLike", 15);
  t.input(DType::F32, {3}).input(DType::F16, {1});
  const std::vector<float> x = {1.5f, -2.f, 65504.f};
  std::vector<uint16_t> h = {0};
  auto got = asc::test::runKernel<uint16_t>(t, {asc::test::bytesOf(x), asc::test::bytesOf(h)});
  CHECK(got == std::vector<uint16_t>{0x3e00, 0xc000, 0x7bff});  // fp16 bit patterns
  OpTester f("CastLike", 15);
  f.constFloats({2.7f, -1.2f}, {2}).input(DType::I32, {1});
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().dtype == DType::I32);
  CHECK(f.out().tensor().toInts() == Ints{2, -1});
}

TEST_CASE("SpaceToDepth moves b x b blocks into channels", "[ops][shape]") {
  const int64_t N = 1, C = 2, H = 4, W = 6, b = 2;
  std::vector<float> x(N * C * H * W);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  std::vector<float> want(x.size());
  for (int64_t c = 0; c < C; ++c)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w) {
        const int64_t oc = ((h % b) * b + (w % b)) * C + c;
        want[(oc * (H / b) + h / b) * (W / b) + w / b] = x[(c * H + h) * W + w];
      }
  OpTester t("SpaceToDepth");
  t.input(DType::F32, {N, C, H, W}).attr("blocksize", b);
  CHECK(asc::test::runKernel<float>(t, {asc::test::bytesOf(x)}) == want);
  OpTester f("SpaceToDepth");
  f.constFloats(x, {N, C, H, W}).attr("blocksize", b);
  REQUIRE(f.run().isOk());
  REQUIRE(f.out().isConstant());
  CHECK(f.out().shape == ir::Shape{N, C * b * b, H / b, W / b});
  CHECK(doublesOf(f.out()) == std::vector<double>(want.begin(), want.end()));
  OpTester bad("SpaceToDepth");
  bad.input(DType::F32, {1, 2, 5, 4}).attr("blocksize", b);
  CHECK(mentions(bad.run(), "divisible"));
}

TEST_CASE("Cast-19/21 to and from float8 and int4, folded and run", "[ops][shape]") {
  using asc::test::bytesOf;
  using asc::test::runKernel;
  const std::vector<float> x = {1.f, 0.3f, 500.f, -1e5f, 7.6f, -8.5f};
  // E4M3FN: 1 = 0x38; 0.3 -> 0.3125 = 0x2A; 500 -> 448 = 0x7E (saturate) or NaN 0x7F; -1e5
  // -> 0xFE or 0xFF; 7.6 -> 7.5 = 0x4F; -8.5 -> -8 = 0xD0 (a tie, to the even code).
  for (int64_t sat : {1, 0}) {
    OpTester t("Cast", 19);
    t.input(DType::F32, {6}).attr("to", int64_t{17}).attr("saturate", sat);
    const std::vector<uint8_t> want = {
        0x38, 0x2A, uint8_t(sat ? 0x7E : 0x7F), uint8_t(sat ? 0xFE : 0xFF), 0x4F, 0xD0};
    CHECK(runKernel<uint8_t>(t, {bytesOf(x)}) == want);
    OpTester f("Cast", 19);  // the same through constant folding
    f.constFloats(x, {6}).attr("to", int64_t{17}).attr("saturate", sat);
    REQUIRE(f.run().isOk());
    CHECK(f.out().dtype == DType::F8E4M3FN);
    ir::Tensor folded = f.out().tensor();
    CHECK(std::vector<uint8_t>(folded.data->data(), folded.data->data() + 6) == want);
  }
  // E5M2 codes back to float32; to int4 clips, then rounds half to even.
  OpTester back("Cast", 19);
  back.input(DType::F8E5M2, {3}).attr("to", int64_t{1});
  CHECK(runKernel<float>(back, {bytesOf(std::vector<uint8_t>{0x3C, 0xC2, 0x7C})}) ==
        std::vector<float>{1.f, -3.f, std::numeric_limits<float>::infinity()});
  OpTester i4("Cast", 21);
  i4.input(DType::F32, {6}).attr("to", int64_t{22});
  CHECK(runKernel<int8_t>(i4, {bytesOf(x)}) == std::vector<int8_t>{1, 0, 7, -8, 7, -8});
  OpTester u4("Cast", 21);
  u4.input(DType::I32, {4}).attr("to", int64_t{21});
  CHECK(runKernel<uint8_t>(u4, {bytesOf(std::vector<int32_t>{-3, 4, 15, 99})}) ==
        std::vector<uint8_t>{0, 4, 15, 15});
  OpTester bad("Cast", 19);
  bad.input(DType::F32, {2}).attr("to", int64_t{17}).attr("saturate", int64_t{2});
  CHECK(mentions(bad.run(), "saturate 2"));
}

TEST_CASE("Transpose of 4-byte elements in 8 x 8 tiles equals the index map", "[ops][shape]") {
  // Shapes whose output rows gather while another dim reads contiguously (the tiled path), with
  // bands and rows that are not multiples of 8, and one that stays on the row path.
  struct Case {
    ir::Shape in;
    Ints perm;
  };
  const std::vector<Case> cases = {
      {{11, 3, 17}, {2, 1, 0}}, {{128, 8, 32}, {1, 2, 0}}, {{2, 9, 16, 10}, {0, 3, 1, 2}},
      {{24, 8}, {1, 0}},        {{5, 7}, {1, 0}},          {{16, 3, 9}, {1, 2, 0}}};
  for (const auto& c : cases) {
    const int64_t n = ir::numElements(c.in);
    std::vector<float> x(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i) + 0.5f;
    // The naive index map: output index -> input index through perm.
    const size_t r = c.in.size();
    ir::Shape out(r);
    for (size_t d = 0; d < r; ++d) out[d] = c.in[static_cast<size_t>(c.perm[d])];
    std::vector<int64_t> in_stride(r, 1);
    for (size_t d = r - 1; d-- > 0;) in_stride[d] = in_stride[d + 1] * c.in[d + 1];
    std::vector<float> want(static_cast<size_t>(n));
    for (int64_t o = 0; o < n; ++o) {
      int64_t rem = o, src = 0;
      for (size_t d = r; d-- > 0;) {
        src += (rem % out[d]) * in_stride[static_cast<size_t>(c.perm[d])];
        rem /= out[d];
      }
      want[static_cast<size_t>(o)] = x[static_cast<size_t>(src)];
    }
    for (int threads : {1, 2}) {
      OpTester t("Transpose");
      t.input(DType::F32, c.in).attr("perm", c.perm);
      INFO("input " << ir::shapeToString(c.in) << ", " << threads << " threads");
      CHECK(runKernel<float>(t, {asc::test::bytesOf(x)}, 0, threads) == want);
    }
  }
}
