"""What the cleanup screen says: the count before marking every match, the audit log's summary line."""

from __future__ import annotations

from svctui.api.filters import Filter
from svctui.api.models import AssetGroupTag, Selector
from svctui.ops.preview import Preview, PreviewResult
from svctui.ops.selector_restore import RestorePlan
from svctui.store.audit_read import AuditRun, SelectorEntry
from svctui.tui.screens.selectors.audit_tab import audit_summary
from svctui.tui.screens.selectors.impact import NOT_AVAILABLE, Impact, impact_line, impact_text
from svctui.tui.screens.selectors.loaders import Matching, matching_why
from svctui.tui.screens.selectors.marks import Marks
from svctui.tui.screens.selectors.plan import CleanupPlan
from svctui.tui.screens.selectors.restore import nothing_to_restore
from svctui.tui.screens.selectors.resume import checked_listing
from svctui.tui.screens.selectors.review import left_out_words, unknown_ids_words, why_line
from svctui.tui.screens.selectors.wording import matching_lines


def selectors(*defaults: bool) -> tuple[Selector, ...]:
    """Selectors 1.. of tag 1, default where asked."""
    return tuple(
        Selector(id=n, asset_group_tag_id=1, name=f"s{n}", is_default=default) for n, default in enumerate(defaults, 1)
    )


def test_no_default_selector_is_not_mentioned_and_one_is_singular() -> None:
    markable, lines = matching_lines(Matching(1, selectors(False, False), matching_why([])), Marks(), 100)
    assert markable == 2 and not any("default" in line for line in lines)
    assert lines[0] == "Every selector of the tag (no filter): 2 selectors, on 1 page."
    _, lines = matching_lines(Matching(1, selectors(True, False), matching_why([])), Marks(), 100)
    assert "1 of them is a default selector: the server refuses to delete it, it stays unmarked." in lines
    _, lines = matching_lines(Matching(1, selectors(True, True, False), matching_why([])), Marks(), 100)
    assert any(line.startswith("2 of them are default selectors") for line in lines)


def test_why_these_says_every_selector_or_the_filters() -> None:
    assert f"Why these: {matching_why([])}" == "Why these: every selector of the tag (no filter)"
    assert matching_why([Filter("name", "~eq", "old-")]).startswith("matching name")


def test_audit_summary_counts_runs_in_words() -> None:
    assert audit_summary(1, 0) == "1 run in the audit log (its folder: svctui locate state)"
    assert audit_summary(3, 1) == "3 runs in the audit log (its folder: svctui locate state); 1 unreadable line skipped"


def test_nothing_to_restore_is_one_short_line() -> None:
    run = AuditRun("R1")
    many = RestorePlan(run, already={n: 1000 + n for n in range(20, 67)})
    assert nothing_to_restore(many, ["R2"]) == (
        "Nothing to restore: all 47 selectors of run R1 were restored already (restore run R2)."
    )
    one = RestorePlan(run, already={20: 1020})
    assert nothing_to_restore(one, ["R2"]) == (
        "Nothing to restore: the 1 selector of run R1 was restored already (restore run R2)."
    ), "one selector is no `selector(s)`"
    mixed = RestorePlan(run, already={1: 9}, not_restorable={n: "not deleted by the run (failed)" for n in range(2, 9)})
    said = nothing_to_restore(mixed, ["R2", "R3"])
    assert said == (
        "Nothing to restore in run R1: 1 restored already (restore runs R2, R3); "
        "7 can't be re-created (2, 3, 4 … and 4 more): not deleted by the run (failed)."
    ), "one reason for all: said here (an extension's selector's reason is the one that matters)"
    assert "\n" not in said
    reasons = {2: "not deleted by the run (failed)", 3: "owned by an extension (extension 1, rule r): …"}
    assert nothing_to_restore(RestorePlan(run, not_restorable=reasons), []).endswith(
        "2 can't be re-created (2, 3): the run's list says why."
    )


def test_an_unknown_typed_id_is_singular() -> None:
    """`1 typed id is`, not `1 typed id(s) are`."""
    assert unknown_ids_words(1) == "1 typed id is not in the tag's list: the dry run checks it"
    assert unknown_ids_words(3) == "3 typed ids are not in the tag's list: the dry run checks them"


def test_impact_counts_the_tags_selectors_and_says_which_are_not_part_of_it() -> None:
    """Newcomer audit: a selector of another tag made the review say `Impact: incomplete (not available on this
    server); so far 4,280 objects`. The impact is the tag's selectors'; the others are skipped, by id."""
    counts = {55: {"User": 4_000, "Computer": 280}}
    assert impact_text(Impact(counts, not_in_tag=(1,))) == (
        "Impact: 4,280 tagged objects (User 4,000, Computer 280); 1 not part of the tag, skipped (1)"
    )
    many = tuple(range(1, 8))
    assert impact_text(Impact(counts, not_in_tag=many)).endswith(
        "; 7 not part of the tag, skipped (1, 2, 3, 4, 5 … and 2 more)"
    )
    none = "Impact: 0 tagged objects; 2 not part of the tag, skipped (1, 2)"
    assert impact_text(Impact({}, not_in_tag=(1, 2))) == none
    assert impact_text(Impact(counts)) == "Impact: 4,280 tagged objects (User 4,000, Computer 280)"
    assert impact_text(Impact({}, NOT_AVAILABLE)) == "Impact: member counts not available on this server"
    assert impact_text(Impact(counts, "timed out")) == "Impact: incomplete (timed out); so far 4,280 objects"


