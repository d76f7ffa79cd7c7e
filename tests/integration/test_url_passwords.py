"""A password in a base URL is never repeated: the first-run form, `profile add`, SVCTUI_BASE_URL and the client
quote the URL with its password hidden, and refuse user info in a base URL outright (the API uses tokens)."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from svctui.api.client import ApiClient
from svctui.api.quoting import hide_url_password
from svctui.demo.server import DemoServer
from svctui.store.model import check_base_url
from svctui.store.paths import config_dir
from svctui.store.profiles import ProfileStore
from svctui.tui.screens.first_run import FirstRunScreen
from tests.support.cli import invoke, run_cli
from tests.support.tui import make_app, running

PASSWORD = "hunter2"
# a bad scheme and a bad port: today's first check (the port) quoted the whole URL
URLS = [
    f"ftp://user:{PASSWORD}@host:99999/x",
    f"https://user:{PASSWORD}@bloodhound.example.com",
    f"user:{PASSWORD}@host:99/x",
    f"http://{PASSWORD}@host",
    f"https://user:{PASSWORD}@[::1",
]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("ftp://user:hunter2@host:99999/x", "ftp://user:***@host:99999/x"),
        ("user:hunter2@host:9/x", "user:***@host:9/x"),
        ("https://hunter2@host", "https://***@host"),
        ("https://a:hunter2@b@host/p@q?r=@", "https://a:***@host/p@q?r=@"),
        ("https://host/a@b", "https://host/a@b"),
        ("https://host:8443", "https://host:8443"),
    ],
)
def test_hide_url_password(url: str, shown: str) -> None:
    assert hide_url_password(url) == shown


@pytest.mark.parametrize("url", URLS)
def test_the_validator_refuses_and_hides_the_password(url: str) -> None:
    with pytest.raises(ValueError, match=r"base URL") as caught:
        check_base_url(url)
    assert PASSWORD not in str(caught.value)
    assert "***" in str(caught.value)


@pytest.mark.parametrize("url", URLS)
def test_profile_add_does_not_echo_the_password(url: str) -> None:
    result = run_cli(
        "profile", "add", "lab", "--base-url", url, "--token-id", "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
        "--secret-stdin", stdin="a-key",
    )  # fmt: skip
    assert result.exit_code != 0
    assert "base URL" in result.stderr and "***" in result.stderr
    assert PASSWORD not in result.stdout + result.stderr
    assert ProfileStore().load().profiles == {}


def test_svctui_base_url_does_not_echo_the_password(demo_server: DemoServer) -> None:
    env = {
        "SVCTUI_BASE_URL": f"ftp://user:{PASSWORD}@host:99999/x",
        "SVCTUI_TOKEN_ID": demo_server.token_id,
        "SVCTUI_TOKEN_KEY": demo_server.token_key,
    }
    result = invoke(["health"], env=env)
    assert result.exit_code != 0
    assert "SVCTUI_BASE_URL" in result.stderr and "***" in result.stderr
    assert PASSWORD not in result.stdout + result.stderr


def test_the_client_does_not_echo_the_password() -> None:
    with pytest.raises(ValueError, match="base URL") as caught:
        ApiClient(f"ftp://user:{PASSWORD}@host/x", None)
    assert PASSWORD not in str(caught.value)


@pytest.mark.anyio
async def test_first_run_does_not_echo_the_password(demo_server: DemoServer) -> None:
    app = make_app(None)
    async with running(app) as pilot:
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        screen.query_one("#first-base_url", Input).value = URLS[0]
        screen.query_one("#first-token_id", Input).value = demo_server.token_id
        screen.query_one("#first-secret", Input).value = demo_server.token_key
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(screen.query_one("#first-error", Static).render())
        assert "server URL" in error and "ftp://user:***@host:99999/x" in error
        assert PASSWORD not in error
        assert ProfileStore().load().profiles == {}


def test_a_hand_edited_profiles_file_does_not_echo_the_password() -> None:
    """The profiles file is read through the same rule: its error quotes the URL with the password hidden."""
    path = config_dir() / "profiles.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[profiles.lab]\nbase_url = "{URLS[0]}"\nauth = "bearer"\njwt = "a.b.c"\n', encoding="utf-8")
    path.chmod(0o600)
    result = run_cli("profile", "list")
    assert result.exit_code == 2
    assert "ftp://user:***@host:99999/x" in result.stderr
    assert PASSWORD not in result.stdout + result.stderr
