#!/usr/bin/env python3
"""gen_counts.py: the counts the README states, taken from their sources, never typed by hand.

Each count in README.md stands between markers, <!--n:NAME-->value<!--/n-->, and is made here:
  bad_cases      lines of tests/bad/cases.tsv (the known-bad corpus)
  ops, readable  `atc --list_ops` rows, and those readable from a model (not fusion-only)
  conf_pass, conf_tensor_only, conf_all
                 docs/conformance.md's headline (written by scripts/conformance.sh)
Usage: gen_counts.py ATC [--check]. --check changes nothing and exits 1 naming every count that
differs (tests/cli/docs/counts.sh); without it README.md is rewritten.
"""
import re
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent


def counts(atc):
    out = {}
    tsv = (root / "tests/bad/cases.tsv").read_text().splitlines()
    out["bad_cases"] = sum(1 for l in tsv if l and not l.startswith("#"))
    rows = subprocess.run([atc, "--list_ops"], check=True, capture_output=True,
                          text=True).stdout.splitlines()[1:]
    rows = [r for r in rows if r.strip()]
    out["ops"] = len(rows)
    out["readable"] = sum(1 for r in rows if r.split()[1] != "fused")
    conf = (root / "docs/conformance.md").read_text()
    m = re.search(r"\| tensor-only \| (\d+) \| \*\*(\d+) ", conf)
    a = re.search(r"\| all node tests \| (\d+) \|", conf)
    if not m or not a:
        sys.exit("gen_counts.py: docs/conformance.md has no headline table")
    out["conf_tensor_only"], out["conf_pass"] = int(m.group(1)), int(m.group(2))
    out["conf_all"] = int(a.group(1))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    want = counts(sys.argv[1])
    check = "--check" in sys.argv[2:]
    readme = root / "README.md"
    text = readme.read_text()
    wrong, seen = [], set()

    def put(m):
        name, value = m.group(1), m.group(2)
        if name not in want:
            sys.exit(f"gen_counts.py: README.md has a count '{name}' this script does not make")
        seen.add(name)
        if value != str(want[name]):
            wrong.append(f"{name}: README says {value}, the source says {want[name]}")
        return f"<!--n:{name}-->{want[name]}<!--/n-->"

    new = re.sub(r"<!--n:([a-z_]+)-->([^<]*)<!--/n-->", put, text)
    if check:
        if wrong:
            print("README.md counts differ from their sources (run scripts/gen_docs.sh):")
            print("\n".join("  " + w for w in wrong))
            sys.exit(1)
        print(f"README.md: {len(seen)} counts match their sources ({', '.join(sorted(seen))})")
        return
    readme.write_text(new)
    print(f"README.md: {len(seen)} counts written, {len(wrong)} changed")


main()
