"""The client-side quick filter of the Completed tasks screen: runs with drops among the loaded history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from svctui.api.models import CompletedTask
from svctui.triage import chronological, tasks_with_drops
from svctui.tui.screens.tasks.state import ClientHistory

if TYPE_CHECKING:
    from svctui.tui.screens.list_screen import ListScreen


def drops_view(screen: ListScreen[CompletedTask], runs: ClientHistory) -> list[CompletedTask] | None:
    """Show the runs with drops, newest first, on one page; None while the history is still loading."""
    if runs.tasks is None:
        screen.state_panel.show_loading("the client's task history")
        screen.show_state(True)
        return None
    tasks = tasks_with_drops(list(reversed(chronological(runs.tasks))), runs.drops)
    screen.window.skip, screen.window.count, screen.window.shown = 0, len(tasks), len(tasks)
    screen.table.show_items(tasks)
    if tasks:
        screen.state_panel.hide()
    else:
        screen.state_panel.show_empty(
            f"No runs with drops beyond {runs.threshold * 100:.0f} % in the {len(runs.tasks):,} loaded tasks",
            "Press d or x to return to the server list.",
        )
    screen.show_state(not tasks)
    screen.refresh_detail()
    return tasks
