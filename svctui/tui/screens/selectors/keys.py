"""The keys of the cleanup screen (each with an id for the keymap and a tooltip for help)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

SELECTOR_BINDINGS: list[BindingType] = [
    Binding(
        "M",
        "mark_all_matching",
        "Mark all",
        id="selectors.mark_all",
        tooltip="Mark every selector matching the filters, on every page (the count is shown first)",
    ),
    Binding("i", "type_ids", "Ids", id="selectors.ids", tooltip="Mark by typed or pasted ids: 12 15-20 31"),
    Binding("ctrl+u", "clear_marks", "Unmark", id="selectors.clear", tooltip="Clear the marks of this tag"),
    Binding(
        "ctrl+d",
        "delete_marked",
        "Delete",
        id="selectors.delete",
        tooltip="Review the marked selectors (dry run, impact), then delete them after confirmation",
    ),
    Binding(
        "a",
        "switch_tab",
        "Audit",
        show=False,
        id="selectors.audit",
        tooltip="Switch between the Selectors and Audit tabs (past deletion runs: resume, restore)",
    ),
    Binding("t", "tag_id", "Tag id", show=False, id="selectors.tag_id", tooltip="Open a tag by its id"),
]
