"""What `selectors delete`, `resume` and `restore` share: the prompt that names selectors, the past run to act on,
result lines printed in order with Ctrl-C cancelling, exit codes."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar

import click

from svctui.commands.common import CommandFailure, ExitCode, error, note
from svctui.ops.audit_lines import EXTENSION_RECREATES, restored_enabled_words
from svctui.ops.selector_delete import UNREACHABLE_STREAK, DeleteReport, DeleteResult, Outcome, Stopped
from svctui.text import id_ranges, plural, shown_and_more

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.models import Selector
    from svctui.store.audit_read import AuditLog, AuditRun
    from svctui.store.model import Profile

PROMPT_NAMES_SHOWN = 5
REFUSE_NON_TTY = "refusing to delete without --yes when not on a terminal"


class HasSelectorId(Protocol):
    """A per-id result."""

    @property
    def selector_id(self) -> int:
        """The selector the result is about."""
        ...


R = TypeVar("R", bound=HasSelectorId)
Picked = TypeVar("Picked")
F = TypeVar("F", bound=Callable[..., object])

yes_option = click.option("--yes", "-y", is_flag=True, help="Do not ask; required when stdin is not a terminal.")


def concurrency_option(func: F) -> F:
    """`--concurrency N` (1..MAX_CONCURRENCY, default 4) of `selectors delete` and `resume`."""
    from svctui.commands.common import AsciiInt
    from svctui.ops.selector_delete import MAX_CONCURRENCY

    return click.option(
        "--concurrency",
        type=AsciiInt(1, MAX_CONCURRENCY),
        default=4,
        show_default=True,
        help="Deletions in flight at once (429s are waited out by the client).",
    )(func)


def refuse_if_read_only(ctx: click.Context, profile: Profile, what: str) -> None:
    """Exit 2 before any request when svctui runs read-only (--read-only, SVCTUI_READ_ONLY, the profile's setting)."""
    from svctui.store.read_only import read_only_reason

    root = ctx.find_root()
    flag = bool(root.obj.get("read_only")) if isinstance(root.obj, dict) else False
    why = read_only_reason(profile, flag)
    if why is not None:
        error(f"refusing to {what}: {why}; nothing was sent")
        raise click.exceptions.Exit(int(ExitCode.USAGE))


def refuse_read_only_first(ctx: click.Context, profile_name: str | None, what: str) -> None:
    """Exit 2 when svctui runs read-only, before any other check (arguments, terminal, audit log) or request: the
    flag and SVCTUI_READ_ONLY need no profile; a profile that cannot be resolved is left to the command to report."""
    from svctui.commands.common import chosen_profile_name
    from svctui.store.errors import StoreError
    from svctui.store.profiles import ProfileStore
    from svctui.store.read_only import read_only_reason

    root = ctx.find_root()
    flag = bool(root.obj.get("read_only")) if isinstance(root.obj, dict) else False
    why = read_only_reason(None, flag)
    if why is None:
        try:
            why = read_only_reason(ProfileStore().resolve(chosen_profile_name(ctx, profile_name), secret=False), flag)
        except StoreError:
            return
    if why is not None:
        error(f"refusing to {what}: {why}; nothing was sent")
        raise click.exceptions.Exit(int(ExitCode.USAGE))


def refuse_demo_among(arguments: Sequence[str]) -> None:
    """`--demo` among the ids (delete and restore take unknown options as ids): the root's answer to `--demo`."""
    if "--demo" in arguments:
        from svctui.cli import refuse_demo_with_command

        refuse_demo_with_command()


def named(selector_id: int, records: Mapping[int, Selector]) -> str:
    """`'Old DCs' (12)`, or `12` when the tag's list does not have it."""
    selector = records.get(selector_id)
    return f"{selector.name!r} ({selector_id})" if selector is not None and selector.name else str(selector_id)


def prompt_lines(ids: Sequence[int], records: Mapping[int, Selector], tag_id: int, listed: bool) -> list[str]:
    """The selectors named for the prompt (first few, `and N more`), and how many the server will refuse."""
    lines = [f"  {shown_and_more(ids, PROMPT_NAMES_SHOWN, show=lambda selector_id: named(selector_id, records))}"]
    if not listed:
        lines.append("  (the tag's selector list could not be fetched: names unknown, the audit log keeps no records)")
        return lines
    outside = sum(1 for selector_id in ids if selector_id not in records)
    defaults = sum(1 for selector_id in ids if selector_id in records and records[selector_id].is_default)
    if outside:
        lines.append(f"  {outside:,} of them not part of tag {tag_id} (or already gone): nothing to delete there")
    if defaults:
        lines.append(f"  {defaults:,} of them default selectors: the server will refuse them")
    owned = [selector_id for selector_id in ids if selector_id in records and records[selector_id].extension_owned]
    if owned:
        lines.append(
            f"  {len(owned):,} of them owned by an extension ({id_ranges(owned)}): {EXTENSION_RECREATES}, and a "
            "restore will not re-create them"
        )
    disabled = [i for i in ids if i in records and records[i].disabled_at is not None and not records[i].is_default]
    if disabled:
        warning = restored_enabled_words(len(disabled))
        lines.append(f"  {len(disabled):,} of them disabled ({id_ranges(disabled)}): {warning}")
    return lines


@contextlib.contextmanager
def ctrl_c_cancels(cancel: asyncio.Event, client: ApiClient | None = None) -> Iterator[None]:
    """The first Ctrl-C sets `cancel` (requests in flight finish, not tried again, the end line is written); a second
    stops at once."""
    loop = asyncio.get_running_loop()

    def first_interrupt() -> None:
        note("cancelling: requests in flight finish, nothing more is sent (Ctrl-C again to stop at once)")
        if client is not None:
            client.stop_retrying()  # a request in flight is not sent again, nor waits out a 429
        cancel.set()
        loop.remove_signal_handler(signal.SIGINT)

    try:
        loop.add_signal_handler(signal.SIGINT, first_interrupt)
    except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def agreed(question: str, count: int, doing: str) -> bool:
    """Ask on the terminal: above TYPED_COUNT_ABOVE selectors the count must be typed (`Type 84 to delete 84
    selectors:`), as in the dashboard's review; else `question [y/N]` (default no)."""
    from svctui.ops.selector_ids import TYPED_COUNT_ABOVE

    if count > TYPED_COUNT_ABOVE:
        typed = click.prompt(f"Type {count} to {doing}", default="", show_default=False, err=True)
        return str(typed).strip() == str(count)
    return click.confirm(question, default=False, err=True)


def declined(question: str, yes: bool, count: int, doing: str) -> bool:
    """Unless `yes`: ask (`agreed`: the count typed above 20) and say "nothing was deleted" when the answer is no."""
    if yes or agreed(question, count, doing):
        return False
    note("aborted: nothing was deleted")
    return True


def refuse_off_terminal(run_id: str | None, yes: bool, refusal: str) -> None:
    """Without --yes off a terminal, exit 2 — after checking the run: an unknown RUN_ID is said first, since
    adding --yes would not help it."""
    import sys

    from svctui.commands.common import fail
    from svctui.store.audit_read import read_audit
    from svctui.store.errors import StoreError

    if yes or sys.stdin.isatty():
        return
    if run_id:
        try:
            read_audit().get(run_id)
        except StoreError as exc:
            fail(str(exc))
    fail(refusal)


def past_run_here(
    ctx: click.Context,
    profile: Profile,
    client: ApiClient,
    what: str,
    pick: Callable[[AuditLog], Picked],
    run_of: Callable[[Picked], AuditRun],
    *,
    verb: Literal["resume", "restore"],
    dry_run: bool = False,
) -> tuple[Picked, Path]:
    """For resume and restore (`verb`): refuse a read-only profile, check the log writable, pick from it, and refuse
    a run made on another server (exit 2). Returns what `pick` chose and the log's path; `pick`'s own errors pass.
    A `dry_run` only reads the log: neither read-only nor an unwritable log stops it."""
    from svctui.ops.resume import ResumeRefused, check_same_server
    from svctui.store.audit import audit_path, check_audit_writable
    from svctui.store.audit_read import read_audit

    if dry_run:
        audit_log = audit_path()
    else:
        refuse_if_read_only(ctx, profile, what)
        audit_log = check_audit_writable()
    try:
        log = read_audit(audit_log)
        if log.unreadable_lines:  # a torn line, or a foreign one: skipped, and said
            note(f"note: {log.unreadable_lines:,} line(s) of the audit log could not be read and were skipped")
        picked = pick(log)
        check_same_server(run_of(picked), client.base_url, verb=verb, token_id=profile.token_id)
    except ResumeRefused as exc:
        raise CommandFailure(str(exc), ExitCode.USAGE) from None
    return picked, audit_log


async def printed_run(
    client: ApiClient,
    profile: Profile,
    ids: Sequence[int],
    start: Callable[..., Awaitable[DeleteReport]],
) -> DeleteReport:
    """Run a deletion, `start(context=, on_result=, cancel=)` (a partial of `delete_selectors` or `resume_run`):
    the profile's audit context, each result printed in the order of `ids`, the first Ctrl-C cancelling gracefully."""
    from svctui.ops.audit_lines import AuditContext

    cancel = asyncio.Event()
    with ctrl_c_cancels(cancel, client):
        context = AuditContext.of(profile.name, profile.token_id, client.base_url)
        return await start(context=context, on_result=InOrder(ids, result_line), cancel=cancel)


def result_line(result: DeleteResult) -> str:
    """`selector 12: deleted`, `selector 13: already gone (404 resource not found)`, `selector 14: failed: …`."""
    line = f"selector {result.selector_id}: {result.outcome}"
    if result.outcome in (Outcome.FAILED, Outcome.AUTH_FAILED, Outcome.SKIPPED, Outcome.NO_ANSWER):
        return f"{line}: {result.message}" if result.message else line
    if result.outcome is not Outcome.DELETED and result.message:
        status = f"{result.status} " if result.status else ""
        return f"{line} ({status}{result.message})"
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
    """3 auth failure; 5 any other failure, no answer, or the audit log failed; 1 cancelled (Ctrl-C); 4 refused /
    not part of tag; else 0."""
    counts = report.counts
    if counts[Outcome.AUTH_FAILED]:
        return ExitCode.AUTH
    if counts[Outcome.FAILED] or counts[Outcome.NO_ANSWER] or report.audit_error is not None:
        return ExitCode.SERVER
    if report.stopped is Stopped.CANCELLED:  # before 4: a script must see that the run was interrupted
        return ExitCode.ABORTED
    if counts[Outcome.REFUSED_DEFAULT] or counts[Outcome.NOT_IN_TAG]:
        return ExitCode.NOT_FOUND
    return ExitCode.OK


def finish(report: DeleteReport, audit_log: object) -> ExitCode:
    """Say how the run ended (the run id, counts, the log; why it stopped; how to resume) and pick the exit code."""
    if report.audit_error is not None:
        error(f"{report.audit_error}; stopped: nothing more was sent")
    elif report.stopped is Stopped.UNREACHABLE:
        error(
            f"stopped: the server could not be reached {UNREACHABLE_STREAK} times in a row (after retries); "
            "requests in flight were finished and nothing more was sent"
        )
    if not report.planned:  # the log does not hold the run: no resume could find it
        note(f"run {report.run_id} was not written to the audit log ({audit_log}): nothing was sent; free the disk or "
             "fix the log, then run the command again")  # fmt: skip
        return exit_code(report)
    note(f"run {report.run_id}: {report.summary()} (audit log: {audit_log})")
    unsure = report.unsettled()
    if unsure and report.stopped is not Stopped.AUTH_FAILED:
        again = plural(unsure, "unsettled selector")
        note(f"hint: `svctui selectors resume {report.run_id}` re-checks the {again} with GET")
    return exit_code(report)
