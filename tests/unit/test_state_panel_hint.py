"""The authentication hint names the profile in use, shell-quoted."""

from __future__ import annotations

from svctui.tui.widgets.state_panel import profile_test_command


def test_profile_test_command_names_and_quotes_the_profile() -> None:
    assert profile_test_command("prod-1") == "svctui profile test prod-1"
    assert profile_test_command("a b;rm") == "svctui profile test 'a b;rm'"
    assert profile_test_command(None) == "svctui profile test"
