"""Secrets in the system keyring when one works, the file (with a visible warning) when it does not."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator

import pytest
from pydantic import SecretStr

from svctui.store import keychain
from svctui.store.errors import StoreError
from svctui.store.model import Profile, build_profile
from svctui.store.profiles import ProfileStore
from tests.unit.store_keyring import LockedKeyring, LyingKeyring, MemoryKeyring, StuckKeyring, headless, installed

TOKEN_ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
KEY = "Zm9vYmFyLWtleS1mb3ItdGVzdGluZy0xMjM0NTY3OA=="
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJrZXlyaW5nIn0.c2ln"


def signed(name: str = "prod", key: str = KEY) -> Profile:
    return build_profile(
        None, name=name, base_url="https://bh.example.com", token_id=TOKEN_ID, token_key=SecretStr(key)
    )


def bearer(name: str = "prod") -> Profile:
    return build_profile(None, name=name, base_url="https://bh.example.com", auth="bearer", jwt=SecretStr(JWT))


def file_table(store: ProfileStore, name: str = "prod") -> dict[str, object]:
    table: dict[str, object] = tomllib.loads(store.path.read_text())["profiles"][name]
    return table


@pytest.fixture
def memory() -> Iterator[MemoryKeyring]:
    backend = MemoryKeyring()
    with installed(backend):
        yield backend


def test_headless_machine_falls_back_to_the_file_with_a_warning() -> None:
    with installed(headless()):
        store = ProfileStore()
        result = store.add(signed())
    assert result.storage == "file"
    assert len(result.warnings) == 1
    assert "not in the system keyring: no system keyring is available" in result.warnings[0]
    assert str(store.path) in result.warnings[0]
    assert file_table(store)["token_key"] == KEY
    with installed(headless()):
        assert store.resolve(env={}).storage == "file"


def test_working_keyring_holds_the_secret_and_the_file_a_reference(memory: MemoryKeyring) -> None:
    store = ProfileStore()
    result = store.add(signed())
    assert (result.storage, result.warnings) == ("keyring", ())
    assert memory.entries == {("svctui", "prod:token_key"): KEY}
    table = file_table(store)
    assert table["secret_ref"] == "keyring"
    assert "token_key" not in table
    assert KEY not in store.path.read_text()
    assert store.get("prod").storage == "keyring"
    assert store.get("prod").token_key is None  # listing does not touch the keyring
    resolved = store.resolve(env={})
    assert resolved.token_key is not None and resolved.token_key.get_secret_value() == KEY
    assert resolved.storage == "keyring"


def test_jwt_goes_to_its_own_keyring_entry(memory: MemoryKeyring) -> None:
    ProfileStore().add(bearer("lab"))
    assert memory.entries == {("svctui", "lab:jwt"): JWT}


def test_remove_deletes_the_keyring_entry(memory: MemoryKeyring) -> None:
    store = ProfileStore()
    store.add(signed("a"))
    store.add(signed("b"))
    assert store.remove("a") == ()
    assert list(memory.entries) == [("svctui", "b:token_key")]


def test_replacing_a_keyring_profile_with_a_file_one_drops_the_old_entry(memory: MemoryKeyring) -> None:
    store = ProfileStore()
    store.add(signed())
    now_locked = LockedKeyring()
    now_locked.entries = memory.entries  # the same keyring, now refusing writes
    with installed(now_locked):
        result = store.add(signed(key="another-key-0123456789"), replace=True)
    assert result.storage == "file"
    assert any("not in the system keyring" in w for w in result.warnings)
    assert memory.entries == {}
    assert file_table(store)["token_key"] == "another-key-0123456789"


def test_switching_auth_kind_in_the_keyring_removes_the_stale_entry(memory: MemoryKeyring) -> None:
    store = ProfileStore()
    store.add(signed())
    store.add(bearer(), replace=True)
    assert memory.entries == {("svctui", "prod:jwt"): JWT}


def test_failing_keyring_falls_back_and_the_warning_hides_the_secret() -> None:
    with installed(LockedKeyring()):
        result = ProfileStore().add(signed())
    assert result.storage == "file"
    assert "collection is locked" in result.warnings[0]
    assert KEY not in result.warnings[0]
    assert "**********" in result.warnings[0]


def test_keyring_that_reads_back_something_else_is_not_trusted() -> None:
    backend = LyingKeyring()
    with installed(backend):
        result = ProfileStore().add(signed())
    assert result.storage == "file"
    assert "reading the secret back" in result.warnings[0]
    assert backend.entries == {}  # the bad entry was deleted again


def test_hung_keyring_is_abandoned_after_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keychain, "TIMEOUT_S", 0.2)
    monkeypatch.setattr(keychain, "_hung", [])
    backend = StuckKeyring()
    try:
        with installed(backend):
            result = ProfileStore().add(signed())
    finally:
        backend.release.set()
    assert result.storage == "file"
    assert "did not answer within 0.2 s" in result.warnings[0]


def test_after_one_timeout_the_keyring_is_not_asked_again(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ProfileStore()
    store.add(signed())  # in the keyring
    monkeypatch.setattr(keychain, "TIMEOUT_S", 0.2)
    monkeypatch.setattr(keychain, "_hung", [])
    backend = StuckKeyring()
    backend.entries = memory.entries
    try:
        with installed(backend):
            result = store.add(signed(key="replacement-key-0123456789"), replace=True)
            assert backend.calls == 1  # the stale entry's deletion did not wait another timeout
            with pytest.raises(keychain.KeyringUnavailable, match=r"did not answer within 0\.2 s"):
                keychain.load_secret("prod", "token_key")
            assert backend.calls == 1
    finally:
        backend.release.set()
    assert result.storage == "file"
    assert [w.split(":")[0] for w in result.warnings] == [
        f"secret stored in {store.path} (mode 0600), not in the system keyring",
        "could not delete the old keyring entry",
    ]


def test_timeout_default_is_three_seconds() -> None:
    assert keychain.TIMEOUT_S == 3.0


def test_no_keyring_variable_keeps_secrets_in_the_file_silently(
    memory: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SVCTUI_NO_KEYRING", "1")
    store = ProfileStore()
    result = store.add(signed())
    assert (result.storage, result.warnings) == ("file", ())
    assert memory.entries == {}
    assert file_table(store)["token_key"] == KEY


def test_unreadable_keyring_at_use_time_says_what_to_do(memory: MemoryKeyring) -> None:
    store = ProfileStore()
    store.add(signed())
    memory.entries.clear()
    with pytest.raises(StoreError, match=r"keeps its secret in the system keyring.*no entry svctui/prod:token_key"):
        store.resolve(env={})
    with installed(headless()), pytest.raises(StoreError, match="SVCTUI_TOKEN_KEY"):
        store.resolve(env={})


def test_environment_secret_overrides_a_keyring_profile_without_touching_it(memory: MemoryKeyring) -> None:
    store = ProfileStore()
    store.add(signed())
    memory.entries.clear()  # would fail if read
    resolved = store.resolve(env={"SVCTUI_TOKEN_KEY": "env-key-0123456789abcdef"})
    assert resolved.storage == "env"


def test_delete_of_a_missing_entry_is_fine(memory: MemoryKeyring) -> None:
    assert keychain.delete_secret("ghost", "token_key") is None
    with installed(LockedKeyring()):
        assert keychain.delete_secret("ghost", "jwt") is None
    with installed(headless()):
        assert keychain.delete_secret("ghost", "jwt") == "no system keyring is available on this machine"
