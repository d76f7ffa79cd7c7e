"""Selector writes and impact as the real server answers them: `POST …/{tag}/selectors` (201 `{"data": selector}`),
`DELETE …/{tag}/selectors/{id}` (204) and `GET …/{tag}/selectors/{id}/members/counts`.

POST checks in the real order: tag id, tag, JSON body (Go's decoder: the first value, unknown fields ignored,
wrong types refused), name, seeds (present, type 1 or 2, all of one type, Cypher not empty), auto_certify (0-2, and
only on tiers), then the name's uniqueness within the tag (409). A created selector is never a default one.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from svctui.demo import repo, selector_writes
from svctui.demo.handlers import MSG_NOT_FOUND, MSG_NOT_PART, Call, Result, parse_id, selector_of_tag
from svctui.demo.query import Problem
from svctui.demo.selector_writes import DeleteOutcome

MSG_UNMARSHAL = "error unmarshalling JSON payload"
MSG_NAME_REQUIRED = "name is required"
MSG_SEEDS_REQUIRED = "seeds are required"
MSG_SEEDS_MIXED = "all seeds must be of the same type"
MSG_AUTO_CERTIFY_INVALID = "auto_certify must be an input value of 0 to 2"
MSG_AUTO_CERTIFY_TIERS = "auto_certify is only available for asset group tags of tag_type = 1 (zones)"
MSG_DUPLICATE_NAME = "asset group tag selector name must be unique"
TIER_TYPE = 1
OBJECT_ID, CYPHER = 1, 2


def _decode(body: bytes) -> dict[str, Any]:
    """The first JSON value of the body as Go's json.Decoder reads it into the request struct, or the real 400."""
    try:
        text = body.decode("utf-8").lstrip(" \t\r\n")
        value, _ = json.JSONDecoder().raw_decode(text)
    except (UnicodeDecodeError, ValueError):
        raise Problem(400, MSG_UNMARSHAL) from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Problem(400, MSG_UNMARSHAL)
    return value


def _typed(value: Any, kind: type, nullable: bool = True) -> Any:
    """`value` when Go could decode it into `kind` (int excludes bool and floats), else the real 400."""
    if value is None and nullable:
        return None
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise Problem(400, MSG_UNMARSHAL)
    if kind is str and not isinstance(value, str):
        raise Problem(400, MSG_UNMARSHAL)
    return value


def _seeds(raw: Any) -> list[tuple[int, str]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise Problem(400, MSG_UNMARSHAL)
    seeds: list[tuple[int, str]] = []
    for item in raw:
        if item is None:
            item = {}
        if not isinstance(item, dict):
            raise Problem(400, MSG_UNMARSHAL)
        seeds.append((_typed(item.get("type"), int) or 0, _typed(item.get("value"), str) or ""))
    return seeds


def _check_seeds(seeds: list[tuple[int, str]]) -> None:
    if not seeds:
        raise Problem(400, MSG_SEEDS_REQUIRED)
    first = seeds[0][0]
    if first not in (OBJECT_ID, CYPHER):
        raise Problem(400, f"invalid seed type {first}")
    for kind, value in seeds:
        if kind != first:
            raise Problem(400, MSG_SEEDS_MIXED)
        if kind == CYPHER and not value.strip():
            raise Problem(400, "cypher is invalid: empty query")


def create_selector(conn: sqlite3.Connection, call: Call) -> Result:
    """POST /api/v2/asset-group-tags/{tag_id}/selectors: 201 with the new selector."""
    tag_id = parse_id(call.path["tag_id"])
    tag_type = repo.tag_type(conn, tag_id)
    if tag_type is None:
        raise Problem(404, MSG_NOT_FOUND)
    body = _decode(call.body)
    name = _typed(body.get("name"), str) or ""
    description = _typed(body.get("description"), str) or ""
    auto_certify = _typed(body.get("auto_certify"), int)
    seeds = _seeds(body.get("seeds"))
    if not name:
        raise Problem(400, MSG_NAME_REQUIRED)
    _check_seeds(seeds)
    if auto_certify is not None:
        if tag_type != TIER_TYPE and auto_certify != 0:
            raise Problem(400, MSG_AUTO_CERTIFY_TIERS)
        if auto_certify not in (0, 1, 2):
            raise Problem(400, MSG_AUTO_CERTIFY_INVALID)
    created = selector_writes.create_selector(
        conn, tag_id, name, description, auto_certify or 0, seeds, call.actor, selector_writes.now_micros()
    )
    if created is None:
        raise Problem(409, MSG_DUPLICATE_NAME)
    return 201, {"data": created}


def delete_selector(conn: sqlite3.Connection, call: Call) -> Result:
    """DELETE /api/v2/asset-group-tags/{tag_id}/selectors/{selector_id}: 204, or the real 403/404s.

    The selector is looked up inside the write transaction: of two concurrent deletes one gets 204, the other 404.
    """
    tag_id = parse_id(call.path["tag_id"])
    if not repo.tag_exists(conn, tag_id):
        raise Problem(404, MSG_NOT_FOUND)
    selector_id = parse_id(call.path["selector_id"])
    outcome = selector_writes.delete_selector(conn, tag_id, selector_id)
    if outcome is DeleteOutcome.MISSING:
        raise Problem(404, MSG_NOT_FOUND)
    if outcome is DeleteOutcome.OTHER_TAG:
        raise Problem(404, MSG_NOT_PART)
    if outcome is DeleteOutcome.DEFAULT:
        raise Problem(403, "cannot delete a default selector")
    return 204, None


def member_counts(conn: sqlite3.Connection, call: Call) -> Result:
    """GET /api/v2/asset-group-tags/{tag_id}/selectors/{selector_id}/members/counts."""
    selector = selector_of_tag(conn, call)
    return 200, {"data": selector_writes.member_counts(conn, int(selector["id"]))}
