"""The per-profile client names cache: merge, per profile and server, replaced by the server's list, private (0600
file, 0700 dir), atomic, corrupt = empty."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from svctui.store.client_names import MAX_NAMES, learn_names, load_names, names_path, replace_names, server_key
from svctui.store.errors import StoreError
from svctui.store.paths import data_dir

A = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
B = "1b1c2d3e-4f50-6172-8394-a5b6c7d8e9f1"


def test_learnt_names_are_kept_per_profile_in_private_files() -> None:
    assert load_names("prod") == {}
    assert learn_names("prod", {A.upper(): "SHARPHOUND-DC01", B: "  two\nlines "}) == {
        A: "SHARPHOUND-DC01",
        B: "two lines",
    }
    assert learn_names("prod", {A: "renamed", B: ""}) == {A: "renamed", B: "two lines"}, "new names win, empty ignored"
    assert load_names("prod") == {A: "renamed", B: "two lines"}
    assert load_names("lab") == {}, "another profile, another cache"
    path = names_path("prod")
    assert path.parent == data_dir() / "client-names"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert sorted(p.name for p in path.parent.iterdir() if not p.name.startswith(".")) == ["prod.json"]
    with pytest.raises(ValueError, match="profile name"):
        names_path("../escape")


def test_a_cache_file_others_can_read_is_refused() -> None:
    learn_names("prod", {A: "one"})
    os.chmod(names_path("prod"), 0o644)
    with pytest.raises(StoreError, match="too open"):
        load_names("prod")


def test_a_corrupt_cache_reads_empty_and_is_replaced_whole() -> None:
    learn_names("prod", {A: "one"})
    path = names_path("prod")
    path.write_bytes(b'{"names": {"' + A.encode() + b'": "on')  # a torn write by something else
    assert load_names("prod") == {}
    learn_names("prod", {B: "two"})
    assert json.loads(path.read_bytes()) == {"names": {B: "two"}}


def test_writes_are_atomic_and_leave_no_temp_files(tmp_path: Path) -> None:
    path = tmp_path / "private" / "names.json"
    learn_names("prod", {A: "one"}, path)
    stale = path.parent / f".{path.name}.tmp-deadbeef0000"
    stale.write_bytes(b"half")  # a writer killed before its rename
    inode = path.stat().st_ino
    learn_names("prod", {B: "two"}, path)
    assert not stale.exists()
    assert path.stat().st_ino != inode, "replaced by rename, not rewritten in place"
    assert load_names("prod", path) == {A: "one", B: "two"}
    unchanged = path.stat().st_ino
    learn_names("prod", {A: "one"}, path)
    assert path.stat().st_ino == unchanged, "nothing new: not rewritten"


def test_concurrent_learners_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "names.json"
    ids = [f"{n:08x}-0000-4000-8000-000000000000" for n in range(16)]
    threads = [
        threading.Thread(target=learn_names, args=("prod", {client_id: f"c{n}"}, path))
        for n, client_id in enumerate(ids)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert load_names("prod", path) == {client_id: f"c{n}" for n, client_id in enumerate(ids)}


def test_the_cache_is_capped(tmp_path: Path) -> None:
    path = tmp_path / "names.json"
    many = {f"{n:08x}-0000-4000-8000-000000000000": f"c{n}" for n in range(MAX_NAMES + 3)}
    kept = learn_names("prod", many, path)
    assert len(kept) == MAX_NAMES and "00000000-0000-4000-8000-000000000000" not in kept


HERE = server_key("https://bh.example.com", "11111111-2222-4333-8444-555555555555")
THERE = server_key("http://127.0.0.1:8443", "11111111-2222-4333-8444-555555555555")


def test_the_servers_list_replaces_the_cache_and_another_servers_cache_reads_empty() -> None:
    learn_names("demo", {A: "SHARPHOUND-LAB-10"}, server=THERE)  # a run against another server, same profile name
    assert load_names("demo", server=HERE) == {}, "another server's clients are not this one's"
    assert load_names("demo", server=THERE) == {A: "SHARPHOUND-LAB-10"}
    assert learn_names("demo", {B: "two"}, server=HERE) == {B: "two"}, "its first write starts the file afresh"
    assert load_names("demo", server=THERE) == {}
    assert replace_names("demo", {A: "one"}, HERE) == {A: "one"}
    assert load_names("demo", server=HERE) == {A: "one"}, "a client gone from the server goes from the cache"
    path = names_path("demo")
    assert json.loads(path.read_bytes()) == {"server": HERE, "names": {A: "one"}}
    assert "example" not in path.read_text(), "the server is kept as a digest"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    inode = path.stat().st_ino
    replace_names("demo", {A: "one"}, HERE)
    assert path.stat().st_ino == inode, "nothing changed: not rewritten"
    learn_names("demo", {B: "two"})  # without a server (the CLI's names of tasks): the file's server is kept
    assert load_names("demo", server=HERE) == {A: "one", B: "two"}


def test_a_file_from_before_servers_were_kept_is_any_servers_until_rewritten() -> None:
    path = names_path("demo")
    learn_names("demo", {A: "old"})
    assert json.loads(path.read_bytes()) == {"names": {A: "old"}}
    assert load_names("demo", server=HERE) == {A: "old"}
    replace_names("demo", {B: "two"}, HERE)
    assert load_names("demo", server=THERE) == {}
