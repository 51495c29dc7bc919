// trace.cpp: the process-wide trace buffer. Records are formatted into one string as they
// arrive (sessions hand over their tasks in one batch at their end), and the string is appended
// to the raw file on flush(): at session end and at exit.
#include "asc/trace/trace.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <mutex>

#include "asc/support/file.h"
#include "asc/support/log.h"

namespace asc::trace {

namespace detail {
bool g_on = false;
}  // namespace detail

namespace {

struct State {
  std::mutex mu;
  std::string dir;
  std::string buffer;
  bool header_written = false;
  int sessions = 0;
  std::vector<int> ops_per_session;
};

State& state() {
  static State* s = new State();  // never destroyed: flushed by the atexit handler
  return *s;
}

// Tabs and newlines would break the line format.
void field(std::string& out, std::string_view s) {
  out += '\t';
  for (char c : s) out += (c == '\t' || c == '\n' || c == '\r') ? ' ' : c;
}

std::string commandLine() {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  while (!s.empty() && s.back() == '\0') s.pop_back();
  for (char& c : s)
    if (c == '\0') c = ' ';
  return s;
}

// Holds the lock.
void writeHeader(State& s) {
  if (s.header_written) return;
  s.header_written = true;
  std::string h = "asc-trace\t1\nprocess";
  field(h, std::to_string(getpid()));
  field(h, commandLine());
  h += '\n';
  s.buffer.insert(0, h);
}

void atExit() {
  Status st = flush();
  if (!st) ASC_LOG_WARN("profile data lost: {}", st.toString());
}

void startLocked(State& s, const std::string& dir) {
  s.dir = dir;
  static bool registered = false;
  if (!registered) {
    registered = true;
    std::atexit(atExit);
  }
  detail::g_on = true;
}

// Reads ASC_PROF_DIR when the library is loaded.
const bool kFromEnv = [] {
  const char* d = std::getenv(kEnvDir);
  if (d && *d) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    startLocked(s, d);
  }
  return true;
}();

}  // namespace

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void start(const std::string& prof_dir) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  startLocked(s, prof_dir);
}

void stop() {
  Status st = flush();
  if (!st) ASC_LOG_WARN("profile data lost: {}", st.toString());
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  detail::g_on = false;
  s.dir.clear();
  s.header_written = false;
  s.sessions = 0;
  s.ops_per_session.clear();
}

std::string rawPath() {
  State& s = state();
  if (s.dir.empty()) return "";
  return s.dir + "/host/data/asc_trace." + std::to_string(getpid()) + ".txt";
}

Status flush() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.dir.empty() || s.buffer.empty()) return Status::ok();
  ASC_RETURN_IF_ERROR(makeDirs(s.dir + "/host/data"));
  const std::string path = rawPath();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Status::error(ErrorCode::FileWriteFailed, "cannot open {} for writing", path);
  const char* p = s.buffer.data();
  size_t left = s.buffer.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n <= 0) {
      ::close(fd);
      return Status::error(ErrorCode::FileWriteFailed, "cannot write {}", path);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  ::close(fd);
  s.buffer.clear();
  return Status::ok();
}

int beginSession(const std::string& model, const std::string& soc, int threads) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  writeHeader(s);
  int sid = ++s.sessions;
  s.ops_per_session.push_back(0);
  s.buffer += "session";
  field(s.buffer, std::to_string(sid));
  field(s.buffer, model);
  field(s.buffer, soc);
  field(s.buffer, std::to_string(threads));
  s.buffer += '\n';
  return sid;
}

int addOp(int sid, const OpRecord& op) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  writeHeader(s);
  if (sid < 1 || sid > static_cast<int>(s.ops_per_session.size())) return -1;
  int id = s.ops_per_session[sid - 1]++;
  std::string& b = s.buffer;
  b += "op";
  field(b, std::to_string(sid));
  field(b, std::to_string(id));
  for (const std::string* f :
       {&op.name, &op.cann_type, &op.ir_type, &op.engine, &op.original, &op.in_shapes,
        &op.in_dtypes, &op.in_formats, &op.out_shapes, &op.out_dtypes, &op.out_formats})
    field(b, *f);
  field(b, std::to_string(op.flops));
  field(b, std::to_string(op.bytes));
  b += '\n';
  return id;
}

void addTasks(int sid, std::vector<TaskRecord>&& tasks) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  writeHeader(s);
  std::string& b = s.buffer;
  b.reserve(b.size() + tasks.size() * 48);
  const std::string sids = std::to_string(sid);
  for (const TaskRecord& t : tasks) {
    b += "task\t";
    b += sids;
    b += '\t';
    b += std::to_string(t.op);
    b += '\t';
    b += std::to_string(t.run);
    b += '\t';
    b += std::to_string(t.start_ns);
    b += '\t';
    b += std::to_string(t.end_ns);
    b += '\n';
  }
  std::vector<TaskRecord>().swap(tasks);
}

void addScope(const char* category, std::string_view name, int64_t start_ns, int64_t end_ns) {
  static thread_local long tid = ::syscall(SYS_gettid);
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!detail::g_on) return;
  writeHeader(s);
  std::string& b = s.buffer;
  b += "scope";
  field(b, category);
  field(b, name);
  field(b, std::to_string(start_ns));
  field(b, std::to_string(end_ns));
  field(b, std::to_string(tid));
  b += '\n';
}

void addKernel(std::string_view name, uint32_t block_dim, int64_t start_ns, int64_t end_ns,
               const std::vector<std::pair<int64_t, int64_t>>& blocks) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!detail::g_on) return;
  writeHeader(s);
  std::string& b = s.buffer;
  b += "kernel";
  field(b, name);
  field(b, std::to_string(block_dim));
  field(b, std::to_string(start_ns));
  field(b, std::to_string(end_ns));
  std::string spans;
  for (const auto& [bs, be] : blocks)
    spans += (spans.empty() ? "" : ",") + std::to_string(bs) + ":" + std::to_string(be);
  field(b, spans);
  b += '\n';
}

}  // namespace asc::trace
