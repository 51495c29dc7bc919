// kernel_runner.h: runs the one-node graph of an OpTester through the CPU runtime (the kernel the
// op registers), for kernel tests against a naive reference written in the test.
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "asc/runtime/session.h"
#include "testkit/op_tester.h"

namespace asc::test {

/// The bytes of a vector of T.
template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

/// Infers the tester's node without folding, runs it once on `inputs` (one byte vector per
/// runtime input, in order) on `threads` threads and returns output `out` as a vector of T.
template <typename T>
std::vector<T> runKernel(OpTester& t, const std::vector<std::vector<uint8_t>>& inputs, int out = 0,
                         int threads = 1) {
  Status s = t.run(/*fold=*/false);
  INFO(s.message());
  REQUIRE(s.isOk());
  const size_t n = static_cast<size_t>(t.out(out).numel());
  REQUIRE(ir::dtypeSize(t.out(out).dtype) == sizeof(T));
  runtime::SessionOptions so;
  so.threads = threads;
  auto session = runtime::Session::fromGraph(std::move(t.graph()), so);
  INFO(session.status().message());
  REQUIRE(session.isOk());
  for (size_t i = 0; i < inputs.size(); ++i)
    REQUIRE((*session)->setInput(i, inputs[i].data(), inputs[i].size()).isOk());
  Status r = (*session)->run();
  INFO(r.message());
  REQUIRE(r.isOk());
  std::vector<T> res(n);
  if (n) std::memcpy(res.data(), (*session)->outputData(out), n * sizeof(T));
  return res;
}

}  // namespace asc::test

/// What the op folders' kernel tests use, in one line: `using namespace asc::optest;`.
namespace asc::optest {
using namespace asc;
using asc::test::bytesOf;
using asc::test::doublesOf;
using asc::test::floatsOf;
using asc::test::mentions;
using asc::test::OpTester;
using asc::test::runKernel;
using ir::DType;
using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;
}  // namespace asc::optest
