"""`svctui selectors delete TAG ID|RANGE...`: bulk selector deletion with dry run, confirmation and audit."""

from __future__ import annotations

import sys
from functools import partial
from typing import IO, TYPE_CHECKING

import click

from svctui.api.quoting import quote_input
from svctui.commands.common import (
    CommandFailure,
    ExitCode,
    check_tag,
    fail,
    note,
    profile_option,
    run_connected,
)
from svctui.commands.delete_common import (
    REFUSE_NON_TTY,
    InOrder,
    concurrency_option,
    declined,
    exit_code,
    finish,
    printed_run,
    prompt_lines,
    refuse_demo_among,
    refuse_if_read_only,
    refuse_read_only_first,
    result_line,
    yes_option,
)
from svctui.ops.audit_lines import EXTENSION_RECREATES, owner_words, restored_enabled_words, selector_record
from svctui.ops.selector_delete import (
    Preview,
    PreviewResult,
    delete_selectors,
    preview_selectors,
)
from svctui.ops.selector_ids import MAX_IDS, IdError, collect_ids, lines_to_tokens
from svctui.text import id_ranges

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.models import Selector
    from svctui.store.model import Profile

MIB_CHARS = 1024 * 1024
MAX_ID_FILE_CHARS = 4 * MIB_CHARS  # 10,000 ids with a comment each fit many times over

__all__ = ["REFUSE_NON_TTY", "delete_command", "exit_code", "result_line", "tag_label"]


def read_ids(arguments: tuple[str, ...], from_file: IO[str] | None) -> list[int]:
    """Every id from the arguments and the file (or stdin), validated before any request; exit 2 on bad input."""
    tokens = [(text, f"argument {quote_input(text)}") for text in arguments]
    if from_file is not None:
        source = "stdin" if from_file.name in ("-", "<stdin>") else str(from_file.name)
        try:
            text = from_file.read(MAX_ID_FILE_CHARS + 1)  # capped: `/dev/zero` is one endless line
        except UnicodeDecodeError as exc:
            fail(f"{source}: not UTF-8 text ({exc.reason}); give one selector id or range per line")
        except OSError as exc:  # /proc/self/mem, a directory on some systems, an I/O error
            fail(f"{source}: cannot be read ({exc.strerror or exc}); give a file of selector ids, one per line")
        if len(text) > MAX_ID_FILE_CHARS:
            fail(
                f"{source}: longer than {MAX_ID_FILE_CHARS // MIB_CHARS} MiB of text, which no list of at most "
                f"{MAX_IDS:,} selector ids needs; nothing was read further"
            )
        tokens += lines_to_tokens(text.split("\n"), source)  # not splitlines(): it also splits at \x1c-\x1e
    try:
        ids = collect_ids(tokens)
    except IdError as exc:
        fail(str(exc))
    if not ids:
        fail("no selector ids given; pass ID or RANGE arguments, or --from-file FILE|- with one per line")
    return ids


def preview_line(result: PreviewResult) -> str:
    """`selector 12: would delete "Old DCs"`, `selector 13: could not be checked: HTTP 500 …`."""
    line = f"selector {result.selector_id}: {result.preview}"
    if result.selector is not None and result.selector.extension_owned:
        owner = owner_words(selector_record(result.selector))
        return f"{line} {result.selector.name!r} (owned by an extension: {owner}; {EXTENSION_RECREATES})"
    if result.selector is not None and result.selector.name:
        return f"{line} {result.selector.name!r}"
    if result.preview in (Preview.UNKNOWN, Preview.UNCHECKED) and result.message:
        return f"{line}: {result.message}"
    return line


async def tag_label(client: ApiClient, tag_id: int) -> tuple[str, str]:
    """(`3 'Tier Zero'`, `Tier Zero`), or (`3`, '') when the tag list is unavailable; exit 4 when it lacks the tag.

    Authentication failures propagate (exit 3 before any deletion); any other failure to list tags only costs
    the name (a note on stderr), so deletions still run and report their own outcomes.
    """
    from svctui.api.errors import ApiError, NotFound
    from svctui.ops.selector_delete import is_auth_failure

    try:
        known = await client.tags.list()
    except NotFound:
        return str(tag_id), ""
    except ApiError as exc:
        if is_auth_failure(exc):
            raise
        note(f"note: could not look up the name of tag {tag_id}: {exc.user_message()}")
        return str(tag_id), ""
    for tag in known:
        if tag.id == tag_id:
            return (f"{tag_id} {tag.name!r}" if tag.name else str(tag_id)), tag.name
    names = ", ".join(f"{tag.id} {tag.name!r}" for tag in known) or "none"
    raise CommandFailure(f"asset group tag {tag_id} not found; tags on this server: {names}", ExitCode.NOT_FOUND)


async def tag_selectors(client: ApiClient, tag_id: int) -> dict[int, Selector] | None:
    """The tag's selectors by id, fetched once; None (with a note) when the list can't be had. Auth failures raise."""
    from svctui.api.errors import ApiError
    from svctui.ops.selector_delete import fetch_selector_records, is_auth_failure

    try:
        return await fetch_selector_records(client, tag_id)
    except ApiError as exc:
        if is_auth_failure(exc):
            raise
        note(f"note: could not list the selectors of tag {tag_id}: {exc.user_message()}")
        return None


