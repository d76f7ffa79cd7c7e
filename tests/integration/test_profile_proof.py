"""Issue 25: `svctui profile test` proves the credentials on an endpoint both editions authenticate.

It used to ask only `GET /api/v2/events`, which a community server answers with the router's plain-text 404 before
authentication: a wrong key or an unknown token said "ok, community edition", exit 0, and so did anything at all that
answers `404 page not found`. Now `GET /api/v2/asset-group-tags` (authenticated by both editions) comes first.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from svctui.demo.server import DemoServer
from tests.support.bad_server import BadServer, answer
from tests.support.cli import add_profile
from tests.support.cli import run_cli as run

WRONG_KEY = "V3Jvbmcta2V5LWZvci10aGUtZGVtby1zZXJ2ZXI="
ROUTER_404 = answer(404, "404 page not found", content_type="text/plain; charset=utf-8")


@pytest.fixture
def router_404() -> Iterator[BadServer]:
    """A server that answers every request with Go's plain-text `404 page not found` (not the API at all)."""
    with BadServer(ROUTER_404) as running:
        yield running


def test_a_wrong_key_on_a_community_server_fails_with_exit_3(demo_server_community: DemoServer) -> None:
    demo = demo_server_community
    assert add_profile("ce", demo.base_url, demo.token_id, WRONG_KEY).exit_code == 0
    result = run("profile", "test", "ce")
    assert result.exit_code == 3, result.output
    assert "ok:" not in result.stdout
    assert "digest validation failed" in result.stderr and "hint: check the token key" in result.stderr


def test_an_unknown_token_on_a_community_server_fails_with_exit_3(demo_server_community: DemoServer) -> None:
    demo = demo_server_community
    stranger = str(uuid.UUID(int=7))
    assert add_profile("ce", demo.base_url, stranger, demo.token_key).exit_code == 0
    result = run("profile", "test", "ce")
    assert result.exit_code == 3, result.output
    assert f"hint: check the token id: the server does not know token {stranger}" in result.stderr


def test_the_right_key_on_a_community_server_is_ok(demo_server_community: DemoServer) -> None:
    demo = demo_server_community
    assert add_profile("ce", demo.base_url, demo.token_id, demo.token_key).exit_code == 0
    result = run("profile", "test", "ce")
    assert result.exit_code == 0, result.output
    assert "community edition" in result.stdout


def test_a_server_that_answers_404_page_not_found_to_everything_is_not_the_api(router_404: BadServer) -> None:
    assert add_profile("nope", router_404.base_url, str(uuid.UUID(int=9)), WRONG_KEY).exit_code == 0
    result = run("profile", "test", "nope")
    assert result.exit_code == 4, result.output
    assert "ok:" not in result.stdout
    assert "not the BloodHound v2 API" in result.stderr
    assert f"hint: check the URL: {router_404.base_url}" in result.stderr


def _envelope_401(message: str) -> BadServer:
    body = {"http_status": 401, "request_id": "f0rg3d", "errors": [{"context": "", "message": message}]}
    return BadServer(answer(401, body))


def test_a_forged_401_never_gives_a_signature_profile_the_jwt_hint() -> None:
    """A 401 `authentication is invalid` (the bearer message: a proxy's, or forged) to a signed profile."""
    with _envelope_401("authentication is invalid") as forged:
        assert add_profile("signed", forged.base_url, str(uuid.UUID(int=9)), WRONG_KEY).exit_code == 0
        result = run("profile", "test", "signed")
    assert result.exit_code == 3, result.output
    hint = result.stderr.split("hint: ", 1)[1]
    assert "JWT" not in hint and "token id and key" in hint, hint


def test_a_signature_401_never_gives_a_bearer_profile_the_key_hint() -> None:
    message = "unable to validate request signature for client: digest validation failed: signature digest mismatch"
    with _envelope_401(message) as forged:
        added = run("profile", "add", "jwt", "--base-url", forged.base_url, "--bearer", "--secret-stdin", stdin="a.b.c")
        assert added.exit_code == 0, added.output
        result = run("profile", "test", "jwt")
    assert result.exit_code == 3, result.output
    hint = result.stderr.split("hint: ", 1)[1]
    assert "token key" not in hint and "token id" not in hint and "JWT" in hint, hint
