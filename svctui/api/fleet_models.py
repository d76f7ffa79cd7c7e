"""The fleet's slim read of completed runs: only what judging a client's health reads, and what that is.

A health round validates ~30,000 runs (jobs/finished in pages of 1,000, and the own histories of the clients that
need one). `CompletedTask` validates every field: the targets, the log path, five times a domain result, ... and
keeps unknown ones; `FleetRun` reads the id, client, status and message, the times, the collection flags and each
domain result's name, success and counts, and drops the rest unread: a page of 1,000 runs in ~10 ms of CPU instead of
~22, and objects a third the size. The values it keeps are read exactly as `CompletedTask` reads them (the same
nullable times; a null where the field has a default takes the default), so a client's verdict is the same from
either (tests/integration/test_fleet_slim_read.py). The tasks screen and the CLI keep reading `CompletedTask`.

`Run` and `RunResult` are what the judging code (svctui.triage, svctui.fleet_runs) reads of a run and of a domain
result by attribute: both models fit them. The flags and the counts are read by name instead (`FLAG_NAMES`,
`COUNT_NAMES` through `operator.attrgetter`: `models.flag_marks`, `triage.summary.count_values`). The slim models'
fields are those names: `FleetRun` and `FleetResult` are built from `CompletedTask` and `DomainResult` (their
types, validators and defaults, in their order) for the names the protocols declare and the names read by name, so
each field is written once, in svctui.api.models, and the typed view once, here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, create_model
from pydantic.fields import FieldInfo
from pydantic_core import CoreSchema, core_schema

from svctui.api.fields import COUNT_NAMES, FLAG_NAMES
from svctui.api.models import NULL_ACCEPTED, CompletedTask, DomainResult


class RunResult(Protocol):
    """What judging reads of a domain result by attribute: its domain and whether it succeeded (its counts are read
    by name, `COUNT_NAMES` through `operator.attrgetter`)."""

    domain_name: str
    success: bool


class Run(Protocol):
    """What judging reads of a completed run by attribute (`CompletedTask` and `FleetRun` both fit; its collection
    flags are read by name, `FLAG_NAMES` through `operator.attrgetter`)."""

    id: int
    client_id: str
    client_name: str
    event_id: int | None
    status: int
    status_message: str
    execution_time: datetime | None
    start_time: datetime | None
    end_time: datetime | None
    created_at: datetime | None
    updated_at: datetime | None

    @property
    def domain_results(self) -> Sequence[RunResult]:  # a property: read-only, so either model's list fits
        """The run's domain results."""


class _OrDefault:
    """Field metadata: a null takes the field's default, in the validator itself (no Python call for a value that
    is not null: `ApiModel`'s after-validator is one call an object, half the time of a slim page)."""

    def __init__(self, default: Callable[[], Any]) -> None:
        self.default = default

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        default = self.default
        null = core_schema.chain_schema(
            [core_schema.none_schema(), core_schema.no_info_plain_validator_function(lambda _null: default())]
        )
        return core_schema.union_schema([handler(source), null], mode="left_to_right")


class _Slim(BaseModel):
    """Unknown and unneeded fields are dropped unread."""

    model_config = ConfigDict(extra="ignore", defer_build=True)


def _members(view: type) -> frozenset[str]:
    """The names a protocol (and its protocol bases) declares, as attributes or properties: what judging reads."""
    declared = (name for base in view.__mro__ for name in inspect.get_annotations(base))
    properties = (name for base in view.__mro__ for name, value in vars(base).items() if isinstance(value, property))
    return frozenset((*declared, *properties))


def _slim_field(info: FieldInfo, annotation: Any) -> tuple[Any, Any]:
    """A field of a full model as the slim read takes it: the same type and validators, a null taking the default
    inside the validator (`_OrDefault`) instead of `ApiModel`'s after-validator."""
    metadata = [item for item in info.metadata if item is not NULL_ACCEPTED]
    if info.is_required() or (info.default_factory is None and info.default is None):
        typed = Annotated[(annotation, *metadata)] if metadata else annotation
        return typed, ... if info.is_required() else None
    slim = Annotated[(annotation, *metadata, _OrDefault(partial(info.get_default, call_default_factory=True)))]
    if info.default_factory is not None:
        return slim, Field(default_factory=info.default_factory)
    return slim, info.default


def slim_model(
    model_name: str, full: type[BaseModel], view: type, by_name: Iterable[str] = (), **retyped: Any
) -> type[_Slim]:
    """A slim model of `full`: the fields `view` names and those read `by_name`, in `full`'s order, each read as
    `full` reads it (`retyped` gives a field another type, e.g. a list of a slim model)."""
    wanted = _members(view) | frozenset(by_name)
    fields: dict[str, Any] = {
        name: _slim_field(info, retyped.get(name, info.annotation))
        for name, info in full.model_fields.items()
        if name in wanted
    }
    missing = wanted - fields.keys()
    if missing:  # a protocol naming what the full model lacks: fail at import, not in a verdict
        raise TypeError(f"{full.__name__} has no field {sorted(missing)} that {view.__name__} names")
    doc = f"`{full.__name__}` as judging reads it: the fields `{view.__name__}` names and those read by name."
    model: type[_Slim] = create_model(model_name, __base__=_Slim, __doc__=doc, __module__=__name__, **fields)
    return model


if TYPE_CHECKING:  # the typed view of the slim models: what the protocols say (their fields are built below)

    class FleetResult(_Slim, RunResult):
        """A domain result as judging reads it (`DomainResult`'s fields that `RunResult` names, and the counts)."""

    class FleetRun(_Slim, Run):
        """A completed run as judging reads it (`CompletedTask`'s fields that `Run` names, and the flags)."""

else:
    FleetResult = slim_model("FleetResult", DomainResult, RunResult, COUNT_NAMES)
    FleetRun = slim_model("FleetRun", CompletedTask, Run, FLAG_NAMES, domain_results=list[FleetResult])
