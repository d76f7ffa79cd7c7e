"""What a test does differently under `make mutate` (mutmut), where it runs once for every mutant it reaches."""

from __future__ import annotations

import os

# mutmut sets this before pytest imports anything (and keeps it set in every worker); nothing else does
UNDER_MUTMUT = "MUTANT_UNDER_TEST" in os.environ


def examples(full: int) -> int:
    """How many examples a property test tries: `full`, or a tenth of them (at least 50) under mutmut, where the
    hypothesis test of the filter grammar (1,500 examples, 15 s on a loaded machine) would otherwise run for every
    surviving mutant of api/filters.py and take most of the run's 30 minutes."""
    return max(50, full // 10) if UNDER_MUTMUT else full
