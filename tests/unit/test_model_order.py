"""Tags and selectors keep the server's field order in JSON; CSV keeps the record's own fields before the stamps."""

from __future__ import annotations

from datetime import UTC, datetime

from svctui.api.models import AssetGroupTag, Selector
from svctui.commands.output import csv_columns

# REAL-SERVER.md, "The real server also lets you browse before deleting": the tag and selector objects
STAMPS = ["created_at", "created_by", "updated_at", "updated_by"]
TAG_WIRE = ["id", "type", "kind_id", "name", "description", *STAMPS, "deleted_at", "deleted_by", "position"]
TAG_WIRE += ["require_certify", "analysis_enabled", "glyph", "counts"]  # counts: with `?counts=true` only
SELECTOR_WIRE = ["id", "asset_group_tag_id", "name", "description", *STAMPS, "disabled_at", "disabled_by"]
SELECTOR_WIRE += ["auto_certify", "is_default", "allow_disable", "seeds", "rule_key", "extension_id"]


def test_json_follows_the_servers_field_order() -> None:
    """`-o json` and the audit log's copies read like the server's answer (the stamps came first before)."""
    assert list(AssetGroupTag.model_fields) == TAG_WIRE
    assert list(Selector.model_fields) == SELECTOR_WIRE
    selector = Selector.model_validate({"id": 7, "asset_group_tag_id": 1, "name": "n", "seeds": []})
    assert list(selector.model_dump())[:3] == ["id", "asset_group_tag_id", "name"]


def test_csv_puts_the_stamps_last() -> None:
    """A spreadsheet opens on id, type/tag, name; who touched it and when come after the record's own fields."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    tag_columns = [name for name, _get in csv_columns(AssetGroupTag, now)]
    assert tag_columns == [name for name in TAG_WIRE if name not in STAMPS] + STAMPS
    selector_columns = [name for name, _get in csv_columns(Selector, now)]
    assert selector_columns[:4] == ["id", "asset_group_tag_id", "name", "description"]
    assert selector_columns[-4:] == STAMPS and "seeds_count" in selector_columns
