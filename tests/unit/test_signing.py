"""Signing: the public vector, vectors from an independent tool (openssl), and what the httpx auth signs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from svctui.api.signing import BearerAuth, SignatureAuth, compute_signature, rfc3339_now, signature_matches

TOOL = Path(__file__).resolve().parents[1] / "tools" / "openssl_sign.sh"
KEY = "dGhpcyBpcyBub3QgYSByZWFsIGtleQ=="  # looks like base64: must be used as UTF-8 text, not decoded
TOKEN_ID = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"

needs_openssl = pytest.mark.skipif(
    shutil.which("openssl") is None,
    reason=(
        "openssl not on PATH: the independent signing vectors need it (.ci/run says so when it is missing; "
        "apt-get install openssl or brew install openssl)"
    ),
)


def openssl_signature(tmp_path: Path, key: str, method: str, target: str, date: str, body: bytes) -> str:
    """The Signature as computed by tests/tools/openssl_sign.sh (no svctui code involved)."""
    body_file = tmp_path / "body.bin"
    body_file.write_bytes(body)
    result = subprocess.run(
        ["bash", str(TOOL), key, method, target, date, str(body_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_public_vector() -> None:
    signature = compute_signature(
        "test-key", "POST", "/api/v2/graphs/cypher", "2026-10-01T12:34:56+00:00", b'{"query":"MATCH (n) RETURN n"}'
    )
    assert signature == "BMTnQwJ3SP0y0ZzUvf8ja0n7npktA31BBkTNiVPP/u0="


@needs_openssl
def test_tool_reproduces_public_vector(tmp_path: Path) -> None:
    """The independent tool itself is right, or its other vectors prove nothing."""
    signature = openssl_signature(
        tmp_path,
        "test-key",
        "POST",
        "/api/v2/graphs/cypher",
        "2026-10-01T12:34:56+00:00",
        b'{"query":"MATCH (n) RETURN n"}',
    )
    assert signature == "BMTnQwJ3SP0y0ZzUvf8ja0n7npktA31BBkTNiVPP/u0="


VECTORS = [
    pytest.param(
        KEY,
        "GET",
        "/api/v2/events?created_at=gte:2026-01-01T00:00:00Z&rrule=~eq:FREQ=WEEKLY&sort_by=-id",
        "2026-03-01T10:00:00Z",
        b"",
        id="query-colon-tilde",
    ),
    pytest.param(
        KEY,
        "GET",
        "/api/v2/events?rrule=~eq:INTERVAL%3D1%3BBYDAY%3DTU&skip=0&limit=100",
        "2026-03-01T10:59:59+00:00",
        b"",
        id="percent-encoded",
    ),
    pytest.param(
        KEY, "DELETE", "/api/v2/asset-group-tags/3/selectors/42", "2026-03-01T23:00:00Z", b"", id="empty-body"
    ),
    pytest.param(
        "test-key",
        "POST",
        "/api/v2/graphs/cypher",
        "2026-07-04T08:00:00Z",
        b'{"query":"MATCH (n:User) WHERE n.name =~ \\"(?i).*admin.*\\" RETURN n","include_properties":true}',
        id="json-body",
    ),
    pytest.param(
        KEY,
        "GET",
        "/api/v2/clients/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0/completed-jobs?status=eq:2",
        "2026-03-01T23:30:00-05:00",
        b"",
        id="non-utc-offset",
    ),
    pytest.param(
        KEY,
        "GET",
        "/api/v2/events?next_scheduled_at=lt:2026-03-02T00:00:00.123456789Z",
        "2026-03-01T10:11:12.123456789Z",
        b"",
        id="nanosecond-date",
    ),
    pytest.param(
        "kéy-ünïcode-🔑",
        "PUT",
        "/api/v2/asset-group-tags/1?x=%E2%9C%93",
        "2026-12-31T23:59:59Z",
        '{"name":"Tier Zero ✓"}'.encode(),
        id="utf8-key-and-body",
    ),
]


@needs_openssl
@pytest.mark.parametrize(("key", "method", "target", "date", "body"), VECTORS)
def test_matches_openssl(tmp_path: Path, key: str, method: str, target: str, date: str, body: bytes) -> None:
    expected = openssl_signature(tmp_path, key, method, target, date, body)
    assert re.fullmatch(r"[A-Za-z0-9+/]{43}=", expected), expected
    assert compute_signature(key, method, target, date, body) == expected


def test_every_input_changes_the_signature() -> None:
    base = ("k", "GET", "/api/v2/events?id=eq:1", "2026-03-01T10:00:00Z", b"")
    reference = compute_signature(*base)
    assert compute_signature("k2", *base[1:]) != reference
    assert compute_signature(base[0], "DELETE", *base[2:]) != reference
    assert compute_signature(base[0], base[1], "/api/v2/events?id=eq:2", *base[3:]) != reference
    assert compute_signature(*base[:3], "2026-03-01T11:00:00Z", b"") != reference
    assert compute_signature(*base[:4], b"{}") != reference


def test_only_the_hour_of_the_date_is_signed() -> None:
    early = compute_signature("k", "GET", "/x", "2026-03-01T10:00:00Z", b"")
    late = compute_signature("k", "GET", "/x", "2026-03-01T10:59:59.999999999-07:00", b"")
    assert early == late


def test_signature_matches_is_exact() -> None:
    signature = compute_signature("k", "GET", "/x", "2026-03-01T10:00:00Z", b"")
    assert signature_matches(signature, signature)
    assert not signature_matches(signature, signature[:-2] + "A=")
    assert not signature_matches(signature, "")
    assert not signature_matches(signature, "ünicode")


def test_rfc3339_now_is_aware_utc_with_uppercase_t() -> None:
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00", rfc3339_now())


def signed(auth: httpx.Auth, request: httpx.Request) -> httpx.Request:
    flow = auth.sync_auth_flow(request)
    out = next(flow)
    flow.close()
    return out


def test_signature_auth_signs_raw_path_including_query() -> None:
    date = "2026-03-01T10:00:00+00:00"
    auth = SignatureAuth(TOKEN_ID, KEY, clock=lambda: date)
    request = httpx.Request(
        "GET",
        "http://127.0.0.1:8080/api/v2/events",
        params=[("created_at", "gte:2026-01-01T00:00:00Z"), ("rrule", "~eq:FREQ=WEEKLY;INTERVAL=1"), ("skip", "0")],
    )
    out = signed(auth, request)
    raw_target = request.url.raw_path.decode("ascii")
    assert "?" in raw_target and "created_at=gte" in raw_target
    assert out.headers["Authorization"] == f"bhesignature {TOKEN_ID}"
    assert out.headers["RequestDate"] == date
    assert out.headers["Signature"] == compute_signature(KEY, "GET", raw_target, date, b"")
    path_only = compute_signature(KEY, "GET", request.url.path, date, b"")
    assert out.headers["Signature"] != path_only


def test_signature_auth_signs_the_body_and_a_custom_prefix() -> None:
    date = "2026-03-01T10:00:00+00:00"
    auth = SignatureAuth(TOKEN_ID, KEY, scheme_prefix="svc", clock=lambda: date)
    request = httpx.Request("POST", "http://h/api/v2/graphs/cypher", json={"query": "MATCH (n) RETURN n"})
    out = signed(auth, request)
    assert out.headers["Authorization"] == f"svcsignature {TOKEN_ID}"
    assert out.headers["Signature"] == compute_signature(KEY, "POST", "/api/v2/graphs/cypher", date, request.content)


def test_each_send_gets_a_fresh_date() -> None:
    dates = iter(["2026-03-01T10:00:00+00:00", "2026-03-01T11:00:00+00:00"])
    auth = SignatureAuth(TOKEN_ID, KEY, clock=lambda: next(dates))
    first = signed(auth, httpx.Request("GET", "http://h/api/v2/events"))
    first_signature = first.headers["Signature"]
    second = signed(auth, httpx.Request("GET", "http://h/api/v2/events"))
    assert second.headers["RequestDate"] == "2026-03-01T11:00:00+00:00"
    assert second.headers["Signature"] != first_signature


def test_reprs_never_show_secrets() -> None:
    secret_key = "s3cr3t-token-key-VALUE"
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
    signature_auth = SignatureAuth(TOKEN_ID, secret_key)
    bearer = BearerAuth(jwt)
    for text in (repr(signature_auth), str(signature_auth), f"{signature_auth!r}"):
        assert secret_key not in text
        assert TOKEN_ID in text
    for text in (repr(bearer), str(bearer)):
        assert jwt not in text
        assert "eyJ" not in text


def test_bearer_auth_sets_header() -> None:
    out = signed(BearerAuth("a.b.c"), httpx.Request("GET", "http://h/api/v2/events"))
    assert out.headers["Authorization"] == "Bearer a.b.c"
