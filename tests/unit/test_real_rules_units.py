"""Pure pieces of issue 26: the ETAC 403 read apart from a bad token, owners of extension-owned selectors, the impact
line with disabled and uncounted selectors, mark all leaving extension-owned selectors out, tag counts."""

from __future__ import annotations

import httpx

from svctui.api.errors import NoEnvironmentAccess, status_error
from svctui.api.models import AssetGroupTag, Selector, TagCounts
from svctui.commands.common import ExitCode, exit_code_for
from svctui.ops.audit_lines import owner_fields, owner_words, selector_record
from svctui.ops.outcomes import is_auth_failure, is_no_access
from svctui.tui.screens.selectors.impact import NO_ACCESS, Impact, impact_line, impact_text
from svctui.tui.screens.selectors.loaders import listed_counts
from svctui.tui.screens.selectors.marks import Marks

ENVELOPE = b'{"http_status":403,"request_id":"r1","errors":[{"context":"","message":"%s"}]}'


def forbidden(message: str) -> Exception:
    return status_error(403, ENVELOPE % message.encode(), httpx.Headers(), path="/api/v2/asset-group-tags/1/selectors")


def test_the_etac_403_is_not_a_bad_token_and_says_so_in_words() -> None:
    etac = forbidden("user does not have access to this resource")
    assert isinstance(etac, NoEnvironmentAccess) and is_no_access(etac) and not is_auth_failure(etac)
    assert "this user cannot browse selectors on this server" in etac.user_message()
    assert "the token works" in etac.user_message()
    assert exit_code_for(etac) is ExitCode.AUTH  # docs/COMMANDS.md: 3, authentication or access
    other = forbidden("not authorized")
    assert not isinstance(other, NoEnvironmentAccess) and is_auth_failure(other)  # type: ignore[arg-type]


def selector(**fields: object) -> Selector:
    return Selector.model_validate({"id": 7, "asset_group_tag_id": 1, "name": "n", **fields})


def test_an_extension_owned_selectors_record_keeps_its_owner() -> None:
    owned = selector(rule_key="entra-global-admins", extension_id=1)
    record = selector_record(owned)
    assert owned.extension_owned and (record["rule_key"], record["extension_id"]) == ("entra-global-admins", 1)
    assert owner_fields(record) == {"rule_key": "entra-global-admins", "extension_id": 1}
    assert owner_words(record) == "extension 1, rule entra-global-admins"
    plain = selector(rule_key=None, extension_id=None)
    assert not plain.extension_owned and owner_fields(selector_record(plain)) == {} and owner_words(None) == ""
    assert not selector().extension_owned  # an older server sends neither field


def test_the_impact_line_counts_disabled_ones_as_0_and_names_what_it_could_not_count() -> None:
    counts = {1: {"User": 4}, 2: {}, 3: {}}
    assert impact_text(Impact(counts, disabled=(2, 3))) == "Impact: 4 tagged objects (User 4); 2 disabled (tag nothing)"
    assert impact_text(Impact({2: {}}, disabled=(2,))) == "Impact: 0 tagged objects; 1 disabled (tag nothing)"
    uncounted = Impact(counts, disabled=(2, 3), uncounted={9: "HTTP 500 Internal Server Error — boom (request id x)"})
    assert impact_text(uncounted) == (
        "Impact: incomplete: 1 not counted (9): HTTP 500 Internal Server Error; the other 3: 4 tagged objects; "
        "2 disabled (tag nothing)"
    )
    many = Impact(counts, uncounted={n: "HTTP 502 Bad Gateway" for n in range(100, 130)})
    assert "30 not counted (100, 101, 102, 103, 104 … and 25 more)" in impact_text(many)
    assert impact_line(many, 60).startswith("Impact: incomplete: 30 not counted: HTTP 502")
    assert impact_text(Impact({}, NO_ACCESS)) == f"Impact: member counts {NO_ACCESS}"


def test_mark_all_leaves_extension_owned_selectors_out_and_a_hand_mark_keeps_them() -> None:
    marks = Marks()
    owned, plain = selector(id=1, extension_id=2, rule_key="r"), selector(id=2)
    result, _ = marks.mark_listed(1, [owned, plain], 50, "matching", skip_extension=True)
    assert result.added == (2,) and result.left_extension == (1,)
    by_hand = marks.mark(1, [(owned, 0)], "")
    assert by_hand.added == (1,) and marks.ids(1) == (2, 1)


def test_tag_counts_from_the_list_or_none_when_a_tag_has_none() -> None:
    five = TagCounts(members=9, selectors=4, custom_selectors=3, default_selectors=1, disabled_selectors=2)
    older = TagCounts(members=9, selectors=5)
    tags = [AssetGroupTag(id=1, counts=five), AssetGroupTag(id=2, counts=older)]
    assert listed_counts(tags) == {1: 4, 2: 5}
    assert listed_counts([*tags, AssetGroupTag(id=3)]) is None  # a server that gives none: counted per tag
    assert TagCounts(custom_selectors=3, default_selectors=1).selector_total == 4
    assert listed_counts([AssetGroupTag(id=1, counts=TagCounts(members=3))]) is None
