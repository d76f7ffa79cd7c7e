"""`svctui --demo`'s server in a child process (svctui/demo/process.py): the dashboard starts before the child
serves, its first request waits in the socket's queue and gets the first page over real loopback HTTP; a child
that fails is a notification in the dashboard (and refused connections), not a traceback; stop() ends the child."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from textual.pilot import Pilot

from svctui.api.signing import SignatureAuth
from svctui.cli import cli
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.dblock import DatabaseInUse
from svctui.demo.process import DemoProcess
from svctui.tui.launch import demo_app, demo_profile, notify_from_thread
from svctui.tui.widgets.state_panel import StateKind
from tests.support.tui import RecordingApp, events_screen, ids, make_app, settle, shown_state, state_of

pytestmark = pytest.mark.anyio

ENOUGH_PAUSES = 600  # a bound on waiting for the child's notice (never reached when it works), not a timing


def _copy(template: Path, target: Path) -> Path:
    shutil.copyfile(template, target)
    return target


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def _notified(app: RecordingApp, pilot: Pilot[Any], title: str) -> list[str]:
    """The messages of notifications titled `title`, once there is one."""
    for _ in range(ENOUGH_PAUSES):
        found = [note.message for note in app.notes if note.title == title]
        if found:
            return found
        await pilot.pause(0.05)
    return []


async def test_the_dashboard_starts_before_the_child_serves_and_gets_its_first_page(
    demo_template_db: Path, tmp_path: Path
) -> None:
    preferred = _free_port()
    server = DemoProcess(db_path=_copy(demo_template_db, tmp_path / "demo.sqlite3"), preferred_port=preferred)
    with server:
        assert server.base_url == f"http://127.0.0.1:{preferred}"
        app = make_app(profile=demo_profile(server))  # at once: the child is still importing its server
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            assert state_of(app) is StateKind.HIDDEN
            assert ids(events_screen(app))[:3] == [1, 2, 3] and len(events_screen(app).table.items) == 100
        other_db = _copy(demo_template_db, tmp_path / "other.sqlite3")
        with DemoProcess(db_path=other_db, preferred_port=preferred) as other:
            assert other.base_url != server.base_url, "the preferred port is taken: any free one"
    assert server.failure is None, "stopped when asked: no failure to report"
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", preferred), timeout=5):
        pass  # the child is gone and the parent's copy of the socket was closed: refused


async def test_a_child_that_fails_to_start_is_a_notification_in_the_dashboard(
    demo_template_db: Path, tmp_path: Path
) -> None:
    # a rate limit below 0 passes the parent (it does not build the server) and stops the child's own start
    server = DemoProcess(db_path=_copy(demo_template_db, tmp_path / "demo.sqlite3"), rate_limit=-1)
    with server:
        app = make_app(profile=demo_profile(server))
        server.on_failure(lambda message: notify_from_thread(app, message, lambda: server.stopping))
        async with app.run_test(size=(120, 36)) as pilot:
            messages = await _notified(app, pilot, "Demo server")
            await settle(pilot)
            assert messages == ["The demo server stopped (ValueError: --rate-limit must be >= 0 (0 = off), got -1)"]
            assert state_of(app) is StateKind.ERROR  # its requests are refused, not left waiting
            assert "Traceback" not in "\n".join(note.message for note in app.notes)


def test_the_dashboards_process_starts_the_demo_without_importing_its_server(
    demo_template_db: Path, tmp_path: Path
) -> None:
    """starlette, uvicorn and the data generators load in the child only: the dashboard's process pays for neither."""
    db = _copy(demo_template_db, tmp_path / "demo.sqlite3")
    code = (
        "import sys\nfrom svctui.demo.process import DemoProcess\n"
        f"with DemoProcess(db_path=__import__('pathlib').Path({str(db)!r})) as server:\n"
        "    assert server.token_id and server.base_url\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith(('starlette', 'uvicorn', 'svctui.demo.'))}"
        " | {m for m in sys.modules if m in ('svctui.demo.generate', 'svctui.demo.server', 'pydantic', 'httpx')}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert result.stdout.strip() == "['svctui']"


def test_a_child_killed_while_serving_is_reported_once_with_the_signal(demo_template_db: Path, tmp_path: Path) -> None:
    reports: list[str] = []
    reported = threading.Event()

    def report(message: str) -> None:
        reports.append(message)
        reported.set()

    with DemoProcess(db_path=_copy(demo_template_db, tmp_path / "demo.sqlite3")) as server:
        server.on_failure(report)
        assert server.pid is not None
        os.kill(server.pid, signal.SIGKILL)
        assert reported.wait(60), "the watcher reports a child that died on its own"
    assert reports == ["The demo server stopped (killed by signal 9)"] and server.failure == reports[0]


def test_a_demo_database_that_cannot_be_opened_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """`svctui --demo` whose database path is a directory: exit 1 with the reason, before any dashboard starts."""
    (tmp_path / "data" / "demo.sqlite3").mkdir(parents=True)
    env = {"SVCTUI_DATA_DIR": str(tmp_path / "data"), "SVCTUI_CONFIG_DIR": str(tmp_path / "config")}
    result = CliRunner().invoke(cli, ["--demo"], env=env)
    assert result.exit_code == 1
    assert result.output == "svctui: the demo server did not start: unable to open database file\n"


def test_a_child_serves_the_sizes_and_the_fixed_now_it_was_given(tmp_path: Path) -> None:
    """Benchmarks run their demo server out of process: the child serves the sizes and the fixed "now" given."""
    sizes = DemoSizes(clients=9, events=20, tasks=90, tags=1, selectors=5)
    with DemoProcess(db_path=tmp_path / "demo.sqlite3", sizes=sizes, anchor=FIXED_ANCHOR, rate_limit=0) as server:
        auth = SignatureAuth(server.token_id, server.token_key)
        with httpx.Client(base_url=server.base_url, auth=auth, timeout=60) as http:
            clients = http.get("/api/v2/clients", params={"limit": 1}).json()
            tasks = [
                http.get(f"/api/v2/clients/{c['id']}/completed-jobs", params={"limit": 1}).json()
                for c in http.get("/api/v2/clients").json()["data"]
            ]
    assert server.prepared is not None and server.prepared.anchor == FIXED_ANCHOR
    assert clients["count"] == 10
    assert sum(page["count"] for page in tasks) == sizes.tasks


def _tags_status(server: DemoProcess) -> int:
    """The status of a signed GET of the tag list, with the token the server was started with."""
    auth = SignatureAuth(server.token_id, server.token_key)
    with httpx.Client(base_url=server.base_url, auth=auth, timeout=60) as http:
        return http.get("/api/v2/asset-group-tags").status_code


def test_a_second_demo_on_the_same_data_never_breaks_the_first(tmp_path: Path) -> None:
    """Issue 28: two `svctui --demo` on one data dir gave the first a 401 — the second regenerated the database (it
    found it incomplete while the first generated, or made for other sizes or another version) with new tokens. A
    second start on matching data shares it; one that would regenerate it stops, saying why and what to do."""
    path = tmp_path / "data" / "demo.sqlite3"
    small = DemoSizes(clients=2, events=4, tasks=20, tags=1, selectors=3)
    with DemoProcess(db_path=path, sizes=small, rate_limit=0) as first:
        with DemoProcess(db_path=path, sizes=small, rate_limit=0) as second:
            assert second.token_id == first.token_id
            assert (_tags_status(first), _tags_status(second)) == (200, 200)
        other = DemoProcess(db_path=path, sizes=DemoSizes(clients=3, events=4, tasks=20, tags=1, selectors=3))
        try:
            other.start()
        except DatabaseInUse as refused:
            said = str(refused)
        else:
            other.stop()
            said = ""
        assert _tags_status(first) == 200, "the first keeps its data and its token (it was a 401)"
        assert f"the demo database {path} is served by another demo server" in said
        assert "regenerate it" in said and "SVCTUI_DATA_DIR" in said
    with DemoProcess(db_path=path, sizes=DemoSizes(clients=3, events=4, tasks=20, tags=1, selectors=3)) as alone:
        assert alone.prepared is not None and alone.prepared.generated, "once the first stopped, it may regenerate"
        assert _tags_status(alone) == 200


def test_svctui_demo_says_why_it_cannot_regenerate_data_another_demo_serves(tmp_path: Path) -> None:
    data = tmp_path / "data"
    small = DemoSizes(clients=2, events=4, tasks=20, tags=1, selectors=3)
    with DemoProcess(db_path=data / "demo.sqlite3", sizes=small, rate_limit=0) as first:
        env = {"SVCTUI_DATA_DIR": str(data), "SVCTUI_CONFIG_DIR": str(tmp_path / "config")}
        result = CliRunner().invoke(cli, ["--demo"], env=env)
        assert result.exit_code == 1
        assert result.output.startswith("svctui: the demo server did not start: the demo database ")
        assert "stop the other one first, or give this one data of its own" in result.output
        assert _tags_status(first) == 200


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as bind_socket: a TIME_WAIT is no listener
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


async def test_a_hung_up_dashboard_lets_its_demo_server_go_before_its_own_exit(
    demo_template_db: Path, tmp_path: Path
) -> None:
    """After a hang-up (`tmux kill-server`) the dashboard's own exit can take seconds (hangup.py's last resort ends
    it 5 s later), and its server child only exited with it: a `svctui --demo` started meanwhile waited 2 s for the
    remembered port, then took another one. The hang-up now tells the child to stop at once."""
    port = _free_port()
    server = DemoProcess(db_path=_copy(demo_template_db, tmp_path / "demo.sqlite3"), preferred_port=port)
    with server:
        app = demo_app(RecordingApp, server)
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            assert not _port_free(port)
            app.hung_up()  # what the hang-up watch calls before it asks the app to exit
            for _ in range(ENOUGH_PAUSES):
                if _port_free(port):
                    break
                await pilot.pause(0.05)
            assert _port_free(port), "the demo server still listens while the dashboard runs"
            assert app.is_running
    assert server.failure is None, "let go when asked: no failure to report"


async def test_a_demo_killed_while_serving_says_so_in_the_error_panel_not_r_to_retry(
    demo_template_db: Path, tmp_path: Path
) -> None:
    """Issue 28 (misc 3): after `kill -9` of the demo server the panel said "Press r to retry", which cannot help;
    only a toast said the server was killed. The panel says the demo server stopped and what helps."""
    with DemoProcess(db_path=_copy(demo_template_db, tmp_path / "demo.sqlite3")) as server:
        app = make_app(profile=demo_profile(server))
        server.on_failure(lambda message: notify_from_thread(app, message, lambda: server.stopping))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert state_of(app) is StateKind.HIDDEN
            assert server.pid is not None
            os.kill(server.pid, signal.SIGKILL)
            assert await _notified(app, pilot, "Demo server") == ["The demo server stopped (killed by signal 9)"]
            await pilot.press("r")
            await settle(pilot)
            assert state_of(app) is StateKind.ERROR
            shown = shown_state(events_screen(app).state_panel)
            assert shown.startswith("The demo server stopped") and "killed by signal 9" in shown
            assert "make demo" in shown and "Press r to retry" not in shown


async def test_after_the_demo_stopped_nothing_is_sent_to_its_port_even_once_another_server_takes_it(
    demo_template_db: Path, tmp_path: Path
) -> None:
    """A newcomer's walk: after the demo server was killed, Events said `stale: Cannot reach the server · r to
    retry` (r hung ~10 s), and once another demo took the port the dashboard sent it signed requests and showed
    `auth failed (401)`. Now nothing more goes to that port (live refresh, r, every screen), and the status line
    says the demo stopped, without offering r."""
    from svctui.demo.server import DemoServer
    from svctui.tui.app import SCREENS
    from svctui.tui.screens.dashboard import DashboardScreen
    from tests.support.live import HandClock, HandTicked, refresh_now
    from tests.support.paths_seen import PathsSeen

    with DemoProcess(db_path=_copy(demo_template_db, tmp_path / "demo.sqlite3")) as server:
        app = make_app(profile=demo_profile(server), refresh_seconds=60)
        clock = HandClock()
        app.live = HandTicked(app, 60, clock)
        server.on_failure(lambda message: notify_from_thread(app, message, lambda: server.stopping))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert server.pid is not None and events_screen(app).table.row_count
            port = int(server.base_url.rsplit(":", 1)[1])
            os.kill(server.pid, signal.SIGTERM)
            assert await _notified(app, pilot, "Demo server") == ["The demo server stopped (killed by signal 15)"]
            await refresh_now(pilot, clock)
            line = str(events_screen(app).status_line.content)
            assert line.startswith("stale: The demo server stopped") and "r to retry" not in line, line
            seen = PathsSeen()
            other = DemoServer(
                db_path=_copy(demo_template_db, tmp_path / "other.sqlite3"), preferred_port=port, wrap=seen.wrap
            )
            with other:
                assert other.base_url == demo_profile(server).base_url, "the other server took the port"
                panels: list[str] = []
                for entry in SCREENS:
                    await app.switch_mode(entry.name)
                    await settle(pilot)
                    await refresh_now(pilot, clock)
                    await pilot.press("r")
                    await settle(pilot)
                    screen = app.screen
                    assert isinstance(screen, DashboardScreen)
                    line = str(screen.status_line.content)
                    assert "r to retry" not in line and "Cannot reach" not in line, (entry.name, line)
                    assert screen.state_panel.kind is not StateKind.AUTH_FAILURE, entry.name
                    if screen.state_panel.kind is StateKind.ERROR:  # no rows shown before the kill: the panel
                        panels.append(shown_state(screen.state_panel))
                assert panels and all(panel.startswith("The demo server stopped") for panel in panels), panels
                assert seen.paths == [], "nothing more is sent to the stopped demo's port"
