"""Command-palette commands of the dashboard: switch profile, refresh, live refresh, hydration, sort, export,
screenshot, theme (previewed live)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, runtime_checkable

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.theme import Theme, ThemeProvider
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from svctui.api.filters import SortKey
from svctui.text import plural
from svctui.tui.app_shape import DescribesThemes, NamesClients
from svctui.tui.theme import describe_theme
from svctui.visible import json_safe

if TYPE_CHECKING:
    from svctui.store.model import Profile
    from svctui.store.settings import Settings
    from svctui.tui.app import SvcTuiApp
    from svctui.tui.screens.list_screen import ListScreen


OWN_THEME_PREFIX = "svctui-"  # the themes svctui ships (svctui/themes/*.toml) are named so


def theme_order(name: str, current: str) -> tuple[int, str]:
    """Picker order: the current theme, then svctui's own themes, then Textual's and the user's, each by name."""
    return (0 if name == current else 1 if name.startswith(OWN_THEME_PREFIX) else 2, name)


def theme_help(theme: Theme, current: str, described: Mapping[str, str]) -> str:
    """The picker's second line: what the theme is (`dark, high contrast: …`, `light, Solarized`), and whether it
    is the current one."""
    what = describe_theme(theme, described)
    return f"the current theme: {what}" if theme.name == current else what


class ThemePickerProvider(ThemeProvider):
    """Textual's theme list with the current theme first (opening the picker highlights, so previews, it), then
    svctui's own themes, then the rest; each says what it is."""

    async def discover(self) -> Hits:
        """Every theme: the current one, svctui's, the others; each by name, with what it is."""
        app = self.app
        current, themes = app.theme, app.available_themes
        described: Mapping[str, str] = app.theme_descriptions if isinstance(app, DescribesThemes) else {}
        for name, callback in sorted(self.commands, key=lambda command: theme_order(command[0], current)):
            theme = themes.get(name)
            yield DiscoveryHit(name, callback, help=theme_help(theme, current, described) if theme else None)

    async def search(self, query: str) -> Hits:
        """The themes whose name matches `query`, each still saying what it is (Textual's dropped the line)."""
        app, matcher = self.app, self.matcher(query)
        described: Mapping[str, str] = app.theme_descriptions if isinstance(app, DescribesThemes) else {}
        for name, callback in self.commands:
            theme = app.available_themes.get(name)
            if (match := matcher.match(name)) > 0:
                what = theme_help(theme, app.theme, described) if theme else None
                yield Hit(match, matcher.highlight(name), callback, help=what)


def export_dir(settings: Settings | None = None) -> Path:
    """Where exports and screenshots go: `export_dir` of the settings, else `exports/` in the data dir (never the
    current directory, which under `make demo` is the repository); created when missing (0700: an export holds the
    server's data), OSError when it cannot be. Always an absolute path."""
    if settings is not None and settings.export_dir.strip():
        target = Path(settings.export_dir.strip()).expanduser()
        target.mkdir(parents=True, exist_ok=True)
        return target.resolve()
    from svctui.store.paths import default_export_dir, ensure_private_dir

    return ensure_private_dir(default_export_dir()).resolve()


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def export_records(screen: ListScreen[Any]) -> tuple[list[Any], bool]:
    """What an export writes: the marked rows (from every page) when there are marks, else the page on screen;
    and whether they are the marked ones."""
    marked = screen.marked_records()
    return (list(marked), True) if marked else (screen.table.items, False)


def export_view(screen: ListScreen[Any], fmt: str, directory: Path | None = None) -> Path:
    """Write the marked rows (else the rows on screen) as CSV (data: the columns of `svctui <list> -o csv`, values
    whole, times ISO-8601 UTC, control characters shown) or JSON (the full records) in `directory` (default:
    export_dir()), atomically and 0600; returns the absolute path."""
    from svctui.tui.export_file import csv_of_records, model_of, write_export

    chosen, _ = export_records(screen)
    target = (directory or export_dir()).resolve() / f"svctui-{screen.SPEC.name.replace(' ', '-')}-{_stamp()}.{fmt}"
    if fmt == "csv":
        app = screen.app
        known = app if isinstance(app, NamesClients) else None
        now = known.clock() if known is not None else datetime.now(UTC)
        name_of = known.client_name if known is not None else None
        text = csv_of_records(chosen, now, name_of, model_of(screen.SPEC.name))
        return write_export(target, text)
    records = [item.model_dump(mode="json") if hasattr(item, "model_dump") else item for item in chosen]
    return write_export(target, json_safe(json.dumps(records, indent=2, ensure_ascii=False)) + "\n")


