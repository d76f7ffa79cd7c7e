"""Issue 30: which selectors of a deletion run a restore plans to re-create, and why it leaves each other one alone
(`plan_restore`, `earlier_restores`), read from audit lines as the engine and the restore write them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from svctui.api.models import Selector
from svctui.ops.selector_restore import (
    NothingToRestore,
    describe_plan,
    earlier_restores,
    plan_restore,
    same_definition,
)
from svctui.store.audit_read import AuditLog, parse_audit

KEPT = {"name": "Old DCs", "description": "DCs", "seeds": [{"type": 1, "value": "S-1-5-21-5"}]}


def log(*records: dict[str, Any]) -> AuditLog:
    """An audit log of these lines."""
    return parse_audit(json.dumps(record).encode() + b"\n" for record in records)


def plan(run: str, ids: list[int], action: str = "selectors.delete", **extra: Any) -> dict[str, Any]:
    """A plan line of tag 3."""
    return {"event": "plan", "run": run, "action": action, "tag_id": 3, "ids": ids, **extra}


def step(
    run: str, selector_id: int, outcome: str | None, kept: dict[str, Any] | None = KEPT, **extra: Any
) -> list[dict[str, Any]]:
    """An intent (with `kept` as the record) and, unless `outcome` is None, its outcome."""
    lines: list[dict[str, Any]] = [{"event": "intent", "run": run, "selector_id": selector_id, "selector": kept}]
    if outcome is not None:
        lines.append({"event": "outcome", "run": run, "selector_id": selector_id, "outcome": outcome, **extra})
    return lines


def test_only_a_deletion_run_of_a_tag_can_be_restored() -> None:
    audit = log(
        plan("back", [5], action="selectors.restore", restores="r1"), {"event": "plan", "run": "r0", "ids": [5]}
    )
    for run in ("back", "r0"):
        with pytest.raises(NothingToRestore) as refused:
            plan_restore(audit, run)
        assert str(refused.value) == f"run {run} is not a deletion run with a plan; only those can be restored"


def test_each_selector_left_alone_says_why() -> None:
    owned = KEPT | {"rule_key": "entra-admins", "extension_id": 2}
    audit = log(
        plan("r1", [1, 2, 3, 4, 5, 6, 7, 8, 9]),
        *step("r1", 1, "deleted"),
        *step("r1", 2, "failed"),
        {"event": "outcome", "run": "r1", "selector_id": 3, "outcome": "already gone"},  # no intent: not attempted?
        *step("r1", 4, "deleted", owned),
        *step("r1", 9, "deleted", KEPT | {"rule_key": "tier-zero-dcs", "extension_id": None}),
        *step("r1", 5, "deleted", None),
        *step("r1", 6, "deleted", {"name": "No seeds", "seeds": []}),
        *step("r1", 7, None),  # in doubt: restored only once found gone
        *step("r1", 8, "no answer"),
    )
    restore = plan_restore(audit, "r1")
    assert [entry.selector_id for entry in restore.to_restore] == [1, 7, 8]
    assert restore.in_doubt == [] and restore.already == {}
    no_record = "the run kept no record of it (name, seeds): it can't be re-created"
    assert restore.not_restorable == {
        2: "not deleted by the run (failed)",
        3: "not deleted by the run (already gone)",
        4: "owned by an extension (extension 2, rule entra-admins): the extension re-creates it at its next sync; "
        "a copy made by POST would be a plain selector whose name blocks that",
        5: no_record,
        6: no_record,
        9: "owned by an extension (an extension, rule tier-zero-dcs): the extension re-creates it at its next sync; "
        "a copy made by POST would be a plain selector whose name blocks that",
    }


def test_only_the_ids_asked_for_each_once_in_the_order_asked() -> None:
    audit = log(plan("r1", [5, 6, 7]), *step("r1", 5, "deleted"), *step("r1", 6, "deleted"))
    restore = plan_restore(audit, "r1", [6, 99, 6, 5])
    assert [entry.selector_id for entry in restore.to_restore] == [6, 5]
    assert restore.not_restorable == {99: "not part of run r1"}
    assert plan_restore(audit, "r1", [7]).not_restorable == {7: "not deleted by the run (not attempted)"}


def test_a_deletion_in_doubt_that_a_resume_finished_is_restored_with_the_run_from_the_resumes_record() -> None:
    found = KEPT | {"name": "Old DCs (seen by the resume)"}
    audit = log(
        plan("r1", [5, 6]),
        *step("r1", 5, None),
        *step("r1", 6, None),
        plan("r2", [5, 6], resumes="r1"),
        *step("r2", 5, "deleted", kept=found),
        *step("r2", 6, "failed"),
    )
    first = plan_restore(audit, "r1")
    assert first.not_restorable == {} and first.by_resume == {5: "r2"}
    assert [(entry.selector_id, entry.name) for entry in first.to_restore] == [(5, found["name"]), (6, "Old DCs")]
    assert [entry.selector_id for entry in plan_restore(audit, "r2").to_restore] == [5]


def test_a_run_restores_what_every_later_resume_of_it_deleted_and_says_so() -> None:
    """Issue 28: a run resumed 4 times planned only its own 82 and skipped the 310 its resumes deleted."""
    audit = log(
        plan("r0", [1]),  # an unrelated earlier run whose resume deleted 1: not r1's
        plan("r1", [1, 2, 3, 4, 5, 6]),
        *step("r1", 2, "deleted"),
        *step("r1", 3, None),  # in doubt; r2 found it gone
        plan("r2", [3, 4, 5, 6], resumes="r1"),
        {"event": "outcome", "run": "r2", "selector_id": 3, "outcome": "already gone"},
        *step("r2", 4, "deleted"),
        plan("r0b", [1], resumes="r0"),
        *step("r0b", 1, "deleted"),
        plan("r3", [5, 6], resumes="r2"),  # a resume of the resume
        *step("r3", 5, "deleted"),
        *step("r3", 6, "failed"),
    )
    whole = plan_restore(audit, "r1")
    assert [entry.selector_id for entry in whole.to_restore] == [2, 3, 4, 5]
    assert whole.by_resume == {4: "r2", 5: "r3"}
    assert whole.not_restorable == {
        1: "not deleted by the run (not attempted)",
        6: "not deleted by the run (not attempted)",
    }
    assert describe_plan(whole)[0] == "  2 deleted by this run, 2 by its resumes r2, r3"
    middle = plan_restore(audit, "r2")  # a resume restores itself and its own resumes, not the run it resumed
    assert [entry.selector_id for entry in middle.to_restore] == [4, 5] and middle.by_resume == {5: "r3"}
    assert describe_plan(middle)[0] == "  1 deleted by this run, 1 by its resumes r3"


def test_earlier_restores_of_the_run_or_its_resumes_count_and_others_do_not() -> None:
    audit = log(
        plan("r1", [5, 6, 7, 8]),
        *(line for sid in (5, 6, 7, 8) for line in step("r1", sid, "deleted")),
        plan("r2", [9], resumes="r1"),
        *step("r2", 9, "deleted"),
        plan("back1", [5, 6], action="selectors.restore", restores="r1"),
        *step("back1", 5, "restored", new_id=50),
        *step("back1", 6, None),  # its POST in doubt
        *step("back1", 7, "no answer"),  # in doubt too ...
        plan("back2", [7, 9], action="selectors.restore", restores="r2"),
        *step("back2", 7, "restored", new_id=70),  # ... then restored by a restore of the resume: done
        *step("back2", 9, "failed"),
        plan("elsewhere", [8], action="selectors.restore", restores="r9"),
        *step("elsewhere", 8, "restored", new_id=80),  # another deletion's restore: not this run's
    )
    assert earlier_restores(audit, {"r1", "r2"}) == ({5: 50, 7: 70}, {6})
    assert earlier_restores(audit, {"r9"}) == ({8: 80}, set())
    restore = plan_restore(audit, "r1")
    assert restore.already == {5: 50, 7: 70}
    assert [entry.selector_id for entry in restore.to_restore] == [6, 8] and restore.in_doubt == [6]


def test_the_same_definition_is_the_same_name_description_and_seeds() -> None:
    found = Selector.model_validate({"id": 40, "asset_group_tag_id": 3, "is_default": False} | KEPT)
    assert same_definition(found, KEPT | {"id": 5, "created_at": "2026-01-01T00:00:00Z"})
    assert same_definition(
        Selector.model_validate({"id": 41, "asset_group_tag_id": 3, "name": "x", "description": None, "seeds": []}),
        {"name": "x", "description": ""},
    )  # no description and an empty one, no seeds and none kept: the same
    for other in ({"name": "Old DCS"}, {"description": "dcs"}, {"seeds": [{"type": 2, "value": "S-1-5-21-5"}]}):
        assert not same_definition(found, KEPT | other), other
    assert not same_definition(found, KEPT | {"seeds": [*KEPT["seeds"], {"type": 1, "value": "S-2"}]})


def test_the_plan_in_words_shows_every_seed_whole_and_visibly_and_every_id_left_alone() -> None:
    """What a person confirms before any POST: each selector with each seed, a Cypher on its lines under its label,
    control characters shown (never sent to the terminal), odd records still shown; then what is left alone."""
    kept: dict[int, dict[str, Any]] = {
        5: {"name": "Old DCs", "seeds": [{"type": 1, "value": "S-1-5-21-5"}, {"type": 2, "value": "MATCH (n)\nWHERE "
            "n.x\nRETURN n"}], "disabled_at": "2026-01-01T00:00:00Z"},
        6: {"name": "", "seeds": [{"type": 7, "value": "x"}]},
        7: {"name": "Bell\x07", "seeds": ["S-1-5-21-7", {"type": "1", "value": None}, {"type": 2, "value":
            "\x1b]0;pwned\x07"}], "disabled_at": "2026-01-02T00:00:00Z"},
        10: {"name": "Odd", "seeds": {"type": 1}},
    }  # fmt: skip
    audit = log(
        plan("r1", [5, 6, 7, 8, 9, 10]),
        *(line for sid, record in kept.items() for line in step("r1", sid, "deleted", record)),
        *step("r1", 8, "failed"),
    )
    restore = plan_restore(audit, "r1")
    restore.already.update({1: 10, 2: None, 3: 30})
    restore.in_doubt.append(6)
    assert describe_plan(restore) == [
        "  5 'Old DCs': 2 seeds",
        "      object id: S-1-5-21-5",
        "      Cypher: MATCH (n)",
        "              WHERE n.x",
        "              RETURN n",
        "  6 (no name): 1 seed",
        "      type 7: x",
        "  7 'Bell\\x07': 3 seeds",
        "      seed: S-1-5-21-7",
        "      seed: ",
        "      Cypher: ␛]0;pwned␇",
        "  10 'Odd': 0 seeds",
        "  3 already restored (now 10, 30), skipped: 1-3",
        "  1 skipped, not deleted by the run (failed): 8",
        "  1 skipped, not deleted by the run (not attempted): 9",
        "  1 had a restore that got no answer: looked up by name first",
        "  2 disabled when deleted come back enabled: 5, 7",
    ]
    only_five = plan_restore(audit, "r1", [5])
    only_five.already[1] = None
    assert describe_plan(only_five)[-2:] == [
        "  1 already restored, skipped: 1",
        "  1 disabled when deleted comes back enabled: 5",
    ]
