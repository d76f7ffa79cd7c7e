"""SvcTuiApp: the dashboard shell (screens as modes, header info, themes, keymap, palette) and `run_dashboard`.

Screens are registered in SCREENS below — one line each (mode name, key, title, "module:Class"); modules are
imported only when their screen is first shown, so the first frame is fast. httpx and the API client are
imported lazily inside workers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer

from svctui.clock import Clock
from svctui.tui.widgets.app_header import HeaderInfo, Tab

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.store.model import Profile
    from svctui.store.settings import Settings

PROCESS_START = time.perf_counter()
THEME_SAVE_DELAY = 0.5  # seconds without another theme change before the choice is written


@dataclass(frozen=True)
class ScreenEntry:
    """One dashboard screen: mode name, key, tab title, and where its Screen class lives."""

    name: str
    key: str
    title: str
    target: str


SCREENS: list[ScreenEntry] = [
    ScreenEntry("events", "1", "Events", "svctui.tui.screens.events:EventsScreen"),
    ScreenEntry("tasks", "2", "Completed tasks", "svctui.tui.screens.tasks:TasksScreen"),
    ScreenEntry("selectors", "3", "Selector cleanup", "svctui.tui.screens.selectors.screen:SelectorsScreen"),
]


def load_screen(target: str) -> Callable[[], Screen[None]]:
    """A factory that imports `module:Class` on first use and builds the screen."""

    def build() -> Screen[None]:
        module_name, _, class_name = target.partition(":")
        screen_class: type[Screen[None]] = getattr(import_module(module_name), class_name)
        return screen_class()

    return build


def process_age_ms() -> float | None:
    """Milliseconds since this process started (Linux /proc; None elsewhere). 10 ms resolution."""
    try:
        fields = Path("/proc/self/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        stat = Path("/proc/stat").read_text(encoding="ascii").splitlines()
        boot = next(line for line in stat if line.startswith("btime"))
    except (OSError, StopIteration, IndexError):
        return None
    started = int(boot.split()[1]) + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    return (time.time() - started) * 1000


def make_clock(environ: dict[str, str] | None = None) -> tuple[Clock, bool]:
    """The app's clock: frozen at SVCTUI_FROZEN_NOW (RFC 3339) when set (tests, screenshots), else real time."""
    frozen = (environ if environ is not None else os.environ).get("SVCTUI_FROZEN_NOW", "").strip()
    if frozen:
        moment = datetime.fromisoformat(frozen.replace("Z", "+00:00")).astimezone(UTC)
        return (lambda: moment), True
    return (lambda: datetime.now(UTC)), False


