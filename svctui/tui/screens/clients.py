"""Clients (key 4): the morning check at a glance — one row per collection client, worst first.

Which clients and how each is judged come from `svctui.fleet` and `svctui.triage.health` (the same as `svctui
health`). The client list is one load; then each client's runs are fetched concurrently (svctui.fleet: up to the
burst the rate limiter allows a quiet route, 51 at 55 a second) and its row fills in as its answer lands (answers
landing close together share one table update, and only the changed rows repaint); the rows go into rank order
when the round completes (or every SORT_EVERY seconds), as a re-sort repaints every cell (cheaply: the table keeps
its cells' layouts, see ClientsTable). A client whose fetch failed shows the error in its row; in a reload, a client
judged before keeps its last verdict and cells instead, marked stale with why (its row dimmed, `stale: HTTP 502` in
its last-run cell, the whole error in the detail pane, the count in the status line) until an answer comes.
`enter` opens Completed tasks for the client; the detail pane lists its schedules and last failures.

A reload (`r`, or live refresh: svctui.tui.live) keeps the rows of the last round on screen until each client's
new answer replaces its row (rows whose health changed flash); a client list that cannot be fetched leaves the
rows dimmed and marked stale with the reason. A not-OK run first seen in a reload is announced once.

Beside it: the table's columns fitted to its width and the strip's key (clients_columns), the table and its rows'
cells (clients_table), the detail pane, the legend, the status line's parts and the orders (clients_detail).
"""

from __future__ import annotations

import asyncio
import functools
import math
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events, getters, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.coordinate import Coordinate
from textual.message import Message
from textual.timer import Timer
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from svctui.api.errors import ApiError
from svctui.fleet import Fleet, HealthOptions, Member, MemberHealth, build_judging, find_fleet
from svctui.fleet_runs import FleetRuns, fleet_round
from svctui.store.settings import Settings
from svctui.table_fit import NaturalWidths, left_out_hint
from svctui.triage.health import STRIP_RUNS
from svctui.tui import status_line
from svctui.tui.breakpoints import narrow_below
from svctui.tui.live import Freshness, announce_failures
from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads
from svctui.tui.screens.clients_columns import (
    COLUMNS,
    GROWS,
    MEASURED,
    STRIP_KEY_ORDER,
    STRIP_KEY_TITLE,
    STRIP_NARROW,
    columns_for,
    fit_strip_key,
    fitted_columns,
    strip_key_lines,
)
from svctui.tui.screens.clients_detail import (
    DEFAULT_ORDER,
    ORDER_COLUMNS,
    ORDERS,
    detail_lines,
    next_run,
    ordered,
    summary_parts,
    verdict_legend,
)
from svctui.tui.screens.clients_table import ClientsTable, answer_cells, name_cell, pending_cells
from svctui.tui.screens.dashboard import DashboardScreen
from svctui.tui.status_line import StatusPart
from svctui.tui.textual_internals import columns_resized
from svctui.tui.widgets.detail_pane import SCROLL_BINDINGS
from svctui.tui.widgets.hanging import Hanging
from svctui.tui.widgets.row_table import ellipsized
from svctui.tui.widgets.state_panel import StatePanel, error_view, retry_helps
from svctui.tui.widgets.status_colors import semantic_style, status_style

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

MODE = "clients"
NARROW_WIDTH = 120  # below this the detail pane goes under the table and the columns narrow (clients_columns)
HEADER_LINES = 1
ThemedStyle = Callable[..., Style]  # `status_style` or `semantic_style`: (app, key, *, bold) -> Style


# The screen's one cadence: a timer ticking every TICK seconds while there is something to show (answers landed
# and not shown, rows of a large fleet not added yet), paused otherwise; resumed after a pause (an answer lands), its
# next beat comes at once. A beat shows at most FLUSH_ROWS answers whose rows are on screen (their new cells are laid
# out in the next frame) and OFF_SCREEN_ROWS of the others (only their cells are built), or builds the next ADD_ROWS
# rows' cells: the first slice goes into an empty table at once, the others together once all are built (each
# addition repaints every row shown). While a round fills in, its answers share one table update every FLUSH_EVERY
# (each repaints the ~500 cells on screen); once every awaited answer is in (a round judged at once lands whole), one
# beat shows the rest a slice at a time, SLICE_PAUSE apart (what fell due meanwhile, a frame or a key, goes first).
TICK = 1 / 30
FLUSH_EVERY = 0.25
SLICE_PAUSE = 0.001  # between the slices of a round that is in: what fell due meanwhile runs first
FLUSH_ROWS = 12
OFF_SCREEN_ROWS = 100
ADD_ROWS = 100
# Re-ranking moves rows, and a moved row must be drawn again with its new index: the whole table repaints. While a
# round fills in, answers update their rows in place and the rows are put back in rank order at most this often,
# and when the round is complete.
SORT_EVERY = 5.0

FLEET: Channel[Fleet] = Channel("fleet")  # the client list; each client's answer belongs to the list's load
JUDGE: Channel[int] = Channel("judge")  # a round judging every client (its answers are messages of their own)