def _first_ids(ids: list[int]) -> str:
    """`10, 13, 14` (the first 10 ids, then `…`)."""
    return ", ".join(map(str, ids[:10])) + (" …" if len(ids) > 10 else "")


async def dry_run_of(client: ApiClient, tag_id: int, label: str, ids: list[int], concurrency: int) -> ExitCode:
    """Look each id up (GET only) and print what would happen; the exit code the run would give: 5 when any
    lookup got no real answer, 4 when a selector would be refused or is not part of the tag, else 0."""
    noun = "selector" if len(ids) == 1 else "selectors"
    note(f"dry run: {len(ids):,} {noun} of tag {label} on {client.base_url}; nothing will be deleted")
    previews = await preview_selectors(
        client, tag_id, ids, concurrency=concurrency, on_result=InOrder(ids, preview_line)
    )
    unchecked = [p for p in previews if p.preview is Preview.UNCHECKED]
    if unchecked:
        shown = ", ".join(str(p.selector_id) for p in unchecked[:10]) + (" …" if len(unchecked) > 10 else "")
        note(f"error: {len(unchecked):,} of {len(ids):,} could not be checked ({shown}): {unchecked[0].message}")
        note("dry run: incomplete; nothing was deleted")
        return ExitCode.SERVER
    would = sum(1 for p in previews if p.preview in (Preview.WOULD_DELETE, Preview.UNKNOWN))
    note(f"dry run: {would:,} of {len(ids):,} would be deleted; nothing was deleted")
    disabled = [
        p.selector_id
        for p in previews
        if p.preview is Preview.WOULD_DELETE and p.selector is not None and p.selector.disabled_at is not None
    ]
    if disabled:
        warning = restored_enabled_words(len(disabled))
        note(f"dry run: {len(disabled):,} of them disabled ({id_ranges(disabled)}): {warning}")
    missing = [p.selector_id for p in previews if p.preview is Preview.NOT_FOUND]
    if missing:  # named too, so the summary lines add up to the ids given
        note(f"dry run: {len(missing):,} not found ({_first_ids(missing)}): nothing to delete there")
    refused = [p.selector_id for p in previews if p.preview in (Preview.WOULD_REFUSE, Preview.NOT_IN_TAG)]
    if refused:  # the exit code the run would give: a script can ask first
        shown = _first_ids(refused)
        verb = "is" if len(refused) == 1 else "are"
        note(f"dry run: {len(refused):,} would be refused or {verb} not part of tag {tag_id} ({shown}): exit 4")
        return ExitCode.NOT_FOUND
    return ExitCode.OK


@click.command(
    "delete",
    short_help="Delete selectors of tag TAG by id or range (audited).",
    context_settings={"ignore_unknown_options": True},
)  # `-5` is a refused id, not an option
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
@yes_option
@concurrency_option
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
    """Delete selectors ID (or RANGE like 10-20, inclusive) of tag TAG; every step goes to the audit log.

    Outcomes: deleted, already gone (404 on a repeat), refused: default selector (403), not part of tag,
    failed (with the reason), no answer (sent, never answered: may or may not be gone — `selectors resume`
    re-checks). Exit 0 when every selector is deleted or already gone, 1 when you answer no, 2 on bad input,
    no terminal without --yes, a read-only profile or an audit log that cannot be written before the start,
    3 on an authentication failure (the run stops), 4 when the tag does not exist or a selector was refused or
    is not part of the tag, 5 when any deletion failed or got no answer, the audit log failed midway (the run
    stops), or a dry run could not check every selector.
    """
    if not dry_run:
        refuse_read_only_first(ctx, profile_name, "delete")
    refuse_demo_among((tag, *id_args))
    tag_id = check_tag(tag)
    ids = read_ids(id_args, from_file)
    reading_stdin = from_file is not None and from_file.name in ("-", "<stdin>")
    if not dry_run and not yes and (reading_stdin or not sys.stdin.isatty()):
        fail(REFUSE_NON_TTY)

    async def body(client: ApiClient, profile: Profile) -> ExitCode:
        from svctui.store.audit import check_audit_writable

        if not dry_run:
            refuse_if_read_only(ctx, profile, "delete")
        audit_log = None if dry_run else check_audit_writable()  # before any request: no unrecorded deletion
        label, tag_name = await tag_label(client, tag_id)
        if dry_run:
            return await dry_run_of(client, tag_id, label, ids, concurrency)
        records = await tag_selectors(client, tag_id)
        if not yes:
            noun = "selector" if len(ids) == 1 else "selectors"
            note(f"About to delete {len(ids):,} {noun} from tag {label} on {client.base_url} (profile {profile.name}):")
            for line in prompt_lines(ids, records or {}, tag_id, records is not None):
                note(line)
            if declined(f"Delete {len(ids):,} {noun}?", yes, len(ids), f"delete {len(ids):,} {noun}"):
                return ExitCode.ABORTED
        deletion = partial(
            delete_selectors,
            client,
            tag_id,
            ids,
            concurrency=concurrency,
            records=records or {},
            list_failed=records is None,  # each record is then looked up with a GET before its DELETE
            tag_name=tag_name,
        )
        report = await printed_run(client, profile, ids, deletion)
        return finish(report, audit_log)

    run_connected(ctx, profile_name, body)
