"""The matcher behind `tasks list NAME` and `health --client NAME`: a whole name in any case, else exit 2."""

from __future__ import annotations

import pytest

from svctui.commands.client_ref import match_client
from svctui.commands.common import CommandFailure, ExitCode

NAMES = {
    "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0": "SHARPHOUND-DC01",
    "1b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0": "sharphound-lab",
    "2b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0": "SharpHound-Lab",
}


def test_a_whole_name_in_any_case_is_its_client() -> None:
    assert match_client(" sharphound-dc01 ", NAMES, "CLIENT_ID") == "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"


def test_a_name_two_clients_share_is_exit_2_naming_both() -> None:
    with pytest.raises(CommandFailure) as caught:
        match_client("SHARPHOUND-LAB", NAMES, "--client")
    assert caught.value.code == ExitCode.USAGE
    message = caught.value.message
    assert message.startswith("--client 'SHARPHOUND-LAB' names 2 clients: 1b1c2d3e-")
    assert "2b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0 (SharpHound-Lab)" in message and "svctui clients list" in message


def test_a_part_of_a_name_is_no_match_and_the_message_names_the_nearest() -> None:
    with pytest.raises(CommandFailure) as caught:
        match_client("DC01", NAMES, "CLIENT_ID")
    assert "is no client's name or uuid" in caught.value.message and "SHARPHOUND-DC01" in caught.value.message
    with pytest.raises(CommandFailure) as nothing:
        match_client("DC01", {}, "CLIENT_ID")
    assert "lists no clients" in nothing.value.message and nothing.value.code == ExitCode.USAGE


def test_the_filter_editor_takes_a_name_by_the_same_match_and_names_column_predicate_and_allowed() -> None:
    """Issue 28 item 8: the dashboard's `client_id` takes a name as `-f client_id=NAME` does (svctui.client_match);
    several clients of one name, or none, is a problem naming column, predicate and what is allowed."""
    from svctui.tui.widgets.filter_editor import CLIENT_ALLOWED, client_value, quick_client_ids

    twins = {**NAMES, "11111111-2222-3333-4444-555555555555": "SHARPHOUND-DC01"}
    assert client_value("client_id", "neq", "sharphound-dc01", NAMES) == "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
    assert client_value("client_id", "eq", "sharphound-dc01", None) == "sharphound-dc01"  # a uuid only: the grammar's
    kept, problems = quick_client_ids(["client_id=SHARPHOUND-DC01", "id=gt:3", "client_id=~eq:x"], twins)
    assert kept == ["id=gt:3", "client_id=~eq:x"]
    assert problems == [
        "client_id eq: 'SHARPHOUND-DC01' names 2 clients: 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0 (SHARPHOUND-DC01), "
        f"11111111-2222-3333-4444-555555555555 (SHARPHOUND-DC01); give the uuid instead; allowed: {CLIENT_ALLOWED}"
    ]
