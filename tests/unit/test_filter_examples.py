"""The filter editor's quick-filter example is made of each screen's own columns and parses without error."""

from __future__ import annotations

import pytest

from svctui.api.filters import EndpointSpec, parse_filter, split_quick_filter
from svctui.tui.screens.events.screen import EventsScreen
from svctui.tui.screens.selectors.screen import SelectorsScreen
from svctui.tui.screens.tasks.screen import TasksScreen
from svctui.tui.widgets.filter_editor import quick_example


@pytest.mark.parametrize("spec", [EventsScreen.SPEC, TasksScreen.SPEC, SelectorsScreen.SPEC], ids=lambda s: s.name)
def test_the_example_parses_on_its_screen(spec: EndpointSpec) -> None:
    example = quick_example(spec)
    parts = split_quick_filter(example)
    assert len(parts) == 2, example
    for part in parts:
        parse_filter(spec, part)  # raises FilterError on a column or value the screen refuses
