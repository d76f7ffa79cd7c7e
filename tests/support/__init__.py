"""Helpers shared by the unit, integration, snapshot and end-to-end tests (servers, apps, fixtures' parts).

Servers that misbehave over real loopback HTTP: `fault_proxy.FaultProxy` sits in front of the demo server and, by
rule, answers garbage (before or after the server acted), drops the answer after the server acted, drips it,
injects escapes into JSON strings and an HTML 502 title, and sends odd 429s; `bad_server.BadServer` plays
answers no server behind a proxy would (short or cut bodies, resets, huge lengths); `recording_server` records and
verifies what was signed.
"""
