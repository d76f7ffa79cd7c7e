#!/usr/bin/env python3
"""Per-module mutation scores from mutmut's results in mutants/ (`make mutate` prints them after `mutmut results`).

Usage: mutation_scores.py [--survivors]   (run from the repository root, after `mutmut run`)

A module's score is (killed + timeout) / (killed + timeout + survived + no tests): a mutant no selected test
reaches ("no tests") is one no test kills. Mutants not checked yet are left out. With --survivors, the
surviving mutants' names follow the table (`mutmut show NAME` prints one's diff).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

KILLED = {1, 3, 37}  # a failing test, pytest's internal error, the type checker
SURVIVED = {0}
NO_TESTS = {5, 33}
TIMEOUT = {36, 24, -24, 152, 255}


def module_of(meta: Path) -> str:
    """`svctui/ops/outcomes.py` for `mutants/svctui/ops/outcomes.py.meta`."""
    return str(meta.relative_to("mutants")).removesuffix(".meta")


def main(argv: list[str]) -> int:
    """Print the table (and the survivors with --survivors); 1 when there are no results."""
    metas = sorted(Path("mutants").rglob("*.py.meta"))
    if not metas:
        print("no results in mutants/: run `make mutate` first", file=sys.stderr)
        return 1
    survivors: list[str] = []
    print("| module | mutants | killed | survived | timeout | no tests | not checked | score |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for meta in metas:
        codes: dict[str, int | None] = json.loads(meta.read_text()).get("exit_code_by_key", {})
        if not codes:
            continue
        tally = Counter(
            "killed" if code in KILLED
            else "survived" if code in SURVIVED
            else "timeout" if code in TIMEOUT
            else "no tests" if code in NO_TESTS
            else "not checked" if code is None
            else "other"
            for code in codes.values()
        )  # fmt: skip
        survivors += sorted(name for name, code in codes.items() if code in SURVIVED)
        judged = tally["killed"] + tally["survived"] + tally["timeout"] + tally["no tests"]
        score = f"{100 * (tally['killed'] + tally['timeout']) / judged:.0f} %" if judged else "-"
        print(
            f"| {module_of(meta)} | {len(codes)} | {tally['killed']} | {tally['survived']} | {tally['timeout']} | "
            f"{tally['no tests']} | {tally['not checked']} | {score} |"
        )
    if "--survivors" in argv:
        print()
        print("\n".join(survivors))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
