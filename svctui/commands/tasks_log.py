"""`svctui tasks log TASK_ID`: a run's collector log, streamed line by line in constant memory, as text or JSON
lines, filtered by level or text, or read for you (`--summary`)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from svctui.clitypes import NegativeIdsCommand
from svctui.commands.common import CommandFailure, ExitCode, fail, profile_option, run_connected
from svctui.visible import visible

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.runlog import LogLine
    from svctui.store.model import Profile

LEVEL_RANKS = {"debug": 0, "information": 1, "warning": 2, "error": 3}
RANK_OF = {"DEBUG": 0, "INFORMATION": 1, "WARNING": 2, "ERROR": 3, "CRITICAL": 3, "FATAL": 3}


def check_task_id(text: str) -> int:
    """A task id from the command line (an integer >= 0 up to int32), or exit 2."""
    from svctui.api.ascii import strip_ascii
    from svctui.api.limits import INT32_MAX
    from svctui.api.quoting import quote_input

    stripped = strip_ascii(text)  # ASCII digits only: `58\x1c` or `٣` was a task, `²` a traceback
    digits = stripped.lstrip("0") or "0"
    allowed = f"a whole number from 0 to {INT32_MAX}, as `tasks list` shows"
    if stripped.startswith("-") and stripped[1:].isascii() and stripped[1:].isdigit():
        fail(f"TASK_ID: {quote_input(text)} is negative; allowed: {allowed}")
    if not (stripped.isascii() and stripped.isdigit()) or len(digits) > 10 or int(digits) > INT32_MAX:
        fail(f"TASK_ID: {quote_input(text)} is not a task id ({allowed})")
    return int(digits)


class LineFilter:
    """`--level` and `--grep`: a plain line (no level: a stack trace's continuation) goes with the line above it."""

    def __init__(self, level: str | None, grep: str | None) -> None:
        self.least = LEVEL_RANKS[level] if level else None
        self.grep = grep.casefold() if grep else None
        self.kept_above = True

    def keeps(self, line: LogLine) -> bool:
        """Whether `line` is printed."""
        if self.least is not None:
            if line.level is None:
                kept = self.kept_above
            else:
                kept = RANK_OF.get(line.level, 1) >= self.least
                self.kept_above = kept
            if not kept:
                return False
        return self.grep is None or self.grep in line.text().casefold()


def json_line(line: LogLine) -> str:
    """One JSON object per line: number, time (as the log writes it, null for a plain line), time_utc (that time in
    UTC, `...Z`, null when the log gives no offset), level, message, cut."""
    item: dict[str, Any] = {
        "line": line.number,
        "time": line.stamp or None,
        "time_utc": line.utc_stamp(),
        "level": line.level,
        "message": line.message,
    }
    if line.cut:
        item["cut"] = True
    return json.dumps(item, ensure_ascii=True)  # \u escapes: no server byte reaches a terminal as a control


async def run_is_unknown(client: ApiClient, number: int) -> bool:
    """Whether no finished run has id `number` (the log's 404 is the same for a run without a log and for no run
    at all); False when the server cannot say (no `jobs/finished`, an error): then the 404 is told as it is."""
    from svctui.api.errors import ApiError
    from svctui.api.filters import Filter
    from svctui.api.query import ListQuery

    query = ListQuery(filters=(Filter("id", "eq", str(number)),), limit=1, hydrate_domains=False, hydrate_ous=False)
    try:
        page = await client.jobs.finished(query)
    except ApiError:
        return False
    return page.count == 0


@click.command(
    "log",
    short_help="Print the collector's log of run TASK_ID.",
    cls=NegativeIdsCommand,
    check_negative=check_task_id,  # `tasks log -5`: the task id's words, not click's `No such option '-5'`
)
@click.argument("task_id", metavar="TASK_ID")
@click.option(
    "--format", "-o", "fmt", type=click.Choice(["text", "jsonl"]), default="text", show_default=True,
    help="text: the log's lines as it has them; jsonl: one object per line (line, time, level, message).",
)  # fmt: skip
@click.option(
    "--level", type=click.Choice(list(LEVEL_RANKS)), default=None,
    help="Only lines of this level or worse (a line without the format goes with the one above it).",
)  # fmt: skip
@click.option("--grep", metavar="TEXT", default=None, help="Only lines containing TEXT (any case).")
@click.option("--summary", is_flag=True, help="Print what the log says (first error, stuck count, methods, domains).")
@profile_option
@click.pass_context
def tasks_log(
    ctx: click.Context,
    task_id: str,
    fmt: str,
    level: str | None,
    grep: str | None,
    summary: bool,
    profile_name: str | None,
) -> None:
    """Print the collector's log of run TASK_ID (GET /api/v2/jobs/{TASK_ID}/log, enterprise only), streamed in
    constant memory. Exit 4 when the run kept no log (or on a community server), 5 when the answer is not a log."""
    number = check_task_id(task_id)
    keep = LineFilter(level, grep)

    async def body(client: ApiClient, _profile: Profile) -> ExitCode | None:
        from svctui.api.errors import EnterpriseOnly, NotFound
        from svctui.runlog import LogReader, NotText

        reader = LogReader()
        out = sys.stdout

        def emit(lines: list[LogLine]) -> None:
            if summary:
                return
            for line in lines:
                if keep.keeps(line):
                    out.write(json_line(line) if fmt == "jsonl" else visible(line.text()))
                    out.write("\n")

        try:
            async for text in client.jobs.log_text(number):
                emit(reader.feed(text))
            emit(reader.finish())
        except NotText as exc:
            raise CommandFailure(f"run {number}: {exc}", ExitCode.SERVER) from None
        except EnterpriseOnly:
            raise
        except NotFound as exc:
            if await run_is_unknown(client, number):
                raise CommandFailure(
                    f"no run {number} (no finished run has that id; the log's answer: {exc.user_message()})\n"
                    "hint: `svctui tasks list CLIENT_ID` shows the runs",
                    ExitCode.NOT_FOUND,
                ) from exc
            raise CommandFailure(
                f"run {number} kept no log ({exc.user_message()})\nhint: `svctui tasks list CLIENT_ID` shows the "
                "runs; a run that never started has none",
                ExitCode.NOT_FOUND,
            ) from exc
        out.flush()
        result = reader.summary()
        if summary:
            for fact in result.lines_of_text():
                click.echo(visible(fact))
        elif result.cut:
            click.echo(f"note: the log's last line is cut short (line {result.lines})", err=True)
        if result.lines and not result.formatted:
            click.echo("note: no line is in SharpHound's format (time|LEVEL|message); printed as they are", err=True)
        return None

    run_connected(ctx, profile_name, body)
