"""`svctui events|tasks|clients|tags|selectors list`: every read of the API as a scriptable command (gh style)."""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, NoReturn

import click
from pydantic import BaseModel

from svctui.api.filters import (
    CLIENTS,
    COMPLETED_TASKS,
    EVENTS,
    SELECTORS,
    TAGS,
    TASKS_NEWEST_FIRST,
    Filter,
    SortKey,
    case_note,
)
from svctui.api.limits import (
    DEPRECATED_TASK_ENDPOINT,
    REPLACEMENT_TASK_ENDPOINT,
    TASK_ENDPOINTS,
    TaskEndpoint,
)
from svctui.api.models import AssetGroupTag, CollectionClient, CompletedTask, Event, Selector
from svctui.api.query import ListQuery
from svctui.api.quoting import quote_input
from svctui.clitypes import NegativeIdsCommand
from svctui.commands.client_names import ClientNameBook
from svctui.commands.client_ref import check_client, is_uuid, named_client, resolve_clients
from svctui.commands.common import (
    DEFAULT_LIMIT,
    CommandFailure,
    ExitCode,
    check_tag,
    fail,
    filter_option,
    format_option,
    list_options,
    note,
    parse_query,
    profile_option,
    run_connected,
)
from svctui.commands.output import Format, ItemWriter, make_writer
from svctui.commands.table import NameOf, TableColumn, cli_now, table_columns

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.store.model import Profile


FirstPage = Callable[[], Awaitable[tuple[Sequence[BaseModel], int]]]
AllPages = Callable[[], AsyncGenerator[Sequence[BaseModel], None]]


def new_writer(
    fmt: str,
    model: type[BaseModel],
    noun: str,
    columns: tuple[TableColumn, ...] | None = None,
    now: datetime | None = None,
    name_of: NameOf | None = None,
) -> ItemWriter:
    """A writer on the current stdout (CliRunner swaps it, so look it up at call time)."""
    return make_writer(
        Format(fmt), model, sys.stdout, noun=noun, err=sys.stderr, columns=columns, now=now, name_of=name_of
    )


async def write_listing(
    writer: ItemWriter,
    *,
    noun: str,
    fetch_all: bool,
    skip: int,
    limit: int | None,
    first_page: FirstPage,
    all_pages: AllPages | None = None,
) -> int:
    """One page (default) or every page (--all, capped by --limit) into `writer`, writing one page at a time; how
    many items were written.

    Each page is written (and flushed) as it arrives; the client has at most two more on their way (`paginate`).
    """
    complete = False
    written = 0
    try:
        if not fetch_all:
            items, count = await first_page()
            writer.write_page(items)
            written = len(items)
            shown_to = skip + len(items)
            if count > shown_to:  # in every format: `-o json | jq length` said 100 of 200 with no word (issue 28)
                first = f"{skip + 1:,}-{shown_to:,}" if items else "none"
                note(f"note: showing {first} of {count:,} {noun}; more with --skip {shown_to} or --all")
            elif not items and 0 < count <= skip:
                note(f"note: --skip {skip:,} is past the end: there are {count:,} {noun}")
        elif limit != 0:
            assert all_pages is not None, "--all needs a paged read"
            remaining = limit
            async with contextlib.aclosing(all_pages()) as pages:
                async for page in pages:
                    items = page if remaining is None else page[:remaining]
                    writer.write_page(items)
                    written += len(items)
                    if remaining is not None:
                        remaining -= len(items)
                        if remaining <= 0:
                            break
        complete = True
    except Exception as exc:
        if fetch_all and not isinstance(exc, BrokenPipeError):  # a reader that stopped reading needs no note
            note(
                f"the output is cut short: {written:,} {noun} were written before the error below; "
                f"--skip {skip + written} continues from there"
            )
        raise
    finally:
        writer.close(complete=complete)
    return written


def _page_data(page: Any) -> Sequence[BaseModel]:
    data: Sequence[BaseModel] = page.data
    return data


