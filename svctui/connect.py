"""From a profile to a ready ApiClient (auth, Prefer wait, TLS settings), plus hints for failed connections."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from svctui.store.errors import StoreError
from svctui.store.model import Profile

if TYPE_CHECKING:
    import httpx

    from svctui.api.client import ApiClient
    from svctui.api.errors import ApiError, ApiStatusError

CLOCK_HINT = "check this machine's clock (RequestDate must be within 1 hour of the server's time)"
KEY_HINT = "check the token key (it must be the key shown when token {token_id} was created)"
UNKNOWN_ID_HINT = "check the token id: the server does not know token {token_id}"
NETWORK_HINT = "check the URL / network: is {url} right and reachable from here?"
CUT_SHORT_HINT = "{url} answered, but the connection closed mid-answer: try again; a proxy on the way may drop it"
SLOW_HINT = (
    "the server (or a proxy) sent its answer too slowly; the deadline follows the profile's Prefer wait ({wait})"
)


def build_auth(profile: Profile) -> httpx.Auth:
    """SignatureAuth(token_id, token_key, scheme_prefix) or BearerAuth(jwt); StoreError if the secret is missing."""
    from svctui.api.signing import BearerAuth, SignatureAuth

    secret = profile.secret
    if secret is None:
        raise StoreError(f"profile {profile.name!r} has no {profile.secret_kind.replace('_', ' ')} loaded")
    if profile.auth == "bearer":
        return BearerAuth(secret.get_secret_value())
    assert profile.token_id is not None  # the model requires it for signature auth
    return SignatureAuth(profile.token_id, secret.get_secret_value(), scheme_prefix=profile.scheme_prefix)


def tls_verify(profile: Profile) -> bool | str:
    """What the client verifies TLS against: False, the CA bundle path, or True (system store)."""
    if not profile.verify_tls:
        return False
    if profile.ca_bundle is None:
        return True
    bundle = Path(profile.ca_bundle).expanduser()
    if not bundle.is_file():
        raise StoreError(f"profile {profile.name!r}: CA bundle '{bundle}' is not a readable file")
    return str(bundle)


def open_client(
    profile: Profile,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    on_deprecation: Callable[[str], None] | None = None,
) -> ApiClient:
    """An ApiClient for `profile` (use it as `async with open_client(profile) as client:`).

    `on_deprecation` receives the once-per-session notice for a deprecated endpoint; without it the client
    issues a Python DeprecationWarning.
    """
    from svctui.api.client import ApiClient
    from svctui.store.settings import load_settings

    try:
        client = ApiClient(
            profile.base_url,
            build_auth(profile),
            prefer_wait=profile.prefer_wait,
            verify=tls_verify(profile),
            transport=transport,
            on_deprecation=on_deprecation,
            on_learn=lambda name, value: _remember(profile, name, value),
            max_response_bytes=load_settings().max_response_bytes,
        )
    except ValueError as exc:  # the client refuses a setting, e.g. a CA bundle that holds no certificate
        raise StoreError(f"profile {profile.name!r}: {exc}") from None
    for name, value in _facts(profile).items():
        setattr(client, name, value)  # what an earlier session learnt: not asked (nor said) again
    return client


def _facts(profile: Profile) -> dict[str, object]:
    """What earlier sessions learnt about the profile's server ({} when the facts file cannot be read: a cache)."""
    from svctui.store.server_facts import load_facts

    try:
        return load_facts(profile.name, profile.base_url)
    except (StoreError, ValueError, OSError):
        return {}


def _remember(profile: Profile, name: str, value: object) -> None:
    """Keep a fact the client learnt for the profile's next session (a file that cannot be written: not kept)."""
    from svctui.store.server_facts import remember_fact

    with contextlib.suppress(StoreError, ValueError, OSError):
        remember_fact(profile.name, profile.base_url, name, value)


def failure_hint(error: ApiError, profile: Profile) -> str:
    """What to check after a failed request, from the error kind and the server's message."""
    from svctui.api.errors import (
        ApiConnectionError,
        ApiStatusError,
        DeadlineExceeded,
        EnterpriseOnly,
        ResponseCutShort,
        ResponseShapeError,
    )

    if isinstance(error, ResponseCutShort):
        return CUT_SHORT_HINT.format(url=profile.base_url)
    if isinstance(error, DeadlineExceeded):
        return SLOW_HINT.format(wait=profile.prefer_wait)
    if isinstance(error, ApiConnectionError):
        hint = NETWORK_HINT.format(url=profile.base_url)
        if "certificate" in error.user_message().lower():
            hint += " For a private CA use --ca-bundle PATH (or --no-verify-tls on a lab server)."
        return hint
    if isinstance(error, ResponseShapeError | EnterpriseOnly):
        return f"check the URL: {profile.base_url} did not answer like the BloodHound v2 API"
    if not isinstance(error, ApiStatusError):
        return "check the profile settings"
    text = " ".join(error.messages).lower()
    if "user disabled" in text:
        return "the token's user is disabled on the server: ask an administrator"
    if "does not have access to this resource" in text:
        return "the token works; this user lacks access to some environments (environment access control)"
    if error.status == 403:
        return "the token's user lacks the permission for this request: ask an administrator"
    # a hint names only what this profile sends: the server's words about the other kind of credential (a forged
    # or proxied 401) must not send a person to check a JWT they do not use, or a key they do not have
    if profile.auth == "bearer":
        return _bearer_hint(error, text, profile)
    return _signature_hint(error, text, profile)


def _bearer_hint(error: ApiStatusError, text: str, profile: Profile) -> str:
    """What to check on a bearer (JWT) profile after a 4xx about the credentials."""
    from svctui.ops.outcomes import is_auth_failure

    if error.status == 401 or is_auth_failure(error):
        return "check the JWT: it may have expired or belong to another server"
    return _not_credentials_hint(error, profile)


def _signature_hint(error: ApiStatusError, text: str, profile: Profile) -> str:
    """What to check on a signature profile after a 4xx about the credentials."""
    token_id = profile.token_id or "?"
    if "too far ahead" in text or "too far behind" in text:
        return CLOCK_HINT
    if "digest" in text:
        return KEY_HINT.format(token_id=token_id)
    if "token id is malformed" in text:
        return "check the token id: it must be a UUID"
    if "authorization scheme" in text:
        return f"check the scheme prefix (now {profile.scheme_prefix!r}; the server expects e.g. 'bhe')"
    if "resource not found" in text and error.status == 401:
        return UNKNOWN_ID_HINT.format(token_id=token_id)
    if error.status == 401:
        return f"check the token id and key (token {token_id}): the server did not accept the signature"
    return _not_credentials_hint(error, profile)


def _not_credentials_hint(error: ApiStatusError, profile: Profile) -> str:
    """What to check after a status that is not about the credentials."""
    if error.status in (404, 405) or 300 <= error.status < 400:
        return f"check the URL: {profile.base_url} did not answer like the BloodHound v2 API"
    if error.status >= 500:
        return "the server failed; try again later or ask its administrator"
    return "check the profile settings"
