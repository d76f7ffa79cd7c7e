"""The README and docs/: short README with pictures first, every link inside the repository and resolving."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK_RE = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def _pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "RELIABILITY.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_readme_is_short_opens_on_the_two_commands_and_shows_three_screenshots() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    first_section = text.split("\n## ", 2)[1]
    assert first_section.startswith("Two commands") and "make demo" in first_section and "make test" in first_section
    assert len(re.findall(r"!\[[^\]]*\]\(screenshots/[\w.-]+\.svg\)", text)) >= 3


def test_every_link_stays_in_the_repository_and_resolves() -> None:
    problems = []
    for page in _pages():
        for match in LINK_RE.finditer(page.read_text(encoding="utf-8")):
            target = match.group(1)
            if "://" in target or target.startswith("mailto:"):
                problems.append(f"{page.name}: leaves the repository: {target}")
            elif not (page.parent / target).resolve().exists():
                problems.append(f"{page.name}: broken: {target}")
    assert not problems


def test_every_docs_page_is_listed_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [page.name for page in (ROOT / "docs").glob("*.md") if f"docs/{page.name}" not in readme] == []


def test_the_health_synopsis_names_every_option() -> None:
    """docs/COMMANDS.md's synopsis of `svctui health` (its line and the indented ones after it) lists each option,
    by one of its names (`-o` for `--format`)."""
    import click

    from svctui.commands.health import health

    lines = (ROOT / "docs" / "COMMANDS.md").read_text(encoding="utf-8").splitlines()
    start = next(number for number, line in enumerate(lines) if line.startswith("svctui health ["))
    rest = [line for line in lines[start + 1 : start + 4] if line.startswith("              ")]
    synopsis = " ".join([lines[start], *rest])

    def named(option: click.Option) -> bool:
        return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", synopsis) for name in option.opts)

    options = [param for param in health.params if isinstance(param, click.Option)]
    assert [option.opts[0] for option in options if not named(option)] == []
