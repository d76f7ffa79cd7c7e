"""Profiles: validation, the TOML file, add/remove/default, and SVCTUI_* environment resolution."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from svctui.store import paths
from svctui.store.atomic import write_private
from svctui.store.errors import StoreError
from svctui.store.model import Profile, build_profile, check_base_url, check_name, check_token_id, mask
from svctui.store.profiles import ProfileStore, dump_profiles, parse_profiles
from tests.support.files import mode_bits
from tests.unit.store_keyring import headless_keyring as headless_keyring

TOKEN_ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
KEY = "kq3Zr1pW8vXn0bY7tLm2sQ9dF4gH6jA5cE0uI1oP="
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ"


def signed(name: str = "prod", **extra: Any) -> Profile:
    fields: dict[str, object] = {"name": name, "base_url": "https://bh.example.com", "token_id": TOKEN_ID}
    fields["token_key"] = SecretStr(KEY)
    fields.update(extra)
    return build_profile(None, **fields)


@pytest.mark.parametrize(
    ("url", "normalised"),
    [
        ("https://bh.example.com", "https://bh.example.com"),
        ("https://bh.example.com/", "https://bh.example.com"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("HTTPS://[::1]:8443/bh/", "HTTPS://[::1]:8443/bh"),
    ],
)
def test_good_urls(url: str, normalised: str) -> None:
    assert check_base_url(url) == normalised


@pytest.mark.parametrize(
    "url",
    ["ftp://bh.example.com", "bh.example.com", "https://", "http:///path", "https://h:99999", "https://h:0",
     "https://h/?q=1", "https://h/#x", "https://h /", "", "mailto:x@y"],
)  # fmt: skip
def test_bad_urls_say_what_is_allowed(url: str) -> None:
    with pytest.raises(ValueError, match=r"http:// or https:// URL with a host|must not contain"):
        check_base_url(url)


def test_url_with_password_is_refused_without_echoing_it() -> None:
    with pytest.raises(ValueError) as caught:
        check_base_url("https://admin:hunter2secret@bh.example.com")
    assert "hunter2secret" not in str(caught.value)


def test_token_id_must_be_a_uuid_and_is_canonicalised() -> None:
    assert check_token_id(TOKEN_ID.upper()) == TOKEN_ID
    with pytest.raises(ValueError, match="not a UUID"):
        check_token_id("12345")


@pytest.mark.parametrize("name", ["", "-x", "a b", "a/b", "ü", "x" * 65, "a:b"])
def test_bad_names(name: str) -> None:
    with pytest.raises(ValueError, match="not allowed"):
        check_name(name)


def test_defaults() -> None:
    profile = signed()
    assert (profile.auth, profile.scheme_prefix, profile.prefer_wait, profile.verify_tls, profile.ca_bundle) == (
        "signature",
        "bhe",
        30,
        True,
        None,
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"prefer_wait": 0}, "prefer_wait: prefer_wait 0 is not allowed"),
        ({"prefer_wait": 99999}, "use 1..3600"),
        ({"scheme_prefix": "b e"}, "scheme prefix"),
        ({"token_id": None}, "signature auth needs a token id"),
        ({"token_key": SecretStr("   ")}, "token_key: the secret is empty"),
        ({"token_key": SecretStr("two words")}, "single word"),
        ({"auth": "basic"}, "auth: Input should be 'signature' or 'bearer'"),
        ({"colour": "red"}, "colour: Extra inputs are not permitted"),
    ],
)
def test_invalid_profiles_raise_store_error_without_the_secret(extra: dict[str, Any], message: str) -> None:
    with pytest.raises(StoreError, match=message) as caught:
        signed(**extra)
    assert KEY not in str(caught.value)


def test_secret_never_in_repr_str_or_json() -> None:
    profile = signed()
    for text in (repr(profile), str(profile), profile.model_dump_json(), str(profile.model_dump())):
        assert KEY not in text
    assert profile.token_key is not None and profile.token_key.get_secret_value() == KEY


def test_mask_shows_at_most_last_four() -> None:
    assert mask(SecretStr(KEY)) == "********", "no character of the secret, not even its tail (newcomer audit)"
    assert mask(SecretStr("short-secret")) == "********"
    assert mask(None) == "(none)"


def test_file_round_trip_writes_the_real_secret_and_mode_0600() -> None:
    store = ProfileStore()
    store.add(signed())
    store.add(build_profile(None, name="lab", base_url="http://lab:8080", auth="bearer", jwt=SecretStr(JWT)))
    raw = store.path.read_bytes()
    document = tomllib.loads(raw.decode())
    assert document["profiles"]["prod"]["token_key"] == KEY
    assert document["profiles"]["lab"]["jwt"] == JWT
    assert document["default"] == "prod"
    assert os.stat(store.path).st_mode & 0o777 == 0o600
    again = store.load()
    assert list(again.profiles) == ["prod", "lab"]
    assert again.profiles["prod"].storage == "file"
    assert again.profiles["lab"].jwt is not None and again.profiles["lab"].jwt.get_secret_value() == JWT
    assert dump_profiles(again) == raw


def test_store_never_creates_anything_just_by_reading(isolated_dirs: Path) -> None:
    assert ProfileStore().load().profiles == {}
    assert not (isolated_dirs / "config").exists()


def test_first_profile_becomes_default_then_use_switches() -> None:
    store = ProfileStore()
    assert store.add(signed("a")).made_default
    assert not store.add(signed("b")).made_default
    assert store.load().default == "a"
    store.set_default("b")
    assert store.load().default == "b"
    assert store.add(signed("c"), make_default=True).made_default
    assert store.load().default == "c"


def test_duplicate_needs_replace_and_leaves_file_untouched() -> None:
    store = ProfileStore()
    store.add(signed())
    before = store.path.read_bytes()
    with pytest.raises(StoreError, match="already exists; use --force"):
        store.add(signed(base_url="https://other.example.com"))
    assert store.path.read_bytes() == before
    store.add(signed(base_url="https://other.example.com"), replace=True)
    assert store.get("prod").base_url == "https://other.example.com"


def test_the_demos_name_is_never_stored_anew_but_one_stored_before_stays_editable() -> None:
    """`demo` is `svctui --demo`'s in-memory profile: a stored one would share its caches (any case: one file on a
    case-insensitive disk). The store refuses it, naming the form's field; one stored before may still be edited."""
    store = ProfileStore()
    for name in ("demo", "Demo"):
        with pytest.raises(StoreError, match="reserved for `svctui --demo`") as refused:
            store.add(signed(name))
        assert refused.value.fields == ("name",)
    assert not store.path.exists()
    store.add(signed("prod"))
    store.path.write_bytes(store.path.read_bytes().replace(b'"prod"', b'"demo"').replace(b".prod]", b".demo]"))
    assert list(store.load().profiles) == ["demo"], "stored before the name was reserved"
    store.add(signed("demo", base_url="http://127.0.0.1:47362"), replace=True)
    assert store.get("demo").base_url == "http://127.0.0.1:47362"


