"""The panel shown instead of a table: loading, empty, error, enterprise-only, authentication failure, idle.

    panel.show_loading("events")                      # "Loading events…"
    panel.show_empty("No events match these filters", "Press x to clear them, or remove a chip.")
    panel.show_error(exc, noun="events")              # picks error / enterprise-only / auth failure by type
    panel.hide()

Errors never show a traceback: a view is built from the error's status, messages and request id.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field, replace
from enum import StrEnum

from textual.app import ComposeResult
from textual.containers import Center, Vertical
from textual.content import Content
from textual.widgets import Static

from svctui.tui.app_shape import KnowsProfile
from svctui.tui.shown import shown_content


class StateKind(StrEnum):
    """What the panel is showing."""

    HIDDEN = "hidden"
    LOADING = "loading"
    EMPTY = "empty"
    ERROR = "error"
    ENTERPRISE_ONLY = "enterprise-only"
    AUTH_FAILURE = "auth-failure"
    IDLE = "idle"


@dataclass(frozen=True)
class ErrorView:
    """An error, ready for a person: kind, title, detail lines, status and request id."""

    kind: StateKind
    title: str
    lines: tuple[str, ...] = ()
    status: int | None = None
    request_id: str | None = None
    hints: tuple[str, ...] = field(default_factory=tuple)


def _class_names(error: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(error).__mro__}


NOT_THE_API = "The server's answer is not the API's"


def header_problem(error: BaseException) -> tuple[str, bool] | None:
    """What the header says after `error` (and whether the edition it knew still holds), or None to leave it be.

    An answer that is not the API's (a 200 with a proxy page or broken JSON) came from *something*: the edition
    stays. An unreachable server, a timeout or a cut answer leave nothing known: the edition goes. A 4xx about the
    request itself (a bad filter, an unknown client) says nothing about the server.
    """
    view = error_view(error)
    names = _class_names(error)
    if view.title == NOT_THE_API:
        return "answer not the API's", True
    if view.kind is StateKind.AUTH_FAILURE:
        return (f"auth failed ({view.status})" if view.status else "auth failed"), False
    if "ApiConnectionError" in names:
        return view.title.lower(), False
    if view.status is not None and view.status >= 500:
        return f"HTTP {view.status}", True
    return None


EDIT_PROFILE_HINT = "Wrong secret? ctrl+p, then 'Edit profile': enter it again."


def profile_test_command(profile: str | None) -> str:
    """The command that tests a profile's token, naming it (shell-quoted) so it tests the one in use."""
    return "svctui profile test" + (f" {shlex.quote(profile)}" if profile else "")


def error_view(error: BaseException, noun: str = "records", profile: str | None = None) -> ErrorView:
    """Classify an exception (svctui.api.errors or anything else) into what the panel shows.

    `profile` is the name of the profile in use: the authentication hint names it.
    """
    names = _class_names(error)
    status = getattr(error, "status", None)
    status = status if isinstance(status, int) else None
    request_id = getattr(error, "request_id", None)
    request_id = request_id if isinstance(request_id, str) and request_id else None
    messages = getattr(error, "messages", None)
    lines = tuple(str(m) for m in messages) if isinstance(messages, list) and messages else ()
    if not lines:
        user_message = getattr(error, "user_message", None)
        text = user_message() if callable(user_message) else str(error)
        lines = tuple(line for line in str(text or type(error).__name__).splitlines() if line.strip())
    retry = "Press r to retry."
    if "ServerGone" in names:
        return demo_stopped_view(str(error))
    if "EnterpriseOnly" in names:
        return ErrorView(
            StateKind.ENTERPRISE_ONLY,
            f"{noun.capitalize()} are an enterprise feature",
            ("This server is the community edition: it has no such endpoint.",),
            status,
            None,
            ("Completed tasks work on both editions: press 2.",),
        )
    if "NoEnvironmentAccess" in names:  # ETAC: the token works, this user may not read selectors here
        return ErrorView(
            StateKind.ERROR,
            "No access to selectors on this server",
            (*lines, "This user cannot browse selectors here (environment access control); the token works."),
            status,
            request_id,
            ("i still marks typed ids, and ctrl+d deletes them where the server allows it.", retry),
        )
    if "Unauthorized" in names or "Forbidden" in names or status in (401, 403):
        title = "Authentication failed" if status != 403 else "Not allowed"
        return ErrorView(
            StateKind.AUTH_FAILURE,
            title,
            lines,
            status,
            request_id,
            (
                *(() if status == 403 else (EDIT_PROFILE_HINT,)),  # a 403 is a token that works, without the right
                "Switch profile: ctrl+p, then 'Switch profile'.",
                f"Check the token with: {profile_test_command(profile)}",
                retry,
            ),
        )
    if "ResponseCutShort" in names:
        return ErrorView(StateKind.ERROR, "The server's answer was cut short", lines, status, None, (retry,))
    if "ApiTimeout" in names:
        return ErrorView(StateKind.ERROR, "The server did not answer in time", lines, None, None, (retry,))
    if "ApiConnectionError" in names:
        return ErrorView(StateKind.ERROR, "Cannot reach the server", lines, None, None, (retry,))
    if "ResponseShapeError" in names:
        return ErrorView(StateKind.ERROR, NOT_THE_API, lines, None, None, (retry,))  # a 2xx chip would read as success
    if "ResponseTooLarge" in names:
        return ErrorView(StateKind.ERROR, "The server's answer is over the size cap", lines, None, None, (retry,))
    if "ApiError" in names:
        title = f"The server answered {status}" if status is not None else "The request failed"
        if status is not None and 200 <= status < 300:
            return ErrorView(StateKind.ERROR, NOT_THE_API, lines, None, request_id, (retry,))
        return ErrorView(StateKind.ERROR, title, lines, status, request_id, (retry,))
    return ErrorView(StateKind.ERROR, f"Unexpected error ({type(error).__name__})", lines, None, None, (retry,))


