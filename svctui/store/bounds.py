"""The settings' bounds, in a module that imports nothing: the command line's options check them at start-up."""

from __future__ import annotations

MAX_RECENT_CLIENTS = 10
MAX_RESPONSE_MB = 4096
MAX_REFRESH_SECONDS = 86400  # live refresh: at most once a day (0 = off)
MAX_HEALTH_HOURS = 24 * 366  # the Clients screen's windows: at most a year
