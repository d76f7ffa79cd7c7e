"""The package's metadata: `svctui --version`, the licence text, the tested ranges and the lock that pins them."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import svctui

ROOT = Path(__file__).resolve().parents[2]
# md5 of the Apache License 2.0 as apache.org publishes it (LICENSE-2.0.txt)
APACHE_2_MD5 = "3b83ef96387f14655fc854ddc3c6bd57"


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _requirements() -> list[Requirement]:
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    extras = project["optional-dependencies"]
    return [Requirement(line) for line in [*project["dependencies"], *extras["dev"], *extras["keyring"]]]


def _locked() -> dict[str, str]:
    """Name -> pinned version of every package in requirements-dev.lock."""
    pins: dict[str, str] = {}
    for line in (ROOT / "requirements-dev.lock").read_text(encoding="utf-8").splitlines():
        if "==" in line and not line.startswith((" ", "#")):
            name, _, rest = line.partition("==")
            pins[canonicalize_name(name)] = rest.split()[0].rstrip("\\").strip()
    return pins


def test_version_option_prints_the_installed_metadata_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "svctui", "--version"], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith(version("svctui"))
    assert version("svctui") == svctui.__version__


def test_license_is_the_apache_2_text_pyproject_names() -> None:
    text = (ROOT / "LICENSE").read_bytes()
    assert hashlib.md5(text, usedforsecurity=False).hexdigest() == APACHE_2_MD5
    assert _pyproject()["project"]["license"] == "Apache-2.0"  # type: ignore[index]


def test_every_dependency_has_a_tested_upper_bound() -> None:
    unbounded = [str(req) for req in _requirements() if not any(spec.operator in ("<", "==") for spec in req.specifier)]
    assert unbounded == [], "give each dependency the range it is tested with (>=low,<next minor)"


def test_textual_is_pinned_to_the_tested_minor_version() -> None:
    textual = next(req for req in _requirements() if req.name == "textual")
    assert "8.2.8" in textual.specifier and "8.3.0" not in textual.specifier


def test_the_lock_pins_every_dependency_within_its_range() -> None:
    locked = _locked()
    problems = []
    for req in _requirements():
        pinned = locked.get(canonicalize_name(req.name))
        if pinned is None:
            problems.append(f"{req.name}: not in requirements-dev.lock")
        elif pinned not in req.specifier:
            problems.append(f"{req.name}: lock has {pinned}, pyproject asks {req.specifier}")
    assert problems == [], "run `make lock` after changing pyproject.toml"


def test_the_environment_is_the_locked_one() -> None:
    """The venv `make` installs holds exactly the locked versions (a test run on another set is not the tested one)."""
    differs = {}
    for name, pinned in _locked().items():
        if name in ("setuptools", "pip"):
            continue
        installed = version(name)
        if installed != pinned:
            differs[name] = (installed, pinned)
    assert differs == {}, "installed versions differ from requirements-dev.lock: run `make venv`"


def test_metadata_carries_classifiers_keywords_and_https_urls() -> None:
    from importlib.metadata import metadata

    meta = metadata("svctui")
    urls = meta.get_all("Project-URL") or []
    assert urls and all(url.split(", ", 1)[1].startswith("https://") for url in urls)
    assert "Topic :: Security" in (meta.get_all("Classifier") or [])
    assert "bloodhound" in ",".join(meta.get_all("Keywords") or [])
