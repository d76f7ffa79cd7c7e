"""`svctui profile ...` and `svctui locate`: in-process with CliRunner, and as the real console script."""

from __future__ import annotations

import os
import pty
import select
import socket
import stat
import subprocess
import time
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import Result

from svctui.commands.profile import add as add_command
from svctui.store import paths
from tests.support.cli import SVCTUI_BIN, add_profile, run_on_pty
from tests.support.cli import run_cli as run
from tests.unit.store_keyring import MemoryKeyring, installed
from tests.unit.store_keyring import headless_keyring as headless_keyring

TOKEN_ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
KEY = "Q7mZ2xR9vK4tP1wL8nB3cH6dF0gJ5sAy"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGkifQ.T3rWq8ZpXk2Lm9Vb"
URL = "https://bh.example.com"


def add(name: str = "prod", *extra: str, key: str = KEY, url: str = URL) -> Result:
    return add_profile(name, url, TOKEN_ID, key, *extra)


def profiles_file() -> Path:
    return paths.profiles_path()


def document() -> dict[str, object]:
    return tomllib.loads(profiles_file().read_text())


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


# ---------------------------------------------------------------- add


def test_add_from_stdin_saves_a_private_file() -> None:
    result = add()
    assert result.exit_code == 0, result.output
    assert "Saved profile 'prod' (signature auth, secret in" in result.stdout
    assert "Default profile: prod" in result.stdout
    assert "not in the system keyring" in result.stderr  # the visible fallback warning
    table = document()["profiles"]["prod"]  # type: ignore[index]
    assert table == {
        "base_url": URL,
        "auth": "signature",
        "token_id": TOKEN_ID,
        "scheme_prefix": "bhe",
        "prefer_wait": 30,
        "verify_tls": True,
        "token_key": KEY,
    }
    assert stat.S_IMODE(os.stat(profiles_file()).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(profiles_file().parent).st_mode) == 0o700
    assert KEY not in result.output


def test_add_with_every_option(tmp_path: Path) -> None:
    bundle = tmp_path / "ca.pem"
    bundle.write_text("-----BEGIN CERTIFICATE-----\n")
    result = add(
        "lab",
        "--scheme-prefix",
        "svc",
        "--prefer-wait",
        "-1",
        "--no-verify-tls",
        "--ca-bundle",
        str(bundle),
        "--default",
        url="http://lab.local:8080/",
    )
    assert result.exit_code == 0, result.output
    table = document()["profiles"]["lab"]  # type: ignore[index]
    assert table["base_url"] == "http://lab.local:8080"
    assert (table["scheme_prefix"], table["prefer_wait"], table["verify_tls"]) == ("svc", -1, False)
    assert table["ca_bundle"] == str(bundle)


def test_add_bearer_from_the_no_echo_prompt() -> None:
    result = run("profile", "add", "lab", "--base-url", URL, "--bearer", stdin=JWT + "\n")
    assert result.exit_code == 0, result.output
    assert "JWT for profile 'lab'" in result.stderr
    assert JWT not in result.output  # hide_input: the answer is not echoed
    assert document()["profiles"]["lab"]["jwt"] == JWT  # type: ignore[index]


def test_the_secret_cannot_be_given_as_an_argument() -> None:
    value_options = [p for p in add_command.params if isinstance(p, click.Option) and not p.is_flag]
    names = {name for option in value_options for name in option.opts}
    assert names == {"--base-url", "--token-id", "--scheme-prefix", "--prefer-wait", "--ca-bundle"}
    result = run("profile", "add", "p", "--base-url", URL, "--token-id", TOKEN_ID, "--token-key", KEY)
    assert result.exit_code == 2
    assert "No such option '--token-key'" in result.stderr


def test_force_replaces_a_profile() -> None:
    add()
    result = add("prod", "--force", key="Another-Key-0123456789abcdef", url="https://other.example.com")
    assert result.exit_code == 0, result.output
    assert document()["profiles"]["prod"]["base_url"] == "https://other.example.com"  # type: ignore[index]


# ---------------------------------------------------------------- bad input: exit 2, file untouched

