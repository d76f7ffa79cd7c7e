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
