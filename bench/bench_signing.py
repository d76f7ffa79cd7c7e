"""Cost of signing: the three-step HMAC chain and the full httpx auth flow, against one HMAC and an unsigned build."""

from __future__ import annotations

import hashlib
import hmac

import httpx

from bench.harness import Comparison, compare
from svctui.api.signing import SignatureAuth, compute_signature

KEY = "bench-key-bench-key-bench-key-00"
TARGET = "/api/v2/events?rrule=~eq:WEEKLY&sort_by=-id&skip=0&limit=100"


def run() -> list[Comparison]:
    """Chain vs single HMAC; signed request vs unsigned request build."""
    body = b""
    auth = SignatureAuth("0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", KEY, clock=lambda: "2026-11-22T12:00:00+00:00")

    def one_hmac() -> object:
        return hmac.new(KEY.encode(), ("GET" + TARGET).encode(), hashlib.sha256).digest()

    def chain() -> object:
        return compute_signature(KEY, "GET", TARGET, "2026-11-22T12:00:00+00:00", body)

    def build_unsigned() -> object:
        return httpx.Request("GET", "http://127.0.0.1:1" + TARGET)

    def build_signed() -> object:
        request = httpx.Request("GET", "http://127.0.0.1:1" + TARGET)
        flow = auth.auth_flow(request)
        return next(flow)

    return [
        compare(
            "sign-chain",
            "signature over a filtered GET",
            ("one HMAC-SHA-256", one_hmac),
            ("3-step chain", chain),
            inner=2000,
        ),
        compare(
            "sign-request",
            "build an httpx.Request, then sign it on its wire bytes",
            ("build request, unsigned", build_unsigned),
            ("build request + SignatureAuth", build_signed),
            inner=2000,
        ),
    ]