ADD_X = ["profile", "add", "x", "--base-url"]
STDIN = "--secret-stdin"
BAD_INPUT = [
    ([*ADD_X, "ftp://h", "--token-id", TOKEN_ID, STDIN], KEY, "http:// or https://"),
    ([*ADD_X, "https://", "--token-id", TOKEN_ID, STDIN], KEY, "with a host"),
    ([*ADD_X, URL, "--token-id", "not-a-uuid", STDIN], KEY, "is not a UUID"),
    ([*ADD_X, URL, "--token-id", TOKEN_ID, STDIN], "", "token key is empty"),
    ([*ADD_X, URL, "--token-id", TOKEN_ID, STDIN], " \n\n", "token key is empty"),
    ([*ADD_X, URL, "--token-id", TOKEN_ID], "\n", "token key is empty"),
    ([*ADD_X, URL, "--bearer", STDIN], "", "JWT is empty"),
    ([*ADD_X, URL, "--token-id", TOKEN_ID, STDIN], "a b", "single word"),
    (["profile", "add", "prod", "--base-url", URL, "--token-id", TOKEN_ID, STDIN], KEY, "already exists; use --force"),
    (["profile", "add", "x y", "--base-url", URL, "--token-id", TOKEN_ID, STDIN], KEY, "is not allowed"),
    ([*ADD_X, URL, STDIN], KEY, "exactly one of --token-id UUID"),
    ([*ADD_X, URL, "--token-id", TOKEN_ID, "--bearer"], KEY, "exactly one of"),
    ([*ADD_X, URL, "--token-id", TOKEN_ID, "--prefer-wait", "0", STDIN], KEY, "prefer_wait 0"),
    ([*ADD_X, URL, "--token-id", TOKEN_ID, "--prefer-wait", "soon"], KEY, "'soon' is not an integer (digits 0-9)"),
    ([*ADD_X, URL, "--token-id", TOKEN_ID, "--ca-bundle", "/nope.pem"], KEY, "does not exist"),
    (["profile", "add", "x", "--token-id", TOKEN_ID, STDIN], KEY, "Missing option '--base-url'"),
    (["profile", "show", "ghost"], None, "unknown profile 'ghost'; known profiles: prod"),
    (["profile", "use", "ghost"], None, "unknown profile 'ghost'"),
    (["profile", "remove", "ghost", "--yes"], None, "unknown profile 'ghost'"),
    (["profile", "test", "ghost"], None, "unknown profile 'ghost'"),
    (["--profile", "ghost", "profile", "test"], None, "unknown profile 'ghost'"),
    (["locate", "cache"], None, "'cache' is not one of 'config', 'data', 'state'"),
]


@pytest.mark.parametrize(
    ("args", "stdin", "message"), BAD_INPUT, ids=[f"{n}-{case[2][:20]}" for n, case in enumerate(BAD_INPUT)]
)
def test_bad_input_exits_2_with_a_message_and_leaves_the_file_alone(
    args: list[str], stdin: str | None, message: str
) -> None:
    assert add().exit_code == 0
    before = profiles_file().read_bytes()
    before_mtime = os.stat(profiles_file()).st_mtime_ns
    time.sleep(0.01)  # so that a rewrite would show in the mtime (not a timing assertion)
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert profiles_file().read_bytes() == before
    assert os.stat(profiles_file()).st_mtime_ns == before_mtime


def test_open_config_directory_is_refused_with_the_fix_and_left_alone() -> None:
    assert add().exit_code == 0
    directory = profiles_file().parent
    before = profiles_file().read_bytes()
    os.chmod(directory, 0o775)
    for args in (["profile", "use", "prod"], ["profile", "remove", "prod", "--yes"]):
        refused = run(*args)
        assert refused.exit_code == 2, refused.output
        assert refused.stderr == (
            f"error: Permissions 0775 for directory '{directory}' are too open: it holds the profiles file (secrets), "
            f"so svctui will not write there while group or others can reach it. Fix it with: chmod 700 {directory} "
            "(or set SVCTUI_CONFIG_DIR to a private directory)\n"
        )
    refused_add = add("second")
    assert refused_add.exit_code == 2 and "too open" in refused_add.stderr
    assert profiles_file().read_bytes() == before
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o775
    assert run("profile", "list").exit_code == 0  # reading our own 0600 file is still fine


def test_every_option_is_checked_before_the_secret_is_asked_for() -> None:
    for option, value, message in (
        ("--prefer-wait", "0", "prefer_wait 0 is not allowed"),
        ("--scheme-prefix", "b-e", "scheme prefix 'b-e' is not allowed"),
    ):
        result = run("profile", "add", "x", "--base-url", URL, "--token-id", TOKEN_ID, option, value, stdin=KEY + "\n")
        assert result.exit_code == 2, result.output
        assert message in result.stderr
        assert "Token key for profile" not in result.stderr  # refused before prompting
    assert not profiles_file().exists()


