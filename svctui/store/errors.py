"""The one exception the store raises for people: a message that says what is wrong and how to fix it."""

from __future__ import annotations


class StoreError(Exception):
    """A problem with profiles, secrets or settings that a person can fix; `message` never holds a secret."""

    def __init__(self, message: str, fields: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields  # the profile fields at fault, in the model's order (a form focuses the first)

    def __str__(self) -> str:
        return self.message
