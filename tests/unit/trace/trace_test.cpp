// trace_test.cpp: the trace module. Off: nothing recorded. On: a session's steps become tasks
// (one per step per run) written only when the session ends, the user's observer still sees
// every step, and the raw data reads back into summaries whose totals add up.
#include <catch2/catch.hpp>

#include "asc/support/strings.h"

#include <filesystem>

#include "asc/runtime/session.h"
#include "asc/support/file.h"
#include "asc/trace/profile.h"
#include "asc/trace/trace.h"

using namespace asc;

namespace {

// x[1,4,6,6] -> Conv 3x3 (4->4) -> Relu -> output.
ir::Graph smallGraph() {
  ir::Graph g;
  g.name = "small";
  auto mk = [&](const char* name, ir::Shape s) {
    ir::Value* v = g.addValue(name);
    v->dtype = ir::DType::F32;
    v->shape = std::move(s);
    return v;
  };
  ir::Value* x = mk("x", {1, 4, 6, 6});
  g.inputs.push_back(x);
  std::vector<float> w(4 * 4 * 9, 0.01f);
  ir::Value* wv = g.addConstant(
      "w", ir::Tensor{ir::DType::F32, {4, 4, 3, 3}, ir::Blob::copyOf(w.data(), w.size() * 4)});
  ir::Value* c = mk("c", {1, 4, 4, 4});
  ir::Value* r = mk("r", {1, 4, 4, 4});
  ir::Node* conv = g.addNode("Conv", "conv", {x, wv}, {c});
  conv->attrs.set("kernel_shape", std::vector<int64_t>{3, 3});
  conv->original_names = {"conv_onnx", "bn_onnx"};
  g.addNode("Relu", "relu", {c}, {r});
  g.outputs.push_back(r);
  return g;
}

struct Counter : runtime::StepObserver {
  size_t steps = 0;
  void onStep(const runtime::Session&, const runtime::StepEvent&) override { ++steps; }
};

const char* kRaw =
    "asc-trace\t1\n"
    "process\t42\tmsame --model m.om\n"
    "session\t1\tm\tAscend310P3\t2\n"
    "op\t1\t0\tconv1\tConv2D\tConv\tAI_CORE\ta;b\t1,3,8,8;4,3,3,3\tFLOAT;FLOAT\tNCHW;NCHW\t1,4,6,"
    "6\tFLOAT\tNCHW\t1000000\t4096\n"
    "op\t1\t1\ttopk\tTopK\tTopK\tAI_CPU\t\t1,4,6,6\tFLOAT\tNCHW\t1,4\tFLOAT\tND\t0\t640\n"
    "task\t1\t0\t0\t1000\t3000\n"
    "task\t1\t1\t0\t3500\t4500\n"
    "task\t1\t0\t1\t10000\t12000\n"
    "task\t1\t1\t1\t12000\t15000\n"
    "scope\tAscendCL\tModelExecute\t900\t4600\t42\n"
    "scope\tAscendCL\tModelExecute\t9900\t15100\t42\n";

trace::Profile rawProfile(const std::string& name) {
  const std::string dir = std::string(ASC_TEST_TMP "/trace/") + name;
  REQUIRE(makeDirs(dir + "/host/data").isOk());
  std::string text = kRaw;
  REQUIRE(writeFileAtomic(dir + "/host/data/asc_trace.42.txt", text.data(), text.size()).isOk());
  auto p = trace::readProfile(dir);
  REQUIRE(p.isOk());
  return std::move(p).value();
}

}  // namespace

TEST_CASE("trace off: scopes record nothing", "[trace]") {
  REQUIRE_FALSE(trace::enabled());
  { ASC_TRACE_SCOPE("AscendCL", "nothing"); }
  CHECK(trace::rawPath().empty());
  CHECK(trace::flush().isOk());
}

