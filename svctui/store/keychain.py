"""Optional system-keyring storage for secrets, bounded by a timeout and verified by reading back.

Every call runs in a daemon thread and gives up after TIMEOUT_S seconds, so a hung keyring daemon cannot hang
svctui; after one timeout the keyring is not asked again by this process (3 s in all, not 3 s per call).
Failures come back as short reasons (never containing the secret) so the caller can fall back to the file.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Literal, TypeVar

SERVICE = "svctui"
ENV_NO_KEYRING = "SVCTUI_NO_KEYRING"
TIMEOUT_S = 3.0

SecretKind = Literal["token_key", "jwt"]
_T = TypeVar("_T")


class KeyringUnavailable(Exception):
    """The keyring could not be used; the message is safe to show (it never contains the secret)."""


def keyring_disabled() -> bool:
    """True when SVCTUI_NO_KEYRING asks svctui to keep secrets in the file only."""
    return os.environ.get(ENV_NO_KEYRING, "").strip().lower() in {"1", "true", "yes", "on"}


def account(profile_name: str, kind: SecretKind) -> str:
    """The keyring user name of a profile's secret, e.g. `prod:token_key` (service is always `svctui`)."""
    return f"{profile_name}:{kind}"


_hung: list[str] = []  # the reason, once a call has timed out: later calls in this process fail at once


def _call_with_timeout(function: Callable[[], _T]) -> _T:
    if _hung:
        raise KeyringUnavailable(_hung[0])
    outcome: dict[str, Any] = {}
    finished = threading.Event()

    def run() -> None:
        try:
            outcome["value"] = function()
        except BaseException as exc:
            outcome["error"] = exc
        finally:
            finished.set()

    threading.Thread(target=run, name="svctui-keyring", daemon=True).start()
    if not finished.wait(TIMEOUT_S):
        _hung.append(f"the system keyring did not answer within {TIMEOUT_S:g} s")
        raise KeyringUnavailable(_hung[0])
    if "error" in outcome:
        raise outcome["error"]
    value: _T = outcome["value"]
    return value


def _backend() -> Any:
    try:
        import keyring
        from keyring.backends import fail, null
    except ImportError:
        raise KeyringUnavailable("the optional keyring package is not installed") from None
    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring | null.Keyring):
        raise KeyringUnavailable("no system keyring is available on this machine")
    return backend


def _reason(exc: BaseException, secret: str | None) -> str:
    if isinstance(exc, KeyringUnavailable):
        return str(exc)
    text = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
    if secret:
        text = text.replace(secret, "**********")
    return f"the system keyring failed ({text})"


def store_secret(profile_name: str, kind: SecretKind, secret: str) -> str | None:
    """Put the secret in the keyring and read it back; None on success, else the reason it is not there."""
    if keyring_disabled():
        return f"{ENV_NO_KEYRING} is set"
    user = account(profile_name, kind)

    def write_and_verify() -> None:
        backend = _backend()
        backend.set_password(SERVICE, user, secret)
        if backend.get_password(SERVICE, user) != secret:
            with suppress(Exception):
                backend.delete_password(SERVICE, user)
            raise KeyringUnavailable("reading the secret back from the system keyring gave a different value")

    try:
        _call_with_timeout(write_and_verify)
    except Exception as exc:
        return _reason(exc, secret)
    return None


def load_secret(profile_name: str, kind: SecretKind) -> str:
    """Read a profile's secret from the keyring; raises KeyringUnavailable (safe message) when it cannot."""
    if keyring_disabled():
        raise KeyringUnavailable(f"{ENV_NO_KEYRING} is set")
    user = account(profile_name, kind)

    def read() -> str | None:
        value: str | None = _backend().get_password(SERVICE, user)
        return value

    try:
        secret = _call_with_timeout(read)
    except KeyringUnavailable:
        raise
    except Exception as exc:
        raise KeyringUnavailable(_reason(exc, None)) from None
    if not secret:
        raise KeyringUnavailable(f"the system keyring has no entry {SERVICE}/{user}")
    return secret


def delete_secret(profile_name: str, kind: SecretKind) -> str | None:
    """Remove a profile's secret from the keyring; None when gone (or never there), else the reason it failed."""
    if keyring_disabled():
        return f"{ENV_NO_KEYRING} is set"
    user = account(profile_name, kind)

    def delete() -> None:
        backend = _backend()
        if backend.get_password(SERVICE, user) is not None:
            backend.delete_password(SERVICE, user)

    try:
        _call_with_timeout(delete)
    except Exception as exc:
        return _reason(exc, None)
    return None
