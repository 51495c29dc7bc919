// vendors_test.cpp: which installed vendor packages the tools read, and in what order: the first
// line of $ASCEND_OPP_PATH/vendors/config.ini, load_priority=<vendor>,<vendor>,... (CANN's
// format; docs/plugins.md, "Where the tools find custom operators").
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "asc/ophost/ophost.h"

using asc::ophost::vendorLoadPriority;

namespace {
std::string writeConfig(const std::string& text) {
  char name[] = "/tmp/asc_vendors_XXXXXX";
  const int fd = mkstemp(name);
  REQUIRE(fd >= 0);
  close(fd);
  std::ofstream(name) << text;
  return name;
}
}  // namespace

TEST_CASE("vendors are read in config.ini's load_priority order", "[ophost][vendors]") {
  using V = std::vector<std::string>;
  const std::string a = writeConfig("load_priority=customize,mdc,lhisi\n");
  CHECK(vendorLoadPriority(a) == V{"customize", "mdc", "lhisi"});
  const std::string b = writeConfig("load_priority = cust ,  other,,\r\nload_priority=later\n");
  CHECK(vendorLoadPriority(b) == V{"cust", "other"});  // trimmed; the first line only
  const std::string c = writeConfig("# vendors\nload_priority=x\n");
  CHECK(vendorLoadPriority(c).empty());  // CANN reads the first line
  const std::string d = writeConfig("load_priority=\n");
  CHECK(vendorLoadPriority(d).empty());
  const std::string e = writeConfig("");
  CHECK(vendorLoadPriority(e).empty());
  CHECK(vendorLoadPriority("/nonexistent/config.ini").empty());
  for (const auto& f : {a, b, c, d, e}) std::remove(f.c_str());
}
