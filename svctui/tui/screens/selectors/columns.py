"""How a selector reads on the cleanup screen: table columns (default / disabled shown) and the detail pane."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rich.text import Text
from textual.content import Content

from svctui.api.models import AssetGroupTag, Selector
from svctui.ops.audit_lines import EXTENSION_RECREATES, owner_words, selector_record
from svctui.schedule import utc_minute
from svctui.table_fit import Column
from svctui.tui.widgets.detail_pane import DetailPane, Line, Section, missing, muted
from svctui.tui.widgets.paged_table import ColumnDef, RowAdapter, by_id
from svctui.visible import visible

ColorOf = Callable[[str], str]
AUTO_CERTIFY = {0: "off", 1: "all members", 2: "seeds only"}
SEED_TYPES = {1: "object id", 2: "Cypher"}
when = utc_minute  # a UTC time as `2026-11-24 10:00Z` (svctui.schedule, as the events' cells)
DEFAULT_FLAG = "default"
DISABLED_FLAG = "disabled"
EXTENSION_FLAG = "extension"  # owned by an installed extension: its next sync re-creates it when deleted
# The table's columns fitted to its width, the one that matters most first: the name takes the spare room (up to
# NAME_MOST); on a narrow terminal flags is FLAG_WIDTH wide (`default`, `extension` or `disabled` whole, issue 28:
# `extensi…` at 80; two flags cut end with `…`, the detail pane says them, and a wide one's 16 columns cut the rare
# `extension disabled`; so cut where it would be left out, and named in the status line when left out) and created,
# left out, sorts from the palette (ctrl+p, 'Sort by'). Every column is as wide as its widest cell on the page
# (fit_content): what a short flag or id leaves goes to the name.
FIT_ORDER = ("id", "name", "flags", "created_at", "auto_certify", "seeds", "updated_at", "created_by")
NAME_MOST = 60
FLAG_WIDTH = max(map(len, (DEFAULT_FLAG, DISABLED_FLAG, EXTENSION_FLAG)))  # 9: any one flag whole
NAME_LEAST = 16  # a narrow table (the detail pane open beside it) cuts the name to this before leaving columns out
NAME_COLUMN = Column("name", "name", least=32, cut_to=NAME_LEAST, most=NAME_MOST, names=True)  # 20 when narrow
FLAGS_COLUMN = Column("flags", "flags", least=16, cut_to=FLAG_WIDTH)  # FLAG_WIDTH when narrow


def auto_certify_text(value: int | None) -> str:
    """`off`, `all members`, `seeds only`, the raw number, or an empty string."""
    return "" if value is None else AUTO_CERTIFY.get(value, str(value))


def flags(selector: Selector) -> str:
    """`default`, `extension`, `disabled`, two of them, or nothing."""
    return " ".join(
        word
        for word, on in (
            (DEFAULT_FLAG, selector.is_default),
            (EXTENSION_FLAG, selector.extension_owned),
            (DISABLED_FLAG, selector.disabled_at),
        )
        if on
    )


def selector_adapter(color_of: ColorOf) -> RowAdapter[Selector]:
    """id, name, flags (default / disabled), auto-certify, seeds, created, updated, by; disabled rows dimmed."""

    def styled(render: Callable[[Selector], str]) -> Callable[[Selector], Text]:
        def cell(selector: Selector) -> Text:
            style = "dim" if selector.disabled_at is not None else ""
            if selector.is_default:
                style = f"italic {color_of('text-muted')}"
            return Text(visible(render(selector)), style=style, end="")

        return cell

    def flag_cell(selector: Selector) -> Text:
        text = Text(end="")
        if selector.is_default:
            text.append("default", style=f"bold {color_of('warning')}")
        if selector.extension_owned:
            text.append((" " if text else "") + EXTENSION_FLAG, style=f"bold {color_of('accent')}")
        if selector.disabled_at is not None:
            text.append((" " if text else "") + "disabled", style="dim")
        return text

    return by_id(
        ColumnDef(
            NAME_COLUMN,
            styled(lambda s: s.name),
            sort="name",
            copy_text=lambda s: s.name,  # `c` copies the whole name, not the cut cell
            narrow=replace(NAME_COLUMN, least=20),
        ),
        ColumnDef(FLAGS_COLUMN, flag_cell, copy_text=flags, narrow=replace(FLAGS_COLUMN, least=FLAG_WIDTH)),
        ColumnDef(
            Column("auto_certify", "certify", least=11),
            styled(lambda s: auto_certify_text(s.auto_certify)),
            narrow=None,
        ),
        ColumnDef(Column("seeds", "seeds", least=5), styled(lambda s: str(len(s.seeds))), narrow=None),
        ColumnDef(Column("created_at", "created", least=17), styled(lambda s: when(s.created_at)), sort="created_at"),
        ColumnDef(Column("updated_at", "updated", least=17), styled(lambda s: when(s.updated_at)), narrow=None),
        ColumnDef(Column("created_by", "by", least=20), styled(lambda s: s.created_by or ""), narrow=None),
        render=styled,
        fit_order=FIT_ORDER,
    )


def _value(text: str | None) -> str | Content:
    return text if text else muted("—")


class SelectorDetail(DetailPane[Selector]):
    """Every field of a selector, and its seeds."""

    EMPTY_HINT = "No selector under the cursor."

    def sections(self, item: Selector) -> list[Section]:
        """Selector (every field, default/disabled said in words) and Seeds (type and value of each)."""
        default: str | Content = missing("yes: the server refuses to delete it (403)") if item.is_default else "no"
        fields: list[tuple[str, str | Content]] = [
            ("id", str(item.id)),
            ("tag", str(item.asset_group_tag_id)),
            ("name", _value(item.name)),
            ("description", _value(item.description)),
            ("default", default),
            ("auto-certify", _value(auto_certify_text(item.auto_certify))),
            ("allow disable", "yes" if item.allow_disable else "no"),
            ("created", _value(" ".join(filter(None, (when(item.created_at), item.created_by))))),
            ("updated", _value(" ".join(filter(None, (when(item.updated_at), item.updated_by))))),
            ("disabled", _value(" ".join(filter(None, (when(item.disabled_at), item.disabled_by))))),
        ]
        if item.extension_owned:  # said only where it applies: most selectors are people's own
            owner = owner_words(selector_record(item))
            fields.insert(5, ("extension", missing(f"{owner}: {EXTENSION_RECREATES}")))
        kinds = [f"{SEED_TYPES.get(seed.type, str(seed.type))}: " for seed in item.seeds]
        seeds: list[Line] = [(kind + seed.value, len(kind)) for kind, seed in zip(kinds, item.seeds, strict=True)]
        seeds = seeds or [muted("no seeds")]
        return [Section("Selector", fields), Section(f"Seeds ({len(item.seeds)})", lines=seeds)]


def tag_label(tag: AssetGroupTag) -> str:
    """`Tier Zero (tier, position 1)`, `Owned (owned)`, `Label A (label)`: the tag named in words (`tier 1` read as
    "Tier Zero is tier 1": the number is the tier's place in the order)."""
    kind = tag.type_label
    if not tag.type:  # typed by id, not in the list: its kind is not known
        return tag.name
    return (
        f"{tag.name} ({kind}, position {tag.position})"
        if kind == "tier" and tag.position is not None
        else f"{tag.name} ({kind})"
    )
