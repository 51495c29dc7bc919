// profile.cpp: reading a profile folder back and aggregating it (see profile.h).
#include "asc/trace/profile.h"

#include "asc/support/strings.h"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <tuple>

#include "asc/support/file.h"

namespace asc::trace {
namespace {

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> f;
  size_t p = 0;
  while (true) {
    size_t e = line.find('\t', p);
    f.push_back(line.substr(p, e == std::string::npos ? std::string::npos : e - p));
    if (e == std::string::npos) break;
    p = e + 1;
  }
  return f;
}

bool toI64(const std::string& s, int64_t* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtoll(s.c_str(), &end, 10);
  return end && *end == '\0';
}

Result<std::string> readText(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status::error(ErrorCode::FileOpenFailed, "cannot open {}", path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

constexpr int kSystemPid = 1000000000;

std::string us(double v) { return fmt::format("{:.3f}", v); }
std::string nsToUs(int64_t ns) { return fmt::format("{}.{:03d}", ns / 1000, int(ns % 1000)); }

}  // namespace

Status parseRaw(const std::string& text, const std::string& source, Profile* p) {
  // Session and op ids are per process block; map them to global indices.
  std::map<int, int> model_of_sid;
  std::map<std::pair<int, int>, int> op_of;
  int process = -1;
  size_t lineno = 0, pos = 0;
  auto bad = [&](const std::string& why) {
    return Status::error(ErrorCode::ModelParseFailed, "{}:{}: {}", source, lineno, why);
  };
  while (pos < text.size()) {
    size_t e = text.find('\n', pos);
    if (e == std::string::npos) e = text.size();
    std::string line = text.substr(pos, e - pos);
    pos = e + 1;
    ++lineno;
    if (line.empty()) continue;
    std::vector<std::string> f = splitTabs(line);
    const std::string& kind = f[0];
    int64_t a = 0, b = 0, c = 0, d = 0, x = 0;
    if (kind == "asc-trace") {
      if (f.size() < 2 || f[1] != "1") return bad("unknown raw format version");
    } else if (kind == "process") {
      if (f.size() < 3 || !toI64(f[1], &a)) return bad("bad process record");
      p->processes.push_back({static_cast<int>(a), f[2]});
      process = static_cast<int>(p->processes.size()) - 1;
      model_of_sid.clear();
      op_of.clear();
    } else if (process < 0) {
      return bad("record before the process record");
    } else if (kind == "session") {
      if (f.size() < 5 || !toI64(f[1], &a) || !toI64(f[4], &b)) return bad("bad session record");
      p->models.push_back({process, f[2], f[3], static_cast<int>(b)});
      model_of_sid[static_cast<int>(a)] = static_cast<int>(p->models.size()) - 1;
    } else if (kind == "op") {
      if (f.size() < 16 || !toI64(f[1], &a) || !toI64(f[2], &b) || !toI64(f[14], &c) ||
          !toI64(f[15], &d))
        return bad("bad op record");
      auto m = model_of_sid.find(static_cast<int>(a));
      if (m == model_of_sid.end()) return bad("op of an unknown session");
      OpData op;
      op.model = m->second;
      op.rec = OpRecord{f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13], c, d};
      p->ops.push_back(std::move(op));
      op_of[{static_cast<int>(a), static_cast<int>(b)}] = static_cast<int>(p->ops.size()) - 1;
    } else if (kind == "task") {
      if (f.size() < 6 || !toI64(f[1], &a) || !toI64(f[2], &b) || !toI64(f[3], &c) ||
          !toI64(f[4], &d) || !toI64(f[5], &x) || d < 0 || x < d)
        return bad("bad task record");
      auto o = op_of.find({static_cast<int>(a), static_cast<int>(b)});
      if (o == op_of.end()) return bad("task of an unknown op");
      p->tasks.push_back({o->second, static_cast<int>(c), d, x, 0});
    } else if (kind == "scope") {
      // Timestamps are steady-clock nanoseconds (>= 0), so end - start cannot overflow.
      if (f.size() < 6 || !toI64(f[3], &a) || !toI64(f[4], &b) || !toI64(f[5], &c) || a < 0 ||
          b < a)
        return bad("bad scope record");
      p->scopes.push_back({process, f[1], f[2], a, b, static_cast<long>(c)});
    } else if (kind == "kernel") {
      if (f.size() < 6 || !toI64(f[2], &a) || !toI64(f[3], &b) || !toI64(f[4], &c) || a <= 0 ||
          a > 65535 * 2 || b < 0 || c < b)
        return bad("bad kernel record");
      KernelData k{process, f[1], static_cast<uint32_t>(a), b, c, {}};
      for (const std::string& span : splitString(f[5], ',')) {
        const size_t colon = span.find(':');
        if (colon == std::string::npos || !toI64(span.substr(0, colon), &d) ||
            !toI64(span.substr(colon + 1), &x) || d < 0 || x < d)
          return bad("bad block span '" + span + "' in a kernel record");
        k.blocks.push_back({d, x});
      }
      p->kernels.push_back(std::move(k));
    } else {
      return bad("unknown record '" + kind + "'");
    }
  }
  return Status::ok();
}

Result<Profile> readProfile(const std::string& prof_dir) {
  const std::string data = prof_dir + "/host/data";
  if (!isDirectory(data))
    return Status::error(ErrorCode::FileOpenFailed,
                         "{} is not a profile folder (no host/data inside); give the PROF_... "
                         "folder msprof created",
                         prof_dir);
  Profile p;
  if (fileExists(data + "/info.txt")) {
    ASC_TRY(std::string text, readText(data + "/info.txt"));
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      size_t eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string k = line.substr(0, eq), v = line.substr(eq + 1);
      if (k == "timestamp")
        p.info.timestamp = v;
      else if (k == "command")
        p.info.command = v;
      else if (k == "soc_version")
        p.info.soc_version = v;
      else if (k == "cpu_core_peak_gflops")
        p.info.cpu_core_peak_gflops = std::atof(v.c_str());
      else if (k == "exit_status")
        p.info.exit_status = std::atoi(v.c_str());
      else if (k.rfind("option.", 0) == 0)
        p.info.options[k.substr(7)] = v;
    }
  }
  auto names = listDir(data, true);
  for (const std::string& name : names ? *names : std::vector<std::string>{}) {
    if (name.rfind("asc_trace.", 0) != 0 || name.find(".tmp.") != std::string::npos) continue;
    ASC_TRY(std::string text, readText(data + "/" + name));
    ASC_RETURN_IF_ERROR(parseRaw(text, data + "/" + name, &p));
  }
  if (fileExists(data + "/sample.txt")) {
    ASC_TRY(std::string text, readText(data + "/sample.txt"));
    std::istringstream in(text);
    Sample s;
    std::string kind;
    while (in >> kind >> s.ts_ns >> s.app_cpu_percent >> s.sys_cpu_percent >> s.rss_bytes)
      if (kind == "sample") p.samples.push_back(s);
  }
  // Ascend C kernel launches of a process that ran no model session (an aclnn or ICPU_RUN_KF
  // program) become the ops of one "model" of that process, named as msprof's op_summary names
  // an application's kernels; a kernel launched inside a session is that session's op already.
  std::map<int, int> kernel_model;                            // process -> model index
  std::map<std::tuple<int, std::string, uint32_t>, int> kop;  // (process, name, blocks) -> op
  std::map<int, int> launches;                                // op -> launches so far
  std::vector<bool> has_session(p.processes.size(), false);
  for (const ModelData& m : p.models) has_session[m.process] = true;
  for (const KernelData& k : p.kernels) {
    if (has_session[k.process]) continue;
    auto m = kernel_model.find(k.process);
    if (m == kernel_model.end()) {
      p.models.push_back({k.process, "Ascend C kernels", "", 0});
      m = kernel_model.emplace(k.process, int(p.models.size()) - 1).first;
    }
    auto o = kop.find({k.process, k.name, k.block_dim});
    if (o == kop.end()) {
      OpData op;
      op.model = m->second;
      op.rec.name = op.rec.cann_type = op.rec.ir_type = k.name;
      op.rec.engine = "AI_CORE";
      op.rec.block_dim = k.block_dim;
      p.ops.push_back(std::move(op));
      o = kop.emplace(std::make_tuple(k.process, k.name, k.block_dim), int(p.ops.size()) - 1).first;
    }
    p.tasks.push_back({o->second, launches[o->second]++, k.start_ns, k.end_ns, 0});
  }
  // Processes ran one after another or side by side: order everything by time.
  std::stable_sort(p.tasks.begin(), p.tasks.end(),
                   [](const TaskData& a, const TaskData& b) { return a.start_ns < b.start_ns; });
  std::map<std::pair<int, int>, int64_t> last_end;  // (model, run) -> end of its last task
  for (TaskData& t : p.tasks) {
    auto key = std::make_pair(p.ops[t.op].model, t.run);
    auto it = last_end.find(key);
    t.wait_ns = it == last_end.end() ? 0 : std::max<int64_t>(0, t.start_ns - it->second);
    last_end[key] = t.end_ns;
  }
  return p;
}

