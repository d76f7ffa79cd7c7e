"""First run (no profile yet): add a profile (validated like `svctui profile add`) or start the demo; the same form
edits the profile in use (the palette's "Edit profile"), so a wrong secret is entered again in the app."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from svctui.store.model import Profile
from svctui.tui.widgets.dialog import show_line

if TYPE_CHECKING:
    from svctui.store.errors import StoreError

FIELD_LABELS = {
    "name": "name",
    "base_url": "server URL",
    "token_id": "token id",
    "token_key": "token key",
    "jwt": "JWT",
}
DEBUG_LOG_ENV = "TEXTUAL_LOG"  # Textual writes every event to this file, the keys typed into an Input among them
SECRET_BLOCKED = (
    f"The secret can't be typed here while {DEBUG_LOG_ENV} is set: Textual would write each keystroke to that "
    "file. Unset it, or add the profile with `svctui profile add NAME --base-url URL --token-id ID --secret-stdin`."
)


def secret_input_blocked() -> bool:
    """True while Textual's debug log is on: secret inputs are not offered then."""
    return bool(os.environ.get(DEBUG_LOG_ENV))


# the form's inputs top to bottom, by profile field; both secrets are typed into one input
FORM_ORDER = ("name", "base_url", "token_id", "token_key", "jwt")
FORM_INPUTS = {"token_key": "secret", "jwt": "secret"}
DEMO: Literal["demo"] = "demo"  # what the screen returns when the demo is chosen
TOKEN_ID_MISSING = "token id: paste the token's id, a UUID (or choose bearer JWT for a JWT)"  # noqa: S105 (words)
SECRET_MISSING = "{label}: paste the secret shown when it was created"  # noqa: S105 (words, not a secret)
# What the form does not show of a profile being edited, kept as it was
KEPT_FIELDS = ("scheme_prefix", "prefer_wait", "verify_tls", "ca_bundle", "read_only")


def checked_profile(fields: dict[str, object], bearer: bool) -> Profile:
    """The form's profile, or one StoreError naming every empty or bad field at once (the model checks the token id
    only once every field is good, and the secret is checked here: a save reported them one try at a time)."""
    from svctui.store.errors import StoreError
    from svctui.store.model import build_profile

    secret_field = "jwt" if bearer else "token_key"
    no_token_id = not bearer and fields.get("token_id") is None
    messages: list[str] = []
    at_fault: list[str] = []
    try:
        profile: Profile | None = build_profile(FIELD_LABELS, **fields)
    except StoreError as exc:
        profile = None
        if exc.fields or not no_token_id:  # the model's own `needs a token id` is said below, with its field
            messages.append(exc.message)
            at_fault.extend(exc.fields)
    if no_token_id:
        messages.append(TOKEN_ID_MISSING)
        at_fault.append("token_id")
    if fields.get(secret_field) is None:
        messages.append(SECRET_MISSING.format(label=FIELD_LABELS[secret_field]))
        at_fault.append(secret_field)
    if messages or profile is None:
        raise StoreError("; ".join(messages), tuple(field for field in FORM_ORDER if field in at_fault))
    return profile


