"""Number types of the command line's options: ASCII digits only, and a float that is a finite number.

Kept apart from svctui.commands.common so that the root group (`svctui --refresh N`) can use them without loading
svctui.api: `svctui --help` and the dashboard's first frame import no more than click.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import click

ASCII_SPACE = " \t\r\n\f\v"  # as svctui.api.ascii: str.strip() would also take U+001C or U+3000 for spaces


def _quoted(text: str) -> str:
    """The input quoted for a message (svctui.api.quoting, loaded on an error only)."""
    from svctui.api.quoting import quote_input

    return quote_input(text)


ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")
MAX_DIGITS = 19  # any longer number is out of every range here (and click would quote it whole)
NO_REAL_MAXIMUM = 2**62  # a maximum this large is the integer's, not the option's: --help and errors leave it out


class AsciiInt(click.IntRange):
    """An integer option (optionally bounded) written with the digits 0-9 only: `int()` would also read
    full-width or Arabic-Indic digits, which no one types into a limit on purpose."""

    name = "integer"

    def _describe_range(self) -> str:
        """The bounds for --help and errors; nothing for an unbounded integer (click would print `x<=None`), and no
        maximum when it is only the 64-bit one (`x>=1`, not `1<=x<=9223372036854775807`)."""
        if self.min is None and self.max is None:
            return ""
        if self.min is not None and self.max is not None and self.max >= NO_REAL_MAXIMUM:
            return f"x>={self.min}"
        return super()._describe_range()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """Refuse anything but ASCII digits (and a sign), then check the bounds (`--limit must be 1 or more`)."""
        if isinstance(value, str):
            value = value.strip(ASCII_SPACE)  # int() would also drop U+001C or U+3000 around the digits
        if isinstance(value, str) and not ASCII_INTEGER.fullmatch(value):
            self.fail(f"{_quoted(value)} is not an integer (digits 0-9)", param, ctx)
        if isinstance(value, str) and len(value.lstrip("+-")) > MAX_DIGITS:
            bounded = self.min is not None or self.max is not None
            allowed = self._describe_range() if bounded else f"at most {MAX_DIGITS} digits"
            self.fail(f"{_quoted(value)} is out of range ({allowed})", param, ctx)
        if isinstance(value, str) and self.min is not None and int(value) < self.min and not self.min_open:
            name = param.opts[0] if param is not None and param.opts else "the value"
            self.fail(f"{int(value)} is too small: {name} must be {self.min} or more", param, ctx)
        return super().convert(value, param, ctx)


class FiniteFloat(click.FloatRange):
    """A number option within bounds, and a number at all: click's FloatRange lets `nan` through (every comparison
    with it is false), and `float()` would also read `0.5` followed by U+001C, or full-width digits."""

    def _describe_range(self) -> str:
        """The bounds for --help and errors; nothing when unbounded (click would print `x<=None`)."""
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """Refuse nan, infinities and anything but ASCII digits (a sign, a point, an exponent), then the bounds."""
        if isinstance(value, str) and not ASCII_DECIMAL.fullmatch(value.strip(ASCII_SPACE)):
            self.fail(f"{_quoted(value)} is not a number (digits 0-9, e.g. 0.2)", param, ctx)
        given: Any = value.strip(ASCII_SPACE) if isinstance(value, str) else value
        converted: float = super().convert(given, param, ctx)
        if not math.isfinite(converted):
            self.fail(f"{_quoted(str(value))} is not a finite number", param, ctx)
        return converted


ASCII_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")


NEGATIVE_NUMBER = re.compile(r"-[0-9]+")


class NegativeIdsCommand(click.Command):
    """A command with an id argument typed negative (`tasks log -5`), which click took for an unknown option (`No such
    option '-5'`): the command's own check of the argument (`check_negative`, exits 2) says what an id must be."""

    def __init__(self, *args: Any, check_negative: Callable[[str], object], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.check_negative = check_negative

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Click's parsing; a negative number it took for an option goes to `check_negative`."""
        given: Sequence[str] = list(args)  # the parser consumes `args`
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            name = exc.option_name or "-"
            token = next((arg for arg in given if NEGATIVE_NUMBER.fullmatch(arg) and arg.startswith(name)), None)
            if token is None:
                raise
            self.check_negative(token)
            raise