TEST_CASE("trace on: tasks per step and run, written at session end, user observer chained",
          "[trace]") {
  const std::string dir = ASC_TEST_TMP "/trace/session";
  std::filesystem::remove_all(dir);
  trace::start(dir);
  Counter user;
  size_t steps = 0;
  {
    runtime::SessionOptions so;
    so.threads = 1;
    so.observer = &user;
    auto s = runtime::Session::fromGraph(smallGraph(), so);
    REQUIRE(s.isOk());
    steps = (*s)->stepCount();
    for (int i = 0; i < 3; ++i) REQUIRE((*s)->run().isOk());
    // Buffered in memory: nothing on disk while the session lives.
    CHECK_FALSE(fileExists(trace::rawPath()));
    Counter other;
    (*s)->setObserver(&other);  // replaces the user's observer, tracing stays on
    REQUIRE((*s)->run().isOk());
    CHECK(other.steps == steps);
  }
  CHECK(user.steps == 3 * steps);
  const std::string raw = trace::rawPath();
  REQUIRE(fileExists(raw));
  trace::stop();
  CHECK_FALSE(trace::enabled());

  auto p = trace::readProfile(dir);
  REQUIRE(p.isOk());
  REQUIRE(p->processes.size() == 1);
  REQUIRE(p->models.size() == 1);
  CHECK(p->models[0].name == "small");
  CHECK(p->ops.size() == steps);
  CHECK(p->tasks.size() == 4 * steps);
  bool saw_conv = false;
  for (const auto& op : p->ops)
    if (op.rec.name == "conv") {
      saw_conv = true;
      CHECK(op.rec.cann_type == "Conv2D");
      CHECK(op.rec.engine == "AI_CORE");
      CHECK(op.rec.original == "conv_onnx;bn_onnx");
      CHECK(op.rec.flops == 2 * 4 * 4 * 4 * 4 * 9);
      CHECK(op.rec.in_shapes.find("1,4,6,6") == 0);
      CHECK(op.rec.bytes > 0);
    }
  CHECK(saw_conv);
  int execute = 0;
  for (const auto& sc : p->scopes) execute += sc.name == "ModelExecute";
  CHECK(execute == 4);
  trace::Summary s = trace::summarize(*p);
  CHECK(s.runs == 4);
  CHECK(s.op_us > 0);
  CHECK(s.op_us <= s.wall_us + 1e-6);
  CHECK(s.wall_us <= s.execute_us + 1e-6);
}

TEST_CASE("raw data reads back: wait times, per-type totals, AI CPU share", "[trace]") {
  trace::Profile p = rawProfile("synthetic");
  REQUIRE(p.tasks.size() == 4);
  CHECK(p.tasks[0].wait_ns == 0);
  CHECK(p.tasks[1].wait_ns == 500);  // 3500 - 3000
  CHECK(p.tasks[3].wait_ns == 0);    // 12000 - 12000
  p.info.target_soc = "Ascend310P3";
  p.info.target_tflops = 100;  // 1e6 FLOPs -> 0.01 us
  p.info.cpu_core_peak_gflops = 100;
  trace::Summary s = trace::summarize(p);
  CHECK(s.runs == 2);
  CHECK(s.op_us == Approx(2 + 1 + 2 + 3));
  CHECK(s.aicpu_us == Approx(4));
  CHECK(s.wall_us == Approx(3.5 + 5));
  CHECK(s.execute_us == Approx(3.7 + 5.2));
  REQUIRE(s.by_type.size() == 2);
  CHECK(s.by_type[0].op_type == "Conv2D");  // 4 us, ties broken by order
  CHECK(s.by_type[0].count == 2);
  CHECK(s.by_type[0].min_us == Approx(2));
  CHECK(s.by_type[1].core_type == "AI_CPU");
  CHECK(trace::estimatedUs(1000000, 100) == Approx(0.01));
  CHECK(trace::achievedGflops(1000000, 2) == Approx(500));
  CHECK(trace::cpuPeakGflops(p, 0) == Approx(200));  // 2 threads
}

TEST_CASE("malformed raw data is refused with the file and line", "[trace]") {
  trace::Profile p;
  Status st = trace::parseRaw("asc-trace\t1\nprocess\t1\tx\ntask\t1\t0\t0\t5\t1\n", "f.txt", &p);
  REQUIRE_FALSE(st.isOk());
  CHECK(st.code() == ErrorCode::ModelParseFailed);
  CHECK(st.message().find("f.txt:3") != std::string::npos);
  CHECK_FALSE(trace::parseRaw("bogus\t1\n", "g.txt", &p).isOk());
  // Timestamps at the int64 extremes would overflow end - start: refused, not summed.
  trace::Profile q;
  CHECK(trace::parseRaw("asc-trace\t1\nprocess\t1\tx\nscope\tModelExecute\tacl\t100\t200\t1\n",
                        "ok.txt", &q)
            .isOk());
  CHECK_FALSE(trace::parseRaw("asc-trace\t1\nprocess\t1\tx\nscope\tModelExecute\tacl\t"
                              "-9200000000000000000\t9200000000000000000\t1\n",
                              "h.txt", &q)
                  .isOk());
  CHECK_FALSE(trace::readProfile(ASC_TEST_TMP "/trace/does-not-exist").isOk());
}

