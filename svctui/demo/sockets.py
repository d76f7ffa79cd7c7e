"""Listening loopback sockets of the demo server (stdlib only: `svctui --demo` binds before anything heavy loads),
and the port a demo server remembers beside its database so the next start serves on the same address."""

from __future__ import annotations

import contextlib
import os
import socket
import time
from pathlib import Path

PORT_WAIT_SECONDS = 2.0  # a crashed `svctui --demo` leaves its server child for a moment (measured: ~0.2 s)
PORT_RETRY_SECONDS = 0.1


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (port 0 = a free port chosen by the OS)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # IPPROTO_TCP: asyncio then sets TCP_NODELAY
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def base_url_of(sock: socket.socket, host: str) -> str:
    """http://host:port of a bound socket."""
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def bind_preferred(host: str, preferred_port: int) -> socket.socket:
    """The preferred port when it is free, else any free one."""
    if preferred_port:
        try:
            return bind_socket(host, preferred_port)
        except OSError:  # another demo (or anything else) has it
            pass
    return bind_socket(host, 0)


def port_memo(db_path: Path, server: str) -> Path:
    """The file beside the database where `server` (`demo-server`, `demo`) remembers the port it served it on."""
    return db_path.with_name(f"{db_path.name}.{server}.port")


def remembered_port(memo: Path) -> int | None:
    """The port in `memo`, None when there is none (or it is not a port)."""
    try:
        text = memo.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and 0 < int(text) < 65536 else None


def remember_port(memo: Path, port: int) -> None:
    """Write `port` to `memo` (whole, by a rename); a data dir that cannot be written keeps nothing, silently."""
    temporary = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        temporary.write_text(f"{port}\n", encoding="ascii")
        os.replace(temporary, memo)
    with contextlib.suppress(OSError):
        temporary.unlink(missing_ok=True)


def bind_remembered(
    host: str, default_port: int, memo: Path, wait: float = PORT_WAIT_SECONDS
) -> tuple[socket.socket, str | None]:
    """The port this database's server had last time (waiting up to `wait` s for it: after a crash the old server
    may still be closing), else `default_port`, else any free one; and a note when the port is not the one wanted.
    The caller remembers the port it got (`remember_port`) once the data dir exists."""
    remembered = remembered_port(memo)
    wanted = remembered or default_port
    deadline = time.monotonic() + (wait if remembered else 0.0)
    while True:
        try:
            return bind_socket(host, wanted), None
        except OSError:
            if time.monotonic() >= deadline:
                break
            time.sleep(PORT_RETRY_SECONDS)
    sock = None
    if remembered and remembered != default_port:
        with contextlib.suppress(OSError):
            sock = bind_socket(host, default_port)
    sock = sock or bind_socket(host, 0)
    whose = "the port this demo data was served on last time" if remembered else "the default port"
    note = (
        f"port {wanted} ({whose}) is taken, so this start uses {sock.getsockname()[1]} and remembers it for the "
        "next start; a profile saved for the old address needs the new one"
    )
    return sock, note
