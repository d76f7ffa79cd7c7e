"""What svctui learnt of a profile's server (issue 26): kept per profile and base URL, private, a corrupt or
foreign file is nothing learnt, an unknown fact is refused."""

from __future__ import annotations

import json
import stat

import pytest

from svctui.store.errors import StoreError
from svctui.store.server_facts import facts_path, load_facts, remember_fact

URL = "https://bh.example.com"


def test_a_fact_is_kept_for_its_profile_and_base_url_in_a_private_file() -> None:
    assert load_facts("prod", URL) == {}
    remember_fact("prod", URL, "task_endpoint", "completed-tasks")
    assert load_facts("prod", URL) == {"task_endpoint": "completed-tasks"}
    assert load_facts("prod", "https://other.example.com") == {}, "the profile moved to another server"
    assert load_facts("lab", URL) == {}, "another profile"
    path = facts_path("prod")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    remember_fact("prod", URL, "task_endpoint", "completed-jobs")
    assert load_facts("prod", URL) == {"task_endpoint": "completed-jobs"}


def test_a_corrupt_or_odd_file_is_nothing_learnt_and_bad_facts_are_refused() -> None:
    remember_fact("prod", URL, "task_endpoint", "completed-tasks")
    path = facts_path("prod")
    path.write_bytes(b"{not json")
    assert load_facts("prod", URL) == {}
    path.write_text(json.dumps({"base_url": URL, "task_endpoint": "\x1b[31m", "other": 1}))
    assert load_facts("prod", URL) == {}, "only known values of known facts"
    with pytest.raises(ValueError, match="unknown server fact"):
        remember_fact("prod", URL, "task_endpoint", "completed_jobs")
    with pytest.raises(ValueError, match="profile name"):
        facts_path("../escape")
    path.chmod(0o644)
    with pytest.raises(StoreError):
        load_facts("prod", URL)
