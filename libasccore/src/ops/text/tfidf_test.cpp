// tfidf_test.cpp: TfIdfVectorizer against n-grams counted by hand.
#include <catch2/catch.hpp>

#include "testkit/kernel_runner.h"

using namespace asc::optest;

TEST_CASE("TfIdfVectorizer counts uni- and bigrams with skips", "[ops][text]") {
  // Pool: 1-grams {2}, {3}; 2-grams {2,3}, {3,2}. Columns: 0, 1, 2, 3.
  const std::vector<int32_t> x = {2, 3, 2, 9, 3};  // [5]
  OpTester t("TfIdfVectorizer", 9);
  t.input(DType::I32, {5})
      .attr("min_gram_length", int64_t{1})
      .attr("max_gram_length", int64_t{2})
      .attr("max_skip_count", int64_t{1})
      .attr("mode", std::string("TF"))
      .attr("ngram_counts", Ints{0, 2})
      .attr("ngram_indexes", Ints{0, 1, 2, 3})
      .attr("pool_int64s", Ints{2, 3, 2, 3, 3, 2});
  // 1-grams once: 2 twice, 3 twice. 2-grams, skip 0: (2,3) (3,2) (2,9) (9,3) -> {2,3}:1 {3,2}:1;
  // skip 1: (2,2) (3,9) (2,3) -> {2,3}:1.
  CHECK(runKernel<float>(t, {bytesOf(x)}) == std::vector<float>{2, 2, 2, 1});
}

TEST_CASE("TfIdfVectorizer IDF and TFIDF weights, batches", "[ops][text]") {
  const std::vector<int64_t> x = {5, 5, 7, 7, 7, 1};  // [2, 3]
  for (const char* mode : {"IDF", "TFIDF"}) {
    OpTester t("TfIdfVectorizer", 9);
    t.input(DType::I64, {2, 3})
        .attr("min_gram_length", int64_t{1})
        .attr("max_gram_length", int64_t{1})
        .attr("max_skip_count", int64_t{0})
        .attr("mode", std::string(mode))
        .attr("ngram_counts", Ints{0})
        .attr("ngram_indexes", Ints{1, 0})
        .attr("pool_int64s", Ints{5, 7})
        .attr("weights", std::vector<float>{0.5f, 3.f});
    // Row 0: 5 x2, 7 x1; row 1: 7 x2. Column 1 is 5's, column 0 is 7's.
    const std::vector<float> want = std::string(mode) == "IDF" ? std::vector<float>{3, 0.5f, 3, 0}
                                                               : std::vector<float>{3, 1, 6, 0};
    INFO(mode);
    CHECK(runKernel<float>(t, {bytesOf(x)}) == want);
  }
}

TEST_CASE("TfIdfVectorizer refuses string pools and bad pools", "[ops][text]") {
  OpTester t("TfIdfVectorizer", 9);
  t.input(DType::I32, {4})
      .attr("min_gram_length", int64_t{2})
      .attr("max_gram_length", int64_t{2})
      .attr("max_skip_count", int64_t{0})
      .attr("mode", std::string("TF"))
      .attr("ngram_counts", Ints{0})
      .attr("ngram_indexes", Ints{0})
      .attr("pool_int64s", Ints{1, 2, 3});  // 3 ints are no whole 2-grams... of counts[0]=0
  // ngram_counts {0} says the pool holds 1-grams only: 3 of them, but only one index.
  CHECK_FALSE(t.run().isOk());
}