def test_secret_that_is_not_text_is_refused_without_a_traceback() -> None:
    command = [str(SVCTUI_BIN), "profile", "add", "x", "--base-url", URL, "--token-id", TOKEN_ID, "--secret-stdin"]
    for raw in (b"\xff\xfe-not-utf8-0123456789\n", "clé-0123456789".encode()):
        done = subprocess.run(command, input=raw, capture_output=True, env=real_env(), check=False)
        assert done.returncode == 2, done.stderr
        assert b"Traceback" not in done.stderr
        assert b"not printable ASCII" in done.stderr
    assert not profiles_file().exists()


def test_ca_bundle_that_holds_no_certificate_is_a_message_for_every_command(tmp_path: Path) -> None:
    bundle = tmp_path / "ca.pem"
    bundle.write_text("not a certificate\n")
    assert add("lab", "--ca-bundle", str(bundle), url=closed_port_url()).exit_code == 0
    for args in (
        ["profile", "test", "lab"],
        ["tags", "list", "--profile", "lab"],
        ["events", "list", "--profile", "lab"],
    ):
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert f"profile 'lab': cannot use '{bundle}' as a CA bundle" in result.stderr


def test_too_open_file_is_refused_by_every_command() -> None:
    add()
    os.chmod(profiles_file(), 0o644)
    for args in (["profile", "list"], ["profile", "show", "prod"], ["profile", "test"], ["profile", "use", "prod"]):
        result = run(*args)
        assert result.exit_code == 2, args
        assert f"Permissions 0644 for '{profiles_file()}' are too open" in result.stderr
        assert f"chmod 600 {profiles_file()}" in result.stderr
    assert stat.S_IMODE(os.stat(profiles_file()).st_mode) == 0o644  # not "fixed" behind the user's back


# ---------------------------------------------------------------- list / show / use / remove


def test_list_marks_default_and_says_where_secrets_live(monkeypatch: pytest.MonkeyPatch) -> None:
    empty = run("profile", "list")
    assert (empty.exit_code, empty.stdout.strip()) == (
        0,
        "No profiles. Add one with: svctui profile add NAME --base-url URL --token-id UUID",
    )
    add("prod")
    run("profile", "add", "lab", "--base-url", "http://lab:8080", "--bearer", "--secret-stdin", stdin=JWT)
    with installed(MemoryKeyring()):
        add("vault", url="https://vault.example.com")
    lines = run("profile", "list").stdout.splitlines()
    assert lines[0].split() == ["NAME", "URL", "AUTH", "SECRET"]
    assert lines[1].split() == ["*", "prod", URL, "signature", "file"]
    assert lines[2].split() == ["lab", "http://lab:8080", "bearer", "file"]
    assert lines[3].split() == ["vault", "https://vault.example.com", "signature", "keyring"]
    monkeypatch.setenv("SVCTUI_TOKEN_KEY", KEY)
    with_env = run("profile", "list").stdout.splitlines()
    assert with_env[1].split()[-4:] == ["signature", "env", "(overrides", "file)"]
    assert with_env[2].split()[-1] == "file"  # only the profile in use is overridden
    monkeypatch.setenv("SVCTUI_BASE_URL", "https://env.example.com")
    monkeypatch.setenv("SVCTUI_TOKEN_ID", TOKEN_ID)
    complete = run("profile", "list").stdout
    assert ["(env)", "https://env.example.com", "signature", "env"] in [line.split() for line in complete.splitlines()]
    assert KEY not in complete


def test_show_masks_the_secret() -> None:
    add()
    result = run("profile", "show")
    assert result.exit_code == 0, result.output
    assert "name:          prod  (default)" in result.stdout
    assert f"token_key:     ********  (in {profiles_file()})" in result.stdout and KEY[-4:] not in result.stdout
    assert KEY[:-4] not in result.stdout
    assert "scheme_prefix: bhe" in result.stdout
    with installed(MemoryKeyring()):
        add("vault")
        shown = run("profile", "show", "vault").stdout
    assert "********  (in the system keyring)" in shown and KEY[-4:] not in shown
    unreadable = run("profile", "show", "vault").stdout
    assert "(in the system keyring, unreadable:" in unreadable


def test_use_switches_the_default() -> None:
    add("a")
    add("b")
    result = run("profile", "use", "b")
    assert (result.exit_code, result.stdout) == (0, "Default profile: b\n")
    assert document()["default"] == "b"


