"""`svctui health --since` and `--stale-after` take a span in either form (issue 28, item 12: `--since` wanted
`-24h` and `--stale-after` wanted `24h`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import click
import pytest

from svctui.commands.health import _duration, _window

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", ["-24h", "24h", " 24h ", "1d", "-1d"])
def test_since_takes_a_span_with_or_without_its_minus(text: str) -> None:
    assert _window(text, NOW) == timedelta(hours=24)


@pytest.mark.parametrize("text", ["24h", "-24h", "+24h", "1d"])
def test_stale_after_takes_a_span_with_or_without_a_sign(text: str) -> None:
    assert _duration(text, "--stale-after") == timedelta(hours=24)


def test_a_span_ahead_is_still_not_in_the_past_and_junk_is_refused() -> None:
    with pytest.raises(click.exceptions.Exit):
        _window("+1d", NOW)
    with pytest.raises(click.exceptions.Exit):
        _duration("often", "--stale-after")
    with pytest.raises(click.exceptions.Exit):
        _duration("0h", "--stale-after")  # every client stale: refused (newcomer walk)
    assert _window("2026-12-03T12:00:00Z", NOW) == timedelta(hours=24)
