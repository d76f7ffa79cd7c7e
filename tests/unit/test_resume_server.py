"""Which server a run was made on (svctui.ops.resume.same_server): resume and restore refuse another server."""

from __future__ import annotations

import pytest

from svctui.ops.resume import same_server

TOKEN = "0f1e2d3c-4b5a-4697-8877-665544332211"


@pytest.mark.parametrize(
    ("planned", "planned_token", "server", "token_id", "same"),
    [
        ("https://bh.example.com/", TOKEN, "https://bh.example.com", TOKEN, True),  # a trailing slash is no matter
        ("https://bh.example.com", TOKEN, "https://bh.example.com", None, True),  # a bearer profile, same URL
        ("https://bh.example.com", TOKEN, "https://other.example.com", TOKEN, False),  # the token id is not enough
        ("http://127.0.0.1:47361", TOKEN, "http://127.0.0.1:40179", TOKEN, True),  # --demo on another port
        ("http://127.0.0.1:47361", TOKEN, "http://localhost:8443", TOKEN, True),  # a tunnel, named otherwise
        ("http://[::1]:8443", TOKEN, "http://127.0.0.1:9443", TOKEN, True),
        ("http://127.0.0.1:47361", TOKEN, "http://127.0.0.1:40179", "another-token", False),
        ("http://127.0.0.1:47361", None, "http://127.0.0.1:40179", None, False),  # no token to tell by
        ("http://127.0.0.1:47361", TOKEN, "https://bh.example.com", TOKEN, False),  # loopback on one side only
        ("http://10.0.0.1:8080", TOKEN, "http://10.0.0.1:8081", TOKEN, False),  # not loopback: another server
    ],
)
def test_same_server(planned: str, planned_token: str | None, server: str, token_id: str | None, same: bool) -> None:
    assert same_server(planned, planned_token, server, token_id) is same