def test_remove_off_a_terminal_refuses_without_asking_and_yes_deletes_keyring_entry() -> None:
    backend = MemoryKeyring()
    with installed(backend):
        add("a")
        add("b")
        before = profiles_file().read_bytes()
        piped = run("profile", "remove", "a", stdin="y\n")  # CliRunner's stdin is no terminal
        assert piped.exit_code == 2
        assert "refusing to remove profile 'a' without --yes when not on a terminal" in piped.stderr
        assert "Remove profile" not in piped.output  # no prompt nobody can answer
        assert profiles_file().read_bytes() == before
        accepted = run("profile", "remove", "a", "--yes")
        assert accepted.exit_code == 0, accepted.output
        assert "Removed profile 'a'." in accepted.stdout
        assert "Default profile: b" in accepted.stdout
    assert list(backend.entries) == [("svctui", "b:token_key")]
    assert list(document()["profiles"]) == ["b"]  # type: ignore[call-overload]
    assert run("profile", "remove", "b", "--yes").exit_code == 0


def test_remove_on_a_terminal_asks_first() -> None:
    add("a")
    before = profiles_file().read_bytes()
    declined, screen = run_on_pty(["profile", "remove", "a"], real_env(), answer="n")
    assert declined == 1
    assert "Remove profile 'a' (https://bh.example.com) and its secret?" in screen
    assert profiles_file().read_bytes() == before
    accepted, screen = run_on_pty(["profile", "remove", "a"], real_env(), answer="y")
    assert accepted == 0, screen
    assert "Removed profile 'a'." in screen
    assert "a" not in document()["profiles"]  # type: ignore[operator]


def test_locate_prints_each_directory(isolated_dirs: Path) -> None:
    for kind in ("config", "data", "state"):
        result = run("locate", kind)
        assert (result.exit_code, result.stdout) == (0, f"{isolated_dirs / kind}\n")


def test_profile_test_reports_connection_failure_with_a_hint() -> None:
    url = closed_port_url()
    add("down", url=url)
    result = run("profile", "test", "down")
    assert result.exit_code == 5  # network error, as for every command
    assert f"failed: {url} (profile down)" in result.stderr
    assert "hint: check the URL / network" in result.stderr


# ---------------------------------------------------------------- the real console script


def real_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"  # never touch a developer's real keyring
    env.update(extra)
    return env


def test_console_script_add_list_show_locate() -> None:
    added = subprocess.run(
        [str(SVCTUI_BIN), "profile", "add", "lab", "--base-url", URL, "--token-id", TOKEN_ID, "--secret-stdin"],
        input=KEY + "\n",
        capture_output=True,
        text=True,
        env=real_env(),
        check=False,
    )
    assert added.returncode == 0, added.stderr
    assert "warning: secret stored in" in added.stderr
    assert stat.S_IMODE(os.stat(profiles_file()).st_mode) == 0o600
    listed = subprocess.run(
        [str(SVCTUI_BIN), "profile", "list"], capture_output=True, text=True, env=real_env(), check=True
    )
    assert "*  lab" in listed.stdout
    shown = subprocess.run(
        [str(SVCTUI_BIN), "profile", "show", "lab"], capture_output=True, text=True, env=real_env(), check=True
    )
    located = subprocess.run(
        [str(SVCTUI_BIN), "locate", "config"], capture_output=True, text=True, env=real_env(), check=True
    )
    assert located.stdout.strip() == str(paths.config_dir())
    for output in (added.stdout, added.stderr, listed.stdout, shown.stdout, shown.stderr):
        assert KEY not in output
    duplicate = subprocess.run(
        [str(SVCTUI_BIN), "profile", "add", "lab", "--base-url", URL, "--token-id", TOKEN_ID, "--secret-stdin"],
        input=KEY, capture_output=True, text=True, env=real_env(), check=False,
    )  # fmt: skip
    assert duplicate.returncode == 2
    assert duplicate.stderr == "error: profile 'lab' already exists; use --force to replace it\n"


def _read_until(fd: int, marker: bytes, transcript: bytearray, deadline: float) -> None:
    while marker not in transcript:
        if time.monotonic() > deadline:
            raise AssertionError(f"never saw {marker!r}; got {bytes(transcript)!r}")
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                raise AssertionError(f"terminal closed before {marker!r}; got {bytes(transcript)!r}")
            transcript.extend(chunk)


def test_console_script_prompt_does_not_echo_on_a_real_terminal() -> None:
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [str(SVCTUI_BIN), "profile", "add", "tty", "--base-url", URL, "--token-id", TOKEN_ID],
        stdin=terminal, stdout=terminal, stderr=terminal, env=real_env(), start_new_session=True,
    )  # fmt: skip
    os.close(terminal)
    transcript = bytearray()
    try:
        deadline = time.monotonic() + 60
        _read_until(controller, b"Token key for profile 'tty': ", transcript, deadline)
        os.write(controller, KEY.encode() + b"\n")
        _read_until(controller, b"Default profile: tty", transcript, deadline)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)
    assert KEY.encode() not in transcript
    assert document()["profiles"]["tty"]["token_key"] == KEY  # type: ignore[index]
