"""The one exception the store raises for people: a message that says what is wrong and how to fix it."""

from __future__ import annotations


class StoreError(Exception):
    """A problem with profiles, secrets or settings that a person can fix; `message` never holds a secret."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