DEMO_STOPPED = "The demo server stopped"


def retry_helps(error: BaseException) -> bool:
    """False for a request not sent because its server is gone (the demo's process ended): `r` cannot help."""
    return "ServerGone" not in _class_names(error)


def demo_stopped_view(stopped: str) -> ErrorView:
    """The panel for a request refused because the demo server's process is gone (`r` cannot help: nothing serves
    the port any more)."""
    return ErrorView(
        StateKind.ERROR,
        DEMO_STOPPED,
        (f"{stopped}: nothing answers on its port any more, so r cannot help.",),
        None,
        None,
        ("Quit (q) and start the demo again (`make demo`, or `svctui --demo`): it serves the same data.",),
    )


class StatePanel(Vertical):
    """A centred message in place of the table; `kind` says which state it shows."""

    DEFAULT_CSS = """
    StatePanel { height: 1fr; align: center middle; }
    StatePanel.-hidden { display: none; }
    StatePanel > Center { max-width: 90; }
    StatePanel #state-body { width: auto; max-width: 100%; padding: 1 2; border: round $panel-lighten-2; }
    StatePanel.-error #state-body, StatePanel.-auth-failure #state-body { border: round $error; }
    StatePanel.-enterprise-only #state-body { border: round $warning; }
    StatePanel.-loading #state-body { border: none; color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.kind = StateKind.HIDDEN

    def compose(self) -> ComposeResult:
        """A single centred text block."""
        with Center():
            yield Static(id="state-body")

    def on_mount(self) -> None:
        """Start hidden."""
        self._set_kind(StateKind.HIDDEN)

    def _set_kind(self, kind: StateKind) -> None:
        """Show `kind`. Its own class is not removed and added back: each class change restyles the panel, and
        `hide()` runs with every page applied (~7 ms of that slice of the event loop a restyle)."""
        for old in StateKind:
            if old is not kind:
                self.remove_class(f"-{old.value}")  # a class the panel does not have changes nothing
        self.add_class(f"-{kind.value}")
        self.kind = kind

    def _show(self, kind: StateKind, content: Content) -> None:
        self.query_one("#state-body", Static).update(shown_content(content))  # a server's words: shown, not obeyed
        self._set_kind(kind)

    def show_loading(self, noun: str, where: str = "") -> None:
        """`Loading events…` (and from where)."""
        suffix = Content.from_markup(" from [b]$where[/b]", where=where) if where else Content("")
        self._show(StateKind.LOADING, Content.from_markup("Loading $noun…", noun=noun) + suffix)

    def show_empty(self, message: str, hint: str = "") -> None:
        """An empty result with a hint on how to widen it."""
        content = Content.from_markup("[b]$message[/b]", message=message)
        if hint:
            content += Content("\n\n") + Content(hint)
        self._show(StateKind.EMPTY, content)

    def show_message(self, title: str, *lines: str) -> None:
        """A neutral message (e.g. what to choose before anything can load)."""
        content = Content.from_markup("[b]$title[/b]", title=title)
        for line in lines:
            content += Content("\n") + Content(line)
        self._show(StateKind.IDLE, content)

    def show_error(self, error: BaseException, *, noun: str = "records", hints: tuple[str, ...] | None = None) -> None:
        """Show an error as error / enterprise-only / auth-failure.

        The authentication hint names the app's profile in use (`svctui profile test NAME`); `hints` replace the
        usual ones (e.g. a record that does not exist: retrying won't help).
        """
        app = self.app if isinstance(self.app, KnowsProfile) else None
        view = error_view(error, noun, app.profile.name if app is not None and app.profile is not None else None)
        if hints is not None:
            view = replace(view, hints=hints)
        stopped = app.demo_stopped if app is not None else ""
        if stopped and "ApiConnectionError" in _class_names(error):
            view = demo_stopped_view(stopped)
        content = Content.from_markup("[b]$title[/b]", title=view.title)
        if view.status is not None and str(view.status) not in view.title:
            content += Content.from_markup("  [dim]HTTP $status[/dim]", status=str(view.status))
        content += Content("\n")
        for line in view.lines:
            content += Content("\n") + Content(line)
        if view.request_id:
            content += Content.from_markup("\n[dim]request id[/dim] $rid", rid=view.request_id)
        if view.hints:
            content += Content("\n")
        for hint in view.hints:
            content += Content("\n") + Content(hint)
        self._show(view.kind, content)

    def hide(self) -> None:
        """Hide the panel (the table shows)."""
        self._set_kind(StateKind.HIDDEN)
