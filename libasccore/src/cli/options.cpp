// options.cpp: the table-driven parser, --help and Markdown of options.h.
#include "asc/cli/options.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "asc/cli/common.h"

namespace asc::cli {

std::vector<std::string> splitSpellings(const char* spellings) {
  std::vector<std::string> out;
  std::string s = spellings;
  for (size_t pos = 0; pos < s.size();) {
    size_t end = s.find(' ', pos);
    if (end == std::string::npos) end = s.size();
    if (end > pos) out.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

std::string OptionRow::name() const {
  const std::string& s = spellings.front();
  return s.substr(s.find_first_not_of('-'));
}

OptionRow& OptionParser::add(OptionRow row) {
  rows_.push_back(std::move(row));
  return rows_.back();
}

const OptionRow* OptionParser::find(const std::string& spelling) const {
  for (const OptionRow& r : rows_)
    for (const std::string& s : r.spellings)
      if (s == spelling) return &r;
  return nullptr;
}

namespace {

std::string choiceList(const std::string& choices) {
  std::vector<std::string> c;
  for (size_t pos = 0; pos <= choices.size();) {
    size_t end = choices.find('|', pos);
    if (end == std::string::npos) end = choices.size();
    c.push_back(choices.substr(pos, end - pos));
    pos = end + 1;
  }
  if (c.size() == 1) return c[0];
  std::string out;
  for (size_t i = 0; i < c.size(); ++i)
    out += (i == 0 ? "" : i + 1 == c.size() ? " or " : ", ") + c[i];
  return out;
}

bool inChoices(const std::string& v, const std::string& choices) {
  return ("|" + choices + "|").find("|" + v + "|") != std::string::npos;
}

}  // namespace

Status OptionParser::checkValue(const OptionRow& row, const std::string& spelling,
                                const std::string& text, OptionValue* value) const {
  const std::string name = spelling.substr(spelling.find_first_not_of('-'));
  value->text = text;
  switch (row.kind) {
    case Kind::Flag:
      value->boolean = true;
      return Status::ok();
    case Kind::Text:
      if (text.empty() && !row.allow_empty)
        return Status::error(ErrorCode::EmptyParam, "Value for --{} is empty.", name);
      return Status::ok();
    case Kind::Choice:
      if (!inChoices(text, row.choices))
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --{} is invalid. Reason: use {}",
                             text.empty() ? "(empty)" : text, name, choiceList(row.choices));
      return Status::ok();
    case Kind::Bool: {
      ASC_TRY(value->boolean, parseBool(name, text));
      return Status::ok();
    }
    case Kind::Int: {
      ASC_TRY(value->integer, parseInt(name, text, row.min, row.max, row.accepted));
      return Status::ok();
    }
    case Kind::Real: {
      char* end = nullptr;
      errno = 0;
      const double d = std::strtod(text.c_str(), &end);
      if (text.empty() || *end || errno == ERANGE || !(d >= row.real_min && d <= row.real_max))
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter --{} is invalid. Reason: expected {}",
                             text.empty() ? "(empty)" : text, name, row.accepted);
      value->real = d;
      return Status::ok();
    }
  }
  return Status::ok();
}

Status OptionParser::parse(int argc, const char* const* argv, void* object, Given* given) const {
  for (const OptionRow& r : rows_) {
    if (!r.store || r.default_value.empty()) continue;
    OptionValue v;
    if (Status st = checkValue(r, r.spellings.front(), r.default_value, &v); !st)
      return Status::error(ErrorCode::Internal, "{}'s default for {}: {}", tool_,
                           r.spellings.front(), st.message());
    r.store(object, v);
  }
  std::vector<std::string> rest;
  std::map<const OptionRow*, std::string> spelled;  // the spelling each option was given in
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (syntax_ == Syntax::Gflags && (word == "-h" || word == "--h")) word = "--help";
    if (syntax_ == Syntax::Msprof && word == "-h") word = "--help";
    if (syntax_ == Syntax::Msprof && (word == "--" || word.rfind("--", 0) != 0)) {
      for (int j = word == "--" ? i + 1 : i; j < argc; ++j) rest.push_back(argv[j]);
      break;
    }
    const bool option = word.size() > 1 && word[0] == '-';
    if (!option) {
      if (rest_) {
        rest.push_back(word);
        continue;
      }
      if (syntax_ == Syntax::Getopt)
        return Status::error(ErrorCode::InvalidParam, "unknown paramenter '{}'", word);
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter (positional) is invalid. Reason: {} takes "
                           "only options; see '{} --help'",
                           word, tool_, tool_);
    }
    std::string spelling = word, text;
    bool has_text = false;
    if (size_t eq = word.find('='); eq != std::string::npos) {
      spelling = word.substr(0, eq);
      text = word.substr(eq + 1);
      has_text = true;
    }
    const OptionRow* r = find(spelling);
    if (!r) {
      switch (syntax_) {
        case Syntax::Getopt:
          return Status::error(ErrorCode::InvalidParam, "unknown paramenter '{}'", word);
        case Syntax::Argparse:
          return Status::error(ErrorCode::InvalidParam,
                               "unrecognized argument: {}; see '{} --help'", word, tool_);
        case Syntax::Msprof:
          return Status::error(ErrorCode::InvalidParam,
                               "unknown option '{}'; see {} --help for the accepted options", word,
                               tool_);
        case Syntax::Gflags:
          break;
      }
      return Status::error(ErrorCode::InvalidParam,
                           "Parameter {} is invalid. Reason: {} has no such option; see '{} "
                           "--help'",
                           spelling, tool_, tool_);
    }
    if (r->kind == Kind::Flag) {
      if (has_text)
        return Status::error(ErrorCode::InvalidParam,
                             "Value {} for parameter {} is invalid. Reason: it takes no value",
                             text, spelling);
    } else if (!has_text) {
      if (!r->implicit.empty()) {
        text = r->implicit;
      } else if (i + 1 < argc) {
        text = argv[++i];
      } else {
        return Status::error(ErrorCode::EmptyParam,
                             "Value for {} is empty. Reason: the option needs a value{}", spelling,
                             r->metavar.empty() ? "" : " (" + r->metavar + ")");
      }
    }
    if (auto [it, first] = spelled.emplace(r, spelling); !first && it->second != spelling)
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter {} is invalid. Reason: {} was also given; use "
                           "one spelling",
                           text, spelling, it->second);
    OptionValue v;
    ASC_RETURN_IF_ERROR(checkValue(*r, spelling, text, &v));
    if (r->support == Support::Refused && text != r->default_value)
      return Status::error(ErrorCode::NotImplemented,
                           "The operation is not supported. Reason: asc-tools {} does not support "
                           "{}={} yet; remove the option{}",
                           tool_, r->spellings.front(), text,
                           r->default_value.empty()
                               ? std::string()
                               : fmt::format(" (its default is '{}')", r->default_value));
    if (r->store) r->store(object, v);
    given->markGiven(r->name(), text, r->field);
  }
  if (!rest.empty()) {
    if (!rest_)
      return Status::error(ErrorCode::InvalidParam,
                           "Value {} for parameter (positional) is invalid. Reason: {} takes "
                           "only options; see '{} --help'",
                           rest.front(), tool_, tool_);
    rest_(object, std::move(rest));
  }
  return Status::ok();
}

