"""The `Clock` type: what the dashboard and its widgets call for "now" (an aware datetime; tests pass a fixed one)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

Clock = Callable[[], datetime]
