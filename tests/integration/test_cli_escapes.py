"""Nothing from the server, a file, an argument or the audit log drives the terminal from the command line: every
output format and every message shows control characters visibly (`svctui.visible`), JSON keeps them as `\\u`
escapes, and an argument echoed in an error is quoted and cut to ~100 characters. The real binary, over loopback."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from svctui.demo.server import DemoServer
from tests.integration.test_tui_escapes import ESC_DESCRIPTION, ESC_NAME, RAW, SHOWN, create_escaped_selector
from tests.support.cli import demo_env, run_binary
from tests.support.demo_http import own_server
from tests.support.recording_server import TOKEN_ID, TOKEN_KEY, Recorded, RecordingServer, Reply

HUGE = "x" * 70_000


def assert_nothing_raw(*texts: str) -> None:
    """No control character a terminal acts on is in any of `texts`."""
    found = sorted({ch for text in texts for ch in text if ch in RAW})
    assert not found, f"raw control characters written: {found!r}"


@pytest.fixture(scope="module")
def escaped(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DemoServer, int]]:
    """A demo server holding a selector (tag 1) whose name, description and Cypher seed hold escapes; its id."""
    with own_server(demo_template_db, tmp_path_factory.mktemp("escapes"), rate_limit=0) as demo:
        yield demo, create_escaped_selector(demo)


def listed(escaped: tuple[DemoServer, int], fmt: str) -> tuple[str, str]:
    """`selectors list 1 -f name=~eq:esc -o FMT`: stdout and stderr (exit 0)."""
    demo, _ = escaped
    done = run_binary(["selectors", "list", "1", "-f", "name=~eq:esc ", "-o", fmt], env=demo_env(demo))
    assert done.code == 0, done.stderr
    return done.stdout, done.stderr


def test_the_table_shows_the_escapes(escaped: tuple[DemoServer, int]) -> None:
    out, err = listed(escaped, "table")
    assert f"esc {SHOWN}␛[2J title" in out
    assert_nothing_raw(out, err)


def test_csv_fields_show_the_escapes_and_keep_the_line_breaks(escaped: tuple[DemoServer, int]) -> None:
    out, err = listed(escaped, "csv")
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert row["name"] == f"esc {SHOWN}␛[2J title"
    assert row["description"] == "first line\nsecond ␛]0;pwned␇␛[2J line \\x9b31m red"
    assert_nothing_raw(out, err)


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_json_keeps_every_control_as_an_escape(escaped: tuple[DemoServer, int], fmt: str) -> None:
    out, err = listed(escaped, fmt)
    assert_nothing_raw(out, err)
    items = json.loads(out) if fmt == "json" else [json.loads(line) for line in out.splitlines()]
    assert [(item["name"], item["description"]) for item in items] == [(ESC_NAME, ESC_DESCRIPTION)], "values whole"
    assert "\\u009b31m" in out


def test_a_dry_run_names_and_the_audit_log_in_every_format_show_the_escapes(fresh_demo_server: DemoServer) -> None:
    demo, selector_id = fresh_demo_server, create_escaped_selector(fresh_demo_server)
    env = demo_env(demo)
    planned = run_binary(["selectors", "delete", "1", str(selector_id), "--dry-run"], env=env)
    assert planned.code == 0, planned.stderr
    assert_nothing_raw(planned.stdout, planned.stderr)
    assert "]0;pwned" in planned.stdout + planned.stderr, "the plan names the selector"
    deleted = run_binary(["selectors", "delete", "1", str(selector_id), "--yes"], env=env)
    assert deleted.code == 0, deleted.stderr
    assert_nothing_raw(deleted.stdout, deleted.stderr)
    runs = json.loads(run_binary(["audit", "list", "-o", "json"], env=env).stdout)
    run_id = runs[0]["run"]
    for fmt in ("table", "csv", "json", "jsonl"):
        shown = run_binary(["audit", "show", run_id, "-o", fmt], env=env)
        assert shown.code == 0, shown.stderr
        assert_nothing_raw(shown.stdout, shown.stderr)
        if fmt in ("table", "csv"):
            assert f"esc {SHOWN}␛[2J title" in shown.stdout, fmt
        listed_runs = run_binary(["audit", "list", "-o", fmt], env=env)
        assert_nothing_raw(listed_runs.stdout, listed_runs.stderr)


class ProxyPage(RecordingServer):
    """A proxy in front of the server: a 502 HTML page whose <title> holds terminal escapes, for every request."""

    def route(self, recorded: Recorded) -> Reply:
        """The proxy's page."""
        page = f"<html><head><title>502 {ESC_NAME} \x9b2J</title></head><body>bad gateway</body></html>"
        return Reply(502, page, content_type="text/html")


def test_an_error_from_a_proxy_page_shows_the_escapes_on_stderr_even_piped() -> None:
    with ProxyPage() as proxy:
        env = {"SVCTUI_BASE_URL": proxy.base_url, "SVCTUI_TOKEN_ID": TOKEN_ID, "SVCTUI_TOKEN_KEY": TOKEN_KEY}
        done = run_binary(["tags", "list"], env=env)
    assert done.code == 5, done.stderr
    assert f"502 esc {SHOWN}␛[2J title" in done.stderr
    assert_nothing_raw(done.stdout, done.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["events", "list", "extra \x1b]0;pwned\x07\x1b[2J"],  # click echoes an extra argument as it came
        ["events", "list", "one \x1b]0;pwned\x07", "two"],  # and several of them
    ],
)
def test_click_usage_errors_show_the_escapes_of_an_argument(args: list[str]) -> None:
    done = run_binary(args, env={})
    assert done.code == 2
    assert_nothing_raw(done.stdout, done.stderr)
    assert "]0;pwned" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        [HUGE],  # an unknown command
        ["events", "list", HUGE],  # an extra argument
        ["health", "--threshold", HUGE],  # a bad value
        [f"--profile={HUGE}", "events", "list"],  # an unknown profile
        ["--profile", HUGE, "events", "list"],
        ["events", "list", f"--{HUGE}"],  # an unknown option
        ["profile", "add", HUGE, "--base-url", "http://127.0.0.1:9", "--token-id", "x"],  # a bad profile name
        ["tasks", "log", HUGE],  # a bad task id
    ],
)
def test_a_long_argument_is_quoted_cut_with_its_length(args: list[str]) -> None:
    done = run_binary(args, env={}, input="")
    assert done.code == 2, done.stderr[-300:]
    assert len(done.stderr) < 1_000, f"{len(done.stderr):,} characters on stderr: {done.stderr[-300:]}"
    assert "cut from 70,00" in done.stderr, done.stderr
