"""No output of the store or the profile commands ever shows a token key or a JWT.

Everything is captured: command stdout and stderr, log records at DEBUG from every logger (httpx included),
warnings, file-descriptor output, reprs/strs/JSON dumps of every object, and the text of every exception.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import traceback
import warnings
from collections.abc import Callable, Iterator

import pytest
from click.testing import CliRunner
from pydantic import SecretStr, ValidationError

from svctui.cli import cli
from svctui.connect import build_auth, open_client
from svctui.demo.server import DemoServer
from svctui.store.errors import StoreError
from svctui.store.model import Profile, build_profile
from svctui.store.profiles import ProfileStore
from tests.unit.store_keyring import LockedKeyring, LyingKeyring, MemoryKeyring, headless, installed

TOKEN_ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
KEY = "Xq4Vb8Nz2Lw6Pt0Rk3Hm7Jc1Fs5Gd9Ya+/=="
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsZWFrcyJ9.Uv7Yt2Qe9Wr4Ti6Oo1Pa3Ss8Dd5Ff0Gg"
WINDOW = 8


def leaks(text: str) -> list[str]:
    """Every 8-character piece of a secret that occurs in `text` (masking may show the last 4, never 8)."""
    found = []
    for secret in (KEY, JWT):
        for start in range(len(secret) - WINDOW + 1):
            piece = secret[start : start + WINDOW]
            if piece in text:
                found.append(piece)
    return found


class Transcript:
    """Collects every piece of output and text the tests produce."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, *texts: object) -> None:
        self.parts.extend(str(text) for text in texts)

    def run(self, *args: str, stdin: str | None = None) -> int:
        result = CliRunner().invoke(cli, list(args), input=stdin, obj={})
        self.add(result.stdout, result.stderr, repr(result))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            self.add(*traceback.format_exception(result.exception))
        return result.exit_code

    def expect_error(self, action: Callable[[], object]) -> None:
        try:
            action()
        except (StoreError, ValidationError, ValueError) as exc:
            self.add(str(exc), repr(exc), *traceback.format_exception(exc))
        else:
            raise AssertionError("expected an error")


@pytest.fixture
def transcript(caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]) -> Iterator[Transcript]:
    caplog.set_level(logging.DEBUG)
    collected = Transcript()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield collected
    out, err = capfd.readouterr()
    collected.add(out, err, caplog.text, *(str(w.message) for w in caught))
    everything = "\n".join(collected.parts)
    assert len(everything) > 500, "the transcript is suspiciously small"
    assert leaks(everything) == []


def test_the_detector_finds_a_leak() -> None:
    assert leaks(f"xx{KEY[3:12]}yy")
    assert leaks(JWT)
    assert not leaks("********" + KEY[-4:])


def _closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_commands_never_show_the_secret(transcript: Transcript) -> None:
    url = _closed_port_url()
    signed = ["--base-url", url, "--token-id", TOKEN_ID]
    with installed(headless()):
        assert transcript.run("profile", "add", "file", *signed, "--secret-stdin", stdin=KEY) == 0
        assert transcript.run("profile", "add", "prompt", *signed, stdin=KEY + "\n") == 0
        assert transcript.run("profile", "add", "jwt", "--base-url", url, "--bearer", stdin=JWT + "\n") == 0
        assert transcript.run("profile", "add", "file", *signed, "--secret-stdin", stdin=KEY) == 2
        assert transcript.run("profile", "add", "bad", "--base-url", "ftp://x", "--bearer", stdin=JWT) == 2
        assert transcript.run("profile", "add", "sp", *signed, "--secret-stdin", stdin=KEY + " tail") == 2
    with installed(MemoryKeyring()):
        assert transcript.run("profile", "add", "ring", *signed, "--secret-stdin", stdin=KEY) == 0
        assert transcript.run("profile", "show", "ring") == 0
        assert transcript.run("profile", "test", "ring") == 5
    with installed(LockedKeyring()):  # its error text contains the secret it was given
        assert transcript.run("profile", "add", "locked", *signed, "--secret-stdin", stdin=KEY) == 0
    with installed(LyingKeyring()):
        assert transcript.run("profile", "add", "liar", "--base-url", url, "--bearer", "--secret-stdin", stdin=JWT) == 0
    with installed(headless()):
        for name in ("file", "prompt", "jwt", "locked", "liar"):
            assert transcript.run("profile", "show", name) == 0
        assert transcript.run("profile", "test", "jwt") == 5
        assert transcript.run("profile", "show", "ring") == 0  # keyring unreadable now
        assert transcript.run("profile", "test", "ring") == 2
        assert transcript.run("profile", "list") == 0
        assert transcript.run("profile", "use", "jwt") == 0
        assert transcript.run("profile", "remove", "file", stdin="y\n") == 2  # off a terminal: --yes, no prompt
        assert transcript.run("profile", "remove", "file", "--yes") == 0
        assert transcript.run("profile", "remove", "ring", "--yes") == 0
        assert transcript.run("locate", "config") == 0