def test_the_reviews_why_and_impact_lines_fit_their_width_and_say_how_many_more() -> None:
    """Newcomer audit: 500 typed ids made `Why these: typed ids 4-5 12 16 …` fill the review at 80x24. The typed ids
    and the skipped ids are cut to the width, then `… and N more` (ids, not ranges); the reasons in words stay."""
    tag = AssetGroupTag(id=1, name="Tier One")
    typed = tuple(range(1, 1000, 2))
    plan = CleanupPlan(tag, (), typed, "matching name ∋ old-", typed)
    line = why_line(plan, 72)
    assert line.startswith("Why these: matching name ∋ old-; typed ids 1 3 5 ") and len(line) <= 72
    assert line.endswith(f"… and {len(typed) - len(line.split('typed ids ')[1].split(' …')[0].split())} more")
    assert why_line(CleanupPlan(tag, (), (), "", (4, 5, 12)), 72) == "Why these: typed ids 4-5 12"
    assert why_line(CleanupPlan(tag, (), (), "", ()), 72) == "Why these: marked by hand"
    counts = {55: {"User": 4_000, "Computer": 280, "Group": 12}}
    impact = Impact(counts, not_in_tag=tuple(range(1000, 1400)))
    assert impact_line(impact, 200) == impact_text(impact)
    assert impact_line(impact, 121) == (
        "Impact: 4,292 tagged objects (User 4,000, Computer 280, Group 12); 400 not part of the tag, skipped (1000 …"
        " and 399 more)"
    )
    assert impact_line(impact, 72) == "Impact: 4,292 tagged objects; 400 not part of the tag, skipped"


def test_the_left_out_line_is_grammatical_and_fits_80_columns() -> None:
    """Newcomer walk (issue 28, item 11): "The run sends only the 1 others: 2 gone, default or another tag's are l…"
    (grammar, cut at 80). One selector reads in the singular; the line fits the review's 72 columns at 80."""
    assert left_out_words(1, 1) == "The run sends 1 selector; 1 left out (gone, default, another tag's)"
    assert left_out_words(19, 4) == "The run sends 19 selectors; 4 left out (gone, default, another tag's)"
    assert len(left_out_words(999, 999)) <= 72, "the review's line at 80 columns"


def test_filters_that_fill_the_line_leave_the_typed_ids_a_line_of_their_own() -> None:
    """Issue 28: at 80x24 `Why these: matching name ∋ Accounts, created_at > …, is_default = false; typed ids …` was
    cut at the filters: the ids were gone. They now take a second line, fitted to the width."""
    tag = AssetGroupTag(id=1, name="Tier Zero")
    typed = tuple(range(1, 400, 3))
    filters = "matching name ∋ Accounts, created_at > 2018-09-17T18:15:44Z, is_default = false"
    plan = CleanupPlan(tag, (), (), filters, typed)
    first, second = why_line(plan, 72).split("\n")
    assert first == f"Why these: {filters}", "cut to the width by the widget (`…`)"
    assert second.startswith("and typed ids 1 4 7 ") and second.endswith(" more") and len(second) <= 72
    short = CleanupPlan(tag, (), (), "matching name ∋ old-", (4, 5))
    assert why_line(short, 72) == "Why these: matching name ∋ old-; typed ids 4-5", "one line when it fits"


def test_the_resume_listing_heads_a_changed_selector_by_its_change_whatever_its_get() -> None:
    """After the GET check: the planned selector still there is deleted; the same one renamed, or another one under
    its id now, is not, and the listing says which (both checked `would delete` by their GET)."""
    then, later = "2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z"
    run = AuditRun("R1")
    for selector_id in (1, 2, 3):
        planned = {"id": selector_id, "name": "Old DCs", "created_at": then}
        run.entries[selector_id] = SelectorEntry(selector_id, record=planned, intended=True, planned=planned)
    found = [
        Selector(id=1, asset_group_tag_id=1, name="Old DCs", created_at=then),
        Selector(id=2, asset_group_tag_id=1, name="New DCs", created_at=then),
        Selector(id=3, asset_group_tag_id=1, name="Other", created_at=later),
    ]
    results = [PreviewResult(selector.id, Preview.WOULD_DELETE, selector) for selector in found]
    assert checked_listing(run, results) == [
        "Checked with GET just now (each is checked again before its DELETE):",
        "1 still there: will be deleted:",
        "  1  'Old DCs'",
        "1 renamed since the run planned it: not deleted:",
        "  2  'New DCs'",
        "1 another selector under its id now: the one planned is gone, this one is not deleted:",
        "  3  'Other'",
    ]