Status writeInfo(const std::string& prof_dir, const ProfileInfo& info) {
  ASC_RETURN_IF_ERROR(makeDirs(prof_dir + "/host/data"));
  std::string s = fmt::format(
      "timestamp={}\ncommand={}\nsoc_version={}\ncpu_core_peak_gflops={:.3f}\n"
      "exit_status={}\n",
      info.timestamp, info.command, info.soc_version, info.cpu_core_peak_gflops, info.exit_status);
  for (const auto& [k, v] : info.options) s += fmt::format("option.{}={}\n", k, v);
  return writeFileAtomic(prof_dir + "/host/data/info.txt", s.data(), s.size());
}

Status writeSamples(const std::string& prof_dir, const std::vector<Sample>& samples) {
  ASC_RETURN_IF_ERROR(makeDirs(prof_dir + "/host/data"));
  std::string s;
  for (const Sample& x : samples)
    s += fmt::format("sample {} {:.2f} {:.2f} {}\n", x.ts_ns, x.app_cpu_percent, x.sys_cpu_percent,
                     x.rss_bytes);
  return writeFileAtomic(prof_dir + "/host/data/sample.txt", s.data(), s.size());
}

double achievedGflops(int64_t flops, double t_us) {
  return flops > 0 && t_us > 0 ? static_cast<double>(flops) / (t_us * 1e3) : 0.0;
}