def test_remove_moves_default_and_unknown_names_are_listed() -> None:
    store = ProfileStore()
    store.add(signed("a"))
    store.add(signed("b"))
    assert store.remove("a") == ()
    assert store.load().default == "b"
    with pytest.raises(StoreError, match="unknown profile 'zzz'; known profiles: b"):
        store.remove("zzz")
    with pytest.raises(StoreError, match="unknown profile 'zzz'"):
        store.set_default("zzz")
    store.remove("b")
    assert store.load().default is None
    with pytest.raises(StoreError, match="no profiles yet"):
        store.get("b")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version = 1\n[profiles.a\n", "not valid TOML"),
        ("version = 7\n", "format version 7 is not supported"),
        ('default = "x"\n', "default 'x' is not one of the profiles"),
        ('[profiles.a]\nbase_url = "https://h"\ntoken_id = "' + TOKEN_ID + '"\nport = 1\n', "unknown key"),
        ('[profiles.a]\nbase_url = "gopher://h"\ntoken_id = "' + TOKEN_ID + '"\n', "profile 'a': base_url"),
        ('[profiles."a b"]\nbase_url = "https://h"\ntoken_id = "' + TOKEN_ID + '"\n', "not allowed"),
        ('[profiles.a]\nbase_url = "https://h"\nsecret_ref = "vault"\ntoken_id = "' + TOKEN_ID + '"\n', "secret_ref"),
        ("profiles = 3\n", "'profiles' must be a table"),
    ],
)
def test_broken_files_name_the_file_and_problem(text: str, message: str) -> None:
    path = paths.profiles_path()
    with pytest.raises(StoreError, match=message) as caught:
        parse_profiles(path, text.encode())
    assert str(path) in str(caught.value)