namespace {

// The spellings as argparse lists them, short ones ("-m") first.
std::string spellingsWithValue(const OptionRow& r, const char* join) {
  std::string s;
  for (bool short_ones : {true, false})
    for (const std::string& sp : r.spellings)
      if ((sp.rfind("--", 0) != 0) == short_ones) s += (s.empty() ? "" : ", ") + sp;
  if (r.kind == Kind::Flag) return s;
  std::string value = r.kind == Kind::Choice ? r.choices
                      : r.kind == Kind::Bool ? std::string("true|false")
                      : r.metavar.empty()    ? std::string("VALUE")
                                             : r.metavar;
  return s + join + value;
}

std::string notes(const OptionRow& r) {
  std::string n;
  if (!r.default_value.empty()) n += fmt::format(" [default: {}]", r.default_value);
  if (r.support == Support::NoEffect) n += " (no effect on the CPU runtime)";
  if (r.support == Support::Refused) n += " (refused with E10055 unless its default)";
  return n;
}

// Words of `text` in lines of at most `width` characters, each after `indent`.
std::string wrap(const std::string& text, size_t indent, size_t first_used, size_t width) {
  std::string out, line;
  size_t used = first_used;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    const std::string w = text.substr(pos, end - pos);
    pos = end + 1;
    if (w.empty()) continue;
    if (!line.empty() && used + line.size() + 1 + w.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
      used = indent;
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + line;
}

}  // namespace

std::string OptionParser::help() const {
  constexpr size_t kCol = 28, kWidth = 100;
  const char* join = syntax_ == Syntax::Gflags || syntax_ == Syntax::Msprof ? "=" : " ";
  std::string out;
  for (const OptionRow& r : rows_) {
    std::string head = "  " + spellingsWithValue(r, join);
    if (head.size() + 1 > kCol) {
      out += head + "\n" + std::string(kCol, ' ');
    } else {
      out += head + std::string(kCol - head.size(), ' ');
    }
    out += wrap(r.help + notes(r), kCol, kCol, kWidth) + "\n";
  }
  return out;
}

std::string OptionParser::markdown() const {
  const char* join = syntax_ == Syntax::Gflags || syntax_ == Syntax::Msprof ? "=" : " ";
  std::string out = "| option | default | what it does | asc-tools |\n|---|---|---|---|\n";
  auto cell = [](std::string s) {
    std::string o;
    for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
    return o;
  };
  for (const OptionRow& r : rows_)
    out +=
        fmt::format("| `{}` | {} | {} | {} |\n", cell(spellingsWithValue(r, join)),
                    r.default_value.empty() ? "" : "`" + cell(r.default_value) + "`", cell(r.help),
                    r.support == Support::Yes        ? "yes"
                    : r.support == Support::NoEffect ? "accepted, no effect on the CPU"
                                                     : "refused (E10055) unless its default");
  return out;
}

}  // namespace asc::cli
