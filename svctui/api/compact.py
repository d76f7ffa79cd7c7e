"""Make validated models cheaper to keep: share what every model of the same shape repeats.

pydantic gives each model instance its own `__pydantic_fields_set__`, a set of the 20 to 27 field names the server
sent: ~2.2 KB for a task and as much for each of its domain results, about half of what a kept task costs
(~9 KB). Models validated from the same server carry the same names, so `share_repeats` swaps each set for one
shared copy (a `SharedFieldNames`; copying one, as `model_copy` does, gives a plain set again), and
interns the short strings repeated across records (client id and name, domain names, SIDs, messages).

Kept models are only read: setting a field the server did not send on a shared model raises TypeError (the
shared set cannot be added to) rather than changing every other model's set; setting one it sent works as before.
Call it on records you keep, not on ones you edit.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import BaseModel

SHARED_LIMIT = 256  # distinct field-name sets kept; past this a model keeps its own set (odd servers, many shapes)
INTERN_MAX_CHARS = 128  # longer strings (messages, paths) are rarely repeated byte for byte


class SharedFieldNames(set[str]):
    """The field names of a model, shared by every model with the same names: adding a name already in it is a
    no-op (setting a field the server sent), any other change raises TypeError; a copy is a plain set.

    A set, not a frozenset: pydantic-core's serializer (`exclude_unset`) only takes a set."""

    __slots__ = ()

    def _refuse(self, *_: object) -> None:
        raise TypeError("the field names of a shared model cannot change (svctui.api.compact)")

    def add(self, name: str) -> None:
        """A no-op for a name already in the set; any other name raises TypeError."""
        if name not in self:
            self._refuse()

    def update(self, *others: Iterable[str]) -> None:
        """A no-op when every name is in the set already; otherwise TypeError."""
        if any(name not in self for other in others for name in other):
            self._refuse()

    discard = remove = pop = clear = difference_update = intersection_update = _refuse  # type: ignore[assignment]
    symmetric_difference_update = __ior__ = __iand__ = __isub__ = __ixor__ = _refuse  # type: ignore[assignment]

    def __copy__(self) -> set[str]:
        return set(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> set[str]:
        return set(self)

    def __reduce__(self) -> tuple[type[set[str]], tuple[list[str]]]:
        return set, (list(self),)


_shared: dict[frozenset[str], SharedFieldNames] = {}
_SCALARS: frozenset[type] = frozenset({int, bool, float, type(None), datetime})  # never models: not checked
_model_types: set[type] = set()  # the model classes seen (isinstance on a pydantic class is slow-ish)


def _make_shared(names: frozenset[str]) -> SharedFieldNames:
    shared = SharedFieldNames()
    set.update(shared, names)  # past the guard: filled once, before anyone shares it
    return shared


def shared_names(names: Iterable[str]) -> SharedFieldNames | None:
    """The shared copy of `names` (made on first sight), or None when SHARED_LIMIT sets are shared already."""
    key = frozenset(names)
    shared = _shared.get(key)
    if shared is None and len(_shared) < SHARED_LIMIT:
        shared = _shared.setdefault(key, _make_shared(key))
    return shared


def share_repeats(models: Iterable[BaseModel]) -> None:
    """Share the field-name sets and intern the short strings of `models` and of the models in their fields."""
    for model in models:
        _share(model)


def _share(model: BaseModel) -> None:
    names: object = model.__pydantic_fields_set__
    if isinstance(names, set) and not isinstance(names, SharedFieldNames):
        shared = shared_names(names)
        if shared is not None:
            object.__setattr__(model, "__pydantic_fields_set__", shared)
    values = model.__dict__
    for name, value in values.items():
        kind = type(value)
        if kind is str:
            if len(value) <= INTERN_MAX_CHARS:
                values[name] = sys.intern(value)
        elif kind is list:
            for item in value:
                if type(item) in _model_types or _is_model(item):
                    _share(item)
        elif kind in _model_types or (kind not in _SCALARS and _is_model(value)):
            _share(value)


def _is_model(value: object) -> bool:
    if isinstance(value, BaseModel):
        _model_types.add(type(value))
        return True
    return False
