"""`svctui events|tasks|tags|selectors list`: every read of the API as a scriptable command (gh/kubectl style)."""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from typing import Any

import click
from pydantic import BaseModel

from svctui.api.filters import COMPLETED_TASKS, EVENTS, SELECTORS, VALUE_PATTERNS, Kind
from svctui.api.models import AssetGroupTag, CompletedTask, Event, Selector
from svctui.commands.common import (
    DEFAULT_LIMIT,
    ExitCode,
    check_tag,
    chosen_profile_name,
    connect,
    fail,
    list_options,
    note,
    parse_query,
    profile_option,
    resolve_profile,
    run,
)
from svctui.commands.delete import delete_command
from svctui.commands.output import Format, ItemWriter, make_writer

TASK_ENDPOINTS = ("completed-tasks", "completed-jobs")
DEPRECATION_NOTICE = "note: completed-tasks is deprecated; use --endpoint completed-jobs where the server has it"

FirstPage = Callable[[], Awaitable[tuple[Sequence[BaseModel], int]]]
AllPages = Callable[[], AsyncGenerator[Sequence[BaseModel], None]]


def new_writer(fmt: str, model: type[BaseModel], noun: str) -> ItemWriter:
    """A writer on the current stdout (CliRunner swaps it, so look it up at call time)."""
    return make_writer(Format(fmt), model, sys.stdout, noun=noun, err=sys.stderr)


async def write_listing(
    writer: ItemWriter,
    *,
    fmt: str,
    noun: str,
    fetch_all: bool,
    skip: int,
    limit: int | None,
    first_page: FirstPage,
    all_pages: AllPages,
) -> None:
    """One page (default) or every page (--all, capped by --limit) into `writer`, holding one page at a time."""
    complete = False
    try:
        if not fetch_all:
            items, count = await first_page()
            writer.write_page(items)
            shown_to = skip + len(items)
            if fmt == Format.TABLE and count > shown_to:
                first = f"{skip + 1:,}-{shown_to:,}" if items else "none"
                note(f"showing {first} of {count:,} {noun}; more with --skip {shown_to} or --all")
        elif limit != 0:
            remaining = limit
            async with contextlib.aclosing(all_pages()) as pages:
                async for page in pages:
                    items = page if remaining is None else page[:remaining]
                    writer.write_page(items)
                    if remaining is not None:
                        remaining -= len(items)
                        if remaining <= 0:
                            break
        complete = True
    finally:
        writer.close(complete=complete)


# ---------------------------------------------------------------- events


@click.group()
def events() -> None:
    """Collection schedules (enterprise edition)."""


@events.command("list")
@list_options(hydration=True)
@click.pass_context
def events_list(
    ctx: click.Context,
    filters: tuple[str, ...],
    sorts: tuple[str, ...],
    skip: int,
    limit: int | None,
    fetch_all: bool,
    page_size: int,
    fmt: str,
    profile_name: str | None,
    no_hydrate_domains: bool,
    no_hydrate_ous: bool,
) -> None:
    """List events (collection schedules). Exit 4 on a community-edition server."""
    parsed, keys = parse_query(EVENTS, filters, sorts)
    name = chosen_profile_name(ctx, profile_name)

    async def main() -> ExitCode:
        profile = resolve_profile(name)
        async with connect(profile) as client:
            query: dict[str, Any] = {
                "filters": parsed,
                "sort": keys,
                "hydrate_domains": not no_hydrate_domains,
                "hydrate_ous": not no_hydrate_ous,
            }

            async def first_page() -> tuple[Sequence[BaseModel], int]:
                page = await client.events.list(**query, skip=skip, limit=limit or DEFAULT_LIMIT)
                return page.data, page.count

            async def all_pages() -> AsyncGenerator[Sequence[BaseModel], None]:
                async for page in client.events.pages(**query, skip=skip, page_size=page_size):
                    yield page.data

            await write_listing(
                new_writer(fmt, Event, "events"),
                fmt=fmt,
                noun="events",
                fetch_all=fetch_all,
                skip=skip,
                limit=limit,
                first_page=first_page,
                all_pages=all_pages,
            )
        return ExitCode.OK

    run(main)


# ---------------------------------------------------------------- tasks


@click.group()
def tasks() -> None:
    """Completed collection tasks of a client."""


