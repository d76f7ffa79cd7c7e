"""Pilot tests of the run's log on the Completed tasks screen, against the demo server: L, search, the level filter,
the jump to the next error, the jumps between the domain results and the log, and the headline."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Static, TabbedContent

from svctui.demo.runlogs import NO_LOG_EVERY
from svctui.demo.server import DemoServer
from svctui.tui.screens.tasks.detail import TABS, TaskDetail
from svctui.tui.screens.tasks.log_tab import LogPane
from svctui.tui.screens.tasks.screen import TasksScreen
from svctui.tui.widgets.domain_results import DomainResultsPane
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, only_task, query, text_of
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def failed_domain_task(server: DemoServer) -> tuple[str, int, str, str]:
    """(client, task, failed domain, its message) of a run with a failed domain and a log, of several domains."""
    row = query(
        server,
        "SELECT t.client_id, t.id, r.domain_name, r.message FROM tasks t JOIN domain_results r ON r.job_id = t.id "
        f"WHERE r.success = 0 AND r.message != '' AND t.id % {NO_LOG_EVERY} != 11 AND t.status = 8 "
        "AND (SELECT count(*) FROM domain_results x WHERE x.job_id = t.id) > 1 ORDER BY t.id LIMIT 1",
    )[0]
    return str(row[0]), int(row[1]), str(row[2]), str(row[3])


async def open_log(pilot: object, screen: TasksScreen) -> LogPane:
    await pilot.press("L")  # type: ignore[attr-defined]
    await settle(pilot)  # type: ignore[arg-type]
    return screen.task_detail.log_pane


async def test_L_opens_the_log_with_its_summary_and_levels(demo_server: DemoServer) -> None:
    client, task, domain, message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (app, pilot, screen):
        await only_task(pilot, screen, task)
        pane = await open_log(pilot, screen)
        detail = screen.task_detail
        assert detail.query_one(TabbedContent).active == TABS["log"]
        view = pane.view
        assert app.focused is view
        assert len(view.lines) > 20 and view.lines[1].message.startswith("Resolved Collection Methods:")
        assert pane.summary is not None and pane.summary.first_error is not None
        assert pane.summary.first_error.message == message, "the failed domain's ERROR line has its message"
        head = text_of(pane.query_one("#log-head", Static))
        assert head.startswith(f"{len(view.lines)} lines, 1 error, ") and f"{domain} " in head, head
        headline = detail.query_one("#log-headline", Static)
        assert headline.display and message[:30] in text_of(headline), "the headline shows once the log is read"
        status = text_of(pane.query_one("#log-status", Static))
        assert re.match(rf"line [0-9,]+ of {len(view.lines):,} · / search", status), status
        current = view.current()
        assert current is not None and current.message.endswith(domain), "L from the results: the failed domain's part"


async def test_search_n_and_N_move_between_matches(demo_server: DemoServer) -> None:
    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        pane = await open_log(pilot, screen)
        await pilot.press("/", *"status: ", "enter")
        await settle(pilot)
        view = pane.view
        assert view.needle == "status:" and len(view.matches) > 2
        first = view.cursor
        assert "Status:" in (view.current() or view.lines[0]).message
        await pilot.press("n")
        assert view.cursor == view.matches[1] and view.cursor > first
        await pilot.press("N", "N")
        assert view.cursor == view.matches[-1], "N before the first match wraps to the last"
        assert "“status:”" in text_of(pane.query_one("#log-status", Static))


async def test_level_filter_and_next_error(demo_server: DemoServer) -> None:
    client, task, _domain, message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        pane = await open_log(pilot, screen)
        view = pane.view
        await pilot.press("e")
        current = view.current()
        assert current is not None and current.level == "ERROR" and current.message == message
        await pilot.press("g", "w")
        await settle(pilot)
        assert view.filtered and 0 < view.row_count < len(view.lines)
        shown = [view.line_at(row) for row in range(view.row_count)]
        assert all(line is not None and (line.level in ("WARNING", "ERROR") or line.level is None) for line in shown)
        await pilot.press("w")
        await settle(pilot)
        assert not view.filtered and view.row_count == len(view.lines)
        await pilot.resize_terminal(70, 30)  # narrower than the log's lines
        await settle(pilot)
        await pilot.press("l", "l")
        assert view.scroll_x == 16, "long lines scroll sideways (no wrap)"
        assert "→ column 17" in text_of(pane.query_one("#log-status", Static))
        await pilot.press("h", "h", "h")
        assert view.scroll_x == 0


async def test_domain_results_and_log_jump_to_each_other(demo_server: DemoServer) -> None:
    client, task, domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        detail: TaskDetail = screen.task_detail
        results = detail.query_one(DomainResultsPane)
        assert results.select_domain(domain)
        detail.domain_name = domain
        pane = await open_log(pilot, screen)
        line = pane.view.current()
        assert line is not None and line.message.endswith(domain), "L from the results opens at the domain's part"
        assert pane.domain_of(line.number) == domain
        await pilot.press("D")
        await settle(pilot)
        assert detail.query_one(TabbedContent).active == TABS["results"]
        selected = results.selected_result()
        assert selected is not None and selected.domain_name == domain


async def test_a_run_without_a_log_says_so(demo_server: DemoServer) -> None:
    row = query(demo_server, f"SELECT client_id, id FROM tasks WHERE id % {NO_LOG_EVERY} = 11 ORDER BY id LIMIT 1")[0]
    async with on_tasks(demo_server, str(row[0])) as (_app, pilot, screen):
        await only_task(pilot, screen, int(row[1]))
        pane = await open_log(pilot, screen)
        assert f"run {row[1]} kept no log" in text_of(pane.query_one("#log-head", Static))
        assert pane.view.lines == []


async def test_the_headline_is_read_ahead_for_a_run_that_is_not_ok(demo_server: DemoServer) -> None:
    client, task, _domain, message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        detail = screen.task_detail
        detail.prefetch_headless = True
        detail.prefetch_seconds = 3600  # the rest never ends by the clock here (a loaded machine fired it early)
        before = demo_server.request_count
        await only_task(pilot, screen, task)
        timer = detail._prefetch_timer
        assert timer is not None, "a rest on a run that is not OK schedules one read"
        detail._prefetch()  # the timer's callback, without waiting for the clock
        await settle(pilot)
        headline = detail.query_one("#log-headline", Static)
        assert headline.display and message[:30] in text_of(headline)
        assert detail.query_one(TabbedContent).active == TABS["results"], "the log tab did not open"
        assert demo_server.request_count - before <= 4


async def test_another_run_under_the_cursor_clears_the_log_without_a_request(demo_server: DemoServer) -> None:
    client, _task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        pane = await open_log(pilot, screen)
        first = pane.task_id
        assert first is not None and pane.view.lines
        before = demo_server.request_count
        screen.table.focus()
        await pilot.press("j")
        await settle(pilot)
        current = screen.task_detail.item
        assert current is not None and current.id != first
        assert pane.view.lines == [] and pane.task_id is None
        assert text_of(pane.query_one("#log-head", Static)) == f"L opens the log of run {current.id}"
        await pilot.press("j")  # newcomer walk: the tab went on naming the first run the cursor left the log for
        await settle(pilot)
        current = screen.task_detail.item
        assert current is not None
        assert text_of(pane.query_one("#log-head", Static)) == f"L opens the log of run {current.id}"
        assert demo_server.request_count == before, "moving the cursor reads no log"
        await pilot.press("L")
        await settle(pilot)
        assert pane.task_id == current.id and pane.view.lines


def log_kinds_of_one_client(server: DemoServer, ok_status: int = 2) -> tuple[str, int, int]:
    """(client, a run of `ok_status` with a log, another with a log path that kept no log) among one client's 50
    newest runs (on the screen's first page)."""
    rows = query(
        server,
        "SELECT client_id, id, status, log_path IS NOT NULL AND start_time != 0 AND status NOT IN (-1, 0) "
        "FROM tasks ORDER BY client_id, execution_time DESC, id DESC",
    )
    newest: dict[str, list[tuple[int, int, bool]]] = {}
    for client, task, status, has_path in rows:
        if len(newest.setdefault(str(client), [])) < 50:
            newest[str(client)].append((int(task), int(status), bool(has_path)))
    for client, runs in sorted(newest.items()):
        ok = [task for task, status, has_path in runs if status == ok_status and has_path and task % NO_LOG_EVERY != 11]
        none = [task for task, _status, has_path in runs if has_path and task % NO_LOG_EVERY == 11]
        if ok and none:
            return client, ok[0], none[0]
    raise AssertionError("the demo has a client with both among its newest runs")


async def rest_on(pilot: object, screen: TasksScreen, task: int) -> str:
    """Put the cursor on run `task` and let its rest's timer fire (called, not waited for): the headline's text."""
    detail = screen.task_detail
    row = next(index for index, item in enumerate(screen.table.items) if item.id == task)
    screen.table.move_cursor(row=row)
    await settle(pilot)  # type: ignore[arg-type]
    assert detail.item is not None and detail.item.id == task
    if detail._prefetch_timer is not None:
        detail._prefetch()  # the timer's callback, without waiting for the clock
        await settle(pilot)  # type: ignore[arg-type]
    headline = detail.query_one("#log-headline", Static)
    return text_of(headline) if headline.display else ""


def log_reads(server: DemoServer) -> int:
    """How many requests the demo answered so far (the log reads among them are what the tests count)."""
    return server.request_count


async def test_the_headline_is_read_ahead_for_any_run_with_a_log_once_the_cursor_rests(
    demo_server: DemoServer,
) -> None:
    """Issue 29 item 3: one line of the summary before the log is opened, for any run (it was only for runs that
    are not OK): read once the cursor rests on the run, not for every row it passes, and kept per run."""
    client, ok_run, no_log = log_kinds_of_one_client(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        detail = screen.task_detail
        detail.prefetch_headless = True
        detail.prefetch_seconds = 3600  # no timer fires by itself in this test: `rest_on` calls it
        screen.table.focus()
        before = log_reads(demo_server)
        await pilot.press("j", "j", "j", "k")
        await settle(pilot)
        assert log_reads(demo_server) == before, "passing over rows reads no log"
        assert detail._prefetch_timer is not None, "one read pending, for the row the cursor is on"
        headline = await rest_on(pilot, screen, ok_run)
        assert headline.startswith("log: finished in ") and headline.endswith("(L)"), headline
        assert detail.query_one(TabbedContent).active == TABS["results"], "the log tab did not open"
        assert log_reads(demo_server) - before == 1, "one read: the log"
        assert (await rest_on(pilot, screen, no_log)).startswith(f"log: run {no_log} kept no log")
        read = log_reads(demo_server)
        assert await rest_on(pilot, screen, ok_run) == headline and detail._prefetch_timer is None
        assert log_reads(demo_server) == read, "a run read once is not read again"


async def test_the_headline_on_a_community_server_says_logs_are_enterprise_only_once(
    demo_server_community: DemoServer,
) -> None:
    """A community server answers that run logs are enterprise-only: said in the headline, and not asked again for
    every run the cursor rests on (two runs that are not OK: read ahead before this change too)."""
    client, ok_run, no_log = log_kinds_of_one_client(demo_server_community, ok_status=8)
    async with on_tasks(demo_server_community, client) as (_app, pilot, screen):
        detail = screen.task_detail
        detail.prefetch_headless = True
        detail.prefetch_seconds = 3600
        first = await rest_on(pilot, screen, ok_run)
        assert first.startswith("log: Run logs are an enterprise feature"), first
        read = log_reads(demo_server_community)
        assert await rest_on(pilot, screen, no_log) == first
        assert log_reads(demo_server_community) == read, "the server said so once: not asked for every run"


async def test_log_times_are_utc_marked_z(demo_server: DemoServer) -> None:
    """Issue 28: the log's lines and its headline say UTC (`22:58:59Z`), as every other time on screen, not the
    collector's local clock (`08:58:59` at +10:00); a search for the time shown finds the line."""
    from datetime import UTC, datetime

    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        pane = await open_log(pilot, screen)
        view = pane.view
        error = pane.summary.first_error if pane.summary is not None else None
        assert error is not None and error.stamp
        utc = datetime.fromisoformat(error.stamp).astimezone(UTC)
        shown = utc.strftime("%H:%M:%S") + "Z"
        start = view.lines[0].utc()
        assert start is not None
        days = (utc.date() - start.date()).days
        dated = f"{shown} {days:+d}d" if days else shown  # on a later UTC day: marked as the tasks table does
        headline = text_of(screen.task_detail.query_one("#log-headline", Static))
        assert f"first error {dated}: " in headline, headline
        await pilot.press("g")
        drawn = view.render_line(0).text
        first = view.lines[0]
        assert first.stamp and drawn.startswith(first.utc_stamp()[11:23] + "Z "), drawn  # type: ignore[index]
        await pilot.press("/", *shown[:-1], "enter")
        await settle(pilot)
        assert view.matches and view.current() is not None and view.current().number <= error.number  # type: ignore[union-attr]


async def test_a_line_on_another_utc_day_says_its_date(demo_server: DemoServer) -> None:
    """The time column has no date: a line on another UTC day than the log's first (a run over midnight UTC) has
    its date in the status line, and the headline's times are marked `+1d`."""
    row = query(
        demo_server,
        "SELECT t.client_id, t.id FROM tasks t JOIN domain_results r ON r.job_id = t.id WHERE r.success = 0 "
        f"AND r.message != '' AND t.status = 8 AND t.id % {NO_LOG_EVERY} != 11 ORDER BY t.id LIMIT 1",
    )[0]
    async with on_tasks(demo_server, str(row[0])) as (_app, pilot, screen):
        await only_task(pilot, screen, int(row[1]))
        pane = await open_log(pilot, screen)
        view = pane.view
        first, error = view.lines[0].utc(), pane.summary.first_error if pane.summary is not None else None
        assert first is not None and error is not None and (when := error.utc()) is not None
        assert when.date() != first.date(), "the demo's run over midnight UTC (the log snapshots' run)"
        headline = text_of(screen.task_detail.query_one("#log-headline", Static))
        assert f"first error {error.clock()} +1d: " in headline, headline
        view.go_to_line(error.number - 1)
        await settle(pilot)
        status = text_of(pane.query_one("#log-status", Static))
        assert f"line {error.number} of {len(view.lines)} ({when:%Y-%m-%d} UTC)" in status, status
        await pilot.press("g")
        await settle(pilot)
        assert "UTC)" not in text_of(pane.query_one("#log-status", Static)), "the first day's lines have no date"


async def test_D_on_a_log_without_a_domain_part_says_there_is_none(demo_server: DemoServer) -> None:
    """Newcomer walk: `D` on a run whose log has no domain part said `This line is before any domain's part of the
    log.`, as if one came further down. A log without one says so; a line before the first part says that."""
    client, task = query(
        demo_server,
        "SELECT client_id, id FROM tasks t WHERE NOT EXISTS (SELECT 1 FROM domain_results r WHERE r.job_id = t.id) "
        f"AND t.status = 5 AND t.id % {NO_LOG_EVERY} != 11 ORDER BY id DESC LIMIT 1",
    )[0]
    async with on_tasks(demo_server, client) as (app, pilot, screen):
        await only_task(pilot, screen, task)
        pane = await open_log(pilot, screen)
        assert pane.summary is not None and not pane.summary.domains and pane.view.lines
        await pilot.press("D")
        await settle(pilot)
        assert app.notes[-1].message.startswith("This log has no domain's part")
    other, with_parts, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, other) as (app, pilot, screen):
        await only_task(pilot, screen, with_parts)
        pane = await open_log(pilot, screen)
        assert pane.summary is not None and pane.summary.domains
        await pilot.press("g", "D")
        await settle(pilot)
        first = pane.summary.domains[0]
        assert app.notes[-1].message == (
            f"Line 1 is before the first domain's part: {first.domain} starts at {first.first:,}."
        )


async def test_D_and_e_that_move_nothing_say_why_in_the_status_line(demo_server: DemoServer) -> None:
    """Walk 3, item 13: `D` on a line outside every domain's part and `e` past the last error moved nothing and
    said so for 2 s in a toast (`No error line after this one.`; after the last part, `before the first`). The
    status line says why, naming the line and the nearest part or error, until the cursor moves; a toast too."""
    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (app, pilot, screen):
        await only_task(pilot, screen, task)
        pane = await open_log(pilot, screen)
        summary, lines = pane.summary, pane.view.lines
        assert summary is not None and summary.domains and lines

        def status() -> str:
            return text_of(pane.query_one("#log-status", Static))

        errors = [line.number for line in lines if line.severe]
        assert errors, "the run with a failed domain logged an error"
        await pilot.press("G", "e")
        await settle(pilot)
        said = f"No error after line {len(lines):,}: the last is line {errors[-1]:,} (E goes back)."
        assert app.notes[-1].message == said and status().startswith(said), status()
        await pilot.press("k")
        await settle(pilot)
        assert "No error" not in status() and status().startswith(f"line {len(lines) - 1:,} of"), status()
        await pilot.press("g", "E")
        await settle(pilot)
        assert status().startswith(f"No error before line 1: the first is line {errors[0]:,} (e goes to it)."), status()
        await pilot.press("D")
        await settle(pilot)
        first = summary.domains[0]
        assert status().startswith(f"Line 1 is before the first domain's part: {first.domain} starts at"), status()
        last = summary.domains[-1]
        assert last.last < len(lines), "the log goes on after the last domain's part (the closing lines)"
        await pilot.press("G", "D")
        await settle(pilot)
        said = f"Line {len(lines):,} is after the last domain's part: {last.domain} ended at {last.last:,}."
        assert app.notes[-1].message == said and status().startswith(said), status()


async def test_the_level_filter_and_home_go_back_to_column_one(demo_server: DemoServer) -> None:
    # a sideways offset kept after `w` hid every warning's time and level (newcomer walk): `w` and `home` go back
    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        pane = await open_log(pilot, screen)
        view = pane.view
        await pilot.resize_terminal(70, 30)  # narrower than the log's lines
        await settle(pilot)
        status = pane.query_one("#log-status", Static)
        await pilot.press(*"lllll")
        assert view.scroll_x == 40
        await pilot.press("w")
        await settle(pilot)
        assert view.filtered and view.scroll_x == 0, "warnings only: at column 1, time and level in view"
        assert "→ column" not in text_of(status)
        await pilot.press(*"lllll", "end", "home")
        await settle(pilot)
        assert view.cursor == 0 and view.scroll_x == 0, "home: the first line, at column 1"
        await pilot.press(*"ll", "w")
        await settle(pilot)
        assert not view.filtered and view.scroll_x == 0, "every line again: column 1 too"
