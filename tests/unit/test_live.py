"""Live refresh's pure parts: the age label, the status line pieces, new not-OK runs, the settings and the option."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from svctui.api.models import CompletedTask, TaskStatus
from svctui.cli import cli
from svctui.store.errors import StoreError
from svctui.store.settings import Settings, load_settings
from svctui.tui.live import Freshness, NotOkWatch, age_label, failure_message


def task(task_id: int, status: TaskStatus, message: str = "") -> CompletedTask:
    return CompletedTask.model_validate(
        {"id": task_id, "client_id": "c1", "status": int(status), "status_message": message}
    )


@pytest.mark.parametrize(
    ("seconds", "label"), [(0, "0 s"), (12.9, "12 s"), (59, "59 s"), (60, "1 min"), (3599, "59 min"), (7300, "2 h")]
)
def test_age_label(seconds: float, label: str) -> None:
    assert age_label(seconds) == label


def test_status_line_pieces_say_the_age_only_when_live_or_stale() -> None:
    fresh = Freshness(updated_at=100.0)
    assert fresh.stale_parts() == [] and fresh.age_parts(112.0, 0) == []
    assert fresh.age_parts(112.0, 30) == ["updated 12 s ago", "live every 30 s"]
    stale = Freshness(updated_at=100.0, stale="The server answered 502")
    assert stale.stale_parts() == ["stale: The server answered 502", "r to retry"]
    assert stale.age_parts(220.0, 0) == ["updated 2 min ago"]


def test_a_not_ok_run_is_new_once_and_the_first_look_is_the_baseline() -> None:
    watch = NotOkWatch()
    old = [task(1, TaskStatus.COMPLETE), task(2, TaskStatus.FAILED)]
    assert watch.new_failures("c1", old) == [], "the first look is the baseline"
    running = task(3, TaskStatus.RUNNING)
    assert watch.new_failures("c1", [*old, running]) == []
    turned = task(3, TaskStatus.TIMED_OUT)
    partial = task(4, TaskStatus.PARTIALLY_COMPLETE)
    assert [t.id for t in watch.new_failures("c1", [*old, turned, partial])] == [3, 4]
    assert watch.new_failures("c1", [*old, turned, partial]) == [], "once"
    assert watch.new_failures("c2", [task(9, TaskStatus.FAILED)], announce=False) == []
    assert watch.new_failures("c2", [task(9, TaskStatus.FAILED)]) == [], "seen without announcing: not new later"
    watch.clear()
    assert watch.new_failures("c1", [task(5, TaskStatus.FAILED)]) == [], "another profile starts a new baseline"


def test_failure_message_names_the_client_the_runs_and_their_messages() -> None:
    one = failure_message("DC01", [task(812, TaskStatus.FAILED, "ldap bind failed")])
    assert one == "New not-OK run of DC01:\ntask 812 Failed — ldap bind failed"
    many = failure_message("DC01", [task(n, TaskStatus.TIMED_OUT) for n in range(5)])
    assert many.startswith("5 new not-OK runs of DC01:") and many.endswith("\n… and 2 more")


def test_settings_take_the_interval_and_the_bell_and_refuse_a_negative_interval(tmp_path: Path) -> None:
    assert (Settings().refresh_seconds, Settings().bell_on_failure) == (0, False)
    path = tmp_path / "settings.toml"
    path.write_text("refresh_seconds = 15\nbell_on_failure = true\n", encoding="utf-8")
    assert (load_settings(path).refresh_seconds, load_settings(path).bell_on_failure) == (15, True)
    path.write_text("refresh_seconds = -1\n", encoding="utf-8")
    with pytest.raises(StoreError, match="refresh_seconds"):
        load_settings(path)


@pytest.mark.parametrize("value", ["-5", "soon", "86401"])
def test_refresh_option_refuses_bad_input_before_anything_starts(value: str) -> None:
    result = CliRunner().invoke(cli, ["--refresh", value], obj={})
    assert result.exit_code == 2 and "--refresh" in result.output and "Traceback" not in result.output
