"""The API's fixed facts, each in one place: page sizes, id bounds, task endpoints, deprecation notices, Prefer."""

from __future__ import annotations

from typing import Literal

MAX_PAGE_SIZE = 1000  # the largest page a list call asks for
DEFAULT_PAGE_SIZE = 500  # pages() and `--all` walk this many items a request unless told otherwise
INT32_MAX = 2**31 - 1  # path ids (tag, selector) are int32 on the server
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1  # the server parses skip, limit and integer filter values as int64

MAX_FILTER_VALUE = 2000  # characters of one filter value (an rrule is ~100): more is refused before sending
MAX_QUERY_CHARS = 8000  # characters of a request's query string (the demo answers 414 above 16 KiB of target)

TaskEndpoint = Literal["completed-tasks", "completed-jobs"]
TASK_ENDPOINTS: tuple[TaskEndpoint, ...] = ("completed-tasks", "completed-jobs")
DEPRECATED_TASK_ENDPOINT: TaskEndpoint = "completed-tasks"
REPLACEMENT_TASK_ENDPOINT: TaskEndpoint = "completed-jobs"

# The deprecation notice: one sentence, in every face's words around it (each names the replacement in its how-to-
# switch hint, which keeps the dashboard's notice one line at 80 columns): the client reports it once a session, the
# CLI renders that report on stderr, the dashboard shows it in a bar.
_OLD, _NEW = DEPRECATED_TASK_ENDPOINT, REPLACEMENT_TASK_ENDPOINT
TASKS_DEPRECATION = f"{_OLD} is deprecated (to be removed)"
COMPLETED_TASKS_NOTICE = f'{TASKS_DEPRECATION}: its replacement is {_NEW}, ListQuery(endpoint="{_NEW}")'
CLI_DEPRECATION_NOTE = f"note: {TASKS_DEPRECATION}; use --endpoint {_NEW} where the server has it"
DASHBOARD_DEPRECATION_NOTICE = f"⚠ {TASKS_DEPRECATION}: e switches to {_NEW}"

DEFAULT_PREFER_WAIT = 30  # seconds; the server's own default timeout (spec section 8)
# BloodHound's ContextMiddleware (cmd/api/src/api/middleware, RequestWaitDuration) parses `wait` with strconv.Atoi
# and sets any N > 0 as the request timeout: current servers have no upper bound (-1 bypasses it where enabled).
# Releases of 2023 capped it at `maximumTimeout = time.Minute` and silently fell back to 30 s above that.
# With no server bound to mirror, one client-side cap applies to the client and the stored profiles alike: an hour.
# The server applies N > 0 (and -1 where enabled); wait=0 asks for nothing: REAL-SERVER.md says send N >= 1.
MAX_PREFER_WAIT = 3600
PREFER_WAIT_RULE = f"1..{MAX_PREFER_WAIT} seconds, or -1 for no limit"


def prefer_wait_allowed(seconds: int) -> bool:
    """Whether `seconds` is a Prefer: wait the client sends (PREFER_WAIT_RULE): the client's and the profiles' rule."""
    return seconds == -1 or 1 <= seconds <= MAX_PREFER_WAIT
