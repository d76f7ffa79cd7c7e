"""End to end: the real dashboard in tmux on a server holding a selector named `esc \\x1b]0;pwned\\x07\\x1b[2J title`:
the pane's title is not changed and the screen is not cleared; the name shows as `esc ␛]0;pwned␇␛[2J title`."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from svctui.demo.server import DemoServer
from tests.e2e.test_tmux import _SOCKETS, BINARY, Tmux
from tests.integration.test_tui_escapes import create_escaped_selector
from tests.support.demo_http import own_server

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TITLE = "svctui-escapes-e2e"


@pytest.fixture
def escaped_demo(demo_template_db: Path, tmp_path: Path) -> Iterator[DemoServer]:
    """A demo server (loopback) whose tag 1 holds the escaped selector."""
    with own_server(demo_template_db, tmp_path, rate_limit=0) as demo:
        create_escaped_selector(demo)
        yield demo


@pytest.fixture
def dashboard(escaped_demo: DemoServer, tmp_path: Path) -> Iterator[Tmux]:
    """The dashboard on `escaped_demo` (an environment profile) in a tmux pane whose title is TITLE."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    session = Tmux(f"svctui-e2e-escapes-{os.getpid()}-{next(_SOCKETS)}", "dash")
    env = {
        **{name: value for name, value in os.environ.items() if name.startswith("SVCTUI_")},
        "SVCTUI_BASE_URL": escaped_demo.base_url,
        "SVCTUI_TOKEN_ID": escaped_demo.token_id,
        "SVCTUI_TOKEN_KEY": escaped_demo.token_key,
        "TERM": "xterm-256color",
    }
    env_args = [arg for name, value in env.items() for arg in ("-e", f"{name}={value}")]
    session.run(
        "new-session", "-d", "-s", "dash", "-x", "120", "-y", "36", "-c", str(tmp_path), *env_args,
        f"printf '\\033]2;{TITLE}\\007'; env -u COLUMNS -u LINES {BINARY}",
    )  # fmt: skip
    try:
        yield session
    finally:
        session.run("kill-server")


def pane_title(tmux: Tmux) -> str:
    """The pane's title as tmux keeps it (what an OSC 0/2 sequence sets)."""
    return tmux.run("display", "-p", "-t", "dash", "#{pane_title}").strip()


def test_a_selector_named_with_an_osc_title_neither_retitles_nor_clears(dashboard: Tmux) -> None:
    dashboard.wait_for("1 Events", "profile")
    assert pane_title(dashboard) == TITLE
    time.sleep(0.5)  # keys sent in the first instant after start-up can be lost
    dashboard.keys("3")
    dashboard.wait_for("Tags")
    dashboard.keys("/")
    dashboard.wait_for("Filter selectors")
    dashboard.keys("name=~eq:esc", "Enter")
    dashboard.wait_match(r"rows 1.1 of 1\b")  # the escaped selector's page is drawn
    assert pane_title(dashboard) == TITLE, "the title did not change"
    screen = dashboard.wait_for("esc ␛]0;pwned␇␛[2J title")
    dashboard.keys("p")  # the detail pane: the description and the Cypher seed hold escapes too
    # the description's escapes, shown in their visible forms wherever the pane wraps its words
    screen = dashboard.wait_for("second ␛]0;pwned␇␛[2J", "\\x9b31m red")
    lines = screen.splitlines()
    assert "3 Selector cleanup" in lines[0] and "q Quit" in lines[-1], "header and footer drawn: nothing cleared"
    assert pane_title(dashboard) == TITLE, "the title did not change"
    dashboard.keys("q")
