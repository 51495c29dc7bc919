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
#include "asc/cli/options.h"
#include "asc/opgen/opgen.h"

namespace asc::opgen_tool {

namespace {

// The command lines of the two subcommands, as typed.
struct GenLine : cli::Given {
  std::string input, compute_unit, output, framework, mode, op, language;
  bool force = false, help = false;
};
struct CompileLine : cli::Given {
  std::string input, cann;
  bool quiet = false, help = false;
};

const cli::OptionTable<GenLine>& genTable() {
  static const cli::OptionTable<GenLine> t = [] {
    using L = GenLine;
    cli::OptionTable<L> t("opgen gen", cli::Syntax::Argparse);
    t.text("--input -i", &L::input, "", "OP_JSON",
           "the op-definition JSON (a list of ops with input_desc, output_desc and attr)");
    t.text("--compute_unit -c", &L::compute_unit, "", "COMPUTE_UNIT",
           "ai_core-<soc> or vector_core-<soc>, e.g. ai_core-ascend310p");
    t.text("--language -lan", &L::language, "", "LANGUAGE",
           "cpp: an Ascend C project (the only kind asc-tools generates)");
    t.text("--output -out", &L::output, "./", "DIR", "the project folder");
    t.text("--framework -f", &L::framework, "tf", "FRAMEWORK",
           "onnx, pytorch, tf or caffe: the framework plugin generated (atc reads custom "
           "operators from ONNX); aclnn: the simple project, no plugin, its aclnn API in "
           "build_out/op_api");
    t.text("--mode -m", &L::mode, "0", "0|1", "0 a new project, 1 add the ops to an existing one");
    t.text("--operator -op", &L::op, "", "NAME", "generate only this op of the JSON");
    t.flag("--force", &L::force, "(asc-tools) overwrite the files of an existing project");
    t.flag("--help -h", &L::help, "show this help");
    return t;
  }();
  return t;
}

const cli::OptionTable<CompileLine>& compileTable() {
  static const cli::OptionTable<CompileLine> t = [] {
    using L = CompileLine;
    cli::OptionTable<L> t("opgen compile", cli::Syntax::Argparse);
    t.text("--input -i", &L::input, "", "PROJECT",
           "the project folder: runs its build.sh (plugin and unit tests)");
    t.text("--cann -c", &L::cann, "", "SDK_PREFIX",
           "the asc-tools SDK prefix (ASCEND_CANN_PACKAGE_PATH; default: the project's "
           "CMakePresets.json)");
    t.flag("--quiet -q", &L::quiet, "print only the result");
    t.flag("--help -h", &L::help, "show this help");
    return t;
  }();
  return t;
}

std::string usage() {
  return "usage: opgen {gen,compile} ...\n"
         "\n"
         "opgen gen -i OP_JSON -c COMPUTE_UNIT -lan cpp [-out DIR] [-f FRAMEWORK] [-m 0|1] "
         "[-op NAME] [--force]\n" +
         genTable().help() +
         "\n"
         "opgen compile -i PROJECT [-c SDK_PREFIX] [-q]\n" +
         compileTable().help() +
         "\n"
         "opgen --version | --help | --options_markdown\n"
         "\n"
         "exit codes (msopgen's): 0 success, 11 unsupported framework, 12 invalid output path,\n"
         "  13 invalid op info file, 14 invalid compute unit, 15 unsupported mode, 16 op define\n"
         "  error, 17 invalid parameter, 101 invalid project path; compile: build.sh's status\n"
         "\n"
         "example:\n"
         "  opgen gen -i add_custom.json -c ai_core-ascend310p -lan cpp -f onnx -out AddCustom\n"
         "  opgen compile -i AddCustom\n";
}

// opgen's one way to report a failure, as msopgen prints it: "[ERROR] <what>" (the usage after
// a command-line error), and the exit code.
int fail(std::ostream& out, const std::string& what, int code, bool with_usage = false) {
  out << "[ERROR] " << what << "\n";
  if (with_usage) out << usage();
  return code;
}

/// Parses a subcommand's arguments. Returns the exit code when opgen is done (a bad or missing
/// argument: usage and 17; --help: usage and 0), -1 to go on.
template <typename L>
int parseOrExit(const cli::OptionTable<L>& table, const std::vector<std::string>& args,
                const std::vector<const char*>& required, std::ostream& out, L* line) {
  std::vector<const char*> argv = {"opgen"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  auto r = table.parse(static_cast<int>(argv.size()), argv.data());
  if (!r) return fail(out, r.status().message(), opgen::kInvalidParam, true);
  *line = std::move(*r);
  if (line->help) {
    out << usage();
    return 0;
  }
  for (const char* name : required)
    if (!line->givenValues().count(name) || line->givenValues().at(name).empty())
      return fail(out, fmt::format("the following argument is required: --{}", name),
                  opgen::kInvalidParam, true);
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
  GenLine v;
  if (int done = parseOrExit(genTable(), args, {"input", "compute_unit"}, out, &v); done >= 0)
    return done;
  opgen::GenOptions o;
  o.input = v.input;
  o.compute_unit = v.compute_unit;
  o.output = v.output;
  o.framework = v.framework;
  if (v.given(v.language)) o.language = v.language;
  o.op = v.op;
  o.force = v.force;
  auto m = cli::parseInt("mode", v.mode, INT_MIN, INT_MAX, "0 or 1");
  if (!m) return fail(out, m.status().toString(), opgen::kUnsupportedMode);
  o.mode = static_cast<int>(*m);
  o.cann_path = sdkPrefix();
  opgen::GenReport report;
  int code = 0;
  if (Status st = opgen::generate(o, &report, &code); !st)
    return fail(out, st.toString(), code ? code : opgen::kInvalidParam);
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
  CompileLine v;
  if (int done = parseOrExit(compileTable(), args, {"input"}, out, &v); done >= 0) return done;
  const std::string project = v.input;
  const std::string build = project + "/build.sh";
  if (::access(build.c_str(), X_OK) != 0)
    return fail(out,
                fmt::format("E10001: -i {}: no executable build.sh; pass the folder of a project "
                            "made by opgen gen",
                            project),
                101);
  out.flush();
  const bool quiet = v.quiet;
  const std::string log = project + "/build_out/opgen_compile.log";
  pid_t pid = ::fork();
  if (pid < 0) return fail(out, "E19999: cannot start build.sh", 1);
  if (pid == 0) {
    if (v.given(v.cann)) ::setenv("ASCEND_CANN_PACKAGE_PATH", v.cann.c_str(), 1);
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
  if (rc != 0)
    return fail(out,
                fmt::format("build.sh of {} failed with status {}{}", project, rc,
                            quiet ? "; see " + log : ""),
                rc);
  out << fmt::format("[INFO] compiled {}: plugin in {}/build_out/vendors/\n", project, project);
  return 0;
}

}  // namespace

int main(int argc, char** argv, std::ostream& out) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty())
    return fail(out, "a subcommand is required: gen or compile", opgen::kInvalidParam, true);
  const std::string cmd = args[0];
  args.erase(args.begin());
  if (cmd == "--help" || cmd == "-h") {
    out << usage();
    return 0;
  }
  if (cmd == "--options_markdown") {
    out << "opgen gen:\n\n"
        << genTable().markdown() << "\nopgen compile:\n\n"
        << compileTable().markdown();
    return 0;
  }
  if (cmd == "--version") {
    out << cli::versionText("opgen");
    return 0;
  }
  if (cmd == "gen") return runGen(args, out);
  if (cmd == "compile") return runCompile(args, out);
  if (cmd == "sim" || cmd == "mi")
    return fail(out,
                fmt::format("E10055: opgen {} is not supported (msopgen's {} is retired or needs "
                            "the NPU simulator)",
                            cmd, cmd),
                opgen::kInvalidParam);
  return fail(out, fmt::format("invalid choice: '{}' (choose from 'gen', 'compile')", cmd),
              opgen::kInvalidParam, true);
}

}  // namespace asc::opgen_tool
