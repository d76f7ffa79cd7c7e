"""The demo server authenticates like the real one: signed requests over the raw target and body, bearer JWTs,
and every failure with the real status and message. Headers are built by hand, over real HTTP.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from svctui.api.signing import SignatureAuth, compute_signature
from svctui.demo.auth import mint_jwt
from svctui.demo.server import DemoServer
from tests.support.demo_http import SIGNATURE_PREFIX, error_of, raw, sign_headers, signed

TAGS = "/api/v2/asset-group-tags"
QUERY_TARGET = "/api/v2/asset-group-tags/1/selectors?name=~eq:Domain%20Admins&sort_by=-id&limit=3"


def test_signed_request_is_accepted_and_carries_request_id(demo_server: DemoServer) -> None:
    with signed(demo_server) as client:
        response = client.get(TAGS)
    assert response.status_code == 200
    assert str(uuid.UUID(response.headers["RequestID"])) == response.headers["RequestID"]
    assert response.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert response.headers["content-type"] == "application/json"


def test_signed_request_with_percent_encoded_query_is_accepted(demo_server: DemoServer) -> None:
    with raw(demo_server) as client:
        response = client.get(
            QUERY_TARGET, headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", QUERY_TARGET)
        )
    assert response.status_code == 200, response.text
    assert response.json()["limit"] == 3


def test_signing_the_decoded_query_fails(demo_server: DemoServer) -> None:
    """The server signs the target as received: percent-encoding must be left untouched."""
    decoded = QUERY_TARGET.replace("%20", " ")
    with raw(demo_server) as client:
        response = client.get(
            QUERY_TARGET, headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", decoded)
        )
    assert error_of(response, 401) == SIGNATURE_PREFIX + "digest validation failed: signature digest mismatch"


def test_signing_the_path_only_like_the_official_sdk_fails_on_a_query(demo_server: DemoServer) -> None:
    path_only = QUERY_TARGET.split("?")[0]
    with raw(demo_server) as client:
        with_query = client.get(
            QUERY_TARGET, headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", path_only)
        )
        without_query = client.get(
            path_only, headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", path_only)
        )
    assert error_of(with_query, 401) == SIGNATURE_PREFIX + "digest validation failed: signature digest mismatch"
    assert without_query.status_code == 200, "path-only signing works only when there is no query"


def test_body_is_signed_as_sent(demo_server: DemoServer) -> None:
    with raw(demo_server) as client:
        bad = client.request(
            "GET",
            TAGS,
            content=b"{}",
            headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS, b""),
        )
        good = client.request(
            "GET",
            TAGS,
            content=b"{}",
            headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS, b"{}"),
        )
    assert error_of(bad, 401) == SIGNATURE_PREFIX + "digest validation failed: signature digest mismatch"
    assert good.status_code == 200


def test_method_is_signed(demo_server: DemoServer) -> None:
    with raw(demo_server) as client:
        response = client.get(TAGS, headers=sign_headers(demo_server.token_id, demo_server.token_key, "POST", TAGS))
    assert error_of(response, 401).endswith("signature digest mismatch")


def test_wrong_key_is_a_digest_mismatch(demo_server: DemoServer) -> None:
    with raw(demo_server) as client:
        response = client.get(TAGS, headers=sign_headers(demo_server.token_id, "not-the-key", "GET", TAGS))
    assert error_of(response, 401) == SIGNATURE_PREFIX + "digest validation failed: signature digest mismatch"


@pytest.mark.parametrize("scheme", ["bhesignature", "BHESIGNATURE", "BheSignature"])
def test_scheme_is_case_insensitive(demo_server: DemoServer, scheme: str) -> None:
    with raw(demo_server) as client:
        response = client.get(
            TAGS, headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS, scheme=scheme)
        )
    assert response.status_code == 200


def test_request_date_in_another_offset_is_accepted(demo_server: DemoServer) -> None:
    date = datetime.now(UTC).astimezone(__import__("datetime").timezone(timedelta(hours=5, minutes=30)))
    headers = sign_headers(
        demo_server.token_id, demo_server.token_key, "GET", TAGS, date=date.isoformat(timespec="seconds")
    )
    with raw(demo_server) as client:
        assert client.get(TAGS, headers=headers).status_code == 200


def test_no_auth_is_not_authenticated(demo_server: DemoServer) -> None:
    with raw(demo_server) as client:
        assert error_of(client.get(TAGS), 401) == "not authenticated"


@pytest.mark.parametrize("value", ["bhesignature", "Bearer", "bhesignature  two-spaces", "a b c"])
def test_authorization_must_have_two_components(demo_server: DemoServer, value: str) -> None:
    with raw(demo_server) as client:
        response = client.get(TAGS, headers={"Authorization": value})
    assert error_of(response, 400) == "Expected only two components for the Authorization header."


def test_unexpected_scheme(demo_server: DemoServer) -> None:
    with raw(demo_server) as client:
        response = client.get(TAGS, headers={"Authorization": "Basic dXNlcjpwYXNz"})
    assert error_of(response, 400) == "Unexpected authorization scheme: basic."


def test_token_id_must_be_a_uuid(demo_server: DemoServer) -> None:
    headers = sign_headers("not-a-uuid", demo_server.token_key, "GET", TAGS)
    with raw(demo_server) as client:
        assert error_of(client.get(TAGS, headers=headers), 400) == "Token ID is malformed."


def test_missing_request_date(demo_server: DemoServer) -> None:
    headers = sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS)
    del headers["RequestDate"]
    with raw(demo_server) as client:
        assert error_of(client.get(TAGS, headers=headers), 400) == SIGNATURE_PREFIX + "no request date header"


@pytest.mark.parametrize("date", ["2026-03-01T12:00:00", "yesterday", "2026-03-01 12:00:00Z", "2026-13-01T12:00:00Z"])
def test_malformed_request_date(demo_server: DemoServer, date: str) -> None:
    headers = sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS, date=date)
    with raw(demo_server) as client:
        message = error_of(client.get(TAGS, headers=headers), 400)
    assert message.startswith(SIGNATURE_PREFIX + "malformed request date: ")
    assert date in message


def test_missing_signature(demo_server: DemoServer) -> None:
    headers = sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS)
    del headers["Signature"]
    with raw(demo_server) as client:
        assert error_of(client.get(TAGS, headers=headers), 400) == SIGNATURE_PREFIX + "no signature header"


@pytest.mark.parametrize(("signature", "byte"), [("not base64!", 3), ("abc", 0), ("YWJjZA", 4), ("YWJj*GVm", 4)])
def test_malformed_signature(demo_server: DemoServer, signature: str, byte: int) -> None:
    headers = sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS)
    headers["Signature"] = signature
    with raw(demo_server) as client:
        message = error_of(client.get(TAGS, headers=headers), 400)
    assert message == SIGNATURE_PREFIX + f"malformed signature header: illegal base64 data at input byte {byte}"


def test_unknown_token_id(demo_server: DemoServer) -> None:
    headers = sign_headers(str(uuid.uuid4()), demo_server.token_key, "GET", TAGS)
    with raw(demo_server) as client:
        assert error_of(client.get(TAGS, headers=headers), 401) == SIGNATURE_PREFIX + "resource not found"


def test_disabled_user(demo_server: DemoServer) -> None:
    token = demo_server.credentials.disabled
    with raw(demo_server) as client:
        response = client.get(TAGS, headers=sign_headers(token.id, token.key, "GET", TAGS))
    assert error_of(response, 403) == SIGNATURE_PREFIX + "user disabled"


@pytest.mark.parametrize(("shift", "word"), [(timedelta(hours=2), "ahead"), (timedelta(hours=-3), "behind")])
def test_clock_skew_beyond_an_hour(demo_server: DemoServer, shift: timedelta, word: str) -> None:
    date = (datetime.now(UTC) + shift).isoformat(timespec="seconds")
    headers = sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS, date=date)
    with raw(demo_server) as client:
        message = error_of(client.get(TAGS, headers=headers), 401)
    assert message.startswith(SIGNATURE_PREFIX + f"signature too far {word} by ")
    assert " minutes. Server time is " in message and f"Client time is {date.replace('+00:00', 'Z')}" in message


@pytest.mark.parametrize("shift", [timedelta(minutes=50), timedelta(minutes=-50)])
def test_clock_skew_within_an_hour_is_accepted(demo_server: DemoServer, shift: timedelta) -> None:
    date = (datetime.now(UTC) + shift).isoformat(timespec="seconds")
    headers = sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS, date=date)
    with raw(demo_server) as client:
        assert client.get(TAGS, headers=headers).status_code == 200


def test_signature_auth_of_the_client_library_signs_queries_right(demo_server: DemoServer) -> None:
    with signed(demo_server) as client:
        response = client.get(
            "/api/v2/asset-group-tags/1/selectors", params=[("name", "~eq:Domain Admins"), ("limit", "2")]
        )
    assert response.status_code == 200, response.text


def test_bearer_jwt_is_accepted(demo_server: DemoServer) -> None:
    with raw(demo_server) as client:
        response = client.get(TAGS, headers={"Authorization": f"Bearer {demo_server.jwt}"})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "token",
    [
        "not.a.jwt",
        "garbage",
        mint_jwt("another-secret", "someone"),
        mint_jwt("x", "y", now=0),
    ],
    ids=["not-a-jwt", "garbage", "other-secret", "expired"],  # stable: pytest-xdist workers must collect the same ids
)
def test_invalid_bearer_jwt(demo_server: DemoServer, token: str) -> None:
    with raw(demo_server) as client:
        response = client.get(TAGS, headers={"Authorization": f"Bearer {token}"})
    assert error_of(response, 401) == "authentication is invalid"


def test_expired_and_tampered_jwt(demo_server: DemoServer) -> None:
    secret = demo_server.credentials.jwt_secret
    expired = mint_jwt(secret, demo_server.token_id, now=datetime.now(UTC).timestamp() - 8 * 86400)
    header, payload, signature = demo_server.jwt.split(".")
    tampered = f"{header}.{payload[:-2]}xx.{signature}"
    with raw(demo_server) as client:
        for token in (expired, tampered):
            response = client.get(TAGS, headers={"Authorization": f"Bearer {token}"})
            assert error_of(response, 401) == "authentication is invalid"


def test_read_only_token_reads_but_cannot_delete(fresh_demo_server: DemoServer) -> None:
    token = fresh_demo_server.credentials.read_only
    with httpx.Client(base_url=fresh_demo_server.base_url, auth=SignatureAuth(token.id, token.key)) as client:
        first = client.get("/api/v2/asset-group-tags/1/selectors", params={"limit": 1}).json()["data"]["selectors"][0]
        target = f"/api/v2/asset-group-tags/1/selectors/{first['id']}"
        assert client.get(target).status_code == 200
        assert error_of(client.delete(target), 403) == "not authorized"
        assert client.get(target).status_code == 200


def test_compute_signature_matches_the_public_vector() -> None:
    """Our signer agrees with the third-party vector the server checks against (sanity for every test above)."""
    signature = compute_signature(
        "test-key", "POST", "/api/v2/graphs/cypher", "2026-10-01T12:34:56+00:00", b'{"query":"MATCH (n) RETURN n"}'
    )
    assert signature == "BMTnQwJ3SP0y0ZzUvf8ja0n7npktA31BBkTNiVPP/u0="
