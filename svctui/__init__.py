"""svctui: a terminal dashboard for the BloodHound v2 API (collection schedules, task triage, selectors)."""

__version__ = "0.1.0"
