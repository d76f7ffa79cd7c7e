"""What happened to one selector in a deletion run, and how an error of the API client maps to it.

Only a real answer of the API is an outcome. NO_ANSWER (in doubt: the selector may or may not be gone) is a request
sent but not answered (reset, deadline, answer cut short, no connection); a 2xx whose body is not the API's or an
answer over the size cap; a 5xx that is not the API's error (a proxy's page); and a 404 `resource not found` to a
request sent again after an earlier attempt the server may have done (that attempt may be what removed it).
Only the API's own error envelope settles an id without a deletion: a 404 whose message is `resource not found`
(already gone) or `... not part of ...` (not in the tag); any other 404 (a proxy's page, another message) is FAILED.
Anything unexpected is FAILED with its message.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from svctui.api.errors import (
    ApiConnectionError,
    ApiError,
    ApiStatusError,
    NoEnvironmentAccess,
    ResponseShapeError,
    shorten,
)

# 400s that are about the credentials, not the request: the signature prefix every signing failure carries, and
# the header problems (a wrong scheme prefix, a malformed Authorization header) even when a server leaves it out.
AUTH_FAILURE_MARKERS = ("unable to validate request signature", "authorization scheme", "authorization header")
# The API's whole message for an unknown selector (or tag): the one 404 that settles an id as "already gone".
GONE_MESSAGE = "resource not found"


class Outcome(StrEnum):
    """What happened to one selector id (the `outcome` values of docs/AUDIT.md)."""

    DELETED = "deleted"
    ALREADY_GONE = "already gone"
    REFUSED_DEFAULT = "refused: default selector"
    NOT_IN_TAG = "not part of tag"
    AUTH_FAILED = "failed: authentication"
    FAILED = "failed"
    NO_ANSWER = "no answer"
    SKIPPED = "skipped"


class Stopped(StrEnum):
    """Why a run stopped before trying every id (the end line's `stopped`)."""

    CANCELLED = "cancelled"
    AUTH_FAILED = "authentication failed"
    AUDIT_NOT_WRITABLE = "audit log not writable"
    UNREACHABLE = "server unreachable"


@dataclass(frozen=True, kw_only=True)
class Answer:
    """What the server said to one request of a run: status, request id, message (no status: no answer)."""

    status: int | None = None
    request_id: str | None = None
    message: str = ""


@dataclass(frozen=True)
class DeleteResult(Answer):
    """The outcome of one selector id (or of not attempting it); `name` comes from the tag's list."""

    selector_id: int
    outcome: Outcome
    name: str = field(default="", kw_only=True)
    # in doubt although something answered (a 2xx not the API's, a proxy's 5xx, a 404 to a request sent again):
    # the server is reachable, so it does not count towards stopping the run as unreachable
    answered: bool = field(default=False, kw_only=True)

    @property
    def ok(self) -> bool:
        """True when the selector is gone now (deleted, or was already)."""
        return self.outcome in (Outcome.DELETED, Outcome.ALREADY_GONE)


@dataclass
class DeleteReport:
    """All results of a run in the order the ids were given, the run's id, and why it stopped (if it did)."""

    run_id: str
    results: list[DeleteResult] = field(default_factory=list)
    stopped: Stopped | None = None
    audit_error: str | None = None  # the audit log's failure, naming the log and the reason
    unlogged: frozenset[int] = frozenset()  # ids whose outcome line could not be written: the log has them in doubt
    planned: bool = True  # False when the plan line never reached the log: the run is not in it (nothing was sent)

    def unsettled(self) -> int:
        """How many ids a resume would take up: not settled here (no answer, failed, skipped), or settled here but
        with no outcome line in the log (the resume reads the log)."""
        from svctui.store.audit_read import SETTLED_OUTCOMES  # the rule the resume reads the log by

        return sum(
            1
            for result in self.results
            if result.outcome not in SETTLED_OUTCOMES or result.selector_id in self.unlogged
        )

    @property
    def counts(self) -> Counter[Outcome]:
        """How many ids ended in each outcome."""
        return Counter(result.outcome for result in self.results)

    def summary(self) -> str:
        """One line such as `3 deleted, 1 already gone, 1 failed`."""
        counts = self.counts
        parts = [f"{counts[outcome]} {outcome}" for outcome in Outcome if counts[outcome]]
        return ", ".join(parts) or "nothing to do"


def one_line(text: str) -> str:
    """`text` on one line (its lines joined by `; `), at most ~300 characters."""
    return shorten("; ".join(part.strip() for part in text.splitlines() if part.strip()))


def is_no_access(exc: BaseException) -> bool:
    """True for the ETAC 403 (`user does not have access to this resource`): this user may not read selectors here;
    the credentials work (DELETE and POST are not gated)."""
    return isinstance(exc, NoEnvironmentAccess)


def is_auth_failure(exc: ApiError) -> bool:
    """True for errors that mean the credentials (not this selector) are the problem (not the ETAC 403)."""
    if not isinstance(exc, ApiStatusError) or is_no_access(exc):
        return False
    text = " ".join(exc.messages).lower()
    if exc.status == 401:
        return True
    if exc.status == 403:
        return "default selector" not in text
    return exc.status == 400 and any(marker in text for marker in AUTH_FAILURE_MARKERS)


def is_server_trouble(exc: ApiError) -> bool:
    """True when the server could not be reached, or failed (5xx) or kept limiting (429) after the retries."""
    if isinstance(exc, ApiConnectionError):
        return True
    return isinstance(exc, ApiStatusError) and (exc.status >= 500 or exc.status == 429)


def classify(selector_id: int, exc: ApiError) -> DeleteResult:
    """Map an API error from DELETE (or the GET that re-checks a selector) to the outcome a person should read."""
    if isinstance(exc, ApiConnectionError):  # sent (maybe) and never answered: nobody knows whether it happened
        return DeleteResult(
            selector_id,
            Outcome.NO_ANSWER,
            status=getattr(exc, "status", None),
            request_id=None,
            message=one_line(str(exc)),
        )
    if not isinstance(exc, ApiStatusError):  # a 2xx not in the API's shape, an answer over the size cap
        status = exc.status or None if isinstance(exc, ResponseShapeError) else None
        message = f"answered, but not by the API as it answers: whether it was done is not known ({exc.user_message()})"
        return DeleteResult(
            selector_id, Outcome.NO_ANSWER, status=status, request_id=None, message=one_line(message), answered=True
        )
    text = " ".join(exc.messages).lower()
    message = "; ".join(exc.messages)
    outcome = Outcome.FAILED
    if exc.status >= 500 and not exc.from_api:  # a proxy's page: the server behind it may have done it
        outcome = Outcome.NO_ANSWER
        message = one_line(f"not answered by the API (a proxy?): whether it was done is not known ({exc})")
    elif exc.status == 404 and exc.after_lost_answer:  # gone now: maybe by this very request's earlier attempt
        outcome = Outcome.NO_ANSWER
        message = one_line(
            f"gone when sent again, after an attempt the server may have done got no answer: this request may "
            f"have done it ({message or exc})"
        )
    elif is_auth_failure(exc):
        outcome = Outcome.AUTH_FAILED
        message = one_line(exc.user_message())
    elif exc.status == 404 and exc.from_api and "not part of" in text:  # settled: only the API's own word does it
        outcome = Outcome.NOT_IN_TAG
    elif exc.status == 404 and exc.from_api and any(m.strip().lower() == GONE_MESSAGE for m in exc.messages):
        outcome = Outcome.ALREADY_GONE
    elif exc.status == 403 and "default selector" in text:
        outcome = Outcome.REFUSED_DEFAULT
    else:
        message = one_line(exc.user_message())
    answered = outcome is Outcome.NO_ANSWER  # a status came back, yet the request is in doubt
    return DeleteResult(
        selector_id, outcome, status=exc.status, request_id=exc.request_id, message=message, answered=answered
    )


def unexpected(selector_id: int, exc: BaseException) -> DeleteResult:
    """Anything that is not an ApiError (a bug, an odd library error): FAILED with what it said, never a crash."""
    return DeleteResult(
        selector_id, Outcome.FAILED, status=None, request_id=None, message=one_line(f"{type(exc).__name__}: {exc}")
    )
