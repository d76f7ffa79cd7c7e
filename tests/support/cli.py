"""Helpers for the command-line integration tests: run commands in-process (CliRunner) or as the real binary."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import shutil
import socket
import struct
import subprocess
import sys
import termios
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest
from click.testing import CliRunner, Result

from svctui.cli import cli

SVCTUI_BIN = Path(sys.executable).parent / "svctui"


class DemoLike(Protocol):
    """What the tests need from a running demo server."""

    @property
    def base_url(self) -> str: ...

    @property
    def token_id(self) -> str: ...

    @property
    def token_key(self) -> str: ...


def copy_template(template: Path, factory: Any) -> Path:
    """A private copy of the session's demo database template (for servers the tests start themselves)."""
    target: Path = factory.mktemp("cli-demo") / "demo.sqlite3"
    shutil.copyfile(template, target)
    return target


def demo_env(demo: DemoLike, **extra: str) -> dict[str, str]:
    """The SVCTUI_* variables that make `demo` the profile (an environment-only profile, no file)."""
    return {
        "SVCTUI_BASE_URL": demo.base_url,
        "SVCTUI_TOKEN_ID": demo.token_id,
        "SVCTUI_TOKEN_KEY": demo.token_key,
        **extra,
    }


def use_demo_env(monkeypatch: pytest.MonkeyPatch, demo: DemoLike, **extra: str) -> dict[str, str]:
    """Set `demo_env(demo, **extra)` in the process's environment for the test (CliRunner and subprocesses alike)
    and return it."""
    values = demo_env(demo, **extra)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def invoke(args: Sequence[str], *, input: str | None = None, env: Mapping[str, str] | None = None) -> Result:
    """Run `svctui ARGS` in-process; stdout and stderr kept apart."""
    runner = CliRunner()
    return runner.invoke(cli, list(args), input=input, env=dict(env or {}), obj={}, catch_exceptions=False)


def run_cli(*args: str, stdin: str | None = None) -> Result:
    """`svctui ARGS` in-process with `stdin` as its input (the current environment)."""
    return invoke(args, input=stdin)


def add_profile(name: str, url: str, token_id: str, key: str, *extra: str) -> Result:
    """`svctui profile add NAME --base-url URL --token-id ID --secret-stdin EXTRA...` with `key` on stdin."""
    return run_cli(
        "profile", "add", name, "--base-url", url, "--token-id", token_id, "--secret-stdin", *extra, stdin=key
    )


@dataclass
class Run:
    """A finished subprocess run of the real binary."""

    code: int
    stdout: str
    stderr: str


def run_binary(args: Sequence[str], *, env: Mapping[str, str], input: str | None = None, timeout: float = 120) -> Run:
    """Run `.venv/bin/svctui ARGS` as a subprocess with `env` added to the current environment."""
    done = subprocess.run(
        [str(SVCTUI_BIN), *args],
        input=input,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=timeout,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def run_on_pty(
    args: Sequence[str],
    env: Mapping[str, str],
    *,
    answer: str | None = None,
    columns: int = 80,
    drop: Sequence[str] = (),
    asked: str = "[y/N]",
) -> tuple[int, str]:
    """Run the binary on a pseudo-terminal `columns` wide (stdin, stdout and stderr); answer the prompt that ends
    with `asked` (a `[y/N]` question, or `Type 22 to …:` when the count must be typed).

    Returns the exit code and everything the terminal showed. `drop` names variables to remove from the environment.
    """
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    environment = {name: value for name, value in {**os.environ, **env}.items() if name not in drop}
    process = subprocess.Popen(
        [str(SVCTUI_BIN), *args], stdin=terminal, stdout=terminal, stderr=terminal, env=environment, close_fds=True
    )
    os.close(terminal)
    screen = b""
    answered = answer is None
    try:
        while True:
            readable, _, _ = select.select([controller], [], [], 60)
            assert readable, f"no output from the command; so far: {screen!r}"
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # EIO: the command exited and closed the terminal
                break
            if not chunk:
                break
            screen += chunk
            if not answered and asked.encode() in screen:
                assert answer is not None
                os.write(controller, answer.encode() + b"\n")
                answered = True
        code = process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)
    return code, screen.decode(errors="replace").replace("\r\n", "\n")


def json_items(text: str) -> list[dict[str, Any]]:
    """Parse a JSON array output."""
    data = json.loads(text)
    assert isinstance(data, list)
    return data


def jsonl_items(text: str) -> list[dict[str, Any]]:
    """Parse JSON lines output."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@contextmanager
def silent_listener() -> Iterator[tuple[str, socket.socket]]:
    """A loopback port that never answers: yields its URL and socket for `connection_attempted`."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", sock
    finally:
        sock.close()


def connection_attempted(sock: socket.socket) -> bool:
    """True when a client connected to the listener (the kernel queues it even though we never accepted)."""
    try:
        conn, _ = sock.accept()
    except BlockingIOError:
        return False
    conn.close()
    return True
