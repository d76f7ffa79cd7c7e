"""Endpoint logic of the demo server as plain functions over a SQLite connection: (status, JSON body or None).

Each handler checks its inputs in the real server's order and raises `Problem` with the real status and message.
"""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from svctui.demo import repo, repo_write
from svctui.demo.query import (
    CLIENTS_TABLE,
    EVENTS_TABLE,
    HYDRATION_PARAMS,
    SELECTORS_TABLE,
    TAGS_TABLE,
    TASKS_TABLE,
    ListQuery,
    Problem,
    build_list_query,
    go_atoi,
)
from svctui.demo.responses import page_body

MSG_NOT_FOUND = "resource not found"
MSG_ID_MALFORMED = "id is malformed."
MSG_INTERNAL = "an internal error has occurred that is preventing the service from servicing this request"
SELECTORS_DEFAULT_LIMIT = 50
Result = tuple[int, Any]


@dataclass(frozen=True)
class Call:
    """What a handler gets from a request: path parameters, the decoded query pairs in order, the raw body."""

    path: Mapping[str, str]
    query: Sequence[tuple[str, str]]
    body: bytes = b""
    now: datetime | None = None  # the server's clock (the fixed anchor of a test server); None: keep nothing


def _page(count: int, query: ListQuery, data: Any) -> dict[str, Any]:
    return {"count": count, "limit": query.limit, "skip": query.skip, "data": data}


def _check_values(query: ListQuery) -> None:
    """A filter value the database could not read: the real server's 500."""
    if query.deferred_error:
        raise Problem(500, MSG_INTERNAL)


def _parse_id(text: str) -> int:
    try:
        return go_atoi(text)
    except ValueError:
        raise Problem(404, MSG_ID_MALFORMED) from None


def _parse_bool_param(call: Call, name: str, message: str) -> bool:
    value = next((v for k, v in call.query if k == name), "")
    if not value or value in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    if value in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    raise Problem(400, message)


