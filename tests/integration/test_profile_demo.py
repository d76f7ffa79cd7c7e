"""`svctui profile test` against the demo server over loopback: ok with the edition, or the failure and a hint."""

from __future__ import annotations

import asyncio
import os
import subprocess
import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from click.testing import Result

from svctui import connect
from svctui.api.client import ApiClient
from svctui.api.errors import Unauthorized
from svctui.api.signing import SignatureAuth
from svctui.connect import CLOCK_HINT, failure_hint
from svctui.demo.server import DemoServer
from svctui.store.model import Profile
from svctui.store.profiles import ProfileStore
from tests.support.cli import SVCTUI_BIN, add_profile
from tests.support.cli import run_cli as run
from tests.unit.store_keyring import headless_keyring as headless_keyring

WRONG_KEY = "V3Jvbmcta2V5LWZvci10aGUtZGVtby1zZXJ2ZXI="


def add_signed(name: str, url: str, token_id: str, key: str, *extra: str) -> Result:
    result = add_profile(name, url, token_id, key, *extra)
    assert result.exit_code == 0, result.output
    return result


def assert_quiet(result: Result, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in result.output


def test_add_then_test_answers_ok_with_the_edition(demo_server: DemoServer) -> None:
    add_signed("demo-server", demo_server.base_url, demo_server.token_id, demo_server.token_key)
    result = run("profile", "test", "demo-server")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"ok: {demo_server.base_url} answers, enterprise edition (profile demo-server, signature auth)\n"
    )
    assert_quiet(result, demo_server.token_key)


def test_default_profile_and_global_profile_option(demo_server: DemoServer) -> None:
    add_signed("demo-server", demo_server.base_url, demo_server.token_id, demo_server.token_key)
    add_signed("other", demo_server.base_url, demo_server.token_id, WRONG_KEY)
    assert run("profile", "test").exit_code == 0  # the first profile became the default
    assert run("--profile", "other", "profile", "test").exit_code == 3


def test_community_edition(demo_server_community: DemoServer) -> None:
    demo = demo_server_community
    add_signed("ce", demo.base_url, demo.token_id, demo.token_key)
    result = run("profile", "test", "ce")
    assert result.exit_code == 0, result.output
    assert "community edition" in result.stdout


def test_wrong_key_gets_the_digest_mismatch_and_the_key_hint(demo_server: DemoServer) -> None:
    add_signed("bad", demo_server.base_url, demo_server.token_id, WRONG_KEY)
    result = run("profile", "test", "bad")
    assert result.exit_code == 3  # authentication refused
    assert f"failed: {demo_server.base_url} (profile bad): HTTP 401" in result.stderr
    assert "digest validation failed: signature digest mismatch" in result.stderr
    assert "hint: check the token key" in result.stderr
    assert_quiet(result, WRONG_KEY, demo_server.token_key)


def test_unknown_token_id_gets_the_token_id_hint(demo_server: DemoServer) -> None:
    stranger = str(uuid.UUID(int=7))
    add_signed("who", demo_server.base_url, stranger, demo_server.token_key)
    result = run("profile", "test", "who")
    assert result.exit_code == 3  # authentication refused
    assert "resource not found" in result.stderr
    assert f"hint: check the token id: the server does not know token {stranger}" in result.stderr


def test_disabled_user_is_named(demo_server: DemoServer) -> None:
    disabled = demo_server.credentials.disabled
    add_signed("off", demo_server.base_url, disabled.id, disabled.key)
    result = run("profile", "test", "off")
    assert result.exit_code == 3  # authentication refused
    assert "HTTP 403" in result.stderr and "user disabled" in result.stderr
    assert "hint: the token's user is disabled" in result.stderr


def test_wrong_scheme_prefix_gets_the_prefix_hint(demo_server: DemoServer) -> None:
    add_signed("svc", demo_server.base_url, demo_server.token_id, demo_server.token_key, "--scheme-prefix", "svc")
    result = run("profile", "test", "svc")
    assert result.exit_code == 3  # authentication refused
    assert "Unexpected authorization scheme" in result.stderr
    assert "hint: check the scheme prefix (now 'svc'" in result.stderr


