"""Start-up of the dashboard: settings, the profile (or first run), the embedded demo server for `--demo`."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from svctui.demo.process import DemoProcess
    from svctui.store.model import Profile
    from svctui.store.settings import Settings
    from svctui.tui.app import SvcTuiApp


class DemoHandle(Protocol):
    """What the dashboard needs from a running DemoServer."""

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:PORT."""

    @property
    def token_id(self) -> str:
        """The admin token id."""

    @property
    def token_key(self) -> str:
        """The admin token key."""


def demo_profile(server: DemoHandle) -> Profile:
    """A throwaway in-memory profile for a running demo server (signature auth, with its admin token), under the name
    no stored profile may take; `svctui --demo`'s, the tests' and `make screenshots`'."""
    from svctui.store.model import DEMO_PROFILE, build_profile

    return build_profile(
        name=DEMO_PROFILE, base_url=server.base_url, token_id=server.token_id, token_key=server.token_key, storage="env"
    )


def load_settings_or_note() -> tuple[Settings | None, list[str]]:
    """The settings, or None plus a note for the user when the file is broken."""
    from svctui.store.errors import StoreError
    from svctui.store.settings import load_settings

    try:
        return load_settings(), []
    except StoreError as exc:
        return None, [f"Settings not loaded, using defaults: {exc}"]


def resolve_profile(profile_name: str | None) -> tuple[Profile | None, str | None]:
    """(profile, None) to connect; (None, None) for the first-run screen; (None, message) to stop with an error."""
    from svctui.store.errors import StoreError
    from svctui.store.profiles import ProfileStore

    store = ProfileStore()
    try:
        return store.resolve(profile_name), None
    except StoreError as exc:
        if profile_name is not None:
            return None, str(exc)
        try:
            known = store.load().profiles
        except StoreError as load_error:
            return None, str(load_error)
        return (None, None) if not known else (None, str(exc))


def _run(app: SvcTuiApp) -> int:
    result = app.run()
    return result if isinstance(result, int) else (app.return_code or 0)


def run_dashboard(
    profile_name: str | None, demo: bool, refresh_seconds: int | None = None, *, read_only: bool = False
) -> int:
    """Open the dashboard (the CLI's entry point); with `demo`, against a throwaway embedded demo server;
    `refresh_seconds` (from `--refresh`) overrides the live refresh interval of the settings; `read_only` is
    `--read-only`."""
    server = start_demo_process() if demo else None  # before Textual is imported: its start overlaps ours
    if demo and server is None:
        return 1
    from svctui.tui.app import SvcTuiApp

    return launch(SvcTuiApp, profile_name, demo, refresh_seconds, server=server, read_only=read_only)


def launch(
    app_class: type[SvcTuiApp],
    profile_name: str | None,
    demo: bool,
    refresh_seconds: int | None = None,
    *,
    server: DemoProcess | None = None,
    read_only: bool = False,
) -> int:
    """Run the dashboard; returns the process exit code (2 when the profile cannot be used). With `demo`, against
    `server` (started here when not given), stopped at the end."""
    if demo:
        server = server or start_demo_process()
        if server is None:
            return 1
        try:
            return run_demo(app_class, server, refresh_seconds, read_only=read_only)
        finally:
            server.stop()
    settings, notes = load_settings_or_note()
    profile, problem = resolve_profile(profile_name)
    if problem is not None:
        print(f"svctui: {problem}", file=sys.stderr)
        return 2
    from svctui.store.envprofile import env_ignored_note

    ignored = env_ignored_note(profile_name, os.environ)
    notes += [ignored.removeprefix("note: ")] if ignored else []
    with ExitStack() as stack:

        def start_demo() -> Profile:
            from svctui.demo.config import DEMO_PORT
            from svctui.demo.server import DemoServer

            return demo_profile(stack.enter_context(DemoServer(preferred_port=DEMO_PORT)))

        app = app_class(
            profile,
            settings=settings,
            startup_notes=notes,
            demo_profile_factory=start_demo,
            refresh_seconds=refresh_seconds,
            read_only=read_only,
        )
        return _run(app)


def start_demo_process() -> DemoProcess | None:
    """`svctui --demo`'s server in a child process (demo/process.py), or None after printing why it did not start."""
    import sqlite3

    from svctui.demo.config import DEMO_PORT
    from svctui.demo.process import DemoProcess

    try:
        return DemoProcess(preferred_port=DEMO_PORT, remember_port=True).start()
    except (RuntimeError, OSError, ValueError, sqlite3.Error) as exc:
        print(f"svctui: the demo server did not start: {exc}", file=sys.stderr)
        return None


def run_demo(
    app_class: type[SvcTuiApp], server: DemoProcess, refresh_seconds: int | None, *, read_only: bool = False
) -> int:
    """Run the dashboard against a started demo server (`demo_app`)."""
    return _run(demo_app(app_class, server, refresh_seconds, read_only=read_only))


def demo_app(
    app_class: type[SvcTuiApp], server: DemoProcess, refresh_seconds: int | None = None, *, read_only: bool = False
) -> SvcTuiApp:
    """The dashboard for a started demo server: a server that dies on its own is shown as an error; a terminal that
    hangs up lets the server go at once (a restart then gets the same port without waiting for the exit)."""
    settings, notes = load_settings_or_note()
    if server.port_note is not None:
        notes.append(f"Demo server: {server.port_note}")
    app = app_class(
        demo_profile(server),
        settings=settings,
        startup_notes=notes,
        refresh_seconds=refresh_seconds,
        read_only=read_only,
    )
    server.on_failure(lambda message: notify_from_thread(app, message, lambda: server.stopping))
    app.at_hangup.append(server.let_go)
    return app


def notify_from_thread(app: SvcTuiApp, message: str, stopped: Callable[[], bool]) -> None:
    """Tell the app its demo server stopped (`message`, a toast and the error panels' text) from another thread,
    once the app runs (until `stopped()`)."""
    while not stopped():
        try:
            app.call_from_thread(app.demo_server_stopped, message)
            return
        except RuntimeError:  # not running yet
            time.sleep(0.05)
