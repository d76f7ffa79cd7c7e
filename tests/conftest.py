"""Shared fixtures: every test runs with its own config, data and state directories and no SVCTUI_* leakage."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point config/data/state at fresh temp dirs and drop any SVCTUI_* variable from the environment."""
    for name in list(os.environ):
        if name.startswith("SVCTUI_"):
            monkeypatch.delenv(name, raising=False)
    root = tmp_path_factory.mktemp("svctui-home")
    for kind in ("config", "data", "state"):
        path = root / kind
        monkeypatch.setenv(f"SVCTUI_{kind.upper()}_DIR", str(path))
    yield root
