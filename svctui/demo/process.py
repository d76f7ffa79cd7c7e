"""The demo server of `svctui --demo` in a child process, started before the dashboard imports Textual.

The parent binds the loopback port and prepares the database (a warm one is a few SQLite reads), so the address
and the admin token are known at once; then it spawns `python -m svctui.demo.process`, which inherits the
listening socket and serves it with the same app and uvicorn settings as `DemoServer`. The dashboard's imports and
first frame run meanwhile on the other core, and its first request simply waits in the socket's accept queue
until the child serves. The child exits when its stdin closes (the parent ended, however it ended); a child that
dies early is reported through `on_failure()` with its last line of stderr, and the parent's copy of the socket is
closed once spawned, so the dashboard's requests then fail with "connection refused" instead of hanging.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from svctui.demo.config import DEFAULT_RATE_LIMIT, DEFAULT_SEED, DemoSizes, default_db_path
from svctui.demo.dataset import PreparedDatabase, ServesPrepared, prepare_database
from svctui.demo.dblock import ServingLock
from svctui.demo.sockets import base_url_of, bind_preferred, bind_remembered, port_memo, remember_port

STOP_TIMEOUT = 5.0


class DemoProcess(ServesPrepared):
    """`svctui --demo`'s server: `DemoProcess(...).start()` returns at once with base_url and the admin token."""

    def __init__(
        self,
        *,
        db_path: Path | None = None,
        preferred_port: int = 0,
        host: str = "127.0.0.1",
        seed: int = DEFAULT_SEED,
        rate_limit: int = DEFAULT_RATE_LIMIT,
        sizes: DemoSizes | None = None,
        anchor: datetime | None = None,
        without: Sequence[str] = (),
        remember_port: bool = False,
    ) -> None:
        self.db_path = db_path
        self.remember_port = remember_port  # serve on the port of the last start on this data (`svctui --demo`)
        self.port_note: str | None = None  # why this start is not on the port it wanted
        self.without = tuple(without)  # OPTIONAL_ROUTES the server lacks
        self.sizes = sizes or DemoSizes()
        self.anchor = anchor  # a fixed "now" for the data and the server (benchmarks); None = the real clock
        self.preferred_port = preferred_port
        self.host = host
        self.seed = seed
        self.rate_limit = rate_limit
        self.failure: str | None = None  # why the child stopped, when it stopped on its own
        self._on_failure: Callable[[str], None] | None = None
        self._lock = threading.Lock()
        self.prepared: PreparedDatabase | None = None
        self.base_url = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._stopping = False
        self._stderr: deque[str] = deque(maxlen=20)
        self._watcher: threading.Thread | None = None

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs under this object."""
        return self._process.pid if self._process is not None else None

    @property
    def stopping(self) -> bool:
        """True once `stop()` was called."""
        return self._stopping

    def start(self) -> DemoProcess:
        """Prepare the database, bind the port and spawn the server; raises OSError/ValueError/RuntimeError."""
        path = self.db_path or default_db_path()
        # held (shared) until stop(): no other start regenerates the database or changes its token meanwhile
        self.prepared = prepare_database(
            path, seed=self.seed, sizes=self.sizes, anchor=self.anchor, serving=ServingLock(path)
        )
        if self.remember_port:
            memo = port_memo(self.prepared.path, "demo")
            sock, self.port_note = bind_remembered(self.host, self.preferred_port, memo)
            remember_port(memo, sock.getsockname()[1])
        else:
            sock = bind_preferred(self.host, self.preferred_port)
        try:
            self.base_url = base_url_of(sock, self.host)
            spec = {
                "fd": sock.fileno(),
                "db": str(self.prepared.path),
                "seed": self.seed,
                "rate": self.rate_limit,
                "sizes": dataclasses.asdict(self.sizes),
                "anchor": self.anchor.isoformat() if self.anchor is not None else None,
                "without": list(self.without),
            }
            self._process = subprocess.Popen(  # noqa: S603 - this interpreter, this module, our own options
                [sys.executable, "-P", "-m", "svctui.demo.process", json.dumps(spec)],  # -P: not the cwd's modules
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,  # never the terminal: Textual draws there
                pass_fds=(sock.fileno(),),
                start_new_session=True,  # keys and signals of the terminal are the dashboard's
            )
        finally:
            sock.close()  # the child has its own copy; if it dies, connections are refused instead of queued
        self._watcher = threading.Thread(
            target=self._watch, args=(self._process,), name="svctui-demo-watch", daemon=True
        )
        self._watcher.start()
        return self

    def _watch(self, process: subprocess.Popen[bytes]) -> None:
        """Keep the child's last lines of stderr; report when it exits without being asked to."""
        assert process.stderr is not None
        for line in process.stderr:
            self._stderr.append(line.decode("utf-8", "replace").rstrip())
        code = process.wait()
        with self._lock:
            if self._stopping:
                return
            self.failure = self.failure_message(code)
            callback = self._on_failure
        if callback is not None:
            callback(self.failure)

    def on_failure(self, callback: Callable[[str], None]) -> None:
        """Call `callback` in another thread with a one-line message if the child dies on its own (or has died)."""
        with self._lock:
            self._on_failure = callback
            failure = self.failure
        if failure is not None:
            threading.Thread(target=callback, args=(failure,), name="svctui-demo-failure", daemon=True).start()

    def failure_message(self, code: int) -> str:
        """One line for the user: the child's last line of stderr (its error), else its exit status."""
        last = next((line for line in reversed(self._stderr) if line.strip()), "")
        if last:
            return f"The demo server stopped ({last})"
        how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        return f"The demo server stopped ({how})"

    def stop(self) -> None:
        """Close the child's stdin (it exits), wait for it, kill it if it does not."""
        with self._lock:
            self._stopping = True
        process, self._process = self._process, None
        if self.prepared is not None and self.prepared.serving is not None:
            self.prepared.serving.release()
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._watcher is not None:
            self._watcher.join(timeout=STOP_TIMEOUT)

    def let_go(self) -> None:
        """Tell the child to stop (its stdin closed) without waiting for it; `stop()` still waits. For a dashboard
        whose terminal hung up: its exit may take seconds, while a new start waits for this port (bind_remembered)."""
        with self._lock:
            self._stopping = True
        process = self._process
        if process is not None and process.stdin is not None:
            process.stdin.close()

    def __enter__(self) -> DemoProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_child(spec: dict[str, object]) -> int:
    """The child's side: serve the inherited socket until stdin closes; an error is one line on stderr, status 1."""
    fd = spec["fd"]
    assert isinstance(fd, int)
    sock = socket.socket(fileno=fd)
    try:
        from svctui.demo.server import DemoOptions, build_state, uvicorn_server

        seed, rate = int(str(spec["seed"])), int(str(spec["rate"]))
        given_sizes, given_anchor = spec.get("sizes"), spec.get("anchor")
        sizes = DemoSizes(**given_sizes) if isinstance(given_sizes, dict) else DemoSizes()
        anchor = datetime.fromisoformat(given_anchor) if isinstance(given_anchor, str) else None
        without = spec.get("without")
        options = DemoOptions(
            db_path=Path(str(spec["db"])),
            seed=seed,
            rate_limit=rate,
            sizes=sizes,
            anchor=anchor,
            without=tuple(str(name) for name in without) if isinstance(without, list) else (),
        )
        state, _ = build_state(options)
        server = uvicorn_server(state)
    except Exception as exc:  # the parent shows this line to the user
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1

    def exit_on_eof() -> None:
        sys.stdin.buffer.read()
        server.should_exit = True

    threading.Thread(target=exit_on_eof, name="svctui-demo-stdin", daemon=True).start()
    server.run(sockets=[sock])
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    sys.exit(serve_child(json.loads(sys.argv[1])))