def list_events(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/events."""
    query = build_list_query(EVENTS_TABLE, call.query)
    _check_values(query)
    if call.now is not None:  # next_scheduled_at stays the next run from now, so sorting by it orders next runs
        repo_write.keep_next_runs(conn, call.now)
    count, events = repo.list_events(conn, query)
    return 200, _page(count, query, events)


def list_clients(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/clients (enterprise only)."""
    query = build_list_query(CLIENTS_TABLE, call.query)
    _check_values(query)
    count, clients = repo.list_clients(conn, query)
    return 200, _page(count, query, clients)


def get_client(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/clients/{client_id} (enterprise only): `{"data": client}`."""
    try:
        client_id = str(uuid.UUID(call.path["client_id"]))
    except ValueError:
        raise Problem(404, MSG_ID_MALFORMED) from None
    hydration = [(key, value) for key, value in call.query if key in HYDRATION_PARAMS]
    client = repo.get_client(conn, client_id, build_list_query(CLIENTS_TABLE, hydration, paged=False))
    if client is None:
        raise Problem(404, MSG_NOT_FOUND)
    return 200, {"data": client}


def list_tasks(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/clients/{client_id}/completed-tasks (and completed-jobs)."""
    query = build_list_query(TASKS_TABLE, call.query)
    raw_id = call.path["client_id"]
    try:
        client_id = str(uuid.UUID(raw_id))
    except ValueError:
        raise Problem(404, MSG_ID_MALFORMED) from None
    if repo.client_name(conn, client_id) is None:
        raise Problem(404, MSG_NOT_FOUND)
    _check_values(query)
    count, tasks = repo.list_tasks(conn, client_id, query)
    return 200, page_body(count, query.limit, query.skip, tasks)


def finished_jobs(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/jobs/finished (enterprise): every client's finished runs (status 2 to 8), the filters, sort and
    paging of completed-jobs, each run with its `client_name`."""
    query = build_list_query(TASKS_TABLE, call.query)
    _check_values(query)
    count, tasks = repo.list_finished(conn, query)
    return 200, page_body(count, query.limit, query.skip, tasks)


def list_tags(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/asset-group-tags: every tag, no paging."""
    counts = _parse_bool_param(call, "counts", "Invalid value specified for include counts")
    query = build_list_query(TAGS_TABLE, call.query, sortable=False, paged=False)
    _check_values(query)
    repo_write.sync_extensions(conn, call.now)  # the extensions' sync re-creates what of theirs was deleted
    return 200, {"data": {"tags": repo.list_tags(conn, query, counts)}}


def list_selectors(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/asset-group-tags/{tag_id}/selectors: paginated, default limit 50, limit=-1 for all."""
    tag_ids: list[int] = []

    def parse_tag() -> None:
        tag_ids.append(_parse_id(call.path["tag_id"]))

    query = build_list_query(
        SELECTORS_TABLE,
        call.query,
        default_limit=SELECTORS_DEFAULT_LIMIT,
        allow_all=True,
        before_filters=lambda: _parse_bool_param(call, "counts", "Invalid value specified for include counts"),
        before_sort=parse_tag,
    )
    counts = _parse_bool_param(call, "counts", "Invalid value specified for include counts")
    tag_id = tag_ids[0]
    if not repo.tag_exists(conn, tag_id):
        raise Problem(404, MSG_NOT_FOUND)
    _check_values(query)
    count, selectors = repo.list_selectors(conn, tag_id, query, counts)
    return 200, _page(count, query, {"selectors": selectors})


def _selector_of_tag(conn: sqlite3.Connection, call: Call) -> dict[str, Any]:
    tag_id = _parse_id(call.path["tag_id"])
    if not repo.tag_exists(conn, tag_id):
        raise Problem(404, MSG_NOT_FOUND)
    selector_id = _parse_id(call.path["selector_id"])
    selector = repo.get_selector(conn, selector_id)
    if selector is None:
        raise Problem(404, MSG_NOT_FOUND)
    if selector["asset_group_tag_id"] != tag_id:
        raise Problem(404, "selector is not part of asset group tag")
    return selector


def get_selector(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/asset-group-tags/{tag_id}/selectors/{selector_id}."""
    return 200, {"data": {"selector": _selector_of_tag(conn, call)}}


def delete_selector(conn: sqlite3.Connection, call: Call) -> Result:
    """DELETE /api/v2/asset-group-tags/{tag_id}/selectors/{selector_id}: 204, or the real 403/404s.

    The lookup and the delete share one write transaction: of two concurrent DELETEs one gets 204, the other 404.
    """
    with repo_write.write_transaction(conn):
        selector = _selector_of_tag(conn, call)
        if selector["is_default"]:
            raise Problem(403, "cannot delete a default selector")
        if not repo_write.delete_selector(conn, int(selector["id"])):
            raise Problem(404, MSG_NOT_FOUND)
    return 204, None


MSG_BAD_PAYLOAD = "error unmarshalling JSON payload"  # the real server's api.ErrorResponsePayloadUnmarshalError


MSG_NAME_TAKEN = "asset group tag selector name must be unique"
MSG_AUTO_CERTIFY_ZONES = "auto_certify is only available for asset group tags of tag_type = 1 (zones)"
MSG_AUTO_CERTIFY_RANGE = "auto_certify must be an input value of 0 to 2"
MSG_MIXED_SEEDS = "all seeds must be of the same type"
MSG_DISABLED = "selector is disabled"
_CYPHER_PAIRS = {"(": ")", "[": "]", "{": "}"}


def cypher_problem(text: str) -> str | None:
    """The demo's stand-in for the server's Cypher parser (docs/DEMO-SERVER.md): a query needs MATCH and RETURN,
    closed quotes and balanced brackets; comments (`// …` to the line's end, `/* … */`) are not read. None when
    valid, else what is wrong."""
    text = re.sub(r"('[^']*'|\"[^\"]*\")|//[^\n]*|/\*.*?\*/", lambda m: m.group(1) or " ", text, flags=re.S)
    words = re.findall(r"[A-Za-z_]+", re.sub(r"'[^']*'|\"[^\"]*\"", " ", text))
    upper = {word.upper() for word in words}
    if "MATCH" not in upper:
        return "no MATCH clause"
    if "RETURN" not in upper:
        return "no RETURN clause"
    stack: list[str] = []
    quote = ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in _CYPHER_PAIRS:
            stack.append(_CYPHER_PAIRS[char])
        elif char in _CYPHER_PAIRS.values() and (not stack or stack.pop() != char):
            return f"unexpected {char!r}"
    if quote:
        return "unterminated string"
    return f"missing {stack[-1]!r}" if stack else None


def _seeds(value: object) -> list[tuple[int, str]]:
    """The `seeds` of a create body: a non-empty list of {type 1|2, value non-empty string}, all of one type, each
    Cypher seed valid (`cypher_problem`); the real server's messages."""
    if not isinstance(value, list) or not value:
        raise Problem(400, "seeds: at least one seed is required")
    seeds: list[tuple[int, str]] = []
    for seed in value:
        if not isinstance(seed, dict) or not isinstance(seed.get("type"), int) or isinstance(seed.get("type"), bool):
            raise Problem(400, MSG_BAD_PAYLOAD)
        if seed["type"] not in (1, 2):
            raise Problem(400, f"invalid seed type {seed['type']}")
        text = seed.get("value")
        if not isinstance(text, str) or not text.strip():
            raise Problem(400, "seeds: each seed needs a non-empty value")
        seeds.append((int(seed["type"]), text))
    if len({seed_type for seed_type, _ in seeds}) > 1:
        raise Problem(400, MSG_MIXED_SEEDS)
    for seed_type, text in seeds:
        problem = cypher_problem(text) if seed_type == 2 else None
        if problem is not None:
            raise Problem(400, f"cypher is invalid: {problem}")
    return seeds


def create_selector(conn: sqlite3.Connection, call: Call) -> Result:
    """POST /api/v2/asset-group-tags/{tag_id}/selectors: 201 {"data": selector}; the tag first (404), then the
    body (400s: auto_certify, seeds, Cypher), then the unique name (409)."""
    tag_id = _parse_id(call.path["tag_id"])
    tag_type = repo.tag_type(conn, tag_id)
    if tag_type is None:
        raise Problem(404, MSG_NOT_FOUND)
    try:
        body = json.loads(call.body)
    except (ValueError, UnicodeDecodeError):
        raise Problem(400, MSG_BAD_PAYLOAD) from None
    if not isinstance(body, dict):
        raise Problem(400, MSG_BAD_PAYLOAD)
    name, description, auto_certify = body.get("name"), body.get("description", ""), body.get("auto_certify", 0)
    if not isinstance(name, str) or not name.strip():
        raise Problem(400, "name: a non-empty name is required")
    if not isinstance(description, str) or not isinstance(auto_certify, int) or isinstance(auto_certify, bool):
        raise Problem(400, MSG_BAD_PAYLOAD)
    if auto_certify not in (0, 1, 2):
        raise Problem(400, MSG_AUTO_CERTIFY_RANGE)
    if auto_certify and tag_type != 1:
        raise Problem(400, MSG_AUTO_CERTIFY_ZONES)
    seeds = _seeds(body.get("seeds"))
    with repo_write.write_transaction(conn):
        if not repo.tag_exists(conn, tag_id):
            raise Problem(404, MSG_NOT_FOUND)
        if repo_write.name_taken(conn, tag_id, name):
            raise Problem(409, MSG_NAME_TAKEN)
        created = repo_write.create_selector(conn, tag_id, name, description, int(auto_certify), seeds)
    return 201, {"data": created}


def selector_member_counts(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/asset-group-tags/{tag_id}/selectors/{selector_id}/members/counts."""
    selector = _selector_of_tag(conn, call)
    if selector["disabled_at"] is not None:  # a disabled selector tags nothing: the real server answers 409
        raise Problem(409, MSG_DISABLED)
    counts = repo_write.member_counts(conn, int(selector["id"]))
    if counts is None:
        raise Problem(404, MSG_NOT_FOUND)
    return 200, {"data": counts}
