"""SvcTuiApp: the dashboard shell (screens as modes, header info, themes, keymap, palette); svctui.tui.launch runs it.

Screens are registered in SCREENS below — one line each (mode name, key, title, "module:Class"); modules are
imported only when their screen is first shown, so the first frame is fast. httpx and the API client are
imported lazily inside workers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual import events, on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.notifications import Notify, SeverityLevel
from textual.reactive import var
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget

from svctui.clock import Clock, make_clock
from svctui.tui.client_names import ClientNames
from svctui.tui.key_hold import KeyHold
from svctui.tui.live import LiveRefresh
from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads
from svctui.tui.navigation import FollowsProfile, HasHelp, HasZoom, ShowsEvent, ShowsRuns
from svctui.tui.textual_internals import styled_with_current_css
from svctui.tui.widgets.app_header import HeaderInfo, Tab
from svctui.visible import visible

if TYPE_CHECKING:
    from textual.widget import AwaitMount

    from svctui.api.client import ApiClient, ServerInfo
    from svctui.api.limits import TaskEndpoint
    from svctui.store.model import Profile
    from svctui.store.settings import Settings

PROCESS_START = time.perf_counter()
PROBE: Channel[ServerInfo] = Channel("probe")  # the server's edition, for the header
THEME: Channel[Settings] = Channel("theme")  # the settings with the theme chosen, once written
DEMO: Channel[Profile] = Channel("demo")  # the started demo server's profile
TOAST_RACK = "#textual-toastrack"  # the id Textual gives every screen's toast rack
TOAST_HOLDERS = "ToastRack > ToastHolder"  # a toast each, oldest first (ToastRack mounts them in that order)
THEME_SAVE_DELAY = 0.5  # seconds without another theme change before the choice is written
# Textual's palette commands in the dashboard's words (a screen without `z`: the selectors' and Clients' tables)
FULL_SCREEN_WORDS = {
    "Maximize": ("Full screen", "The focused table or pane takes the whole screen (esc brings the rest back)"),
    "Minimize": ("Back from full screen", "The other panes again (esc does it too)"),
}
SETTINGS_PROBLEM_SECONDS = 20  # a problem in settings.toml said at start-up: long enough to read before it goes
SMALL_SCREEN_ROWS = 30  # below this many rows, toasts stacked over the table hide most of it (issue 28)
TOASTS_ON_SMALL_SCREEN = 2  # at most this many on show there: a newer one takes the oldest's place


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
    ScreenEntry("clients", "4", "Clients", "svctui.tui.screens.clients:ClientsScreen"),
]


def load_screen(target: str) -> Callable[[], Screen[None]]:
    """A factory that imports `module:Class` on first use and builds the screen."""

    def build() -> Screen[None]:
        module_name, _, class_name = target.partition(":")
        screen_class: type[Screen[None]] = getattr(import_module(module_name), class_name)
        screen = screen_class()
        styled_with_current_css(screen)  # no second parse of every stylesheet before the first frame
        return screen

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


class SvcTuiApp(App[int]):
    """The svctui dashboard."""

    TITLE = "svctui"
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: a subclass elsewhere (the tests') finds it too
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
        refresh_seconds: int | None = None,
        read_only: bool = False,
    ) -> None:
        super().__init__()
        self.profile = profile
        self.settings = settings
        self.read_only_flag = read_only  # `svctui --read-only` (read_only_why names it, not SVCTUI_READ_ONLY)
        default_clock, frozen = make_clock()
        self.clock: Clock = clock or default_clock
        self.frozen = frozen or clock is not None
        self.demo_profile_factory = demo_profile_factory
        self.startup_notes = tuple(startup_notes)
        self.tabs = [Tab(entry.name, entry.key, entry.title) for entry in SCREENS]
        self.generation = 0
        self.startup_ms: float | None = None
        # toast -> when it leaves the screen (the same toast is not raised twice meanwhile)
        self._toasts_shown: dict[tuple[str, str, str], float] = {}
        self.back_mode = ""  # the screen esc returns to from one opened from it (Clients' enter on a client's runs)
        self._client: ApiClient | None = None
        self._probe_after_first_page = False
        self.quit_refusals: dict[object, str] = {}  # a deletion or restore run in progress -> why not quit now
        self.quit_warnings: dict[object, Callable[[], str | None]] = {}  # what a quit would lose (marks), asked first
        self._quit_warned: str | None = None  # the warning the last q showed: the next q with the same one quits
        self.page_size = settings.page_size if settings is not None else 100
        self.server_label = server_label
        self._theme_timer: Timer | None = None
        self._theme_before_picker: str | None = None  # set while "Change theme" is open: esc goes back to it
        self.theme_descriptions: dict[str, str] = {}  # what each theme file says its theme is (the picker shows it)
        self.loads = Loads(self)
        self.key_hold = KeyHold(self, self._deliver_key)  # keys behind a key that opens a box go into the box
        self.client_names = ClientNames()  # per profile: from GET /api/v2/clients, the tasks seen, the cache
        configured = settings.refresh_seconds if settings is not None else 0
        self.live = LiveRefresh(self, configured if refresh_seconds is None else refresh_seconds)
        self.at_hangup: list[Callable[[], None]] = []  # run as the terminal hangs up, before the exit (hung_up)
        self.demo_stop = ""  # why the demo server of `svctui --demo` stopped on its own, once it has
        # the running demo server's profile (`--demo`, or started from the first-run screen): the profile picker
        # offers it after a switch to another, until it stops
        self.demo_profile: Profile | None = None
        if profile is not None:
            from svctui.store.model import DEMO_PROFILE  # loaded already: the profile is one

            self.demo_profile = profile if profile.name == DEMO_PROFILE else None
        self._demo_url = ""  # the stopped demo server's base URL: a client for it sends nothing
        if profile is not None:
            self.header_info = HeaderInfo(profile.name, server_label or profile.base_url)

    # ----- start-up ---------------------------------------------------------------------------------------
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a toast whose text (a server's message, a name) shows its control characters rather than obeying
        them, unless the same toast is still on show (a burst of one key stacked eight alike); every notify (a
        screen's, a widget's) ends here. Never read as markup, whatever `markup` says (a widget's notify passes
        True): a name holding `[/x]` raised MarkupError, `[@click=…]` made it a link running an action."""
        del markup
        now = time.monotonic()
        self._toasts_shown = {key: until for key, until in self._toasts_shown.items() if until > now}
        key = (message, title, severity)
        if key in self._toasts_shown:
            return
        timeout = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        if title and isinstance(self.screen, ModalScreen):  # one line in the dialog's last row: the title leads it
            message, title = f"{title}: {message}", ""
        self._toasts_shown[key] = now + timeout
        super().notify(
            visible(message, lines=True), title=visible(title), severity=severity, timeout=timeout, markup=False
        )

    def on_notify(self, _message: Notify) -> None:
        """A toast is added (App._on_notify adds it and has the rack show it next): on a small terminal only the
        newest few stay, so that a burst of keys (`i`, `q`, `ctrl+u`) does not cover the table."""
        if self.size.height < SMALL_SCREEN_ROWS:
            self.call_later(self._fewer_toasts)  # after the rack mounted the new toast

    def _fewer_toasts(self) -> None:
        """Hide all but the newest TOASTS_ON_SMALL_SCREEN toasts of the screen's rack (each leaves at its timeout,
        or at a click, as a shown one does); a toast hidden may show again at once."""
        if self.size.height >= SMALL_SCREEN_ROWS:
            return
        shown = [holder for holder in self.screen.query(TOAST_HOLDERS) if holder.display]
        hidden = shown[: max(0, len(shown) - TOASTS_ON_SMALL_SCREEN)]
        for holder in hidden:
            holder.display = False
        if hidden:  # forget all but the newest few: the same text raised again shows again
            newest = list(self._toasts_shown.items())[-TOASTS_ON_SMALL_SCREEN:]
            self._toasts_shown = dict(newest)

    def _toasts_for_a_dialog(self, screen: Screen[Any]) -> None:
        """A dialog (modal screen) on top: the toasts raised before it are done with (a `Counting…` stayed around
        `Mark 392 selectors?`), and those of the screens below must not show through its dimmed backdrop; its own
        keep to its last row (app.tcss). The screen below shows its toasts again when it resumes (Textual)."""
        if not isinstance(screen, ModalScreen):
            return
        self.clear_notifications()
        for below in self.screen_stack[:-1]:
            for rack in below.query(TOAST_RACK):
                rack.display = False

    def withdraw_toast(self, message: str, *, severity: SeverityLevel = "information") -> None:
        """Take the toast saying `message` off the screen (what it said no longer holds); raised again, it shows.
        Its holder is hidden, as `_fewer_toasts` does (Textual takes a single toast away only on a click), until
        its timeout removes it."""
        self._toasts_shown.pop((message, "", severity), None)
        text = visible(message, lines=True)
        for screen in self.screen_stack:
            for holder in screen.query(TOAST_HOLDERS):
                if any(text in str(toast.render()) for toast in holder.query("Toast")):
                    holder.display = False

    def clear_notifications(self) -> None:
        """Take every toast off the screen; the next of each shows again."""
        self._toasts_shown.clear()
        super().clear_notifications()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """App variables usable in TCSS (`$status-failed`, `$mark`, ...) with their defaults."""
        from svctui.tui.theme import APP_VARIABLE_DEFAULTS

        return dict(APP_VARIABLE_DEFAULTS)

    async def on_event(self, event: events.Event) -> None:
        """A key typed behind one that opens a box waits for the box (`KeyHold`); everything else as Textual does."""
        if isinstance(event, events.Key) and not event.is_forwarded and self.key_hold.take(event):
            return
        await super().on_event(event)

    async def _deliver_key(self, event: events.Key) -> None:
        await super().on_event(event)

    def on_mount(self) -> None:
        """Themes, keymap, then the first screen (or the first-run screen)."""
        self._apply_themes()
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.theme_changed_signal.subscribe(self, lambda _theme: self.call_after_refresh(self.redraw_scrollbar_corners))
        # every way to another screen (a number key, enter on Clients, `t`/`E` between events and runs, the palette,
        # a modal closing) publishes a screen change: the screen shown may have missed a theme change while hidden
        self.screen_change_signal.subscribe(
            self, lambda _screen: self.call_after_refresh(self.redraw_scrollbar_corners)
        )
        self.screen_change_signal.subscribe(self, self._toasts_for_a_dialog, immediate=True)
        # the screen shown mounts every toast still due in its own rack: the ones hidden on the last stay hidden
        self.screen_change_signal.subscribe(self, lambda _screen: self.call_after_refresh(self._fewer_toasts))
        self.live.start()
        if not self.is_headless:
            from svctui.tui.hangup import watch_terminal

            # an SSH session or tmux server gone: exit, not spin on the dead terminal
            watch_terminal(self, self.hung_up)
        if self.settings is not None and self.settings.keymap:
            self.set_keymap(self.settings.keymap)
            from svctui.tui.keymap import keymap_problems

            problems = keymap_problems(self.settings.keymap)
            if problems:
                self.notify(
                    "\n".join(problems),
                    title="Keymap in settings.toml",
                    severity="warning",
                    markup=False,
                    timeout=SETTINGS_PROBLEM_SECONDS,
                )
        for note in self.startup_notes:
            self.notify(note, severity="warning", timeout=SETTINGS_PROBLEM_SECONDS)
        if self.profile is None:
            self.open_first_run()
        else:
            self._probe_after_first_page = True  # see first_page_settled
            self.switch_mode(SCREENS[0].name)
            self.tell_interrupted_run(self.profile.base_url)

    def hung_up(self) -> None:
        """The terminal hung up: `at_hangup` runs now, not after an exit that may take seconds (svctui.tui.hangup)."""
        for hook in self.at_hangup:
            hook()

    @work(thread=True, exclusive=True, group="interrupted-run")
    def tell_interrupted_run(self, server: str) -> None:
        """At start, on whatever screen opens: a deletion run of this server left interrupted is said, with the key
        that offers its resume (reading the audit log is file work: a thread)."""
        from svctui.ops.interrupted import interrupted_notice, interrupted_run

        try:
            run = interrupted_run(server)
        except Exception:  # an unreadable log is the Audit tab's to say; the start goes on
            return
        if run is not None:
            notice = interrupted_notice(run, "3")
            self.call_from_thread(self.notify, notice, severity="warning", timeout=12, markup=False)

    def on_ready(self) -> None:
        """Log how long the first frame took (since the process started, and since this module was imported)."""
        self.startup_ms = (time.perf_counter() - PROCESS_START) * 1000
        since_exec = process_age_ms()
        self.log.info(f"svctui first frame: {since_exec or 0:.0f} ms after exec, {self.startup_ms:.0f} ms after import")
        if os.environ.get("SVCTUI_STARTUP_LOG"):
            with open(os.environ["SVCTUI_STARTUP_LOG"], "a", encoding="utf-8") as log:
                log.write(f"first-frame-ms since-exec={since_exec or 0:.0f} since-import={self.startup_ms:.0f}\n")

    def _apply_themes(self) -> None:
        from svctui.tui.theme import DEFAULT_THEME, load_themes, pick_theme, shipped_themes_dir, user_themes_dir

        loaded = load_themes([shipped_themes_dir(), user_themes_dir()])
        self.theme_descriptions = dict(loaded.descriptions)
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
            self.notify(problem, title="Themes", severity="warning", markup=False, timeout=SETTINGS_PROBLEM_SECONDS)

    def action_change_theme(self) -> None:
        """The theme picker: the highlighted theme is previewed, enter keeps (and saves) it, esc goes back."""
        from svctui.tui.palette import ThemePickerProvider

        self._theme_before_picker = self.theme
        self.push_screen(CommandPalette(providers=[ThemePickerProvider], placeholder="Search for themes…"))

    @on(CommandPalette.OptionHighlighted)
    def _preview_theme(self, message: CommandPalette.OptionHighlighted) -> None:
        """While the theme picker is open, the theme under its cursor is applied at once (a preview)."""
        if self._theme_before_picker is None:
            return
        hit = getattr(message.highlighted_event.option, "hit", None)
        name = getattr(hit, "text", None)
        if isinstance(name, str) and name in self.available_themes:
            self.theme = name

    @on(CommandPalette.Closed)
    def _theme_picker_closed(self, message: CommandPalette.Closed) -> None:
        """Esc (or a click outside) restores the theme from before the picker; enter keeps the chosen one."""
        before = self._theme_before_picker
        if before is None:
            return
        if message.option_selected:
            self.call_later(self._keep_picked_theme)  # after the picked command has set the theme
            return
        self.theme = before
        self.call_next(self._end_theme_picker)  # after the restored theme's change signal (ignored as a preview)

    def _end_theme_picker(self) -> None:
        self._theme_before_picker = None

    def _keep_picked_theme(self) -> None:
        self._theme_before_picker = None
        if self.settings is None or self.settings.theme != self.theme:
            self._save_theme(self.theme)

    def _remember_theme(self, theme: object) -> None:
        """A theme set outside the picker is kept for the next start (written by a worker thread, once the choice
        has settled); the picker's previews are not saved, its choice is saved on enter."""
        if self._theme_before_picker is not None:
            return
        name = getattr(theme, "name", "")
        if self._theme_timer is not None:
            self._theme_timer.stop()
            self._theme_timer = None
        if name and (self.settings is None or self.settings.theme != name):
            self._theme_timer = self.set_timer(THEME_SAVE_DELAY, lambda: self._save_theme(name))

    def _save_theme(self, name: str) -> None:
        def save() -> Settings:
            from svctui.store.settings import load_settings, save_settings

            settings = load_settings().model_copy(update={"theme": name})
            save_settings(settings)
            return settings

        self.loads.start_in_thread(THEME, save)

    # ----- the connection ---------------------------------------------------------------------------------
    def client_name(self, client_id: str) -> str:
        """A collection client's name as the current profile knows it ("" when unknown)."""
        return self.client_names.get(self.profile.name, client_id) if self.profile is not None else ""

    async def api_client(self) -> ApiClient:
        """The API client of the current profile, opened on first use (imports httpx lazily)."""
        if self._client is None:
            if self.profile is None:
                raise RuntimeError("no profile is configured")
            from svctui.connect import open_client

            # The tasks screen shows its own deprecation notice; don't let the client warn on stderr too.
            self._client = open_client(self.profile, on_deprecation=self._note_deprecation)
            if self.demo_stopped:
                self._client.refuse(self.demo_stopped)
        return self._client

    @property
    def client_if_open(self) -> ApiClient | None:
        """The current profile's API client once opened (what it learnt of the server: `task_endpoint`), else None."""
        return self._client

    def _note_deprecation(self, notice: str) -> None:
        """Log the client's deprecation notice (the screen that uses the endpoint shows it visibly)."""
        self.log.warning(notice)

    async def close_client(self) -> None:
        """Close the connection pool (on exit or profile switch)."""
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    async def on_unmount(self) -> None:
        """Close the client."""
        await self.close_client()

    # ----- cross-screen calls: the tab shown, then its screen told what to show ----------------------------------
    async def switch_to_current(self, mode: str) -> None:
        """Show `mode`, its screen already restarted for the profile in use: its own restart (on resume, after a
        profile switch) would otherwise come after what it is told to show, and undo it (the client `o` opened)."""
        await self.switch_mode(mode)
        if isinstance(self.screen, FollowsProfile) and self.screen.is_mounted:
            self.screen.reload_if_stale()

    async def show_event(self, event_id: int) -> None:
        """The Events tab, filtered to this event, its detail open when it arrives."""
        await self.switch_to_current("events")
        if isinstance(self.screen, ShowsEvent):
            self.screen.show_event(event_id)

    async def show_event_runs(self, client_id: str, event_id: int) -> None:
        """The Completed tasks tab: this client's runs of this event."""
        await self.switch_to_current("tasks")
        if isinstance(self.screen, ShowsRuns):
            self.screen.show_event_runs(client_id, event_id)

    def first_page_settled(self) -> None:
        """The first screen's first page is on screen (or failed, or cannot be asked): ask the server's edition for
        the header now, once, so that its answer, parse and header redraw come after the first page's rows."""
        if self._probe_after_first_page:
            self._probe_after_first_page = False
            self.call_after_refresh(self.probe)

    def probe(self) -> None:
        """Ask the server its edition for the header (in a worker); a failure is shown there, never raised."""

        async def edition() -> ServerInfo:
            return await (await self.api_client()).probe()

        self.loads.start(PROBE, edition)

    def probe_if_troubled(self) -> None:
        """Ask again when the header shows a problem (`cannot reach the server`, `HTTP 502`): a screen calls it as it
        loads, so the header recovers with the server, on every screen (the next load that succeeds)."""
        if self.header_info.problem:
            self.probe()

    @on(Loaded)
    def _loaded(self, message: Loaded[object]) -> None:
        """The app's own loads: the edition, a saved theme, a started demo server."""
        if not self.loads.is_current(message):
            return  # e.g. a probe of the profile used before
        if PROBE.answers(message):
            self.header_info = HeaderInfo(self.header_info.profile, self.header_info.server, message.value.edition)
        elif THEME.answers(message):
            self.settings = message.value
        elif DEMO.answers(message):
            self.demo_profile = message.value
            self.call_later(self.switch_profile, message.value)

    @on(LoadFailed)
    def _load_failed(self, message: LoadFailed) -> None:
        if not self.loads.is_current(message):
            return
        if message.channel is PROBE:
            from svctui.tui.widgets.state_panel import error_view

            if not self.note_failure(message.error):
                view = error_view(message.error)  # the probe itself was refused: say how
                problem = f"HTTP {view.status}" if view.status is not None else view.title.lower()
                self.header_info = HeaderInfo(self.header_info.profile, self.header_info.server, None, problem)
        elif message.channel is THEME:
            self.notify(f"Could not keep the theme: {message.error}", severity="warning", markup=False)
        elif message.channel is DEMO:
            self._demo_failed(message.error)

    def note_failure(self, error: BaseException) -> bool:
        """Show in the header what a failed request says about the server (gone, not the API, auth); True if it did.

        The edition stays when the server still answered (an answer that is not the API's, a 5xx); it goes when
        nothing answered. The next load asks for the edition again (`ListScreen.load` probes while a problem shows).
        """
        from svctui.tui.widgets.state_panel import header_problem

        found = header_problem(error)
        if found is None:
            return False
        problem, keeps_edition = found
        info = self.header_info
        self.header_info = HeaderInfo(info.profile, info.server, info.edition if keeps_edition else None, problem)
        return True

    async def switch_profile(self, profile: Profile) -> None:
        """Talk to another profile from now on; screens reset and reload."""
        await self.close_client()
        self.profile = profile
        self.generation += 1
        self.live.failures.clear()  # another server's runs
        self.server_label = None
        self.header_info = HeaderInfo(profile.name, profile.base_url)
        if self.current_mode not in {entry.name for entry in SCREENS}:
            await self.switch_mode(SCREENS[0].name)
        if isinstance(self.screen, FollowsProfile):
            self.screen.reload_if_stale()
        self.probe()
        self.notify(f"Now using profile {profile.name} ({profile.base_url}).", markup=False)

    def start_demo(self) -> None:
        """Start the embedded demo server (first-run screen) and switch to it; the start runs in a thread."""
        if self.demo_profile_factory is None:
            self.notify("The demo server is not available here.", severity="error")
            return
        self.notify("Starting the demo server…", timeout=3)
        self.loads.start_in_thread(DEMO, self.demo_profile_factory)

    @property
    def demo_stopped(self) -> str:
        """Why the demo server stopped on its own while the profile in use talks to it ("" while it runs, with no
        demo, or on another profile's server: that one's failures are its own)."""
        on_demo = self.profile is not None and self.profile.base_url == self._demo_url
        return self.demo_stop if on_demo else ""

    def demo_server_stopped(self, message: str) -> None:
        """The demo server's process ended on its own (`The demo server stopped (killed by signal 9)`): a toast now,
        and every error panel from then on says it and what helps (`r` cannot bring it back)."""
        self.demo_stop = message
        demo = self.demo_profile or self.profile  # the demo's, whichever profile is in use now
        self._demo_url = demo.base_url if demo is not None else ""
        if self._client is not None and self.demo_stopped:
            self._client.refuse(message)  # nothing more to its port: another process may take it (a 401, or worse)
        self.notify(message, title="Demo server", severity="error", timeout=30, markup=False)

    def _demo_failed(self, exc: BaseException) -> None:
        self.notify(f"The demo server did not start: {exc}", severity="error", markup=False)
        self.open_first_run()

    def open_first_run(self) -> None:
        """The first-run screen: the profile it saves, or the demo it chooses, opens the dashboard."""
        from svctui.tui.screens.first_run import FirstRunScreen

        def chosen(choice: Profile | Literal["demo"] | None) -> None:
            if isinstance(choice, str):
                self.start_demo()
            elif choice is not None:
                self.call_later(self.switch_profile, choice)

        self.push_screen(FirstRunScreen(), chosen)

    async def open_client_runs(
        self, client_id: str, endpoint: TaskEndpoint | None = None, *, back: str = "", run_id: int | None = None
    ) -> None:
        """Every completed task of `client_id` (from `endpoint` when given; filters from before cleared), the cursor
        on run `run_id` (the one behind a verdict) when given; with `back`, esc there (nothing else left to close)
        returns to that screen, once."""
        await self.switch_to_current("tasks")
        if isinstance(self.screen, ShowsRuns):
            self.screen.open_client(client_id, endpoint=endpoint, run_id=run_id)
        self.back_mode = back

    def go_back(self) -> bool:
        """esc with nothing left to close: back to the screen this one was opened from (False when none)."""
        mode, self.back_mode = self.back_mode, ""
        if not mode or mode == self.current_mode or mode not in self.MODES:
            return False
        self.switch_mode(mode)
        return True

    # ----- actions ----------------------------------------------------------------------------------------
    def action_switch_screen_tab(self, name: str) -> None:
        """Show the screen registered as `name` (keys 1, 2, ...)."""
        if self.profile is None:
            self.notify("Add a profile or start the demo first.", severity="warning")
            return
        self.back_mode = ""  # a screen chosen by its key: esc no longer goes back to where an earlier jump came from
        if name in self.MODES and self.current_mode != name:
            self.switch_mode(name)

    def redraw_scrollbar_corners(self) -> None:
        """Redraw the scrollbar corners of the screens on show. Textual paints a corner (the cell where a widget's
        two scrollbars meet) in its parent's colour but never repaints it when the theme changes, as it is outside
        the DOM the stylesheet updates: a table with both scrollbars kept the old theme's colour in that cell."""
        for screen in self.screen_stack:
            for widget in screen.query(Widget):
                if widget.show_horizontal_scrollbar and widget.show_vertical_scrollbar:
                    widget.scrollbar_corner.refresh()

    def refuse_quit_while(self, holder: object, reason: str | None) -> None:
        """While `holder` (a run that must write its end line) gives a reason, quitting is refused with it; None
        lifts the refusal. Every way out meets the one guard (`_quit_unless_refused`): q, ctrl+q and the palette's Quit
        through action_quit, ctrl+c through action_help_quit."""
        if reason is None:
            lifted = self.quit_refusals.pop(holder, None)
            if lifted is not None:  # the run ended: its refusal must not stay on show next to its result
                self.withdraw_toast(lifted, severity="warning")
        else:
            self.quit_refusals[holder] = reason

    async def action_quit(self) -> None:
        """Quit, unless a deletion or restore run is going (quitting would leave it without its end line)."""
        self._quit_unless_refused()

    def warn_on_quit(self, holder: object, warning: Callable[[], str | None]) -> None:
        """Before quitting, `warning()` may say what would be lost (`3 marked selectors are forgotten`): the first
        q says it and the next one quits — unless what it warns about changed in between (`quit_warning_stale`)."""
        self.quit_warnings[holder] = warning

    def switch_mode(self, mode: str) -> AwaitMount:
        """Another screen shown: a quit warning given before is asked again. The marks it warned about are out of
        sight there, and `3`, `4`, `q` quit as if the warning had been answered (issue 28)."""
        if mode != self.current_mode:
            self.quit_warning_stale()
        return super().switch_mode(mode)

    def quit_warning_stale(self) -> None:
        """What a quit would lose has changed (marks added or cleared): the next q asks again, even for the same
        count."""
        self._quit_warned = None

    def _quit_unless_refused(self) -> None:
        if self.quit_refusals:
            self.notify(next(iter(self.quit_refusals.values())), severity="warning", markup=False)
            return
        warning = next((text for text in (ask() for ask in self.quit_warnings.values()) if text), None)
        if warning is not None and warning != self._quit_warned:
            self._quit_warned = warning
            self.notify(f"{warning}: q again to quit.", severity="warning", markup=False)
            return
        self.exit()

    def action_help_quit(self) -> None:
        """`ctrl+c` quits like `q` (Textual's default only says which key quits); the same guard applies."""
        self._quit_unless_refused()

    def action_help(self) -> None:
        """Show every key of the current screen."""
        from svctui.tui.screens.help import HelpScreen, collect_keys

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        screen = self.screen
        noun, legend = (screen.help_noun(), screen.help_legend()) if isinstance(screen, HasHelp) else ("", [])
        self.push_screen(HelpScreen(collect_keys(self, screen), noun, legend))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands (theme, quit, keys) plus the dashboard's (profile, refresh, export, ...)."""
        from svctui.tui.palette import dashboard_commands

        for command in super().get_system_commands(screen):
            if command.title in ("Screenshot", "Theme", "Keys"):  # ours: Save screenshot, Change theme, ?
                continue
            if command.title in FULL_SCREEN_WORDS:  # where `z` zooms (list_commands' Zoom), Textual's is not offered
                if not isinstance(screen, HasZoom):
                    yield SystemCommand(*FULL_SCREEN_WORDS[command.title], command.callback)
                continue
            yield command
        yield SystemCommand(
            "Change theme", "Preview as the cursor moves; enter keeps, esc goes back", self.action_change_theme
        )
        yield from dashboard_commands(self, screen)
