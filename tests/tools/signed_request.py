#!/usr/bin/env python3
"""curl-style signed request to the v2 API, stdlib only and independent of svctui's own signing code.

Usage:
  signed_request.py [-X METHOD] [-d BODY] [-H 'Name: value']... [-i] [--fail] [--token-id ID] [--key-stdin] URL

The token id comes from --token-id or SVCTUI_TOKEN_ID; the key from standard input with --key-stdin, else from
SVCTUI_TOKEN_KEY (never from an argument). The request target is signed exactly as it goes on the wire: the URL's
path plus `?` and its query, percent-encoding untouched (so percent-encode spaces yourself).
Prints `HTTP <status>`, the response headers with -i, then the body. With --fail, exits 1 on a status >= 400.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import os
import sys
import urllib.error
import urllib.request
from datetime import UTC, datetime
from urllib.parse import urlsplit


def signature(key: str, method: str, target: str, request_date: str, body: bytes) -> str:
    """The chained HMAC-SHA-256 of the API document, section 5.2."""
    first = hmac.new(key.encode("utf-8"), f"{method}{target}".encode(), hashlib.sha256).digest()
    second = hmac.new(first, request_date[:13].encode(), hashlib.sha256).digest()
    return base64.b64encode(hmac.new(second, body, hashlib.sha256).digest()).decode("ascii")


def request_target(url: str) -> str:
    """Path plus `?query` exactly as written in the URL."""
    parts = urlsplit(url)
    return f"{parts.path or '/'}?{parts.query}" if parts.query else parts.path or "/"


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, sign, send, print."""
    parser = argparse.ArgumentParser(description="Send a signed request to the v2 API (curl-style).")
    parser.add_argument("url")
    parser.add_argument("-X", "--request", dest="method", default="GET")
    parser.add_argument("-d", "--data", default="", help="request body (sent as application/json)")
    parser.add_argument("-H", "--header", action="append", default=[], help="extra header 'Name: value'")
    parser.add_argument("-i", "--include", action="store_true", help="print the response headers")
    parser.add_argument("--fail", action="store_true", help="exit 1 when the status is 400 or more")
    parser.add_argument("--token-id", default=os.environ.get("SVCTUI_TOKEN_ID", ""))
    parser.add_argument("--key-stdin", action="store_true", help="read the token key from standard input")
    parser.add_argument("--scheme", default="bhesignature")
    args = parser.parse_args(argv)
    key = sys.stdin.readline().strip() if args.key_stdin else os.environ.get("SVCTUI_TOKEN_KEY", "")
    if not args.token_id or not key:
        parser.error(
            "a token id (--token-id or SVCTUI_TOKEN_ID) and a key (--key-stdin or SVCTUI_TOKEN_KEY) are needed"
        )
    method = args.method.upper()
    body = args.data.encode("utf-8")
    request_date = datetime.now(UTC).isoformat(timespec="seconds")
    headers = {
        "Authorization": f"{args.scheme} {args.token_id}",
        "RequestDate": request_date,
        "Signature": signature(key, method, request_target(args.url), request_date, body),
        "User-Agent": "signed_request.py",
    }
    if body:
        headers["Content-Type"] = "application/json"
    for header in args.header:
        name, _, value = header.partition(":")
        headers[name.strip()] = value.strip()
    request = urllib.request.Request(args.url, data=body or None, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, reply_headers, content = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, reply_headers, content = error.code, error.headers, error.read()
    print(f"HTTP {status}")
    if args.include:
        for name, value in reply_headers.items():
            print(f"{name}: {value}")
        print()
    sys.stdout.write(content.decode("utf-8", "replace"))
    sys.stdout.flush()
    return 1 if args.fail and status >= 400 else 0


if __name__ == "__main__":
    sys.exit(main())