double cpuPeakGflops(const Profile& p, int model) {
  const int threads =
      model >= 0 && model < static_cast<int>(p.models.size()) ? p.models[model].threads : 1;
  return p.info.cpu_core_peak_gflops * std::max(1, threads);
}

double estimatedUs(int64_t flops, double target_tflops) {
  return target_tflops > 0 ? static_cast<double>(flops) / (target_tflops * 1e6) : 0.0;
}

Summary summarize(const Profile& p) {
  Summary s;
  s.target_soc = p.info.target_soc;
  s.target_tflops = p.info.target_tflops;
  std::map<std::pair<int, int>, std::pair<int64_t, int64_t>> spans;  // (model, run) -> [lo, hi]
  std::map<std::tuple<int, std::string, std::string>, TypeStat> types;
  std::vector<OpStat> ops(p.ops.size());
  for (const TaskData& t : p.tasks) {
    const OpData& op = p.ops[t.op];
    const double d = static_cast<double>(t.end_ns - t.start_ns) / 1e3;
    s.op_us += d;
    if (op.rec.engine == "AI_CPU") s.aicpu_us += d;
    auto key = std::make_pair(op.model, t.run);
    auto it = spans.find(key);
    if (it == spans.end())
      spans[key] = {t.start_ns, t.end_ns};
    else {
      it->second.first = std::min(it->second.first, t.start_ns);
      it->second.second = std::max(it->second.second, t.end_ns);
    }
    TypeStat& ts = types[{op.model, op.rec.cann_type, op.rec.engine}];
    if (ts.count == 0) {
      ts.model = op.model;
      ts.op_type = op.rec.cann_type;
      ts.core_type = op.rec.engine;
      ts.min_us = d;
    }
    ++ts.count;
    ts.total_us += d;
    ts.min_us = std::min(ts.min_us, d);
    ts.max_us = std::max(ts.max_us, d);
    ts.flops += op.rec.flops;
    OpStat& os = ops[t.op];
    if (os.count == 0) os.min_us = d;
    os.op = t.op;
    ++os.count;
    os.total_us += d;
    os.min_us = std::min(os.min_us, d);
    os.max_us = std::max(os.max_us, d);
  }
  for (const auto& [k, v] : spans) s.wall_us += static_cast<double>(v.second - v.first) / 1e3;
  for (const ScopeData& sc : p.scopes)
    if (sc.name == "ModelExecute")
      s.execute_us += static_cast<double>(sc.end_ns - sc.start_ns) / 1e3;
  s.runs = static_cast<int64_t>(spans.size());
  s.tasks = static_cast<int64_t>(p.tasks.size());
  for (auto& [k, v] : types) s.by_type.push_back(v);
  std::stable_sort(s.by_type.begin(), s.by_type.end(),
                   [](const TypeStat& a, const TypeStat& b) { return a.total_us > b.total_us; });
  for (const OpStat& o : ops)
    if (o.count) s.by_op.push_back(o);
  std::stable_sort(s.by_op.begin(), s.by_op.end(),
                   [](const OpStat& a, const OpStat& b) { return a.total_us > b.total_us; });
  return s;
}

