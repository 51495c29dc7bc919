// fuse_pad_test.cpp: the fuse-pad pass. A Pad that pads nothing is removed (its consumer reads
// the Pad's input), and a constant zero Pad of the spatial dims whose only user is a Conv, or an
// AveragePool with count_include_pad=1, is added to that op's own pads; the op then carries the
// Pad's name too. An AveragePool that does not count padding qualifies when it has no pads of
// its own and no partial windows (torchvision's avg_pool2d(padding=1) export), and then counts
// it. The Pads are built as at opset 13 (pads and constant_value are inputs, which inference
// turns into attributes). A non-zero value, reflect mode, a padded channel dim, an AveragePool
// that does not count padding but has pads of its own or ceil_mode, one whose pads would reach
// its window size, or a shared Pad output must not match. Numeric tests compare fused and unfused
// graphs in the CPU runtime.
#include <catch2/catch.hpp>

#include "pass_test_util.h"

using namespace asc;
using namespace asc::passtest;

namespace {

struct Options {
  std::vector<int64_t> pads = {0, 0, 1, 2, 0, 0, 2, 1};  // begins then ends, NCHW
  std::string user = "Conv";                             // or "AveragePool" or "Relu"
  int64_t count_include_pad = 1;
  int64_t kernel = 3;  // AveragePool window, stride 2
  int64_t ceil_mode = 0;
  std::vector<int64_t> pool_pads;  // the AveragePool's own pads (none when empty)
  float value = 0.f;
  std::string mode = "constant";
  bool pad_output = false;  // the Pad output is a graph output too
};

ir::Graph build(const Options& o) {
  ir::Graph g;
  g.opset = 13;
  ir::Value* x = addInput(g, "x", {1, 8, 6, 6});
  ir::Node* pad =
      addOp(g, "Pad", "pad", {x, addInts(g, "pads", o.pads), addFloats(g, "value", {}, {o.value})});
  pad->attrs.set("mode", o.mode);
  ir::Node* u;
  if (o.user == "Conv") {
    u = addOp(g, "Conv", "user",
              {pad->outputs[0], addFloats(g, "w", {8, 8, 3, 3}, {}, 0.1f), addFloats(g, "b", {8})});
    u->attrs.set("pads", std::vector<int64_t>{1, 0, 0, 1});
    u->attrs.set("strides", std::vector<int64_t>{2, 1});
  } else if (o.user == "AveragePool") {
    u = addOp(g, "AveragePool", "user", {pad->outputs[0]});
    u->attrs.set("kernel_shape", std::vector<int64_t>{o.kernel, o.kernel});
    u->attrs.set("strides", std::vector<int64_t>{2, 2});
    u->attrs.set("count_include_pad", o.count_include_pad);
    u->attrs.set("ceil_mode", o.ceil_mode);
    if (!o.pool_pads.empty()) u->attrs.set("pads", o.pool_pads);
  } else {
    u = addOp(g, o.user, "user", {pad->outputs[0]});
  }
  std::vector<ir::Value*> outs = {u->outputs[0]};
  if (o.pad_output) outs.push_back(pad->outputs[0]);
  finish(g, outs);
  return g;
}

}  // namespace

TEST_CASE("fuse-pad moves a zero spatial Pad into Conv and AveragePool pads",
          "[passes][fuse-pad]") {
  for (const char* user : {"Conv", "AveragePool", "AveragePool excluding padding"}) {
    INFO(user);
    Options o;
    o.user = std::string(user).substr(0, std::string(user).find(' '));
    if (o.user != user) o.count_include_pad = 0;
    ir::Graph g = build(o);
    REQUIRE(g.findNode("pad")->inputs.size() == 1);  // pads and value are attributes now
    const ir::Value* y = g.outputs[0];
    passes::PassContext ctx = runPass(g, "fuse-pad");
    REQUIRE(ctx.log.size() == 1);
    CHECK(ctx.log[0].find("'pad'") != std::string::npos);
    REQUIRE(g.nodes().size() == 1);
    const ir::Node& u = *g.nodes()[0];
    CHECK(u.op_type == o.user);
    if (o.user == "AveragePool") CHECK(u.attrs.getInt("count_include_pad", 0) == 1);
    CHECK(u.inputs[0] == g.findValue("x"));
    CHECK(u.outputs[0] == y);
    const std::vector<int64_t> want =
        o.user == "Conv" ? std::vector<int64_t>{2, 2, 2, 2} : std::vector<int64_t>{1, 2, 2, 1};
    CHECK(u.attrs.getInts("pads") == want);
    CHECK(hasOriginalNames(u, {"pad", "user"}));
  }
}

TEST_CASE("fuse-pad removes a Pad that pads nothing", "[passes][fuse-pad]") {
  Options o;
  o.pads.assign(8, 0);
  o.user = "Relu";
  ir::Graph g = build(o);
  passes::PassContext ctx = runPass(g, "fuse-pad");
  REQUIRE(ctx.log.size() == 1);
  CHECK(ctx.log[0].find("removed") != std::string::npos);
  REQUIRE(g.nodes().size() == 1);
  CHECK(g.nodes()[0]->op_type == "Relu");
  CHECK(g.nodes()[0]->inputs[0] == g.findValue("x"));
  CHECK(g.outputs[0] == g.nodes()[0]->outputs[0]);
}

TEST_CASE("fuse-pad leaves other Pads alone", "[passes][fuse-pad]") {
  Options value, reflect, channel, exclude_own, exclude_ceil, window, shared, relu;
  value.value = 0.5f;
  reflect.mode = "reflect";
  channel.pads = {0, 1, 1, 1, 0, 0, 1, 1};
  channel.user = "AveragePool";
  exclude_own.user =
      "AveragePool";  // it excludes its own pads, which would then mix with the Pad's
  exclude_own.count_include_pad = 0;
  exclude_own.kernel = 5;
  exclude_own.pool_pads = {1, 0, 0, 1};
  exclude_ceil.user = "AveragePool";  // partial windows
  exclude_ceil.count_include_pad = 0;
  exclude_ceil.ceil_mode = 1;
  window.user = "AveragePool";
  window.kernel = 2;  // the folded pads (2) would not be smaller than the window
  shared.pad_output = true;
  relu.user = "Relu";
  for (const Options& o :
       {value, reflect, channel, exclude_own, exclude_ceil, window, shared, relu}) {
    ir::Graph g = build(o);
    expectUntouched(g, build(o), "fuse-pad");
    CHECK(g.nodes().size() == 2);
  }
}

TEST_CASE("fuse-pad keeps the numbers", "[passes][fuse-pad]") {
  Options conv, pool, pool_exclude, pool_ceil, noop;
  pool.user = "AveragePool";
  pool_exclude.user = "AveragePool";
  pool_exclude.count_include_pad = 0;
  pool_ceil.user = "AveragePool";
  pool_ceil.pads = {0, 0, 1, 1, 0, 0, 1, 0};
  pool_ceil.ceil_mode = 1;
  noop.pads.assign(8, 0);
  noop.user = "Relu";
  for (const Options& o : {conv, pool, pool_exclude, pool_ceil, noop}) {
    INFO(o.user << " ceil_mode " << o.ceil_mode << " count_include_pad " << o.count_include_pad);
    ir::Graph fused = build(o);
    passes::PassContext ctx = runPass(fused, "fuse-pad");
    REQUIRE(ctx.log.size() == 1);
    expectClose(runGraph(std::move(fused)), runGraph(build(o)));
  }
}
