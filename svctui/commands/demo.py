"""`svctui demo-server`: run the local stand-in for the real API and print a ready-to-use profile."""

from __future__ import annotations

import contextlib
import shlex
import sqlite3
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from svctui.api.quoting import quote_input
from svctui.commands.common import AsciiInt, FiniteFloat, fail
from svctui.demo.config import (
    DEFAULT_FAULT_RATE,
    DEFAULT_RATE_LIMIT,
    DEFAULT_SEED,
    DEMO_SERVER_PORT,
    EDITIONS,
    OPTIONAL_ROUTES,
    DemoSizes,
    Faults,
    default_db_path,
    parse_faults,
)

if TYPE_CHECKING:
    from click.decorators import FC


def free_profile_name(taken: Iterable[str], stem: str = "demo-server") -> str:
    """`demo-server`, else `demo-server-2`, `demo-server-3`, … : the first name no stored profile has (never `demo`,
    the reserved name of `svctui --demo`'s own profile: the two servers' caches and facts stay apart)."""
    names = set(taken)
    if stem not in names:
        return stem
    number = 2
    while f"{stem}-{number}" in names:
        number += 1
    return f"{stem}-{number}"


def stored_profile_names() -> list[str]:
    """The names in the profile store (none when it cannot be read: the banner still prints)."""
    from svctui.store.errors import StoreError
    from svctui.store.profiles import ProfileStore

    try:
        return list(ProfileStore().load().profiles)
    except (StoreError, OSError):
        return []


def running_command(argv0: str | None = None, executable: str | None = None) -> str:
    """How to run this svctui again from a shell, quoted: `svctui` when that name on PATH is the script running,
    else the running script's absolute path, else `PYTHON -m svctui` with the running interpreter (a venv that is
    not activated has svctui on no PATH)."""
    import os
    import shutil

    argv0 = sys.argv[0] if argv0 is None else argv0
    executable = sys.executable if executable is None else executable
    script = Path(argv0)
    if script.name in ("svctui", "svctui.exe") and script.is_file():
        on_path = shutil.which("svctui")
        with contextlib.suppress(OSError):
            if on_path is not None and os.path.samefile(on_path, script):
                return "svctui"
        return shlex.quote(str(script.absolute()))
    if executable:
        return f"{shlex.quote(executable)} -m svctui"
    return "svctui"


def _banner(
    base_url: str, edition: str, seed: int, db_path: Path, how: str, jwt: str, state_tokens: dict[str, str]
) -> str:
    token_id, token_key = state_tokens["id"], state_tokens["key"]
    quoted_key = shlex.quote(token_key)
    name = free_profile_name(stored_profile_names())
    svctui = running_command()
    return "\n".join(
        [
            f"svctui demo server ({edition} edition), seed {seed}",
            f"  data:       {db_path} ({how})",
            f"  base URL:   {base_url}",
            f"  token id:   {token_id}",
            f"  token key:  {token_key}   (a throwaway demo key)",
            f"  JWT:        {jwt}   (valid 7 days)",
            f"  read-only token id: {state_tokens['ro_id']}   disabled token id: {state_tokens['disabled_id']}",
            "",
            f"Add it as a profile ({name}: a name no stored profile has):",
            f"  printf '%s\\n' {quoted_key} | {svctui} profile add {name} --base-url {base_url} "
            f"--token-id {token_id} --secret-stdin",
            "",
            f"Try it:  {svctui} --profile {name}",
            "Press Ctrl-C to stop.",
        ]
    )


def shown(name: str, kind: click.ParamType[Any], default: float, help_text: str | None = None) -> Callable[[FC], FC]:
    """A number option whose default `--help` shows, on one line of the command's options."""
    return click.option(name, type=kind, default=default, show_default=True, help=help_text)


