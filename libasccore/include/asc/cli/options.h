// options.h: one option table per tool, from which its parser, its --help text and the docs'
// option lists all come (docs/options.md, `<tool> --options_markdown`).
//
// A row names the option's spellings (the real tool's first), its kind, its default, its help,
// and whether asc-tools implements it; a typed member of the tool's option struct receives the
// value, so code reads `o.loop`, never a name in a string, and a misspelt option fails to
// compile. The table is the only place a default lives: the parser stores every default before
// the command line's values.
//
//   OptionTable<Options> t("msame", Syntax::Getopt);
//   t.text("--model", &Options::model, "", "MODEL", "offline model (.om) or .onnx");
//   t.integer("--loop", &Options::loop, "1", 1, INT_MAX, "N", "runs per input");
//   t.refused("--profiler", "false", "use msprof");
//   Result<Options> o = t.parse(argc, argv);
//
// Value syntax, checked once for every tool: a whole number within the row's range (E10001,
// saying the range), a number, true/false (E10005), one of a list (E10001 naming them), text
// that is not empty (E10004). A real option asc-tools does not implement is accepted by the
// parser with its default value and refused with E10055 otherwise, never silently ignored; one
// that has no effect on a CPU says so in --help.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "asc/asc.h"
#include "asc/support/status.h"

namespace asc::cli {

/// How the real tool reads its command line; the parser follows it.
enum class Syntax : uint8_t {
  Gflags,    // atc: --name=value or --name value; a flag alone; --h and -h ask for help
  Getopt,    // msame: --name value or --name=value
  Argparse,  // msaccucmp, msopgen: -x V, -xyz V (multi-letter short spellings), --long V, --x=V
  Msprof,    // --name=value, --name value for a value; a switch alone means "on"; the first word
             // not starting with "--" (or the word after "--") begins the command to profile
};

/// What a value must be.
enum class Kind : uint8_t { Text, Int, Real, Bool, Choice, Flag };

/// Whether asc-tools implements the option.
enum class Support : uint8_t {
  Yes,       // implemented
  NoEffect,  // accepted and checked; steers NPU machinery, so nothing changes on the CPU
  Refused,   // a real option asc-tools lacks: E10055 unless given its default value
};

/// The value of one option, checked against its row.
struct OptionValue {
  std::string text;
  int64_t integer = 0;
  double real = 0;
  bool boolean = false;
};

/// What every tool's option struct derives from: which options the command line gave, and
/// their text as typed.
class Given {
 public:
  /// Whether the command line set this member: `o.given(o.framework)`.
  template <typename F>
  bool given(const F& member) const {
    return fields_.count(offsetOf(&member)) != 0;
  }
  /// Every option given, canonical name (without dashes) -> value as typed.
  const std::map<std::string, std::string>& givenValues() const { return values_; }

  // For the parser.
  void markGiven(const std::string& name, const std::string& text, ptrdiff_t field) {
    values_[name] = text;
    if (field >= 0) fields_.insert(field);
  }
  ptrdiff_t offsetOf(const void* member) const {
    return static_cast<const char*>(member) - reinterpret_cast<const char*>(this);
  }

 private:
  std::set<ptrdiff_t> fields_;
  std::map<std::string, std::string> values_;
};

/// One row of a table, without the struct's type.
struct OptionRow {
  std::vector<std::string> spellings;  // with their dashes; the first is the canonical one
  Kind kind = Kind::Text;
  Support support = Support::Yes;
  std::string default_value;  // "" none (a member with no default keeps its initializer)
  std::string metavar;        // how --help names the value ("N", "DIR")
  std::string help;
  std::string choices;   // Choice: "a|b|c"
  std::string implicit;  // the value when given alone (Syntax::Msprof switches: "on")
  int64_t min = INT64_MIN, max = INT64_MAX;    // Int
  double real_min = -1e308, real_max = 1e308;  // Real
  std::string accepted;      // what the value may be, in error messages ("from 1 to 100")
  bool allow_empty = false;  // Text: an empty value is a value
  ptrdiff_t field = -1;      // the member's offset from the Given base (-1: no member)
  std::function<void(void*, const OptionValue&)> store;  // null: no member

  /// The name without dashes ("model" for "--model").
  ASC_API std::string name() const;
};

/// The table and parser without the struct's type (OptionTable<T> below is the typed face).
class ASC_API OptionParser {
 public:
  OptionParser(std::string tool, Syntax syntax) : tool_(std::move(tool)), syntax_(syntax) {}
  OptionRow& add(OptionRow row);
  /// Words after the options (Syntax::Msprof: the command) go to this member; without one a
  /// positional word is an error.
  void setRest(std::function<void(void*, std::vector<std::string>)> rest) {
    rest_ = std::move(rest);
  }

  /// Stores every default, then every option given. `object` is the struct, `given` its base.
  Status parse(int argc, const char* const* argv, void* object, Given* given) const;
  /// The option lines of --help: spellings and value, help, default, support.
  std::string help() const;
  /// A Markdown table of the options (docs/options.md).
  std::string markdown() const;
  const std::vector<OptionRow>& rows() const { return rows_; }
  const std::string& tool() const { return tool_; }

