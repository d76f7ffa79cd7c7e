"""connect.py: the auth, TLS and Prefer settings a profile gives the client, and the hints after a failure."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from svctui.api.errors import (
    ApiConnectionError,
    ApiStatusError,
    BadRequest,
    EnterpriseOnly,
    Forbidden,
    ResponseShapeError,
    Unauthorized,
)
from svctui.api.signing import BearerAuth, SignatureAuth
from svctui.connect import build_auth, failure_hint, open_client, tls_verify
from svctui.store.errors import StoreError
from svctui.store.model import Profile, build_profile

TOKEN_ID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
KEY = "connect-test-key-0123456789abcdef"
PREFIX = "unable to validate request signature for client: "


def signed(**extra: object) -> Profile:
    fields: dict[str, object] = {"name": "p", "base_url": "https://bh.example.com", "token_id": TOKEN_ID}
    fields.update(token_key=SecretStr(KEY), **extra)
    return build_profile(None, **fields)


def test_signature_auth_carries_id_prefix_and_signs() -> None:
    auth = build_auth(signed(scheme_prefix="svc"))
    assert isinstance(auth, SignatureAuth)
    assert (auth.token_id, auth.scheme) == (TOKEN_ID, "svcsignature")
    request = httpx.Request("GET", "https://bh.example.com/api/v2/events?limit=1")
    auth.sign(request)
    assert request.headers["Authorization"] == f"svcsignature {TOKEN_ID}"
    assert KEY not in repr(auth)


def test_bearer_auth() -> None:
    auth = build_auth(build_profile(None, name="p", base_url="https://h", auth="bearer", jwt=SecretStr("a.b.c")))
    assert isinstance(auth, BearerAuth)


def test_missing_secret_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="no token key"):
        build_auth(build_profile(None, name="p", base_url="https://h", token_id=TOKEN_ID))


def test_tls_settings(tmp_path: Path) -> None:
    bundle = tmp_path / "ca.pem"
    bundle.write_text("-----BEGIN CERTIFICATE-----\n")
    assert tls_verify(signed()) is True
    assert tls_verify(signed(verify_tls=False, ca_bundle=str(bundle))) is False
    assert tls_verify(signed(ca_bundle=str(bundle))) == str(bundle)
    with pytest.raises(StoreError, match=r"CA bundle .* is not a readable file"):
        tls_verify(signed(ca_bundle=str(tmp_path / "missing.pem")))


def test_ca_bundle_without_a_certificate_is_a_store_error(tmp_path: Path) -> None:
    bundle = tmp_path / "ca.pem"
    bundle.write_text("not a certificate\n")
    with pytest.raises(StoreError, match=r"profile 'p': cannot use '.*ca.pem' as a CA bundle: .*no certificate"):
        open_client(signed(ca_bundle=str(bundle)))


@pytest.mark.anyio
async def test_open_client_uses_profile_settings() -> None:
    async with open_client(signed(prefer_wait=7, base_url="http://127.0.0.1:1/")) as client:
        assert client.base_url == "http://127.0.0.1:1"
        assert client.prefer == "wait=7"
        assert KEY not in repr(client)


def _status(cls: type[ApiStatusError], status: int, message: str) -> ApiStatusError:
    return cls(status, [message], request_id="r1")


@pytest.mark.parametrize(
    ("error", "hint"),
    [
        (_status(Unauthorized, 401, PREFIX + "signature too far ahead by 75 minutes"), "machine's clock"),
        (_status(Unauthorized, 401, PREFIX + "signature too far behind by 61 minutes"), "within 1 hour"),
        (_status(Unauthorized, 401, PREFIX + "digest validation failed: signature digest mismatch"), "the token key"),
        (_status(Unauthorized, 401, PREFIX + "resource not found"), f"does not know token {TOKEN_ID}"),
        (_status(BadRequest, 400, PREFIX + "Token ID is malformed."), "must be a UUID"),
        (_status(BadRequest, 400, PREFIX + "Unexpected authorization scheme: xsignature."), "scheme prefix"),
        (_status(Unauthorized, 401, "authentication is invalid"), "check the token id and key"),  # not a JWT: issue 25
        (_status(Forbidden, 403, PREFIX + "user disabled"), "disabled"),
        (_status(Forbidden, 403, "not authorized"), "lacks the permission"),
        (_status(ApiStatusError, 502, "Bad Gateway"), "the server failed"),
        (ApiConnectionError("cannot reach https://bh.example.com: refused"), "check the URL / network"),
        (EnterpriseOnly(404, ["404 page not found"]), "check the URL"),
        (ResponseShapeError("not JSON"), "did not answer like the BloodHound v2 API"),
    ],
)  # fmt: skip
def test_failure_hints(error: ApiStatusError | ApiConnectionError | ResponseShapeError, hint: str) -> None:
    assert hint in failure_hint(error, signed())


def test_tls_failure_hint_mentions_ca_bundle() -> None:
    error = ApiConnectionError("TLS certificate verification failed (CERTIFICATE_VERIFY_FAILED)")
    assert "--ca-bundle" in failure_hint(error, signed())
