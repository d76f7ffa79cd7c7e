"""The Profile model and the validators shared by the store, the environment and the command line."""

from __future__ import annotations

import re
import uuid
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, SecretStr, StrictBool, ValidationError, model_validator

from svctui.api.limits import DEFAULT_PREFER_WAIT, PREFER_WAIT_RULE, prefer_wait_allowed
from svctui.api.quoting import quote_input, quote_url
from svctui.store.errors import StoreError

AuthKind = Literal["signature", "bearer"]
SecretStorage = Literal["file", "keyring", "env", "missing"]

DEFAULT_SCHEME_PREFIX = "bhe"
NAME_RULE = "1-64 characters: letters, digits, '.', '_' or '-', starting with a letter or digit"
_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_SCHEME_PREFIX_PATTERN = re.compile(r"[A-Za-z0-9]{0,32}")


def check_name(name: str) -> str:
    """Return a valid profile name or raise ValueError saying what is allowed."""
    if not _NAME_PATTERN.fullmatch(name):
        raise ValueError(f"profile name {quote_input(name)} is not allowed; use {NAME_RULE}")
    return name


DEMO_PROFILE = "demo"
"""The name of `svctui --demo`'s own profile, made in memory for the embedded demo server and never stored: a stored
profile of that name would share its client-names cache, server facts, recent clients and audit runs, and show as
the one in use in the profile picker. `svctui demo-server` suggests `demo-server` instead."""


def check_storable_name(name: str) -> str:
    """Return `name` when a new profile may be stored under it; ValueError for the demo's reserved name (any case:
    the profile's cache files would be one file on a case-insensitive disk)."""
    if name.lower() == DEMO_PROFILE:
        raise ValueError(
            f"profile name {quote_input(name)} is reserved for `svctui --demo` (the embedded demo server's own "
            "profile, never stored); choose another name, e.g. demo-server, as `svctui demo-server` suggests"
        )
    return name


def check_base_url(url: str) -> str:
    """Return the URL without a trailing slash, or raise ValueError unless it is http(s) with a host and no user info.

    Every message quotes the URL with its password hidden (`quote_url`): it is what was typed, a secret included."""
    text = url.strip()
    allowed = "an http:// or https:// URL with a host, e.g. https://bloodhound.example.com"
    shown = quote_url(url)
    try:
        parts = urlsplit(text)
    except ValueError:
        raise ValueError(f"base URL {shown} is not a valid URL; use {allowed}") from None
    # user info first, before the port is read: the API signs requests or sends a bearer token, never URL credentials
    if "@" in parts.netloc:
        raise ValueError(
            f"base URL {shown} must not contain a user name or password; the API is reached with the profile's "
            f"token (token id + key, or a JWT), so use {allowed}"
        )
    try:
        port = parts.port  # raises ValueError on a bad port
    except ValueError:
        raise ValueError(f"base URL {shown} is not a valid URL; use {allowed}") from None
    if parts.scheme.lower() not in {"http", "https"} or not parts.hostname:
        raise ValueError(f"base URL {shown} is not allowed; use {allowed}")
    if parts.query or parts.fragment or any(ch.isspace() for ch in text):
        raise ValueError(f"base URL {shown} must not contain spaces, a query (?) or a fragment (#); use {allowed}")
    if port == 0:
        raise ValueError(f"base URL {shown} has port 0; use {allowed}")
    return text.rstrip("/")


def check_token_id(token_id: str) -> str:
    """Return the token id in canonical UUID form, or raise ValueError."""
    try:
        return str(uuid.UUID(token_id.strip()))
    except ValueError:
        raise ValueError(
            f"token id {quote_input(token_id)} is not a UUID; use the token's id, "
            "e.g. 3f2504e0-4f89-41d3-9a0c-0305e82c3301"
        ) from None


def check_secret(secret: str, what: str) -> str:
    """Return the secret with surrounding whitespace removed, or raise ValueError (never quoting it)."""
    value = secret.strip()
    if not value:
        raise ValueError(f"the {what} is empty; paste the {what} shown when the token was created")
    if any(ch.isspace() for ch in value):
        raise ValueError(f"the {what} must be a single word without spaces or line breaks")
    if not (value.isascii() and value.isprintable()):
        raise ValueError(
            f"the {what} holds a character that is not printable ASCII; a token key is base64 and a JWT base64url "
            "text, so paste it again as plain text"
        )
    return value