 private:
  const OptionRow* find(const std::string& spelling) const;
  Status checkValue(const OptionRow& row, const std::string& spelling, const std::string& text,
                    OptionValue* value) const;

  std::string tool_;
  Syntax syntax_;
  std::vector<OptionRow> rows_;
  std::function<void(void*, std::vector<std::string>)> rest_;
};

/// A tool's table, storing into the members of T (which derives from Given).
template <typename T>
class OptionTable {
  static_assert(std::is_base_of<Given, T>::value, "an option struct derives from cli::Given");

 public:
  OptionTable(std::string tool, Syntax syntax) : core_(std::move(tool), syntax) {}

  /// Text; "" accepted only with allowEmpty().
  OptionRow& text(const char* spellings, std::string T::*m, const char* def, const char* metavar,
                  const char* help) {
    return add(spellings, Kind::Text, m, def, metavar, help,
               [m](void* o, const OptionValue& v) { static_cast<T*>(o)->*m = v.text; });
  }
  /// One of `choices` ("a|b|c"), as text.
  OptionRow& choice(const char* spellings, std::string T::*m, const char* choices, const char* def,
                    const char* help) {
    OptionRow& r = add(spellings, Kind::Choice, m, def, "", help,
                       [m](void* o, const OptionValue& v) { static_cast<T*>(o)->*m = v.text; });
    r.choices = choices;
    return r;
  }
  /// A whole number in [min, max]; `accepted` words the range in errors (else "from min to max").
  template <typename I>
  OptionRow& integer(const char* spellings, I T::*m, const char* def, int64_t min, int64_t max,
                     const char* metavar, const char* help, const char* accepted = "") {
    static_assert(std::is_integral<I>::value, "an integer member");
    OptionRow& r = add(
        spellings, Kind::Int, m, def, metavar, help,
        [m](void* o, const OptionValue& v) { static_cast<T*>(o)->*m = static_cast<I>(v.integer); });
    r.min = min;
    r.max = max;
    r.accepted = accepted;
    return r;
  }
  /// A number in [min, max], into a double or a std::optional<double>.
  template <typename D>
  OptionRow& real(const char* spellings, D T::*m, const char* def, double min, double max,
                  const char* metavar, const char* help, const char* accepted) {
    OptionRow& r = add(spellings, Kind::Real, m, def, metavar, help,
                       [m](void* o, const OptionValue& v) { static_cast<T*>(o)->*m = v.real; });
    r.real_min = min;
    r.real_max = max;
    r.accepted = accepted;
    return r;
  }
  /// true or false.
  OptionRow& boolean(const char* spellings, bool T::*m, const char* def, const char* help) {
    return add(spellings, Kind::Bool, m, def, "", help,
               [m](void* o, const OptionValue& v) { static_cast<T*>(o)->*m = v.boolean; });
  }
  /// No value: set when given.
  OptionRow& flag(const char* spellings, bool T::*m, const char* help) {
    return add(spellings, Kind::Flag, m, "", "", help,
               [m](void* o, const OptionValue&) { static_cast<T*>(o)->*m = true; });
  }
  /// A real option asc-tools does not implement: E10055 unless given `def`.
  OptionRow& refused(const char* spellings, Kind kind, const char* def, const char* help) {
    OptionRow r = row(spellings, kind, def, "", help);
    r.support = Support::Refused;
    return core_.add(std::move(r));
  }
  /// A real option that steers NPU machinery: checked, recorded in the givenValues(), no effect.
  OptionRow& noEffect(const char* spellings, Kind kind, const char* def, const char* help) {
    OptionRow r = row(spellings, kind, def, "", help);
    r.support = Support::NoEffect;
    return core_.add(std::move(r));
  }
  /// The words after the options.
  void rest(std::vector<std::string> T::*m) {
    core_.setRest([m](void* o, std::vector<std::string> words) {
      static_cast<T*>(o)->*m = std::move(words);
    });
  }

  Result<T> parse(int argc, const char* const* argv) const {
    T o;
    ASC_RETURN_IF_ERROR(core_.parse(argc, argv, &o, static_cast<Given*>(&o)));
    return o;
  }
  std::string help() const { return core_.help(); }
  std::string markdown() const { return core_.markdown(); }
  const OptionParser& core() const { return core_; }

 private:
  static OptionRow row(const char* spellings, Kind kind, const char* def, const char* metavar,
                       const char* help);
  template <typename M>
  OptionRow& add(const char* spellings, Kind kind, M T::*m, const char* def, const char* metavar,
                 const char* help, std::function<void(void*, const OptionValue&)> store) {
    OptionRow r = row(spellings, kind, def, metavar, help);
    static const T probe{};
    r.field = static_cast<const Given&>(probe).offsetOf(&(probe.*m));
    r.store = std::move(store);
    return core_.add(std::move(r));
  }

  OptionParser core_;
};

/// Splits "--model -m" into its spellings.
ASC_API std::vector<std::string> splitSpellings(const char* spellings);

template <typename T>
OptionRow OptionTable<T>::row(const char* spellings, Kind kind, const char* def,
                              const char* metavar, const char* help) {
  OptionRow r;
  r.spellings = splitSpellings(spellings);
  r.kind = kind;
  r.default_value = def;
  r.metavar = metavar;
  r.help = help;
  return r;
}

}  // namespace asc::cli
