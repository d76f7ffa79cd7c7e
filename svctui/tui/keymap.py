"""The user keymap (settings `[keymap]`: binding id -> keys): every binding id there is, and what a keymap gets wrong.

Textual's `App.set_keymap` silently ignores an id it does not know and lets a remapped key shadow another
binding; `keymap_problems` says both in words, so the app can show them in one notification at start-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import import_module

from textual.binding import Binding

# Where bindings live, as "module:Class"; grouped by what is active together (a screen, its table, the app).
APP = "svctui.tui.app:SvcTuiApp"
TABLE = "svctui.tui.widgets.paged_table:PagedTable"
CONTEXTS: Mapping[str, tuple[str, ...]] = {
    "Events": ("svctui.tui.screens.events:EventsScreen", TABLE, APP),
    "Completed tasks": ("svctui.tui.screens.tasks:TasksScreen", TABLE, APP),
    "Selector cleanup": ("svctui.tui.screens.selectors.screen:SelectorsScreen", TABLE, APP),
    "Clients": ("svctui.tui.screens.clients:ClientsScreen", APP),
    "a detail pane": (
        "svctui.tui.widgets.detail_pane:DetailPane",
        "svctui.tui.screens.clients:ClientsDetail",
        APP,
    ),
    "the run's log": ("svctui.tui.widgets.log_view:LogView", "svctui.tui.screens.tasks.log_tab:LogPane", APP),
    "the filter editor": ("svctui.tui.widgets.filter_editor:FilterEditor", APP),
    "the client picker": ("svctui.tui.widgets.client_picker:ClientPicker", APP),
    "the raw JSON view": ("svctui.tui.widgets.raw_json:RawJson", APP),
    "help": ("svctui.tui.screens.help:HelpScreen", APP),
    "the profile picker": ("svctui.tui.palette:ProfilePicker", APP),
    "the first-run screen": ("svctui.tui.screens.first_run:FirstRunScreen", APP),
}


def bindings_of(target: str) -> list[Binding]:
    """The bindings svctui declares on a class, its own and inherited (`module:Class`)."""
    module_name, _, class_name = target.partition(":")
    holder = getattr(import_module(module_name), class_name)
    found: list[Binding] = []
    for klass in reversed(holder.__mro__):
        if klass.__module__.startswith("svctui."):  # Textual's own (tab, ctrl+c, ...) carry no ids
            found += [item for item in vars(klass).get("BINDINGS", []) if isinstance(item, Binding)]
    return found


def known_binding_ids() -> set[str]:
    """Every binding id of the dashboard."""
    return {binding.id for target in _all_targets() for binding in bindings_of(target) if binding.id}


def _all_targets() -> Iterable[str]:
    return dict.fromkeys(target for targets in CONTEXTS.values() for target in targets)


def _keys(text: str) -> list[str]:
    return [key.strip() for key in text.split(",") if key.strip()]


def keymap_problems(keymap: Mapping[str, str]) -> list[str]:
    """Unknown binding ids, and keys the keymap binds to two actions active at the same time."""
    known = known_binding_ids()
    problems: list[str] = []
    unknown = sorted(set(keymap) - known)
    if unknown:
        problems.append(f"unknown binding id(s): {', '.join(unknown)} (press ? to see the ids)")
    for context, targets in CONTEXTS.items():
        owners: dict[str, list[str]] = {}
        for target in targets:
            for binding in bindings_of(target):
                remapped = keymap.get(binding.id) if binding.id else None
                keys = _keys(remapped if remapped is not None else binding.key)
                for key in keys:
                    owners.setdefault(key, [])
                    if binding.id and binding.id not in owners[key]:
                        owners[key].append(binding.id)
        for key, ids in owners.items():
            if len(ids) > 1 and any(binding_id in keymap for binding_id in ids):
                problems.append(f"key {key!r} does two things on {context}: {', '.join(ids)}; only one will work")
    return problems
