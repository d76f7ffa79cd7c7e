"""Private files: atomic 0600 writes, ssh-style refusal of open modes, no symlinks, the advisory lock."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from svctui.store.atomic import cached_object, locked, read_private, remove_stale_temps, write_private
from svctui.store.errors import StoreError
from tests.support.files import mode_bits


def test_write_creates_0600_file_and_0700_dir_even_with_umask_zero(tmp_path: Path) -> None:
    target = tmp_path / "conf" / "profiles.toml"
    old = os.umask(0)
    try:
        write_private(target, b"a = 1\n")
    finally:
        os.umask(old)
    assert target.read_bytes() == b"a = 1\n"
    assert mode_bits(target) == 0o600
    assert mode_bits(target.parent) == 0o700


def test_replacing_an_open_file_leaves_mode_0600(tmp_path: Path) -> None:
    target = tmp_path / "profiles.toml"
    target.write_bytes(b"old")
    os.chmod(target, 0o644)
    write_private(target, b"new")
    assert target.read_bytes() == b"new"
    assert mode_bits(target) == 0o600


def test_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "profiles.toml"
    for round_number in range(5):
        write_private(target, f"n = {round_number}\n".encode())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["profiles.toml"]


def test_failed_write_keeps_old_content_and_removes_its_temp(tmp_path: Path) -> None:
    target = tmp_path / "profiles.toml"
    write_private(target, b"old = 1\n")
    with pytest.raises(TypeError):
        write_private(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old = 1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["profiles.toml"]


def test_write_replaces_a_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_bytes(b"untouched")
    target = tmp_path / "profiles.toml"
    target.symlink_to(elsewhere)
    write_private(target, b"mine")
    assert not target.is_symlink()
    assert target.read_bytes() == b"mine"
    assert elsewhere.read_bytes() == b"untouched"


def test_read_missing_file_is_none(tmp_path: Path) -> None:
    assert read_private(tmp_path / "nope.toml") is None


def test_read_private_file(tmp_path: Path) -> None:
    target = tmp_path / "profiles.toml"
    write_private(target, b"x = 1\n")
    assert read_private(target) == b"x = 1\n"


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620, 0o602, 0o610, 0o601, 0o660, 0o666, 0o700, 0o1600])
def test_read_refuses_any_group_or_other_bit(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "profiles.toml"
    write_private(target, b"x = 1\n")
    os.chmod(target, mode)
    expect_ok = not (mode & 0o077)
    if expect_ok:
        assert read_private(target) == b"x = 1\n"
        return
    with pytest.raises(StoreError) as caught:
        read_private(target)
    message = str(caught.value)
    assert str(target) in message
    assert f"{mode & 0o7777:04o}" in message
    assert f"chmod 600 {target}" in message


def test_read_refuses_0644_with_the_ssh_style_message(tmp_path: Path) -> None:
    target = tmp_path / "profiles.toml"
    write_private(target, b"x = 1\n")
    os.chmod(target, 0o644)
    with pytest.raises(StoreError, match=r"Permissions 0644 for '.*profiles.toml' are too open") as caught:
        read_private(target)
    assert str(caught.value).endswith(f"chmod 600 {target}")


def test_read_refuses_a_symlink_even_to_a_private_file(tmp_path: Path) -> None:
    real = tmp_path / "real.toml"
    write_private(real, b"x = 1\n")
    link = tmp_path / "profiles.toml"
    link.symlink_to(real)
    with pytest.raises(StoreError, match="symbolic link") as caught:
        read_private(link)
    assert str(link) in str(caught.value)


def test_read_refuses_a_directory(tmp_path: Path) -> None:
    (tmp_path / "profiles.toml").mkdir()
    with pytest.raises(StoreError, match="not a regular file"):
        read_private(tmp_path / "profiles.toml")


def test_stale_temps_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "profiles.toml"
    write_private(target, b"x = 1\n")
    (tmp_path / ".profiles.toml.tmp-deadbeef").write_bytes(b"half")
    (tmp_path / ".settings.toml.tmp-deadbeef").write_bytes(b"other file's")
    with locked(target):
        assert remove_stale_temps(target) == 1
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == [
        ".settings.toml.tmp-deadbeef",
        "profiles.toml",
    ]


LOCK_HOLDER = """
import sys, time
from pathlib import Path
from svctui.store.atomic import locked
target = Path(sys.argv[1])
with locked(target):
    print("locked", flush=True)
    sys.stdin.readline()
"""

TRY_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
except BlockingIOError:
    print("busy")
else:
    print("free")
"""


def test_lock_excludes_another_process(tmp_path: Path) -> None:
    target = tmp_path / "profiles.toml"
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(target)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        probe = [sys.executable, "-c", TRY_LOCK, str(tmp_path / ".profiles.toml.lock")]
        assert subprocess.run(probe, capture_output=True, text=True, check=True).stdout.strip() == "busy"
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(timeout=30) == 0
        assert subprocess.run(probe, capture_output=True, text=True, check=True).stdout.strip() == "free"
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def test_a_cache_file_holds_its_object_or_nothing() -> None:
    """The per-profile caches (client names, server facts) read through one rule: an unreadable file holds nothing."""
    assert cached_object(b'{"names": {"a": "DC01"}}') == {"names": {"a": "DC01"}}
    for unreadable in (None, b"", b"{", b"\xff\xfe", b"[1, 2]", b'"text"', b"[" * 100_000):
        assert cached_object(unreadable) == {}, unreadable[:20] if unreadable else unreadable
