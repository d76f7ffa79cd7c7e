#!/usr/bin/env python3
"""Per-module mutation scores from mutmut's results in mutants/ (`make mutate` prints them after `mutmut results`).

Usage: mutation_scores.py [--survivors]   (run from the repository root, after `mutmut run`)

A module's score is (killed + timeout) / (killed + timeout + survived + no tests - equivalent): a mutant no
selected test reaches ("no tests") is one no test kills; a survivor listed in tests/tools/equivalent_mutants.txt
(with why it cannot change behaviour) is left out. Mutants not checked yet are left out too. With --survivors, the
surviving mutants that are not listed as equivalent follow the table (`mutmut show NAME` prints one's diff); a listed
mutant that no longer survives (killed, or its function changed and mutmut numbered it anew) is named as stale.
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
EQUIVALENT_LIST = Path(__file__).with_name("equivalent_mutants.txt")


def module_of(meta: Path) -> str:
    """`svctui/ops/outcomes.py` for `mutants/svctui/ops/outcomes.py.meta`."""
    return str(meta.relative_to("mutants")).removesuffix(".meta")


def equivalent_mutants(path: Path = EQUIVALENT_LIST) -> set[str]:
    """The mutant names listed as equivalent: the first word of each line that is not blank or a `#` comment."""
    if not path.exists():
        return set()
    names = (line.split("#", 1)[0].split() for line in path.read_text().splitlines())
    return {words[0] for words in names if words}


def main(argv: list[str]) -> int:
    """Print the table (and the survivors with --survivors); 1 when there are no results."""
    metas = sorted(Path("mutants").rglob("*.py.meta"))
    if not metas:
        print("no results in mutants/: run `make mutate` first", file=sys.stderr)
        return 1
    equivalent = equivalent_mutants()
    survivors: list[str] = []
    checked: set[str] = set()
    print("| module | mutants | killed | survived | equivalent | timeout | no tests | not checked | score |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for meta in metas:
        codes: dict[str, int | None] = json.loads(meta.read_text()).get("exit_code_by_key", {})
        if not codes:
            continue
        checked |= {name for name, code in codes.items() if code is not None}
        tally = Counter(
            "killed" if code in KILLED
            else ("equivalent" if name in equivalent else "survived") if code in SURVIVED
            else "timeout" if code in TIMEOUT
            else "no tests" if code in NO_TESTS
            else "not checked" if code is None
            else "other"
            for name, code in codes.items()
        )  # fmt: skip
        survivors += sorted(name for name, code in codes.items() if code in SURVIVED and name not in equivalent)
        judged = tally["killed"] + tally["survived"] + tally["timeout"] + tally["no tests"]
        score = f"{100 * (tally['killed'] + tally['timeout']) / judged:.0f} %" if judged else "-"
        print(
            f"| {module_of(meta)} | {len(codes)} | {tally['killed']} | {tally['survived']} | {tally['equivalent']} | "
            f"{tally['timeout']} | {tally['no tests']} | {tally['not checked']} | {score} |"
        )
    if "--survivors" in argv:
        print()
        print("\n".join(survivors))
        surviving = {name for meta in metas for name, code in _codes(meta).items() if code in SURVIVED}
        stale = sorted(name for name in equivalent & checked if name not in surviving)
        if stale:
            print("\nlisted as equivalent but not surviving (killed, or renumbered: check the list):")
            print("\n".join(stale))
    return 0


def _codes(meta: Path) -> dict[str, int | None]:
    codes: dict[str, int | None] = json.loads(meta.read_text()).get("exit_code_by_key", {})
    return codes


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