def test_parse_error_does_not_quote_the_secret_line() -> None:
    text = f'[profiles.a]\nbase_url = "https://h"\ntoken_key = "{KEY}" junk\n'
    with pytest.raises(StoreError) as caught:
        parse_profiles(Path("p.toml"), text.encode())
    assert KEY not in str(caught.value)


def test_profile_without_secret_loads_but_does_not_resolve() -> None:
    path = paths.profiles_path()
    text = f'version = 1\ndefault = "a"\n[profiles.a]\nbase_url = "https://h"\ntoken_id = "{TOKEN_ID}"\n'
    write_private(path, text.encode())
    store = ProfileStore()
    assert store.get("a").storage == "missing"
    with pytest.raises(StoreError, match=r"has no token key.*SVCTUI_TOKEN_KEY"):
        store.resolve()


# ---------------------------------------------------------------- environment


def test_complete_environment_needs_no_file(isolated_dirs: Path) -> None:
    env = {"SVCTUI_BASE_URL": "https://env.example.com/", "SVCTUI_TOKEN_ID": TOKEN_ID, "SVCTUI_TOKEN_KEY": KEY}
    profile = ProfileStore().resolve(env=env)
    assert (profile.name, profile.base_url, profile.auth, profile.storage) == (
        "env",
        "https://env.example.com",
        "signature",
        "env",
    )
    assert profile.token_key is not None and profile.token_key.get_secret_value() == KEY
    assert not (isolated_dirs / "config").exists()


def test_complete_environment_wins_even_over_an_unreadable_file() -> None:
    store = ProfileStore()
    store.add(signed())
    os.chmod(store.path, 0o644)
    env = {"SVCTUI_BASE_URL": "https://env.example.com", "SVCTUI_JWT": JWT}
    assert ProfileStore().resolve(env=env).auth == "bearer"
    with pytest.raises(StoreError, match="too open"):
        ProfileStore().resolve(env={})


def test_environment_overrides_fields_of_the_chosen_profile() -> None:
    store = ProfileStore()
    store.add(signed("a"))
    store.add(signed("b", base_url="https://b.example.com", prefer_wait=5))
    env = {"SVCTUI_PROFILE": "b", "SVCTUI_BASE_URL": "https://override.example.com"}
    profile = store.resolve(env=env)
    assert (profile.name, profile.base_url, profile.prefer_wait, profile.storage) == (
        "b",
        "https://override.example.com",
        5,
        "file",
    )
    swapped = store.resolve(env={"SVCTUI_PROFILE": "a", "SVCTUI_JWT": JWT})
    assert (swapped.auth, swapped.storage) == ("bearer", "env")
    assert swapped.jwt is not None and swapped.jwt.get_secret_value() == JWT
    named = store.resolve("b", env=env | {"SVCTUI_JWT": JWT})  # named on the command line: as stored
    assert (named.base_url, named.auth) == ("https://b.example.com", "signature")


def test_explicit_name_beats_svctui_profile_and_default() -> None:
    store = ProfileStore()
    store.add(signed("a"))
    store.add(signed("b"))
    assert store.resolve(env={}).name == "a"
    assert store.resolve(env={"SVCTUI_PROFILE": "b"}).name == "b"
    assert store.resolve("a", env={"SVCTUI_PROFILE": "b"}).name == "a"


def test_named_profile_missing_from_file_may_come_from_complete_environment() -> None:
    env = {"SVCTUI_PROFILE": "ci", "SVCTUI_BASE_URL": "https://ci.example.com", "SVCTUI_JWT": JWT}
    assert ProfileStore().resolve(env=env).name == "ci"
    with pytest.raises(StoreError, match="unknown profile 'ci'"):
        ProfileStore().resolve(env={"SVCTUI_PROFILE": "ci"})


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "no profile to use: add one with `svctui profile add"),
        ({"SVCTUI_TOKEN_KEY": KEY, "SVCTUI_JWT": JWT}, "set only one of SVCTUI_TOKEN_KEY"),
        ({"SVCTUI_BASE_URL": "ftp://x", "SVCTUI_JWT": JWT}, "SVCTUI_BASE_URL: base URL 'ftp://x' is not allowed"),
        (
            {"SVCTUI_BASE_URL": "https://h", "SVCTUI_TOKEN_ID": "nope", "SVCTUI_TOKEN_KEY": KEY},
            "SVCTUI_TOKEN_ID: token id 'nope' is not a UUID",
        ),
    ],
)
def test_environment_problems_are_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(StoreError, match=message) as caught:
        ProfileStore().resolve(env=env)
    assert KEY not in str(caught.value) and JWT not in str(caught.value)