@click.command("demo-server")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=AsciiInt(),
    default=None,
    help=(
        f"Port (0 = any free port). Default: the port of the last start on this data, else {DEMO_SERVER_PORT}, "
        "so a saved profile survives a restart."
    ),
)
@click.option("--edition", type=click.Choice(EDITIONS), default="enterprise", show_default=True)
@shown("--seed", AsciiInt(), DEFAULT_SEED, "Seed of the generated data.")
@click.option(
    "--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), help="SQLite file (default: user data dir)."
)
@click.option("--reset", is_flag=True, help="Regenerate the data even if the database matches.")
@click.option("--token-id", help="Token id (a UUID) to accept; generated and kept in the database when absent.")
@click.option("--token-key", help="Token key to accept; generated and kept in the database when absent.")
@shown("--rate-limit", AsciiInt(), DEFAULT_RATE_LIMIT, "Requests per second per IP and route (0 = off).")
@shown("--clients", AsciiInt(), DemoSizes.clients)
@shown("--events", AsciiInt(), DemoSizes.events)
@shown("--tasks", AsciiInt(), DemoSizes.tasks)
@shown("--tags", AsciiInt(), DemoSizes.tags)
@shown("--selectors", AsciiInt(), DemoSizes.selectors, "Selectors in all tags.")
@shown("--latency", AsciiInt(), 0, "Delay every API response by MS milliseconds.")
@shown("--error-rate", FiniteFloat(), 0.0, "Share of requests answered with a 500.")
@click.option(
    "--faults",
    "faults_text",
    default="",
    help="Faults to inject: html,malformed,truncated,reset,slow (kind or kind:rate).",
)
@shown("--fault-rate", FiniteFloat(), DEFAULT_FAULT_RATE, "Rate of a fault given without :rate.")
@click.option(
    "--faults-path",
    "faults_path",
    default="",
    metavar="TEXT",
    help="Keep every fault (--latency, --error-rate, --faults) to the requests whose path contains TEXT, "
    "e.g. /api/v2/clients/ID/ for one client's runs.",
)
@click.option(
    "--without",
    "without",
    multiple=True,
    type=click.Choice(OPTIONAL_ROUTES),
    help="Leave out an endpoint as an older server lacks it (repeatable): completed-jobs, jobs-finished.",
)
@click.option("--access-log", is_flag=True, help="Log every request.")
@click.option(
    "--restricted-user",
    is_flag=True,
    help="Environment access control on: listing selectors, one selector and member counts answer 403 "
    "`user does not have access to this resource`; DELETE and POST still work.",
)
def demo_server(
    host: str,
    port: int | None,
    edition: str,
    seed: int,
    db_path: Path | None,
    reset: bool,
    token_id: str | None,
    token_key: str | None,
    rate_limit: int,
    clients: int,
    events: int,
    tasks: int,
    tags: int,
    selectors: int,
    latency: int,
    error_rate: float,
    faults_text: str,
    fault_rate: float,
    faults_path: str,
    without: tuple[str, ...],
    access_log: bool,
    restricted_user: bool,
) -> None:
    """Run a local server that behaves like the real API (SQLite-backed, deterministic data) until Ctrl-C."""
    import uuid

    from svctui.demo.auth import mint_jwt
    from svctui.demo.dblock import DatabaseInUse
    from svctui.demo.server import DemoOptions, build_state, serve_forever
    from svctui.demo.sockets import base_url_of, bind_remembered, bind_socket, port_memo, remember_port

    if token_id is not None:
        try:
            token_id = str(uuid.UUID(token_id))
        except ValueError:
            raise click.BadParameter(f"{token_id!r} is not a UUID", param_hint="--token-id") from None
    if token_key is not None and not token_key.strip():
        raise click.BadParameter("the token key must not be empty", param_hint="--token-key")
    try:
        kinds = parse_faults(faults_text, fault_rate) if faults_text else {}
        options = DemoOptions(
            edition=edition,
            seed=seed,
            db_path=db_path or default_db_path(),
            rate_limit=rate_limit,
            sizes=DemoSizes(clients=clients, events=events, tasks=tasks, tags=tags, selectors=selectors),
            faults=Faults(latency_ms=latency, error_rate=error_rate, kinds=kinds, only_path=faults_path),
            host=host,
            port=DEMO_SERVER_PORT if port is None else port,
            reset=reset,
            token_id=token_id,
            token_key=token_key,
            without=without,
            restricted_user=restricted_user,
        )
        options.validate()
        if faults_path and not options.faults.active:
            raise ValueError("--faults-path narrows the faults, but none is on (--latency, --error-rate, --faults)")
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    memo = port_memo(db_path or default_db_path(), "demo-server")
    note: str | None = None
    try:
        if port is None:  # the port this data was served on last time, so a saved profile survives a restart
            sock, note = bind_remembered(host, DEMO_SERVER_PORT, memo)
        else:
            sock = bind_socket(host, port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port or 0}: {exc.strerror or exc}") from None
    try:
        state, prepared = build_state(options)
    except DatabaseInUse as exc:
        sock.close()
        fail(str(exc))
    except (OSError, ValueError, sqlite3.Error) as exc:  # an unusable --db or SVCTUI_DATA_DIR (e.g. /proc)
        sock.close()
        fail(f"cannot prepare the demo database {quote_input(str(options.db_path))}: {exc}; pass --db FILE")
    how = f"generated in {prepared.seconds:.2f} s" if prepared.generated else "reused; --reset to regenerate"
    credentials = prepared.credentials
    tokens = {
        "id": credentials.admin.id,
        "key": credentials.admin.key,
        "ro_id": credentials.read_only.id,
        "disabled_id": credentials.disabled.id,
    }
    jwt = mint_jwt(credentials.jwt_secret, credentials.admin.id)
    if port is None:
        remember_port(memo, sock.getsockname()[1])
    if note is not None:
        click.echo(f"Note: {note} (--port N serves on N).")
    click.echo(_banner(base_url_of(sock, host), edition, seed, prepared.path, how, jwt, tokens))
    sys.stdout.flush()
    try:
        serve_forever(state, sock, access_log=access_log)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    click.echo("demo server stopped")
