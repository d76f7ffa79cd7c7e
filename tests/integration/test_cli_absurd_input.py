"""Absurd input that once ended in a traceback (exit 1): endless or unreadable id files, a frozen clock that is no
time, an unusable data directory, a threshold of nan, a 70,000-character filter value, ids with U+001C or U+3000.
Each is exit 2 with a short message, before any request."""

from __future__ import annotations

from pathlib import Path

import pytest

from svctui.demo.server import DemoServer
from tests.integration.test_cli_input_fuzz import MESSAGE_MAX
from tests.support.cli import demo_env, invoke


@pytest.fixture
def session_env(demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> DemoServer:
    """The session's demo server as the environment-only profile (read-only use: deletes are dry runs)."""
    for name, value in demo_env(demo_server).items():
        monkeypatch.setenv(name, value)
    return demo_server


def refused(demo: DemoServer, args: list[str], message: str, env: dict[str, str] | None = None) -> str:
    """`args` exits 2 with `message` in a short stderr and no request reached the server; returns stderr."""
    sent = demo.request_count
    result = invoke(args, env=env)  # an exception escaping the command fails the test here
    assert result.exit_code == 2, (args[:5], result.exit_code, result.stderr[-300:])
    assert message in result.stderr, result.stderr[-300:]
    assert "Traceback" not in result.stderr and len(result.stderr) < MESSAGE_MAX, result.stderr[-300:]
    assert demo.request_count == sent
    return result.stderr


def test_an_endless_id_file_is_refused_at_a_size_cap(session_env: DemoServer) -> None:
    # read line by line, /dev/zero was one line that never ended: memory grew until the process was killed
    refused(session_env, ["selectors", "delete", "1", "--from-file", "/dev/zero", "--dry-run"], "longer than 4 MiB")


def test_an_id_file_that_cannot_be_read_is_refused(session_env: DemoServer) -> None:
    # opening /proc/self/mem works; reading it is an OSError (EIO)
    refused(session_env, ["selectors", "delete", "1", "--from-file", "/proc/self/mem", "--dry-run"], "cannot be read")


@pytest.mark.parametrize("frozen", ["banana", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59Z", "2026-13-01"])
@pytest.mark.parametrize("command", [["health"], ["events", "list"], ["selectors", "list", "1"]])
def test_a_frozen_clock_that_is_no_time_is_refused(session_env: DemoServer, frozen: str, command: list[str]) -> None:
    refused(session_env, command, "SVCTUI_FROZEN_NOW=", env={"SVCTUI_FROZEN_NOW": frozen})


@pytest.mark.parametrize("data_dir", ["/proc", "/dev/null/below"])
def test_an_unusable_data_directory_is_refused_by_the_demo_server(session_env: DemoServer, data_dir: str) -> None:
    stderr = refused(session_env, ["demo-server", "--port", "0"], "cannot prepare the demo database", {
        "SVCTUI_DATA_DIR": data_dir
    })  # fmt: skip
    assert "--db FILE" in stderr


@pytest.mark.parametrize("threshold", ["nan", "NaN", "inf", "-inf", "-0.1", "1e400", "0.5\x1c", "\uff10.\uff15"])
def test_a_threshold_that_is_no_number_between_0_and_1_is_refused_before_any_request(
    session_env: DemoServer, threshold: str
) -> None:
    refused(session_env, ["health", "--threshold", threshold], "--threshold")


@pytest.mark.parametrize("rate", ["nan", "2", "\uff10.1"])
def test_demo_server_rates_are_numbers_between_0_and_1(session_env: DemoServer, rate: str) -> None:
    refused(session_env, ["demo-server", "--port", "0", "--error-rate", rate], "--error-rate")
    refused(session_env, ["demo-server", "--port", "0", "--faults", "html", "--fault-rate", rate], "rate")
    refused(session_env, ["demo-server", "--port", "0", "--faults", f"html:{rate}"], "between 0 and 1")


def test_an_over_long_filter_value_is_refused_naming_the_column(session_env: DemoServer) -> None:
    # rrule ~eq takes any text: 70,000 characters once went to httpx, which raised InvalidURL (a traceback)
    stderr = refused(session_env, ["events", "list", "-f", "rrule=~eq:" + "a" * 70_000], "rrule ~eq: the value is")
    assert "70,000 characters long, over the 2,000" in stderr
    several = [arg for _ in range(5) for arg in ("-f", "rrule=~eq:" + "b" * 1_900)]
    refused(session_env, ["events", "list", *several], "the filters add up to a query of")


ODD_SPACES = ["5\x1c", "5\x1f", "5\u3000", "\u30005", "5\xa0", "5\u2028", "1\u30002"]


@pytest.mark.parametrize("text", ODD_SPACES)
def test_ids_and_numbers_take_ascii_digits_only(session_env: DemoServer, text: str, tmp_path: Path) -> None:
    # str.strip() and int() take U+001C-U+001F and U+3000 for spaces: `5\x1c` was selector 5
    refused(session_env, ["selectors", "delete", "1", text, "--dry-run"], "is not a selector id")
    refused(session_env, ["selectors", "delete", text, "5", "--dry-run"], "is not a tag id")
    refused(session_env, ["selectors", "list", text], "is not a tag id")
    refused(session_env, ["tasks", "log", text], "is not a task id")
    refused(session_env, ["events", "list", "--limit", text], "is not an integer (digits 0-9)")
    refused(session_env, ["--refresh", text, "tags", "list"], "is not an integer (digits 0-9)")
    refused(session_env, ["events", "list", "-f", f"id=eq:{text}"], "is not an integer")
    refused(session_env, ["selectors", "delete", "1", "5", "--dry-run", "--concurrency", text], "is not an integer")
    ids = tmp_path / "ids.txt"
    ids.write_text(f"4\n{text}\n", encoding="utf-8")
    refused(session_env, ["selectors", "delete", "1", "--from-file", str(ids), "--dry-run"], "line 2")


@pytest.mark.parametrize("text", ["\u00b2", "\u0663", "\uff15", "5\u00b9", "9" * 5000])
def test_digits_of_another_script_are_no_task_id(session_env: DemoServer, text: str) -> None:
    # `tasks log` took `٣` for run 3; `²` (a digit to str.isdigit, not to int) and 5,000 digits (past int()'s limit)
    # ended in a ValueError traceback
    refused(session_env, ["tasks", "log", text], "is not a task id")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["health", "--stale-after", "99999999999d"], "is not a"),
        (["health", "--since", "-99999999999h"], "is out of range: a relative time must land between"),
        (["health", "--stale-after", "9999999999w"], "is not a"),
        (["events", "list", "-f", "created_at=gt:-9999999999w"], "is out of range: a relative time must land"),
    ],
)
def test_a_time_beyond_any_calendar_is_refused(session_env: DemoServer, args: list[str], message: str) -> None:
    # timedelta() raised OverflowError, which nothing caught; a relative time read from now names its range
    refused(session_env, args, message)


def test_a_secret_on_stdin_is_read_up_to_a_cap(session_env: DemoServer) -> None:
    # read whole, `--secret-stdin < /dev/zero` grew memory until a MemoryError
    sent = session_env.request_count
    args = ["profile", "add", "p", "--base-url", "http://127.0.0.1:9", "--token-id", session_env.token_id]
    result = invoke([*args, "--secret-stdin"], input="a" * 200_000)
    assert result.exit_code == 2 and "more than 64 KiB" in result.stderr, result.stderr[-300:]
    assert session_env.request_count == sent


def test_a_settings_file_that_never_ends_is_refused(session_env: DemoServer, isolated_dirs: Path) -> None:
    settings = isolated_dirs / "config" / "settings.toml"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.symlink_to("/dev/zero")
    refused(session_env, ["tags", "list"], "not a regular file")
