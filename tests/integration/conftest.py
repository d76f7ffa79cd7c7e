"""Fixtures shared by the integration tests that script the server's answers (tests/support/recording_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.recording_server import RecordingServer


@pytest.fixture
def server() -> Iterator[RecordingServer]:
    """A RecordingServer on loopback for one test: it answers as told and records every request."""
    with RecordingServer() as running:
        yield running
