// opgen.cpp: the opgen command line. msopgen's spellings (argparse, no abbreviations):
//   opgen gen -i op.json -c ai_core-<soc> -lan cpp [-out DIR] [-f onnx|pytorch|tf|caffe]
//             [-m 0|1] [-op NAME] [--force]
//   opgen compile -i PROJECT [-c SDK_PREFIX] [-q]
// The generator is libasccore's (asc/opgen/opgen.h); this file parses, prints and runs build.sh.
#include "opgen.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "asc/cli/common.h"
#include "asc/opgen/opgen.h"

namespace asc::opgen_tool {

namespace {

const char* kUsage =
    "usage: opgen {gen,compile} ...\n"
    "\n"
    "  opgen gen -i OP_JSON -c COMPUTE_UNIT -lan cpp [-out DIR] [-f FRAMEWORK] [-m 0|1]\n"
    "            [-op NAME] [--force]\n"
    "      -i, --input        the op-definition JSON (a list of ops with input_desc,\n"
    "                         output_desc and attr)\n"
    "      -c, --compute_unit ai_core-<soc> or vector_core-<soc>, e.g. ai_core-ascend310p\n"
    "      -lan, --language   cpp: an Ascend C project (the only kind asc-tools generates)\n"
    "      -out, --output     the project folder [default: ./]\n"
    "      -f, --framework    onnx, pytorch, tf or caffe: the framework plugin generated\n"
    "                         [default: tf; atc reads custom operators from ONNX]\n"
    "      -m, --mode         0 a new project (default), 1 add the ops to an existing one\n"
    "      -op, --operator    generate only this op of the JSON\n"
    "      --force            overwrite the files of an existing project (asc-tools)\n"
    "\n"
    "  opgen compile -i PROJECT [-c SDK_PREFIX] [-q]\n"
    "      -i, --input        the project folder: runs its build.sh (plugin and unit tests)\n"
    "      -c, --cann         the asc-tools SDK prefix (ASCEND_CANN_PACKAGE_PATH) [default:\n"
    "                         the project's CMakePresets.json]\n"
    "      -q, --quiet        print only the result\n"
    "\n"
    "  opgen --version | --help\n"
    "\n"
    "exit codes (msopgen's): 0 success, 11 unsupported framework, 12 invalid output path,\n"
    "  13 invalid op info file, 14 invalid compute unit, 15 unsupported mode, 16 op define\n"
    "  error, 17 invalid parameter, 101 invalid project path; compile: build.sh's status\n"
    "\n"
    "example:\n"
    "  opgen gen -i add_custom.json -c ai_core-ascend310p -lan cpp -f onnx -out AddCustom\n"
    "  opgen compile -i AddCustom\n";

struct Spec {
  const char* short_name;
  const char* long_name;
  bool takes_value;
};

/// argparse-style parsing: "-x V", "--long V", "--long=V"; no abbreviations; a repeated
/// option keeps its last value.
bool parseArgs(const std::vector<std::string>& args, const std::vector<Spec>& specs,
               std::map<std::string, std::string>* out, std::string* error) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i], value;
    bool has_value = false;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      has_value = true;
    }
    const Spec* spec = nullptr;
    for (const auto& s : specs)
      if (a == s.short_name || a == s.long_name) spec = &s;
    if (!spec) {
      *error = fmt::format("unrecognized argument: {}", args[i]);
      return false;
    }
    if (spec->takes_value && !has_value) {
      if (i + 1 >= args.size()) {
        *error =
            fmt::format("argument {}/{}: expected one argument", spec->short_name, spec->long_name);
        return false;
      }
      value = args[++i];
    } else if (!spec->takes_value && has_value) {
      *error = fmt::format("argument {}: takes no value", spec->long_name);
      return false;
    }
    (*out)[spec->long_name] = value;
  }
  return true;
}

/// Parses a subcommand's arguments into `v`. Returns the exit code when opgen is done (a bad or
/// missing argument: usage and 17; --help: usage and 0), -1 to go on.
int parseOrExit(const std::vector<std::string>& args, const std::vector<Spec>& specs,
                const std::vector<const char*>& required, std::ostream& out,
                std::map<std::string, std::string>* v) {
  std::string error;
  if (!parseArgs(args, specs, v, &error)) {
    out << "[ERROR] " << error << "\n" << kUsage;
    return opgen::kInvalidParam;
  }
  if (v->count("--help")) {
    out << kUsage;
    return 0;
  }
  for (const char* name : required)
    if (!v->count(name) || v->at(name).empty()) {
      out << fmt::format("[ERROR] the following argument is required: {}\n", name) << kUsage;
      return opgen::kInvalidParam;
    }
  return -1;
}

/// The SDK prefix this opgen belongs to: ASCEND_CANN_PACKAGE_PATH, else the prefix above the
/// executable when it holds asccoreConfig.cmake (an installed asc-tools), else CANN's default.
std::string sdkPrefix() {
  if (const char* env = std::getenv("ASCEND_CANN_PACKAGE_PATH"); env && *env) return env;
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n > 0) {
    std::string exe(buf, static_cast<size_t>(n));
    std::string prefix = exe.substr(0, exe.rfind('/'));
    prefix = prefix.substr(0, prefix.rfind('/'));
    for (const char* lib : {"lib", "lib64", "lib/x86_64-linux-gnu"})
      if (::access((prefix + "/" + lib + "/cmake/asccore/asccoreConfig.cmake").c_str(), F_OK) == 0)
        return prefix;
  }
  return "/usr/local/Ascend/latest";
}

