"""Named profiles in a private TOML file, secrets in the keyring when one works, and SVCTUI_* overrides.

File layout (config_dir()/profiles.toml, mode 0600):

    version = 1
    default = "prod"
    [profiles.prod]
    base_url = "https://bh.example.com"
    auth = "signature"            # or "bearer"
    token_id = "…uuid…"
    token_key = "…"               # or jwt = "…"; or secret_ref = "keyring" when the keyring holds it
    scheme_prefix = "bhe"
    prefer_wait = 30
    verify_tls = true
    ca_bundle = "/path/ca.pem"    # optional
    read_only = true              # optional: refuse every destructive command (delete, resume, restore)
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from svctui.api.quoting import quote_input
from svctui.store import keychain
from svctui.store.atomic import locked, read_private, remove_stale_temps, require_private_dir, write_private
from svctui.store.envprofile import env_overrides, is_complete, merge_env, profile_from_env
from svctui.store.errors import StoreError
from svctui.store.model import (
    DEMO_PROFILE,
    NAME_RULE,
    Profile,
    SecretStorage,
    build_profile,
    check_name,
    check_storable_name,
)
from svctui.store.paths import profiles_path

__all__ = [
    "NAME_RULE",
    "AddResult",
    "Profile",
    "ProfileStore",
    "ProfilesFile",
    "StoreError",
    "dump_profiles",
    "parse_profiles",
]

log = logging.getLogger("svctui.store")

FORMAT_VERSION = 1
KEYRING_REF = "keyring"
_HEADER = b"# svctui profiles. Holds secrets: keep this file mode 0600. Edit with `svctui profile ...`.\n"
_PROFILE_KEYS = {
    "base_url",
    "auth",
    "token_id",
    "token_key",
    "jwt",
    "secret_ref",
    "scheme_prefix",
    "prefer_wait",
    "verify_tls",
    "ca_bundle",
    "read_only",
}


@dataclass
class ProfilesFile:
    """The whole profiles file in memory: the default profile's name and the profiles by name, in file order."""

    default: str | None = None
    profiles: dict[str, Profile] = field(default_factory=dict)


@dataclass(frozen=True)
class AddResult:
    """What `ProfileStore.add` did: where the secret went and any warning to show the person."""

    storage: SecretStorage
    made_default: bool
    warnings: tuple[str, ...] = ()


def _parse_profile(path: Path, name: str, table: Any) -> Profile:
    where = f"{path}: profile {name!r}"
    if not isinstance(table, dict):
        raise StoreError(f"{where}: expected a table [profiles.{name}]")
    unknown = sorted(set(table) - _PROFILE_KEYS)
    if unknown:
        raise StoreError(f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(_PROFILE_KEYS))}")
    fields = {key: value for key, value in table.items() if key != "secret_ref"}
    secret_ref = table.get("secret_ref")
    if secret_ref is not None and secret_ref != KEYRING_REF:
        raise StoreError(f"{where}: secret_ref must be {KEYRING_REF!r}")
    has_secret = fields.get("token_key" if fields.get("auth", "signature") == "signature" else "jwt") is not None
    source: SecretStorage = "keyring" if secret_ref == KEYRING_REF else ("file" if has_secret else "missing")
    try:
        check_name(name)
        return build_profile(name=name, storage=source, **fields)
    except (StoreError, ValueError) as exc:
        raise StoreError(f"{where}: {exc}") from None