class ClientsJudged(Message, bubble=False):
    """A whole round judged at once (svctui.fleet_runs: the fleet's runs from one paged query) in the round of the
    client list loaded as number `seq`: every member's result, and the ids whose health changed since the last."""

    def __init__(self, seq: int, results: list[MemberHealth], changed: frozenset[str]) -> None:
        super().__init__()
        self.channel: Channel[Fleet] = FLEET
        self.seq = seq
        self.results = results
        self.changed = changed


class ClientJudged(Message, bubble=False):
    """One client's health (or its error) arrived in the round of the client list loaded as number `seq` of the
    FLEET channel: `Loads.is_current` drops it once another list was asked for."""

    def __init__(self, seq: int, result: MemberHealth) -> None:
        super().__init__()
        self.channel: Channel[Fleet] = FLEET
        self.seq = seq
        self.result = result


class ClientsDetail(VerticalScroll):
    """The highlighted client's detail; it takes the whole screen from the palette (`Full screen`), as the table
    does, whichever of the two has the focus."""

    ALLOW_MAXIMIZE = True  # a scroll container is not maximizable by default: the palette offered nothing here
    BINDINGS: ClassVar[list[BindingType]] = SCROLL_BINDINGS  # j/k/g/G as in every detail pane


class ClientsScreen(DashboardScreen):
    """Every collection client with its health, worst first; rows fill in as their answers arrive."""

    MODE = MODE
    HORIZONTAL_BREAKPOINTS = narrow_below(NARROW_WIDTH)  # the detail pane under the table, narrower columns
    DEFAULT_CSS = """
    ClientsScreen #clients-body { height: 1fr; }
    ClientsScreen #clients-table { width: 2fr; }
    ClientsScreen #clients-detail { width: 1fr; min-width: 30; border-left: solid $panel; padding: 0 1; }
    ClientsScreen #clients-detail { max-width: 50; }  /* beside the table: the rest of the room is the columns' */
    ClientsScreen.-narrow #clients-body { layout: vertical; }
    ClientsScreen.-narrow #clients-table { width: 1fr; height: 2fr; }
    ClientsScreen.-narrow #clients-detail {
        width: 1fr; height: 1fr; max-width: 100%; border-left: none; border-top: solid $panel;
    }
    /* Full screen (the palette): the whole width, no border; after the -narrow rule, which it overrides */
    ClientsScreen #clients-detail.-maximized { max-width: 100%; border-left: none; border-top: none; }
    ClientsScreen #clients-note, ClientsScreen #status-line { height: 1; padding: 0 1; color: $text-muted; }
    ClientsScreen #clients-strip-key { height: 1; padding: 0 1; color: $text-muted; }
    ClientsScreen #clients-table.-stale { text-opacity: 55%; }
    ClientsScreen #state { width: 1fr; }
    ClientsScreen.-state #clients-table, ClientsScreen.-state #clients-detail { display: none; }
    """
    # DataTable's enter (select_cursor) opens the client's runs here, not the detail pane (help lists it so)
    RENAMED_ACTIONS: ClassVar[dict[str, tuple[str, str]]] = {
        "select_cursor": ("Open runs", "Completed tasks of this client (same as o)")
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "open_tasks", "Open runs", id="clients.open", tooltip="Completed tasks of this client (or enter)"),
        Binding("r", "reload", "Refresh", id="clients.refresh", tooltip="Fetch every client again"),
        Binding("s", "cycle_sort", "Sort", id="clients.sort", tooltip="Order: " + " · ".join(ORDERS)),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.loads = Loads(self)
        self.results: dict[str, MemberHealth] = {}
        self.awaiting: set[str] = set()  # clients of the current round whose answer has not landed yet
        self.fleet: Fleet | None = None
        self.fleet_runs = FleetRuns()  # the runs read so far: a live round asks only what changed (svctui.fleet_runs)
        self.freshness = Freshness()
        self._status_parts: list[str] = []  # the screen's own parts of the status line
        self._generation = -1
        self._landed: list[ClientJudged] = []  # answers not shown yet
        self._ticks: Timer | None = None  # the screen's one cadence (TICK), paused while there is nothing to show
        self._rows_to_add = False  # rows of the fleet not in the table yet (their cells built ADD_ROWS a tick)
        self._flushed_at = -math.inf  # monotonic time of the last table update from answers
        self._held_back = False  # the last update left answers for the next tick (FLUSH_ROWS, OFF_SCREEN_ROWS)
        self._sorted_at = -math.inf  # monotonic time the rows were last put in rank order
        self._top_until_judged = True  # see restart()
        self._round_seq = -1  # the FLEET load whose round is on its way
        self.order = DEFAULT_ORDER  # which ORDERS the rows follow (`s` cycles)
        self._row_cells: dict[str, tuple[object, datetime, list[Text]]] = {}  # per row: (its source, clock, cells)
        # the rows whose answer landed since the last table update: the next one builds only these, the rows not on
        # the table yet, or every row when the minute, the columns, the theme or the client list changed (_cells_at)
        self._touched: set[str] = set()
        self._cells_at: tuple[object, datetime] | None = None  # (the fleet, the minute) every row was last built for
        self._column_keys = [column.key for column in COLUMNS]  # the table's columns, in its order
        self._columns: list[tuple[str, str, int]] = []  # the table's columns (key, label, fitted width)
        self._widest = NaturalWidths({c.key: c.title for c in COLUMNS if c.key in MEASURED})  # kept per row
        # the widths the columns are fitted to: the names' as they are measured, the other columns' as they were
        # when the last round completed (a round filling in does not lay the table out again at every new widest cell)
        self._settled_widest: dict[str, int] = {}
        self.left_out: list[str] = []  # the labels of the columns the table leaves out at its width
        self._hint_above = False  # the status line has no room for `+6 columns`: the strip key's line has it
        self._strip_runs = STRIP_RUNS  # how many of the newest runs the strip column shows
        self._strip_key: Text | None = None  # the strip's key on show
        self.updated_wall: datetime | None = None  # when the last round completed (said while live refresh is off)
        self.key_left_out = 0  # how many glyphs the strip's key leaves out at this width (help has them all)
        self._detail_lines: list[tuple[str, int]] = []  # what the detail pane shows
        self._styles: dict[tuple[ThemedStyle, int | str, bool], Style] = {}  # the cells' styles (`_restyle` drops)
        self._status_style = functools.partial(self._themed, status_style)  # (status, bold) -> Style, memoised
        self._semantic_style = functools.partial(self._themed, semantic_style)  # (name, bold) -> Style, memoised
        self._member_cells: dict[str, tuple[Member, datetime, dict[str, Text]]] = {}  # see `_pending_cells`

    table = getters.query_one("#clients-table", ClientsTable)  # the clients table

    def compose_main(self) -> ComposeResult:
        """What the verdicts mean, the table beside the detail (between the header and the status line)."""
        yield Static(self._legend(self.app.size.width), id="clients-note", markup=False)
        yield Static("", id="clients-strip-key", markup=False)
        with Horizontal(id="clients-body"):
            yield StatePanel(id="state")
            yield ClientsTable(self.fit_columns, id="clients-table")
            with ClientsDetail(id="clients-detail"):
                yield Static("", id="clients-detail-text", markup=False)

    def on_mount(self) -> None:
        """Columns, header, first load."""
        self._add_columns()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._restyle())
        self.table.focus()
        self.reload_if_stale()

    def on_resize(self, event: events.Resize) -> None:
        """The narrow columns (the rows rebuilt for them, the cursor kept on its client); the detail pane goes under
        the table by the `-narrow` class (HORIZONTAL_BREAKPOINTS)."""
        self.fit_columns()  # again when the table has its new width (ClientsTable.on_resize)
        self.query_one("#clients-note", Static).update(self._legend(event.size.width), layout=False)  # one row
        self._show_strip_key()
        self.call_after_refresh(self.show_freshness)  # the status line's own width is known once laid out

    def _fitted(self, rows: int | None = None) -> list[tuple[str, str, int]]:
        """The columns for the screen's width (`-narrow` or not) fitted to the table's (a vertical scrollbar's room
        kept when `rows`, default the rows shown, outgrow the table), in the order the rows' cells follow."""
        table = self.table
        room, height = table.size.width, table.size.height
        if table.styles.height is not None and table.styles.height.is_auto:
            # an auto-height table is as tall as its rows so far: it grows to its parent's height before it scrolls
            # (measured against its own, a fill adding rows a slice at a time refitted the columns back and forth)
            height = max(height, self.query_one("#clients-body", Horizontal).size.height)
        if room and (table.row_count if rows is None else rows) + HEADER_LINES > height:
            room -= table.styles.scrollbar_size_vertical
        widest = {**self._settled_widest, **{key: self._widest.widest[key] for key in GROWS}}
        keep = ORDER_COLUMNS.get(self.order.split(" (")[0])  # the sort's column stays in view where it can
        return fitted_columns(self.has_class("-narrow"), room, 2 * table.cell_padding, widest, keep)

    def _add_columns(self, fitted: list[tuple[str, str, int]] | None = None) -> None:
        """The fitted columns (`fitted`, else fitted now), in the order the rows' cells follow."""
        self._columns = self._fitted() if fitted is None else fitted
        self._column_keys = keys = [key for key, _label, _width in self._columns]
        self._strip_runs = next((width for key, _label, width in self._columns if key == "strip"), STRIP_NARROW)
        self.left_out = [c.title for c in columns_for(self.has_class("-narrow")) if c.key not in keys]
        for key, label, width in self._columns:
            self.table.add_column(label, key=key, width=width)

    def fit_columns(self) -> None:
        """Fit the columns to the table's width again; when they change, the rows are rebuilt for them (a round
        still filling in keeps its rows in place; the cursor stays on its client)."""
        if not self.is_mounted or self._fitted(len(self.fleet.members) if self.fleet else 0) == self._columns:
            return
        key, table = self.current_key(), self.table
        self._render_rows(rank=not self.awaiting)  # it lays the columns out again first, then the rows
        if key is not None and key in {row.value for row in table.rows}:
            table.move_cursor(row=table.get_row_index(key), animate=False)

    def restart(self) -> None:
        """First show, or another profile: another server's rows go at once, then every client is fetched."""
        self.fleet, self.results, self.awaiting, self.freshness = None, {}, set(), Freshness()
        self.fleet_runs = FleetRuns()
        self._landed, self._row_cells, self._member_cells = [], {}, {}
        self._widest.clear()
        self._settled_widest = {}
        self._top_until_judged = True  # the cursor stays on the top row (the worst) while the first round ranks them
        self._set_stale("")
        self._render_rows()
        self.action_reload()

    def _restyle(self) -> None:
        """Another theme: the cells carry colours resolved from the theme, so every row is built again (in place)."""
        self._row_cells, self._member_cells, self._styles = {}, {}, {}
        self._strip_key = None
        self._render_rows(rank=False)

    def columns_hint(self) -> str:
        """`+6 columns`, `+1 column: host`: the columns the table leaves out at its width ("" when none, or no rows)."""
        return left_out_hint(self.left_out) if self.fleet is not None and self.fleet.members else ""

    def _show_strip_key(self) -> None:
        """The strip's key for the screen's width and the glyphs in the strips on show (when it changed), then the
        columns the table leaves out where the status line has no room for them (80 columns); an empty line (kept,
        so the table does not move when the first strip lands) while neither is on show."""
        seen = {status for result in self.results.values() if result.health for status in result.health.strip}
        app = self.app
        hint = self.columns_hint() if self._hint_above else ""
        after = f"{status_line.STATUS_SEPARATOR}{hint}" if hint and seen else hint
        key, named = (
            fit_strip_key(seen, app.size.width - 2 - len(after), lambda status: status_style(app, status, bold=True))
            if seen
            else (Text(), len(STRIP_KEY_ORDER))
        )
        if after:
            key.append(after, style="italic")
        left_out, self.key_left_out = self.key_left_out, len(STRIP_KEY_ORDER) - named
        if left_out != self.key_left_out and self.results:  # the status line's `?: 2 more glyphs`
            self._status(self._summary())
        if key != self._strip_key:
            self._strip_key = key
            self.query_one("#clients-strip-key", Static).update(key, layout=False)  # one row: no layout pass

    # ----- loading ----------------------------------------------------------------------------------------
    def action_reload(self) -> None:
        """Find the clients again, then judge each one (the rows on screen stay until their new answer lands)."""
        self.updated_wall = None  # said again when this round completes
        self._status(["loading the clients…"])
        app = self.app
        if not self.table.row_count:
            self._show_state(lambda panel: panel.show_loading("the clients", app.header_info.server))
        self.freshness.started_at = app.live.now()
        app.probe_if_troubled()  # the server may be back: the header asks again alongside this load
        names = app.client_names.names(app.profile.name) if app.profile is not None else {}
        profile_name = app.profile.name if app.profile is not None else ""
        recent = app.settings.recent_for(profile_name) if app.settings is not None else []

        async def listed(client: ApiClient) -> Fleet:
            fleet = await find_fleet(client, names=names)
            return await find_fleet(client, recent, names) if not fleet.members and recent else fleet

        async def load() -> Fleet:
            client = await app.api_client()
            # the validators are built in a thread while the list is on its way (a failed listing fails the load)
            fleet, _ = await asyncio.gather(listed(client), asyncio.to_thread(build_judging))
            # every schedule's next run, worked out here (svctui.schedule caches it per minute) rather than while
            # in a thread: the rows are built on the loop, and a thousand clients' schedules would hold it too long
            now = app.clock()
            await asyncio.to_thread(lambda: [next_run(member, now) for member in fleet.members])
            return fleet

        self.loads.start(FLEET, load)

    @on(Loaded)
    def _loaded(self, message: Loaded[object]) -> None:
        if not self.loads.is_current(message):
            return
        if FLEET.answers(message):
            self._show_fleet(message)

    @on(LoadFailed)
    def _failed(self, message: LoadFailed) -> None:
        if not self.loads.is_current(message):
            return
        user_message = getattr(message.error, "user_message", None)
        text = user_message() if callable(user_message) else str(message.error)
        if message.channel is FLEET and self.table.row_count:
            self.app.note_failure(message.error)  # the rows of the last round stay, marked stale
            self._set_stale(error_view(message.error, "clients").title)
            self._status(self._summary())
        elif message.channel is FLEET:
            self._show_state(lambda panel: panel.show_error(message.error, noun="clients"))
            retry = [StatusPart("r to retry", status_line.RETRY)] if retry_helps(message.error) else []
            self._status(["The clients could not be listed", *retry])
        elif message.channel is JUDGE and isinstance(message.error, ApiError) and self.fleet is not None:
            # the fleet's runs could not be read (jobs/finished failed): every client still awaited gets the error,
            # so a row judged before keeps its verdict marked stale, as when its own read fails
            for member in self.fleet.members:
                if member.client_id in self.awaiting:
                    result = MemberHealth(member, None, message.error)
                    self._landed.append(ClientJudged(self._round_seq, result))
            self._pace()
        else:
            self.notify(text, title="Clients", severity="error", markup=False)

    def _show_fleet(self, loaded: Loaded[Fleet]) -> None:
        fleet = loaded.value
        ids = {member.client_id for member in fleet.members}
        self.fleet = fleet
        self.results = {key: result for key, result in self.results.items() if key in ids}
        self._row_cells = {key: cells for key, cells in self._row_cells.items() if key in ids}
        self._member_cells = {key: cells for key, cells in self._member_cells.items() if key in ids}
        for key in [key for key in self._widest.rows if key not in ids]:
            self._widest.remove_row(key)
        # every client's name measured now, once (O(clients)): the rows added a slice at a time then fit the column
        # laid out for the first slice; later only the rows whose cells change are measured again
        self._widest.set_rows((member.client_id, {"name": cell_len(name_cell(member))}) for member in fleet.members)
        self.awaiting = set(ids)
        self._set_stale("")
        self._render_rows()
        if not fleet.members:
            self.freshness.updated_at = self.app.live.now()
            self.updated_wall = self.app.clock()
            self._show_state(
                lambda panel: panel.show_empty(
                    "No clients to check",
                    "This server lists none (a community edition has no client list): choose a client on "
                    "Completed tasks (2) and it is checked here from then on.",
                )
            )
            self._status(["no clients", "r to refresh"])
            return
        self._show_state(None)
        self._status([f"{len(fleet.members)} clients (from {fleet.source})", "checking each one…"])
        app, seq = self.app, loaded.seq
        self._round_seq = seq
        options = self.health_options()
        now = app.clock()

        runs = self.fleet_runs

        async def judge_all() -> int:
            client = await app.api_client()
            at_once = fleet.source != "given" and client.jobs_finished is not False

            def landed(result: MemberHealth) -> None:
                self.post_message(ClientJudged(seq, result))

            def missing(note: str) -> None:
                self.notify(note[:1].upper() + note[1:] + ".", title="Clients", timeout=8, markup=False)

            # validated and judged on the loop in short turns: threads doing it held the GIL away from the loop
            judged = await fleet_round(
                client,
                fleet,
                now,
                options,
                runs,
                on_result=landed,  # a round read client by client: each answer as it lands
                on_missing=missing,
                in_turns=True,
            )
            if at_once and client.jobs_finished:  # a round read at once: one message for it
                self.post_message(ClientsJudged(seq, judged.results, judged.changed))
            return len(fleet.members)

        self.loads.start(JUDGE, judge_all)  # as the list lands: its rows go in at a beat once the table has a width

    def health_options(self) -> HealthOptions:
        """How clients are judged: the settings' window, stale age and drop threshold (24 h, 24 h, 20 %)."""
        settings = self.app.settings or Settings()
        return HealthOptions(
            window=timedelta(hours=settings.health_window_hours),
            stale_after=timedelta(hours=settings.stale_after_hours),
            threshold=settings.drop_threshold,
        )

    def help_noun(self) -> str:
        """Help (`?`) heads this screen's keys `Clients`, as the others head theirs by their name."""
        return "clients"

    def help_legend(self) -> list[str]:
        """What help (`?`) adds under the keys: the verdicts in full and every glyph of the runs' strip (at 80
        columns the screen's own lines are short forms and name only the glyphs on show)."""
        return [self._legend(10_000), "", f"{STRIP_KEY_TITLE.rstrip(': ')}:", *strip_key_lines()]

    def _legend(self, width: int) -> str:
        """What the verdicts mean, in the settings' own windows (the short form where the long one is cut)."""
        return verdict_legend(self.health_options(), width)

    @on(ClientsJudged)
    def _judged_at_once(self, message: ClientsJudged) -> None:
        """A round judged at once: the changed clients (and those not shown yet) go the way of single answers; the
        others keep their row as it is (its cells too), no longer awaited."""
        if not self.loads.is_current(message):
            return
        for result in message.results:
            key = result.member.client_id
            shown = self.results.get(key)
            if key in message.changed or shown is None or shown.error is not None:  # new, changed, or marked stale
                self._landed.append(ClientJudged(message.seq, result))
            else:
                self.awaiting.discard(key)
        if self._landed:
            self._pace()
        else:  # nothing changed: the round is complete all the same (ranked, its time and summary said)
            self._flush_landed()

    @on(ClientJudged)
    def _judged(self, message: ClientJudged) -> None:
        """Hold the answer for the next tick that shows answers (see TICK)."""
        if not self.loads.is_current(message):
            return  # an answer of an older client list's round
        self._landed.append(message)
        self._pace()

    def _pace(self) -> None:
        """The cadence runs while there is something to show (resumed after a pause, its next beat comes at once)."""
        if self._ticks is None:
            self._ticks = self.set_interval(TICK, self._tick, name="clients-cadence")
        else:
            self._ticks.resume()

    async def _tick(self) -> None:
        """One beat of the screen's cadence: show the answers due, else add the next rows; once every awaited answer
        is in, its slices one after another with the loop let go between them; pause when nothing is left."""
        while True:
            self._landed = [message for message in self._landed if self.loads.is_current(message)]
            round_in = bool(self._landed) and self.awaiting <= {m.result.member.client_id for m in self._landed}
            if self._landed and (round_in or self._held_back or time.monotonic() - self._flushed_at >= FLUSH_EVERY):
                self._flush_landed()
            elif self._rows_to_add:
                self._render_rows(rank=not self.awaiting)
            if not (round_in and self._landed):
                break
            # frames, keys and anything already due go before the next slice: a sleep of 0 put it ahead of
            # the timers due meanwhile, a frame and a slice in one turn (fleet-1000-fill's worst stall)
            await asyncio.sleep(SLICE_PAUSE)
        if not self._landed and not self._rows_to_add and self._ticks is not None:
            self._ticks.pause()

    def _flush_landed(self) -> None:
        """Show answers held since the last update in one table update (one repaint): OFF_SCREEN_ROWS of those whose
        rows are off screen or not in the table yet and FLUSH_ROWS of those on screen; the rest at the next tick."""
        shown, later = self._slice(self._landed)
        self._landed, self._held_back = later, bool(later)
        changed: list[str] = []
        for result in shown:
            key = result.member.client_id
            before = self.results.get(key)
            if result.health is None and before is not None and before.health is not None:
                result = MemberHealth(result.member, before.health, result.error)  # the last verdict, marked stale
            self.results[key] = result
            self._touched.add(key)
            self.awaiting.discard(key)
            if before is not None and _differs(before, result):
                changed.append(key)
            if result.health is not None and result.error is None:
                seen = self.app.live.failures.new_failures(
                    key, result.health.last_failures, announce=before is not None
                )
                announce_failures(self.app, result.health.name or result.member.name or key, seen)
        self._flushed_at = time.monotonic()
        self._render_rows(rank=not self.awaiting or self._flushed_at - self._sorted_at >= SORT_EVERY)
        if changed:
            self.table.flash({*self.table.flashing, *changed})
        if not self.awaiting:
            self.freshness.updated_at = self.app.live.now()
            self.updated_wall = self.app.clock()
        self._status(self._summary())

    def _slice(self, landed: list[ClientJudged]) -> tuple[list[MemberHealth], list[ClientJudged]]:
        """(the answers this tick shows, those left for the next): the first OFF_SCREEN_ROWS answers whose row is off
        screen or not in the table yet, and the first FLUSH_ROWS of those on screen."""
        table = self.table
        top = int(table.scroll_y)
        on_screen = range(top, top + max(table.size.height - HEADER_LINES, 1))
        shown: list[MemberHealth] = []
        later: list[ClientJudged] = []
        visible_rows = off_screen = 0
        for message in landed:
            key = message.result.member.client_id
            index = table.get_row_index(key) if key in table.rows else None
            if index is None or index not in on_screen:  # no cell of it drawn in the next frame
                if off_screen < OFF_SCREEN_ROWS:
                    shown.append(message.result)
                    off_screen += 1
                else:
                    later.append(message)
            elif visible_rows < FLUSH_ROWS:
                shown.append(message.result)
                visible_rows += 1
            else:
                later.append(message)
        return shown, later

    def on_unmount(self) -> None:
        """The cadence stops with the screen."""
        if self._ticks is not None:
            self._ticks.stop()
            self._ticks = None

    def _show_state(self, show: Callable[[StatePanel], object] | None) -> None:
        """Show the state panel in place of the table and detail (`show` fills it), or hide it (None)."""
        panel = self.state_panel
        if show is None:
            panel.hide()
        else:
            show(panel)
        self.set_class(show is not None, "-state")
        focused = self.focused
        if show is None and self.is_current and (focused is None or not focused.display):
            self.table.focus()  # the table hidden under the loading panel lost the keys (a profile switch): back to it

    def _summary(self) -> list[str]:
        """`8/10 clients checked · 3 need a look · enter: runs · r: refresh` (see `clients_detail.summary_parts`)."""
        total = len(self.fleet.members) if self.fleet else len(self.results)
        return summary_parts(
            list(self.results.values()),
            total - len(self.awaiting),
            total,
            stale_list=bool(self.freshness.stale),
            order=self.order,
            order_shown=ORDER_COLUMNS.get(self.order.split(" (")[0]) in self._column_keys,
            glyphs_left_out=self.key_left_out,
        )

    def ordered_members(self) -> list[Member]:
        """The clients in the chosen order (`self.order`, see `clients_detail.ordered`)."""
        return ordered(self.fleet.members if self.fleet else [], self.results, self.order, self.app.clock())

    def action_cycle_sort(self) -> None:
        """Put the rows in the next order of ORDERS (the cursor stays on its client)."""
        self.order = ORDERS[(ORDERS.index(self.order) + 1) % len(ORDERS)]
        self._render_rows()
        self._status(self._summary())

    def _render_rows(self, rank: bool = True) -> None:
        """Show the rows in rank order by keyed diff: changed rows updated (and repainted alone), rows added,
        removed and re-sorted in place, so the cursor stays on its client and the scroll where it was; with `rank`
        False the rows keep their places (a round still filling in)."""
        table, current = self.table, self.current_key()
        if self.fleet is not None and self.fleet.members and not table.size.width and self.is_mounted:
            # not laid out yet: rows added now are fitted to no width, then cleared and built again for the table's
            # width when it gets one (200 rows of a fleet-1000 fill); the next ticks add them once it has one
            self._rows_to_add = True
            self._pace()
            return
        # a cursor left on the top row of a first round stays on the top row as the answers re-rank the rows (the
        # worst client first, not the one that happened to come first by name); moved by the user, it follows its row
        on_top = self._top_until_judged and current is not None and table.get_row_index(current) == 0
        # ages and next runs are shown to the minute: one clock reading for every row (a thousand rows a flush)
        minute = self.app.clock().replace(second=0, microsecond=0)
        built = self._cells_at
        every_row = built is None or built[0] is not self.fleet or built[1] != minute or not self._row_cells
        # in rank order when ranking or adding rows; else (a round filling in) the rows keep their places and only
        # those whose answer landed are built again: an update of k answers builds k rows, not the whole fleet
        ordering = rank or every_row or len(table.rows) < len(self.fleet.members if self.fleet else ())
        members = self.ordered_members() if ordering else list(self.fleet.members if self.fleet else ())
        order = {member.client_id: rank for rank, member in enumerate(members)}
        touched, self._touched = self._touched, set()
        with self.app.batch_update():
            fitted = self._fitted(len(members))  # before the rows: a first fill of many lays its columns out once
            if self.is_mounted and fitted != self._columns and not self._resize_columns(fitted):
                table.clear(columns=True)
                self._add_columns(fitted)
                self._row_cells = {}
                every_row = True
            for row_key in [key for key in table.rows if key.value not in order]:
                table.remove_row(row_key)
                self._widest.remove_row(row_key.value or "")
            shown = {key.value for key in table.rows}
            updates: dict[str, list[Text]] = {}
            new_rows: list[tuple[str, list[Text]]] = []
            fresh_rows, later = 0, False
            for member in members:
                client = member.client_id
                if client not in shown and fresh_rows >= ADD_ROWS and not self._has_cells(member, minute):
                    later = True  # built at the next tick
                    continue
                if not every_row and client in shown and client not in touched:
                    continue  # its row shows the cells of its answer already
                cells, fresh = self._cells_of(member, minute)
                if client not in shown:
                    new_rows.append((client, cells))
                    fresh_rows += fresh
                elif fresh:  # else the row shows these very cells already
                    updates[client] = cells
            # The new rows go in at once when every one is built (each addition repaints every row on screen: ten
            # slices of a thousand repainted the screen ten times), or the first slice at once into an empty table.
            if not later or not table.row_count:
                table.append_rows(new_rows)
            table.update_rows(updates)  # one pass over the table's render caches for all of them
            if rank:
                if [row.key.value for row in table.ordered_rows] != list(order):
                    table.sort("health", key=lambda cell: order[cell.row_key])
                self._sorted_at = time.monotonic()  # the rows are in rank order now
            if on_top and table.row_count:
                table.move_cursor(row=0, animate=False)
            elif current is not None and current in order:
                table.move_cursor(row=table.get_row_index(current), animate=False)
        if every_row:
            self._cells_at = (self.fleet, minute)
        self._rows_to_add = later
        if later:
            self._pace()  # the next slice at the next tick
        if self.fleet is not None and not self.awaiting:
            self._top_until_judged = False  # every client judged: from now on the cursor follows its client
            self._settle_widths()
        key = self.current_key()
        if key is not None:
            self._show_detail(key)
        self._show_strip_key()

    def _resize_columns(self, fitted: list[tuple[str, str, int]]) -> bool:
        """Give the columns their `fitted` widths in place, the rows kept, when only widths changed (not which
        columns show, their titles, nor the strip's runs, which the cells hold): True when done. Clearing the table
        built and added every row again (a thousand, twice in a fleet-1000 fill)."""
        strip = [(key, label, width) for key, label, width in fitted if key == "strip"]
        if [(key, label) for key, label, _width in fitted] != [(key, label) for key, label, _ in self._columns] or (
            strip != [column for column in self._columns if column[0] == "strip"]
        ):
            return False
        table = self.table
        for key, _label, width in fitted:
            table.columns[ColumnKey(key)].width = width
        self._columns = fitted
        columns_resized(table)
        return True

    def _settle_widths(self) -> None:
        """Every client judged: the columns fitted to the widest cells of this round (when they changed, the table is
        laid out again once, its rows rebuilt for the new widths)."""
        widest = dict(self._widest.widest)
        if widest != self._settled_widest:
            self._settled_widest = widest
            self.fit_columns()

    # ----- cells ------------------------------------------------------------------------------------------
    def _has_cells(self, member: Member, now: datetime) -> bool:
        """True when the row's cells for its answer (or pending member) at `now` are built already (`_cells_of`)."""
        result = self.results.get(member.client_id)
        cached = self._row_cells.get(member.client_id)
        return cached is not None and cached[0] is (member if result is None else result) and cached[1] == now

    def _cells_of(self, member: Member, now: datetime) -> tuple[list[Text], bool]:
        """The row's cells and whether they are new: a row whose answer (or pending member) is the one it was last
        built from, within the same minute (`now`, to the minute), keeps its cells (building them parses every
        schedule's rule)."""
        key = member.client_id
        result = self.results.get(key)
        source: object = member if result is None else result
        cached = self._row_cells.get(key)
        if cached is not None and cached[0] is source and cached[1] == now:
            return cached[2], False
        by_column = self._pending_cells(member) if result is None else self._cells(result)
        self._widest.set_row(key, {column: by_column[column].cell_len for column in MEASURED})
        cells = [ellipsized(by_column[column]) for column in self._column_keys]  # as add_row would cut them
        self._row_cells[key] = (source, now, cells)
        return cells, True

    def _pending_cells(self, member: Member) -> dict[str, Text]:
        """The row's cells before its answer; the same cell objects within a minute (the answer's row keeps those of
        its columns the answer does not change: not built again, their layouts kept, found unchanged at once)."""
        now = self.app.clock()
        minute = now.replace(second=0, microsecond=0)
        kept = self._member_cells.get(member.client_id)
        if kept is not None and kept[0] is member and kept[1] == minute:
            return dict(kept[2])
        cells = pending_cells(member, now)
        self._member_cells[member.client_id] = (member, minute, cells)
        return dict(cells)

    def _cells(self, result: MemberHealth) -> dict[str, Text]:
        """The row's cells for its answer (`clients_table.answer_cells`)."""
        pending = self._pending_cells(result.member)
        return answer_cells(
            result, pending, self.app.clock(), self._strip_runs, self._status_style, self._semantic_style
        )

    def _themed(self, style_of: ThemedStyle, key: int | str, bold: bool = False) -> Style:
        """`style_of(app, key, bold=bold)` (`status_style`, `semantic_style`) for this theme, worked out once per key (a
        thousand rows asked for 13,000 styles)."""
        memo_key = (style_of, key, bold)
        style = self._styles.get(memo_key)
        if style is None:
            style = self._styles[memo_key] = style_of(self.app, key, bold=bold)
        return style

    # ----- detail and actions -----------------------------------------------------------------------------
    def current_key(self) -> str | None:
        """The client id under the cursor."""
        table = self.table
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value

    @on(DataTable.RowSelected, "#clients-table")
    async def _selected(self, _event: DataTable.RowSelected) -> None:
        await self.action_open_tasks()

    @on(DataTable.RowHighlighted, "#clients-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is not None:
            self._show_detail(event.row_key.value)

    def _show_detail(self, key: str) -> None:
        member = next((m for m in (self.fleet.members if self.fleet else []) if m.client_id == key), None)
        if member is None:
            return
        window = self.health_options().window
        lines = detail_lines(member, self.results.get(key), self.app.clock(), window)
        if lines != self._detail_lines:  # unchanged while other rows fill in: no re-render, no layout pass
            self._detail_lines = lines
            text, shown = self.query_one("#clients-detail-text", Static), Hanging(lines)
            # a layout pass repaints the whole screen (the table's every row): asked only when the height changes
            size = text.content_size
            text.update(shown, layout=not size.width or shown.get_height({}, size.width) != size.height)

    async def action_open_tasks(self) -> None:
        """Completed tasks of the client under the cursor, from the endpoint its verdict was read from (the Completed
        tasks screen otherwise starts on the documented, deprecated one: another list than the one judged)."""
        key = self.current_key()
        if key is None:
            return
        judged = self.results.get(key)
        run_id = judged.health.verdict_run_id if judged is not None and judged.health is not None else None
        await self.app.open_client_runs(key, self.health_options().endpoint, back="clients", run_id=run_id)

    def _status(self, parts: Sequence[str]) -> None:
        """Say `parts` in the status line (after `stale: …` when the rows are stale; `updated … ago` follows)."""
        self._status_parts = list(parts)
        self.show_freshness()

    # ----- live refresh (svctui.tui.live) ------------------------------------------------------------------
    def live_refresh(self) -> None:
        """Fetch every client again; the rows stay until their new answers land."""
        self.action_reload()

    def show_freshness(self) -> None:
        """Redraw the status line (its `updated … ago` ticks)."""
        live = self.app.live
        fresh = self.freshness
        hint = self.columns_hint()
        own = [*self._status_parts, StatusPart(hint, status_line.LEFT_OUT)] if hint else self._status_parts
        parts = [*fresh.stale_parts(), *own, *fresh.age_parts(live.now(), live.seconds)]
        if not live.on and self.updated_wall is not None:  # `r` says it refreshed: the time
            parts.append(StatusPart(f"updated {self.updated_wall.astimezone(UTC):%H:%M:%S}Z", status_line.AGE))
        self.show_status([part for part in parts if part])
        hint_above = bool(hint) and hint not in str(self._status_text)  # no room for it there (80 columns)
        if hint_above != self._hint_above:  # the line above the table says it instead
            self._hint_above = hint_above
            self._show_strip_key()


def _differs(before: MemberHealth, after: MemberHealth) -> bool:
    """True when a client's health (or its error) changed between two rounds."""
    if before.health is None or after.health is None:
        error = before.error.user_message() if before.error is not None else ""
        return before.health != after.health or error != (after.error.user_message() if after.error else "")
    return before.health != after.health


def verdict_counts(results: Sequence[MemberHealth]) -> dict[str, int]:
    """How many clients have each verdict ('error' for those not checked)."""
    counts: dict[str, int] = {}
    for result in results:
        name = "error" if result.health is None else str(result.health.verdict)
        counts[name] = counts.get(name, 0) + 1
    return counts
