"""`svctui demo-server` started as a real process answers a signed curl-style request made by
tests/tools/signed_request.py; bad options are refused with clear messages and no traceback.
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from svctui.cli import cli

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tests" / "tools" / "signed_request.py"
SMALL = ["--clients", "2", "--events", "12", "--tasks", "150", "--tags", "3", "--selectors", "30"]
TOKEN_ID = "0f1e2d3c-4b5a-4697-8877-665544332211"
TOKEN_KEY = "a-key-given-on-the-command-line"
FIXED = ["--token-id", TOKEN_ID.upper(), "--token-key", TOKEN_KEY, "--rate-limit", "40", "--seed", "5"]


@dataclass
class Running:
    """A demo-server process and what its banner said."""

    process: subprocess.Popen[str]
    banner: str
    base_url: str
    token_id: str
    token_key: str


def read_banner(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    lines: list[str] = []
    for line in process.stdout:
        lines.append(line)
        if line.startswith("Press Ctrl-C"):
            break
    return "".join(lines)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    with started(tmp_path) as run:
        yield run


@contextlib.contextmanager
def started(tmp_path: Path, *extra: str) -> Iterator[Running]:
    """`svctui demo-server` (small data, the FIXED token) with `extra` options, as a real process."""
    command = [
        *[sys.executable, "-m", "svctui", "demo-server", "--db", str(tmp_path / "cli.sqlite3")],
        *[*SMALL, *FIXED, *extra],
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    watchdog = threading.Timer(120, process.kill)
    watchdog.start()
    try:
        banner = read_banner(process)
        fields = dict(re.findall(r"^\s+(base URL|token id|token key):\s+(\S+)", banner, re.MULTILINE))
        assert set(fields) == {"base URL", "token id", "token key"}, banner
        yield Running(process, banner, fields["base URL"], fields["token id"], fields["token key"])
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def signed_request(run: Running, target: str, *extra: str, key: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOL), "--token-id", run.token_id, "--key-stdin", *extra, run.base_url + target],
        input=(key or run.token_key) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_demo_server_answers_a_signed_curl_style_request(running: Running) -> None:
    assert (running.token_id, running.token_key) == (TOKEN_ID, TOKEN_KEY), "--token-id/--token-key are served"
    assert "seed 5" in running.banner
    assert f"--base-url {running.base_url} --token-id {running.token_id} --secret-stdin" in running.banner
    tags = signed_request(running, "/api/v2/asset-group-tags", "--fail")
    assert tags.returncode == 0, tags.stdout + tags.stderr
    status, _, body = tags.stdout.partition("\n")
    assert status == "HTTP 200"
    assert len(json.loads(body)["data"]["tags"]) == 3
    events = signed_request(running, "/api/v2/events?limit=2&sort_by=-id&rrule=~eq:FREQ%3DDAILY", "-i")
    assert events.stdout.startswith("HTTP 200\n"), events.stdout
    assert "requestid: " in events.stdout.lower()
    assert "x-ratelimit-limit: 40" in events.stdout.lower(), "--rate-limit is applied"
    payload = json.loads(events.stdout.split("\n\n", 1)[1])
    assert payload["limit"] == 2 and all("FREQ=DAILY" in e["rrule"] for e in payload["data"])


def test_demo_server_refuses_a_wrong_key_and_stops_on_ctrl_c(running: Running) -> None:
    wrong = signed_request(running, "/api/v2/asset-group-tags", "--fail", key="wrong-key")
    assert wrong.returncode == 1 and wrong.stdout.startswith("HTTP 401\n")
    assert "digest validation failed: signature digest mismatch" in wrong.stdout
    running.process.send_signal(signal.SIGINT)
    assert running.process.stdout is not None
    rest = running.process.stdout.read()
    assert running.process.wait(timeout=30) == 0
    assert "demo server stopped" in rest and "Traceback" not in rest


def test_faults_path_keeps_the_faults_to_the_requests_under_it(tmp_path: Path) -> None:
    """`--faults-path` (Faults.only_path): with every request failing, only those whose path holds it fail."""
    with started(tmp_path, "--error-rate", "1", "--faults-path", "/api/v2/events") as run:
        events = signed_request(run, "/api/v2/events?limit=1", "--fail")
        tags = signed_request(run, "/api/v2/asset-group-tags", "--fail")
    assert events.stdout.startswith("HTTP 500\n") and events.returncode == 1, events.stdout + events.stderr
    assert tags.stdout.startswith("HTTP 200\n") and tags.returncode == 0, tags.stdout + tags.stderr


def test_restricted_user_gets_the_etac_403_on_selectors_only(tmp_path: Path) -> None:
    """`--restricted-user`: environment access control as the real server applies it (issue 26)."""
    with started(tmp_path, "--restricted-user") as run:
        tags = signed_request(run, "/api/v2/asset-group-tags", "--fail")
        selectors = signed_request(run, "/api/v2/asset-group-tags/1/selectors", "--fail")
    assert tags.stdout.startswith("HTTP 200\n"), tags.stdout + tags.stderr
    assert selectors.stdout.startswith("HTTP 403\n"), selectors.stdout + selectors.stderr
    assert "user does not have access to this resource" in selectors.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--edition", "pro"], "'pro' is not one of 'enterprise', 'community'"),
        (["--token-id", "not-a-uuid"], "'not-a-uuid' is not a UUID"),
        (
            ["--faults", "html,explode"],
            "unknown fault 'explode'; known faults: html, malformed, truncated, reset, slow",
        ),
        (["--faults", "reset:2"], "fault reset: rate must be between 0 and 1, got 2.0"),
        (["--error-rate", "1.5"], "--error-rate must be between 0 and 1, got 1.5"),
        (["--rate-limit", "-1"], "--rate-limit must be >= 0 (0 = off), got -1"),
        (["--tasks", "-5"], "--tasks must be between 0 and 1000000, got -5"),
        (["--latency", "-1"], "--latency must be >= 0 milliseconds, got -1"),
        (["--faults-path", "/api/v2/events"], "--faults-path narrows the faults, but none is on"),
    ],
)
def test_bad_options_are_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["demo-server", "--db", str(tmp_path / "x.sqlite3"), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output and not (tmp_path / "x.sqlite3").exists()


def test_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["demo-server", "--db", str(tmp_path / "x.sqlite3"), "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}:" in result.output and "Traceback" not in result.output


def test_help_lists_every_option() -> None:
    result = CliRunner().invoke(cli, ["demo-server", "--help"])
    assert result.exit_code == 0
    for option in (
        "--host",
        "--port",
        "--edition",
        "--seed",
        "--db",
        "--reset",
        "--token-id",
        "--token-key",
        "--rate-limit",
        "--clients",
        "--events",
        "--tasks",
        "--tags",
        "--selectors",
        "--latency",
        "--error-rate",
        "--faults",
        "--faults-path",
        "--restricted-user",
    ):
        assert option in result.output


def test_default_database_is_in_the_user_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from svctui.demo.config import default_db_path

    monkeypatch.setenv("SVCTUI_DATA_DIR", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "demo.sqlite3"
    monkeypatch.delenv("SVCTUI_DATA_DIR")
    assert default_db_path().name == "demo.sqlite3" and "svctui" in default_db_path().parts


def test_the_embedded_demo_keeps_its_address_across_sessions_and_falls_back_when_it_is_taken(
    demo_template_db: Path, tmp_path: Path
) -> None:
    """`svctui --demo` prefers one port, so the audit log's server matches next time; a busy port is no failure."""
    import shutil

    from svctui.demo.server import DemoServer

    with socket.socket() as probe:  # a port free right now, standing in for DEMO_PORT
        probe.bind(("127.0.0.1", 0))
        preferred = probe.getsockname()[1]
    db = tmp_path / "demo.sqlite3"
    shutil.copy(demo_template_db, db)
    with DemoServer(db_path=db, preferred_port=preferred, rate_limit=0) as first:
        assert first.base_url == f"http://127.0.0.1:{preferred}"
        with DemoServer(db_path=tmp_path / "other.sqlite3", preferred_port=preferred, rate_limit=0) as second:
            assert second.base_url != first.base_url, "the port is taken: any free one"
    with DemoServer(db_path=db, preferred_port=preferred, rate_limit=0) as next_session:
        assert next_session.base_url == f"http://127.0.0.1:{preferred}"


