"""httpcore's `import sniffio` on every lock it makes does not search sys.path once svctui's start-up ran."""

from __future__ import annotations

import asyncio
import importlib.machinery
from typing import Any

import pytest
from httpcore._synchronization import current_async_library

from svctui.startup import skip_unused_imports

skip_unused_imports()  # as cli.main does first: a missing sniffio recorded as absent


def test_the_async_library_is_found_without_searching_for_sniffio(monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[str] = []
    original = importlib.machinery.PathFinder.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        searched.append(name)
        return original(name, *args, **kwargs)

    monkeypatch.setattr(importlib.machinery.PathFinder, "find_spec", find_spec)

    async def which() -> str:
        return current_async_library()

    assert asyncio.run(which()) == "asyncio"
    assert "sniffio" not in searched, "a failed import is not remembered: each lock searched every sys.path entry"
