"""The process's local time zone, set for a test and put back: code that must work in UTC is tried elsewhere."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

FAR_EAST = "JST-9"  # nine hours ahead of UTC, no summer time (POSIX TZ syntax: needs no zone database)


@contextmanager
def local_zone(zone: str = FAR_EAST) -> Iterator[None]:
    """Run the block with TZ=`zone` (time.tzset), then the zone there was before."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TZ", zone)
        time.tzset()
        try:
            yield
        finally:
            patch.undo()
            time.tzset()
