"""Where svctui keeps its files: platformdirs locations, each overridable by an SVCTUI_*_DIR variable."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import platformdirs

APP_NAME = "svctui"
ENV_CONFIG_DIR = "SVCTUI_CONFIG_DIR"
ENV_DATA_DIR = "SVCTUI_DATA_DIR"
ENV_STATE_DIR = "SVCTUI_STATE_DIR"
PRIVATE_DIR_MODE = 0o700


def _dir_from_env(variable: str, default: Callable[..., Path]) -> Path:
    value = os.environ.get(variable, "").strip()
    if value:
        return Path(value).expanduser()
    return default(APP_NAME, appauthor=False)


def config_dir() -> Path:
    """Directory of profiles.toml and settings.toml (SVCTUI_CONFIG_DIR or the platform's user config dir)."""
    return _dir_from_env(ENV_CONFIG_DIR, platformdirs.user_config_path)


def data_dir() -> Path:
    """Directory for data svctui keeps (SVCTUI_DATA_DIR or the platform's user data dir)."""
    return _dir_from_env(ENV_DATA_DIR, platformdirs.user_data_path)


def state_dir() -> Path:
    """Directory for state such as the audit log (SVCTUI_STATE_DIR or the platform's user state dir)."""
    return _dir_from_env(ENV_STATE_DIR, platformdirs.user_state_path)


def default_export_dir() -> Path:
    """Where the dashboard's exports and screenshots go when settings name no `export_dir`: `exports/` in the data
    dir (`svctui locate exports`)."""
    return data_dir() / "exports"


def profiles_path() -> Path:
    """The TOML file of named profiles (holds secrets unless they live in the keyring)."""
    return config_dir() / "profiles.toml"


def settings_path() -> Path:
    """The TOML file of non-secret settings (theme, keymap, page size, recent clients)."""
    return config_dir() / "settings.toml"


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and parents) if missing; a directory created here gets mode 0700 exactly."""
    if path.is_dir():
        return path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir(mode=PRIVATE_DIR_MODE)
    except FileExistsError:
        if path.is_dir():  # another process made it a moment ago
            return path
        raise NotADirectoryError(errno.ENOTDIR, "a part of the path is not a directory", str(path)) from None
    os.chmod(path, PRIVATE_DIR_MODE)
    return path