def test_empty_environment_values_count_as_unset() -> None:
    store = ProfileStore()
    store.add(signed())
    profile = store.resolve(env={"SVCTUI_BASE_URL": "", "SVCTUI_TOKEN_KEY": "  "})
    assert (profile.base_url, profile.storage) == ("https://bh.example.com", "file")


def test_resolve_uses_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVCTUI_BASE_URL", "https://proc.example.com")
    monkeypatch.setenv("SVCTUI_JWT", JWT)
    assert ProfileStore().resolve().base_url == "https://proc.example.com"


def test_no_default_among_several_profiles() -> None:
    store = ProfileStore()
    store.add(signed("a"))
    store.add(signed("b"))
    data = store.load()
    data.default = None
    store.save(data)
    with pytest.raises(StoreError, match="no default profile: pick one with `svctui profile use NAME` \\(a, b\\)"):
        store.resolve(env={})


# ---------------------------------------------------------------- the directory the secrets live in


def test_open_config_directory_is_refused_for_writing_and_left_as_it_was(isolated_dirs: Path) -> None:
    directory = isolated_dirs / "config"
    store = ProfileStore()
    store.add(signed("a"))
    before = store.path.read_bytes()
    os.chmod(directory, 0o755)
    with pytest.raises(StoreError) as caught:
        store.add(signed("b"))
    message = str(caught.value)
    assert f"Permissions 0755 for directory '{directory}' are too open" in message
    assert f"chmod 700 {directory}" in message
    for change in (lambda: store.remove("a"), lambda: store.set_default("a"), lambda: store.save(store.load())):
        with pytest.raises(StoreError, match="too open"):
            change()
    assert store.path.read_bytes() == before
    assert mode_bits(directory) == 0o755  # not re-moded behind the person's back
    assert store.resolve(env={}).name == "a"  # reading a 0600 file of ours stays possible
    os.chmod(directory, 0o700)
    store.add(signed("b"))
    assert list(store.load().profiles) == ["a", "b"]


@pytest.mark.parametrize("mode", [0o750, 0o705, 0o770, 0o701])
def test_any_group_or_other_bit_on_the_directory_is_refused(isolated_dirs: Path, mode: int) -> None:
    directory = isolated_dirs / "config"
    directory.mkdir()
    os.chmod(directory, mode)
    with pytest.raises(StoreError, match=f"Permissions {mode:04o} for directory"):
        ProfileStore().add(signed())
    assert not paths.profiles_path().exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="handing a directory to another user needs root")
def test_directory_owned_by_someone_else_is_refused(isolated_dirs: Path) -> None:
    directory = isolated_dirs / "config"
    directory.mkdir(mode=0o700)
    os.chown(directory, 4242, -1)
    with pytest.raises(StoreError, match=r"owned by uid 4242, not by you .* SVCTUI_CONFIG_DIR"):
        ProfileStore().add(signed())
    assert not paths.profiles_path().exists()


def test_config_directory_that_cannot_exist_is_a_store_error(
    isolated_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = isolated_dirs / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SVCTUI_CONFIG_DIR", str(blocker / "svctui"))
    with pytest.raises(StoreError, match=r"cannot write '.*a-file/svctui/profiles\.toml': a part of the path is not a"):
        ProfileStore().add(signed())
    with pytest.raises(StoreError, match=r"cannot read .*Not a directory"):
        ProfileStore().load()


@pytest.mark.parametrize(
    ("secret", "message"),
    [
        ("clé-avec-accent-0123456789", "not printable ASCII"),
        ("surrogate-\udcff-0123456789", "not printable ASCII"),
        ("bell-\x07-0123456789", "not printable ASCII"),
        ("tab\tinside", "single word"),
    ],
)
def test_secret_must_be_printable_ascii(secret: str, message: str) -> None:
    with pytest.raises(StoreError, match=message) as caught:
        signed(token_key=SecretStr(secret))
    assert secret not in str(caught.value)
