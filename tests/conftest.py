"""Shared fixtures: every test runs with its own config, data and state directories and no SVCTUI_* leakage."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from svctui.startup import DASHBOARD, tune_runtime

if TYPE_CHECKING:
    from svctui.demo.server import DemoServer


def pytest_configure(config: pytest.Config) -> None:
    """Every test process runs with the runtime `svctui` sets at launch (`startup.TUNINGS[DASHBOARD]`): the TUI tests
    run the dashboard in this process. With CPython's defaults instead, full collections walking pytest's heap were
    ~30 % of the suite's CPU (stop 35: 780 s on 2 cores)."""
    tune_runtime(DASHBOARD)


def _run_order(item: pytest.Item) -> int:
    """0: marked slow or e2e (tens of seconds each); 1: the snapshot pictures (seconds each); 2: the rest."""
    if item.get_closest_marker("slow") or item.get_closest_marker("e2e"):
        return 0
    return 1 if item.path.parent.name == "snapshots" else 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, in collection order otherwise: the pytest-xdist workers then end on short tests
    together, not one of them on a queue of long ones while the others idle."""
    items.sort(key=_run_order)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (test modules, fixtures, pytest's own objects) lives for the whole run: frozen out of
    the collector's passes."""
    gc.freeze()


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point config/data/state at fresh temp dirs; drop SVCTUI_* variables and COLUMNS/LINES from the environment."""
    for name in list(os.environ):
        if name.startswith("SVCTUI_"):
            monkeypatch.delenv(name, raising=False)
    for name in ("COLUMNS", "LINES"):  # pytest-xdist workers get COLUMNS=80: CLI tables must see no terminal size
        monkeypatch.delenv(name, raising=False)
    root = tmp_path_factory.mktemp("svctui-home")
    for kind in ("config", "data", "state"):
        path = root / kind
        monkeypatch.setenv(f"SVCTUI_{kind.upper()}_DIR", str(path))
    yield root


@pytest.fixture(scope="session", autouse=True)
def no_system_keyring() -> Iterator[None]:
    """Tests never touch the machine's real keyring: the suite runs as on a headless machine (keyring's own
    `fail` backend), installed once so no test pays keyring's first-use backend scan inside the 3 s limit."""
    import keyring
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    yield
    keyring.set_keyring(previous)


@pytest.fixture(autouse=True)
def fresh_keyring_timeout_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """A keyring timeout in one test (the store then stops asking, per process) must not leak into the next."""
    from svctui.store import keychain

    monkeypatch.setattr(keychain, "_hung", [])


# ---------------------------------------------------------------- demo server fixtures (helper "demo")


@pytest.fixture(scope="session")
def demo_template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo database generated once per session (seed 1, default sizes, fixed anchor); servers use copies."""
    from svctui.demo.config import FIXED_ANCHOR, DemoSizes
    from svctui.demo.dataset import prepare_database

    path = tmp_path_factory.mktemp("demo-template") / "demo.sqlite3"
    prepare_database(path, seed=1, sizes=DemoSizes(), anchor=FIXED_ANCHOR)
    return path


def _copy_demo_db(template: Path, target_dir: Path) -> Path:
    import shutil

    target = target_dir / "demo.sqlite3"
    shutil.copyfile(template, target)
    return target


@pytest.fixture(scope="session")
def demo_server(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoServer]:
    """The enterprise demo server for the whole session (read-only use; rate limiting off; fixed anchor)."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.demo.server import DemoServer

    db_path = _copy_demo_db(demo_template_db, tmp_path_factory.mktemp("demo-enterprise"))
    with DemoServer(edition="enterprise", db_path=db_path, rate_limit=0, anchor=FIXED_ANCHOR) as demo:
        yield demo


@pytest.fixture(scope="session")
def demo_server_community(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoServer]:
    """The community-edition demo server for the whole session (no /api/v2/events; rate limiting off)."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.demo.server import DemoServer

    db_path = _copy_demo_db(demo_template_db, tmp_path_factory.mktemp("demo-community"))
    with DemoServer(edition="community", db_path=db_path, rate_limit=0, anchor=FIXED_ANCHOR) as demo:
        yield demo


@pytest.fixture(scope="session")
def demo_server_older(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoServer]:
    """An enterprise demo server of before `GET /api/v2/jobs/finished` (each client's runs read on their own)."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.demo.server import DemoServer

    db_path = _copy_demo_db(demo_template_db, tmp_path_factory.mktemp("demo-older"))
    with DemoServer(db_path=db_path, rate_limit=0, anchor=FIXED_ANCHOR, without=("jobs-finished",)) as demo:
        yield demo


@pytest.fixture
def fresh_demo_server(demo_template_db: Path, tmp_path: Path) -> Iterator[DemoServer]:
    """A demo server of its own for one test (deletes and other changes stay with it; rate limiting off)."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.demo.server import DemoServer

    db_path = _copy_demo_db(demo_template_db, tmp_path)
    with DemoServer(edition="enterprise", db_path=db_path, rate_limit=0, anchor=FIXED_ANCHOR) as demo:
        yield demo


@pytest.fixture
def fresh_older_demo_server(demo_template_db: Path, tmp_path: Path) -> Iterator[DemoServer]:
    """A demo server of its own without `GET /api/v2/jobs/finished` (an older server: each client read alone)."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.demo.server import DemoServer

    db_path = _copy_demo_db(demo_template_db, tmp_path)
    with DemoServer(db_path=db_path, rate_limit=0, anchor=FIXED_ANCHOR, without=("jobs-finished",)) as demo:
        yield demo
