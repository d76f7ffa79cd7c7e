"""Where the store keeps files: SVCTUI_*_DIR overrides, platformdirs defaults, private directories."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import platformdirs
import pytest

from svctui.store import paths
from tests.support.files import mode_bits


def test_directories_follow_the_environment(isolated_dirs: Path) -> None:
    assert paths.config_dir() == isolated_dirs / "config"
    assert paths.data_dir() == isolated_dirs / "data"
    assert paths.state_dir() == isolated_dirs / "state"
    assert paths.profiles_path() == isolated_dirs / "config" / "profiles.toml"
    assert paths.settings_path() == isolated_dirs / "config" / "settings.toml"


def test_without_overrides_platformdirs_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SVCTUI_CONFIG_DIR", "SVCTUI_DATA_DIR", "SVCTUI_STATE_DIR"):
        monkeypatch.delenv(name)
    assert paths.config_dir() == platformdirs.user_config_path("svctui", appauthor=False)
    assert paths.data_dir() == platformdirs.user_data_path("svctui", appauthor=False)
    assert paths.state_dir() == platformdirs.user_state_path("svctui", appauthor=False)


def test_blank_override_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVCTUI_CONFIG_DIR", "  ")
    assert paths.config_dir() == platformdirs.user_config_path("svctui", appauthor=False)


def test_tilde_in_override_is_expanded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SVCTUI_STATE_DIR", "~/st")
    assert paths.state_dir() == tmp_path / "st"


def test_created_directory_is_0700_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        created = paths.ensure_private_dir(tmp_path / "a" / "b" / "svctui")
    finally:
        os.umask(old)
    assert stat.S_IMODE(created.stat().st_mode) == 0o700
    assert mode_bits(created) == 0o700


def test_existing_directory_is_left_alone(tmp_path: Path) -> None:
    existing = tmp_path / "shared"
    existing.mkdir(mode=0o755)
    os.chmod(existing, 0o755)
    paths.ensure_private_dir(existing)
    assert mode_bits(existing) == 0o755