class SvcTuiApp(App[int]):
    """The svctui dashboard."""

    TITLE = "svctui"
    CSS_PATH = "app.tcss"
    MODES: ClassVar[dict[str, str | Callable[[], Screen[None]]]] = {
        entry.name: load_screen(entry.target) for entry in SCREENS
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(
                entry.key,
                f"switch_screen_tab('{entry.name}')",
                entry.title,
                show=False,
                id=f"app.screen.{entry.name}",
                tooltip=f"Show the {entry.title} screen",
            )
            for entry in SCREENS
        ),
        Binding("question_mark", "help", "Help", id="app.help", tooltip="Every key of this screen"),
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Quit svctui"),
    ]
    header_info: var[HeaderInfo] = var(HeaderInfo)

    def __init__(
        self,
        profile: Profile | None,
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        demo_profile_factory: Callable[[], Profile] | None = None,
        startup_notes: Iterable[str] = (),
        server_label: str | None = None,
    ) -> None:
        super().__init__()
        self.profile = profile
        self.settings = settings
        default_clock, frozen = make_clock()
        self.clock: Clock = clock or default_clock
        self.frozen = frozen or clock is not None
        self.demo_profile_factory = demo_profile_factory
        self.startup_notes = tuple(startup_notes)
        self.tabs = [Tab(entry.name, entry.key, entry.title) for entry in SCREENS]
        self.generation = 0
        self._requests_before = 0  # sent by the clients of earlier profiles
        self.startup_ms: float | None = None
        self._client: ApiClient | None = None
        self.page_size = settings.page_size if settings is not None else 100
        self.server_label = server_label
        self._theme_timer: Timer | None = None
        if profile is not None:
            self.header_info = HeaderInfo(profile.name, server_label or profile.base_url)

    # ----- start-up ---------------------------------------------------------------------------------------
    def get_theme_variable_defaults(self) -> dict[str, str]:
        """App variables usable in TCSS (`$status-failed`, `$mark`, ...) with their defaults."""
        from svctui.tui.theme import APP_VARIABLE_DEFAULTS

        return dict(APP_VARIABLE_DEFAULTS)

    def on_mount(self) -> None:
        """Themes, keymap, then the first screen (or the first-run screen)."""
        self._apply_themes()
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self.settings is not None and self.settings.keymap:
            self.set_keymap(self.settings.keymap)
            from svctui.tui.keymap import keymap_problems

            problems = keymap_problems(self.settings.keymap)
            if problems:
                self.notify("\n".join(problems), title="Keymap in settings.toml", severity="warning", markup=False)
        for note in self.startup_notes:
            self.notify(note, severity="warning", timeout=8)
        if self.profile is None:
            from svctui.tui.screens.first_run import FirstRunScreen

            self.push_screen(FirstRunScreen())
        else:
            self.switch_mode(SCREENS[0].name)
            self.probe()

    def on_ready(self) -> None:
        """Log how long the first frame took (since the process started, and since this module was imported)."""
        self.startup_ms = (time.perf_counter() - PROCESS_START) * 1000
        since_exec = process_age_ms()
        self.log.info(f"svctui first frame: {since_exec or 0:.0f} ms after exec, {self.startup_ms:.0f} ms after import")
        if os.environ.get("SVCTUI_STARTUP_LOG"):
            with open(os.environ["SVCTUI_STARTUP_LOG"], "a", encoding="utf-8") as log:
                log.write(f"first-frame-ms since-exec={since_exec or 0:.0f} since-import={self.startup_ms:.0f}\n")

    def _apply_themes(self) -> None:
        from svctui.tui.theme import DEFAULT_THEME, load_themes, pick_theme, repo_themes_dir, user_themes_dir

        loaded = load_themes([repo_themes_dir(), user_themes_dir()])
        for theme in loaded.themes:
            self.register_theme(theme)
        if loaded.problems:
            self.notify(
                "Skipped broken theme files:\n" + "\n".join(loaded.problems),
                title="Themes",
                severity="warning",
                timeout=10,
                markup=False,
            )
        requested = self.settings.theme if self.settings is not None else DEFAULT_THEME
        name, problem = pick_theme(requested, self.available_themes)
        self.theme = name
        if problem:
            self.notify(problem, title="Themes", severity="warning", markup=False)

    def _remember_theme(self, theme: object) -> None:
        """A theme picked in the palette is kept for the next start (written by a worker thread, once the choice
        has settled: the theme picker previews each theme it passes)."""
        name = getattr(theme, "name", "")
        if self._theme_timer is not None:
            self._theme_timer.stop()
            self._theme_timer = None
        if name and (self.settings is None or self.settings.theme != name):
            self._theme_timer = self.set_timer(THEME_SAVE_DELAY, lambda: self._save_theme(name))

    @work(thread=True, exclusive=True, group="settings", exit_on_error=False)
    def _save_theme(self, name: str) -> None:
        from svctui.store.errors import StoreError
        from svctui.store.settings import load_settings, save_settings

        try:
            settings = load_settings().model_copy(update={"theme": name})
            save_settings(settings)
        except (StoreError, OSError) as exc:
            self.call_from_thread(self.notify, f"Could not keep the theme: {exc}", severity="warning", markup=False)
            return
        self.call_from_thread(setattr, self, "settings", settings)

    # ----- the connection ---------------------------------------------------------------------------------
    @property
    def request_count(self) -> int:
        """Requests sent this session, retries included (each client counts its own with an httpx hook)."""
        return self._requests_before + (self._client.requests_sent if self._client is not None else 0)

    async def api_client(self) -> ApiClient:
        """The API client of the current profile, opened on first use (imports httpx lazily)."""
        if self._client is None:
            if self.profile is None:
                raise RuntimeError("no profile is configured")
            from svctui.connect import open_client

            # The tasks screen shows its own deprecation notice; don't let the client warn on stderr too.
            self._client = open_client(self.profile, on_deprecation=self._note_deprecation)
        return self._client

    def _note_deprecation(self, notice: str) -> None:
        """Log the client's deprecation notice (the screen that uses the endpoint shows it visibly)."""
        self.log.warning(notice)

    async def close_client(self) -> None:
        """Close the connection pool (on exit or profile switch)."""
        client, self._client = self._client, None
        if client is not None:
            self._requests_before += client.requests_sent
            await client.aclose()

    async def on_unmount(self) -> None:
        """Close the client."""
        await self.close_client()

    @work(exclusive=True, group="probe", exit_on_error=False)
    async def probe(self) -> None:
        """Ask the server its edition for the header; a failure is shown there, never raised."""
        from svctui.tui.widgets.state_panel import StateKind, error_view

        generation = self.generation
        try:
            info = await (await self.api_client()).probe()
        except Exception as exc:  # shown in the header; the screens show their own errors
            view = error_view(exc)
            if view.kind is StateKind.AUTH_FAILURE:
                problem = f"auth failed ({view.status})" if view.status else "auth failed"
            else:
                problem = f"HTTP {view.status}" if view.status is not None else view.title.lower()
            if generation == self.generation:
                self.header_info = HeaderInfo(self.header_info.profile, self.header_info.server, None, problem)
            return
        if generation == self.generation:
            self.header_info = HeaderInfo(self.header_info.profile, self.header_info.server, info.edition)

    async def switch_profile(self, profile: Profile) -> None:
        """Talk to another profile from now on; screens reset and reload."""
        await self.close_client()
        self.profile = profile
        self.generation += 1
        self.server_label = None
        self.header_info = HeaderInfo(profile.name, profile.base_url)
        if self.current_mode not in {entry.name for entry in SCREENS}:
            await self.switch_mode(SCREENS[0].name)
        reload = getattr(self.screen, "reload_if_stale", None)
        if callable(reload):
            reload()
        self.probe()
        self.notify(f"Now using profile {profile.name} ({profile.base_url}).", markup=False)

    def start_demo(self) -> None:
        """Start the embedded demo server (first-run screen) and switch to it; the start runs in a thread."""
        if self.demo_profile_factory is None:
            self.notify("The demo server is not available here.", severity="error")
            return
        self.notify("Starting the demo server…", timeout=3)
        self._start_demo(self.demo_profile_factory)

    @work(thread=True, exclusive=True, group="demo", exit_on_error=False)
    def _start_demo(self, factory: Callable[[], Profile]) -> None:
        try:
            profile = factory()
        except Exception as exc:  # the demo could not start: say so, keep the first-run screen
            self.call_from_thread(self._demo_failed, exc)
            return
        self.call_from_thread(self.call_later, self.switch_profile, profile)

    def _demo_failed(self, exc: Exception) -> None:
        from svctui.tui.screens.first_run import FirstRunScreen

        self.notify(f"The demo server did not start: {exc}", severity="error", markup=False)
        self.push_screen(FirstRunScreen())

    # ----- actions ----------------------------------------------------------------------------------------
    def action_switch_screen_tab(self, name: str) -> None:
        """Show the screen registered as `name` (keys 1, 2, ...)."""
        if self.profile is None:
            self.notify("Add a profile or start the demo first.", severity="warning")
            return
        if name in self._modes and self.current_mode != name:
            self.switch_mode(name)

    def action_help(self) -> None:
        """Show every key of the current screen."""
        from svctui.tui.screens.help import HelpScreen, collect_keys

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        self.push_screen(HelpScreen(collect_keys(self, self.screen), getattr(self.screen, "NOUN", "")))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands (theme, quit, keys) plus the dashboard's (profile, refresh, export, ...)."""
        from svctui.tui.palette import dashboard_commands

        for command in super().get_system_commands(screen):
            if command.title not in ("Screenshot", "Theme", "Keys"):  # ours: Save screenshot, Change theme, ?
                yield command
        yield SystemCommand(
            "Change theme", "Pick a theme (svctui-dusk, svctui-paper, Textual's)", self.action_change_theme
        )
        yield from dashboard_commands(self, screen)


def run_dashboard(profile_name: str | None, demo: bool) -> int:
    """Open the dashboard (CLI entry point); with `demo`, against a throwaway embedded demo server."""
    from svctui.tui.launch import launch

    return launch(SvcTuiApp, profile_name, demo)