def test_demo_server_prefers_one_port_and_says_when_it_is_taken(tmp_path: Path) -> None:
    """Without --port, `svctui demo-server` serves on DEMO_SERVER_PORT, so the profile its banner prints works after
    a restart; when that port is taken it serves on another, says so, and keeps that one for the next start."""
    from svctui.demo.config import DEMO_SERVER_PORT

    command = [sys.executable, "-m", "svctui", "demo-server", "--db", str(tmp_path / "p.sqlite3"), *SMALL, *FIXED]

    def banner_of_one_start() -> str:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        watchdog = threading.Timer(120, process.kill)
        watchdog.start()
        try:
            return read_banner(process)
        finally:
            watchdog.cancel()
            process.kill()
            process.wait(timeout=30)

    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a recent start's TIME_WAIT must not stop us
    with contextlib.suppress(OSError):  # taken by us now (or by someone else already)
        holder.bind(("127.0.0.1", DEMO_SERVER_PORT))
        holder.listen(1)
    with holder:
        banner = banner_of_one_start()
    url = re.search(r"base URL:\s+(\S+)", banner)
    assert url is not None and url.group(1) != f"http://127.0.0.1:{DEMO_SERVER_PORT}", banner
    assert f"Note: port {DEMO_SERVER_PORT} (the default port) is taken" in banner and "--port N" in banner
    first = url.group(1)
    banner = banner_of_one_start()  # the remembered port, unless another process took it meanwhile
    url = re.search(r"base URL:\s+(\S+)", banner)
    assert url is not None
    assert (url.group(1) == first) != ("Note: port" in banner), banner
