"""What the review, the run and the resume need to know of the session: words for it, read-only, audit context."""

from __future__ import annotations

from svctui.api.client import ApiClient
from svctui.ops.selector_delete import AuditContext
from svctui.store.read_only import read_only_reason
from svctui.tui.app import SvcTuiApp
from svctui.tui.screens.selectors.plan import CleanupPlan

# The command line's default (`selectors delete --concurrency`, default 4); tests/unit/test_selectors_run_units.py
# checks the two agree.
DEFAULT_CONCURRENCY = 4


def plan_ids(plan: CleanupPlan) -> list[int]:
    """Every id the plan would delete: the marked selectors, then the ids the tag's list did not have."""
    return list(dict.fromkeys([*(selector.id for selector in plan.selectors), *plan.unknown_ids]))


def profile_name(app: SvcTuiApp) -> str:
    """The profile's name, or '(none)'."""
    return app.profile.name if app.profile is not None else "(none)"


def server_words(app: SvcTuiApp) -> str:
    """The server as the header names it (e.g. `demo server`), else its URL."""
    url = app.profile.base_url if app.profile is not None else "(no server)"
    return app.server_label or url


def read_only_why(app: SvcTuiApp) -> str | None:
    """Why destructive actions are hidden in this session, or None."""
    return read_only_reason(app.profile, app.read_only_flag)


def guard_quit(holder: object, app: SvcTuiApp, what: str | None) -> None:
    """While `what` (a deletion or restore) runs, quitting the app is refused with a message naming it; None lifts
    the refusal. The screens that run destructive jobs call this when they start, finish and unmount."""
    reason = (
        None if what is None else f"{what} is going: esc cancels it first (quitting now would leave it unfinished)."
    )
    app.refuse_quit_while(holder, reason)


def audit_context(app: SvcTuiApp, client: ApiClient) -> AuditContext:
    """Who deletes against which server, as the command line writes it (profile name and token id, never a secret)."""
    profile = app.profile
    if profile is None:
        raise RuntimeError("no profile is configured")
    return AuditContext.of(profile.name, profile.token_id, client.base_url)


def tag_words(plan: CleanupPlan) -> str:
    """`tag 1 'Tier Zero' (tier)` (no kind when the tag is known by id and name only)."""
    tag = plan.tag
    kind = f" ({tag.type_label})" if tag.type else ""
    return f"tag {tag.id} {tag.name!r}{kind}" if tag.name else f"tag {tag.id}"
