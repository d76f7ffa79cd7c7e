"""Crash safety: a writer killed with SIGKILL at random moments never leaves a partial or loosened profiles file."""

from __future__ import annotations

import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pydantic import SecretStr

from svctui.store.atomic import read_private
from svctui.store.model import Profile
from svctui.store.profiles import ProfilesFile, ProfileStore, dump_profiles, parse_profiles

KILLS = 30  # random kill points, each a writer forked from one fork server
TOKEN_ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"


def _contents(count: int, tag: str) -> ProfilesFile:
    profiles = {
        f"{tag}{n}": Profile(
            name=f"{tag}{n}",
            base_url=f"https://{tag}{n}.example.com",
            token_id=TOKEN_ID,
            token_key=SecretStr(f"{tag}-key-{n:04d}-" + "x" * 40),
            storage="file",
        )
        for n in range(count)
    }
    return ProfilesFile(default=f"{tag}0", profiles=profiles)


OLD = _contents(1, "old")
NEW = _contents(40, "new")  # larger, so a kill often lands mid-write

# Imports once, then per line read ("old" or "new") forks a writer that saves that content, says `ready PID` and
# saves the two contents in turn until killed; the fork server reaps it and says `status CODE`.
WRITERS = """
import os
import sys
from pathlib import Path
from tests.unit.test_store_crash import NEW, OLD
from svctui.store.profiles import ProfileStore
for first in sys.stdin:
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        store = ProfileStore(Path(sys.argv[1]))
        store.save(NEW if first.strip() == "new" else OLD)
        print("ready", os.getpid(), flush=True)
        flip = first.strip() != "new"
        while True:
            store.save(NEW if flip else OLD)
            flip = not flip
    print("status", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
"""


@pytest.mark.slow
def test_sigkill_mid_save_leaves_old_or_new_complete_file_with_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "config" / "profiles.toml"
    ProfileStore(path).save(OLD)
    expected = {dump_profiles(OLD): "old", dump_profiles(NEW): "new"}
    rng = random.Random(20240909)
    seen: list[str] = []
    temps = 0
    root = Path(__file__).resolve().parents[2]
    # one fork server for the run: a kill costs a fork, not a Python start-up and its imports
    writers = subprocess.Popen(
        [sys.executable, "-c", WRITERS, str(path)],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writers.stdin is not None and writers.stdout is not None
    for kill_number in range(KILLS):
        first = "new" if kill_number % 2 else "old"
        writers.stdin.write(first + "\n")
        writers.stdin.flush()
        ready = writers.stdout.readline().split()
        if not ready or ready[0] != "ready":
            writers.kill()
            raise AssertionError(f"writer did not start: {writers.communicate()[1]}")
        time.sleep(rng.uniform(0.0, 0.03))  # a random moment; nothing below depends on timing
        os.kill(int(ready[1]), signal.SIGKILL)
        assert writers.stdout.readline().split() == ["status", str(-signal.SIGKILL)]

        raw = read_private(path)  # refuses a symlink or any group/other bit
        assert raw is not None
        assert raw in expected, f"kill {kill_number}: file holds neither complete content ({len(raw)} bytes)"
        assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
        assert parse_profiles(path, raw).profiles.keys() in ({"old0"}, {f"new{n}" for n in range(40)})
        seen.append(expected[raw])
        temps += sum(".tmp-" in p.name for p in path.parent.iterdir())
    writers.stdin.close()
    assert writers.wait(timeout=60) == 0, writers.communicate()[1]
    print(f"kills that left a temp file behind: {temps}")
    assert set(seen) == {"old", "new"}, "the kills never caught one of the two contents"
    ProfileStore(path).save(OLD)  # the next save sweeps temp files killed writers left behind
    leftovers = [p.name for p in path.parent.iterdir() if ".tmp-" in p.name]
    assert leftovers == []
