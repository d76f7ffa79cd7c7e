"""SVCTUI_* environment variables: overrides for a stored profile, or a whole profile without any file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import SecretStr

from svctui.store.errors import StoreError
from svctui.store.model import Profile, build_profile

ENV_PROFILE = "SVCTUI_PROFILE"
ENV_BASE_URL = "SVCTUI_BASE_URL"
ENV_TOKEN_ID = "SVCTUI_TOKEN_ID"  # noqa: S105 (a variable name, not a secret)
ENV_TOKEN_KEY = "SVCTUI_TOKEN_KEY"  # noqa: S105 (a variable name, not a secret)
ENV_JWT = "SVCTUI_JWT"
ENV_LABELS = {
    "name": ENV_PROFILE,
    "base_url": ENV_BASE_URL,
    "token_id": ENV_TOKEN_ID,
    "token_key": ENV_TOKEN_KEY,
    "jwt": ENV_JWT,
}


@dataclass(frozen=True)
class EnvOverrides:
    """The SVCTUI_* connection variables that are set (empty counts as unset); secrets stay SecretStr."""

    base_url: str | None = None
    token_id: str | None = None
    token_key: SecretStr | None = None
    jwt: SecretStr | None = None

    @property
    def has_secret(self) -> bool:
        """True when the environment supplies a token key or a JWT."""
        return self.token_key is not None or self.jwt is not None


def _get(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name, "").strip()
    return value or None


def env_overrides(environ: Mapping[str, str]) -> EnvOverrides:
    """Read the overrides; setting both SVCTUI_TOKEN_KEY and SVCTUI_JWT is an error."""
    token_key = _get(environ, ENV_TOKEN_KEY)
    jwt = _get(environ, ENV_JWT)
    if token_key is not None and jwt is not None:
        raise StoreError(f"set only one of {ENV_TOKEN_KEY} (signed requests) and {ENV_JWT} (bearer token), not both")
    return EnvOverrides(
        base_url=_get(environ, ENV_BASE_URL),
        token_id=_get(environ, ENV_TOKEN_ID),
        token_key=SecretStr(token_key) if token_key is not None else None,
        jwt=SecretStr(jwt) if jwt is not None else None,
    )


def is_complete(overrides: EnvOverrides) -> bool:
    """True when the environment alone describes a usable profile."""
    signed = overrides.token_id is not None and overrides.token_key is not None
    return overrides.base_url is not None and (signed or overrides.jwt is not None)


def profile_from_env(name: str, overrides: EnvOverrides) -> Profile:
    """A profile built from the environment only (storage `env`)."""
    if overrides.jwt is not None:
        return build_profile(
            ENV_LABELS, name=name, base_url=overrides.base_url, auth="bearer", jwt=overrides.jwt, storage="env"
        )
    return build_profile(
        ENV_LABELS,
        name=name,
        base_url=overrides.base_url,
        auth="signature",
        token_id=overrides.token_id,
        token_key=overrides.token_key,
        storage="env",
    )


def merge_env(stored: Profile, overrides: EnvOverrides) -> Profile:
    """`stored` with each set variable replacing its field; a secret from the environment switches the auth kind."""
    fields = stored.model_dump()
    if overrides.base_url is not None:
        fields["base_url"] = overrides.base_url
    if overrides.token_id is not None:
        fields["token_id"] = overrides.token_id
    if overrides.token_key is not None:
        fields.update(auth="signature", token_key=overrides.token_key, storage="env")
    elif overrides.jwt is not None:
        fields.update(auth="bearer", jwt=overrides.jwt, storage="env")
    return build_profile(ENV_LABELS, **fields)


def env_ignored_note(name: str | None, environ: Mapping[str, str]) -> str | None:
    """The note for a profile named on the command line while SVCTUI_* connection variables are set (else None)."""
    labels = (ENV_BASE_URL, ENV_TOKEN_ID, ENV_TOKEN_KEY, ENV_JWT)
    set_vars = [label for label in labels if _get(environ, label) is not None]
    if not name or not set_vars:
        return None
    return (
        f"note: {', '.join(set_vars)} ignored: a profile named on the command line uses its stored server and "
        "token (the environment applies when no profile is named)"
    )
