"""Helpers shared by the unit, integration, snapshot and end-to-end tests (servers, apps, fixtures' parts)."""