@dataclass(frozen=True)
class Listing:
    """What one list command reads: a paged resource of the client, its leading arguments and query, the model."""

    model: type[BaseModel]
    noun: str
    resource: Callable[[ApiClient], Any]  # client -> client.events / client.tasks / client.selectors
    args: tuple[object, ...] = ()  # leading positional arguments: the client id, the tag id
    query: ListQuery = field(default_factory=ListQuery)  # filters, sort, hydration; skip, limit from --skip etc.
    items: Callable[[Any], Sequence[BaseModel]] = _page_data  # a page -> its items
    not_found: str = ""  # what a 404 means here (the client or tag named on the command line does not exist)
    resolve: Callable[[ApiClient, str], Awaitable[tuple[object, ...]]] | None = None  # args worked out once connected
    resolve_query: Callable[[ApiClient, str], Awaitable[ListQuery]] | None = None  # a query worked out once connected

    async def first_page(self, client: ApiClient, skip: int, limit: int) -> tuple[Sequence[BaseModel], int]:
        """One request: the items from `skip` and the total count."""
        page = await self.resource(client).list(*self.args, self.query.page(skip, limit))
        return self.items(page), page.count

    async def all_pages(
        self, client: ApiClient, skip: int, page_size: int
    ) -> AsyncGenerator[Sequence[BaseModel], None]:
        """Every page from `skip` on, as it arrives."""
        query = replace(self.query, skip=skip)
        async for page in self.resource(client).pages(*self.args, query, page_size=page_size):
            yield self.items(page)


def run_listing(
    ctx: click.Context,
    listing: Listing,
    *,
    skip: int,
    limit: int | None,
    fetch_all: bool,
    page_size: int,
    fmt: str,
    profile_name: str | None,
) -> NoReturn:
    """Connect and print `listing` with the shared list options (see `list_options`)."""

    from svctui.api.errors import EnterpriseOnly, NotFound

    async def body(client: ApiClient, profile: Profile) -> None:
        nonlocal listing
        if listing.resolve is not None:  # a client given by name: its id, from the server's clients
            listing = replace(listing, args=await listing.resolve(client, profile.name))
        if listing.resolve_query is not None:  # a filter naming a client: its id, from the server's clients
            listing = replace(listing, query=await listing.resolve_query(client, profile.name))
        first_page: FirstPage = lambda: listing.first_page(client, skip, limit or DEFAULT_LIMIT)  # noqa: E731
        all_pages: AllPages = lambda: listing.all_pages(client, skip, page_size)  # noqa: E731
        columns = None
        now = cli_now()  # once per command: every row's next run is worked out at the same moment
        book: ClientNameBook | None = None
        # the CLIENT column shows names, and an event's `svctui_client_name` in every other format
        if (fmt == Format.TABLE and listing.model is CompletedTask) or listing.model is Event:
            book = ClientNameBook(profile.name)
            columns = table_columns(listing.model, now, book.name_of) if fmt == Format.TABLE else None
            first_page, all_pages = _naming(book, client, first_page, all_pages)
        try:
            written = await write_listing(
                new_writer(fmt, listing.model, listing.noun, columns, now, book.name_of if book else None),
                noun=listing.noun,
                fetch_all=fetch_all,
                skip=skip,
                limit=limit,
                first_page=first_page,
                all_pages=all_pages,
            )
            if not written:  # nothing matched: a `~eq` value in other capitals is the usual reason (as the editor says)
                for case in [item for item in listing.query.filters if item.op == "~eq"][:1]:
                    note(f"note: {case_note(case.value)}")
        except NotFound as exc:
            resource_missing = "resource not found" in " ".join(exc.messages).lower()  # not a missing route
            if not listing.not_found or isinstance(exc, EnterpriseOnly) or not resource_missing:
                raise
            raise CommandFailure(f"{exc.user_message()}\nhint: {listing.not_found}", ExitCode.NOT_FOUND) from exc

        finally:
            if book is not None:
                book.save()

    run_connected(ctx, profile_name, body)


def _naming(
    book: ClientNameBook, client: ApiClient, first_page: FirstPage, all_pages: AllPages
) -> tuple[FirstPage, AllPages]:
    """The page readers, each page's client names learnt before it is written."""

    async def named_first() -> tuple[Sequence[BaseModel], int]:
        items, count = await first_page()
        await book.learn_page(client, items)
        return items, count

    async def named_all() -> AsyncGenerator[Sequence[BaseModel], None]:
        async with contextlib.aclosing(all_pages()) as pages:
            async for page in pages:
                await book.learn_page(client, page)
                yield page

    return named_first, named_all


