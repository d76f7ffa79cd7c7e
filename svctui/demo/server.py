"""Run the demo server: `DemoServer` (a background thread on a free loopback port, for tests and `svctui --demo`)
and `serve_forever` (the foreground server of `svctui demo-server`).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import TracebackType

import uvicorn
from starlette.types import ASGIApp

from svctui.demo.app import DemoState, create_app
from svctui.demo.auth import mint_jwt
from svctui.demo.config import (
    DEFAULT_RATE_LIMIT,
    DEFAULT_SEED,
    EDITIONS,
    OPTIONAL_ROUTES,
    DemoSizes,
    Faults,
    default_db_path,
)
from svctui.demo.dataset import PreparedDatabase, ServesPrepared, prepare_database
from svctui.demo.dblock import ServingLock
from svctui.demo.faults import FaultInjector
from svctui.demo.ratelimit import RateLimiter
from svctui.demo.sockets import base_url_of, bind_socket

START_TIMEOUT = 20.0
# Request line and headers the HTTP parser accepts (h11 stops at 16 KiB): room for the app's own 414 on long URLs.
MAX_HEAD_BYTES = 1024 * 1024


@dataclass
class DemoOptions:
    """Everything that decides what a demo server serves and how."""

    edition: str = "enterprise"
    seed: int = DEFAULT_SEED
    db_path: Path | None = None
    rate_limit: int = DEFAULT_RATE_LIMIT
    sizes: DemoSizes = field(default_factory=DemoSizes)
    faults: Faults = field(default_factory=Faults)
    host: str = "127.0.0.1"
    port: int = 0
    anchor: datetime | None = None
    reset: bool = False
    token_id: str | None = None
    token_key: str | None = field(default=None, repr=False)
    without: tuple[str, ...] = ()  # OPTIONAL_ROUTES this server lacks (an older server's)
    restricted_user: bool = False  # ETAC on: selector reads answer 403 `user does not have access to this resource`

    def validate(self) -> None:
        """Raise ValueError naming the first bad option."""
        if self.edition not in EDITIONS:
            raise ValueError(f"--edition must be one of {', '.join(EDITIONS)}, got {self.edition!r}")
        unknown = [name for name in self.without if name not in OPTIONAL_ROUTES]
        if unknown:
            raise ValueError(f"--without {unknown[0]!r}: allowed: {', '.join(OPTIONAL_ROUTES)}")
        if self.rate_limit < 0:
            raise ValueError(f"--rate-limit must be >= 0 (0 = off), got {self.rate_limit}")
        if not 0 <= self.port <= 65535:
            raise ValueError(f"--port must be between 0 and 65535, got {self.port}")
        self.sizes.validate()
        self.faults.validate()


# stop() (and Ctrl-C on `svctui demo-server`): requests in flight get this long to finish, then they are cancelled
# (a client then sees no answer); without it a request held by `--latency-ms` kept stop() waiting for the whole delay
STOP_GRACE_SECONDS = 2


class DemoServer(ServesPrepared):
    """The demo server in a background thread: `with DemoServer(...) as demo: demo.base_url, demo.token_id, ...`."""

    def __init__(
        self,
        edition: str = "enterprise",
        seed: int = DEFAULT_SEED,
        db_path: Path | str | None = None,
        rate_limit: int = DEFAULT_RATE_LIMIT,
        sizes: DemoSizes | None = None,
        faults: Faults | None = None,
        *,
        anchor: datetime | None = None,
        reset: bool = False,
        token_id: str | None = None,
        token_key: str | None = None,
        host: str = "127.0.0.1",
        preferred_port: int = 0,
        wrap: Callable[[ASGIApp], ASGIApp] | None = None,
        without: Sequence[str] = (),
        restricted_user: bool = False,
    ) -> None:
        self.wrap = wrap  # an ASGI layer put around the demo's app (tests and screenshots hold requests with it)
        self.preferred_port = preferred_port  # tried first when no port is set; a busy one falls back to any free port
        self.options = DemoOptions(
            edition=edition,
            seed=seed,
            db_path=Path(db_path) if db_path is not None else None,
            rate_limit=rate_limit,
            sizes=sizes or DemoSizes(),
            faults=faults or Faults(),
            host=host,
            anchor=anchor,
            reset=reset,
            token_id=token_id,
            token_key=token_key,
            without=tuple(without),
            restricted_user=restricted_user,
        )
        self.options.validate()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._injector: FaultInjector | None = None
        self._state: DemoState | None = None
        self._socket: socket.socket | None = None
        self.prepared: PreparedDatabase | None = None
        self._bound_port = 0
        self.base_url = ""
        self.jwt = ""

    def __repr__(self) -> str:
        return f"DemoServer(base_url={self.base_url!r}, edition={self.options.edition!r})"

    @property
    def db_path(self) -> Path:
        """The SQLite file behind the server."""
        assert self.prepared is not None, "the demo server is not started"
        return self.prepared.path

    @property
    def request_count(self) -> int:
        """How many HTTP requests the server has received so far."""
        return self._state.request_count if self._state is not None else 0

    @property
    def edition(self) -> str:
        """`enterprise` or `community`."""
        return self.options.edition

    @property
    def faults(self) -> Faults:
        """The fault configuration in force."""
        return self._injector.faults if self._injector else self.options.faults

    @faults.setter
    def faults(self, value: Faults) -> None:
        if self._injector is not None:
            self._injector.faults = value
        self.options.faults = value

    def start(self) -> DemoServer:
        """Prepare the database, bind a port and serve in a daemon thread; return once it accepts requests.

        Started again after `stop()`, it serves the same database (and tokens) on the same port: "the server is back".
        """
        state = build_state(self.options)
        self.prepared = state[1]
        self._injector = state[0].injector
        self._state = state[0]
        self.jwt = mint_jwt(state[0].jwt_secret, self.prepared.credentials.admin.id)
        sock = self._bind()
        self._socket = sock
        self._bound_port = sock.getsockname()[1]  # a stopped server started again comes back at the same address
        self.base_url = base_url_of(sock, self.options.host)
        self._server = uvicorn_server(state[0], self.wrap)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="svctui-demo-server", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the demo server did not start")
            time.sleep(0.01)
        return self

    def _bind(self) -> socket.socket:
        """The set port, else the port of an earlier start, else the preferred port when free, else any free one."""
        port = self.options.port or self._bound_port
        if not port and self.preferred_port:
            try:
                return bind_socket(self.options.host, self.preferred_port)
            except OSError:  # another demo (or anything else) has it
                pass
        return bind_socket(self.options.host, port)

    def stop(self) -> None:
        """Ask the server to exit and wait for its thread (forcing it after a few seconds)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=5)
            if self._thread.is_alive() and self._server is not None:
                self._server.force_exit = True
                self._thread.join(timeout=5)
        self._server = None
        self._thread = None
        if self.prepared is not None and self.prepared.serving is not None:
            self.prepared.serving.release()
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()


