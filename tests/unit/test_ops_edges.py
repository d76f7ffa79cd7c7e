"""Issue 30: small behaviours of the deletion report and the auth reprs the mutation run found unpinned."""

from __future__ import annotations

from svctui.api.signing import BearerAuth, SignatureAuth
from svctui.ops.outcomes import DeleteReport, DeleteResult, Outcome, one_line, unexpected


def test_a_report_with_nothing_in_it_says_so() -> None:
    assert DeleteReport("r1").summary() == "nothing to do"
    report = DeleteReport("r1", [DeleteResult(1, Outcome.DELETED), DeleteResult(2, Outcome.FAILED)])
    assert report.summary() == "1 deleted, 1 failed"


def test_a_settled_id_without_its_outcome_line_is_still_to_resume() -> None:
    results = [DeleteResult(1, Outcome.DELETED), DeleteResult(2, Outcome.DELETED), DeleteResult(3, Outcome.FAILED)]
    assert DeleteReport("r1", results).unsettled() == 1
    assert DeleteReport("r1", results, unlogged=frozenset({2})).unsettled() == 2


def test_one_line_joins_the_lines_with_semicolons_and_drops_blank_ones() -> None:
    assert one_line("first\n\n  second  \nthird") == "first; second; third"
    assert unexpected(4, KeyError("x")) == DeleteResult(4, Outcome.FAILED, message="KeyError: 'x'")


def test_the_auth_reprs_name_the_class_and_hide_the_secret() -> None:
    assert repr(BearerAuth("a.b.c")) == "BearerAuth(jwt='**********')" == str(BearerAuth("a.b.c"))
    auth = SignatureAuth("6f1e2d3c-4b5a-4968-8776-655443322110", "key")
    assert repr(auth) == (
        "SignatureAuth(token_id='6f1e2d3c-4b5a-4968-8776-655443322110', token_key='**********', scheme='bhesignature')"
    )
