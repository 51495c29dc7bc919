// weight_reorder_test.cpp: weight reorders a session queues while it creates its kernels
// (KernelEnv::defer_weight_reorders) and runs side by side afterwards give the very bytes of a
// reorder run at once.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "asc/ir/graph.h"
#include "ops/dnnl_util.h"

using namespace asc;
using dnnl::memory;

TEST_CASE("deferred weight reorders give the bytes of immediate ones", "[ops][dnnl]") {
  ir::Node node;
  node.name = "conv";
  node.op_type = "Conv";
  ops::KernelEnv deferred, now;
  deferred.defer_weight_reorders = true;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  struct Case {
    memory::dims dims;
    memory::format_tag want;
  };
  // Sizes that differ, so the largest-first order is not the queue order.
  const std::vector<Case> cases = {{{16, 16, 3, 3}, memory::format_tag::OIhw16i16o},
                                   {{64, 32, 3, 3}, memory::format_tag::OIhw16i16o},
                                   {{32, 64, 1, 1}, memory::format_tag::OIhw8i8o},
                                   {{128, 64, 3, 3}, memory::format_tag::Ohwi16o},
                                   {{8, 8, 5, 5}, memory::format_tag::Ohwi8o}};
  std::vector<std::vector<float>> data;
  std::vector<memory> got, want;
  for (const auto& c : cases) {
    const memory::desc have(c.dims, memory::data_type::f32, memory::format_tag::oihw);
    const memory::desc to(c.dims, memory::data_type::f32, c.want);
    data.emplace_back(have.get_size() / sizeof(float));
    for (auto& x : data.back()) x = u(rng);
    auto a = cpu::reorderConstant(node, have, data.back().data(), to, deferred);
    auto b = cpu::reorderConstant(node, have, data.back().data(), to, now);
    REQUIRE(a.isOk());
    REQUIRE(b.isOk());
    got.push_back(*a);
    want.push_back(*b);
  }
  CHECK(deferred.pending_reorders.size() == cases.size());
  CHECK(now.pending_reorders.empty());
  // A layout that needs no reorder is never queued: the constant is used where it is.
  const memory::desc same({4, 4, 3, 3}, memory::data_type::f32, memory::format_tag::oihw);
  std::vector<float> plain(same.get_size() / sizeof(float), 1.f);
  auto in_place = cpu::reorderConstant(node, same, plain.data(), same, deferred);
  REQUIRE(in_place.isOk());
  CHECK(in_place->get_data_handle() == plain.data());
  CHECK(deferred.pending_reorders.size() == cases.size());

  REQUIRE(cpu::runWeightReorders(deferred, 2).isOk());
  CHECK(deferred.pending_reorders.empty());
  for (size_t i = 0; i < cases.size(); ++i) {
    const size_t bytes = want[i].get_desc().get_size();
    REQUIRE(got[i].get_desc().get_size() == bytes);
    CHECK(std::memcmp(got[i].get_data_handle(), want[i].get_data_handle(), bytes) == 0);
  }
  CHECK(cpu::runWeightReorders(deferred, 2).isOk());  // an empty queue: nothing to do
}

TEST_CASE("kernel temporaries of one number share a buffer of the largest size in a session",
          "[ops][dnnl]") {
  ops::KernelEnv own, shared;
  shared.share_temporaries = true;
  const memory::desc small({1, 16, 4, 4}, memory::data_type::f32, memory::format_tag::nChw16c);
  const memory::desc big({1, 32, 8, 8}, memory::data_type::f32, memory::format_tag::nChw16c);
  // Alone, each temporary owns its memory at once.
  memory a = cpu::temporary(small, 0, own);
  CHECK(a.get_data_handle() != nullptr);
  CHECK(own.temporaries[0].empty());
  // Shared: no memory until the session binds one buffer per number.
  memory b = cpu::temporary(small, 0, shared);
  memory c = cpu::temporary(big, 0, shared);
  memory d = cpu::temporary(small, 2, shared);
  CHECK(b.get_data_handle() == nullptr);
  CHECK(shared.temporaries[0].size() == 2);
  CHECK(shared.temporaries[2].size() == 1);
  CHECK(shared.temporary_bytes[0] == big.get_size());
  CHECK(shared.temporary_bytes[2] == small.get_size());
  CHECK(shared.temporary_bytes[1] == 0);
  std::vector<float> buffer(big.get_size() / sizeof(float));
  for (auto& m : shared.temporaries[0]) m.set_data_handle(buffer.data());
  CHECK(b.get_data_handle() == buffer.data());  // the kernel's copy sees the binding
  CHECK(c.get_data_handle() == buffer.data());
}
