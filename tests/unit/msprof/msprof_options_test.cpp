// msprof_options_test.cpp: both command-line spellings, the real hyphenated options and the
// seed's underscored ones, and clear refusals of anything else.
#include <catch2/catch.hpp>

#include <vector>

#include "msprof_options.h"
#include "report.h"

using namespace asc;

namespace {
Result<msprof::Options> parse(std::vector<const char*> args) {
  args.insert(args.begin(), "msprof");
  return msprof::parseOptions(static_cast<int>(args.size()), args.data());
}
}  // namespace

TEST_CASE("msprof options: both spellings of the command", "[msprof]") {
  auto a = parse({"--application=msame --model m.om --loop 20", "--output", "prof"});
  REQUIRE(a.isOk());
  CHECK(a->application == "msame --model m.om --loop 20");
  CHECK(a->output == "prof");
  CHECK(a->command.empty());
  auto b =
      parse({"--output=prof", "--model-execution=on", "msame", "--model", "m.om", "--loop", "20"});
  REQUIRE(b.isOk());
  CHECK(b->command == std::vector<std::string>{"msame", "--model", "m.om", "--loop", "20"});
  CHECK(b->givenValues().at("model-execution") == "on");
  auto c = parse({"--", "./run.sh", "--output=x"});  // after "--" everything is the command's
  REQUIRE(c.isOk());
  CHECK(c->command == std::vector<std::string>{"./run.sh", "--output=x"});
  CHECK(c->output.empty());
  CHECK_FALSE(parse({"--application=a", "b"}).isOk());
}

TEST_CASE("msprof options: real and seed spellings accepted, bare switches mean on", "[msprof]") {
  auto o = parse({"--task-time", "--ai-core", "--aicpu=on", "--runtime-api", "--sys-hardware-mem",
                  "--sys-cpu-profiling", "--aic-mode=task-based", "--aic-metrics=PipeUtilization",
                  "--soc_version=Ascend910B1", "--model_execution_on=on", "--data_sampling_on=on",
                  "--aicpu_trace_on=on", "--sys-sampling-freq=50", "app"});
  REQUIRE(o.isOk());
  CHECK(o->givenValues().at("task-time") == "on");
  CHECK(o->givenValues().at("sys-cpu-profiling") == "on");
  CHECK(o->soc_version == "Ascend910B1");
  CHECK(o->sampling);
  CHECK(o->sampling_hz == 50);
  auto off = parse({"--data_sampling_on=off", "app"});
  REQUIRE(off.isOk());
  CHECK_FALSE(off->sampling);
  auto ex = parse({"--export=on", "--output=PROF_1"});
  REQUIRE(ex.isOk());
  CHECK(ex->export_mode == "on");
  auto pr = parse({"--export=prometheus", "--output=PROF_1"});
  REQUIRE(pr.isOk());
  CHECK(pr->export_mode == "prometheus");
}

TEST_CASE("msprof options: unknown options and bad values are refused with a code", "[msprof]") {
  auto u = parse({"--bogus=1", "app"});
  REQUIRE_FALSE(u.isOk());
  CHECK(u.status().code() == ErrorCode::InvalidParam);
  CHECK(u.status().message().find("unknown option '--bogus=1'") != std::string::npos);
  auto v = parse({"--aicpu=maybe", "app"});
  REQUIRE_FALSE(v.isOk());
  CHECK(v.status().code() == ErrorCode::InvalidParam);
  CHECK(v.status().message().find("use on or off") != std::string::npos);
  CHECK(parse({"--output="}).status().code() == ErrorCode::EmptyParam);
  CHECK(parse({"--output"}).status().code() == ErrorCode::EmptyParam);
  CHECK(parse({"--query=on"}).status().code() == ErrorCode::NotImplemented);
  CHECK(parse({"--type=db", "--export=on"}).status().code() == ErrorCode::NotImplemented);
  CHECK(parse({"--aic-freq=x", "app"}).status().code() == ErrorCode::InvalidParam);
  CHECK(parse({"--sys-sampling-freq=0", "app"}).status().code() == ErrorCode::InvalidParam);
  // Not truncated to 1 Hz by an int conversion.
  CHECK(parse({"--sys-sampling-freq=4294967297", "app"}).status().code() ==
        ErrorCode::InvalidParam);
  CHECK(parse({"--sys-cpu-freq=10x", "app"}).status().code() == ErrorCode::InvalidParam);
}

TEST_CASE("msprof report: self-contained HTML with the three charts, Prometheus text", "[msprof]") {
  trace::Profile p;
  p.info.command = "msame --model m.om";
  p.info.cpu_core_peak_gflops = 50;
  p.info.target_soc = "Ascend310P3";
  p.info.target_tflops = 70;
  p.processes.push_back({7, "msame --model m.om"});
  p.models.push_back({0, "m\"<x>", "Ascend310P3", 1});
  trace::OpRecord conv;
  conv.name = "conv";
  conv.cann_type = "Conv2D";
  conv.engine = "AI_CORE";
  conv.flops = 1000000;
  trace::OpRecord cpu = conv;
  cpu.name = "topk";
  cpu.cann_type = "TopK";
  cpu.engine = "AI_CPU";
  cpu.flops = 0;
  p.ops.push_back({0, conv});
  p.ops.push_back({0, cpu});
  for (int r = 0; r < 3; ++r) {
    p.tasks.push_back({0, r, 1000 + r * 10000, 3000 + r * 10000, 0});
    p.tasks.push_back({1, r, 3000 + r * 10000, 9000 + r * 10000, 0});
  }
  trace::Summary s = trace::summarize(p);
  const std::string h = msprof::htmlReport(p, s, "PROF_x");
  for (const char* id : {"id=\"gantt\"", "id=\"optype\"", "id=\"efficiency\""})
    CHECK(h.find(id) != std::string::npos);
  CHECK(h.find("<rect class=\"op\"") != std::string::npos);
  CHECK(h.find("m&quot;&lt;x&gt;") != std::string::npos);  // escaped
  CHECK(h.find("src=") == std::string::npos);              // nothing fetched
  CHECK(h.find("href=") == std::string::npos);
  CHECK(h.find("https://") == std::string::npos);
  const std::string con = msprof::consoleSummary(p, s);
  CHECK(con.find("Top 10 ops by total time") != std::string::npos);
  CHECK(con.find("AI CPU share: 75.0% of op time") != std::string::npos);
  CHECK(con.find("Advice:") != std::string::npos);
  const std::string prom = msprof::prometheusText(p, s, "PROF_x", "h1");
  CHECK(prom.find("# TYPE msprof_op_type_time_seconds gauge\n") != std::string::npos);
  CHECK(prom.find(
            "msprof_op_type_count{prof=\"PROF_x\",host=\"h1\",model=\"m\\\"<x>\",op_type=\"TopK\","
            "core_type=\"AI_CPU\"} 3\n") != std::string::npos);
  CHECK(prom.find("msprof_aicpu_time_ratio{prof=\"PROF_x\",host=\"h1\"} 0.750000\n") !=
        std::string::npos);
  CHECK(prom.find("msprof_model_op_time_seconds{prof=\"PROF_x\",host=\"h1\",model=") !=
        std::string::npos);
}