@tasks.command("list")
@click.argument("client_id", metavar="CLIENT_ID")
@list_options(hydration=True)
@click.option(
    "--endpoint",
    type=click.Choice(TASK_ENDPOINTS),
    default="completed-tasks",
    show_default=True,
    help="completed-tasks (documented, deprecated) or completed-jobs (its replacement, same shape).",
)
@click.pass_context
def tasks_list(
    ctx: click.Context,
    client_id: str,
    filters: tuple[str, ...],
    sorts: tuple[str, ...],
    skip: int,
    limit: int | None,
    fetch_all: bool,
    page_size: int,
    fmt: str,
    profile_name: str | None,
    no_hydrate_domains: bool,
    no_hydrate_ous: bool,
    endpoint: str,
) -> None:
    """List the completed tasks of CLIENT_ID (a uuid). Exit 4 when the server has no such client."""
    if not VALUE_PATTERNS[Kind.UUID].fullmatch(client_id.strip()):
        fail(f"CLIENT_ID {client_id!r} is not a uuid; allowed: a uuid like 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0")
    client_uuid = client_id.strip().lower()
    parsed, keys = parse_query(COMPLETED_TASKS, filters, sorts)
    name = chosen_profile_name(ctx, profile_name)
    if endpoint == "completed-tasks":
        note(DEPRECATION_NOTICE)

    async def main() -> ExitCode:
        profile = resolve_profile(name)
        async with connect(profile) as client:
            warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"svctui\.")  # noticed above
            query: dict[str, Any] = {
                "filters": parsed,
                "sort": keys,
                "hydrate_domains": not no_hydrate_domains,
                "hydrate_ous": not no_hydrate_ous,
                "endpoint": endpoint,
            }

            async def first_page() -> tuple[Sequence[BaseModel], int]:
                page = await client.tasks.list(client_uuid, **query, skip=skip, limit=limit or DEFAULT_LIMIT)
                return page.data, page.count

            async def all_pages() -> AsyncGenerator[Sequence[BaseModel], None]:
                async for page in client.tasks.pages(client_uuid, **query, skip=skip, page_size=page_size):
                    yield page.data

            await write_listing(
                new_writer(fmt, CompletedTask, "tasks"),
                fmt=fmt,
                noun="tasks",
                fetch_all=fetch_all,
                skip=skip,
                limit=limit,
                first_page=first_page,
                all_pages=all_pages,
            )
        return ExitCode.OK

    with warnings.catch_warnings():
        run(main)


# ---------------------------------------------------------------- tags


@click.group()
def tags() -> None:
    """Asset group tags (tiers, labels, owned)."""


@tags.command("list")
@click.option(
    "--format",
    "-o",
    "fmt",
    type=click.Choice([f.value for f in Format]),
    default=Format.TABLE.value,
    show_default=True,
    help="Output format.",
)
@profile_option
@click.pass_context
def tags_list(ctx: click.Context, fmt: str, profile_name: str | None) -> None:
    """List every asset group tag (the server does not page them)."""
    name = chosen_profile_name(ctx, profile_name)

    async def main() -> ExitCode:
        profile = resolve_profile(name)
        async with connect(profile) as client:
            writer = new_writer(fmt, AssetGroupTag, "tags")
            complete = False
            try:
                writer.write_page(await client.tags.list())
                complete = True
            finally:
                writer.close(complete=complete)
        return ExitCode.OK

    run(main)


# ---------------------------------------------------------------- selectors


@click.group()
def selectors() -> None:
    """Selectors of an asset group tag: list them, delete them."""


@selectors.command("list")
@click.argument("tag", metavar="TAG")
@list_options(hydration=False)
@click.pass_context
def selectors_list(
    ctx: click.Context,
    tag: str,
    filters: tuple[str, ...],
    sorts: tuple[str, ...],
    skip: int,
    limit: int | None,
    fetch_all: bool,
    page_size: int,
    fmt: str,
    profile_name: str | None,
) -> None:
    """List the selectors of tag TAG (an id; see `svctui tags list`). Exit 4 when the tag does not exist."""
    tag_id = check_tag(tag)
    parsed, keys = parse_query(SELECTORS, filters, sorts)
    name = chosen_profile_name(ctx, profile_name)

    async def main() -> ExitCode:
        profile = resolve_profile(name)
        async with connect(profile) as client:

            async def first_page() -> tuple[Sequence[BaseModel], int]:
                page = await client.selectors.list(
                    tag_id, filters=parsed, sort=keys, skip=skip, limit=limit or DEFAULT_LIMIT
                )
                return page.data.selectors, page.count

            async def all_pages() -> AsyncGenerator[Sequence[BaseModel], None]:
                async for page in client.selectors.pages(
                    tag_id, filters=parsed, sort=keys, skip=skip, page_size=page_size
                ):
                    yield page.data.selectors

            await write_listing(
                new_writer(fmt, Selector, "selectors"),
                fmt=fmt,
                noun="selectors",
                fetch_all=fetch_all,
                skip=skip,
                limit=limit,
                first_page=first_page,
                all_pages=all_pages,
            )
        return ExitCode.OK

    run(main)


selectors.add_command(delete_command)
