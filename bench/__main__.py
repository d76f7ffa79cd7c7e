"""`python -m bench` (make bench): run every benchmark, print ratios, and write BENCHMARKS.md."""

from __future__ import annotations

import importlib
import os
import platform
import sys
import tempfile
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from bench.harness import Comparison, show
from bench.support import isolated_process

MODULES = (
    "bench.bench_parsing",
    "bench.bench_signing",
    "bench.bench_startup",
    "bench.bench_first_row",
    "bench.bench_table",
    "bench.bench_stall",
    "bench.bench_log",
    "bench.bench_demo",
    "bench.bench_cli",
    "bench.bench_throughput",
    "bench.bench_delete",
    "bench.bench_clients",
    "bench.bench_fleet",  # fleet-1000: generates its 1,000-client database once (about a minute), then reuses it
    "bench.bench_rss",  # the longest: 100 pages of 1,000 tasks through the dashboard
)


def _collect(selected: list[str]) -> list[Comparison]:
    results: list[Comparison] = []
    for name in MODULES:
        if selected and not any(s in name or _row_module(s) in name for s in selected):
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        print(f"running {name} ...", file=sys.stderr, flush=True)
        for result in module.run():
            subject, baseline = show(result.subject), show(result.baseline)
            print(f"  {result.name}: x{result.ratio:.2f}  ({subject} vs {baseline})")
            results.append(result)
    return results


def _row_module(row: str) -> str:
    """The module of a row named on the command line: `fleet-1000` is in bench.bench_fleet."""
    return "bench_" + row.split("-")[0]


def _markdown(results: list[Comparison], load: float) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench`. Every row times a subject and a baseline **in the same run on the same machine**;",
        "the ratio (subject median ÷ baseline median) is what to compare across runs, not the absolute times.",
        "What each row measures, the budgets and the code each one needs: docs/PERFORMANCE.md.",
        "",
        f"- Run: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}, {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} cores, textual {version('textual')}, "
        f"pydantic {version('pydantic')}, httpx {version('httpx')}; 1-minute load average at start "
        f"{load:.1f} (other work on the machine widens the spread; the ratios hold up better)",
        "",
        "| benchmark | what | baseline | subject | baseline median | subject median | ratio |",
        "|---|---|---|---|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.name} | {r.what} | {r.baseline.label} | {r.subject.label} | {show(r.baseline)} "
            f"| {show(r.subject)} | x{r.ratio:.2f} |"
        )
    notes = [f"- **{r.name}**: {r.note}" for r in results if r.note]
    if notes:
        lines += ["", "## Notes", "", *notes]
    return "\n".join(lines) + "\n"


def byte_compile() -> None:
    """Write svctui's .pyc files first, as installing it does: the fresh processes timed here (first row, CLI runs)
    would otherwise compile every module from source on every start wherever PYTHONDONTWRITEBYTECODE is set (an
    editable install in such an environment never caches them; a pip-installed svctui always has them)."""
    import compileall

    import svctui

    compileall.compile_dir(str(Path(svctui.__file__).parent), quiet=1)


def main() -> None:
    """Run the selected benchmarks (all by default); a full run rewrites BENCHMARKS.md with the current table."""
    selected = sys.argv[1:]
    load = os.getloadavg()[0]
    byte_compile()
    with tempfile.TemporaryDirectory(prefix="svctui-bench-") as root, isolated_process(Path(root)):
        results = _collect(selected)
    if not selected:
        Path("BENCHMARKS.md").write_text(_markdown(results, load), encoding="utf-8")
        print("wrote BENCHMARKS.md", file=sys.stderr)


if __name__ == "__main__":
    main()