def _hydrated_query(
    parsed: tuple[Sequence[Filter], Sequence[SortKey]], no_hydrate_domains: bool, no_hydrate_ous: bool
) -> ListQuery:
    filters, keys = parsed
    return ListQuery(
        tuple(filters), tuple(keys), hydrate_domains=not no_hydrate_domains, hydrate_ous=not no_hydrate_ous
    )


# ---------------------------------------------------------------- events


@click.group()
def events() -> None:
    """Collection schedules (enterprise edition)."""


@events.command("list")
@list_options(hydration=True)
@click.pass_context
def events_list(
    ctx: click.Context,
    /,
    filters: tuple[str, ...],
    sorts: tuple[str, ...],
    no_hydrate_domains: bool,
    no_hydrate_ous: bool,
    **paging: Any,
) -> None:
    """List events (collection schedules). `-f client_id=NAME` takes a client's name as `tasks list` does (looked up
    once connected; exit 2 when no client or several have it). Exit 4 on a community-edition server."""
    plain, named = split_named_clients(filters)
    query = _hydrated_query(parse_query(EVENTS, plain, sorts), no_hydrate_domains, no_hydrate_ous)
    listing = Listing(Event, "events", lambda client: client.events, query=query)
    if named:

        async def with_client_ids(client: ApiClient, profile: str) -> ListQuery:
            ids = await resolve_clients(client, profile, [name for _, name in named], "--filter client_id")
            found = [
                Filter.build(EVENTS, "client_id", op, client_id) for (op, _), client_id in zip(named, ids, strict=True)
            ]
            return replace(query, filters=(*query.filters, *found))

        listing = replace(listing, resolve_query=with_client_ids)
    run_listing(ctx, listing, **paging)


