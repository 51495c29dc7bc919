# The README's Layout section matches the tree: every top-level folder of the repository and
# every libasccore module is described there, and every folder it describes exists.
git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 || skip "needs the git checkout (git ls-files lists the tree)"
awk '/^## Layout/ { on = 1; next } on && /^## / { exit } on' "$ROOT/README.md" > layout.txt
CHECKS=$((CHECKS + 1))
[ -s layout.txt ] || fail "README.md has no Layout section"
for dir in $(git -C "$ROOT" ls-files | grep / | cut -d/ -f1 | sort -u); do
  CHECKS=$((CHECKS + 1))
  grep -qE "(^|[ ,])$dir/" layout.txt || fail "README's Layout does not describe $dir/"
done
for dir in $(grep -oE '^[.a-z][a-z_]*/' layout.txt; grep -oE '^[a-z]+/, ([a-z]+/(, )?)+' layout.txt | grep -oE '[a-z]+/'); do
  CHECKS=$((CHECKS + 1))
  [ -d "$ROOT/$dir" ] || fail "README's Layout describes $dir, which is not in the tree"
done
# The library paragraph names every module (libasccore/src/<module>).
awk '/^libasccore\// { on = 1 } on && /^[a-z.]+\// && !/^libasccore\// { exit } on' layout.txt > library.txt
for module in $(ls "$ROOT/libasccore/src"); do
  [ -d "$ROOT/libasccore/src/$module" ] || continue
  CHECKS=$((CHECKS + 1))
  grep -qw "$module" library.txt || fail "README's Layout does not name libasccore module $module"
done