class ProfilePicker(ModalScreen["Profile | None"]):
    """Choose one of the stored profiles, or the demo server of this session while it runs."""

    # enter and the keys that move the list are priority bindings: they act on the app's loop in the order typed. As
    # the list's own, enter became a message queued behind the keys typed after it, which reached the picker on its
    # way out and were lost (a walker: keys ignored after a profile switch; tmux `Down Enter 3 4` in one write)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="profiles.cancel", tooltip="Keep the current profile"),
        Binding("enter", "choose", "Choose", show=False, priority=True, id="profiles.choose", tooltip="Use it"),
        *(
            Binding(key, f"move('{action}')", show=False, priority=True, id=f"profiles.{key}", tooltip=tooltip)
            for key, action, tooltip in (
                ("down", "cursor_down", "Next profile"),
                ("up", "cursor_up", "Previous profile"),
                ("home", "first", "First profile"),
                ("end", "last", "Last profile"),
                ("pagedown", "page_down", "A page of profiles down"),
                ("pageup", "page_up", "A page of profiles up"),
            )
        ),
    ]
    DEFAULT_CSS = """
    ProfilePicker #picker { width: 70; padding: 0 1; }
    ProfilePicker OptionList { height: auto; max-height: 20; }
    """

    def __init__(self, names: list[tuple[str, str]], in_use: str | None = None, demo: Profile | None = None) -> None:
        super().__init__()
        self.demo = demo  # the running demo server's profile (not stored), listed last
        self.names = [*names, (demo.name, demo.base_url)] if demo is not None else names
        self.in_use = in_use

    def compose(self) -> ComposeResult:
        """The list of profiles, the one in use marked `●` (and highlighted)."""
        with Vertical(id="picker", classes="dialog"):
            title = "Switch profile  (enter choose · esc cancel)"
            if self.in_use is not None and self.in_use not in dict(self.names):
                title += f"  · in use: {self.in_use} (not stored)"
            yield Static(title, classes="dialog-title", markup=False)
            options = OptionList(*(Option(self.label(name, url), id=name) for name, url in self.names))
            stored = [name for name, _ in self.names]
            if self.in_use in stored:
                options.highlighted = stored.index(self.in_use)
            yield options

    def label(self, name: str, url: str) -> str:
        """`● name  url  (in use)` for the profile in use, `  name  url` for the others; the demo says what it is."""
        demo = "demo server, not stored" if self.demo is not None and name == self.demo.name else ""
        if name == self.in_use:
            return f"● {name}  {url}  ({'in use, ' + demo if demo else 'in use'})"
        return f"  {name}  {url}" + (f"  ({demo})" if demo else "")

    def action_move(self, action: str) -> None:
        """Move the list's highlight (`cursor_down`, `first`, …), in the order the keys were typed."""
        options = self.query_one(OptionList)
        getattr(options, f"action_{action}")()

    def action_choose(self) -> None:
        """enter: the highlighted profile, chosen before the keys typed after it are read."""
        options = self.query_one(OptionList)
        if options.highlighted is not None:
            self.choose(options.get_option_at_index(options.highlighted).id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click on a profile: chosen."""
        event.stop()
        self.choose(event.option.id)

    def choose(self, name: str | None) -> None:
        """Resolve the chosen profile (with its secret) and return it; the one in use just closes the list."""
        from svctui.store.errors import StoreError
        from svctui.store.profiles import ProfileStore

        if name is None:
            return
        if name == self.in_use:
            self.notify(f"Already using profile {self.in_use}.", markup=False)
            self.dismiss(None)
            return
        if self.demo is not None and name == self.demo.name:
            self.dismiss(self.demo)
            return
        try:
            profile = ProfileStore().resolve(name)
        except StoreError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.dismiss(profile)

    def action_cancel(self) -> None:
        """Close without switching."""
        self.dismiss(None)


def open_profile_picker(app: SvcTuiApp) -> None:
    """List the stored profiles; switching resets the screens."""
    from svctui.store.errors import StoreError
    from svctui.store.profiles import ProfileStore

    try:
        profiles = ProfileStore().load().profiles
    except StoreError as exc:
        app.notify(str(exc), severity="error", markup=False)
        return
    in_use = app.profile.name if app.profile is not None else None
    demo = app.demo_profile if not app.demo_stop else None  # the running demo: back to it after a switch
    if not profiles and (demo is None or demo.name == in_use):
        app.notify("No stored profiles: add one with `svctui profile add NAME ...`.", markup=False)
        return

    def chosen(profile: Profile | None) -> None:
        if profile is not None:
            app.call_later(app.switch_profile, profile)

    app.push_screen(ProfilePicker([(name, p.base_url) for name, p in profiles.items()], in_use, demo), chosen)


def open_profile_editor(app: SvcTuiApp) -> None:
    """The profile in use in the first-run form, to enter its secret again (a wrong one answers 401); saving
    replaces it and reconnects. A demo or environment profile has nothing stored to edit: said so."""
    from svctui.store.errors import StoreError
    from svctui.store.model import DEMO_PROFILE
    from svctui.store.profiles import ProfileStore
    from svctui.tui.screens.first_run import FirstRunScreen

    profile = app.profile
    if profile is None or profile.storage == "env":
        where = "the demo's" if profile is not None and profile.name == DEMO_PROFILE else "from SVCTUI_* variables"
        app.notify(f"The profile in use is {where}: nothing stored to edit.", severity="warning", markup=False)
        return
    try:
        stored = ProfileStore().get(profile.name)
    except StoreError as exc:
        app.notify(str(exc), severity="error", markup=False)
        return

    def saved(choice: Profile | Literal["demo"] | None) -> None:
        if choice is not None and not isinstance(choice, str):  # the profile saved: reconnect with it
            app.call_later(app.switch_profile, choice)

    app.push_screen(FirstRunScreen(editing=stored), saved)


def save_screenshot(app: SvcTuiApp) -> None:
    """Save an SVG of the screen in the export directory and say where (the full path)."""
    try:
        path = app.save_screenshot(path=str(export_dir(app.settings)), filename=f"svctui-{_stamp()}.svg")
    except OSError as exc:
        app.notify(f"Screenshot not saved: {exc.strerror or exc}", severity="error", markup=False)
        return
    app.notify(f"Screenshot saved: {Path(path).resolve()}", markup=False)


@runtime_checkable
class OffersCommands(Protocol):
    """A screen with palette commands of its own (a list screen's refresh, export, sort)."""

    def system_commands(self) -> Iterable[SystemCommand]:
        """The screen's own commands, after the dashboard's."""


def dashboard_commands(app: SvcTuiApp, screen: Screen[Any]) -> Iterable[SystemCommand]:
    """The dashboard's palette commands for `screen`, then the screen's own."""
    yield SystemCommand("Switch profile", "Use another stored profile", lambda: open_profile_picker(app))
    yield SystemCommand(
        "Edit profile",
        "Enter the profile's secret again, or fix its server or token id",
        lambda: open_profile_editor(app),
    )
    where = "export_dir in settings" if app.settings is not None and app.settings.export_dir.strip() else "data dir"
    yield SystemCommand("Save screenshot", f"Save an SVG of this screen ({where})", lambda: save_screenshot(app))
    from svctui.tui.live import Refreshable, age_label

    if isinstance(screen, Refreshable):
        live = app.live
        every = age_label(live.seconds if live.on else live.chosen)
        if live.on:
            said = f"Stop refreshing this list every {every} (now on)"
        else:
            said = f"Refresh this list every {every} (now off)"
        yield SystemCommand("Toggle live refresh", said, live.toggle)
    if isinstance(screen, OffersCommands):
        yield from screen.system_commands()


def list_commands(app: SvcTuiApp, list_screen: ListScreen[Any]) -> Iterable[SystemCommand]:
    """A list screen's palette commands: refresh, export, hydration, sort."""
    spec = list_screen.SPEC
    yield SystemCommand("Refresh", f"Reload this page of {spec.name}", list_screen.action_refresh)
    zoomed = list_screen.maximized is not None
    yield SystemCommand(
        "Zoom",
        "Bring the table back (z)" if zoomed else "The detail pane full screen; z again brings the table back (z)",
        list_screen.action_zoom_detail,
    )

    def export(fmt: str) -> None:
        records, marked = export_records(list_screen)
        try:
            path = export_view(list_screen, fmt, export_dir(app.settings))
        except OSError as exc:
            app.notify(f"Export failed: {exc.strerror or exc}", severity="error", markup=False)
            return
        what = (
            plural(len(records), "marked row") if marked else f"{plural(len(records), 'row')} (this page; none marked)"
        )
        app.notify(f"Exported {what}: {path}", markup=False)

    yield SystemCommand(
        "Export view as CSV", "The marked rows (else the page) as data: every field, ISO times", lambda: export("csv")
    )
    yield SystemCommand(
        "Export view as JSON", "The full records of the marked rows (else the page)", lambda: export("json")
    )
    if spec.hydration:
        yield SystemCommand(
            "Toggle hydration", "Domains and OUs with names (on) or ids only (off)", list_screen.action_toggle_hydration
        )
        yield SystemCommand(
            "Toggle domain hydration",
            "Domain names on or off",
            lambda: list_screen.set_hydration(not list_screen.hydrate_domains, list_screen.hydrate_ous),
        )
        yield SystemCommand(
            "Toggle OU hydration",
            "OU names on or off",
            lambda: list_screen.set_hydration(list_screen.hydrate_domains, not list_screen.hydrate_ous),
        )
    for column in spec.sortable:
        for descending in (False, True):
            arrow = "▼ descending" if descending else "▲ ascending"
            key = SortKey(column, descending)
            yield SystemCommand(
                f"Sort by {column} {arrow}",
                "Replace the sort order with this column",
                lambda key=key: list_screen.set_sort((key,)),
                discover=False,
            )
