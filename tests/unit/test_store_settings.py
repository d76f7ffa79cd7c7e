"""Settings: defaults, round trip, recent clients, clear errors; audit log: JSON lines, private, no secrets."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from pydantic import ValidationError

from svctui.store import paths
from svctui.store.audit import append_audit, audit_path, check_audit_writable
from svctui.store.errors import StoreError
from svctui.store.settings import Settings, load_settings, save_settings


def test_missing_file_means_defaults() -> None:
    settings = load_settings()
    assert settings == Settings()
    assert (settings.page_size, settings.drop_threshold, settings.recent_clients, settings.keymap) == (100, 0.2, [], {})
    assert settings.theme


def test_round_trip_in_its_own_file() -> None:
    settings = Settings(theme="nord", keymap={"delete_marked": "ctrl+x,delete"}, page_size=250, drop_threshold=0.5)
    save_settings(settings.with_recent_client("c1"))
    loaded = load_settings()
    assert loaded.keymap == {"delete_marked": "ctrl+x,delete"}
    assert (loaded.theme, loaded.page_size, loaded.drop_threshold, loaded.recent_clients) == ("nord", 250, 0.5, ["c1"])
    assert paths.settings_path() != paths.profiles_path()
    assert not paths.profiles_path().exists()


def test_recent_clients_most_recent_first_unique_at_most_ten() -> None:
    settings = Settings()
    for n in range(12):
        settings = settings.with_recent_client(f"client-{n}")
    settings = settings.with_recent_client("client-5")
    assert settings.recent_clients[0] == "client-5"
    assert len(settings.recent_clients) == 10
    assert len(set(settings.recent_clients)) == 10
    assert settings.recent_clients[1:4] == ["client-11", "client-10", "client-9"]
    assert Settings(recent_clients=[f"c{n}" for n in range(15)]).recent_clients == [f"c{n}" for n in range(10)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("page_size = 0\n", "page_size: Input should be greater than or equal to 1"),
        ("page_size = 5000\n", "page_size: Input should be less than or equal to 1000"),
        ("drop_threshold = 1.5\n", "drop_threshold"),
        ('keymap = "x"\n', "keymap"),
        ("theme = [\n", "not valid TOML"),
    ],
)
def test_bad_settings_name_file_and_key(text: str, message: str) -> None:
    path = paths.settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(StoreError, match=message) as caught:
        load_settings()
    assert str(path) in str(caught.value)


def test_unknown_keys_are_ignored() -> None:
    path = paths.settings_path()
    path.parent.mkdir(parents=True)
    path.write_text('future_option = true\ntheme = "gruvbox"\n')
    assert load_settings().theme == "gruvbox"


def test_settings_are_immutable() -> None:
    with pytest.raises(ValidationError):
        Settings().page_size = 5  # type: ignore[misc]


def test_audit_appends_json_lines_privately() -> None:
    first = append_audit({"action": "delete_selector", "tag_id": 3, "selector_id": 17, "result": "deleted"})
    append_audit({"action": "delete_selector", "tag_id": 3, "selector_id": 18, "result": "already gone"})
    assert first == audit_path() == paths.state_dir() / "audit.jsonl"
    lines = [json.loads(line) for line in first.read_text().splitlines()]
    assert [line["selector_id"] for line in lines] == [17, 18]
    assert all(line["ts"].endswith("Z") for line in lines)
    assert stat.S_IMODE(os.stat(first).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(first.parent).st_mode) == 0o700


def test_audit_refuses_secret_fields() -> None:
    with pytest.raises(ValueError, match="token_key"):
        append_audit({"action": "x", "token_key": "nope"})
    assert not audit_path().exists()


def test_audit_does_not_follow_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("")
    audit_path().parent.mkdir(parents=True)
    audit_path().symlink_to(target)
    with pytest.raises(StoreError, match=r"cannot append to the audit log '.*audit.jsonl': it is a symbolic link"):
        append_audit({"action": "x"})
    assert target.read_text() == ""


def test_audit_log_is_checked_writable_before_anything_destructive(monkeypatch: pytest.MonkeyPatch) -> None:
    path = check_audit_writable()
    assert path == audit_path() and path.read_text() == ""  # created empty, 0600, in a 0700 directory
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    append_audit({"action": "x"})
    check_audit_writable()
    assert len(path.read_text().splitlines()) == 1  # the check adds nothing
    blocker = path.parent / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SVCTUI_STATE_DIR", str(blocker / "state"))
    with pytest.raises(StoreError, match=r"cannot append to the audit log '.*a-file/state/audit.jsonl': a part of"):
        check_audit_writable()
    with pytest.raises(StoreError, match="cannot append to the audit log"):
        append_audit({"action": "x"})
