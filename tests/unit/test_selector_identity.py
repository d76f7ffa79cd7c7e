"""Issue 30: whether the selector a GET found under an id is the one an audit record kept (`ops/identity.py`): a
resume deletes, and a restore re-creates, only on that answer. Records come from the log, so odd ones are read too."""

from __future__ import annotations

from typing import Any

from svctui.api.models import Selector
from svctui.ops.identity import another_selector, renamed

THEN, LATER = "2026-03-01T10:00:00Z", "2026-05-01T00:00:00Z"


def found(name: str | None, created_at: str | None = THEN) -> Selector:
    """Selector 4 of tag 1 as GET returns it."""
    return Selector.model_validate({"id": 4, "asset_group_tag_id": 1, "name": name, "created_at": created_at})


def kept(**fields: Any) -> dict[str, Any]:
    """A record as an intent line kept it."""
    return {"id": 4, "asset_group_tag_id": 1, **fields}


def test_another_creation_time_is_another_selector_whatever_the_name() -> None:
    assert another_selector(found("Old DCs", LATER), kept(name="Old DCs", created_at=THEN)) == (
        f"id 4 now holds 'Old DCs' created {LATER}, not 'Old DCs' created {THEN}"
    )
    assert another_selector(found("New", LATER), kept(created_at=THEN)) == (
        f"id 4 now holds 'New' created {LATER}, not '' created {THEN}"  # a record kept without a name
    )
    assert another_selector(found("Old DCs"), kept(name="Renamed", created_at="2026-03-01T10:00:00+00:00")) is None


def test_without_both_times_the_name_decides_and_no_name_kept_decides_nothing() -> None:
    assert another_selector(found("B", None), kept(name="A", created_at=THEN)) == (
        f"id 4 now holds 'B', not 'A' created {THEN}"
    )
    assert another_selector(found("", None), kept(name="")) is None  # both nameless: nothing says it is another
    assert another_selector(found(None, None), kept(name=None)) is None
    assert another_selector(found("B", None), kept()) is None
    assert another_selector(found("B"), None) is None and another_selector(found("B"), {}) is None


def test_a_time_the_log_holds_in_an_odd_shape_is_no_time() -> None:
    """A hand-edited log: a number, an empty string or no RFC 3339 time where the time was: compared by name."""
    for odd in (12345, "", "yesterday", None):
        assert another_selector(found("A"), kept(name="A", created_at=odd)) is None, odd
        assert another_selector(found("B"), kept(name="A", created_at=odd)) is not None, odd


def test_renamed_is_said_only_of_the_same_selector_under_another_name() -> None:
    assert renamed(found("New"), kept(name="Old", created_at=THEN)) == "renamed 'Old' → 'New'"
    assert renamed(found("New"), kept(name=None, created_at=THEN)) == "renamed '' → 'New'"
    assert renamed(found(None), kept(name="Old", created_at=THEN)) == "renamed 'Old' → ''"
    assert renamed(found("Old"), kept(name="Old", created_at=THEN)) is None
    assert renamed(found("New", LATER), kept(name="Old", created_at=THEN)) is None  # another selector, not renamed
    assert renamed(found("New"), kept(created_at=THEN)) is None  # no name kept: nothing to compare
    assert renamed(found("New"), None) is None