TEST_CASE("kernel launch records: block spans read back; malformed ones refused", "[trace]") {
  trace::Profile p;
  REQUIRE(trace::parseRaw("asc-trace\t1\nprocess\t7\tapp\n"
                          "kernel\tadd_custom\t2\t100\t400\t110:200,210:390\n",
                          "k.txt", &p)
              .isOk());
  REQUIRE(p.kernels.size() == 1);
  const trace::KernelData& k = p.kernels[0];
  CHECK(k.name == "add_custom");
  CHECK(k.block_dim == 2);
  CHECK(k.end_ns - k.start_ns == 300);
  CHECK(k.blocks == std::vector<std::pair<int64_t, int64_t>>{{110, 200}, {210, 390}});
  for (const char* bad : {"kernel\tk\t0\t1\t2\t\n",     // no blocks
                          "kernel\tk\t1\t5\t2\t\n",     // ends before it starts
                          "kernel\tk\t1\t1\t9\t3:2\n",  // a block ending first
                          "kernel\tk\t1\t1\t9\t3-4\n",  // not start:end
                          "kernel\tk\t1\t1\t9\n"}) {    // a field missing
    trace::Profile q;
    INFO(bad);
    CHECK_FALSE(
        trace::parseRaw(std::string("asc-trace\t1\nprocess\t7\tapp\n") + bad, "b.txt", &q).isOk());
  }
}

TEST_CASE("CSV writers: real headers, quoted shapes, N/A cells, one row per task", "[trace]") {
  trace::Profile p = rawProfile("csv");
  p.info.target_tflops = 100;
  p.info.cpu_core_peak_gflops = 100;
  trace::Summary s = trace::summarize(p);
  const std::string sum = trace::opSummaryCsv(p, s);
  CHECK(sum.rfind("Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
                  "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,"
                  "Mix Block Num,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,"
                  "Output Shapes,Output Data Types,Output Formats,Context ID,",
                  0) == 0);
  CHECK(std::count(sum.begin(), sum.end(), '\n') == 5);
  CHECK(sum.find("0,1,0,0,conv1,Conv2D,static,AI_CORE,1.000,2.000,0.000,N/A,N/A,N/A,"
                 "\"1,3,8,8;4,3,3,3\",FLOAT;FLOAT,NCHW;NCHW,\"1,4,6,6\",FLOAT,NCHW,N/A,a;b,1,"
                 "1000000,4096,500.000,250.00,0.010") != std::string::npos);
  CHECK(sum.find("topk,TopK,static,AI_CPU,3.500,1.000,0.500,") != std::string::npos);
  const std::string stat = trace::opStatisticCsv(p, s);
  CHECK(stat.rfind("Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),Min Time(us),"
                   "Avg Time(us),Max Time(us),Ratio(%)\n",
                   0) == 0);
  CHECK(stat.find("0,m,Conv2D,AI_CORE,2,4.000,2.000,2.000,2.000,50.00\n") != std::string::npos);
  CHECK(stat.find("0,m,TopK,AI_CPU,2,4.000,1.000,2.000,3.000,50.00\n") != std::string::npos);
  const std::string tt = trace::taskTimeCsv(p);
  CHECK(tt.rfind("Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),"
                 "task_start(us),task_stop(us)\n0,conv1,AI_CORE,0,0,2.000,1.000,3.000\n",
                 0) == 0);
  CHECK(csvField("a,b\"c") == "\"a,b\"\"c\"");
  CHECK(csvField("plain") == "plain");
}

TEST_CASE("Chrome trace JSON: metadata, complete events, counters, escaping", "[trace]") {
  trace::Profile p = rawProfile("json");
  p.samples.push_back({2000, 150.0, 80.0, 1 << 20});
  const std::string j = trace::chromeTraceJson(p);
  INFO(j);
  CHECK(j.front() == '[');
  CHECK(j.find("\"ph\":\"M\",\"pid\":42,\"tid\":0,\"args\":{\"name\":\"msame (pid 42)\"}") !=
        std::string::npos);
  size_t x = 0;
  for (size_t k = j.find("\"ph\":\"X\""); k != std::string::npos; k = j.find("\"ph\":\"X\"", k + 1))
    ++x;
  CHECK(x == 4 + 2);  // tasks + scopes
  CHECK(j.find("\"name\":\"conv1\",\"ph\":\"X\",\"cat\":\"AI_CORE\",\"ts\":1.000,\"dur\":2.000,"
               "\"pid\":42,\"tid\":1") != std::string::npos);
  CHECK(j.find("\"tid\":2,\"args\":{\"OP Type\":\"TopK\"") != std::string::npos);
  CHECK(j.find("\"name\":\"CPU Usage\",\"ph\":\"C\"") != std::string::npos);
  CHECK(j.find("\"RSS(MB)\":1.00") != std::string::npos);
  CHECK(jsonQuote("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"");
}