def split_named_clients(filters: Sequence[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """`-f client_id=[eq:|neq:]NAME` apart from the other filters: (the others, [(predicate, name)]); a uuid stays
    with the others. A value that can be no name either is exit 2 before any request."""
    plain: list[str] = []
    named: list[tuple[str, str]] = []
    for text in filters:
        column, sep, rest = text.strip().partition("=")
        op, colon, value = rest.partition(":")
        op, value = (op.strip(), value) if colon and op.strip() in ("eq", "neq") else ("eq", rest)
        if sep and column.strip() == "client_id" and value.strip() and not is_uuid(value):
            check_client(value, f"--filter {column.strip()}")
            named.append((op, value.strip()))
        else:
            plain.append(text)
    return plain, named


# ---------------------------------------------------------------- tasks


@click.group()
def tasks() -> None:
    """Completed collection tasks of a client."""


def refuse_negative_client(text: str) -> None:
    """`tasks list -5`: no client id is a negative number (exit 2); a client so named goes after `--`."""
    fail(
        f"CLIENT_ID: {quote_input(text)} is negative: neither a client's uuid nor an option of this command (see "
        f"--help); a client named so: `svctui tasks list -- {text}`"
    )


@tasks.command(
    "list",
    short_help="List a client's completed tasks, newest first.",
    cls=NegativeIdsCommand,
    check_negative=refuse_negative_client,
)
@click.argument("client_id", metavar="CLIENT_ID")
@list_options(hydration=True, default_sort=f"{TASKS_NEWEST_FIRST[0].render()} (newest first, as the dashboard)")
@click.option(
    "--endpoint",
    type=click.Choice(TASK_ENDPOINTS),
    default=None,
    help=f"{REPLACEMENT_TASK_ENDPOINT} (the default) or {DEPRECATED_TASK_ENDPOINT} (deprecated, same shape). "
    f"Without it: {REPLACEMENT_TASK_ENDPOINT}, or {DEPRECATED_TASK_ENDPOINT} on a server that lacks it "
    "(found once, remembered for the profile; a note on stderr says so).",
)
@click.pass_context
def tasks_list(
    ctx: click.Context,
    /,
    client_id: str,
    filters: tuple[str, ...],
    sorts: tuple[str, ...],
    no_hydrate_domains: bool,
    no_hydrate_ous: bool,
    endpoint: TaskEndpoint | None,
    **paging: Any,
) -> None:
    """List the completed tasks of CLIENT_ID (a uuid, or the client's name as `svctui clients list` shows it), newest
    first unless --sort says otherwise. Exit 4 when the server has no such client, 2 for a name no client or several
    have."""
    check_client(client_id, "CLIENT_ID")  # a uuid, or a client's name (looked up once connected)
    parsed, keys = parse_query(COMPLETED_TASKS, filters, sorts)
    query = _hydrated_query((parsed, keys or list(TASKS_NEWEST_FIRST)), no_hydrate_domains, no_hydrate_ous)
    query = replace(query, endpoint=endpoint)
    client_uuid = client_id.strip().lower()
    missing = f"the server has no client {client_uuid}; `svctui events list` shows the client ids of its schedules"
    listing = Listing(CompletedTask, "tasks", lambda client: client.tasks, (client_uuid,), query, not_found=missing)
    listing = replace(listing, resolve=named_client(client_id, "CLIENT_ID"))
    run_listing(ctx, listing, **paging)  # the client notes a deprecated endpoint once (note_deprecation)


# ---------------------------------------------------------------- clients list


@click.group()
def clients() -> None:
    """Collection clients (enterprise edition): name, host, version, last check-in, current job."""


@clients.command("list")
@list_options(hydration=False)
@click.pass_context
def clients_list(ctx: click.Context, /, filters: tuple[str, ...], sorts: tuple[str, ...], **paging: Any) -> None:
    """List the collection clients. Exit 4 on a community-edition server."""
    parsed, keys = parse_query(CLIENTS, filters, sorts)
    query = ListQuery(tuple(parsed), tuple(keys), hydrate_domains=False, hydrate_ous=False)
    run_listing(ctx, Listing(CollectionClient, "clients", lambda client: client.clients, query=query), **paging)


# ---------------------------------------------------------------- tags


@click.group()
def tags() -> None:
    """Asset group tags (tiers, labels, owned)."""


@tags.command("list", short_help="List the asset group tags, all or those filtered.")
@filter_option
@format_option
@profile_option
@click.pass_context
def tags_list(ctx: click.Context, filters: tuple[str, ...], fmt: str, profile_name: str | None) -> None:
    """List the asset group tags, all or those matching the filters (the server does not page or sort them)."""
    parsed, _ = parse_query(TAGS, filters, ())
    query = ListQuery(tuple(parsed))

    async def body(client: ApiClient, _profile: Profile) -> None:
        async def every_tag() -> tuple[Sequence[BaseModel], int]:
            found = await client.tags.list(query)
            return found, len(found)

        writer = new_writer(fmt, AssetGroupTag, "tags")
        await write_listing(writer, noun="tags", fetch_all=False, skip=0, limit=None, first_page=every_tag)

    run_connected(ctx, profile_name, body)


# ---------------------------------------------------------------- selectors


class SelectorsGroup(click.Group):
    """`svctui selectors`: its destructive subcommands are imported when named, not for every read command."""

    LAZY = {
        "delete": "svctui.commands.delete:delete_command",
        "restore": "svctui.commands.restore:restore_command",
        "resume": "svctui.commands.resume:resume_command",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Names of the subcommands."""
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The named subcommand (imported on first use when it is a lazy one)."""
        target = self.LAZY.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module_name, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=SelectorsGroup)
def selectors() -> None:
    """Selectors of an asset group tag: list them, delete them."""


def _selector_items(page: Any) -> Sequence[BaseModel]:
    found: Sequence[BaseModel] = page.data.selectors
    return found


@selectors.command("list", cls=NegativeIdsCommand, check_negative=check_tag)  # `-3`: the tag id's words
@click.argument("tag", metavar="TAG")
@list_options(hydration=False)
@click.pass_context
def selectors_list(
    ctx: click.Context, /, tag: str, filters: tuple[str, ...], sorts: tuple[str, ...], **paging: Any
) -> None:
    """List the selectors of tag TAG (an id; see `svctui tags list`). Exit 4 when the tag does not exist."""
    tag_id = check_tag(tag)
    parsed, keys = parse_query(SELECTORS, filters, sorts)
    query = ListQuery(tuple(parsed), tuple(keys))
    missing = f"the server has no asset group tag {tag_id}; `svctui tags list` shows the tags"
    listing = Listing(
        Selector, "selectors", lambda client: client.selectors, (tag_id,), query, _selector_items, missing
    )
    run_listing(ctx, listing, **paging)


def _add_tasks_log() -> None:
    """`tasks log` lives in its own module (svctui.commands.tasks_log)."""
    from svctui.commands.tasks_log import tasks_log

    tasks.add_command(tasks_log)


_add_tasks_log()