def test_environment_secrets_never_show(transcript: Transcript, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVCTUI_BASE_URL", _closed_port_url())
    monkeypatch.setenv("SVCTUI_TOKEN_ID", TOKEN_ID)
    monkeypatch.setenv("SVCTUI_TOKEN_KEY", KEY)
    with installed(headless()):
        assert transcript.run("profile", "list") == 0
        assert transcript.run("profile", "test") == 5
        monkeypatch.setenv("SVCTUI_JWT", JWT)
        assert transcript.run("profile", "test") == 2  # both secrets set: refused, without quoting either
        monkeypatch.delenv("SVCTUI_TOKEN_KEY")
        monkeypatch.setenv("SVCTUI_BASE_URL", "gopher://x")
        assert transcript.run("profile", "test") == 2


def test_read_and_delete_commands_never_show_the_secret(
    transcript: Transcript, monkeypatch: pytest.MonkeyPatch, demo_server: DemoServer
) -> None:
    """Against a real server that refuses the key (exit 3), an unreachable one (exit 5), and with both secrets set."""
    monkeypatch.setenv("SVCTUI_BASE_URL", demo_server.base_url)
    monkeypatch.setenv("SVCTUI_TOKEN_ID", demo_server.token_id)
    monkeypatch.setenv("SVCTUI_TOKEN_KEY", KEY)  # not the server's key
    commands = (
        ["events", "list", "-o", "json"],
        ["tasks", "list", TOKEN_ID, "--all", "-o", "csv"],
        ["tags", "list"],
        ["selectors", "list", "1", "-o", "jsonl"],
        ["selectors", "delete", "1", "5", "--yes"],
        ["selectors", "delete", "1", "5", "--dry-run"],
    )
    for args in commands:
        assert transcript.run(*args) == 3, args
    monkeypatch.setenv("SVCTUI_BASE_URL", _closed_port_url())
    for args in (commands[1], commands[3], commands[4]):  # a stream, a listing, a delete (each waits out retries)
        assert transcript.run(*args) == 5, args
    monkeypatch.setenv("SVCTUI_JWT", JWT)
    assert transcript.run("tags", "list") == 2


def test_objects_and_errors_never_show_the_secret(transcript: Transcript) -> None:
    with installed(headless()):
        store = ProfileStore()
        profile = build_profile(
            None, name="p", base_url="https://bh.example.com", token_id=TOKEN_ID, token_key=SecretStr(KEY)
        )
        bearer = build_profile(None, name="b", base_url="https://bh.example.com", auth="bearer", jwt=SecretStr(JWT))
        result = store.add(profile)
        store.add(bearer)
        resolved = store.resolve("p", env={})
        auth = build_auth(resolved)
        client = open_client(resolved)
        transcript.add(
            profile, repr(profile), profile.model_dump_json(), profile.model_dump(), profile.model_dump(mode="json"),
            bearer, repr(bearer), bearer.model_dump_json(), result, store, store.load(), resolved, auth, repr(auth),
            build_auth(bearer), client, repr(client), profile.token_key, bearer.jwt,
        )  # fmt: skip
        asyncio.run(client.aclose())
        transcript.expect_error(lambda: store.add(profile))
        transcript.expect_error(lambda: Profile(name="p", base_url="ftp://x", token_key=SecretStr(KEY)))
        transcript.expect_error(
            lambda: Profile.model_validate({"name": "p", "base_url": "https://h", "token_key": KEY})
        )
        transcript.expect_error(
            lambda: Profile.model_validate({"name": "p", "base_url": 3, "jwt": JWT, "auth": "bearer"})
        )
        transcript.expect_error(
            lambda: Profile.model_validate({"name": "p", "base_url": "https://h", "jwt": JWT, "x": JWT, "auth": "b"})
        )
        transcript.expect_error(
            lambda: build_profile(None, name="p", base_url="https://h", token_id=TOKEN_ID, token_key=KEY + " x")
        )
        transcript.expect_error(lambda: store.resolve(env={"SVCTUI_TOKEN_KEY": KEY, "SVCTUI_JWT": JWT}))
        transcript.expect_error(lambda: store.resolve(env={"SVCTUI_BASE_URL": "x", "SVCTUI_JWT": JWT}))
        store.path.write_text(store.path.read_text().replace("[profiles.p]", "[profiles.p]\nbroken = ="))
        transcript.expect_error(store.load)
        logging.getLogger("svctui").debug("profile in a log line: %s / %r", resolved, resolved)