std::string opSummaryCsv(const Profile& p, const Summary& s) {
  // The real base and task-info columns, then asc-tools' own (after every real one, so scripts
  // that read columns by name keep working).
  std::string out =
      "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
      "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,"
      "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,"
      "Output Formats,Context ID,Original Op Names,Iteration,FLOPs,Bytes Moved,"
      "Achieved GFLOPS,CPU Peak Efficiency(%),Estimated Target Time(us)\n";
  std::map<int, int> task_id;  // per op: its position in its model's plan (Task ID)
  std::map<int, int> next_id;
  for (size_t i = 0; i < p.ops.size(); ++i) task_id[int(i)] = next_id[p.ops[i].model]++;
  for (const TaskData& t : p.tasks) {
    const OpRecord& r = p.ops[t.op].rec;
    const double d = static_cast<double>(t.end_ns - t.start_ns) / 1e3;
    const double g = achievedGflops(r.flops, d);
    const double peak = cpuPeakGflops(p, p.ops[t.op].model);
    auto na = [](const std::string& v) { return v.empty() ? std::string("N/A") : csvField(v); };
    out += fmt::format(
        "0,{},{},0,{},{},static,{},{},{},{},{},N/A,N/A,{},{},{},{},{},{},N/"
        "A,{},{},{},{},{},{},{}\n",
        p.ops[t.op].model + 1, task_id[t.op], csvField(r.name), csvField(r.cann_type), r.engine,
        nsToUs(t.start_ns), us(d), us(t.wait_ns / 1e3),
        r.block_dim ? std::to_string(r.block_dim) : std::string("N/A"), na(r.in_shapes),
        na(r.in_dtypes), na(r.in_formats), na(r.out_shapes), na(r.out_dtypes), na(r.out_formats),
        na(r.original), t.run + 1, r.flops, r.bytes, r.flops ? fmt::format("{:.3f}", g) : "N/A",
        r.flops && peak > 0 ? fmt::format("{:.2f}", 100.0 * g / peak) : "N/A",
        r.flops && s.target_tflops > 0
            ? fmt::format("{:.3f}", estimatedUs(r.flops, s.target_tflops))
            : "N/A");
  }
  return out;
}

std::string opStatisticCsv(const Profile& p, const Summary& s) {
  std::string out =
      "Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),"
      "Max Time(us),Ratio(%)\n";
  for (const TypeStat& t : s.by_type)
    out += fmt::format("0,{},{},{},{},{},{},{},{},{:.2f}\n", csvField(p.models[t.model].name),
                       csvField(t.op_type), t.core_type, t.count, us(t.total_us), us(t.min_us),
                       us(t.total_us / double(t.count)), us(t.max_us),
                       s.op_us > 0 ? 100.0 * t.total_us / s.op_us : 0.0);
  return out;
}

std::string taskTimeCsv(const Profile& p) {
  std::string out =
      "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),"
      "task_stop(us)\n";
  std::map<int, int> task_id, next_id;
  for (size_t i = 0; i < p.ops.size(); ++i) task_id[int(i)] = next_id[p.ops[i].model]++;
  for (const TaskData& t : p.tasks) {
    const OpRecord& r = p.ops[t.op].rec;
    out += fmt::format("0,{},{},0,{},{},{},{}\n", csvField(r.name), r.engine, task_id[t.op],
                       us(static_cast<double>(t.end_ns - t.start_ns) / 1e3), nsToUs(t.start_ns),
                       nsToUs(t.end_ns));
  }
  return out;
}

std::string apiStatisticCsv(const Profile& p) {
  struct Stat {
    std::string level, name;
    std::vector<double> us;
  };
  std::map<std::string, Stat> by_name;
  for (const ScopeData& sc : p.scopes) {
    if (sc.category != "AscendCL") continue;
    Stat& st = by_name[sc.name];
    st.name = sc.name;
    st.level = sc.name.rfind("acl", 0) == 0 ? "acl" : "model";
    st.us.push_back(static_cast<double>(sc.end_ns - sc.start_ns) / 1e3);
  }
  std::vector<const Stat*> rows;
  for (const auto& [k, v] : by_name) rows.push_back(&v);
  auto total = [](const Stat* s) { return std::accumulate(s->us.begin(), s->us.end(), 0.0); };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const Stat* a, const Stat* b) { return total(a) > total(b); });
  std::string out = "Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n";
  for (const Stat* s : rows) {
    const double sum = total(s), n = double(s->us.size()), avg = sum / n;
    double var = 0;
    for (double x : s->us) var += (x - avg) * (x - avg);
    out += fmt::format("{},{},{},{},{},{},{},{:.3f}\n", s->level, csvField(s->name), us(sum),
                       s->us.size(), us(avg), us(*std::min_element(s->us.begin(), s->us.end())),
                       us(*std::max_element(s->us.begin(), s->us.end())), var / n);
  }
  return out;
}

