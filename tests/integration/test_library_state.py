"""Issue 27: svctui.api used as a library changes no process-wide state (tests/support/process_state.py lists what is
compared); runtime tuning is the program's, once at launch (svctui/startup.py)."""

from __future__ import annotations

import os

from svctui.demo.server import DemoServer
from tests.support.process_state import run_probe


def test_svctui_api_used_as_a_library_changes_no_process_wide_state(demo_server: DemoServer) -> None:
    """A program that imports svctui.api and reads pages with an ApiClient (docs/CLIENT.md), over loopback to the
    demo server, finds its process-wide state as it was (a fresh interpreter, so nothing before it is counted)."""
    code = (
        "before = state()\nimport asyncio, os\nfrom svctui.api.client import ApiClient\n"
        "from svctui.api.signing import SignatureAuth\n"
        "from svctui.api.query import ListQuery\n"
        "async def use():\n"
        "    auth = SignatureAuth(os.environ['PROBE_TOKEN_ID'], os.environ['PROBE_TOKEN_KEY'])\n"
        "    async with ApiClient(os.environ['PROBE_BASE_URL'], auth) as client:\n"
        "        return len((await client.events.list(ListQuery(limit=200))).data)\n"
        "rows = asyncio.run(use())\n"
        "print(rows, changed(before, state()))"
    )
    env = {
        **os.environ,
        "PROBE_BASE_URL": demo_server.base_url,
        "PROBE_TOKEN_ID": demo_server.token_id,
        "PROBE_TOKEN_KEY": demo_server.token_key,
    }
    # the probe's own environment variables are in `before` too: any change to them would show
    assert run_probe(code, env=env) == "200 {}"
