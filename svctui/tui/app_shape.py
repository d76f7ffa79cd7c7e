"""What the parts the app imports read of it (the state panel, help, the theme picker), as protocols: they cannot
import the app for `getters.app` (it imports them), so they ask for these shapes, which SvcTuiApp has."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from svctui.clock import Clock
    from svctui.store.model import Profile
    from svctui.store.settings import Settings


@runtime_checkable
class KnowsProfile(Protocol):
    """The profile in use (its name goes in the auth hint) and why the demo server of `svctui --demo` stopped."""

    @property
    def profile(self) -> Profile | None:
        """The profile in use (None: none chosen yet)."""

    @property
    def demo_stopped(self) -> str:
        """Why the demo server stopped on its own ("" while it runs, or with no demo)."""


@runtime_checkable
class HasSettings(Protocol):
    """The user's settings (their keymap rebinds the keys help lists)."""

    @property
    def settings(self) -> Settings | None:
        """The settings loaded at launch (None in tests that run without)."""


@runtime_checkable
class DescribesThemes(Protocol):
    """What each theme file says its theme is (the theme picker shows it)."""

    @property
    def theme_descriptions(self) -> dict[str, str]:
        """Theme name → its description."""


@runtime_checkable
class NamesClients(Protocol):
    """The app's clock and the client names it knows (an export's times and client names)."""

    @property
    def clock(self) -> Clock:
        """The app's clock (frozen in tests)."""

    def client_name(self, client_id: str) -> str:
        """The name of a client by id ("" when unknown)."""
