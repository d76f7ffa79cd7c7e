"""Facts of paging shared by the client's page iterator (svctui.api.resources) and the early requests
(svctui.api.early), stdlib only: how far ahead pages are requested and the count read from a page's first bytes."""

from __future__ import annotations

import re

AHEAD = 2  # requests kept on their way while the caller handles a page
LEADING_COUNT = re.compile(rb"\A\s*\{\s*\"count\"\s*:\s*(\d{1,10})\s*[,}]")  # the envelope as servers send it


def leading_count(content: bytes) -> int | None:
    """The `count` of a page envelope that starts with it (as the API's does), read without parsing the page."""
    found = LEADING_COUNT.match(content)
    return int(found.group(1)) if found else None