int runGen(const std::vector<std::string>& args, std::ostream& out) {
  std::map<std::string, std::string> v;
  const std::vector<Spec> specs = {
      {"-i", "--input", true},      {"-c", "--compute_unit", true}, {"-out", "--output", true},
      {"-f", "--framework", true},  {"-m", "--mode", true},         {"-op", "--operator", true},
      {"-lan", "--language", true}, {"--force", "--force", false},  {"-h", "--help", false},
  };
  if (int done = parseOrExit(args, specs, {"--input", "--compute_unit"}, out, &v); done >= 0)
    return done;
  opgen::GenOptions o;
  o.input = v["--input"];
  o.compute_unit = v["--compute_unit"];
  if (v.count("--output")) o.output = v["--output"];
  if (v.count("--framework")) o.framework = v["--framework"];
  if (v.count("--language")) o.language = v["--language"];
  if (v.count("--operator")) o.op = v["--operator"];
  o.force = v.count("--force") != 0;
  if (v.count("--mode")) {
    auto m = cli::parseInt("mode", v["--mode"], INT_MIN, INT_MAX, "0 or 1");
    if (!m) {
      out << "[ERROR] " << m.status().toString() << "\n";
      return opgen::kUnsupportedMode;
    }
    o.mode = static_cast<int>(*m);
  }
  o.cann_path = sdkPrefix();
  opgen::GenReport report;
  int code = 0;
  if (Status st = opgen::generate(o, &report, &code); !st) {
    out << "[ERROR] " << st.toString() << "\n";
    return code ? code : opgen::kInvalidParam;
  }
  out << fmt::format("[INFO] {} {} operator(s) for {} in {}: {}\n",
                     o.mode == 1 ? "added" : "generated", report.ops.size(), report.soc, o.output,
                     fmt::join(report.ops, ", "));
  out << fmt::format("[INFO] {} files written; next: opgen compile -i {}\n", report.files.size(),
                     o.output);
  if (o.cann_path == "/usr/local/Ascend/latest")
    out << "[WARNING] no installed asc-tools SDK found next to opgen; set "
           "ASCEND_CANN_PACKAGE_PATH to its prefix (cmake --install) before build.sh\n";
  return 0;
}

int runCompile(const std::vector<std::string>& args, std::ostream& out) {
  std::map<std::string, std::string> v;
  const std::vector<Spec> specs = {{"-i", "--input", true},
                                   {"-c", "--cann", true},
                                   {"-q", "--quiet", false},
                                   {"-h", "--help", false}};
  if (int done = parseOrExit(args, specs, {"--input"}, out, &v); done >= 0) return done;
  const std::string project = v["--input"];
  const std::string build = project + "/build.sh";
  if (::access(build.c_str(), X_OK) != 0) {
    out << fmt::format(
        "[ERROR] E10001: -i {}: no executable build.sh; pass the folder of a project made by "
        "opgen gen\n",
        project);
    return 101;
  }
  out.flush();
  const bool quiet = v.count("--quiet") != 0;
  const std::string log = project + "/build_out/opgen_compile.log";
  pid_t pid = ::fork();
  if (pid < 0) {
    out << "[ERROR] E19999: cannot start build.sh\n";
    return 1;
  }
  if (pid == 0) {
    if (v.count("--cann")) ::setenv("ASCEND_CANN_PACKAGE_PATH", v["--cann"].c_str(), 1);
    if (quiet) {
      // The build's lines go to the log (the shell redirects; it is the build's own output).
      ::mkdir((project + "/build_out").c_str(), 0755);
      ::execl("/bin/bash", "bash", "-c", "exec bash \"$0\" > \"$1\" 2>&1", build.c_str(),
              log.c_str(), static_cast<char*>(nullptr));
    } else {
      ::dup2(2, 1);  // the build's lines go to stderr; stdout keeps opgen's result
      ::execl("/bin/bash", "bash", build.c_str(), static_cast<char*>(nullptr));
    }
    _exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  if (rc != 0) {
    out << fmt::format("[ERROR] build.sh of {} failed with status {}{}\n", project, rc,
                       quiet ? "; see " + log : "");
    return rc;
  }
  out << fmt::format("[INFO] compiled {}: plugin in {}/build_out/vendors/\n", project, project);
  return 0;
}

}  // namespace

int main(int argc, char** argv, std::ostream& out) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    out << kUsage << "[ERROR] a subcommand is required: gen or compile\n";
    return opgen::kInvalidParam;
  }
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "--help" || cmd == "-h") {
    out << kUsage;
    return 0;
  }
  if (cmd == "--version") {
    out << cli::versionText("opgen");
    return 0;
  }
  if (cmd == "gen") return runGen(args, out);
  if (cmd == "compile") return runCompile(args, out);
  if (cmd == "sim" || cmd == "mi")
    out << fmt::format(
        "[ERROR] E10055: opgen {} is not supported (msopgen's {} is retired or "
        "needs the NPU simulator)\n",
        cmd, cmd);
  else
    out << fmt::format("[ERROR] invalid choice: '{}' (choose from 'gen', 'compile')\n{}", cmd,
                       kUsage);
  return opgen::kInvalidParam;
}

}  // namespace asc::opgen_tool
