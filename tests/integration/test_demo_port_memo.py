"""A demo server killed with SIGKILL comes back on the same port: `svctui demo-server` and `svctui --demo`'s server
remember the port they served their data on (beside the database) and take it again at the next start, even when
their default port belongs to someone else (on a shared machine it often does); a remembered port that is taken is
said, and the new one remembered.

Before, a start whose default port was taken got a new random port every time, so a profile saved from the banner
stopped working after a crash and restart."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx

from svctui.demo.config import DEMO_PORT, DEMO_SERVER_PORT
from svctui.demo.sockets import bind_remembered, port_memo, remember_port, remembered_port
from tests.integration.test_demo_cli import FIXED, ROOT, SMALL, read_banner

WATCHDOG_SECONDS = 120  # kills a start that never prints its banner (never reached when it works), not a timing


@contextlib.contextmanager
def held(port: int) -> Iterator[None]:
    """Listen on `port` meanwhile (someone else's server on a shared machine); nothing when it is taken already."""
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    with holder:
        with contextlib.suppress(OSError):
            holder.bind(("127.0.0.1", port))
            holder.listen(1)
        yield


@contextlib.contextmanager
def reaped(process: subprocess.Popen[str]) -> Iterator[subprocess.Popen[str]]:
    """`process`, killed at the end if it still runs (a failed assertion leaves no server behind)."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def _started(command: list[str]) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    watchdog = threading.Timer(WATCHDOG_SECONDS, process.kill)
    watchdog.start()
    try:
        return process, read_banner(process)
    finally:
        watchdog.cancel()


def _base_url(banner: str) -> str:
    found = re.search(r"base URL:\s+(\S+)", banner)
    assert found is not None, banner
    return found.group(1)


def _killed(process: subprocess.Popen[str], base_url: str) -> None:
    """A request answered (the connection kept open), then SIGKILL: no shutdown, a connection left half-open."""
    open_connection = httpx.Client(base_url=base_url)
    assert open_connection.get("/api/v2/asset-group-tags").status_code == 401  # unsigned: the server answered
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    open_connection.close()


def test_demo_server_killed_with_sigkill_restarts_on_its_port(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite3"
    command = [sys.executable, "-m", "svctui", "demo-server", "--db", str(db), *SMALL, *FIXED]
    with held(DEMO_SERVER_PORT):  # the default port is someone else's: the start takes another
        first, banner = _started(command)
        with reaped(first):
            url = _base_url(banner)
            assert url != f"http://127.0.0.1:{DEMO_SERVER_PORT}"
            assert f"Note: port {DEMO_SERVER_PORT} (the default port) is taken" in banner, banner
            assert remembered_port(port_memo(db, "demo-server")) == int(url.rsplit(":", 1)[1])
            _killed(first, url)
        second, banner = _started(command)
        with reaped(second):
            assert _base_url(banner) == url, "the same address after a crash"
            assert "Note:" not in banner, banner


def test_a_remembered_port_that_is_taken_is_said_and_the_new_one_kept(tmp_path: Path) -> None:
    memo = port_memo(tmp_path / "demo.sqlite3", "demo-server")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        remember_port(memo, port)
        with held(DEMO_SERVER_PORT):
            sock, note = bind_remembered("127.0.0.1", DEMO_SERVER_PORT, memo, wait=0)
    with sock:
        assert sock.getsockname()[1] != port
        assert note is not None and f"port {port} (the port this demo data was served on last time) is taken" in note
    memo.write_text("not a port\n")
    assert remembered_port(memo) is None, "a broken memo is no port: the default is tried"


SPAWN = """
import sys, time
from pathlib import Path
from svctui.demo.process import DemoProcess
server = DemoProcess(db_path=Path(sys.argv[1]), preferred_port=int(sys.argv[2]), remember_port=True).start()
print(server.base_url, server.port_note, sep="|", flush=True)
time.sleep(600)
"""


def test_the_dashboards_demo_killed_with_sigkill_restarts_on_its_port(demo_template_db: Path, tmp_path: Path) -> None:
    """`svctui --demo` is killed (its server child exits when the parent's pipe closes, a moment later): the next
    start waits for the remembered port instead of taking another."""
    db = tmp_path / "demo.sqlite3"
    shutil.copyfile(demo_template_db, db)
    command = [sys.executable, "-c", SPAWN, str(db), str(DEMO_PORT)]

    def start() -> tuple[subprocess.Popen[str], str, str]:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ})
        watchdog = threading.Timer(WATCHDOG_SECONDS, process.kill)
        watchdog.start()
        try:
            assert process.stdout is not None
            url, _, note = process.stdout.readline().strip().partition("|")
            return process, url, note
        finally:
            watchdog.cancel()

    with held(DEMO_PORT):
        first, url, note = start()
        with reaped(first):
            assert url != f"http://127.0.0.1:{DEMO_PORT}" and f"port {DEMO_PORT} (the default port) is taken" in note
            _killed(first, url)  # the parent dies; its child still listens for a moment
        second, again, note = start()
        with reaped(second):  # its server child exits when it is gone (its stdin closes)
            assert again == url and note == "None", note
