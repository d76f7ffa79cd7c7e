"""Listening loopback sockets of the demo server (stdlib only: `svctui --demo` binds before anything heavy loads)."""

from __future__ import annotations

import socket


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (port 0 = a free port chosen by the OS)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # IPPROTO_TCP: asyncio then sets TCP_NODELAY
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
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
