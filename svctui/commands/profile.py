"""`svctui profile add|list|show|remove|use|test` and `svctui locate config|data|state`."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from svctui.api.limits import DEFAULT_PREFER_WAIT
from svctui.commands.common import AsciiInt, fail
from svctui.store import paths
from svctui.store.envprofile import ENV_PROFILE, env_overrides, is_complete
from svctui.store.errors import StoreError
from svctui.store.model import (
    Profile,
    build_profile,
    check_base_url,
    check_name,
    check_prefer_wait,
    check_scheme_prefix,
    check_storable_name,
    check_token_id,
    mask,
)
from svctui.store.profiles import ProfileStore

if TYPE_CHECKING:
    from svctui.api.client import ServerInfo


T = TypeVar("T")


class InputError(click.ClickException):
    """Bad input or configuration: `error: <message>` on stderr (svctui.cli.SvctuiError), exit code 2."""

    exit_code = 2


def _store() -> ProfileStore:
    return ProfileStore()


def _warn(messages: tuple[str, ...] | list[str]) -> None:
    for message in messages:
        click.echo(f"warning: {message}", err=True)


def _checked(check: Callable[[T], T], value: T) -> T:
    try:
        return check(value)
    except ValueError as exc:
        raise InputError(str(exc)) from None


MAX_SECRET_CHARS = 64 * 1024  # a token key is 44 characters, a JWT a few thousand


def _read_secret(name: str, kind: str, from_stdin: bool) -> str:
    if from_stdin:
        try:
            text = sys.stdin.read(MAX_SECRET_CHARS + 1)  # capped: `< /dev/zero` is endless
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"{kind}: standard input cannot be read as text ({exc}); pipe the secret alone")
        if len(text) > MAX_SECRET_CHARS:
            fail(f"{kind}: standard input holds more than {MAX_SECRET_CHARS // 1024} KiB; pipe the secret alone")
        return text
    answer: str = click.prompt(
        f"{kind} for profile {name!r}", hide_input=True, default="", show_default=False, err=True
    )
    return answer


@click.group("profile")
def profile() -> None:
    """Manage connection profiles (server URL, token, TLS) stored in the config directory."""


@profile.command("add", short_help="Add profile NAME (the secret is never an argument).")
@click.argument("name")
@click.option("--base-url", required=True, metavar="URL", help="Server address, e.g. https://bh.example.com")
@click.option("--token-id", metavar="UUID", help="API token id (signed requests; the key is prompted for).")
@click.option("--bearer", is_flag=True, help="Use a JWT bearer token instead of a token id and key.")
@click.option("--scheme-prefix", default="bhe", show_default=True, help="Signature scheme prefix (bhe → bhesignature).")
@click.option(
    "--prefer-wait", type=AsciiInt(), default=DEFAULT_PREFER_WAIT, show_default=True, help="Prefer: wait=N (-1: none)."
)
@click.option("--no-verify-tls", is_flag=True, help="Do not verify the server's TLS certificate (lab servers only).")
@click.option("--ca-bundle", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="CA bundle (PEM).")
@click.option("--default", "make_default", is_flag=True, help="Make this the default profile.")
@click.option("--read-only", is_flag=True, help="Refuse every destructive command with this profile.")
@click.option("--secret-stdin", is_flag=True, help="Read the token key or JWT from standard input, not a prompt.")
@click.option("--force", is_flag=True, help="Replace an existing profile of the same name.")
def add(
    name: str,
    base_url: str,
    token_id: str | None,
    bearer: bool,
    scheme_prefix: str,
    prefer_wait: int,
    no_verify_tls: bool,
    ca_bundle: Path | None,
    make_default: bool,
    read_only: bool,
    secret_stdin: bool,
    force: bool,
) -> None:
    """Add profile NAME; the secret comes from a no-echo prompt or --secret-stdin, never from an argument."""
    name = _checked(check_name, name)
    url = _checked(check_base_url, base_url)
    if bearer == (token_id is not None):
        raise InputError("give exactly one of --token-id UUID (signed requests) or --bearer (JWT)")
    token = _checked(check_token_id, token_id) if token_id is not None else None
    _checked(check_scheme_prefix, scheme_prefix)  # every option is checked before the secret is asked for
    _checked(check_prefer_wait, prefer_wait)
    store = _store()
    try:
        stored = name in store.load().profiles
    except StoreError as exc:
        raise InputError(exc.message) from None
    if stored and not force:
        raise InputError(f"profile {name!r} already exists; use --force to replace it")
    if not stored:  # before the secret is asked for (the store says the same)
        _checked(check_storable_name, name)
    secret_field = "jwt" if bearer else "token_key"
    secret = _read_secret(name, "JWT" if bearer else "Token key", secret_stdin)
    if not secret.strip():
        raise InputError(f"the {'JWT' if bearer else 'token key'} is empty; nothing was saved")
    try:
        new_profile = build_profile(
            None,
            name=name,
            base_url=url,
            auth="bearer" if bearer else "signature",
            token_id=token,
            scheme_prefix=scheme_prefix,
            prefer_wait=prefer_wait,
            verify_tls=not no_verify_tls,
            read_only=read_only,
            ca_bundle=str(ca_bundle.resolve()) if ca_bundle is not None else None,
            **{secret_field: secret},
        )
        result = store.add(new_profile, make_default=make_default, replace=force)
    except StoreError as exc:
        raise InputError(exc.message) from None
    _warn(result.warnings)
    where = "the system keyring" if result.storage == "keyring" else str(store.path)
    click.echo(f"Saved profile {name!r} ({new_profile.auth} auth, secret in {where}).")
    if result.made_default:
        click.echo(f"Default profile: {name}")


def _storage_label(stored: Profile, env_secret: bool, active: bool) -> str:
    if env_secret and active:
        return f"env (overrides {stored.storage})"
    return stored.storage


def _write_profiles(rows: list[tuple[str, ...]]) -> None:
    """The profiles' table, fitted as every command's table is (`svctui.commands.table`)."""
    from svctui.commands.table import Role, TableColumn, TableWriter, terminal_width
    from svctui.text import cut_middle

    columns = (
        TableColumn(" ", lambda row: row[0]),  # `*` marks the default
        TableColumn("NAME", lambda row: row[1], Role.NAME),  # what --profile takes
        # the server: its host and its port (`https://bloodhound.exa…com:8443`) when it must be cut
        TableColumn("URL", lambda row: row[2], Role.ESSENTIAL, min_width=24, cut=cut_middle),
        TableColumn("AUTH", lambda row: row[3], drop=1),
        TableColumn("SECRET", lambda row: row[4], Role.TEXT, min_width=len("keyring")),
    )
    writer = TableWriter(columns, sys.stdout, terminal_width(), "profiles", sys.stderr)
    items: list[Any] = list(rows)  # tuples: the columns read them by position
    writer.write_page(items)
    writer.close()


@profile.command("list", short_help="List profiles: name, URL, auth, where the secret lives.")
def list_profiles() -> None:
    """List profiles: name, URL, auth kind and where the secret lives (* marks the default)."""
    try:
        overrides = env_overrides(os.environ)
        data = _store().load()
    except StoreError as exc:
        raise InputError(exc.message) from None
    selected = os.environ.get(ENV_PROFILE, "").strip() or None
    active = selected or data.default
    rows: list[tuple[str, ...]] = [
        (
            "*" if name == data.default else " ",
            name,
            p.base_url,
            p.auth,
            _storage_label(p, overrides.has_secret, name == active),
        )
        for name, p in data.profiles.items()
    ]
    if is_complete(overrides) and selected is None:
        auth = "bearer" if overrides.jwt is not None else "signature"
        rows.append((" ", "(env)", overrides.base_url or "", auth, "env"))
    if not rows:
        click.echo("No profiles. Add one with: svctui profile add NAME --base-url URL --token-id UUID")
        return
    _write_profiles(rows)
    if selected is not None:
        click.echo(f"{ENV_PROFILE}={selected} selects the profile used when none is named.")
    if is_complete(overrides) and selected is None:
        click.echo("(env): SVCTUI_BASE_URL and a token in the environment are used when no profile is named.")


def _default_name(ctx: click.Context, name: str | None, store: ProfileStore) -> str:
    chosen = name or (ctx.obj or {}).get("profile") or os.environ.get(ENV_PROFILE, "").strip() or None
    if chosen is None:
        chosen = store.load().default
    if chosen is None:
        raise InputError("no profile named and no default profile; see `svctui profile list`")
    return str(chosen)


@profile.command("show", short_help="Show profile NAME with its secret masked.")
@click.argument("name", required=False)
@click.pass_context
def show(ctx: click.Context, name: str | None) -> None:
    """Show profile NAME (default: the default profile) with its secret masked."""
    store = _store()
    try:
        chosen = _default_name(ctx, name, store)
        stored = store.get(chosen)
        is_default = store.load().default == chosen
    except StoreError as exc:
        raise InputError(exc.message) from None
    secret_text = mask(stored.secret)
    if stored.storage == "keyring":
        try:
            secret_text = f"{mask(store.with_secret(stored).secret)}  (in the system keyring)"
        except StoreError as exc:
            secret_text = f"(in the system keyring, unreadable: {exc.message})"
    elif stored.storage == "file":
        secret_text += f"  (in {store.path})"
    lines = [
        ("name", chosen + ("  (default)" if is_default else "")),
        ("base_url", stored.base_url),
        ("auth", stored.auth),
        ("token_id", stored.token_id or "-"),
        (stored.secret_kind, secret_text),
        ("scheme_prefix", stored.scheme_prefix),
        ("prefer_wait", str(stored.prefer_wait)),
        ("verify_tls", "true" if stored.verify_tls else "false"),
        ("ca_bundle", stored.ca_bundle or "-"),
        ("read_only", "true" if stored.read_only else "false"),
    ]
    for label, value in lines:
        click.echo(f"{label + ':':<15}{value}")
    overridden = [
        var
        for var in ("SVCTUI_BASE_URL", "SVCTUI_TOKEN_ID", "SVCTUI_TOKEN_KEY", "SVCTUI_JWT")
        if os.environ.get(var, "").strip()
    ]
    if overridden:
        click.echo(f"note: {', '.join(overridden)} override these values when a profile is used.")


@profile.command("remove")
@click.argument("name")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
def remove(name: str, yes: bool) -> None:
    """Remove profile NAME and its keyring entry."""
    store = _store()
    try:
        stored = store.get(name)
    except StoreError as exc:
        raise InputError(exc.message) from None
    if not yes and not sys.stdin.isatty():  # a prompt nobody can answer: refuse, as delete/resume/restore do
        raise InputError(f"refusing to remove profile {name!r} without --yes when not on a terminal")
    if not yes:
        click.confirm(f"Remove profile {name!r} ({stored.base_url}) and its secret?", abort=True, err=True)
    try:
        warnings = store.remove(name)
        new_default = store.load().default
    except StoreError as exc:
        raise InputError(exc.message) from None
    _warn(warnings)
    click.echo(f"Removed profile {name!r}.")
    if new_default is not None:
        click.echo(f"Default profile: {new_default}")


@profile.command("use")
@click.argument("name")
def use(name: str) -> None:
    """Make NAME the default profile."""
    try:
        _store().set_default(name)
    except StoreError as exc:
        raise InputError(exc.message) from None
    click.echo(f"Default profile: {name}")


async def _probe(resolved: Profile) -> ServerInfo:
    from svctui.connect import open_client

    async with open_client(resolved) as client:
        return await client.verify()


@profile.command("test", short_help="Prove profile NAME's credentials; report the edition.")
@click.argument("name", required=False)
@click.pass_context
def test(ctx: click.Context, name: str | None) -> None:
    """Prove profile NAME's credentials (default: the default profile) and report the edition.

    `GET /api/v2/asset-group-tags` checks the signature on either edition, then `GET /api/v2/events?limit=1` tells
    the edition. Exit 0 ok, 2 bad profile, 3 authentication refused, 4 not the API (a plain `404 page not found`
    where the API answers), 5 server or network error.
    """
    from svctui.api.errors import ApiError
    from svctui.commands.common import ExitCode, exit_code_for, resolve_profile
    from svctui.connect import failure_hint

    chosen = name or (ctx.obj or {}).get("profile")
    try:
        resolved = resolve_profile(chosen)
        info = asyncio.run(_probe(resolved))
    except (StoreError, ValueError) as exc:
        raise InputError(str(exc)) from None
    except ApiError as exc:
        click.echo(f"failed: {resolved.base_url} (profile {resolved.name}): {exc.user_message()}", err=True)
        click.echo(f"hint: {failure_hint(exc, resolved)}", err=True)
        ctx.exit(int(exit_code_for(exc)))
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        ctx.exit(int(ExitCode.ABORTED))
    click.echo(
        f"ok: {resolved.base_url} answers, {info.edition} edition (profile {resolved.name}, {resolved.auth} auth)"
    )


LOCATE_KINDS = ("config", "data", "state", "exports")


@click.command("locate")
@click.argument("kind", type=click.Choice(LOCATE_KINDS), required=False, metavar="[config|data|state|exports]")
def locate(kind: str | None) -> None:
    """Print the config, data, state or exports directory svctui uses (all four, each named, without KIND)."""
    if kind is None:
        width = max(map(len, LOCATE_KINDS))
        for each in LOCATE_KINDS:
            click.echo(f"{each:<{width}}  {_located(each)}")
        return
    click.echo(str(_located(kind)))


def _located(kind: str) -> Path:
    """The directory of `kind` (one of LOCATE_KINDS)."""
    if kind == "exports":
        return _exports_dir()
    return {"config": paths.config_dir, "data": paths.data_dir, "state": paths.state_dir}[kind]()


def _exports_dir() -> Path:
    """`export_dir` of the settings when set (and readable), else the default (exports/ in the data dir)."""
    from svctui.store.settings import load_settings

    try:
        chosen = load_settings().export_dir.strip()
    except StoreError:
        chosen = ""
    return Path(chosen).expanduser() if chosen else paths.default_export_dir()