def test_bearer_jwt_profile(demo_server: DemoServer) -> None:
    good = run("profile", "add", "jwt", "--base-url", demo_server.base_url, "--bearer", stdin=demo_server.jwt + "\n")
    assert good.exit_code == 0, good.output
    result = run("profile", "test", "jwt")
    assert result.exit_code == 0, result.output
    assert "(profile jwt, bearer auth)" in result.stdout
    forged = demo_server.jwt[:-6] + ("AAAAAA" if not demo_server.jwt.endswith("AAAAAA") else "BBBBBB")
    run("profile", "add", "forged", "--base-url", demo_server.base_url, "--bearer", "--secret-stdin", stdin=forged)
    failed = run("profile", "test", "forged")
    assert failed.exit_code == 3
    assert "hint: check the JWT" in failed.stderr
    assert_quiet(failed, forged, demo_server.jwt)


def test_environment_only_profile_needs_no_file(demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVCTUI_BASE_URL", demo_server.base_url)
    monkeypatch.setenv("SVCTUI_TOKEN_ID", demo_server.token_id)
    monkeypatch.setenv("SVCTUI_TOKEN_KEY", demo_server.token_key)
    result = run("profile", "test")
    assert result.exit_code == 0, result.output
    assert "(profile env, signature auth)" in result.stdout
    assert not ProfileStore().path.exists()


def test_clock_skew_from_the_server_maps_to_the_clock_hint(demo_server: DemoServer) -> None:
    """A request dated two hours ahead gets the server's real skew message, and the hint names the clock."""
    add_signed("demo-server", demo_server.base_url, demo_server.token_id, demo_server.token_key)
    profile = ProfileStore().resolve("demo-server", env={})
    ahead = (datetime.now(UTC) + timedelta(hours=2)).isoformat(timespec="seconds")
    auth = SignatureAuth(demo_server.token_id, demo_server.token_key, clock=lambda: ahead)

    async def probe() -> None:
        async with ApiClient(demo_server.base_url, auth) as client:
            await client.probe()

    with pytest.raises(Unauthorized) as caught:
        asyncio.run(probe())
    assert "too far ahead" in " ".join(caught.value.messages)
    assert failure_hint(caught.value, profile) == CLOCK_HINT


def test_console_script_add_then_test(demo_server: DemoServer) -> None:
    """The by-hand check of the issue, with the real binary."""
    env = {**os.environ, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    add = [str(SVCTUI_BIN), "profile", "add", "demo-server", "--base-url", demo_server.base_url]
    added = subprocess.run(
        [*add, "--token-id", demo_server.token_id, "--secret-stdin"],
        input=demo_server.token_key + "\n",
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert added.returncode == 0, added.stderr
    tested = subprocess.run(
        [str(SVCTUI_BIN), "profile", "test", "demo-server"], capture_output=True, text=True, env=env, check=False
    )
    assert tested.returncode == 0, tested.stderr
    assert tested.stdout.startswith(f"ok: {demo_server.base_url} answers, enterprise edition")
    for output in (added.stdout, added.stderr, tested.stdout, tested.stderr):
        assert demo_server.token_key not in output


def test_profile_test_with_a_clock_two_hours_ahead_names_the_clock(
    demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command end to end, with only the signer's clock moved: the server's skew message, the clock hint, exit 3."""
    add_signed("demo-server", demo_server.base_url, demo_server.token_id, demo_server.token_key)
    ahead = (datetime.now(UTC) + timedelta(hours=2)).isoformat(timespec="seconds")
    real_build_auth = connect.build_auth

    def skewed(profile: Profile) -> httpx.Auth:
        auth = real_build_auth(profile)
        assert isinstance(auth, SignatureAuth)
        return SignatureAuth(auth.token_id, demo_server.token_key, clock=lambda: ahead)

    monkeypatch.setattr(connect, "build_auth", skewed)
    result = run("profile", "test", "demo-server")
    assert result.exit_code == 3, result.output
    assert "signature too far ahead" in result.stderr
    assert f"hint: {CLOCK_HINT}" in result.stderr
    assert_quiet(result, demo_server.token_key)
