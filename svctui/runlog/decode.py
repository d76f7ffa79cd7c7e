"""The log out of the answer `{"data": {"log": "<text>"}}` while it streams, in constant memory.

The real server writes that envelope as Go's encoder does: those bytes, in that order, no other key. The string is
then decoded piece by piece as the bytes arrive (an escape or a UTF-8 sequence cut between two pieces waits for
the next one), so a log of any size passes through a few kilobytes of memory. An answer laid out any other way
(whitespace, other keys, another order) is held whole up to `hold_limit` bytes and read with `json.loads`: the
same log, without the constant memory.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any

_OPENING = re.compile(rb'\A\s*\{\s*"data"\s*:\s*\{\s*"log"\s*:\s*"')
_CLOSING = re.compile(r"\A\s*\}\s*\}\s*\Z")
# A run of whole string content: plain characters and complete escapes (a cut escape or the quote ends it).
_WHOLE = re.compile(r'(?:[^"\\]+|\\u[0-9a-fA-F]{4}|\\[^u])*')
_HIGH_SURROGATE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}")
OPENING_MAX = 64  # bytes to wait for before deciding the layout is not the server's


class LogBodyError(ValueError):
    """The answer holds no log text: not JSON, no `data.log`, a log that is not a string, or cut short."""


class LogDecoder:
    """Feed the answer's bytes, get the log's text as it is decoded; `finish()` checks the answer was whole."""

    def __init__(self, hold_limit: int) -> None:
        self.hold_limit = hold_limit
        self.mode = "start"  # start → string → after, or held (another layout, read whole at the end)
        self.head = b""
        self.pending = ""  # escaped text not decoded yet (an escape cut at the end of a piece)
        self.tail = ""  # what follows the string's closing quote
        self.held: list[bytes] = []
        self.held_size = 0
        self.utf8 = codecs.getincrementaldecoder("utf-8")("replace")

    def feed(self, chunk: bytes) -> str:
        """The log text that `chunk` completes (often all of it), "" while none is whole yet."""
        if self.mode == "held":
            self._hold(chunk)
            return ""
        if self.mode == "start":
            self.head += chunk
            found = _OPENING.match(self.head)
            if found is None:
                if len(self.head) >= OPENING_MAX or not _could_open(self.head):
                    self.mode = "held"
                    head, self.head = self.head, b""
                    self._hold(head)
                return ""
            self.mode = "string"
            chunk, self.head = self.head[found.end() :], b""
        text = self.utf8.decode(chunk)
        if self.mode == "after":
            self.tail += text
            if len(self.tail) > OPENING_MAX:
                raise LogBodyError(f"unexpected text after the log: {self.tail[:40]!r}")
            return ""
        return self._string(text)

    def finish(self) -> str:
        """What is left of the log; LogBodyError when the answer was not a whole `{"data": {"log": "..."}}`."""
        if self.mode == "held" or self.mode == "start":
            if self.mode == "start":
                self._hold(self.head)
            return _log_of(b"".join(self.held))
        text = self._string(self.utf8.decode(b"", final=True)) if self.mode == "string" else ""
        if self.mode == "after":
            self.tail += self.utf8.decode(b"", final=True)
        if self.mode != "after":
            raise LogBodyError("the answer ended inside the log (cut short)")
        if not _CLOSING.match(self.tail):
            raise LogBodyError(f"unexpected text after the log: {self.tail[:40]!r}")
        return text

    def _hold(self, chunk: bytes) -> None:
        self.held_size += len(chunk)
        if self.held_size > self.hold_limit:
            raise LogBodyError(
                f"the answer is not laid out as the server writes it and is over {self.hold_limit:,} bytes"
            )
        self.held.append(chunk)

    def _string(self, text: str) -> str:
        """Decode the escaped string text up to the closing quote or to the last whole escape."""
        buffer = self.pending + text
        safe = _WHOLE.match(buffer).end()  # type: ignore[union-attr]  # the pattern matches "" at least
        closed = safe < len(buffer) and buffer[safe] == '"'
        if closed:
            self.mode = "after"
            self.tail = buffer[safe + 1 :]
            self.pending = ""
        else:
            if safe >= 6 and _HIGH_SURROGATE.fullmatch(buffer, safe - 6, safe):  # its low half may be next
                safe -= 6
            self.pending = buffer[safe:]
            if len(self.pending) > 12:
                raise LogBodyError(f"the log is not a valid JSON string (at {self.pending[:12]!r})")
        piece = buffer[:safe]
        try:
            return json.loads(f'"{piece}"', strict=False) if "\\" in piece else piece
        except ValueError as exc:
            raise LogBodyError(f"the log is not a valid JSON string ({exc})") from None


def _could_open(head: bytes) -> bool:
    """Whether `head` may still grow into the server's opening (so far only whitespace and its characters)."""
    squeezed = re.sub(rb"\s+", b"", head)
    return b'{"data":{"log":"'.startswith(squeezed[:16]) if len(squeezed) <= 16 else False


def _log_of(body: bytes) -> str:
    """The log of a whole answer laid out another way."""
    try:
        document: Any = json.loads(body)
    except ValueError:
        start = body[:60].decode("utf-8", "replace")
        raise LogBodyError(f"the answer is not JSON: {start!r}") from None
    data = document.get("data") if isinstance(document, dict) else None
    log = data.get("log") if isinstance(data, dict) else None
    if log is None:
        raise LogBodyError('the answer has no log text (no "data.log")')
    if not isinstance(log, str):
        raise LogBodyError(f"the log is not text (a JSON {type(log).__name__})")
    return log