def build_state(options: DemoOptions) -> tuple[DemoState, PreparedDatabase]:
    """Prepare the database and the serving state for `options`."""
    options.validate()
    path = options.db_path or default_db_path()
    prepared = prepare_database(
        path,
        seed=options.seed,
        sizes=options.sizes,
        anchor=options.anchor,
        reset=options.reset,
        token_id=options.token_id,
        token_key=options.token_key,
        serving=ServingLock(path),  # held while the server serves: released by DemoServer.stop or the process's end
    )
    state = DemoState(
        db_path=prepared.path,
        edition=options.edition,
        jwt_secret=prepared.credentials.jwt_secret,
        limiter=RateLimiter(options.rate_limit),
        injector=FaultInjector(options.faults, seed=options.seed),
        anchor=options.anchor,
        without=frozenset(options.without),
        restricted_user=options.restricted_user,
    )
    return state, prepared


def uvicorn_server(
    state: DemoState, wrap: Callable[[ASGIApp], ASGIApp] | None = None, *, access_log: bool = False
) -> uvicorn.Server:
    """The one uvicorn configuration of the demo server (`DemoServer`, `svctui --demo`'s child process and
    `svctui demo-server`): lifespan off, no server header, the head size cap, the stop grace; the access log
    (at log level info) only when asked."""
    app = create_app(state)
    config = uvicorn.Config(
        wrap(app) if wrap is not None else app,
        log_level="info" if access_log else "warning",
        access_log=access_log,
        lifespan="off",
        server_header=False,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        timeout_graceful_shutdown=STOP_GRACE_SECONDS,
    )
    return uvicorn.Server(config)


def serve_forever(state: DemoState, sock: socket.socket, access_log: bool = False) -> None:
    """Serve in the foreground on an already bound socket until Ctrl-C."""
    uvicorn_server(state, access_log=access_log).run(sockets=[sock])
