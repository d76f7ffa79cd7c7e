"""Reading a streamed response body once, under a size cap and an idle cap, into `response.content`; the
deadline error.

A declared Content-Length over the cap is refused before a byte of the body is read; a body that grows past the
cap (chunked, or a lying Content-Length, or a compressed body that inflates) is cut off at the cap. The chunks are
joined once into the bytes the JSON parser validates, so the body is never held as text as well.
"""

from __future__ import annotations

import asyncio

import httpx

from svctui.api.errors import DeadlineExceeded, ResponseTooLarge

MIB = 1024 * 1024
DEFAULT_MAX_RESPONSE_BYTES = 64 * MIB
IDLE_TIMEOUT = 30.0  # with Prefer wait=-1: the longest gap between two pieces of a body


def deadline_error(
    method: str,
    url: str,
    deadline: float | None,
    prefer: str,
    status: int | None,
    body_deadline: float,
    tries: int = 1,
) -> DeadlineExceeded:
    """The error for a request past its total deadline, `tries` sent within it (or, with wait=-1, past the body
    deadline or idle cap)."""
    if deadline is not None:
        limit = deadline
        what = f"within {limit:g} s (Prefer {prefer} plus {limit - int(prefer.removeprefix('wait=')):g} s)"
    else:
        limit = body_deadline
        what = f"within {limit:g} s of its start, or it stalled for {IDLE_TIMEOUT:g} s"
    started = "" if status is None else f" (HTTP {status} started, body too slow)"
    sent = f"; {tries} tries in all" if tries > 1 else ""
    return DeadlineExceeded(
        f"{method} {url}: the server's answer did not complete {what}{started}{sent}",
        deadline=limit,
        method=method,
        url=url,
        tries=tries,
    )


def too_large(limit: int, method: str, url: str, what: str) -> ResponseTooLarge:
    """The size-cap error, naming the cap and the setting that raises it."""
    return ResponseTooLarge(
        f"{method} {url}: the server's answer {what}, over the {limit / MIB:g} MiB limit; it was not read "
        "(raise max_response_mb in settings.toml if this answer is genuine)",
        limit=limit,
        method=method,
        url=url,
    )


def declared_length(response: httpx.Response) -> int | None:
    """The Content-Length header as a number, or None when absent or not a plain number."""
    value = response.headers.get("content-length", "").strip()
    return int(value) if value.isdigit() and len(value) < 20 else None


async def read_body(response: httpx.Response, *, limit: int, idle: float | None, method: str, url: str) -> int:
    """Read the body of a streamed `response` into `response.content`; returns its size in bytes.

    Raises ResponseTooLarge past `limit`, TimeoutError when no byte arrives for `idle` seconds, and whatever
    httpx raises when the connection breaks (the caller turns that into "cut short").
    """
    declared = declared_length(response)
    if declared is not None and declared > limit:
        raise too_large(limit, method, url, f"declares {declared:,} bytes")
    chunks: list[bytes] = []
    size = 0
    stream = response.aiter_bytes()
    while True:
        try:
            # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow the caller's cancellation when a
            # chunk lands at that moment, so an outer deadline (a request's body limit) was missed for 30 s
            async with asyncio.timeout(idle):
                chunk = await anext(stream)
        except StopAsyncIteration:
            break
        size += len(chunk)
        if size > limit:
            raise too_large(limit, method, url, "grew past the limit")
        chunks.append(chunk)
    response._content = b"".join(chunks)
    chunks.clear()
    return size


EMPTY_STREAM = httpx.ByteStream(b"")


def release_stream(response: httpx.Response) -> None:
    """Drop a closed `response`'s stream: httpx's stream refers back to the response, and that cycle kept each
    read body (~1.3 MB a page of 1,000 tasks) until a full garbage collection, which the dashboard makes rare
    (svctui.startup). Without it the response is freed when dropped."""
    response.stream = EMPTY_STREAM