class FirstRunScreen(Screen[Profile | Literal["demo"] | None]):
    """Shown when no profile is configured; returns the profile saved, or DEMO (the app opens the dashboard). With
    `editing`, the stored profile's form to enter its secret again (or change its server, auth or token id): returns
    the profile saved, or None when left as it was."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save profile", id="first.save", tooltip="Validate and save the profile"),
        Binding("ctrl+o", "demo", "Start demo", id="first.demo", tooltip="Open the dashboard on the demo server"),
        Binding("escape", "leave", "Cancel", id="first.cancel", tooltip="Leave the profile as it is", show=False),
    ]

    def __init__(self, editing: Profile | None = None) -> None:
        super().__init__()
        self.editing = editing

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Editing: no demo, and escape goes back; first run: escape does nothing (there is nowhere to go)."""
        if action == "demo":
            return self.editing is None
        if action == "leave":
            return self.editing is not None
        return True

    DEFAULT_CSS = """
    FirstRunScreen #first-dialog { width: 84; height: auto; padding: 1 2; }
    FirstRunScreen .first-line { height: auto; margin-top: 1; }
    FirstRunScreen .first-line Label { width: 14; padding-top: 1; }
    FirstRunScreen .first-line Input, FirstRunScreen .first-line Select { width: 1fr; }
    FirstRunScreen #first-error { margin-top: 1; }
    FirstRunScreen #first-buttons { height: auto; margin-top: 1; align-horizontal: right; }
    FirstRunScreen #first-buttons Button { margin-left: 2; }
    """

    def compose(self) -> ComposeResult:
        """The profile form and the two choices."""
        # Scrolls the focused field into view on a short terminal; not focusable itself, so keys go to a field
        with VerticalScroll(id="first-dialog", classes="dialog", can_focus=False):
            editing = self.editing
            if editing is None:
                yield Static("Welcome to svctui", classes="dialog-title")
                yield Static("No profile is configured. Add one for your server, or look around with the demo server.")
            else:
                yield Static(f"Edit profile {editing.name}", classes="dialog-title", markup=False)
                yield Static(
                    "Enter the secret again (it is never shown); change the server, auth or token id if they are "
                    "wrong. ctrl+s saves and reconnects, esc leaves the profile as it is.",
                    markup=False,
                )
            for field, placeholder in (
                ("name", "default"),
                ("base_url", "https://bloodhound.example.com"),
            ):
                with Horizontal(classes="first-line"):
                    yield Label(FIELD_LABELS[field])
                    value = str(getattr(editing, field)) if editing is not None else ""
                    # editing keeps the name: a new name would add a second profile, not fix this one
                    yield Input(
                        value, placeholder=placeholder, id=f"first-{field}", disabled=bool(value) and field == "name"
                    )
            with Horizontal(classes="first-line"):
                yield Label("auth")
                options = [("signed requests (token id + key)", "signature"), ("bearer JWT", "bearer")]
                auth = editing.auth if editing is not None else "signature"
                yield Select(options, value=auth, allow_blank=False, id="first-auth")
            with Horizontal(classes="first-line", id="line-token-id"):
                yield Label("token id")
                token_id = editing.token_id if editing is not None and editing.token_id else ""
                yield Input(token_id, placeholder="3f2504e0-4f89-41d3-9a0c-0305e82c3301", id="first-token_id")
            with Horizontal(classes="first-line"):
                yield Label("secret", id="secret-label")
                blocked = secret_input_blocked()
                placeholder = (
                    f"not while {DEBUG_LOG_ENV} is set" if blocked else self._secret_placeholder(auth == "bearer")
                )
                yield Input(password=True, placeholder=placeholder, id="first-secret", disabled=blocked)
            if secret_input_blocked():
                yield Static(SECRET_BLOCKED, id="first-secret-blocked", classes="dialog-error", markup=False)
            yield Static("", id="first-error", classes="dialog-error")
            with Horizontal(id="first-buttons"):
                if editing is None:
                    yield Button("Start the demo", id="demo")
                else:
                    yield Button("Cancel", id="cancel")
                yield Button("Save profile", id="save", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        """Editing: the secret first (what a 401 asks for), scrolled into view on a short terminal."""
        if self.editing is not None and not secret_input_blocked():
            self.query_one("#first-secret", Input).focus()

    @on(Select.Changed, "#first-auth")
    def _auth_changed(self, event: Select.Changed) -> None:
        bearer = event.value == "bearer"
        self.query_one("#line-token-id").display = not bearer
        if not secret_input_blocked():
            self.query_one("#first-secret", Input).placeholder = self._secret_placeholder(bearer)

    def _secret_placeholder(self, bearer: bool) -> str:
        kind = "JWT" if bearer else "token key"
        return kind if self.editing is None else f"the {kind}, again"

    def _value(self, field: str) -> str:
        return self.query_one(f"#first-{field}", Input).value.strip()

    def _error(self, text: str) -> None:
        show_line(self.query_one("#first-error", Static), text)

    def _refused(self, error: StoreError) -> None:
        """Say why nothing was saved where it is seen on a short terminal (the form's message is below the fold
        there): a toast, and the first bad field focused, which scrolls it into view."""
        self._error(f"✗ {error}")
        self.notify(str(error), title="Profile not saved", severity="error", markup=False)
        for field in FORM_ORDER:
            target = self.query_one(f"#first-{FORM_INPUTS.get(field, field)}", Input)
            shown = target.parent is None or target.parent.display  # the token id's line is hidden for a JWT
            if field in error.fields and shown and not target.disabled:
                target.focus()
                return
        self.call_after_refresh(self.query_one("#first-error", Static).scroll_visible)

    def action_save(self) -> None:
        """Validate with the store's rules, save, and open the dashboard."""
        from svctui.store.errors import StoreError
        from svctui.store.profiles import ProfileStore

        bearer = self.query_one("#first-auth", Select).value == "bearer"
        editing = self.editing
        kept = {field: getattr(editing, field) for field in KEPT_FIELDS} if editing is not None else {}
        fields: dict[str, object] = {
            **kept,
            "name": editing.name if editing is not None else self._value("name") or "default",
            "base_url": self._value("base_url"),
            "auth": "bearer" if bearer else "signature",
        }
        if not bearer:
            fields["token_id"] = self._value("token_id") or None
        if secret_input_blocked():
            self._error(f"✗ {SECRET_BLOCKED}")
            return
        secret = self.query_one("#first-secret", Input).value
        fields["jwt" if bearer else "token_key"] = secret or None
        try:
            profile = checked_profile(fields, bearer)
            result = ProfileStore().add(profile, make_default=editing is None, replace=editing is not None)
        except StoreError as exc:
            self._refused(exc)
            return
        self._error("")
        for warning in result.warnings:
            self.notify(warning, severity="warning", markup=False)
        self.dismiss(profile)

    def action_leave(self) -> None:
        """Editing: back to the dashboard, the profile as it was."""
        self.dismiss(None)

    def action_demo(self) -> None:
        """Start the demo server and open the dashboard against it."""
        self.dismiss(DEMO)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self.action_save()
        elif event.button.id == "demo":
            self.action_demo()
        elif event.button.id == "cancel":
            self.action_leave()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_save()
