"""The read commands' plumbing: exit code for every API error, and --all writing each page before asking for more."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncGenerator, Sequence

import pytest
from pydantic import BaseModel

from svctui.api import errors
from svctui.api.models import AssetGroupTag
from svctui.commands.common import ExitCode, exit_code_for
from svctui.commands.output import JsonLinesWriter
from svctui.commands.reads import write_listing

SIGNATURE = "unable to validate request signature for client: "


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (errors.Unauthorized(401, [SIGNATURE + "digest validation failed: signature digest mismatch"]), ExitCode.AUTH),
        (errors.Unauthorized(401, ["authentication is invalid"]), ExitCode.AUTH),
        (errors.Forbidden(403, [SIGNATURE + "user disabled"]), ExitCode.AUTH),
        (errors.BadRequest(400, [SIGNATURE + "Token ID is malformed."]), ExitCode.AUTH),
        (errors.BadRequest(400, ["Unexpected authorization scheme: svcsignature."]), ExitCode.AUTH),
        (errors.BadRequest(400, ["column format does not support sorting"]), ExitCode.USAGE),
        (errors.NotFound(404, ["resource not found"]), ExitCode.NOT_FOUND),
        (errors.EnterpriseOnly(404, ["404 page not found"]), ExitCode.NOT_FOUND),
        (errors.RateLimited(429, ["Limit exceeded"]), ExitCode.SERVER),
        (errors.ServerError(500, ["an internal error has occurred that is preventing the service from servicing"]),
         ExitCode.SERVER),
        (errors.ServerError(503, ["Service Unavailable"]), ExitCode.SERVER),
        (errors.ApiConnectionError("cannot reach http://127.0.0.1:1: connection refused"), ExitCode.SERVER),
        (errors.ApiTimeout("no answer from http://127.0.0.1:1 within 40 s"), ExitCode.SERVER),
        (errors.ResponseShapeError("the body is not JSON"), ExitCode.SERVER),
    ],
)  # fmt: skip
def test_every_api_error_has_its_exit_code(error: errors.ApiError, code: ExitCode) -> None:
    assert exit_code_for(error) is code


def _tag(tag_id: int) -> AssetGroupTag:
    return AssetGroupTag(id=tag_id, name=f"tag {tag_id}")


def test_all_writes_each_page_before_requesting_the_next() -> None:
    out = io.StringIO()
    seen_before_each_request: list[int] = []

    async def pages() -> AsyncGenerator[Sequence[BaseModel], None]:
        for first in (1, 4, 7):
            seen_before_each_request.append(len(out.getvalue().splitlines()))
            yield [_tag(first), _tag(first + 1), _tag(first + 2)]

    async def unused_first_page() -> tuple[Sequence[BaseModel], int]:
        raise AssertionError("--all must not fetch a single page")

    listing = write_listing(
        JsonLinesWriter(out),
        noun="tags",
        fetch_all=True,
        skip=0,
        limit=8,
        first_page=unused_first_page,
        all_pages=pages,
    )
    asyncio.run(listing)
    assert seen_before_each_request == [0, 3, 6]  # the previous page was already out when the next was asked for
    assert len(out.getvalue().splitlines()) == 8  # --limit cut the last page
