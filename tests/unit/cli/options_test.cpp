// options_test.cpp: the one option table (asc/cli/options.h): defaults from the table, typed
// members, given(), each tool's syntax, refusals, and the --help and Markdown it generates.
#include <catch2/catch.hpp>

#include <optional>
#include <vector>

#include "asc/cli/options.h"

using namespace asc;

namespace {

struct Opts : cli::Given {
  std::string name, mode, unset = "kept";
  int count = 0;
  int64_t big = 0;
  double ratio = 0;
  std::optional<double> tol;
  bool on = false, flag = false;
  std::vector<std::string> rest;
};

cli::OptionTable<Opts> table(cli::Syntax syntax) {
  cli::OptionTable<Opts> t("tool", syntax);
  t.text("--name -n --alias", &Opts::name, "anon", "NAME", "who");
  t.choice("--mode", &Opts::mode, "fast|slow", "fast", "how");
  t.text("--unset", &Opts::unset, "", "X", "no default: keeps the member's value");
  t.integer("--count -c", &Opts::count, "3", 1, 10, "N", "how many");
  t.integer("--big", &Opts::big, "", INT64_MIN, INT64_MAX, "N", "any int64");
  t.real("--ratio", &Opts::ratio, "0.5", 0, 1, "X", "a share", "a number in [0, 1]");
  t.real("--tol", &Opts::tol, "", 0, 1e308, "X", "optional", "a number >= 0");
  t.boolean("--on", &Opts::on, "false", "switch");
  t.flag("--flag -f", &Opts::flag, "present or not");
  t.refused("--npu_only", cli::Kind::Text, "0", "not on a CPU");
  t.noEffect("--npu_hint", cli::Kind::Choice, "", "recorded").choices = "a|b";
  return t;
}

Result<Opts> parse(const cli::OptionTable<Opts>& t, std::vector<const char*> args) {
  args.insert(args.begin(), "tool");
  return t.parse(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("option table: defaults come from the table, values into typed members", "[cli]") {
  auto t = table(cli::Syntax::Getopt);
  auto d = parse(t, {});
  REQUIRE(d.isOk());
  CHECK(d->name == "anon");
  CHECK(d->mode == "fast");
  CHECK(d->unset == "kept");
  CHECK(d->count == 3);
  CHECK(d->ratio == 0.5);
  CHECK_FALSE(d->tol.has_value());
  CHECK_FALSE(d->given(d->name));
  CHECK(d->givenValues().empty());

  auto o = parse(t, {"--name", "x", "--count=7", "--tol", "1e-3", "--on", "true", "-f", "--mode",
                     "slow", "--big", "-9223372036854775808"});
  REQUIRE(o.isOk());
  CHECK(o->name == "x");
  CHECK(o->count == 7);
  CHECK(o->tol == 1e-3);
  CHECK(o->on);
  CHECK(o->flag);
  CHECK(o->mode == "slow");
  CHECK(o->big == INT64_MIN);
  CHECK(o->given(o->name));
  CHECK(o->given(o->count));
  CHECK_FALSE(o->given(o->ratio));
  CHECK(o->givenValues().at("count") == "7");
  // given() follows a copy of the struct.
  Opts copy = *o;
  CHECK(copy.given(copy.tol));
  CHECK_FALSE(copy.given(copy.unset));
}

TEST_CASE("option table: bad values are refused with the shared codes and messages", "[cli]") {
  auto t = table(cli::Syntax::Getopt);
  auto code = [&](std::vector<const char*> a) { return parse(t, a).status().code(); };
  CHECK(code({"--count", "0"}) == ErrorCode::InvalidParam);
  CHECK(code({"--count", "11"}) == ErrorCode::InvalidParam);
  CHECK(code({"--count", "2x"}) == ErrorCode::InvalidParam);
  CHECK(code({"--count="}) == ErrorCode::EmptyParam);
  CHECK(code({"--count"}) == ErrorCode::EmptyParam);  // no value after it
  CHECK(code({"--big", "9223372036854775808"}) == ErrorCode::InvalidParam);
  CHECK(code({"--ratio", "1.5"}) == ErrorCode::InvalidParam);
  CHECK(code({"--ratio", "nan"}) == ErrorCode::InvalidParam);
  CHECK(code({"--on", "yes"}) == ErrorCode::BoolParam);
  CHECK(code({"--name="}) == ErrorCode::EmptyParam);
  CHECK(code({"--flag=1"}) == ErrorCode::InvalidParam);
  auto m = parse(t, {"--mode", "medium"});
  CHECK(m.status().message().find("Value medium for parameter --mode is invalid. Reason: use fast "
                                  "or slow") != std::string::npos);
  // Refused unless the default; a no-effect option is checked and recorded.
  CHECK(parse(t, {"--npu_only=0"}).isOk());
  auto r = parse(t, {"--npu_only=1"});
  CHECK(r.status().code() == ErrorCode::NotImplemented);
  CHECK(r.status().message().find("does not support --npu_only=1 yet") != std::string::npos);
  auto n = parse(t, {"--npu_hint=a"});
  REQUIRE(n.isOk());
  CHECK(n->givenValues().at("npu_hint") == "a");
  CHECK(code({"--npu_hint=c"}) == ErrorCode::InvalidParam);
  // One option in two spellings.
  CHECK(parse(t, {"--name", "a", "-n", "a"}).status().message().find("--name was also given") !=
        std::string::npos);
  CHECK(parse(t, {"-n", "a", "-n", "b"})->name == "b");  // a repeat: the last wins
}

TEST_CASE("option table: each tool's syntax", "[cli]") {
  // getopt (msame): the real tool's line for an unknown option or a stray word.
  auto g = parse(table(cli::Syntax::Getopt), {"--bogus", "1"});
  CHECK(g.status().message() == "unknown paramenter '--bogus'");
  CHECK(parse(table(cli::Syntax::Getopt), {"stray"}).status().message() ==
        "unknown paramenter 'stray'");
  // gflags (atc): --h and -h ask for help like --help would; positional words are refused.
  auto f = parse(table(cli::Syntax::Gflags), {"word"});
  CHECK(f.status().message().find("(positional)") != std::string::npos);
  // argparse (msaccucmp, msopgen): unknown arguments in argparse's words.
  auto a = parse(table(cli::Syntax::Argparse), {"--bogus"});
  CHECK(a.status().message().find("unrecognized argument: --bogus") != std::string::npos);
  // msprof: a bare switch takes its implicit value; the first word that is not an option starts
  // the command, and "--" ends the options.
  auto t = table(cli::Syntax::Msprof);
  t.choice("--sw", &Opts::mode, "on|off", "", "switch").implicit = "on";
  t.rest(&Opts::rest);
  auto m = parse(t, {"--sw", "app", "--name", "x"});
  REQUIRE(m.isOk());
  CHECK(m->mode == "on");
  CHECK(m->name == "anon");
  CHECK(m->rest == std::vector<std::string>{"app", "--name", "x"});
  auto dd = parse(t, {"--", "--app"});
  REQUIRE(dd.isOk());
  CHECK(dd->rest == std::vector<std::string>{"--app"});
  CHECK(parse(t, {"--bogus=1"}).status().message().find("unknown option '--bogus=1'") !=
        std::string::npos);
}

TEST_CASE("option table: --help and Markdown list every row with its support", "[cli]") {
  auto t = table(cli::Syntax::Argparse);
  std::string help;  // the text with its line wrapping undone
  for (char c : t.help())
    if (!(c == ' ' || c == '\n') || help.empty() || help.back() != ' ') help += c == '\n' ? ' ' : c;
  CHECK(help.find(" -n, --name, --alias NAME") != std::string::npos);
  CHECK(help.find("[default: anon]") != std::string::npos);
  CHECK(help.find("--mode fast|slow") != std::string::npos);
  CHECK(help.find("(refused with E10055 unless its default)") != std::string::npos);
  CHECK(help.find("(no effect on the CPU runtime)") != std::string::npos);
  const std::string md = t.markdown();
  CHECK(md.find("| `--mode fast\\|slow` | `fast` | how | yes |") != std::string::npos);
  CHECK(md.find("refused (E10055) unless its default") != std::string::npos);
  size_t rows = 0;
  for (size_t p = md.find("\n| `"); p != std::string::npos; p = md.find("\n| `", p + 1)) ++rows;
  CHECK(rows == t.core().rows().size());
}