def check_prefer_wait(seconds: int) -> int:
    """Return a Prefer: wait value the client sends (-1 = no limit, or 1..MAX_PREFER_WAIT seconds), or ValueError."""
    if not prefer_wait_allowed(seconds):
        raise ValueError(f"prefer_wait {seconds} is not allowed; use {PREFER_WAIT_RULE}")
    return seconds


def check_scheme_prefix(prefix: str) -> str:
    """Return the scheme prefix (e.g. `bhe` → `bhesignature`), or raise ValueError."""
    if not _SCHEME_PREFIX_PATTERN.fullmatch(prefix):
        raise ValueError(
            f"scheme prefix {quote_input(prefix)} is not allowed; use up to 32 letters or digits, e.g. bhe"
        )
    return prefix


def explain(error: ValidationError, labels: dict[str, str] | None = None) -> str:
    """One line per problem, `field: message`, without input values (models hide them)."""
    lines = []
    for item in error.errors(include_input=False, include_url=False):
        field = ".".join(str(part) for part in item["loc"])
        label = (labels or {}).get(field, field)
        message = str(item["msg"]).removeprefix("Value error, ")
        lines.append(f"{label}: {message}" if label else message)
    return "; ".join(lines)


def _secret(value: SecretStr) -> SecretStr:
    return SecretStr(check_secret(value.get_secret_value(), "secret"))


def _blank_is_none(value: str | None) -> str | None:
    return None if value is not None and not value.strip() else value


# Each field type carries its own check, so the model, the file parser and the environment all apply the same rule.
ProfileName = Annotated[str, AfterValidator(check_name)]
BaseUrl = Annotated[str, AfterValidator(check_base_url)]
TokenId = Annotated[str, AfterValidator(check_token_id)]
Secret = Annotated[SecretStr, AfterValidator(_secret)]
SchemePrefix = Annotated[str, AfterValidator(check_scheme_prefix)]
PreferWait = Annotated[int, AfterValidator(check_prefer_wait)]


class Profile(BaseModel):
    """A named server plus credentials; token_key and jwt are SecretStr and never shown by repr/str/dumps."""

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    name: ProfileName
    base_url: BaseUrl
    auth: AuthKind = "signature"
    token_id: TokenId | None = None
    token_key: Secret | None = None
    jwt: Secret | None = None
    scheme_prefix: SchemePrefix = DEFAULT_SCHEME_PREFIX
    prefer_wait: PreferWait = DEFAULT_PREFER_WAIT
    verify_tls: bool = True
    ca_bundle: Annotated[str | None, AfterValidator(_blank_is_none)] = None
    storage: SecretStorage = "missing"  # where the secret lives: file, keyring, env (or missing)
    read_only: StrictBool = False  # refuse every destructive command and hide destructive keys in the dashboard

    @model_validator(mode="after")
    def _check_auth(self) -> Profile:
        if self.auth == "signature" and self.token_id is None:
            raise ValueError("signature auth needs a token id (--token-id UUID), or use --bearer for a JWT")
        return self

    @property
    def secret_kind(self) -> Literal["token_key", "jwt"]:
        """Which secret this profile's auth kind uses."""
        return "token_key" if self.auth == "signature" else "jwt"

    @property
    def secret(self) -> SecretStr | None:
        """The secret for this profile's auth kind, if loaded."""
        return self.token_key if self.auth == "signature" else self.jwt


def build_profile(labels: dict[str, str] | None = None, **fields: object) -> Profile:
    """Validate fields into a Profile, turning a ValidationError into a StoreError without any input value."""
    try:
        return Profile.model_validate(fields)
    except ValidationError as exc:
        at_fault = tuple(dict.fromkeys(str(item["loc"][0]) for item in exc.errors() if item["loc"]))
        raise StoreError(explain(exc, labels), at_fault) from None


def mask(secret: SecretStr | None) -> str:
    """`********` for a secret that is set (no character of it, not even the last few: the token id beside it says
    which credential it is), `(none)` when there is none."""
    return "(none)" if secret is None else "*" * 8
