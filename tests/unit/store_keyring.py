"""Keyring backends for the store tests, installed with keyring.set_keyring (keyring's documented extension point)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring.errors import PasswordDeleteError, PasswordSetError


class MemoryKeyring(KeyringBackend):
    """A working keyring that keeps entries in a dict."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError("no such entry")


class LockedKeyring(MemoryKeyring):
    """A keyring whose writes fail, with the secret in the error text (a careless backend)."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise PasswordSetError(f"collection is locked, could not store {password}")


class LyingKeyring(MemoryKeyring):
    """A keyring that accepts a write but gives back something else."""

    def get_password(self, service: str, username: str) -> str | None:
        stored = self.entries.get((service, username))
        return None if stored is None else stored[::-1]


class StuckKeyring(MemoryKeyring):
    """A keyring whose calls hang until released (a dead keyring daemon)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.calls = 0

    def set_password(self, service: str, username: str, password: str) -> None:
        self.calls += 1
        self.release.wait(30)
        super().set_password(service, username, password)

    def get_password(self, service: str, username: str) -> str | None:
        self.calls += 1
        self.release.wait(30)
        return super().get_password(service, username)


@contextmanager
def installed(backend: KeyringBackend) -> Iterator[KeyringBackend]:
    """Install `backend` as the keyring for the duration, then put the previous one back."""
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


def headless() -> KeyringBackend:
    """The backend keyring picks on a machine without any keyring service."""
    return fail.Keyring()  # type: ignore[no-untyped-call]


@pytest.fixture(autouse=True)
def headless_keyring() -> Iterator[None]:
    """Autouse in every module that imports it: tests run as on a machine without any keyring service."""
    with installed(headless()):
        yield
