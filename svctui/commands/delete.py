"""`svctui selectors delete TAG ID|RANGE...`: bulk selector deletion with dry run, confirmation and audit."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Generic, Protocol, TypeVar

import click

from svctui.commands.common import (
    CommandFailure,
    ExitCode,
    check_tag,
    error,
    fail,
    note,
    profile_option,
    run_connected,
)
from svctui.ops.selector_delete import (
    MAX_CONCURRENCY,
    AuditContext,
    DeleteReport,
    DeleteResult,
    Outcome,
    Preview,
    PreviewResult,
    delete_selectors,
    preview_selectors,
)
from svctui.ops.selector_ids import IdError, collect_ids, lines_to_tokens

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.store.model import Profile


class HasSelectorId(Protocol):
    """A per-id result."""

    @property
    def selector_id(self) -> int:
        """The selector the result is about."""
        ...


R = TypeVar("R", bound=HasSelectorId)

REFUSE_NON_TTY = "refusing to delete without --yes when not on a terminal"
PROMPT_IDS_SHOWN = 10


def read_ids(arguments: tuple[str, ...], from_file: IO[str] | None) -> list[int]:
    """Every id from the arguments and the file (or stdin), validated before any request; exit 2 on bad input."""
    tokens = [(text, f"argument {text!r}") for text in arguments]
    if from_file is not None:
        source = "stdin" if from_file.name in ("-", "<stdin>") else str(from_file.name)
        try:
            tokens += lines_to_tokens(from_file, source)
        except UnicodeDecodeError as exc:
            fail(f"{source}: not UTF-8 text ({exc.reason}); give one selector id or range per line")
    try:
        ids = collect_ids(tokens)
    except IdError as exc:
        fail(str(exc))
    if not ids:
        fail("no selector ids given; pass ID or RANGE arguments, or --from-file FILE|- with one per line")
    return ids


def id_preview(ids: list[int]) -> str:
    """The first ids, then how many more."""
    shown = ", ".join(str(value) for value in ids[:PROMPT_IDS_SHOWN])
    more = len(ids) - PROMPT_IDS_SHOWN
    return f"{shown} … and {more:,} more" if more > 0 else shown


def result_line(result: DeleteResult) -> str:
    """`selector 12: deleted`, `selector 13: already gone (404 resource not found)`, `selector 14: failed: …`."""
    line = f"selector {result.selector_id}: {result.outcome}"
    if result.outcome in (Outcome.FAILED, Outcome.AUTH_FAILED, Outcome.SKIPPED):
        return f"{line}: {result.message}" if result.message else line
    if result.outcome is not Outcome.DELETED and result.message:
        status = f"{result.status} " if result.status else ""
        return f"{line} ({status}{result.message})"
    return line


def preview_line(result: PreviewResult) -> str:
    """`selector 12: would delete "Old DCs"`."""
    line = f"selector {result.selector_id}: {result.preview}"
    if result.selector is not None and result.selector.name:
        return f"{line} {result.selector.name!r}"
    if result.preview is Preview.UNKNOWN and result.message:
        return f"{line}: {result.message}"
    return line


class InOrder(Generic[R]):
    """Print results in the order the ids were given, each as soon as every earlier one is known."""

    def __init__(self, ids: Sequence[int], line: Callable[[R], str]) -> None:
        self.ids = ids
        self.line = line
        self.position = 0
        self.waiting: dict[int, R] = {}

    def __call__(self, result: R) -> None:
        """Take one result (any order) and print what is now printable."""
        self.waiting[result.selector_id] = result
        while self.position < len(self.ids) and self.ids[self.position] in self.waiting:
            click.echo(self.line(self.waiting.pop(self.ids[self.position])))
            self.position += 1


def exit_code(report: DeleteReport) -> ExitCode:
    """3 auth failure; 5 any other failure (or the audit log failed); 4 refused or not part of the tag; else 0."""
    counts = report.counts
    if counts[Outcome.AUTH_FAILED]:
        return ExitCode.AUTH
    if counts[Outcome.FAILED] or report.audit_error is not None:
        return ExitCode.SERVER
    if counts[Outcome.REFUSED_DEFAULT] or counts[Outcome.NOT_IN_TAG]:
        return ExitCode.NOT_FOUND
    return ExitCode.OK


async def tag_label(client: ApiClient, tag_id: int) -> str:
    """`3 'Tier Zero'`, or `3` when the tag list is unavailable; exit 4 when the server lists tags and 3 is not one.

    Authentication failures propagate (exit 3 before any deletion); any other failure to list tags only costs
    the name (a note on stderr), so deletions still run and report their own outcomes.
    """
    from svctui.api.errors import ApiError, NotFound
    from svctui.ops.selector_delete import is_auth_failure

    try:
        known = await client.tags.list()
    except NotFound:
        return str(tag_id)
    except ApiError as exc:
        if is_auth_failure(exc):
            raise
        note(f"note: could not look up the name of tag {tag_id}: {exc.user_message()}")
        return str(tag_id)
    for tag in known:
        if tag.id == tag_id:
            return f"{tag_id} {tag.name!r}" if tag.name else str(tag_id)
    names = ", ".join(f"{tag.id} {tag.name!r}" for tag in known) or "none"
    raise CommandFailure(f"asset group tag {tag_id} not found; tags on this server: {names}", ExitCode.NOT_FOUND)


@click.command("delete")
@click.argument("tag", metavar="TAG")
@click.argument("id_args", nargs=-1, metavar="ID|RANGE...")
@click.option(
    "--from-file",
    type=click.File("r", encoding="utf-8"),
    metavar="FILE|-",
    help="Read ids or ranges, one per line (# comments and blank lines ignored); - reads stdin.",
)
@click.option(
    "--dry-run", is_flag=True, help="Show what would be deleted (names when the server has them); delete nothing."
)
@click.option("--yes", "-y", is_flag=True, help="Do not ask; required when stdin is not a terminal.")
@click.option(
    "--concurrency",
    type=click.IntRange(1, MAX_CONCURRENCY),
    default=4,
    show_default=True,
    help="Deletions in flight at once (429s are retried by the client).",
)
@profile_option
@click.pass_context
def delete_command(
    ctx: click.Context,
    tag: str,
    id_args: tuple[str, ...],
    from_file: IO[str] | None,
    dry_run: bool,
    yes: bool,
    concurrency: int,
    profile_name: str | None,
) -> None:
    """Delete selectors ID (or RANGE like 10-20, inclusive) of tag TAG; every attempt goes to the audit log.

    Outcomes: deleted, already gone (404 on a repeat), refused: default selector (403), not part of tag,
    failed (with the reason). Exit 0 when every selector is deleted or already gone, 1 when you answer no,
    2 on bad input, no terminal without --yes or an audit log that cannot be written, 3 on an authentication
    failure (the run stops), 4 when the tag does not exist or a selector was refused or is not part of the tag,
    5 when any deletion failed otherwise (or the audit log failed midway: the run stops).
    """
    tag_id = check_tag(tag)
    ids = read_ids(id_args, from_file)
    reading_stdin = from_file is not None and from_file.name in ("-", "<stdin>")
    if not dry_run and not yes and (reading_stdin or not sys.stdin.isatty()):
        fail(REFUSE_NON_TTY)

    async def body(client: ApiClient, profile: Profile) -> ExitCode:
        from svctui.store.audit import check_audit_writable

        audit_log = None if dry_run else check_audit_writable()  # before any request: no unrecorded deletion
        label = await tag_label(client, tag_id)
        noun = "selector" if len(ids) == 1 else "selectors"
        if dry_run:
            note(f"dry run: {len(ids):,} {noun} of tag {label} on {client.base_url}; nothing will be deleted")
            previews = await preview_selectors(
                client, tag_id, ids, concurrency=concurrency, on_result=InOrder(ids, preview_line)
            )
            would = sum(1 for p in previews if p.preview in (Preview.WOULD_DELETE, Preview.UNKNOWN))
            note(f"dry run: {would:,} of {len(ids):,} would be deleted; nothing was deleted")
            return ExitCode.OK
        if not yes:
            where = f"{client.base_url} (profile {profile.name})"
            note(f"About to delete {len(ids):,} {noun} from tag {label} on {where}:")
            note(f"  {id_preview(ids)}")
            if not click.confirm(f"Delete {len(ids):,} {noun}?", default=False, err=True):
                note("aborted: nothing was deleted")
                return ExitCode.ABORTED
        report = await delete_selectors(
            client,
            tag_id,
            ids,
            context=AuditContext(profile=profile.name, base_url=client.base_url),
            concurrency=concurrency,
            on_result=InOrder(ids, result_line),
        )
        if report.audit_error is not None:
            error(f"{report.audit_error}; stopped: the remaining selectors were not attempted")
        note(f"{report.summary()} (audit log: {audit_log})")
        return exit_code(report)

    run_connected(ctx, profile_name, body)
