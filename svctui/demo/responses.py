"""Response bodies as the real (Go) server writes them: compact JSON with a newline, the error envelope, plain text."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response

from svctui.demo.timefmt import nano_timestamp

TEXT_PLAIN = "text/plain; charset=utf-8"


@dataclass(frozen=True)
class Encoded:
    """A body already encoded as `go_json` would (a handler that builds its JSON text itself)."""

    body: bytes


def go_escape(text: str) -> str:
    """Go's HTML-safe escaping of `<`, `>` and `&` in JSON text."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def go_json(payload: Any) -> bytes:
    """json.Encoder output: compact, `<`, `>` and `&` escaped, UTF-8, trailing newline."""
    if isinstance(payload, Encoded):
        return payload.body
    return (go_escape(json.dumps(payload, separators=(",", ":"), ensure_ascii=False)) + "\n").encode("utf-8")


def page_body(count: int, limit: int, skip: int, items: list[str]) -> Encoded:
    """The paged envelope around items that are JSON texts already (compact, not yet escaped)."""
    head = json.dumps({"count": count, "limit": limit, "skip": skip}, separators=(",", ":"))[:-1]
    return Encoded((go_escape(f'{head},"data":[{",".join(items)}]}}') + "\n").encode("utf-8"))


def json_response(status: int, payload: Any, headers: dict[str, str] | None = None) -> Response:
    """A JSON response; a 204 has no body."""
    if status == 204:
        return Response(status_code=204, headers=headers)
    return Response(go_json(payload), status_code=status, media_type="application/json", headers=headers)


def envelope(status: int, message: str, request_id: str) -> dict[str, Any]:
    """The error envelope with `context` "" and a nanosecond timestamp."""
    return {
        "http_status": status,
        "timestamp": nano_timestamp(),
        "request_id": request_id,
        "errors": [{"context": "", "message": message}],
    }


def error_response(status: int, message: str, request_id: str, headers: dict[str, str] | None = None) -> Response:
    """The error envelope as a JSON response."""
    return json_response(status, envelope(status, message, request_id), headers)


def plain_text(status: int, text: str, headers: dict[str, str] | None = None) -> Response:
    """http.Error: text/plain with nosniff and a trailing newline."""
    merged = {"X-Content-Type-Options": "nosniff", **(headers or {})}
    return Response(text + "\n", status_code=status, media_type=TEXT_PLAIN, headers=merged)
