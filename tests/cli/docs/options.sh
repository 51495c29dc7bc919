# Each tool's options are declared once, in its option table: --help lists every row, the
# table in docs/options.md is `<tool> --options_markdown` (scripts/gen_docs.sh), and a real
# option asc-tools does not implement is refused with E10055 naming it unless given its default.
for tool in atc msame mscompare msprof opgen; do
  run "$tool" --options_markdown
  expect_exit 0
  expect_stdout_contains "| option | default | what it does | asc-tools |"
  grep -v '^$' "$STDOUT" > "listed_$tool.md"
  # The tool's section of docs/options.md: from "## tool" to the next "## ".
  awk -v tool="## $tool" '$0 == tool { on = 1; getline; next } on && /^## / { exit } on' \
    "$ROOT/docs/options.md" | grep -v '^$' > "documented_$tool.md"
  CHECKS=$((CHECKS + 1))
  cmp -s "listed_$tool.md" "documented_$tool.md" ||
    fail "docs/options.md's $tool section is not $tool --options_markdown (run scripts/gen_docs.sh): $(diff "listed_$tool.md" "documented_$tool.md" | head -5)"
  # Every option of the table appears in --help.
  run "$tool" --help
  expect_exit 0
  cp "$STDOUT" "help_$tool.txt"
  for opt in $(grep -o '^| `[^`=| ]*' "listed_$tool.md" | sed 's/^| `//' | grep -- '^-' | sort -u); do
    CHECKS=$((CHECKS + 1))
    grep -q -- "$opt" "help_$tool.txt" || fail "$tool --help does not list $opt"
  done
done
# Refused rows: the default passes the parser, any other value is E10055 naming the option.
run atc --mode=6 --om=missing.om --deterministic=1
expect_exit 255
expect_stdout_contains "E10055"
expect_stdout_contains "--deterministic=1"
run msprof --query=on
expect_exit 2
expect_stderr_contains "E10055"
# Typed values are checked once, the same way in every tool.
run msame --model m.om --warmup=-1
expect_exit 1
expect_stdout_contains "E10001: Value -1 for parameter --warmup is invalid"
run mscompare -m a -g b --threads=0
expect_exit 2
expect_stderr_contains "E10001: Value 0 for parameter --threads is invalid"
# Two spellings of one option are refused rather than one silently winning.
run mscompare -m a --comparison b -g c
expect_exit 2
expect_stderr_contains "Value b for parameter --comparison is invalid. Reason: -m was also given"
