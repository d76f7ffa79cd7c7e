"""Pure parts of the cleanup run screen: the dashboard's concurrency is the command line's, progress and counts text."""

from __future__ import annotations

from collections import Counter

import click
from hypothesis import given
from hypothesis import strategies as st

from svctui.commands.delete import delete_command
from svctui.commands.resume import resume_command
from svctui.ops.selector_delete import DeleteResult, Outcome
from svctui.tui.screens.selectors.messages import ResultBatcher
from svctui.tui.screens.selectors.run import counts_text, progress_text
from svctui.tui.screens.selectors.session import DEFAULT_CONCURRENCY


def concurrency_default(command: click.Command) -> object:
    """The default of a command's --concurrency option."""
    return next(param.default for param in command.params if param.name == "concurrency")


def test_the_dashboard_deletes_with_the_command_lines_default_concurrency() -> None:
    assert concurrency_default(delete_command) == DEFAULT_CONCURRENCY
    assert concurrency_default(resume_command) == DEFAULT_CONCURRENCY


def test_progress_shows_rate_and_eta_once_a_second_passed() -> None:
    assert progress_text(0, 300, 0.0) == "0/300"
    assert progress_text(10, 300, 0.5) == "10/300"
    assert progress_text(110, 300, 2.0) == "110/300 · 55.0/s · ETA 3 s"
    assert progress_text(300, 300, 5.5) == "300/300 · 54.5/s · ETA 0 s"


def test_no_eta_once_the_run_ended() -> None:
    """Newcomer audit: after `esc` the line read `55/392 · 45.0/s · ETA 7 s — 55 deleted, 337 skipped`."""
    assert progress_text(55, 392, 1.22, ended=True) == "55/392 · 45.1/s"
    assert progress_text(300, 300, 5.5, ended=True) == "300/300 · 54.5/s"


@given(st.integers(1, 10_000), st.integers(0, 10_000), st.floats(1.0, 1e5))
def test_eta_is_never_negative(done: int, extra: int, elapsed: float) -> None:
    assert "ETA -" not in progress_text(done, done + extra, elapsed)


def test_counts_follow_the_outcome_order() -> None:
    counts = Counter({"skipped": 2, "deleted": 3, "no answer": 1})
    assert counts_text(counts) == "3 deleted, 1 no answer, 2 skipped"
    assert counts_text(Counter()) == "nothing yet"


class Recorder:
    """Stands in for the screen a batcher posts to: keeps the messages."""

    def __init__(self) -> None:
        self.posted: list[object] = []

    def post_message(self, message: object) -> bool:
        """Keep the message."""
        self.posted.append(message)
        return True


@given(st.lists(st.booleans(), max_size=60))
def test_batcher_posts_once_per_wait_and_loses_nothing(takes: list[bool]) -> None:
    """Any interleaving of results and takes: one message per batch waiting, every result taken once, in order."""
    owner = Recorder()
    batcher: ResultBatcher[DeleteResult] = ResultBatcher(owner)  # type: ignore[arg-type]
    taken: list[int] = []
    batches = 0  # takes that got results: each answers one message
    for number, take in enumerate(takes):
        if take:
            batch = [result.selector_id for result in batcher.take()]
            batches += bool(batch)
            taken.extend(batch)
        else:
            batcher.add(DeleteResult(number, Outcome.DELETED))
            assert len(owner.posted) == batches + 1, "one message for the results waiting, none for each result"
    batch = [result.selector_id for result in batcher.take()]
    batches += bool(batch)
    taken.extend(batch)
    assert taken == [number for number, take in enumerate(takes) if not take]
    assert len(owner.posted) == batches