std::string chromeTraceJson(const Profile& p) {
  // One trace process per traced OS process, with three lanes: AscendCL (load, execute), the
  // AI Core tasks and the AI CPU tasks. Samples go to a "System" process as counters.
  std::string out = "[\n";
  bool first = true;
  auto ev = [&](const std::string& e) {
    out += first ? "" : ",\n";
    out += e;
    first = false;
  };
  auto meta = [&](int pid, int tid, const char* what, const std::string& name) {
    ev(fmt::format(R"J({{"name":"{}","ph":"M","pid":{},"tid":{},"args":{{"name":{}}}}})J", what,
                   pid, tid, jsonQuote(name)));
  };
  for (const ProcessData& pr : p.processes) {
    std::string cmd = pr.command.substr(0, pr.command.find(' '));
    meta(pr.pid, 0, "process_name", fmt::format("{} (pid {})", cmd, pr.pid));
    meta(pr.pid, 0, "thread_name", "AscendCL");
    meta(pr.pid, 1, "thread_name", "AI Core");
    meta(pr.pid, 2, "thread_name", "AI CPU");
  }
  for (const ScopeData& sc : p.scopes)
    ev(fmt::format(
        R"J({{"name":{},"ph":"X","cat":{},"ts":{},"dur":{},"pid":{},"tid":0,"args":{{}}}})J",
        jsonQuote(sc.name), jsonQuote(sc.category), nsToUs(sc.start_ns),
        nsToUs(sc.end_ns - sc.start_ns), p.processes[sc.process].pid));
  for (const TaskData& t : p.tasks) {
    const OpData& op = p.ops[t.op];
    const OpRecord& r = op.rec;
    const int pid = p.processes[p.models[op.model].process].pid;
    ev(fmt::format(
        R"J({{"name":{},"ph":"X","cat":{},"ts":{},"dur":{},"pid":{},"tid":{},"args":{{"OP Type":{},"Task Type":{},"Model ID":{},"Iteration":{},"Original Op Names":{},"Input Shapes":{},"Input Data Types":{},"Input Formats":{},"Output Shapes":{},"Output Data Types":{},"Output Formats":{},"FLOPs":{},"Bytes Moved":{},"Task Wait Time(us)":{}}}}})J",
        jsonQuote(r.name), jsonQuote(r.engine), nsToUs(t.start_ns), nsToUs(t.end_ns - t.start_ns),
        pid, r.engine == "AI_CPU" ? 2 : 1, jsonQuote(r.cann_type), jsonQuote(r.engine),
        op.model + 1, t.run + 1, jsonQuote(r.original), jsonQuote(r.in_shapes),
        jsonQuote(r.in_dtypes), jsonQuote(r.in_formats), jsonQuote(r.out_shapes),
        jsonQuote(r.out_dtypes), jsonQuote(r.out_formats), r.flops, r.bytes, nsToUs(t.wait_ns)));
  }
  if (!p.samples.empty()) {
    // A pseudo process id above Linux's pid_max, so it never meets a traced process.
    meta(kSystemPid, 0, "process_name", "System (msprof data sampling)");
    for (const Sample& s : p.samples) {
      ev(fmt::format(
          R"J({{"name":"CPU Usage","ph":"C","ts":{},"pid":{},"tid":0,"args":{{"app(%)":{:.2f},"system(%)":{:.2f}}}}})J",
          nsToUs(s.ts_ns), kSystemPid, s.app_cpu_percent, s.sys_cpu_percent));
      ev(fmt::format(
          R"J({{"name":"Memory","ph":"C","ts":{},"pid":{},"tid":0,"args":{{"RSS(MB)":{:.2f}}}}})J",
          nsToUs(s.ts_ns), kSystemPid, static_cast<double>(s.rss_bytes) / (1 << 20)));
    }
  }
  out += "\n]\n";
  return out;
}

}  // namespace asc::trace