def parse_profiles(path: Path, raw: bytes) -> ProfilesFile:
    """Parse the bytes of a profiles file; a StoreError names the file and what is wrong (never a value)."""
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise StoreError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise StoreError(f"{path}: not valid TOML ({exc})") from None
    version = document.get("version", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise StoreError(f"{path}: format version {version!r} is not supported (this svctui reads {FORMAT_VERSION})")
    tables = document.get("profiles", {})
    if not isinstance(tables, dict):
        raise StoreError(f"{path}: 'profiles' must be a table of [profiles.NAME] tables")
    profiles = {name: _parse_profile(path, name, table) for name, table in tables.items()}
    default = document.get("default")
    if default is not None and (not isinstance(default, str) or default not in profiles):
        raise StoreError(f"{path}: default {default!r} is not one of the profiles ({', '.join(profiles) or 'none'})")
    return ProfilesFile(default=default, profiles=profiles)


def _profile_table(profile: Profile) -> dict[str, Any]:
    table: dict[str, Any] = {"base_url": profile.base_url, "auth": profile.auth}
    if profile.token_id is not None:
        table["token_id"] = profile.token_id
    table["scheme_prefix"] = profile.scheme_prefix
    table["prefer_wait"] = profile.prefer_wait
    table["verify_tls"] = profile.verify_tls
    if profile.ca_bundle is not None:
        table["ca_bundle"] = profile.ca_bundle
    if profile.read_only:
        table["read_only"] = True
    if profile.storage == "keyring":
        table["secret_ref"] = KEYRING_REF
    elif profile.secret is not None:
        table[profile.secret_kind] = profile.secret.get_secret_value()
    return table


def dump_profiles(data: ProfilesFile) -> bytes:
    """Serialise explicitly (secrets via get_secret_value), because model_dump_json would write asterisks."""
    document: dict[str, Any] = {"version": FORMAT_VERSION}
    if data.default is not None:
        document["default"] = data.default
    document["profiles"] = {name: _profile_table(profile) for name, profile in data.profiles.items()}
    return _HEADER + tomli_w.dumps(document).encode("utf-8")


def _unknown(name: str, data: ProfilesFile) -> StoreError:
    if name == DEMO_PROFILE:
        known = f"; known profiles: {', '.join(data.profiles)}" if data.profiles else ""
        return StoreError(
            f"unknown profile {quote_input(name)}: {name!r} is the dashboard's own profile for `svctui --demo`, never "
            f"stored; for commands, run `svctui demo-server` and add the profile it prints{known}"
        )
    if not data.profiles:
        return StoreError(
            f"unknown profile {quote_input(name)}: there are no profiles yet; add one with `svctui profile add`"
        )
    return StoreError(f"unknown profile {quote_input(name)}; known profiles: {', '.join(data.profiles)}")


class ProfileStore:
    """Reads and changes the profiles file; every change is a locked read-modify-atomic-write."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else profiles_path()

    def __repr__(self) -> str:
        return f"ProfileStore(path={str(self.path)!r})"

    def load(self) -> ProfilesFile:
        """The current file contents (empty when the file does not exist yet)."""
        raw = read_private(self.path, "profiles file")
        return ProfilesFile() if raw is None else parse_profiles(self.path, raw)

    def save(self, data: ProfilesFile) -> None:
        """Write `data` as the whole file (atomic, mode 0600)."""
        with self._writing():
            self._write(data)

    def _write(self, data: ProfilesFile) -> None:
        remove_stale_temps(self.path)
        write_private(self.path, dump_profiles(data))

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Hold the lock in a private directory; an OS error (read-only disk, not a directory) becomes a StoreError."""
        try:
            require_private_dir(self.path.parent)
            with locked(self.path):
                yield
        except OSError as exc:
            raise StoreError(f"cannot write '{self.path}': {exc.strerror or exc}") from None

    @contextmanager
    def _editing(self) -> Iterator[ProfilesFile]:
        with self._writing():
            data = self.load()
            yield data
            self._write(data)

    def get(self, name: str) -> Profile:
        """The stored profile `name` (a keyring secret is not loaded; see `with_secret`)."""
        data = self.load()
        if name not in data.profiles:
            raise _unknown(name, data)
        return data.profiles[name]

    def add(self, profile: Profile, *, make_default: bool = False, replace: bool = False) -> AddResult:
        """Save a profile with its secret: into the keyring when one works, else into the file with a warning."""
        secret = profile.secret
        if secret is None:
            raise StoreError(f"profile {profile.name!r} has no {profile.secret_kind.replace('_', ' ')}")
        with self._writing():
            data = self.load()
            previous = data.profiles.get(profile.name)
            if previous is not None and not replace:
                raise StoreError(f"profile {profile.name!r} already exists; use --force to replace it")
            if previous is None:  # one stored before the name was reserved may still be edited
                try:
                    check_storable_name(profile.name)
                except ValueError as exc:
                    raise StoreError(str(exc), fields=("name",)) from None
            warnings: list[str] = []
            reason = keychain.store_secret(profile.name, profile.secret_kind, secret.get_secret_value())
            source: SecretStorage = "keyring" if reason is None else "file"
            if reason is not None and not keychain.keyring_disabled():
                warnings.append(f"secret stored in {self.path} (mode 0600), not in the system keyring: {reason}")
            if previous is not None and previous.storage == "keyring":
                stale_kind = previous.secret_kind
                if source == "file" or stale_kind != profile.secret_kind:
                    problem = keychain.delete_secret(profile.name, stale_kind)
                    if problem:
                        warnings.append(f"could not delete the old keyring entry: {problem}")
            data.profiles[profile.name] = profile.model_copy(update={"storage": source})
            made_default = make_default or data.default is None
            if made_default:
                data.default = profile.name
            self._write(data)
        for warning in warnings:
            log.info("%s", warning)
        return AddResult(storage=source, made_default=made_default, warnings=tuple(warnings))

    def remove(self, name: str) -> tuple[str, ...]:
        """Delete a profile (and its keyring entry); returns warnings to show."""
        with self._editing() as data:
            profile = data.profiles.pop(name, None)
            if profile is None:
                raise _unknown(name, data)
            if data.default == name:
                data.default = next(iter(data.profiles), None)
        if profile.storage != "keyring":
            return ()
        problem = keychain.delete_secret(name, profile.secret_kind)
        return () if problem is None else (f"could not delete the keyring entry for {name!r}: {problem}",)

    def set_default(self, name: str) -> None:
        """Make `name` the profile used when none is named."""
        with self._editing() as data:
            if name not in data.profiles:
                raise _unknown(name, data)
            data.default = name

    def with_secret(self, profile: Profile) -> Profile:
        """The profile with its keyring secret loaded (unchanged when the secret is already in memory)."""
        if profile.storage != "keyring" or profile.secret is not None:
            return profile
        try:
            secret = keychain.load_secret(profile.name, profile.secret_kind)
        except keychain.KeyringUnavailable as exc:
            raise StoreError(
                f"profile {profile.name!r} keeps its secret in the system keyring, which cannot be read: {exc}. "
                f"Set SVCTUI_TOKEN_KEY (or SVCTUI_JWT), or re-add the profile with --force."
            ) from None
        return build_profile(**{**profile.model_dump(), profile.secret_kind: secret})

    def resolve(self, name: str | None = None, env: Mapping[str, str] | None = None, *, secret: bool = True) -> Profile:
        """The complete profile to connect with: `name`, else SVCTUI_PROFILE, else the default.

        With no name and a complete SVCTUI_BASE_URL + SVCTUI_TOKEN_ID + SVCTUI_TOKEN_KEY (or SVCTUI_JWT), the
        environment alone is the profile and no file is read. A `name` given explicitly (`--profile`) must be in the
        file whatever the environment: a typo must not connect to the server the environment names. As botocore
        does, a name given explicitly uses its stored server and token: the SVCTUI_* connection variables override
        only a profile that was not named (`env_ignored_note` says so to the user). `secret=False`: its settings
        only, the keyring not read (a missing secret is then no error).
        """
        environ = env if env is not None else os.environ
        overrides = env_overrides(environ)
        chosen = name or environ.get("SVCTUI_PROFILE", "").strip() or None
        if chosen is None and is_complete(overrides):
            return profile_from_env("env", overrides)
        data = self.load()
        chosen = chosen or data.default
        if chosen is None:
            raise StoreError(
                "no profile to use: add one with `svctui profile add NAME --base-url URL --token-id ID`, "
                "or set SVCTUI_BASE_URL with SVCTUI_TOKEN_ID and SVCTUI_TOKEN_KEY (or SVCTUI_JWT)"
                if not data.profiles
                else f"no default profile: pick one with `svctui profile use NAME` ({', '.join(data.profiles)})"
            )
        stored = data.profiles.get(chosen)
        if stored is None:
            if name is None and is_complete(overrides):  # SVCTUI_PROFILE names the environment's own profile
                return profile_from_env(chosen, overrides)
            error = _unknown(chosen, data)
            if is_complete(overrides):
                raise StoreError(f"{error} (the SVCTUI_* environment is used only when no --profile is given)")
            raise error
        merged = stored if name else merge_env(stored, overrides)
        if not secret:  # only its settings wanted (is it read-only?): no keyring read
            return merged
        complete = self.with_secret(merged)
        if complete.secret is None:
            raise StoreError(
                f"profile {chosen!r} has no {complete.secret_kind.replace('_', ' ')}: re-add it with "
                f"`svctui profile add {chosen} --force ...` or set "
                f"{'SVCTUI_TOKEN_KEY' if complete.auth == 'signature' else 'SVCTUI_JWT'}"
                + (f" with SVCTUI_PROFILE={chosen} instead of --profile" if name else "")
            )
        return complete
